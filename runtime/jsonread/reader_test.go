package jsonread

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// nested returns open repeated n times, then close repeated n times.
func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// members returns an object with n distinct members a0..a(n-1), then extra.
func members(n int, extra string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		fmt.Fprintf(&b, `"a%d":%d,`, i, i)
	}
	b.WriteString(extra)
	b.WriteByte('}')
	return b.String()
}

// escapedMembers is members with names spelled "\u0061b0", "\u0061b1", ...
func escapedMembers(n int, extra string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		fmt.Fprintf(&b, `"\u0061b%d":%d,`, i, i)
	}
	b.WriteString(extra)
	b.WriteByte('}')
	return b.String()
}

func TestValid(t *testing.T) {
	tests := []struct {
		in     string
		offset int    // of the error
		reason string // "" means valid
	}{
		// Values of every kind.
		{in: `{}`},
		{in: `[]`},
		{in: ` {"a" : [ 1 , -2.5e+3 , "x" , true , false , null , { } , [ ] ] } `},
		{in: `0`},
		{in: `-0`},
		{in: `-0.0e-0`},
		{in: `1E+2`},
		{in: `123.456e78`},
		{in: `""`},
		{in: `"\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"`},
		{in: "\"h\u00e9llo \u4e16\u754c \U0001F600\""},
		{in: "\"\xef\xbf\xbd\""}, // U+FFFD itself is valid
		{in: "\t\n\r 1 \t\n\r"},
		{in: `"0123456789abcdefghijklmnopqrstuvwxyz"`}, // crosses 8-byte words
		{in: `true`},
		{in: `null`},

		// Size and emptiness.
		{in: ``, offset: 0, reason: "unexpected end of input"},
		{in: `   `, offset: 3, reason: "unexpected end of input"},

		// Numbers.
		{in: `01`, offset: 1, reason: "leading zero in number"},
		{in: `-01`, offset: 2, reason: "leading zero in number"},
		{in: `-`, offset: 1, reason: "unexpected end of input"},
		{in: `-a`, offset: 1, reason: "invalid character 'a' in numeric literal"},
		{in: `1.`, offset: 2, reason: "unexpected end of input"},
		{in: `1.e1`, offset: 2, reason: "invalid character 'e' in numeric literal"},
		{in: `.5`, offset: 0, reason: "invalid character '.' looking for value"},
		{in: `+1`, offset: 0, reason: "invalid character '+' looking for value"},
		{in: `1e`, offset: 2, reason: "unexpected end of input"},
		{in: `1e+`, offset: 3, reason: "unexpected end of input"},
		{in: `1e+x`, offset: 3, reason: "invalid character 'x' in numeric literal"},
		{in: `0x1`, offset: 1, reason: "trailing data"},
		{in: `NaN`, offset: 0, reason: "invalid character 'N' looking for value"},
		{in: `[-Infinity]`, offset: 2, reason: "invalid character 'I' in numeric literal"},
		{in: `1 2`, offset: 2, reason: "trailing data"},

		// Literals.
		{in: `tru`, offset: 3, reason: "unexpected end of input"},
		{in: `trux`, offset: 3, reason: "invalid character 'x' in literal true"},
		{in: `[fals]`, offset: 5, reason: "invalid character ']' in literal false"},
		{in: `nulL`, offset: 3, reason: "invalid character 'L' in literal null"},
		{in: `True`, offset: 0, reason: "invalid character 'T' looking for value"},
		{in: `truefalse`, offset: 4, reason: "trailing data"},

		// Strings.
		{in: `"abc`, offset: 4, reason: "unexpected end of input"},
		{in: `"0123456789abcdef`, offset: 17, reason: "unexpected end of input"},
		{in: "\"a\x01\"", offset: 2, reason: `invalid character '\x01' in string literal`},
		{in: "\"0123456789\n\"", offset: 11, reason: `invalid character '\n' in string literal`},
		{in: "\"a\x7f\"", offset: 0}, // DEL is not a control character in JSON
		{in: `"\x"`, offset: 2, reason: "invalid character 'x' in string escape code"},
		{in: `"\`, offset: 2, reason: "unexpected end of input"},
		{in: `"\u12G4"`, offset: 5, reason: `invalid character 'G' in \u hexadecimal character escape`},
		{in: `"\u12`, offset: 5, reason: "unexpected end of input"},
		{in: `"\ud800"`, offset: 1, reason: `lone surrogate \ud800`},
		{in: `"\uDC00"`, offset: 1, reason: `lone surrogate \udc00`},
		{in: `"ab\ud800\u0041"`, offset: 3, reason: `lone surrogate \ud800`},
		{in: `"\ud800\ud800"`, offset: 1, reason: `lone surrogate \ud800`},
		{in: `"\udd1e\ud834"`, offset: 1, reason: `lone surrogate \udd1e`},
		{in: `"\ud800\uZZZZ"`, offset: 9, reason: `invalid character 'Z' in \u hexadecimal character escape`},
		{in: "\"\xff\"", offset: 1, reason: "invalid UTF-8"},
		{in: "\"0123456789\xc3\"", offset: 11, reason: "invalid UTF-8"},
		{in: "\"\xed\xa0\x80\"", offset: 1, reason: "invalid UTF-8"},     // encoded surrogate
		{in: "\"\xc0\xaf\"", offset: 1, reason: "invalid UTF-8"},         // overlong
		{in: "\"\xf4\x90\x80\x80\"", offset: 1, reason: "invalid UTF-8"}, // beyond U+10FFFF

		// Whitespace and BOM.
		{in: "\xef\xbb\xbf{}", offset: 0, reason: `invalid character '\xef' looking for value`},
		{in: "\f1", offset: 0, reason: `invalid character '\f' looking for value`},
		{in: "[1,\u00a02]", offset: 3, reason: `invalid character '\xc2' looking for value`},

		// Structure.
		{in: `{"a" 1}`, offset: 5, reason: "invalid character '1' after object member name"},
		{in: `{"a":1 "b":2}`, offset: 7, reason: `invalid character '"' after object member`},
		{in: `{,}`, offset: 1, reason: "invalid character ',' looking for beginning of object member name"},
		{in: `{"a":1,}`, offset: 7, reason: "invalid character '}' looking for beginning of object member name"},
		{in: `{a:1}`, offset: 1, reason: "invalid character 'a' looking for beginning of object member name"},
		{in: `{"a":}`, offset: 5, reason: "invalid character '}' looking for value"},
		{in: `{"a":1`, offset: 6, reason: "unexpected end of input"},
		{in: `{`, offset: 1, reason: "unexpected end of input"},
		{in: `[`, offset: 1, reason: "unexpected end of input"},
		{in: `[1,]`, offset: 3, reason: "invalid character ']' looking for value"},
		{in: `[,1]`, offset: 1, reason: "invalid character ',' looking for value"},
		{in: `[1 2]`, offset: 3, reason: "invalid character '2' after array element"},
		{in: `[1}`, offset: 2, reason: "invalid character '}' after array element"},
		{in: `{"a":1]`, offset: 6, reason: "invalid character ']' after object member"},
		{in: `{"a":1}x`, offset: 7, reason: "trailing data"},
		{in: "[1]\x00", offset: 3, reason: "trailing data"},
		{in: `{"a":1}{}`, offset: 7, reason: "trailing data"},

		// Duplicate member names, after unescaping, at every depth.
		{in: `{"a":1,"a":2}`, offset: 7, reason: `duplicate member name "a"`},
		{in: `{"a":1,"\u0061":2}`, offset: 7, reason: `duplicate member name "a"`},
		{in: `{"\u0061":1,"a":2}`, offset: 12, reason: `duplicate member name "a"`},
		{in: `{"\ud83d\ude00":1,"` + "\U0001F600" + `":2}`, offset: 18, reason: `duplicate member name "` + "\U0001F600" + `"`},
		{in: `{"a":{"b":1,"b":2}}`, offset: 12, reason: `duplicate member name "b"`},
		{in: `[{"a":1},{"a":1}]`},
		{in: `{"a":{"a":1},"b":{"a":1}}`},
		{in: `{"a":1,"A":2,"a ":3,"":4}`},
		{in: `{"":1,"":2}`, offset: 6, reason: `duplicate member name ""`},
		{in: `{"a":1,"a":x}`, offset: 7, reason: `duplicate member name "a"`}, // first error wins
		{in: `{"a":x,"a":1}`, offset: 5, reason: "invalid character 'x' looking for value"},
		{in: members(16, `"a0":0`), offset: len(members(16, "")) - 1, reason: `duplicate member name "a0"`},
		{in: members(17, `"a16":0`), offset: len(members(17, "")) - 1, reason: `duplicate member name "a16"`},
		{in: members(40, `"a3":0`), offset: len(members(40, "")) - 1, reason: `duplicate member name "a3"`},
		{in: members(40, `"\u0061\u0033":0`), offset: len(members(40, "")) - 1, reason: `duplicate member name "a3"`},
		{in: members(31, `"a30":0`), offset: len(members(31, "")) - 1, reason: `duplicate member name "a30"`},
		{in: members(32, `"a31":0`), offset: len(members(32, "")) - 1, reason: `duplicate member name "a31"`},
		{in: members(33, `"a32":0`), offset: len(members(33, "")) - 1, reason: `duplicate member name "a32"`},
		{in: members(32, `"\u0061\u0030":0`), offset: len(members(32, "")) - 1, reason: `duplicate member name "a0"`},
		{in: members(40, `"a40":0`)},
		// Up to 32 names the table finds escaped ones in the arena by offset;
		// past them the set keys views of the names, escaped ones in the
		// arena, which must not change while the object is read.
		{in: escapedMembers(20, `"ab19":0`), offset: len(escapedMembers(20, "")) - 1, reason: `duplicate member name "ab19"`},
		{in: escapedMembers(31, `"\u0061b0":0`), offset: len(escapedMembers(31, "")) - 1, reason: `duplicate member name "ab0"`},
		{in: escapedMembers(31, `"ab31":0`)},
		{in: escapedMembers(40, `"ab7":0`), offset: len(escapedMembers(40, "")) - 1, reason: `duplicate member name "ab7"`},
		{in: escapedMembers(40, `"ab40":0`)},
		{in: `{"` + strings.Repeat("x", 100) + `":1,"` + strings.Repeat("x", 100) + `":2}`, offset: 106,
			reason: `duplicate member name "` + strings.Repeat("x", 64) + `..."`},

		// Depth.
		{in: nested("[", "]", 64)},
		{in: nested("[", "]", 65), offset: 64, reason: "nesting exceeds 64 levels"},
		{in: strings.Repeat(`{"a":`, 64) + "1" + strings.Repeat("}", 64)},
		{in: strings.Repeat(`{"a":`, 65) + "1" + strings.Repeat("}", 65), offset: 320, reason: "nesting exceeds 64 levels"},
		{in: nested("[", "]", 10000), offset: 64, reason: "nesting exceeds 64 levels"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			err := Valid([]byte(tt.in), Limits{})
			checkErr(t, err, tt.offset, tt.reason)
		})
	}
}

// checkErr compares err (a *SyntaxError or nil) with the wanted offset and
// reason; an empty reason means no error.
func checkErr(t *testing.T, err error, offset int, reason string) {
	t.Helper()
	if reason == "" {
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
		return
	}
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("error %v (%T), want *SyntaxError at %d: %s", err, err, offset, reason)
	}
	if se.Offset != offset || se.Reason != reason {
		t.Fatalf("error at %d: %q, want at %d: %q", se.Offset, se.Reason, offset, reason)
	}
}

// TestSyntaxErrorKinds: every error a Reader reports unwraps to its kind,
// and to no other, with its offset and reason kept.
func TestSyntaxErrorKinds(t *testing.T) {
	kinds := []error{ErrDuplicateName, ErrInvalidCharacter, ErrInvalidNumber, ErrInvalidUTF8, ErrLoneSurrogate,
		ErrTrailingData, ErrTooDeep, ErrTooLarge, ErrUnexpectedKind, ErrStopped, io.ErrUnexpectedEOF}
	for _, tt := range []struct {
		in     string
		lim    Limits
		typed  func(*Reader) // nil: Valid
		kind   error
		offset int
		reason string
	}{
		{in: `{"a":1,"a":2}`, kind: ErrDuplicateName, offset: 7, reason: `duplicate member name "a"`},
		{in: `[1,]`, kind: ErrInvalidCharacter, offset: 3, reason: "invalid character ']' looking for value"},
		{in: "[\"\x01\"]", kind: ErrInvalidCharacter, offset: 2, reason: `invalid character '\x01' in string literal`},
		{in: `[01]`, kind: ErrInvalidNumber, offset: 2, reason: "leading zero in number"},
		{in: "[\"\xff\"]", kind: ErrInvalidUTF8, offset: 2, reason: "invalid UTF-8"},
		{in: `["\ud800"]`, kind: ErrLoneSurrogate, offset: 2, reason: `lone surrogate \ud800`},
		{in: `{}x`, kind: ErrTrailingData, offset: 2, reason: "trailing data"},
		{in: `[[1]]`, lim: Limits{MaxDepth: 1}, kind: ErrTooDeep, offset: 1, reason: "nesting exceeds 1 levels"},
		{in: `[1,2]`, lim: Limits{MaxBytes: 4}, kind: ErrTooLarge, reason: "input exceeds 4 bytes"},
		{in: `[1`, kind: io.ErrUnexpectedEOF, offset: 2, reason: "unexpected end of input"},
		{in: `"a"`, typed: func(r *Reader) { r.Number() }, kind: ErrUnexpectedKind, reason: "expected number"},
		{in: `1`, typed: func(r *Reader) { r.Stop() }, kind: ErrStopped, offset: -1, reason: "read stopped"},
	} {
		var err error
		if tt.typed == nil {
			err = Valid([]byte(tt.in), tt.lim)
		} else {
			var r Reader
			r.Reset([]byte(tt.in), tt.lim)
			tt.typed(&r)
			err = asError(r.Err())
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || se.Reason != tt.reason {
			t.Errorf("%q: %v, want %q at %d", tt.in, err, tt.reason, tt.offset)
			continue
		}
		for _, k := range kinds {
			if errors.Is(err, k) != (k == tt.kind) {
				t.Errorf("%q: errors.Is(%v, %v) = %v", tt.in, err, k, !(k == tt.kind))
			}
		}
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	err := Valid([]byte(`{"a":1,"a":2}`), Limits{})
	const want = `invalid JSON at byte 7: duplicate member name "a"`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestStop: a stopped Reader reads nothing more and reports Stopped, with
// no allocation; a Reader that failed before keeps its own error.
func TestStop(t *testing.T) {
	var r Reader
	data := []byte(`{"a":1,"b":2}`)
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(data, Limits{})
		r.ObjectStart()
		r.NextMember()
		r.Stop()
	}); n != 0 {
		t.Errorf("Stop: %v allocations, want 0", n)
	}
	if r.Err() != Stopped {
		t.Fatalf("Err after Stop = %v, want Stopped", r.Err())
	}
	if name, ok := r.NextMember(); ok || r.Number() != nil {
		t.Errorf("a stopped Reader read on: %q", name)
	}
	r.Reset([]byte(`[1,]`), Limits{})
	r.Skip()
	first := r.Err()
	r.Stop()
	if first == nil || r.Err() != first {
		t.Errorf("Stop after a failure: %v, want the failure %v", r.Err(), first)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		lim    Limits
		offset int
		reason string
	}{
		{name: "size at limit", in: `[1,2]`, lim: Limits{MaxBytes: 5}},
		{name: "size over limit", in: `[1,2]`, lim: Limits{MaxBytes: 4}, offset: 0, reason: "input exceeds 4 bytes"},
		{name: "size checked first", in: `}}}}}}`, lim: Limits{MaxBytes: 4}, offset: 0, reason: "input exceeds 4 bytes"},
		{name: "default size", in: `"` + strings.Repeat("x", 1<<20-2) + `"`},
		{name: "default size over", in: `"` + strings.Repeat("x", 1<<20-1) + `"`, offset: 0, reason: "input exceeds 1048576 bytes"},
		{name: "negative means default", in: `1`, lim: Limits{MaxBytes: -1, MaxDepth: -1}},
		{name: "depth at limit", in: `[[1]]`, lim: Limits{MaxDepth: 2}},
		{name: "depth over limit", in: `[[[1]]]`, lim: Limits{MaxDepth: 2}, offset: 2, reason: "nesting exceeds 2 levels"},
		{name: "depth mixed", in: `{"a":[{}]}`, lim: Limits{MaxDepth: 2}, offset: 6, reason: "nesting exceeds 2 levels"},
		{name: "depth of siblings", in: `[[],[],[[]]]`, lim: Limits{MaxDepth: 3}},
		{name: "depth raised", in: nested("[", "]", 500), lim: Limits{MaxDepth: 500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, Valid([]byte(tt.in), tt.lim), tt.offset, tt.reason)
		})
	}
}

func TestResetSizeLimitIsImmediate(t *testing.T) {
	var r Reader
	r.Reset([]byte(`{"a":1}`), Limits{MaxBytes: 3})
	if r.Err() == nil || r.Err().Offset != 0 {
		t.Fatalf("Reset: err %v, want size error at 0", r.Err())
	}
	if k := r.Peek(); k != Invalid {
		t.Fatalf("Peek after size error = %v, want invalid", k)
	}
	// Reset clears the error and the state.
	r.Reset([]byte(`{"a":1}`), Limits{})
	r.Skip()
	r.Finish()
	if r.Err() != nil {
		t.Fatalf("after second Reset: %v", r.Err())
	}
}

func TestTypedDepthLimit(t *testing.T) {
	var r Reader
	r.Reset([]byte(`[{"a":[1]}]`), Limits{MaxDepth: 2})
	r.ArrayStart()
	r.NextItem()
	r.ObjectStart()
	r.NextMember()
	r.ArrayStart()
	checkErr(t, asError(r.Err()), 6, "nesting exceeds 2 levels")
}

func asError(e *SyntaxError) error {
	if e == nil {
		return nil
	}
	return e
}

func TestKindString(t *testing.T) {
	want := map[Kind]string{
		Invalid: "invalid", Null: "null", Bool: "boolean", Number: "number",
		String: "string", Array: "array", Object: "object", Kind(200): "invalid",
	}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), s)
		}
	}
}

// TestResetClearsEveryField: Reset, which assigns the fields one by one,
// leaves a used Reader as a fresh one pointed at the new data, its scratch
// buffers kept empty. A field added to Reader fails the count until Reset
// (and this test) clear it.
func TestResetClearsEveryField(t *testing.T) {
	if n := reflect.TypeFor[Reader]().NumField(); n != 12 {
		t.Fatalf("Reader has %d fields; Reset clears 12: update it and this test", n)
	}
	var r Reader
	r.Reset([]byte(`{"a\u0062":[1,{"c":"\u0064"}]}`), DefaultLimits)
	r.Skip()
	r.Fail(3, ErrStopped, "used")
	r.first, r.depth, r.nameOff = true, 2, 7
	r.Remember(&Ends{}, 5)
	data := []byte(`[]`)
	r.Reset(data, Limits{MaxDepth: 8})
	want := Reader{data: data, maxDepth: 8, str: r.str[:0], name: r.name[:0], arena: r.arena[:0]}
	if !reflect.DeepEqual(r, want) || len(r.str)+len(r.name)+len(r.arena) != 0 {
		t.Errorf("after Reset: %+v, want %+v", r, want)
	}
}
