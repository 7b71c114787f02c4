package jsonread

import "unsafe"

// Skip consumes one whole value and validates it as strictly as the typed
// reads would, including the depth limit and duplicate member names (after
// unescaping) in every object inside it.
func (r *Reader) Skip() {
	if r.err != nil {
		return
	}
	r.arena = r.arena[:0]
	r.skipValue()
}

// skipValue consumes one value of any kind at r.pos.
func (r *Reader) skipValue() {
	data := r.data
	i := skipWS(data, r.pos)
	if i >= len(data) {
		r.failEOF()
		return
	}
	switch kindOf[data[i]] {
	case Object:
		if r.ends != nil {
			r.skipRemembered(i)
			return
		}
		r.skipObject(i)
	case Array:
		if r.ends != nil {
			r.skipRemembered(i)
			return
		}
		r.skipArray(i)
	case String:
		r.scanString(i)
	case Number:
		r.scanNumber(i)
	case Bool:
		if data[i] == 't' {
			r.literal(i, "true")
		} else {
			r.literal(i, "false")
		}
	case Null:
		r.literal(i, "null")
	default:
		r.failAt(i, "looking for value")
	}
}

// skipRemembered is skipValue of the object or array at i for a Reader
// that remembers (see Remember).
func (r *Reader) skipRemembered(i int) {
	if r.jump(i) {
		return
	}
	if r.data[i] == '{' {
		r.skipObject(i)
	} else {
		r.skipArray(i)
	}
	r.noteEnd(i)
}

// smallObject is how many member names Skip compares one by one (by a tag
// of each first) before it switches to a map: a map costs an allocation per
// object, more than the scan of an object this wide.
const smallObject = 32

// seenName is one member name of the object Skip reads, in the 12 bytes
// of a table entry on the stack: its tag, and where it is, in the input
// or, escaped, in r.arena (which may move as it grows: it is found by
// offset).
type seenName struct {
	tag uint32
	off uint32
	n   uint32 // length, with inArena set for a name in r.arena
}

const inArena = 1 << 31

// nameTag is what two equal names share and most different ones do not:
// the length (cut to 16 bits), the first and the last byte. It costs no
// loop over the name.
func nameTag(name []byte) uint32 {
	t := uint32(len(name)) & 0xffff
	if len(name) > 0 {
		t |= uint32(name[0])<<24 | uint32(name[len(name)-1])<<16
	}
	return t
}

// bytes returns the name e is.
func (e *seenName) bytes(r *Reader) []byte {
	n := int(e.n &^ inArena)
	if e.n&inArena != 0 {
		return r.arena[e.off : int(e.off)+n]
	}
	return r.data[e.off : int(e.off)+n]
}

// skipObject consumes the object whose '{' is at i, checking member names for
// repeats.
func (r *Reader) skipObject(i int) {
	if !r.push(i) {
		return
	}
	data := r.data
	var small [smallObject]seenName
	n := 0
	var seen map[string]struct{}
	if len(data) >= inArena { // offsets would not fit an entry
		seen = map[string]struct{}{}
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		r.pos = i + 1
		r.depth--
		return
	}
	for {
		if i >= len(data) || data[i] != '"' {
			r.failAt(i, "looking for beginning of object member name")
			return
		}
		nameOff := i
		s, e, esc := r.scanString(i)
		if r.err != nil {
			return
		}
		name := data[s:e]
		entry := seenName{off: uint32(s), n: uint32(e - s)}
		if esc {
			a := len(r.arena)
			r.arena = unescape(r.arena, name)
			name = r.arena[a:]
			entry = seenName{off: uint32(a), n: uint32(len(name)) | inArena}
		}
		if seen == nil {
			entry.tag = nameTag(name)
			for k := range small[:n] {
				if small[k].tag == entry.tag && string(small[k].bytes(r)) == string(name) {
					r.fail(nameOff, ErrDuplicateName, duplicateReason(name))
					return
				}
			}
			if n < len(small) {
				small[n] = entry
				n++
			} else {
				seen = make(map[string]struct{}, 2*len(small))
				for k := range small {
					seen[view(small[k].bytes(r))] = struct{}{}
				}
				seen[view(name)] = struct{}{}
			}
		} else {
			if _, dup := seen[string(name)]; dup {
				r.fail(nameOff, ErrDuplicateName, duplicateReason(name))
				return
			}
			seen[view(name)] = struct{}{}
		}
		i = skipWS(data, r.pos)
		if i >= len(data) || data[i] != ':' {
			r.failAt(i, "after object member name")
			return
		}
		r.pos = i + 1
		r.skipValue()
		if r.err != nil {
			return
		}
		i = skipWS(data, r.pos)
		if i >= len(data) {
			r.failEOF()
			return
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			r.pos = i + 1
			r.depth--
			return
		default:
			r.failAt(i, "after object member")
			return
		}
	}
}

// view returns a name as a string without copying, to key the set of one
// object's names: a name is a slice of the input or of r.arena, neither of
// which changes while the object is read, and the set ends with it.
func view(name []byte) string {
	return unsafe.String(unsafe.SliceData(name), len(name))
}

// skipArray consumes the array whose '[' is at i.
func (r *Reader) skipArray(i int) {
	if !r.push(i) {
		return
	}
	data := r.data
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == ']' {
		r.pos = i + 1
		r.depth--
		return
	}
	r.pos = i
	for {
		r.skipValue()
		if r.err != nil {
			return
		}
		i = skipWS(data, r.pos)
		if i >= len(data) {
			r.failEOF()
			return
		}
		switch data[i] {
		case ',':
			r.pos = i + 1
		case ']':
			r.pos = i + 1
			r.depth--
			return
		default:
			r.failAt(i, "after array element")
			return
		}
	}
}
