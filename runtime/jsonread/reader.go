package jsonread

import "strconv"

// Kind classifies a JSON value by its first byte.
type Kind uint8

// The kinds of JSON values. Invalid is what Peek returns at the end of input,
// at a byte that cannot start a value, and after an error.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// String returns the JSON Schema name of the kind ("boolean", "object", ...),
// or "invalid".
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// Limits bounds the work a Reader does on one input. A zero or negative field
// means the DefaultLimits value.
type Limits struct {
	MaxBytes int // input size cap, checked in Reset before any other work
	MaxDepth int // nesting cap for objects and arrays together, checked on each open
}

// DefaultLimits are the limits used for zero Limits fields: 1 MiB of input,
// which is far above any sensible tool call and far below what would hurt a
// server, and 64 levels of nesting, which no tool schema needs and which
// bounds the stack Skip uses.
var DefaultLimits = Limits{MaxBytes: 1 << 20, MaxDepth: 64}

// Reader reads one JSON document strictly, in a single pass. The zero value
// is unusable until Reset. A Reader may live on the stack; it holds no
// pointers into itself, and reusing one keeps its scratch buffers.
type Reader struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	nameOff  int
	first    bool // just after ObjectStart or ArrayStart: no ',' expected
	err      *SyntaxError
	str      []byte // scratch for String
	name     []byte // scratch for NextMember
	arena    []byte // scratch for Skip's escaped member names
	ends     *Ends  // where skipped values end, when remembered (see Remember)
	base     int    // the offset of data in the document of ends
}

// Reset points r at data and clears its state. If data is longer than
// lim.MaxBytes, the error is recorded at offset 0 before anything else.
func (r *Reader) Reset(data []byte, lim Limits) {
	maxBytes, maxDepth := lim.MaxBytes, lim.MaxDepth
	if maxBytes <= 0 {
		maxBytes = DefaultLimits.MaxBytes
	}
	if maxDepth <= 0 {
		maxDepth = DefaultLimits.MaxDepth
	}
	// Field by field, every field: a composite literal that reads r's
	// scratch is built in a temporary and then copied over r, which cost
	// more than the rest of a short decode (a trial's in particular).
	r.data, r.pos, r.depth, r.maxDepth, r.nameOff = data, 0, 0, maxDepth, 0
	r.first, r.err = false, nil
	r.ends, r.base = nil, 0
	r.str, r.name, r.arena = r.str[:0], r.name[:0], r.arena[:0]
	if len(data) > maxBytes {
		r.fail(0, ErrTooLarge, "input exceeds "+strconv.Itoa(maxBytes)+" bytes")
	}
}

// Err returns the first syntax error, or nil. Convert to error only after
// the nil check: a nil *SyntaxError in an error interface is not nil.
func (r *Reader) Err() *SyntaxError { return r.err }

// Data returns the input given to Reset.
func (r *Reader) Data() []byte { return r.data }

// Offset returns the current byte position: just after the last value,
// name or delimiter read.
func (r *Reader) Offset() int { return r.pos }

// NameOffset returns the byte offset of the opening quote of the member name
// NextMember returned last, for error paths and duplicate reports.
func (r *Reader) NameOffset() int { return r.nameOff }

// Capture returns the raw bytes of the value read since start (an earlier
// Offset), without the whitespace before it. It returns nil after an error.
func (r *Reader) Capture(start int) []byte {
	if r.err != nil || start < 0 || start > r.pos {
		return nil
	}
	i := min(skipWS(r.data, start), r.pos)
	return r.data[i:r.pos:r.pos]
}

// Finish checks, after the top-level value, that only whitespace follows.
func (r *Reader) Finish() {
	if r.err != nil {
		return
	}
	i := skipWS(r.data, r.pos)
	if i < len(r.data) {
		r.fail(i, ErrTrailingData, "trailing data")
		return
	}
	r.pos = i
}

// Valid reports whether data is one strict JSON value of any kind within
// lim: it runs Reset, Skip and Finish and returns the *SyntaxError, or nil.
func Valid(data []byte, lim Limits) error {
	var r Reader
	r.Reset(data, lim)
	r.Skip()
	r.Finish()
	if r.err != nil {
		return r.err
	}
	return nil
}
