package gen

import (
	"regexp"
	"testing"
)

// blanksRE is what collapseBlanks replaced: the reference it must agree
// with.
var blanksRE = regexp.MustCompile(`[ \t]+`)

// TestCollapseBlanks: runs of spaces and tabs become one space, anywhere,
// and nothing else changes (invalid UTF-8 and other white space included).
func TestCollapseBlanks(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"one two", "one two"},
		{"one  two", "one two"},
		{"one\ttwo", "one two"},
		{" \t one \t\t two  ", " one two "},
		{"a\u00a0 \u00a0b", "a\u00a0 \u00a0b"},
		{"a\v\f\u2003b", "a\v\f\u2003b"},
		{"\xff  \xfe\t\xe2\x80", "\xff \xfe \xe2\x80"},
		{"héllo    wörld", "héllo wörld"},
	} {
		if got := collapseBlanks(tc.in); got != tc.want {
			t.Errorf("collapseBlanks(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if ref := blanksRE.ReplaceAllString(tc.in, " "); ref != tc.want {
			t.Errorf("the regexp gives %q for %q, the table %q", ref, tc.in, tc.want)
		}
	}
}

// FuzzCollapseBlanks: collapseBlanks agrees with the regexp on any input.
func FuzzCollapseBlanks(f *testing.F) {
	for _, s := range []string{"", "a  b", "\t\t", "x \t y", "\xff \t\xfe", "é  \u00a0 ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := collapseBlanks(s), blanksRE.ReplaceAllString(s, " "); got != want {
			t.Fatalf("collapseBlanks(%q) = %q, the regexp %q", s, got, want)
		}
	})
}
