// Package violation records the violations a toolgate decode finds and
// renders their messages. A Recorder keeps, while the decode runs, one small
// record per violation (its kind, the keyword's schema pointer, the
// message's argument) and, in its arena, the copies it needs: the path to
// the value, encoded (AppendPath), and the value as shown (AppendQuote,
// AppendText). Refuse makes the error of the decode, which renders the
// pointers and messages only when they are first read (render.go), so a
// valid call does no string work and a refusal little.
//
// It is the support of package decode, which generated decoders call
// through tgimpl; nothing outside runtime may import it.
package violation

import "unsafe"

// The records. A violation is recorded, when it is found, as a record:
// its kind (which keyword, which message template), the keyword's schema
// pointer and the template's argument from the schema (constants of the
// generated code), and, copied into the Recorder's arena, the path to
// the value (see AppendPath) and the value as the message shows it. The
// copies are needed because the caller may reuse its input once the decode
// returns. The pointers and messages are rendered from the records when
// the error's violations are first read (see render.go).

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
func (r *record) kind() Kind         { return Kind(r.lens>>(2*lenBits)) - 1 }
func (r *record) pathLen() int       { return int(r.lens & lenMask) }
func (r *record) shownLen() int      { return int(r.lens >> lenBits & lenMask) }
func (r *record) path(text []byte) []byte {
	return text[r.at : int(r.at)+r.pathLen()]
}
func (r *record) shown(text []byte) []byte {
	from := int(r.at) + r.pathLen()
	return text[from : from+r.shownLen()]
}

// A Recorder is the violations of one decode: their records and the copies
// they need. Its zero value is empty; it is meant to live in the decoder,
// on the caller's stack.
type Recorder struct {
	// The first records in inline, all of them in many once there are
	// more; the copies in text, then in spill once it outgrows text.
	inline    [inlineRecords]record
	nInline   int
	many      []record
	text      [inlineText]byte
	nText     int
	spill     []byte
	truncated bool
}

// Reset empties r.
func (r *Recorder) Reset() {
	r.nInline, r.many = 0, nil
	r.nText, r.spill = 0, nil
	r.truncated = false
}

// Truncate notes that violations were left out (toolerr.Error.Truncated).
func (r *Recorder) Truncate() { r.truncated = true }

// Truncated reports whether violations were left out.
func (r *Recorder) Truncated() bool { return r.truncated }

// Add records a violation of kind k whose keyword's pointer is sp and whose
// message's argument is arg (both constants of the generated code, kept as
// they are), and whose path is the arena's bytes from at on (see
// AppendPath and Tail).
func (r *Recorder) Add(k Kind, sp, arg string, at int) {
	rec := r.newRecord()
	rec.spData, rec.spLen = unsafe.StringData(sp), uint32(len(sp))
	rec.argData, rec.argLen = unsafe.StringData(arg), uint32(len(arg))
	rec.at, rec.lens = uint32(at), uint32(k+1)<<(2*lenBits)|uint32(r.TextLen()-at)
}

// Shows makes the n bytes appended last to the arena, which follow the
// path of the violation recorded last, what it shows.
func (r *Recorder) Shows(n int) {
	r.lastRecord().lens |= uint32(n) << lenBits
}

// Adopt records the violations of c, each at its path after prefix (an
// encoded path: see AppendPath), as long as fewer than max are recorded;
// past them r is truncated, as it is when c is.
func (r *Recorder) Adopt(c *Recorder, prefix []byte, max int) {
	text := c.arenaText()
	records := c.inline[:c.nInline]
	if c.many != nil {
		records = c.many
	}
	for i := range records {
		if r.Len() >= max {
			r.truncated = true
			break
		}
		rec := &records[i]
		at := r.TextLen()
		b := append(r.Tail(), prefix...)
		b = append(b, rec.path(text)...)
		pathLen := r.Took(b)
		shown := r.Took(append(r.Tail(), rec.shown(text)...))
		n := r.newRecord()
		*n = *rec
		n.at, n.lens = uint32(at), uint32(rec.kind()+1)<<(2*lenBits)|uint32(shown)<<lenBits|uint32(pathLen)
	}
	r.truncated = r.truncated || c.truncated
}

// The arena. While a decode runs, the violations it finds and the copies
// they need stay in the Recorder, on the caller's stack: the first
// inlineRecords records in inline, the first inlineText bytes of copies in
// text. Only a decode that outgrows them allocates before it ends (many,
// spill); Refuse then copies what was recorded into the error it returns,
// one block sized to it (see refusal.go). The copies are needed because
// the caller may reuse its input once the decode returns. The records
// refer to the arena by offset, so it may move as it grows; once it has
// moved to spill, text is no longer written, so a view of it (View)
// stays valid until the decode ends. Nothing that the error keeps views
// the Recorder, which Reset may then reuse.

// inlineRecords is how many records the Recorder holds before they move
// to a block of their own.
const inlineRecords = 3

// inlineText is how many bytes of copies the Recorder holds before they
// move to a block of their own.
const inlineText = 72

// newRecord returns the record to set for the next violation.
func (r *Recorder) newRecord() *record {
	if r.many == nil && r.nInline < len(r.inline) {
		r.nInline++
		return &r.inline[r.nInline-1]
	}
	if r.many == nil {
		r.many = append(make([]record, 0, 2*len(r.inline)), r.inline[:]...)
	}
	r.many = append(r.many, record{})
	return &r.many[len(r.many)-1]
}

// lastRecord returns the record set last.
func (r *Recorder) lastRecord() *record {
	if r.many != nil {
		return &r.many[len(r.many)-1]
	}
	return &r.inline[r.nInline-1]
}

// Len is how many violations were recorded.
func (r *Recorder) Len() int {
	if r.many != nil {
		return len(r.many)
	}
	return r.nInline
}

// TextLen is how many bytes the arena holds.
func (r *Recorder) TextLen() int {
	if r.spill != nil {
		return len(r.spill)
	}
	return r.nText
}

// arenaText returns the arena's bytes, for Refuse to copy.
func (r *Recorder) arenaText() []byte {
	if r.spill != nil {
		return r.spill
	}
	return r.text[:r.nText]
}

// Tail returns the arena's free space. A writer appends to it and passes
// the result to Took, changing the arena in no other way in between.
func (r *Recorder) Tail() []byte {
	if r.spill != nil {
		return r.spill[len(r.spill):]
	}
	return r.text[r.nText:r.nText]
}

// Took makes b, Tail with bytes appended, the arena's next bytes, and
// returns how many they are. Within Tail's capacity they are in place
// already; past it append has made b a block of its own, which is copied
// (b is never kept: it may view the Recorder).
func (r *Recorder) Took(b []byte) int {
	switch {
	case r.spill != nil && cap(b) == cap(r.spill)-len(r.spill):
		r.spill = r.spill[:len(r.spill)+len(b)]
	case r.spill != nil:
		r.spill = append(r.spill, b...)
	case cap(b) == len(r.text)-r.nText:
		r.nText += len(b)
	default:
		r.spill = append(append(make([]byte, 0, 2*(r.nText+len(b))), r.text[:r.nText]...), b...)
	}
	return len(b)
}

// View returns the arena's bytes from from on as a string, without
// copying, valid until the decode ends.
func (r *Recorder) View(from int) string {
	to := r.TextLen()
	switch {
	case from == to:
		return ""
	case r.spill != nil:
		return unsafe.String(&r.spill[from], to-from)
	}
	return unsafe.String(&r.text[from], to-from)
}
