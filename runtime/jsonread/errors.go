package jsonread

import (
	"strconv"
	"unicode/utf8"
)

// SyntaxError is a violation of strict JSON: where it is and what it is.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Reason string // short fixed phrase, e.g. `duplicate member name "a"`
}

// Error returns e.g. `invalid JSON at byte 12: duplicate member name "a"`.
func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

const reasonEOF = "unexpected end of input"

// Fail records a syntax error at offset, unless one is already recorded.
// Generated code uses it for what only it can see, such as a repeated
// declared member.
func (r *Reader) Fail(offset int, reason string) {
	r.fail(offset, reason)
}

// Stop makes r fail, unless it has failed already, so that nothing more is
// read: a caller that has seen enough of the input (a decoder trying a
// schema on a value, at the first violation) stops it so. Unlike Fail it
// costs no allocation: Err then returns Stopped, shared by every stopped
// Reader.
func (r *Reader) Stop() {
	if r.err == nil {
		r.err = Stopped
	}
}

// Stopped is the error of a stopped Reader (see Stop), which is not about
// the input: its Offset is -1. It must not be changed.
var Stopped = &SyntaxError{Offset: -1, Reason: "read stopped"}

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
