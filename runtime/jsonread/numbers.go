package jsonread

// Number consumes a number and returns its text, validated against the RFC
// 8259 grammar, as a slice of the input.
func (r *Reader) Number() []byte {
	raw, ok := r.TryNumber()
	if !ok && r.err == nil {
		r.mismatch(r.pos, "expected number")
	}
	return raw
}

// scanNumber consumes the number starting at i ('-' or a digit).
func (r *Reader) scanNumber(i int) {
	data := r.data
	if data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		r.failEOF()
		return
	case data[i] == '0':
		i++
		if i < len(data) && isDigit(data[i]) {
			r.fail(i, ErrInvalidNumber, "leading zero in number")
			return
		}
	case isDigit(data[i]):
		i++
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		r.failAt(i, "in numeric literal")
		return
	}
	if i < len(data) && data[i] == '.' {
		if i = r.digits(i + 1); i < 0 {
			return
		}
	}
	if i < len(data) && data[i]|0x20 == 'e' {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i = r.digits(i); i < 0 {
			return
		}
	}
	r.pos = i
}

// digits consumes one or more digits at i and returns the index after them,
// or -1 after recording an error.
func (r *Reader) digits(i int) int {
	data := r.data
	if i >= len(data) || !isDigit(data[i]) {
		r.failAt(i, "in numeric literal")
		return -1
	}
	for i++; i < len(data) && isDigit(data[i]); i++ {
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
