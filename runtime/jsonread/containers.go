package jsonread

import "strconv"

// ObjectStart consumes '{' and checks the depth limit.
func (r *Reader) ObjectStart() {
	r.open('{', "expected object")
}

// ArrayStart consumes '[' and checks the depth limit.
func (r *Reader) ArrayStart() {
	r.open('[', "expected array")
}

func (r *Reader) open(c byte, expected string) {
	if r.err != nil {
		return
	}
	i := skipWS(r.data, r.pos)
	if i < len(r.data) && r.data[i] == c {
		if r.push(i) {
			r.pos = i + 1
			r.first = true
		}
		return
	}
	r.mismatch(i, expected)
}

func (r *Reader) push(i int) bool {
	r.depth++
	if r.depth > r.maxDepth {
		r.fail(i, ErrTooDeep, "nesting exceeds "+strconv.Itoa(r.maxDepth)+" levels")
		return false
	}
	return true
}

// NextMember moves to the next member of the object opened by ObjectStart:
// it consumes the ',' before it, its name and the ':', and returns the name,
// unescaped like String but in a separate scratch buffer (valid until the
// next NextMember call, so it survives reading a string value). At '}' it
// consumes the brace and returns ok false; on error it returns ok false too.
func (r *Reader) NextMember() (name []byte, ok bool) {
	if r.err != nil {
		return nil, false
	}
	data := r.data
	i := skipWS(data, r.pos)
	if i >= len(data) {
		r.failEOF()
		return nil, false
	}
	if r.first {
		r.first = false
		if data[i] == '}' {
			r.pos = i + 1
			r.depth--
			return nil, false
		}
	} else {
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			r.pos = i + 1
			r.depth--
			return nil, false
		default:
			r.failAt(i, "after object member")
			return nil, false
		}
	}
	if i >= len(data) || data[i] != '"' {
		r.failAt(i, "looking for beginning of object member name")
		return nil, false
	}
	r.nameOff = i
	s, e, esc := i+1, 0, false
	if end, plain := r.plainString(i); plain {
		e, r.pos = end, end+1
	} else if s, e, esc = r.scanFrom(s, end); r.err != nil {
		return nil, false
	}
	i = skipWS(data, r.pos)
	if i >= len(data) || data[i] != ':' {
		r.failAt(i, "after object member name")
		return nil, false
	}
	r.pos = i + 1
	if !esc {
		return content(data, s, e), true
	}
	r.name = unescape(r.name[:0], data[s:e])
	return r.name, true
}

// NextItem moves to the next item of the array opened by ArrayStart,
// consuming the ',' before it. At ']' it consumes the bracket and returns
// false; on error it returns false too.
func (r *Reader) NextItem() bool {
	if r.err != nil {
		return false
	}
	data := r.data
	i := skipWS(data, r.pos)
	if i >= len(data) {
		r.failEOF()
		return false
	}
	c := data[i]
	if r.first {
		r.first = false
		if c == ']' {
			r.pos = i + 1
			r.depth--
			return false
		}
		r.pos = i
		return true
	}
	switch c {
	case ',':
		r.pos = i + 1
		return true
	case ']':
		r.pos = i + 1
		r.depth--
		return false
	}
	r.failAt(i, "after array element")
	return false
}
