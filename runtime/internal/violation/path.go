package violation

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// maxName bounds, in runes, each member name a violation's pointer and
// message repeat. A longer name is cut to its first maxName runes followed
// by "…", in the InstancePath as in the message, so that one long name
// (which the model wrote) cannot make each of up to MaxViolations
// violations as large as the input. Such a pointer no longer resolves in
// the arguments: a token ending in "…" after 128 runes marks the cut. Names
// the schema declares are far shorter, so the cut only ever applies to
// undeclared members and to the path through them. Only the bytes of the
// runes shown are read.
const maxName = 128

// maxPathText bounds, in bytes, the InstancePath and the message's subject
// of a violation: the segments that would go past it are left out and "/…"
// (pointer) or "…" (subject) marks the cut. With names cut at maxName, a
// deep path through long undeclared names would otherwise repeat up to
// 64×128 runes in each violation.
const maxPathText = 1024

// hiddenName stands, in pointers and messages, for a member name that is
// not shown: an undeclared name (a map key, an unknown member) read inside
// a sensitive value. A sensitive value covers its keys too: a map of
// secrets may be keyed by them. Declared names come from the schema and
// are shown.
const hiddenName = "*"

// The path a record copies is a sequence of segments, each a tag byte
// then its data: segIndex and the index (uvarint); segShort plus the
// length of a name of fewer than 128 bytes, not cut, then its decoded
// bytes; segName or segCutName (the name goes on past maxName runes), the
// length of the name shown (two bytes, little-endian) and its decoded
// bytes; segHidden (a name shown as hiddenName); segMore ends a path whose
// remaining segments are not copied; segOfName, first, says that the
// violation is of the member name the path ends with, not of its value
// (propertyNames: see ReportPropertyName). Paths are short: they are most
// of what a refusal of a shallow value copies.
const (
	segIndex byte = iota
	segName
	segCutName
	segHidden
	segMore
	segOfName
	segShort byte = 0x80
)

// A Seg is one step of a path: the byte offset of a member name's opening
// quote in the input (>= 0), or an array index i stored as -i-1.
type Seg int32

// AppendPath appends the path segs into data, encoded, each name decoded
// and cut at maxName runes, the names of the segments whose bit is set in
// hidden (bit i for segs[i]) shown as hiddenName. Once the segments copied
// would show at least maxPathText bytes (each name shows at least its
// length, in the pointer as in the subject, and an index or a hidden name
// at least one byte), segMore stands for the rest: both renderings cut the
// path there.
func AppendPath(b, data []byte, segs []Seg, hidden uint64) []byte {
	shown := 0
	for i, seg := range segs {
		if shown >= maxPathText {
			return append(b, segMore)
		}
		switch {
		case seg < 0:
			b = append(b, segIndex)
			b = binary.AppendUvarint(b, uint64(-seg-1))
			shown++
		case hidden&(1<<i) != 0:
			b = append(b, segHidden)
			shown++
		default:
			b = append(b, segShort)
			mark := len(b)
			var cut bool
			b, cut = appendName(b, data, int(seg), maxName)
			n := len(b) - mark
			if n < int(segShort) && !cut {
				b[mark-1] = segShort | byte(n)
			} else {
				// A name of at most maxName runes takes at most 512
				// bytes: its length fits two bytes (little-endian).
				b = append(b, 0, 0)
				copy(b[mark+2:], b[mark:mark+n])
				b[mark-1], b[mark], b[mark+1] = segName, byte(n), byte(n>>8)
				if cut {
					b[mark-1] = segCutName
				}
			}
			shown += n
		}
	}
	return b
}

// AppendOfName appends the tag that makes a path, which must follow, that
// of a member name rather than of its value (propertyNames).
func AppendOfName(b []byte) []byte { return append(b, segOfName) }

// AppendHidden appends the segment of a member name not shown (see
// hiddenName).
func AppendHidden(b []byte) []byte { return append(b, segHidden) }

// appendName appends at most max runes of the member name whose opening
// quote is data[off], a name the reader has already accepted (valid UTF-8
// and escapes), decoded, and reports whether the name goes on beyond them.
// It reads only the bytes of the runes it appends.
func appendName(b, data []byte, off, max int) ([]byte, bool) {
	i := off + 1
	// A short name without escapes is copied as it is.
	if end := min(len(data), i+max+1); i < end {
		if j := bytes.IndexByte(data[i:end], '"'); j >= 0 && bytes.IndexByte(data[i:i+j], '\\') < 0 {
			return append(b, data[i:i+j]...), false
		}
	}
	for n := 0; i < len(data) && data[i] != '"'; n++ {
		if n == max {
			return b, true
		}
		if data[i] != '\\' {
			_, size := utf8.DecodeRune(data[i:])
			b = append(b, data[i:i+size]...)
			i += size
			continue
		}
		if i+1 >= len(data) {
			break
		}
		c := data[i+1]
		i += 2
		switch c {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(data, i)
			i += 4
			if utf16.IsSurrogate(r) && i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
				r = utf16.DecodeRune(r, hex4(data, i+2))
				i += 6
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\', '/'
			b = append(b, c)
		}
	}
	return b, false
}

// hex4 reads the four hex digits at data[i:], or returns U+FFFD.
func hex4(data []byte, i int) rune {
	if i+4 > len(data) {
		return utf8.RuneError
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError
		}
	}
	return r
}

// AppendName appends the path segment of a member name (decoded, as
// AppendPath copies one from the input), cut at maxName runes.
func AppendName(b []byte, name string) []byte {
	cut := false
	if utf8.RuneCountInString(name) > maxName {
		i := 0
		for n := 0; n < maxName; n++ {
			_, size := utf8.DecodeRuneInString(name[i:])
			i += size
		}
		name, cut = name[:i], true
	}
	if len(name) < int(segShort) && !cut {
		return append(append(b, segShort|byte(len(name))), name...)
	}
	tag := segName
	if cut {
		tag = segCutName
	}
	return append(append(b, tag, byte(len(name)), byte(len(name)>>8)), name...)
}
