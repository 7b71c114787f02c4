package jsonread

// Ends remembers where the objects and arrays that Readers skipped end, by
// the offset of their first byte in one document, so that a Reader that
// skips one of them again jumps over it instead of scanning it again: the
// trials of composed schemas (runtime/internal/decode) read the same bytes once
// per branch, and without it a value nested in n unions would be scanned
// n times. It holds at most one entry per object and array of the
// document. The zero value is ready to use.
type Ends struct {
	end map[int]int
}

// Remember makes r note in ends where each object and array it skips ends,
// and jump over those it finds noted, base being the offset of r's input
// in the document whose offsets ends holds. A value is noted only once
// skipped whole, so a jump lands after a value that was valid.
func (r *Reader) Remember(ends *Ends, base int) {
	r.ends, r.base = ends, base
}

// jump moves r past the object or array at i when ends knows where it
// ends, and reports whether it did.
func (r *Reader) jump(i int) bool {
	end, ok := r.ends.end[r.base+i]
	if ok {
		r.pos = end - r.base
	}
	return ok
}

// noteEnd notes that the object or array at i ends at r.pos.
func (r *Reader) noteEnd(i int) {
	if r.err != nil {
		return
	}
	if r.ends.end == nil {
		r.ends.end = map[int]int{}
	}
	r.ends.end[r.base+i] = r.base + r.pos
}
