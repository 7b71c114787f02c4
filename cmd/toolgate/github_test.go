package main

import "testing"

func TestGHEscape(t *testing.T) {
	for _, c := range []struct {
		in            string
		message, prop string
	}{
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"%0A", "%250A", "%250A"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"x\n::error::forged", "x%0A::error::forged", "x%0A%3A%3Aerror%3A%3Aforged"},
		{"a,b:c", "a,b:c", "a%2Cb%3Ac"},
		{"line=2,col=3", "line=2,col=3", "line=2%2Ccol=3"},
		{"naïve", "naïve", "naïve"},
		{"", "", ""},
	} {
		if got := ghEscape(c.in, false); got != c.message {
			t.Errorf("ghEscape(%q, message) = %q, want %q", c.in, got, c.message)
		}
		if got := ghEscape(c.in, true); got != c.prop {
			t.Errorf("ghEscape(%q, property) = %q, want %q", c.in, got, c.prop)
		}
	}
}

func TestAnnotation(t *testing.T) {
	for _, c := range []struct {
		level, file string
		line, col   int
		title, msg  string
		want        string
	}{
		{"error", "schemas/a.json", 4, 7, "trusted-identity", "is_admin: take it from the session", "::error file=schemas/a.json,line=4,col=7,title=trusted-identity::is_admin: take it from the session"},
		{"warning", "a,b.json", 1, 0, "", "m", "::warning file=a%2Cb.json,line=1::m"},
		{"notice", "a.json", 0, 5, "t", "m", "::notice file=a.json,title=t::m"},
		{"error", "", 0, 0, "", "I/O", "::error::I/O"},
		{"error", "", 0, 0, "title:x", "m", "::error title=title%3Ax::m"},
		// The terminal controls a file name may hold are escaped first.
		{"error", "a\x1b[2J.json", 0, 0, "", "m\r", "::error file=a\\x1b[2J.json::m\\x0d"},
	} {
		if got := annotation(c.level, c.file, c.line, c.col, c.title, c.msg); got != c.want {
			t.Errorf("annotation(%q, %q, %d, %d, %q, %q) = %q, want %q", c.level, c.file, c.line, c.col, c.title, c.msg, got, c.want)
		}
	}
}
