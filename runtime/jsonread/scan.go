package jsonread

// Peek skips whitespace and classifies the next value by its first byte
// without consuming it. At the end of input or at a byte that cannot start a
// value it records an error and returns Invalid.
func (r *Reader) Peek() Kind {
	if r.err != nil {
		return Invalid
	}
	i := skipWS(r.data, r.pos)
	r.pos = i
	if i < len(r.data) {
		if k := kindOf[r.data[i]]; k != Invalid {
			return k
		}
	}
	r.failAt(i, "looking for value")
	return Invalid
}

// Null consumes the literal null.
func (r *Reader) Null() {
	if r.err != nil {
		return
	}
	i := skipWS(r.data, r.pos)
	if i < len(r.data) && r.data[i] == 'n' {
		r.literal(i, "null")
		return
	}
	r.mismatch(i, "expected null")
}

// Bool consumes true or false.
func (r *Reader) Bool() bool {
	if r.err != nil {
		return false
	}
	i := skipWS(r.data, r.pos)
	if i < len(r.data) {
		switch r.data[i] {
		case 't':
			return r.literal(i, "true")
		case 'f':
			r.literal(i, "false")
			return false
		}
	}
	r.mismatch(i, "expected boolean")
	return false
}

// literal consumes lit (true, false or null) at i, whose first byte the
// caller has matched.
func (r *Reader) literal(i int, lit string) bool {
	data := r.data
	if len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit {
		r.pos = i + len(lit)
		return true
	}
	for j := i + 1; ; j++ {
		if j >= len(data) || data[j] != lit[j-i] {
			r.failAt(j, "in literal "+lit)
			return false
		}
	}
}

// KindOf is the kind of the value that data starts with, after
// whitespace: what Peek reports on a Reader reset to data, without the
// Reader. It is Invalid when no value can start there.
func KindOf(data []byte) Kind {
	if i := skipWS(data, 0); i < len(data) {
		return kindOf[data[i]]
	}
	return Invalid
}

// kindOf classifies a value by its first byte.
var kindOf = [256]Kind{
	'n': Null, 't': Bool, 'f': Bool, '"': String, '[': Array, '{': Object,
	'-': Number, '0': Number, '1': Number, '2': Number, '3': Number, '4': Number,
	'5': Number, '6': Number, '7': Number, '8': Number, '9': Number,
}

// skipWS returns the index of the first non-whitespace byte at or after i.
func skipWS(data []byte, i int) int {
	for i < len(data) {
		if c := data[i]; c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
			break
		}
		i++
	}
	return i
}
