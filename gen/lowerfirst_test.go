package gen

import "testing"

// TestLowerFirst: a capital is lowered only before a small letter, or as
// the article "A"; invalid UTF-8 comes out as U+FFFD, byte by byte.
func TestLowerFirst(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"The order", "the order"},
		{"A contact", "a contact"},
		{"URL of the page", "URL of the page"},
		{"ISO 3166 code", "ISO 3166 code"},
		{"Éclair", "éclair"},
		{"A", "A"},
		{"", ""},
		{"x", "x"},
		{"The \xff\xfe end", "the \uFFFD\uFFFD end"},
		{"\xffAb", "\uFFFDAb"},
	} {
		if got := lowerFirst(c.in); got != c.want {
			t.Errorf("lowerFirst(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
