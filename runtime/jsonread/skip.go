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
		r.fail(len(data), reasonEOF)
		return
	}
	switch kindOf[data[i]] {
	case Object:
		r.skipObject(i)
	case Array:
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

// smallObject is how many member names Skip compares by linear scan before
// it switches to a map.
const smallObject = 16

// skipObject consumes the object whose '{' is at i, checking member names for
// repeats.
func (r *Reader) skipObject(i int) {
	if !r.push(i) {
		return
	}
	data := r.data
	var small [smallObject][]byte
	n := 0
	var seen map[string]struct{}
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
		if esc {
			a := len(r.arena)
			r.arena = unescape(r.arena, name)
			name = r.arena[a:]
		}
		if seen == nil {
			for _, prev := range small[:n] {
				if string(prev) == string(name) {
					r.fail(nameOff, duplicateReason(name))
					return
				}
			}
			if n < len(small) {
				small[n] = name
				n++
			} else {
				seen = make(map[string]struct{}, 2*len(small))
				for _, prev := range small {
					seen[view(prev)] = struct{}{}
				}
				seen[view(name)] = struct{}{}
			}
		} else {
			if _, dup := seen[string(name)]; dup {
				r.fail(nameOff, duplicateReason(name))
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
			r.fail(len(data), reasonEOF)
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
			r.fail(len(data), reasonEOF)
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
