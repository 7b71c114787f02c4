package tgimpl

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// A refusal holds what a decode that records a violation allocates, in one
// block made on the first violation: the error returned, room for the
// first violations and the start of the text arena their pointers and
// messages are written to. The block stays under 512 bytes, the largest
// size the allocator serves without a type header. A refusal with one or
// two short violations costs this one allocation; more grow the violation
// list or the arena as append does (the arena into a block of its own,
// which holds no pointers).
type refusal struct {
	err        toolerr.Error
	violations [2]toolerr.Violation
	text       [264]byte
}

// The text arena. Every pointer and message is appended to d.text and
// becomes a string that views its bytes (view): the arena is only ever
// appended to, so the bytes a string views never change, and when append
// moves the arena the strings keep the old block alive. Reset starts a new
// arena rather than reusing the old one, which an error already returned
// may still view.

// begin starts a violation at the current path, unless violations are no
// longer recorded: it writes the pointer, then the message's subject
// ("line_items[0].sku"), or emptySubject at the top level.
func (d *Decoder) begin(emptySubject string) bool {
	if !d.recording() {
		return false
	}
	d.arena()
	d.ptrStart = len(d.text)
	d.text = d.appendPointer(d.text)
	d.msgStart = len(d.text)
	d.text = d.appendSubject(d.text)
	if len(d.text) == d.msgStart {
		d.text = append(d.text, emptySubject...)
	}
	return true
}

// end records the violation begun last, its message being what was
// written since begin.
func (d *Decoder) end(keyword, sp string) {
	d.violations = append(d.violations, toolerr.Violation{
		Keyword:      keyword,
		InstancePath: d.view(d.ptrStart, d.msgStart),
		SchemaPath:   sp,
		Message:      d.view(d.msgStart, len(d.text)),
	})
}

// arena makes the refusal block on the first violation.
func (d *Decoder) arena() {
	if d.refusal == nil {
		d.refusal = new(refusal)
		d.violations = d.refusal.violations[:0]
		d.text = d.refusal.text[:0]
	}
}

// view returns the arena's bytes [from, to) as a string, without copying.
func (d *Decoder) view(from, to int) string {
	if from == to {
		return ""
	}
	return unsafe.String(&d.text[from], to-from)
}

// Quote is the package's Quote for a violation method's got: it costs no
// allocation of its own. A short plain word of the input is returned as a
// view of the input, which the violation then copies into its message;
// anything else is written into the decoder's arena. It returns "" once
// violations are no longer recorded, when the text would not be used.
func (d *Decoder) Quote(s []byte) string {
	if !d.recording() {
		return ""
	}
	if len(s) <= maxEcho && plainWord(s) && d.inInput(s) {
		return View(s)
	}
	d.arena()
	from := len(d.text)
	d.text = appendQuote(d.text, s)
	return d.view(from, len(d.text))
}

// Text is the package's Text for a violation method's got (see Quote).
func (d *Decoder) Text(raw []byte) string {
	if !d.recording() {
		return ""
	}
	if len(raw) <= maxEcho && d.inInput(raw) {
		return View(raw)
	}
	d.arena()
	from := len(d.text)
	d.text = appendText(d.text, raw)
	return d.view(from, len(d.text))
}

func (d *Decoder) recording() bool {
	if d.R.Err() != nil {
		return false
	}
	if len(d.violations) >= toolerr.MaxViolations {
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

// appendPointer appends the current path as an RFC 6901 JSON pointer, each
// name cut at maxName runes, the whole cut at maxPathText bytes.
func (d *Decoder) appendPointer(b []byte) []byte {
	start := len(b)
	for i, seg := range d.segments() {
		if len(b)-start >= maxPathText {
			return append(b, "/…"...)
		}
		b = append(b, '/')
		switch {
		case seg < 0:
			b = strconv.AppendInt(b, int64(-seg-1), 10)
		case d.hiddenSegs&(1<<i) != 0:
			b = append(b, hiddenName...)
		default:
			mark := len(b)
			var cut bool
			b, cut = appendName(b, d.R.Data(), int(seg), maxName)
			if needsEscape(b[mark:]) {
				token := strings.NewReplacer("~", "~0", "/", "~1").Replace(string(b[mark:]))
				b = append(b[:mark], token...)
			}
			if cut {
				b = append(b, "…"...)
			}
		}
	}
	return b
}

// appendSubject appends the current path as a message names it:
// "line_items[0].sku", each name shown as bareName decides and cut at maxName
// runes, the whole cut at maxPathText bytes.
func (d *Decoder) appendSubject(b []byte) []byte {
	start := len(b)
	for i, seg := range d.segments() {
		if len(b)-start >= maxPathText {
			return append(b, "…"...)
		}
		if seg < 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(-seg-1), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > start {
			b = append(b, '.')
		}
		if d.hiddenSegs&(1<<i) != 0 {
			b = append(b, hiddenName...)
			continue
		}
		mark := len(b)
		var cut bool
		b, cut = appendName(b, d.R.Data(), int(seg), maxName)
		if !bareName(b[mark:]) {
			name := string(b[mark:])
			b = AppendVisible(b[:mark], name)
		}
		if cut {
			b = append(b, "…"...)
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
