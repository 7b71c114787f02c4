package decode

import "github.com/toolgate/toolgate/runtime/jsonread"

// The calls a generated decode method makes around the value of each
// member: the duplicate and required checks over its set of members read,
// a null that means absent, and the type of an object, array or boolean.

// Mark returns seen, the members of the object read so far, with bit (a
// single bit) added for the member just read. A bit already in seen is a
// duplicate member, recorded (DuplicateMember): the reader then fails, so
// that nothing more is read, the member's value included. seen is passed
// by value so that the caller's set stays in a register.
func (d *Decoder) Mark(seen, bit uint64) uint64 {
	if seen&bit != 0 {
		d.DuplicateMember()
	}
	return seen | bit
}

// AbsentNull reports whether the value that follows is a null that means
// the member is absent, consuming it: an optional, non-nullable member of
// a call decoded with NullAsAbsent (in a trial, noted: see absent.go).
func (d *Decoder) AbsentNull() bool {
	if !d.NullAsAbsent || d.R.Peek() != jsonread.Null {
		return false
	}
	d.noteAbsent()
	return true
}

// RequiredMissing records a Required violation at sp for each member of
// the required mask that seen lacks: names are the required members, one
// per bit of mask, lowest bit first.
func (d *Decoder) RequiredMissing(sp string, seen, mask uint64, names ...string) {
	i := 0
	for bit := uint64(1); bit != 0 && i < len(names); bit <<= 1 {
		if mask&bit == 0 {
			continue
		}
		if seen&bit == 0 {
			d.Required(sp, names[i])
		}
		i++
	}
}

// AtObject reports whether the value that follows is an object, to be
// read by the caller; any other value is a type violation at sp (the type
// keyword's pointer), recorded and skipped.
func (d *Decoder) AtObject(sp string) bool { return d.at(jsonread.Object, sp, "object") }

// AtArray is AtObject for an array.
func (d *Decoder) AtArray(sp string) bool { return d.at(jsonread.Array, sp, "array") }

func (d *Decoder) at(k jsonread.Kind, sp, want string) bool {
	if d.R.Peek() == k {
		return true
	}
	d.TypeMismatch(sp, want)
	return false
}

// ReadBool reads a boolean, recording a type violation at sp (the type
// keyword's pointer) for any other value.
func (d *Decoder) ReadBool(sp string) (x, ok bool) {
	if d.R.Peek() != jsonread.Bool {
		d.TypeMismatch(sp, "boolean")
		return false, false
	}
	return d.R.Bool(), true
}
