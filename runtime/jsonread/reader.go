package jsonread

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

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

// SyntaxError is a violation of strict JSON: where it is and what it is.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Reason string // short fixed phrase, e.g. `duplicate member name "a"`
}

// Error returns e.g. `invalid JSON at byte 12: duplicate member name "a"`.
func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

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
}

const reasonEOF = "unexpected end of input"

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
	*r = Reader{
		data:     data,
		maxDepth: maxDepth,
		str:      r.str[:0],
		name:     r.name[:0],
		arena:    r.arena[:0],
	}
	if len(data) > maxBytes {
		r.fail(0, "input exceeds "+strconv.Itoa(maxBytes)+" bytes")
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

// Fail records a syntax error at offset, unless one is already recorded.
// Generated code uses it for what only it can see, such as a repeated
// declared member.
func (r *Reader) Fail(offset int, reason string) {
	r.fail(offset, reason)
}

func (r *Reader) fail(offset int, reason string) {
	if r.err == nil {
		r.err = &SyntaxError{Offset: offset, Reason: reason}
	}
}

// failAt records the error for the byte at i, which is not what the grammar
// wants in context (e.g. "in numeric literal"), or the end of input.
func (r *Reader) failAt(i int, context string) {
	if i >= len(r.data) {
		r.fail(len(r.data), reasonEOF)
		return
	}
	r.fail(i, "invalid character "+quoteChar(r.data[i])+" "+context)
}

// mismatch records why the value at i is not the one a typed read wanted.
func (r *Reader) mismatch(i int, expected string) {
	if i < len(r.data) && kindOf[r.data[i]] != Invalid {
		r.fail(i, expected)
		return
	}
	r.failAt(i, "looking for value")
}

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

// Number consumes a number and returns its text, validated against the RFC
// 8259 grammar, as a slice of the input.
func (r *Reader) Number() []byte {
	if r.err != nil {
		return nil
	}
	i := skipWS(r.data, r.pos)
	if i >= len(r.data) || kindOf[r.data[i]] != Number {
		r.mismatch(i, "expected number")
		return nil
	}
	r.scanNumber(i)
	if r.err != nil {
		return nil
	}
	return r.data[i:r.pos:r.pos]
}

// String consumes a string and returns its unescaped content. Without
// escapes the result aliases the input (capacity-limited, so appending to it
// never writes into the input); with escapes it is a scratch buffer owned by
// r, valid until the next call of String. NextMember and Skip use other
// buffers.
func (r *Reader) String() []byte {
	if r.err != nil {
		return nil
	}
	i := skipWS(r.data, r.pos)
	if i >= len(r.data) || r.data[i] != '"' {
		r.mismatch(i, "expected string")
		return nil
	}
	s, e, esc := r.scanString(i)
	if r.err != nil {
		return nil
	}
	if !esc {
		return r.data[s:e:e]
	}
	r.str = unescape(r.str[:0], r.data[s:e])
	return r.str
}

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
		r.fail(i, "nesting exceeds "+strconv.Itoa(r.maxDepth)+" levels")
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
		r.fail(len(data), reasonEOF)
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
	s, e, esc := r.scanString(i)
	if r.err != nil {
		return nil, false
	}
	i = skipWS(data, r.pos)
	if i >= len(data) || data[i] != ':' {
		r.failAt(i, "after object member name")
		return nil, false
	}
	r.pos = i + 1
	if !esc {
		return data[s:e:e], true
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
		r.fail(len(data), reasonEOF)
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
		r.fail(i, "trailing data")
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

// Unquote decodes the JSON string whose opening quote is data[offset], for
// rendering error paths. It is best effort: for a string that is not valid it
// returns the raw text up to the problem, with invalid UTF-8 replaced, and
// it returns "" when data[offset] is not a quote.
func Unquote(data []byte, offset int) string {
	if offset < 0 || offset >= len(data) || data[offset] != '"' {
		return ""
	}
	r := Reader{data: data}
	s, e, esc := r.scanString(offset)
	switch {
	case r.err != nil:
		return strings.ToValidUTF8(string(data[offset+1:r.err.Offset]), "\uFFFD")
	case esc:
		return string(unescape(nil, data[s:e]))
	}
	return string(data[s:e])
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

// DuplicateReason is the reason a Reader gives for a repeated member name
// (the decoded name): "duplicate member name " and the name quoted, cut
// short after 64 bytes. Decoders that detect duplicates themselves use it
// so that every such error reads, and is bounded, alike.
func DuplicateReason(name []byte) string { return duplicateReason(name) }

// duplicateReason renders the reason for a repeated member name, cutting
// very long names short.
func duplicateReason(name []byte) string {
	const maxShown = 64
	if len(name) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		return "duplicate member name " + strconv.Quote(string(name[:cut])+"...")
	}
	return "duplicate member name " + strconv.Quote(string(name))
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

// scanNumber consumes the number starting at i ('-' or a digit).
func (r *Reader) scanNumber(i int) {
	data := r.data
	if data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		r.fail(len(data), reasonEOF)
		return
	case data[i] == '0':
		i++
		if i < len(data) && isDigit(data[i]) {
			r.fail(i, "leading zero in number")
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

// scanString consumes the string whose opening quote is at i and validates
// it. It returns the bounds of the raw content and whether it holds escapes.
func (r *Reader) scanString(i int) (start, end int, escaped bool) {
	data := r.data
	i++
	start = i
	for {
		i = plainRun(data, i)
		if i >= len(data) {
			r.fail(len(data), reasonEOF)
			return 0, 0, false
		}
		switch c := data[i]; {
		case c == '"':
			r.pos = i + 1
			return start, i, escaped
		case c == '\\':
			escaped = true
			if i = r.scanEscape(i); i < 0 {
				return 0, 0, false
			}
		case c < 0x20:
			r.fail(i, "invalid character "+quoteChar(c)+" in string literal")
			return 0, 0, false
		default:
			if _, size := utf8.DecodeRune(data[i:]); size > 1 {
				i += size
			} else {
				r.fail(i, "invalid UTF-8")
				return 0, 0, false
			}
		}
	}
}

// scanEscape validates the escape whose backslash is at i and returns the
// index after it, or -1 after recording an error.
func (r *Reader) scanEscape(i int) int {
	data := r.data
	if i+1 >= len(data) {
		r.fail(len(data), reasonEOF)
		return -1
	}
	if c := data[i+1]; c != 'u' {
		if unescapeByte[c] == 0 {
			r.failAt(i+1, "in string escape code")
			return -1
		}
		return i + 2
	}
	v := r.hex4(i + 2)
	switch {
	case v < 0:
		return -1
	case !utf16.IsSurrogate(rune(v)):
		return i + 6
	case v < 0xdc00 && i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u':
		w := r.hex4(i + 8)
		if w < 0 {
			return -1
		}
		if 0xdc00 <= w && w <= 0xdfff {
			return i + 12
		}
	}
	const hexdigits = "0123456789abcdef"
	r.fail(i, "lone surrogate \\u"+string([]byte{
		hexdigits[v>>12], hexdigits[v>>8&0xf], hexdigits[v>>4&0xf], hexdigits[v&0xf],
	}))
	return -1
}

// hex4 decodes the four hex digits at i, or returns -1 after recording an
// error.
func (r *Reader) hex4(i int) int {
	v := 0
	for j := i; j < i+4; j++ {
		d := -1
		if j < len(r.data) {
			d = hexValue(r.data[j])
		}
		if d < 0 {
			r.failAt(j, "in \\u hexadecimal character escape")
			return -1
		}
		v = v<<4 | d
	}
	return v
}

func hexValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// unescape appends the decoded form of src, the content of a string that
// scanString has validated, to dst.
func unescape(dst, src []byte) []byte {
	for {
		k := bytes.IndexByte(src, '\\')
		if k < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:k]...)
		if c := src[k+1]; c != 'u' {
			dst = append(dst, unescapeByte[c])
			src = src[k+2:]
			continue
		}
		v := rune(hexValue(src[k+2])<<12 | hexValue(src[k+3])<<8 | hexValue(src[k+4])<<4 | hexValue(src[k+5]))
		src = src[k+6:]
		if utf16.IsSurrogate(v) {
			w := rune(hexValue(src[2])<<12 | hexValue(src[3])<<8 | hexValue(src[4])<<4 | hexValue(src[5]))
			v = utf16.DecodeRune(v, w)
			src = src[6:]
		}
		dst = utf8.AppendRune(dst, v)
	}
}

// unescapeByte maps the byte after a backslash to what it stands for; zero
// marks bytes that do not form a valid single-character escape.
var unescapeByte = [256]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
}

// kindOf classifies a value by its first byte.
var kindOf = [256]Kind{
	'n': Null, 't': Bool, 'f': Bool, '"': String, '[': Array, '{': Object,
	'-': Number, '0': Number, '1': Number, '2': Number, '3': Number, '4': Number,
	'5': Number, '6': Number, '7': Number, '8': Number, '9': Number,
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string content: '"', '\\', a control character or a
// non-ASCII byte; len(data) if there is none. It tests eight bytes at a time.
func plainRun(data []byte, i int) int {
	for i+8 <= len(data) {
		x := binary.LittleEndian.Uint64(data[i : i+8])
		// The high bit of a byte of m is set when the byte of x is below
		// 0x20 (x-0x20 borrows), is '"' or '\\' (the xor is 0, minus 1
		// borrows) or is 0x80 or above (x itself). A borrow can also flag
		// bytes above a hit, never below, so the lowest flag is exact.
		m := ((x - lsb*0x20) | (x ^ lsb*'"' - lsb) | (x ^ lsb*'\\' - lsb) | x) & msb
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(data); i++ {
		if c := data[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
	}
	return i
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

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// quoteChar renders a byte for an error reason: 'x', '\n', '\xff'.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string([]byte{c}))
	return "'" + s[1:len(s)-1] + "'"
}
