package jsonval

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// TestAppendKeyIsEqual: two values have the same key exactly when Equal
// reports them equal.
func TestAppendKeyIsEqual(t *testing.T) {
	docs := []string{
		`1`, `1.0`, `10e-1`, `-0`, `0`, `2`, `"1"`, `"A"`, `"\u0041"`, `true`, `false`, `null`,
		`[]`, `{}`, `[1,2]`, `[2,1]`, `[1.0,2]`, `{"a":1,"b":2}`, `{"b":2.0,"a":1}`, `{"a":"b"}`, `{"b":"a"}`,
		`{"a":[{"x":null}]}`, `{"a":[{"x":false}]}`, `["a,b"]`, `["a","b"]`, `{"a,":1}`, `{"a":",1"}`,
		`1e99999999999999999999`, `10e99999999999999999998`,
	}
	vals := make([]*Value, len(docs))
	for i, d := range docs {
		v, err := Parse([]byte(d))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		vals[i] = v
	}
	for i := range vals {
		for j := range vals {
			ki, kj := string(AppendKey(nil, vals[i])), string(AppendKey(nil, vals[j]))
			if (ki == kj) != Equal(vals[i], vals[j]) {
				t.Errorf("%s and %s: keys %q, %q; Equal %v", docs[i], docs[j], ki, kj, Equal(vals[i], vals[j]))
			}
		}
	}
}

// TestParseDuplicates: a repeated member name is an error at its second
// occurrence, in objects small and large (read scans the members of a
// small one and keeps a set for a large one), and distinct names are not.
func TestParseDuplicates(t *testing.T) {
	object := func(n int, extra ...string) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			fmt.Fprintf(&b, `"m%d":%d,`, i, i)
		}
		for _, k := range extra {
			fmt.Fprintf(&b, `%q:0,`, k)
		}
		return strings.TrimSuffix(b.String(), ",") + "}"
	}
	for _, n := range []int{0, 1, smallObject - 1, smallObject, smallObject + 1, 3 * smallObject} {
		if v, err := Parse([]byte(object(n))); err != nil || len(v.Members) != n {
			t.Errorf("%d distinct members: %v", n, err)
		}
		if n == 0 {
			continue
		}
		for _, dup := range []string{"m0", fmt.Sprintf("m%d", n-1)} {
			src := object(n, "x", dup)
			_, err := Parse([]byte(src))
			var se *jsonread.SyntaxError
			if !errors.As(err, &se) || se.Offset != strings.LastIndex(src, `"`+dup+`"`) || se.Reason != jsonread.DuplicateReason([]byte(dup)) {
				t.Errorf("%d members and %s again: %v", n, dup, err)
			}
		}
	}
}

// TestAppendJSON: AppendJSON appends what Marshal returns, whatever room
// the buffer has.
func TestAppendJSON(t *testing.T) {
	v, err := Parse([]byte(`{"a":[1,"x\u00e9\n",{"b":null}],"c":true,"d":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, room := range []int{0, 3, 1024} {
		b := append(make([]byte, 0, room), "p:"...)
		if got, want := string(v.AppendJSON(b)), "p:"+string(v.Marshal()); got != want {
			t.Errorf("room %d: %s, want %s", room, got, want)
		}
	}
}
