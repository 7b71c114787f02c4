package jsonread

// TryString reads the next value as String does when it is a string, in
// one pass: ok reports whether it is one (it starts with a quote). When it
// is not, nothing is consumed and no error is recorded, but the whitespace
// before it, as after Peek, so the caller can Peek and report the kind it
// got. A string that starts but is not valid records its error and returns
// nil, true, as Peek then String would. After an earlier error it returns
// nil, false.
func (r *Reader) TryString() (s []byte, ok bool) {
	if r.err != nil {
		return nil, false
	}
	i := skipWS(r.data, r.pos)
	r.pos = i
	if i >= len(r.data) || r.data[i] != '"' {
		return nil, false
	}
	end, plain := r.plainString(i)
	if plain {
		r.pos = end + 1
		return content(r.data, i+1, end), true
	}
	start, end, esc := r.scanFrom(i+1, end)
	switch {
	case r.err != nil:
		return nil, true
	case !esc:
		return content(r.data, start, end), true
	}
	r.str = unescape(r.str[:0], r.data[start:end])
	return r.str, true
}

// TryNumber is TryString for a number: when the next value is one, it
// consumes it and returns its validated text, as Number does, and ok true.
func (r *Reader) TryNumber() (raw []byte, ok bool) {
	if r.err != nil {
		return nil, false
	}
	i := skipWS(r.data, r.pos)
	r.pos = i
	if i >= len(r.data) || kindOf[r.data[i]] != Number {
		return nil, false
	}
	r.scanNumber(i)
	if r.err != nil {
		return nil, true
	}
	return r.data[i:r.pos:r.pos], true
}
