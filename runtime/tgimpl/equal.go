package tgimpl

import (
	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// jsonNumber is number text, compared by exact decimal value.
type jsonNumber []byte

// Equal reports whether two valid JSON texts are the same JSON value in the
// sense of JSON Schema's const, enum and uniqueItems: numbers are equal when
// their decimal values are (1 equals 1.0), strings by their decoded
// contents, objects by their member sets whatever the order, arrays item by
// item. false never equals 0 and null equals only null.
func Equal(a, b []byte) bool {
	va, okA := tree(a)
	vb, okB := tree(b)
	return okA && okB && equalTrees(va, vb)
}

func tree(data []byte) (any, bool) {
	var r jsonread.Reader
	r.Reset(data, jsonread.Limits{})
	v := readTree(&r)
	r.Finish()
	return v, r.Err() == nil
}

func readTree(r *jsonread.Reader) any {
	switch r.Peek() {
	case jsonread.Null:
		r.Null()
		return nil
	case jsonread.Bool:
		return r.Bool()
	case jsonread.Number:
		return jsonNumber(r.Number())
	case jsonread.String:
		return string(r.String())
	case jsonread.Array:
		items := []any{}
		r.ArrayStart()
		for r.NextItem() {
			items = append(items, readTree(r))
		}
		return items
	case jsonread.Object:
		members := map[string]any{}
		r.ObjectStart()
		for {
			name, ok := r.NextMember()
			if !ok {
				break
			}
			members[string(name)] = readTree(r)
		}
		return members
	}
	return nil
}

func equalTrees(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case jsonNumber:
		y, ok := b.(jsonNumber)
		return ok && jsonnum.Compare(x, y) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalTrees(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalTrees(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// NumberIn reports whether the number text raw equals one of vals exactly.
func NumberIn(raw []byte, vals ...string) bool {
	for _, v := range vals {
		if jsonnum.Compare(raw, []byte(v)) == 0 {
			return true
		}
	}
	return false
}

// RawIn reports whether the JSON text raw equals one of the JSON texts vals.
func RawIn(raw []byte, vals ...string) bool {
	for _, v := range vals {
		if Equal(raw, []byte(v)) {
			return true
		}
	}
	return false
}
