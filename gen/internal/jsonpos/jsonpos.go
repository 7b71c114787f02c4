// Package jsonpos maps the JSON pointers of a document to line:column
// positions in its source, so that findings about a tool file can name the
// place an editor or a CI annotation jumps to. It reads the document once
// with runtime/jsonread, recording where each value (and each member's name)
// starts.
package jsonpos

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Pos is a place in a source file. Line and Column count from 1; Column
// counts Unicode code points, so a tab or an é is one column.
type Pos struct {
	Offset int
	Line   int
	Column int
}

// String renders "line:column".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) }

// Map holds the start of every value of one document by JSON pointer. For
// an object member the start is that of its name, which is where a reader
// looks for it.
type Map struct {
	data  []byte
	lines []int // byte offset of the start of each line
	at    map[string]int
}

// Read parses data strictly and records the position of every value.
func Read(data []byte) (*Map, error) {
	m := &Map{data: data, at: map[string]int{}, lines: []int{0}}
	for i, c := range data {
		if c == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	var r jsonread.Reader
	r.Reset(data, jsonval.Limits)
	m.value(&r, "", skipWS(data, 0))
	r.Finish()
	if err := r.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Map) value(r *jsonread.Reader, ptr string, start int) {
	if _, ok := m.at[ptr]; !ok {
		m.at[ptr] = start
	}
	switch r.Peek() {
	case jsonread.Object:
		r.ObjectStart()
		seen := map[string]bool{}
		for {
			name, ok := r.NextMember()
			if !ok {
				return
			}
			if seen[string(name)] {
				r.Fail(r.NameOffset(), jsonread.ErrDuplicateName, jsonread.DuplicateReason(name))
				return
			}
			seen[string(name)] = true
			child := ptr + "/" + jsonval.EscapeToken(string(name))
			m.at[child] = r.NameOffset()
			m.value(r, child, r.Offset())
		}
	case jsonread.Array:
		r.ArrayStart()
		for i := 0; r.NextItem(); i++ {
			m.value(r, ptr+"/"+strconv.Itoa(i), skipWS(m.data, r.Offset()))
		}
	default:
		r.Skip()
	}
}

func skipWS(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// Find returns the position of the value at ptr or, when the document has
// no such value (a missing keyword), of its nearest ancestor that it has.
func (m *Map) Find(ptr string) Pos {
	for {
		if off, ok := m.at[ptr]; ok {
			return m.pos(off)
		}
		if ptr == "" {
			return Pos{Line: 1, Column: 1}
		}
		ptr = parent(ptr)
	}
}

func parent(ptr string) string {
	for i := len(ptr) - 1; i >= 0; i-- {
		if ptr[i] == '/' {
			return ptr[:i]
		}
	}
	return ""
}

func (m *Map) pos(off int) Pos {
	lo, hi := 0, len(m.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{Offset: off, Line: lo + 1, Column: utf8.RuneCount(m.data[m.lines[lo]:off]) + 1}
}

// At returns the position of the byte at offset off of data (of the end of
// data when off is past it), as Find counts it: for a syntax error, whose
// document has no map.
func At(data []byte, off int) Pos {
	off = max(0, min(off, len(data)))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{Offset: off, Line: bytes.Count(data[:start], []byte{'\n'}) + 1, Column: utf8.RuneCount(data[start:off]) + 1}
}
