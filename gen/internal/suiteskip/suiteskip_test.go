package suiteskip

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records what Missing and Skip ask of the test; Fatalf ends the
// call as testing's does (by a panic the test recovers, fatal).
type fakeTB struct {
	testing.TB
	name            string
	skipped, failed string
}

func (f *fakeTB) Helper()                        {}
func (f *fakeTB) Name() string                   { return f.name }
func (f *fakeTB) Skipf(format string, a ...any)  { f.skipped = fmtS(format, a...) }
func (f *fakeTB) Fatalf(format string, a ...any) { f.failed = fmtS(format, a...); panic(fatal{}) }
func fmtS(format string, a ...any) string        { return strings.TrimSpace(fmt.Sprintf(format, a...)) }

// fatal is the panic of fakeTB.Fatalf.
type fatal struct{}

// call runs f up to its end or a Fatalf.
func call(f func()) {
	defer func() {
		if r := recover(); r != nil && r != (fatal{}) {
			panic(r)
		}
	}()
	f()
}

func TestMissing(t *testing.T) {
	here := t.TempDir()
	gone := filepath.Join(here, "gone")
	for _, c := range []struct {
		name, dir, ci string
		logged        bool
		skipped       bool
		failed        bool
	}{
		{"present", here, "", false, false, false},
		{"present under CI", here, "true", false, false, false},
		{"missing", gone, "", true, true, false},
		{"missing under CI", gone, "true", false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "skipped")
			t.Setenv("TOOLGATE_SKIPLOG", log)
			t.Setenv("CI", c.ci)
			tb := &fakeTB{name: "TestX/sub"}
			call(func() { Missing(tb, "Some suite", c.dir) })
			data, err := os.ReadFile(log)
			if c.logged != (err == nil) || (tb.skipped != "") != c.skipped || (tb.failed != "") != c.failed {
				t.Fatalf("log %q (%v), skipped %q, failed %q", data, err, tb.skipped, tb.failed)
			}
			if !c.logged {
				return
			}
			want := "Some suite\tgen/internal/suiteskip TestX/sub\t" + fromRoot(gone) + " missing\n"
			if string(data) != want || !strings.Contains(tb.skipped, "Some suite skipped: ") {
				t.Errorf("log %q, want %q; skip message %q", data, want, tb.skipped)
			}
		})
	}
}

// TestSkipAppends: each skip is one line, appended; tabs and line breaks
// in a field cannot make more fields or lines.
func TestSkipAppends(t *testing.T) {
	log := filepath.Join(t.TempDir(), "skipped")
	t.Setenv("TOOLGATE_SKIPLOG", log)
	Skip(&fakeTB{name: "TestA"}, "A", "first")
	Skip(&fakeTB{name: "TestB"}, "B\tb", "second\nline")
	data, err := os.ReadFile(log)
	want := "A\tgen/internal/suiteskip TestA\tfirst\nB b\tgen/internal/suiteskip TestB\tsecond line\n"
	if err != nil || string(data) != want {
		t.Errorf("log %q (%v), want %q", data, err, want)
	}
}

// TestSkipUnlogged: without TOOLGATE_SKIPLOG a skip is only a skip.
func TestSkipUnlogged(t *testing.T) {
	t.Setenv("TOOLGATE_SKIPLOG", "")
	tb := &fakeTB{name: "TestA"}
	Skip(tb, "A", "why")
	if tb.skipped != "A skipped: why" || tb.failed != "" {
		t.Errorf("skipped %q, failed %q", tb.skipped, tb.failed)
	}
}
