package jsonread

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

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
	if errors.Is(se, ErrDuplicateName) {
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
