package tgimpl

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The records. A violation is recorded, when it is found, as a record:
// its kind (which keyword, which message template), the keyword's schema
// pointer and the template's argument from the schema (constants of the
// generated code), and, copied into the decoder's text arena, the path to
// the value (see appendPath) and the value as the message shows it. The
// copies are needed because the caller may reuse its input once the decode
// returns. The pointers and messages are rendered from the records when
// the error's violations are first read (see message.go).

// A record is one violation, as found.
// It takes 32 bytes, not the 40 of two strings and two offsets: the
// strings' data and lengths are kept apart (see schemaPath and argument).
type record struct {
	// The keyword's pointer in the tool's effective schema, and the
	// template's argument (the enum values, the bound, the declared
	// names...): their data and lengths.
	spData, argData *byte
	spLen, argLen   uint32
	// The arena holds, from at, the path to the value, encoded (see
	// appendPath), then the value shown ("" when not shown) or a counted
	// kind's numbers (see counted). lens packs the kind and both lengths.
	at   uint32
	lens uint32
}

// A record's lens: the path's length in its low 13 bits, the shown
// value's in the next 13, the kind plus one in the top 6 (so that the
// lens of a record set is never zero). A path copies less than
// maxPathText bytes of names before the name that crosses it (at most
// maxName runes, 512 bytes), and at most six bytes more per segment, of
// which there are at most maxPath: under 2,200 bytes. A value shown is at
// most maxShown bytes and "…", with FloatBound's float64 after it: both
// stay below 1<<13.
const (
	lenBits = 13
	lenMask = 1<<lenBits - 1
)

// The kind plus one must fit the top 32-2*lenBits bits: this does not
// compile when kinds outgrow them.
var _ [1<<(32-2*lenBits) - 1 - nKinds]struct{}

func (r *record) schemaPath() string { return unsafe.String(r.spData, r.spLen) }
func (r *record) argument() string   { return unsafe.String(r.argData, r.argLen) }
func (r *record) kind() kind         { return kind(r.lens>>(2*lenBits)) - 1 }
func (r *record) pathLen() int       { return int(r.lens & lenMask) }
func (r *record) shownLen() int      { return int(r.lens >> lenBits & lenMask) }
func (r *record) path(text []byte) []byte {
	return text[r.at : int(r.at)+r.pathLen()]
}
func (r *record) shown(text []byte) []byte {
	from := int(r.at) + r.pathLen()
	return text[from : from+r.shownLen()]
}

// begin records a violation of kind k at the current path, unless
// violations are no longer recorded. In a trial, which reports no
// violation, the first one ends the read instead (see Trial).
func (d *Decoder) begin(k kind, sp, arg string) bool {
	if d.trial {
		d.R.Stop()
		return false
	}
	if !d.recording() {
		return false
	}
	at := d.textLen()
	d.took(d.appendPath(d.tail()))
	r := d.newRecord()
	r.spData, r.spLen = unsafe.StringData(sp), uint32(len(sp))
	r.argData, r.argLen = unsafe.StringData(arg), uint32(len(arg))
	r.at, r.lens = uint32(at), uint32(k+1)<<(2*lenBits)|uint32(d.textLen()-at)
	return true
}

// shows makes the n bytes appended last to the arena, which follow the
// path of the violation recorded last, what it shows.
func (d *Decoder) shows(n int) {
	d.lastRecord().lens |= uint32(n) << lenBits
}

// Quote is the package's Quote for a violation method's got: it costs no
// allocation of its own. A short plain word of the input is returned as a
// view of the input, which the violation then copies; anything else is
// written into the decoder's arena. It returns "" once violations are no
// longer recorded, when the text would not be used.
func (d *Decoder) Quote(s []byte) string {
	if !d.recording() {
		return ""
	}
	if len(s) <= maxEcho && plainWord(s) && d.inInput(s) {
		return View(s)
	}
	from := d.textLen()
	d.took(appendQuote(d.tail(), s))
	return d.view(from)
}

// Text is the package's Text for a violation method's got (see Quote).
func (d *Decoder) Text(raw []byte) string {
	if !d.recording() {
		return ""
	}
	if len(raw) <= maxEcho && d.inInput(raw) {
		return View(raw)
	}
	from := d.textLen()
	d.took(appendText(d.tail(), raw))
	return d.view(from)
}

func (d *Decoder) recording() bool {
	if d.R.Err() != nil || d.trial {
		return false
	}
	if d.nRecords() >= toolerr.MaxViolations {
		d.truncated = true
		return false
	}
	return true
}

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

// appendPath appends the current path, encoded, each name decoded and cut
// at maxName runes. Once the segments copied would show at least
// maxPathText bytes (each name shows at least its length, in the pointer
// as in the subject, and an index or a hidden name at least one byte),
// segMore stands for the rest: both renderings cut the path there.
func (d *Decoder) appendPath(b []byte) []byte {
	shown := 0
	for i, seg := range d.segments() {
		if shown >= maxPathText {
			return append(b, segMore)
		}
		switch {
		case seg < 0:
			b = append(b, segIndex)
			b = binary.AppendUvarint(b, uint64(-seg-1))
			shown++
		case d.hiddenSegs&(1<<i) != 0:
			b = append(b, segHidden)
			shown++
		default:
			b = append(b, segShort)
			mark := len(b)
			var cut bool
			b, cut = appendName(b, d.R.Data(), int(seg), maxName)
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

// nameAt decodes at most max runes of the member name whose opening quote
// is data[off] (see appendName).
func nameAt(data []byte, off, max int) (name string, cut bool) {
	b, cut := appendName(nil, data, off, max)
	return string(b), cut
}

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

func (d *Decoder) segments() []pathSeg {
	return d.path[:min(d.depth, maxPath)]
}

// appendPlural appends "1 item" or "<n> items".
func appendPlural(b []byte, n int, unit string) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	b = append(b, unit...)
	if n != 1 {
		b = append(b, 's')
	}
	return b
}

// appendArticle appends s after "a" or "an" (see Article).
func appendArticle(b []byte, s string) []byte {
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
