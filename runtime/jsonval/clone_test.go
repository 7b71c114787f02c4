package jsonval

import (
	"bytes"
	"testing"
)

// TestClone: Clone and CloneCompact copy a value whole, and no change to
// the copy reaches the original or another part of the copy.
func TestClone(t *testing.T) {
	for _, clone := range []struct {
		name string
		f    func(*Value) *Value
	}{{"Clone", (*Value).Clone}, {"CloneCompact", (*Value).CloneCompact}} {
		t.Run(clone.name, func(t *testing.T) { testClone(t, clone.f) })
	}
}

func testClone(t *testing.T, clone func(*Value) *Value) {
	for _, src := range []string{
		`null`,
		`"s"`,
		`{}`,
		`[]`,
		`{"a":1,"b":[true,{"c":"d"},[]],"e":{"f":{}}}`,
		`[[1,2],[3,[4,{"x":null}]],{"y":[5]}]`,
	} {
		t.Run(src, func(t *testing.T) {
			orig, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			c := clone(orig)
			if got := c.Marshal(); !bytes.Equal(got, []byte(src)) {
				t.Fatalf("clone marshals as %s", got)
			}
			if (orig.Members == nil) != (c.Members == nil) || (orig.Items == nil) != (c.Items == nil) {
				t.Fatalf("clone changed whether Members (%v) or Items (%v) is nil", c.Members == nil, c.Items == nil)
			}
			// Change every value of the copy, appending to each object
			// and array: the original must not see any of it.
			var mutate func(v *Value)
			mutate = func(v *Value) {
				for _, m := range v.Members {
					mutate(m.Value)
				}
				for _, it := range v.Items {
					mutate(it)
				}
				switch v.Kind {
				case Object:
					v.Set("added", &Value{Kind: Number, Str: "9"})
				case Array:
					v.Items = append(v.Items, &Value{Kind: Null})
				default:
					v.Str = "changed"
				}
			}
			mutate(c)
			if got := orig.Marshal(); !bytes.Equal(got, []byte(src)) {
				t.Fatalf("changing the clone changed the original to %s", got)
			}
			// The same changes to a value built from scratch: appending to
			// one of the copy's slices must not write into a neighbour's.
			want, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			mutate(want)
			if got, want := c.Marshal(), want.Marshal(); !bytes.Equal(got, want) {
				t.Fatalf("changed clone is %s, want %s", got, want)
			}
		})
	}
}
