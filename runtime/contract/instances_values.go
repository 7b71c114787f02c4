package contract

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// hasType reports whether v is of the JSON Schema type t (1.0 is an integer).
func hasType(v *jsonval.Value, t string) bool {
	switch t {
	case "integer":
		r := numRat(v)
		return v.Kind == jsonval.Number && r != nil && r.IsInt()
	case "number":
		return v.Kind == jsonval.Number
	}
	return v.Kind.String() == t
}

// typeList returns the type names of a "type" keyword value.
func typeList(t *jsonval.Value) []string {
	if t == nil {
		return nil
	}
	if t.Kind == jsonval.String {
		return []string{t.Str}
	}
	var out []string
	for _, it := range t.Items {
		if it.Kind == jsonval.String {
			out = append(out, it.Str)
		}
	}
	return out
}

// numRat returns the exact value of a JSON number, or nil for a non-number or one whose exponent is too
// large to handle.
func numRat(v *jsonval.Value) *big.Rat {
	if v == nil || v.Kind != jsonval.Number {
		return nil
	}
	if plainInt(v.Str) && len(v.Str) < 19 {
		n, err := strconv.ParseInt(v.Str, 10, 64)
		if err == nil {
			return big.NewRat(n, 1)
		}
	}
	if i := strings.IndexAny(v.Str, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(v.Str[i+1:], "+"))
		if err != nil || e > maxExp || e < -maxExp {
			return nil
		}
	}
	r, ok := new(big.Rat).SetString(v.Str)
	if !ok {
		return nil
	}
	return r
}

// plainInt reports whether the JSON number text s has neither fraction nor exponent.
func plainInt(s string) bool { return !strings.ContainsAny(s, ".eE") }

// intOf returns a scanned count keyword as an int, saturating.
func intOf(v *jsonval.Value) int {
	r := numRat(v)
	if r == nil || !r.IsInt() {
		return 0
	}
	if !r.Num().IsInt64() || r.Num().Int64() > 1<<31 {
		return 1 << 31
	}
	return int(r.Num().Int64())
}

// ratText writes an exact decimal as JSON number text.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	den := new(big.Int).Set(r.Denom())
	digits := 0
	ten, zero := big.NewInt(10), new(big.Int)
	for m := new(big.Int); digits < 2*maxExp; digits++ {
		if m.Mod(new(big.Int).Exp(ten, big.NewInt(int64(digits)), nil), den); m.Cmp(zero) == 0 {
			break
		}
	}
	s := r.FloatString(digits)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// itemsOf returns the items of an array value; nil for anything else, nil included.
func itemsOf(v *jsonval.Value) []*jsonval.Value {
	if v == nil || v.Kind != jsonval.Array {
		return nil
	}
	return v.Items
}

// membersOf returns the members of an object value; nil for anything else, nil included.
func membersOf(v *jsonval.Value) []jsonval.Member {
	if v == nil || v.Kind != jsonval.Object {
		return nil
	}
	return v.Members
}

// isTrue reports whether v is the JSON value true.
func isTrue(v *jsonval.Value) bool { return v != nil && v.Kind == jsonval.Bool && v.Bool }

// jsonNumber returns the exact decimal r as a JSON number.
func jsonNumber(r *big.Rat) *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Number, Str: ratText(r)}
}

// jsonString returns s as a JSON string.
func jsonString(s string) *jsonval.Value { return &jsonval.Value{Kind: jsonval.String, Str: s} }

// emptyObject returns a new {}.
func emptyObject() *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{}}
}
