package violation

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Rendering. The records of a refusal become toolerr.Violations when the
// error's violations are first read: each pointer and message is written
// from the record's kind, its argument and its copies, exactly as it reads
// when rendered on the spot (package decode's TestLazyMatchesEager checks every
// kind).

// render writes the pointers and messages of the records, whose paths and
// values are in arena.
func render(records []record, arena []byte) []toolerr.Violation {
	size := 0
	for i := range records {
		rec := &records[i]
		size += 2*rec.pathLen() + rec.shownLen() + int(rec.argLen) + 64
	}
	// Every pointer and message views text, which is only ever appended
	// to: should it move as it grows, the strings already made keep
	// viewing the old block.
	text := make([]byte, 0, size)
	list := make([]toolerr.Violation, len(records))
	for i := range records {
		rec := &records[i]
		path := rec.path(arena)
		p := len(text)
		text = appendPointer(text, path)
		m := len(text)
		text = rec.appendMessage(text, path, rec.shown(arena))
		list[i] = toolerr.Violation{Keyword: templates[rec.kind()].keyword, InstancePath: viewOf(text, p, m), SchemaPath: rec.schemaPath(), Message: viewOf(text, m, len(text))}
	}
	return list
}

// viewOf returns b[from:to] as a string, without copying.
func viewOf(b []byte, from, to int) string {
	if from == to {
		return ""
	}
	return unsafe.String(&b[from], to-from)
}

// appendMessage appends the message of rec, whose path and shown value
// (or numbers) are given.
func (rec *record) appendMessage(b, path, got []byte) []byte {
	t := &templates[rec.kind()]
	start := len(b)
	b = appendSubject(b, path)
	if t.form == required {
		if len(b) > start {
			b = append(b, '.')
		}
		b = append(b, rec.argument()...)
		return append(b, " is required"...)
	}
	if len(b) == start {
		b = append(b, "the arguments"...)
	}
	switch t.form {
	case typed:
		b = append(b, " must be "...)
		b = AppendArticle(b, rec.argument())
		b = append(b, "; received "...)
		return append(b, got...)
	case counted:
		bound, n1 := binary.Varint(got)
		n, _ := binary.Varint(got[n1:])
		b = append(b, t.rule...)
		b = AppendPlural(b, int(bound), t.unit)
		b = append(b, t.after...)
		if t.nUnit == "" {
			return strconv.AppendInt(b, n, 10)
		}
		return AppendPlural(b, int(n), t.nUnit)
	case unique:
		i, n1 := binary.Varint(got)
		j, _ := binary.Varint(got[n1:])
		b = append(b, " must not contain duplicate items; items "...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, " and "...)
		b = strconv.AppendInt(b, j, 10)
		return append(b, " are equal"...)
	}
	b = append(b, t.rule...)
	b = append(b, rec.argument()...)
	b = append(b, t.after...)
	if len(got) > 0 {
		b = append(b, "; received "...)
		b = append(b, got...)
	}
	return b
}

// segment reads the first segment of an encoded path (see AppendPath):
// its tag, its index or name, and the rest of the path.
func segment(path []byte) (tag byte, index uint64, name, rest []byte) {
	tag, rest = path[0], path[1:]
	if tag >= segShort {
		n := int(tag &^ segShort)
		return segName, 0, rest[:n], rest[n:]
	}
	switch tag {
	case segIndex:
		var n int
		index, n = binary.Uvarint(rest)
		rest = rest[n:]
	case segName, segCutName:
		n := int(rest[0]) | int(rest[1])<<8
		name, rest = rest[2:2+n], rest[2+n:]
	}
	return tag, index, name, rest
}

// pointerEscaper escapes a member name as RFC 6901 requires.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// appendPointer appends an encoded path as an RFC 6901 JSON pointer, each
// cut name followed by "…", the whole cut at maxPathText bytes.
func appendPointer(b, path []byte) []byte {
	start := len(b)
	for len(path) > 0 {
		tag, index, name, rest := segment(path)
		path = rest
		if len(b)-start >= maxPathText || tag == segMore {
			return append(b, "/…"...)
		}
		if tag == segOfName {
			continue
		}
		b = append(b, '/')
		switch tag {
		case segIndex:
			b = strconv.AppendUint(b, index, 10)
		case segHidden:
			b = append(b, hiddenName...)
		default:
			if needsEscape(name) {
				b = append(b, pointerEscaper.Replace(string(name))...)
			} else {
				b = append(b, name...)
			}
			if tag == segCutName {
				b = append(b, "…"...)
			}
		}
	}
	return b
}

// appendSubject appends an encoded path as a message names it:
// "line_items[0].sku", each name shown as BareName decides, each cut name
// followed by "…", the whole cut at maxPathText bytes; "member name
// labels.toolong" for a violation of the name itself (segOfName).
func appendSubject(b, path []byte) []byte {
	if len(path) > 0 && path[0] == segOfName {
		b = append(b, "member name "...)
		path = path[1:]
	}
	start := len(b)
	for len(path) > 0 {
		tag, index, name, rest := segment(path)
		path = rest
		if len(b)-start >= maxPathText || tag == segMore {
			return append(b, "…"...)
		}
		if tag == segIndex {
			b = append(b, '[')
			b = strconv.AppendUint(b, index, 10)
			b = append(b, ']')
			continue
		}
		if len(b) > start {
			b = append(b, '.')
		}
		switch {
		case tag == segHidden:
			b = append(b, hiddenName...)
		case BareName(name):
			b = append(b, name...)
		default:
			b = AppendVisible(b, unsafe.String(unsafe.SliceData(name), len(name)))
		}
		if tag == segCutName {
			b = append(b, "…"...)
		}
	}
	return b
}

// AppendPlural appends "1 item" or "<n> items".
func AppendPlural(b []byte, n int, unit string) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	b = append(b, unit...)
	if n != 1 {
		b = append(b, 's')
	}
	return b
}

// AppendArticle appends s after "a" or "an".
func AppendArticle(b []byte, s string) []byte {
	if s == "" {
		return b
	}
	switch s[0] {
	case 'a', 'e', 'i', 'o', 'u':
		b = append(b, "an "...)
	default:
		b = append(b, "a "...)
	}
	return append(b, s...)
}

// needsEscape reports whether a name holds '~' or '/', which a JSON pointer
// token escapes.
func needsEscape(name []byte) bool {
	for _, c := range name {
		if c == '~' || c == '/' {
			return true
		}
	}
	return false
}
