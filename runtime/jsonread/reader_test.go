package jsonread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
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
		{in: members(40, `"a40":0`)},
		// Past 16 names the set keys views of the names, escaped ones in the
		// arena, which must not change while the object is read.
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

func TestSyntaxErrorMessage(t *testing.T) {
	err := Valid([]byte(`{"a":1,"a":2}`), Limits{})
	const want = `invalid JSON at byte 7: duplicate member name "a"`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
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

func TestPeek(t *testing.T) {
	tests := []struct {
		in     string
		want   Kind
		reason string
	}{
		{in: " null", want: Null},
		{in: "true", want: Bool},
		{in: "false", want: Bool},
		{in: "-1", want: Number},
		{in: "7", want: Number},
		{in: `"`, want: String},
		{in: "[", want: Array},
		{in: "{", want: Object},
		{in: "", want: Invalid, reason: "unexpected end of input"},
		{in: "}", want: Invalid, reason: "invalid character '}' looking for value"},
		{in: "x", want: Invalid, reason: "invalid character 'x' looking for value"},
	}
	for _, tt := range tests {
		var r Reader
		r.Reset([]byte(tt.in), Limits{})
		if got := r.Peek(); got != tt.want {
			t.Errorf("Peek(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if tt.reason == "" && r.Err() != nil {
			t.Errorf("Peek(%q): unexpected error %v", tt.in, r.Err())
		}
		if tt.reason != "" && (r.Err() == nil || r.Err().Reason != tt.reason) {
			t.Errorf("Peek(%q): error %v, want %q", tt.in, r.Err(), tt.reason)
		}
	}
}

func TestScalarReads(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		read   func(r *Reader) any
		want   any
		offset int
		reason string
	}{
		{name: "null", in: " null ", read: func(r *Reader) any { r.Null(); return nil }},
		{name: "true", in: "true", read: func(r *Reader) any { return r.Bool() }, want: true},
		{name: "false", in: "false", read: func(r *Reader) any { return r.Bool() }, want: false},
		{name: "number", in: " -12.5e3 ", read: num, want: "-12.5e3"},
		{name: "zero", in: "0", read: num, want: "0"},
		{name: "string", in: `"abc"`, read: str, want: "abc"},
		{name: "escaped", in: `"a\tb\u00e9\ud83d\ude00"`, read: str, want: "a\tb\u00e9\U0001F600"},
		{name: "empty string", in: `""`, read: str, want: ""},

		{name: "number for string", in: `"1"`, read: num, want: "", offset: 0, reason: "expected number"},
		{name: "string for number", in: ` 1`, read: str, want: "", offset: 1, reason: "expected string"},
		{name: "bool for null", in: `null`, read: func(r *Reader) any { return r.Bool() }, want: false, offset: 0, reason: "expected boolean"},
		{name: "null for bool", in: `false`, read: func(r *Reader) any { r.Null(); return nil }, offset: 0, reason: "expected null"},
		{name: "object for array", in: `[]`, read: func(r *Reader) any { r.ObjectStart(); return nil }, offset: 0, reason: "expected object"},
		{name: "array for object", in: `{}`, read: func(r *Reader) any { r.ArrayStart(); return nil }, offset: 0, reason: "expected array"},
		{name: "number at garbage", in: `x`, read: num, want: "", offset: 0, reason: "invalid character 'x' looking for value"},
		{name: "string at end", in: ` `, read: str, want: "", offset: 1, reason: "unexpected end of input"},
		{name: "truncated null", in: `nul`, read: func(r *Reader) any { r.Null(); return nil }, offset: 3, reason: "unexpected end of input"},
		{name: "bad literal", in: `fals3`, read: func(r *Reader) any { return r.Bool() }, want: false, offset: 4, reason: "invalid character '3' in literal false"},
		{name: "bad number", in: `-x`, read: num, want: "", offset: 1, reason: "invalid character 'x' in numeric literal"},
		{name: "bad string", in: `"\ud800"`, read: str, want: "", offset: 1, reason: `lone surrogate \ud800`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Reader
			r.Reset([]byte(tt.in), Limits{})
			got := tt.read(&r)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			r.Finish()
			checkErr(t, asError(r.Err()), tt.offset, tt.reason)
		})
	}
}

func num(r *Reader) any { return string(r.Number()) }
func str(r *Reader) any { return string(r.String()) }

func TestStickyError(t *testing.T) {
	var r Reader
	r.Reset([]byte(`{"a":x,"b":"s","c":1,"d":[true]}`), Limits{})
	r.ObjectStart()
	if name, ok := r.NextMember(); !ok || string(name) != "a" {
		t.Fatalf("NextMember = %q, %v", name, ok)
	}
	if r.Number() != nil {
		t.Fatal("Number on x returned text")
	}
	first := *r.Err()
	r.Fail(0, "other")
	off := r.Offset()
	if name, ok := r.NextMember(); ok || name != nil {
		t.Errorf("NextMember after error = %q, %v", name, ok)
	}
	if r.Peek() != Invalid || r.String() != nil || r.Number() != nil || r.Bool() || r.NextItem() ||
		r.Capture(0) != nil {
		t.Error("a read after an error returned a non-zero value")
	}
	r.Null()
	r.ObjectStart()
	r.ArrayStart()
	r.Skip()
	r.Finish()
	if *r.Err() != first {
		t.Errorf("error changed to %v, want %v", r.Err(), first)
	}
	if r.Offset() != off {
		t.Errorf("offset moved from %d to %d after the error", off, r.Offset())
	}
}

func TestFail(t *testing.T) {
	var r Reader
	r.Reset([]byte(`{"a":1,"a":2}`), Limits{})
	r.ObjectStart()
	r.NextMember()
	r.Number()
	r.NextMember()
	r.Fail(r.NameOffset(), `duplicate member name "a"`)
	checkErr(t, asError(r.Err()), 7, `duplicate member name "a"`)
}

func TestMembersAndItems(t *testing.T) {
	in := `{ "plain" : 1 , "esc\u0061ped" : "v\u0061l" , "arr" : [ 1 , [ ] , { } ] , "obj" : { "x" : null } }`
	var r Reader
	r.Reset([]byte(in), Limits{})
	r.ObjectStart()
	type member struct {
		name   string
		offset int
	}
	var got []member
	var items []string
	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
		got = append(got, member{string(name), r.NameOffset()})
		switch string(name) {
		case "plain":
			r.Number()
		case "escaped":
			if v := string(r.String()); v != "val" {
				t.Errorf("escaped = %q", v)
			}
			if string(name) != "escaped" {
				t.Errorf("name clobbered by String: %q", name)
			}
		case "arr":
			r.ArrayStart()
			for r.NextItem() {
				items = append(items, r.Peek().String())
				r.Skip()
			}
		case "obj":
			r.ObjectStart()
			n, ok := r.NextMember()
			if !ok || string(n) != "x" {
				t.Fatalf("inner member = %q, %v", n, ok)
			}
			r.Null()
			if n, ok := r.NextMember(); ok {
				t.Fatalf("inner object not closed: %q", n)
			}
		}
	}
	r.Finish()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	want := []member{
		{"plain", strings.Index(in, `"plain"`)},
		{"escaped", strings.Index(in, `"esc`)},
		{"arr", strings.Index(in, `"arr"`)},
		{"obj", strings.Index(in, `"obj"`)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("members = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(items, []string{"number", "array", "object"}) {
		t.Errorf("items = %v", items)
	}
	if r.Offset() != len(in) {
		t.Errorf("Offset = %d, want %d", r.Offset(), len(in))
	}
}

func TestEmptyContainers(t *testing.T) {
	var r Reader
	r.Reset([]byte(` [ { } , [ ] , { "a" : [ ] } ] `), Limits{})
	r.ArrayStart()
	n := 0
	for r.NextItem() {
		switch r.Peek() {
		case Object:
			r.ObjectStart()
			for _, ok := r.NextMember(); ok; _, ok = r.NextMember() {
				r.ArrayStart()
				if r.NextItem() {
					t.Error("empty array has an item")
				}
			}
		case Array:
			r.ArrayStart()
			if r.NextItem() {
				t.Error("empty array has an item")
			}
		}
		n++
	}
	r.Finish()
	if r.Err() != nil || n != 3 {
		t.Fatalf("items %d, err %v", n, r.Err())
	}
}

func TestCapture(t *testing.T) {
	in := []byte(`{"a": [1, {"b":2}] , "c":  "x\ny" , "d":	-1.5e2 }`)
	var r Reader
	r.Reset(in, Limits{})
	r.ObjectStart()
	got := map[string]string{}
	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
		start := r.Offset()
		switch string(name) {
		case "a":
			r.Skip()
		case "c":
			r.String()
		case "d":
			r.Number()
		}
		got[string(name)] = string(r.Capture(start))
	}
	r.Finish()
	want := map[string]string{"a": `[1, {"b":2}]`, "c": `"x\ny"`, "d": `-1.5e2`}
	if r.Err() != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("captures %q (err %v), want %q", got, r.Err(), want)
	}
	if c := r.Capture(len(in) + 1); c != nil {
		t.Errorf("Capture past the offset = %q, want nil", c)
	}
	if c := r.Capture(-1); c != nil {
		t.Errorf("Capture(-1) = %q, want nil", c)
	}
}

func TestScratchAliasing(t *testing.T) {
	in := []byte(`{"plain":"raw","n\u0061me":"v\u0061lue","other":"s\u0065cond","skip":{"\u006b":1}}`)
	var r Reader
	r.Reset(in, Limits{})
	r.ObjectStart()

	name, _ := r.NextMember()
	if !within(name, in) {
		t.Error("unescaped name does not alias the input")
	}
	v := r.String()
	if !within(v, in) || string(v) != "raw" {
		t.Errorf("unescaped string %q does not alias the input", v)
	}
	if cap(v) != len(v) {
		t.Errorf("aliasing string has spare capacity %d; appending would write into the input", cap(v)-len(v))
	}

	name, _ = r.NextMember()
	if within(name, in) || string(name) != "name" {
		t.Errorf("escaped name %q aliases the input", name)
	}
	v = r.String()
	if within(v, in) || string(v) != "value" {
		t.Errorf("escaped string %q aliases the input", v)
	}
	if string(name) != "name" {
		t.Errorf("name clobbered by String: %q", name)
	}

	name2, _ := r.NextMember()
	if string(v) != "value" {
		t.Errorf("String result clobbered by NextMember: %q", v)
	}
	v2 := r.String()
	if string(v2) != "second" || string(name2) != "other" {
		t.Errorf("got %q:%q", name2, v2)
	}

	name3, _ := r.NextMember()
	r.Skip() // unescapes the inner name into its own buffer
	if string(name3) != "skip" || string(v2) != "second" {
		t.Errorf("Skip clobbered %q or %q", name3, v2)
	}
	if _, ok := r.NextMember(); ok || r.Err() != nil {
		t.Fatalf("object not closed: %v", r.Err())
	}
}

func within(b, data []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return lo <= p && p < lo+uintptr(len(data))
}

func TestUnquote(t *testing.T) {
	tests := []struct {
		data   string
		offset int
		want   string
	}{
		{`"abc"`, 0, "abc"},
		{`{"a\u0062c":1}`, 1, "abc"},
		{`["\ud83d\ude00"]`, 1, "\U0001F600"},
		{`"a\"b"`, 0, `a"b`},
		{`abc`, 0, ""},
		{`"abc"`, 5, ""},
		{`"abc"`, -1, ""},
		{`"ab`, 0, "ab"},
		{"\"a\xffb\"", 0, "a"},
		{`"ab\ud800"`, 0, "ab"},
		{`"ab\q"`, 0, `ab\`},
	}
	for _, tt := range tests {
		if got := Unquote([]byte(tt.data), tt.offset); got != tt.want {
			t.Errorf("Unquote(%q, %d) = %q, want %q", tt.data, tt.offset, got, tt.want)
		}
	}
}

func TestPlainRun(t *testing.T) {
	// Every special byte at every position of a word, with ordinary bytes
	// around it, including bytes that provoke borrows in the word test.
	for _, special := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xff} {
		for _, filler := range []byte{'a', ' ', 0x21, 0x5b, 0x5d, 0x7f, 0x20} {
			for pos := range 20 {
				data := bytes.Repeat([]byte{filler}, 24)
				data[pos] = special
				if got := plainRun(data, 0); got != pos {
					t.Fatalf("plainRun(%q) = %d, want %d", data, got, pos)
				}
			}
		}
	}
	if got := plainRun([]byte("abcdefghijk"), 3); got != 11 {
		t.Fatalf("plainRun without special byte = %d, want 11", got)
	}
}

// walk decodes any value through the typed API, the way generated code
// does, into the shapes encoding/json produces with UseNumber.
func walk(r *Reader) any {
	switch r.Peek() {
	case Null:
		r.Null()
		return nil
	case Bool:
		return r.Bool()
	case Number:
		return json.Number(r.Number())
	case String:
		return string(r.String())
	case Array:
		out := []any{}
		r.ArrayStart()
		for r.NextItem() {
			out = append(out, walk(r))
		}
		return out
	case Object:
		out := map[string]any{}
		r.ObjectStart()
		for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
			out[string(name)] = walk(r)
		}
		return out
	}
	return nil
}

// checkWalk decodes data with walk and checks it against Valid and against
// encoding/json.
func checkWalk(t *testing.T, data []byte) {
	t.Helper()
	verr := Valid(data, Limits{})
	var r Reader
	r.Reset(data, Limits{})
	got := walk(&r)
	r.Finish()
	werr := r.Err()
	if verr == nil {
		if werr != nil {
			t.Fatalf("Valid accepts %q, typed reads fail: %v", data, werr)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("Valid accepts %q, encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("typed reads of %q = %#v, encoding/json = %#v", data, got, want)
		}
		return
	}
	se := verr.(*SyntaxError)
	if strings.HasPrefix(se.Reason, "duplicate member name") {
		// The typed reads leave duplicates to generated code.
		if werr != nil && werr.Offset <= se.Offset {
			t.Fatalf("%q: typed reads fail at %v, before Valid's %v", data, werr, se)
		}
		return
	}
	if werr == nil || *werr != *se {
		t.Fatalf("%q: typed reads give %v, Valid gives %v", data, werr, se)
	}
}

func TestTypedReadsAgreeWithValid(t *testing.T) {
	for _, in := range []string{
		smallCall, nestedCall,
		`[]`, `{}`, `[{}]`, `{"a":[]}`, `[1,"a",true,false,null,{"b":[{}]}]`,
		`{"a":1,"a":2}`, `{"a":1,"a":x}`, `[1,]`, `[,]`, `{"a":1,}`, `{,}`, `[1 2]`, `{"a" 1}`,
		`"\ud800"`, "[\"\xff\"]", nested("[", "]", 65), `{"a":1}x`, `[`, `{`, `{"a"`, `{"a":`,
	} {
		checkWalk(t, []byte(in))
	}
}

func TestZeroAllocs(t *testing.T) {
	data := []byte(smallCall)
	type args struct {
		orderID  []byte
		amount   []byte
		currency []byte
		reason   []byte
		notify   bool
		priority []byte
		tags     int
	}
	var a args
	decode := func() {
		var r Reader
		r.Reset(data, DefaultLimits)
		r.ObjectStart()
		for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
			switch string(name) {
			case "order_id":
				a.orderID = r.String()
			case "amount":
				a.amount = r.Number()
			case "currency":
				a.currency = r.String()
			case "reason":
				a.reason = r.String()
			case "notify_customer":
				a.notify = r.Bool()
			case "priority":
				a.priority = r.Number()
			case "tags":
				r.ArrayStart()
				for r.NextItem() {
					r.String()
					a.tags++
				}
			default:
				r.Skip()
			}
		}
		r.Finish()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}
	if n := testing.AllocsPerRun(100, decode); n != 0 {
		t.Errorf("typed decode: %v allocs per run, want 0", n)
	}
	for _, in := range []string{smallCall, nestedCall, members(15, `"z":[1,2,{"y":null}]`)} {
		data := []byte(in)
		if n := testing.AllocsPerRun(100, func() {
			if err := Valid(data, Limits{}); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Valid(%.20q...): %v allocs per run, want 0", in, n)
		}
	}
	// A reused Reader keeps its scratch buffers: escapes cost nothing after
	// the first run.
	escaped := []byte(`{"n\u0061me":"v\u00e9lue","k":{"\u0078":"\ud83d\ude00"}}`)
	var r Reader
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(escaped, Limits{})
		r.ObjectStart()
		r.NextMember()
		r.String()
		r.NextMember()
		r.Skip()
		r.NextMember()
		r.Finish()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}); n != 0 {
		t.Errorf("reused Reader with escapes: %v allocs per run, want 0", n)
	}
}
