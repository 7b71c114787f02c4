package decode

import (
	"encoding/json"
	"slices"
)

// Null as absent inside branches. A call decoded with NullAsAbsent (OpenAI
// strict, whose definitions list every member of every object as required
// and nullable, in the branches of anyOf too) sends null for an optional
// member it means to leave out. The trials of a composition decode the
// branches with the caller's NullAsAbsent (TrialOf), a trial that holds
// hands the members it took as absent to its caller (Remember, and Tried
// for a remembered verdict), and a value kept as its raw bytes is handed
// on without them (Kept): what the gate accepts is what runs, and it
// re-encodes to what Decode accepts.

// span locates a member, from its name's opening quote to the end of its
// value, in the document of a decode (the input of its outermost Decoder).
type span struct{ from, to int }

// Kept returns the bytes of raw, a value just read by d (a view of its
// input) and checked, to be kept as they are: a copy, without the members
// whose null a branch that holds took as absent; in a trial, which keeps
// nothing, raw itself.
func (d *Decoder) Kept(raw []byte) json.RawMessage {
	if d.trial {
		return raw
	}
	at := d.offsetOf(raw)
	var cut []span
	if at >= 0 {
		d.absent = slices.DeleteFunc(d.absent, func(s span) bool {
			if s.from >= at && s.to <= at+len(raw) {
				cut = append(cut, span{s.from - at, s.to - at})
				return true
			}
			return false
		})
	}
	if len(cut) == 0 {
		return append([]byte(nil), raw...)
	}
	out := append([]byte(nil), raw...)
	for i := len(cut) - 1; i >= 0; i-- {
		out = withoutMember(out, cut[i])
	}
	return out
}

// withoutMember removes the member at s from the object text b, with the
// comma that separates it from the next member or, for the last one, from
// the one before.
func withoutMember(b []byte, s span) []byte {
	from, to := s.from, s.to
	j := to
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j < len(b) && b[j] == ',' {
		to = j + 1
		for to < len(b) && isSpace(b[to]) {
			to++
		}
	} else {
		i := from - 1
		for i >= 0 && isSpace(b[i]) {
			i--
		}
		if i >= 0 && b[i] == ',' {
			from = i
		}
	}
	return append(b[:from], b[to:]...)
}

// takeAbsent adds to d's members taken as absent those of a branch that
// holds, each once: the branches of an anyOf that both hold hand up the
// same members from below, which appended as they come would double at
// every level of a recursive union.
func (d *Decoder) takeAbsent(spans []span) {
	if len(spans) == 0 {
		return
	}
	d.absent = append(d.absent, spans...)
	slices.SortFunc(d.absent, func(a, b span) int { return a.from - b.from })
	d.absent = slices.Compact(d.absent)
}

// noteAbsent notes, in a trial, that the member being read is absent: its
// value, the null that follows, is read.
func (d *Decoder) noteAbsent() {
	name := -1
	if d.depth > 0 && d.depth <= maxPath && d.path[d.depth-1] >= 0 {
		name = int(d.path[d.depth-1])
	}
	d.R.Null()
	if !d.trial || name < 0 {
		return
	}
	if base := d.offsetOf(d.R.Data()); base >= 0 {
		d.absent = append(d.absent, span{base + name, base + d.R.Offset()})
	}
}

// offsetOf returns where b, a view of d's input, starts in the document
// of the decode, or -1 when b is not such a view (a member name tried by
// propertyNames, say).
func (d *Decoder) offsetOf(b []byte) int {
	if at, ok := offsetIn(d.document(), b); ok {
		return at
	}
	return -1
}
