package tgimpl

import "github.com/toolgate/toolgate/runtime/internal/pattern"

// Matcher reports whether a string contains a match of a pattern.
type Matcher = pattern.Matcher

// MustPattern compiles a pattern (in Go's syntax) once, for a package
// variable; it panics on an invalid pattern as regexp.MustCompile does
// (see pattern.MustCompile).
func MustPattern(expr string) Matcher { return pattern.MustCompile(expr) }
