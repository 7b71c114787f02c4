package jsonread

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// String consumes a string and returns its unescaped content. Without
// escapes the result aliases the input (capacity-limited, so appending to it
// never writes into the input); with escapes it is a scratch buffer owned by
// r, valid until the next call of String. NextMember and Skip use other
// buffers.
func (r *Reader) String() []byte {
	s, ok := r.TryString()
	if !ok && r.err == nil {
		r.mismatch(r.pos, "expected string")
	}
	return s
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

// content returns data[s:e:e], the content of a string that scanString has
// read, for s <= e < len(data) (the closing quote is at e): capacity-limited,
// so that appending to it never writes into the input, and made without
// the checks of a three-index slice expression, which the callers have done.
func content(data []byte, s, e int) []byte {
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), s)), e-s)
}

// scanString consumes the string whose opening quote is at i and validates
// it. It returns the bounds of the raw content and whether it holds escapes.
func (r *Reader) scanString(i int) (start, end int, escaped bool) {
	return r.scanFrom(i+1, i+1)
}

// plainString reports whether the string whose opening quote is at i is
// plain ASCII without escapes, its closing quote at end; otherwise
// data[i+1:end] is its plain start, for scanFrom to go on from end. It
// consumes nothing. The typed reads call it first: most strings are plain,
// and this path is short enough to inline.
func (r *Reader) plainString(i int) (end int, ok bool) {
	end = plainRun(r.data, i+1)
	return end, end < len(r.data) && r.data[end] == '"'
}

// scanFrom is scanString for the string whose content starts at start, of
// which data[start:i] is plain ASCII: it scans on from i.
func (r *Reader) scanFrom(start, i int) (int, int, bool) {
	data := r.data
	escaped := false
	for {
		i = plainRun(data, i)
		if i >= len(data) {
			r.failEOF()
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
			r.fail(i, ErrInvalidCharacter, "invalid character "+quoteChar(c)+" in string literal")
			return 0, 0, false
		default:
			if _, size := utf8.DecodeRune(data[i:]); size > 1 {
				i += size
			} else {
				r.fail(i, ErrInvalidUTF8, "invalid UTF-8")
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
		r.failEOF()
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
	r.fail(i, ErrLoneSurrogate, "lone surrogate \\u"+string([]byte{
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
