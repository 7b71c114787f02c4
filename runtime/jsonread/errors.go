package jsonread

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// The kinds of syntax error a Reader reports, as the Err of its
// *SyntaxError: match them with errors.Is, never by the text of Reason. An
// input that ends inside a value is io.ErrUnexpectedEOF.
var (
	// ErrDuplicateName is a member name repeated in one object (after
	// unescaping: "a" and "\u0061" are the same name).
	ErrDuplicateName = errors.New("duplicate member name")
	// ErrInvalidCharacter is a byte the grammar does not allow where it is.
	ErrInvalidCharacter = errors.New("invalid character")
	// ErrInvalidNumber is a number the grammar refuses although each of its
	// characters may appear in a number, such as a leading zero.
	ErrInvalidNumber = errors.New("invalid number")
	// ErrInvalidUTF8 is a string that is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	// ErrLoneSurrogate is a \u escape of half a UTF-16 surrogate pair.
	ErrLoneSurrogate = errors.New("lone surrogate")
	// ErrTrailingData is anything but whitespace after the value.
	ErrTrailingData = errors.New("trailing data")
	// ErrTooDeep is nesting deeper than the Reader's limit.
	ErrTooDeep = errors.New("nesting too deep")
	// ErrTooLarge is an input longer than the Reader's limit.
	ErrTooLarge = errors.New("input too large")
	// ErrUnexpectedKind is a valid value of another kind than a typed read
	// wants (a string where a number is read), or than a caller wants (see
	// Fail).
	ErrUnexpectedKind = errors.New("unexpected kind of value")
	// ErrStopped is the kind of Stopped, and of a failure a caller records
	// to stop reading for a reason of its own (see Fail).
	ErrStopped = errors.New("read stopped")
)

// SyntaxError is a violation of strict JSON: where it is and what it is.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Reason string // short fixed phrase, e.g. `duplicate member name "a"`
	Err    error  // the kind: ErrDuplicateName, ErrInvalidUTF8, ... (see Unwrap)
}

// Error returns e.g. `invalid JSON at byte 12: duplicate member name "a"`.
func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

// Unwrap returns the kind of the error, so that errors.Is(err,
// ErrDuplicateName) tells a repeated name from another violation.
func (e *SyntaxError) Unwrap() error { return e.Err }

const reasonEOF = "unexpected end of input"

// Fail records a syntax error of kind err (one of the Err variables) at
// offset, unless one is already recorded. A decoder uses it for what only
// it can see, such as a repeated declared member (ErrDuplicateName, with
// DuplicateReason).
func (r *Reader) Fail(offset int, err error, reason string) {
	r.fail(offset, err, reason)
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
var Stopped = &SyntaxError{Offset: -1, Reason: "read stopped", Err: ErrStopped}

func (r *Reader) fail(offset int, err error, reason string) {
	if r.err == nil {
		r.err = &SyntaxError{Offset: offset, Reason: reason, Err: err}
	}
}

// failEOF records that the input ends inside a value.
func (r *Reader) failEOF() { r.fail(len(r.data), io.ErrUnexpectedEOF, reasonEOF) }

// failAt records the error for the byte at i, which is not what the grammar
// wants in context (e.g. "in numeric literal"), or the end of input.
func (r *Reader) failAt(i int, context string) {
	if i >= len(r.data) {
		r.failEOF()
		return
	}
	r.fail(i, ErrInvalidCharacter, "invalid character "+quoteChar(r.data[i])+" "+context)
}

// mismatch records why the value at i is not the one a typed read wanted.
func (r *Reader) mismatch(i int, expected string) {
	if i < len(r.data) && kindOf[r.data[i]] != Invalid {
		r.fail(i, ErrUnexpectedKind, expected)
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
