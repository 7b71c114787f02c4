package jsonread

import (
	"bytes"
	"testing"
	"unsafe"
)

func TestScratchAliasing(t *testing.T) {
	in := []byte(`{"plain":"raw","n\u0061me":"v\u0061lue","other":"s\u0065cond","skip":{"\u006b":1}}`)
	var r Reader
	r.Reset(in, Limits{})
	r.ObjectStart()

	name, _ := r.NextMember()
	if !within(name, in) {
		t.Error("unescaped name does not alias the input")
	}
	if cap(name) != len(name) {
		t.Errorf("aliasing name has spare capacity %d; appending would write into the input", cap(name)-len(name))
	}
	v := r.String()
	if !within(v, in) || string(v) != "raw" {
		t.Errorf("unescaped string %q does not alias the input", v)
	}
	if cap(v) != len(v) {
		t.Errorf("aliasing string has spare capacity %d; appending would write into the input", cap(v)-len(v))
	}

	name, _ = r.NextMember()
	if within(name, in) || string(name) != "name" {
		t.Errorf("escaped name %q aliases the input", name)
	}
	v = r.String()
	if within(v, in) || string(v) != "value" {
		t.Errorf("escaped string %q aliases the input", v)
	}
	if string(name) != "name" {
		t.Errorf("name clobbered by String: %q", name)
	}

	name2, _ := r.NextMember()
	if string(v) != "value" {
		t.Errorf("String result clobbered by NextMember: %q", v)
	}
	v2 := r.String()
	if string(v2) != "second" || string(name2) != "other" {
		t.Errorf("got %q:%q", name2, v2)
	}

	name3, _ := r.NextMember()
	r.Skip() // unescapes the inner name into its own buffer
	if string(name3) != "skip" || string(v2) != "second" {
		t.Errorf("Skip clobbered %q or %q", name3, v2)
	}
	if _, ok := r.NextMember(); ok || r.Err() != nil {
		t.Fatalf("object not closed: %v", r.Err())
	}
}

func within(b, data []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return lo <= p && p < lo+uintptr(len(data))
}

func TestUnquote(t *testing.T) {
	tests := []struct {
		data   string
		offset int
		want   string
	}{
		{`"abc"`, 0, "abc"},
		{`{"a\u0062c":1}`, 1, "abc"},
		{`["\ud83d\ude00"]`, 1, "\U0001F600"},
		{`"a\"b"`, 0, `a"b`},
		{`abc`, 0, ""},
		{`"abc"`, 5, ""},
		{`"abc"`, -1, ""},
		{`"ab`, 0, "ab"},
		{"\"a\xffb\"", 0, "a"},
		{`"ab\ud800"`, 0, "ab"},
		{`"ab\q"`, 0, `ab\`},
	}
	for _, tt := range tests {
		if got := Unquote([]byte(tt.data), tt.offset); got != tt.want {
			t.Errorf("Unquote(%q, %d) = %q, want %q", tt.data, tt.offset, got, tt.want)
		}
	}
}

func TestPlainRun(t *testing.T) {
	// Every special byte at every position of a word, with ordinary bytes
	// around it, including bytes that provoke borrows in the word test.
	for _, special := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xff} {
		for _, filler := range []byte{'a', ' ', 0x21, 0x5b, 0x5d, 0x7f, 0x20} {
			for pos := range 20 {
				data := bytes.Repeat([]byte{filler}, 24)
				data[pos] = special
				if got := plainRun(data, 0); got != pos {
					t.Fatalf("plainRun(%q) = %d, want %d", data, got, pos)
				}
			}
		}
	}
	if got := plainRun([]byte("abcdefghijk"), 3); got != 11 {
		t.Fatalf("plainRun without special byte = %d, want 11", got)
	}
}
