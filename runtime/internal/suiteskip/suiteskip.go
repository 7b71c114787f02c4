// Package suiteskip skips the tests under runtime/ whose suite cannot run
// here and says so where `make test` collects it: every skip appends the
// line
//
//	suite<TAB>package and test<TAB>reason
//
// to the file $TOOLGATE_SKIPLOG names (when it is set), and the Makefile's
// test target ends with one line naming each. A suite that reads ../shared
// (Missing) fails instead under CI=true, where every suite must run.
// gen/internal/suiteskip is the same for the tests of gen (an internal
// package serves one tree).
package suiteskip

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Missing skips t, naming suite and the folder dir relative to the module
// root, when dir does not exist; under CI=true it fails t.
func Missing(t testing.TB, suite, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); err == nil {
		return
	}
	reason := fromRoot(dir) + " missing"
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %s (required under CI=true)", suite, reason)
	}
	Skip(t, suite, reason)
}

// Skip records that t skips suite for reason and skips it.
func Skip(t testing.TB, suite, reason string) {
	t.Helper()
	if path := os.Getenv("TOOLGATE_SKIPLOG"); path != "" {
		where := fromRoot(".") + " " + t.Name()
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			// One short write with O_APPEND: lines of parallel test
			// binaries do not interleave.
			_, err = f.WriteString(field(suite) + "\t" + field(where) + "\t" + field(reason) + "\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			t.Fatalf("%s skips (%s) and cannot say so in TOOLGATE_SKIPLOG: %v", suite, reason, err)
		}
	}
	t.Skipf("%s skipped: %s", suite, reason)
}

// field keeps s on its line and in its column.
func field(s string) string { return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s) }

// fromRoot is path (relative to the working directory, the test's
// package) relative to the module root, with forward slashes.
func fromRoot(path string) string {
	_, file, _, ok := runtime.Caller(0)
	abs, err := filepath.Abs(path)
	if !ok || err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(filepath.Join(filepath.Dir(file), "..", "..", ".."), abs)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
