// Package jsonread is the strict, single-pass JSON reader that toolgate's
// generated decoders drive with typed reads, the way ogen's code drives jx.
//
// A decoder keeps a Reader as a stack value, points it at the raw arguments
// with Reset and pulls one value at a time: Peek says what comes next,
// ObjectStart/NextMember and ArrayStart/NextItem walk containers, Null, Bool,
// Number and String read scalars, TryString and TryNumber read a string or
// number in one pass when one comes next (a decoder reads a member's scalar
// with them rather than Peek, then String), and Skip consumes (and fully
// validates) a value the decoder does not map. Finish checks that nothing but whitespace
// follows the top-level value. Readers that read the same document's bytes
// again (the trials of composed schemas) share an Ends (Remember): a
// container one of them skipped whole, the others jump over.
//
//	var r jsonread.Reader
//	r.Reset(args, jsonread.DefaultLimits)
//	r.ObjectStart()
//	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
//		switch string(name) {
//		case "city":
//			city = string(r.String())
//		default:
//			r.Skip()
//		}
//	}
//	r.Finish()
//	if err := r.Err(); err != nil {
//		return err // *SyntaxError: offset, reason and kind (errors.Is(err, jsonread.ErrDuplicateName))
//	}
//
// # Errors
//
// Errors are sticky. The first syntax error is recorded with its byte offset;
// from then on every method returns zero values, NextMember and NextItem
// return false and Peek returns Invalid, so a decoder can run to the end of
// its straight-line code and check Err once. A read that does not match the
// next value (Number when a string follows) is a syntax error too
// ("expected number"); a decoder that wants a type error instead asks Peek
// first. No input makes a Reader panic. The error's Reason is a stable
// phrase for people; its kind (ErrDuplicateName, ErrInvalidUTF8,
// ErrTrailingData, ...) is for code, matched with errors.Is.
//
// The Reader trusts its caller to pair the calls correctly (NextMember after
// ObjectStart, one value read per member or item); generated code does.
//
// # What strict means
//
// The grammar is RFC 8259 and nothing more: no byte order mark, whitespace
// is space, tab, LF and CR only, numbers have no leading zeros, no '+', no
// bare '.', no hexadecimal, NaN or Infinity, and the literals are exactly
// true, false and null. In addition, following toolgate's design:
//
//   - strings must be valid UTF-8 and must not contain control characters;
//   - \u escapes must not encode a lone surrogate (\ud800 or \udc00 on its
//     own); a high surrogate followed by a low one is decoded as one rune;
//   - an object must not repeat a member name, compared after unescaping, so
//     {"a":1,"\u0061":2} is rejected. Skip checks this in every object it
//     reads; generated code checks the members it reads through NextMember
//     itself (one bit per declared member) and reports a repeat with Fail;
//   - the input must not exceed Limits.MaxBytes (checked by Reset before any
//     other work) and containers must not nest deeper than Limits.MaxDepth
//     (checked at every '{' and '[').
//
// Numbers are returned as validated text. Their value is the business of
// package jsonnum, which compares and converts them exactly.
//
// # Implementation-defined cases
//
// JSONTestSuite leaves some inputs to the implementation (its i_ files). The
// conformance test holds one decision per file; in summary:
//
//	i_ files                                        decision
//	number: huge exponents, overflowing reals,      accept: syntactically valid numbers;
//	  underflow, integers beyond int64                jsonnum handles their value exactly
//	string: lone or inverted surrogate escapes      reject: lone surrogate
//	string: invalid UTF-8, overlong forms, encoded  reject: invalid UTF-8
//	  surrogates, code points beyond U+10FFFF,
//	  ISO-8859-1 bytes
//	UTF-16 input (with or without BOM), UTF-8 BOM   reject: not UTF-8 JSON text
//	500 nested arrays                               reject: DefaultLimits.MaxDepth is 64
//
// # Performance
//
// A Reader allocates nothing for input without escaped strings: strings
// without escapes alias the input, numbers are slices of it, and string
// scanning tests eight bytes at a time for the bytes that end a plain-ASCII
// run. Escaped strings are unescaped into buffers the Reader keeps across
// Reset. Skip allocates only for objects with more than 32 members (a map
// for the duplicate check) and for escaped member names.
package jsonread
