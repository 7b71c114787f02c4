package tgimpl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// walkObjects reads the object d is at as generated decode loops do: it
// descends into every member whose value is an object, and hands every
// other member, with its object's mark, to member (which consumes the
// value).
func walkObjects(d *Decoder, member func(mark int, name []byte)) {
	mark := d.ObjectNames()
	d.R.ObjectStart()
	for {
		name, ok := d.R.NextMember()
		if !ok {
			break
		}
		d.PushName()
		if d.R.Peek() == jsonread.Object {
			walkObjects(d, member)
		} else {
			member(mark, name)
		}
		d.Pop()
	}
	d.EndObject(mark)
}

// readUnknown reads an object whose members are all undeclared, as a
// closed object's decode loop does, and returns the decode's error.
func readUnknown(t *testing.T, data string) (*Decoder, error) {
	t.Helper()
	var d Decoder
	d.Reset("t", []byte(data))
	if d.Object() {
		walkObjects(&d, func(mark int, name []byte) {
			d.Additional("/additionalProperties", mark, name, "a")
			if len(d.sets) > 1 {
				t.Errorf("%d name sets for one object", len(d.sets))
			}
		})
	}
	return &d, d.Finish()
}

func TestUndeclaredDuplicates(t *testing.T) {
	members := func(n int, extra ...string) string {
		parts := make([]string, 0, n+len(extra))
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"u%d":0`, i))
		}
		parts = append(parts, extra...)
		return "{" + strings.Join(parts, ",") + "}"
	}
	tests := []struct {
		name string
		data string
		code toolerr.Code
	}{
		{"few, distinct", members(3), toolerr.InvalidArguments},
		{"few, repeated", members(3, `"u1":1`), toolerr.InvalidJSON},
		{"few, repeated escaped", members(3, `"\u0075\u0031":1`), toolerr.InvalidJSON},
		{"at the indexing threshold, repeated", members(linearNames, `"u0":1`), toolerr.InvalidJSON},
		{"many, distinct", members(5000), toolerr.InvalidArguments},
		{"many, repeated first", members(5000, `"u0":1`), toolerr.InvalidJSON},
		{"many, repeated last", members(5000, `"u4999":1`), toolerr.InvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := readUnknown(t, tt.data)
			e, ok := err.(*toolerr.Error)
			if !ok || e.Code != tt.code {
				t.Fatalf("error %v, want code %s", err, tt.code)
			}
			if len(d.sets) != 0 || d.nUnknown != 0 || len(d.more) != 0 {
				t.Errorf("EndObject left %d sets and %d names", len(d.sets), d.nUnknown)
			}
			if tt.code == toolerr.InvalidArguments && (len(e.Violations()) != min(strings.Count(tt.data, ":"), toolerr.MaxViolations) || e.Truncated != (strings.Count(tt.data, ":") > toolerr.MaxViolations)) {
				t.Errorf("%d violations (truncated %v)", len(e.Violations()), e.Truncated)
			}
		})
	}
}

// TestNestedObjectsKeepTheirOwnNames: a name in an inner object is not a
// duplicate of the same name in the outer one, indexed or not.
func TestNestedObjectsKeepTheirOwnNames(t *testing.T) {
	for _, n := range []int{2, linearNames + 5} {
		var outer, inner []string
		for i := range n {
			outer = append(outer, fmt.Sprintf(`"u%d":0`, i))
			inner = append(inner, fmt.Sprintf(`"u%d":0`, i))
		}
		data := "{" + strings.Join(outer, ",") + `,"in":{` + strings.Join(inner, ",") + "}}"
		var d Decoder
		d.Reset("t", []byte(data))
		d.Object()
		walkObjects(&d, func(mark int, name []byte) {
			if d.Extra(mark, name) {
				d.R.Skip()
			}
		})
		if err := d.Finish(); err != nil {
			t.Errorf("%d names: %v", n, err)
		}
	}
}
