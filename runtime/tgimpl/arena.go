package tgimpl

import "unsafe"

// The arena. While a decode runs, the violations it finds and the copies
// they need stay in the Decoder, on the caller's stack: the first
// inlineRecords records in inline, the first inlineText bytes of copies in
// text. Only a decode that outgrows them allocates before it ends (many,
// spill); Finish then copies what was recorded into the error it returns,
// one block sized to it (see refusal.go). The copies are needed because
// the caller may reuse its input once the decode returns. The records
// refer to the arena by offset, so it may move as it grows; once it has
// moved to spill, text is no longer written, so a view of it (Quote,
// Text) stays valid until the decode ends. Nothing that the error keeps
// views the Decoder, which Reset may then reuse.

// inlineRecords is how many records the Decoder holds before they move
// to a block of their own.
const inlineRecords = 3

// inlineText is how many bytes of copies the Decoder holds before they
// move to a block of their own.
const inlineText = 72

// newRecord returns the record to set for the next violation.
func (d *Decoder) newRecord() *record {
	if d.many == nil && d.nInline < len(d.inline) {
		d.nInline++
		return &d.inline[d.nInline-1]
	}
	if d.many == nil {
		d.many = append(make([]record, 0, 2*len(d.inline)), d.inline[:]...)
	}
	d.many = append(d.many, record{})
	return &d.many[len(d.many)-1]
}

// lastRecord returns the record set last.
func (d *Decoder) lastRecord() *record {
	if d.many != nil {
		return &d.many[len(d.many)-1]
	}
	return &d.inline[d.nInline-1]
}

// nRecords is how many violations were recorded.
func (d *Decoder) nRecords() int {
	if d.many != nil {
		return len(d.many)
	}
	return d.nInline
}

// textLen is how many bytes the arena holds.
func (d *Decoder) textLen() int {
	if d.spill != nil {
		return len(d.spill)
	}
	return d.nText
}

// arenaText returns the arena's bytes, for Finish to copy.
func (d *Decoder) arenaText() []byte {
	if d.spill != nil {
		return d.spill
	}
	return d.text[:d.nText]
}

// tail returns the arena's free space. A writer appends to it and passes
// the result to took, changing the arena in no other way in between.
func (d *Decoder) tail() []byte {
	if d.spill != nil {
		return d.spill[len(d.spill):]
	}
	return d.text[d.nText:d.nText]
}

// took makes b, tail with bytes appended, the arena's next bytes, and
// returns how many they are. Within tail's capacity they are in place
// already; past it append has made b a block of its own, which is copied
// (b is never kept: it may view the Decoder).
func (d *Decoder) took(b []byte) int {
	switch {
	case d.spill != nil && cap(b) == cap(d.spill)-len(d.spill):
		d.spill = d.spill[:len(d.spill)+len(b)]
	case d.spill != nil:
		d.spill = append(d.spill, b...)
	case cap(b) == len(d.text)-d.nText:
		d.nText += len(b)
	default:
		d.spill = append(append(make([]byte, 0, 2*(d.nText+len(b))), d.text[:d.nText]...), b...)
	}
	return len(b)
}

// view returns the arena's bytes from from on as a string, without
// copying, valid until the decode ends.
func (d *Decoder) view(from int) string {
	to := d.textLen()
	switch {
	case from == to:
		return ""
	case d.spill != nil:
		return unsafe.String(&d.spill[from], to-from)
	}
	return unsafe.String(&d.text[from], to-from)
}
