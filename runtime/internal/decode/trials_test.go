package decode

import (
	"bytes"
	"testing"
)

// TestNestedChecksRemember: the checks of a recursive object run from the
// innermost level out, each reading the levels below; once a check reads a
// value holding the one checked before, the document's Decoder remembers
// where skipped values end, and a later read jumps over them. Here the
// bytes inside level 1 are broken after the checks: a check of level 0
// that scanned them would find no member, one that jumps finds "a" whole.
func TestNestedChecksRemember(t *testing.T) {
	doc := []byte(`{"a":{"a":{"a":{"a":{"b":[1,2,3]}}}}}`)
	var levels [][]byte // levels[k] is the object at depth k
	for k, at := 0, 0; k < 5; k++ {
		at += bytes.IndexByte(doc[at:], '{')
		levels = append(levels, doc[at:len(doc)-k])
		at++
	}
	var d Decoder
	d.Reset("t", doc)
	for k := len(levels) - 1; k >= 0; k-- {
		d.Checking(levels[k])
		for range d.Members(levels[k]) {
		}
	}
	if d.memo == nil {
		t.Fatal("nested checks left nothing remembered")
	}
	inner := levels[1][1 : len(levels[1])-1]
	copy(inner, bytes.Repeat([]byte("!"), len(inner)))
	var names []string
	for name, value := range d.Members(levels[0]) {
		names = append(names, name)
		if len(value) != len(levels[1]) {
			t.Errorf("member %q is %d bytes, want %d", name, len(value), len(levels[1]))
		}
	}
	if len(names) != 1 || names[0] != "a" {
		t.Errorf("members %v after a jump, want [a]", names)
	}
	for name, value := range Members(levels[0]) {
		if value != nil {
			t.Errorf("a reader that does not remember read member %q of the broken bytes as %s", name, value)
		}
	}
}

// TestSiblingChecksRememberNothing: checks of values side by side (items
// of an array, each checked once) do not nest, and leave the decode with
// nothing remembered: no allocation for the common case.
func TestSiblingChecksRememberNothing(t *testing.T) {
	doc := []byte(`[{"a":{"x":1}},{"a":{"x":2}},{"a":{"x":3}}]`)
	var d Decoder
	d.Reset("t", doc)
	for _, item := range Items(doc) {
		d.Checking(item)
		for range d.Members(item) {
		}
	}
	if d.memo != nil {
		t.Error("sibling checks made the decode remember")
	}
}
