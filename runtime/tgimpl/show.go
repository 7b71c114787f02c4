package tgimpl

import "github.com/toolgate/toolgate/runtime/internal/violation"

// Show renders a string value the way messages show values: bare when it
// is a plain word, quoted otherwise (see violation.Show). The generator
// calls it to write the values of enum and const messages.
func Show(s string) string { return violation.Show(s) }
