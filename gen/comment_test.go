package gen

import "testing"

func TestCommentLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text", "// plain text"},
		{"", "// "},
		{"//go:generate sh -c x", "// //go:generate sh -c x"},
		{"//line evil.go:1", "// //line evil.go:1"},
		{"/* opens", "// /* opens"},
		{"*/ closes", "// */ closes"},
		{"+build ignore", `// \+build ignore`},
		{"a +build b", "// a +build b"},
	} {
		if got := commentLine(tt.in); got != tt.want {
			t.Errorf("commentLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCommentText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain, ünïcode, 名前 and a\ttab", "plain, ünïcode, 名前 and a\ttab"},
		{"two\nlines", "two\nlines"},
		{"crlf\r\nand cr\rlines", "crlf\nand cr\nlines"},
		{"nul\x00 esc\x1b del\x7f nel\u0085", `nul\x00 esc\x1b del\x7f nel\u0085`},
		{"\ufeffbom", `\ufeffbom`},
		{"rlo\u202e lri\u2066 pdi\u2069", `rlo\u202e lri\u2066 pdi\u2069`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad\xffutf8", `bad\xffutf8`},
	} {
		if got := commentText(tt.in); got != tt.want {
			t.Errorf("commentText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestErrorEscapesHostileText(t *testing.T) {
	e := &Error{File: "dir/a\nb\x1b[2J.json", Pointer: "/properties/x\u202e", Keyword: "properties", Message: "first\nsecond \u2028 \x00"}
	want := `dir/a\x0ab\x1b[2J.json#/properties/x\u202e: properties: first` + "\n" + `second \u2028 \x00`
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
