package jsonread

import (
	"reflect"
	"strings"
	"testing"
)

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
	r.Fail(0, ErrStopped, "other")
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
	r.Fail(r.NameOffset(), ErrDuplicateName, `duplicate member name "a"`)
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
