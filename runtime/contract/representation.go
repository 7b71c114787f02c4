package contract

import (
	"errors"
	"math"
	"math/big"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// RepresentationOnly reports whether err, a generated decoder's refusal of
// instance under the effective schema, breaks only rules that the exact
// value keeps and that the Go value handed to the executor would break:
// the one deliberate divergence from santhosh-tekuri/jsonschema, which
// judges the exact decimal (big.Rat) and so accepts what the decoder
// refuses. Each violation must be one of:
//
//   - a bound (minimum, exclusiveMinimum, maximum, exclusiveMaximum) of a
//     number schema that the instance's exact value keeps and its float64
//     breaks: with exclusiveMinimum 0, 1e-400 is above 0 but becomes 0;
//   - type, for a number beyond the float64 range, or an integer beyond
//     int64 that keeps every bound of its schema (one that breaks a bound
//     is reported as that bound, which the oracle agrees with).
//
// Anything else — another keyword, a list cut at MaxViolations or
// truncated (the unseen violations are unknown), a pointer that does not
// resolve (a hidden or cut name), a value the checks above do not confirm
// — is a real disagreement, and RepresentationOnly returns false.
func RepresentationOnly(schema *jsonval.Value, instance []byte, err error) bool {
	var e *toolerr.Error
	if !errors.As(err, &e) || e.Code != toolerr.InvalidArguments || len(e.Violations()) == 0 || len(e.Violations()) >= toolerr.MaxViolations || e.Truncated {
		return false
	}
	inst, perr := jsonval.Parse(instance)
	if perr != nil {
		return false
	}
	for _, v := range e.Violations() {
		if !representationOnly(schema, inst, v) {
			return false
		}
	}
	return true
}

func representationOnly(schema, inst *jsonval.Value, v toolerr.Violation) bool {
	val := jsonval.Resolve(inst, v.InstancePath)
	i := strings.LastIndexByte(v.SchemaPath, '/')
	if val == nil || val.Kind != jsonval.Number || i < 0 || v.SchemaPath[i+1:] != v.Keyword {
		return false
	}
	node := jsonval.Resolve(schema, v.SchemaPath[:i])
	if node == nil {
		return false
	}
	raw := []byte(val.Str)
	switch v.Keyword {
	case "type":
		t := node.Get("type")
		if t == nil || !keepsBounds(node, raw) {
			return false
		}
		_, fits, isInt := jsonnum.Int64(raw)
		switch {
		case typeIs(t, "integer"):
			return isInt && !fits
		case typeIs(t, "number"):
			return math.IsInf(jsonnum.Float64(raw), 0)
		}
		return false
	case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
		b := node.Get(v.Keyword)
		if b == nil || b.Kind != jsonval.Number || !typeIs(node.Get("type"), "number") || !keeps(v.Keyword, jsonnum.Compare(raw, []byte(b.Str))) {
			return false
		}
		f := jsonnum.Float64(raw)
		bound, ok := new(big.Rat).SetString(b.Str)
		if !ok || math.IsInf(f, 0) {
			return false
		}
		return !keeps(v.Keyword, new(big.Rat).SetFloat64(f).Cmp(bound))
	}
	return false
}

// keepsBounds reports whether the number text raw keeps every bound of the
// schema node, compared exactly.
func keepsBounds(node *jsonval.Value, raw []byte) bool {
	for _, kw := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		if b := node.Get(kw); b != nil && b.Kind == jsonval.Number && !keeps(kw, jsonnum.Compare(raw, []byte(b.Str))) {
			return false
		}
	}
	return true
}

// keeps reports whether a value that compares as cmp (-1, 0, +1) with a
// bound keeps the bound keyword.
func keeps(keyword string, cmp int) bool {
	switch keyword {
	case "minimum":
		return cmp >= 0
	case "exclusiveMinimum":
		return cmp > 0
	case "maximum":
		return cmp <= 0
	}
	return cmp < 0
}

// typeIs reports whether the type keyword t is name or lists it.
func typeIs(t *jsonval.Value, name string) bool {
	if t == nil {
		return false
	}
	if t.Kind == jsonval.String {
		return t.Str == name
	}
	for _, it := range t.Items {
		if it.Kind == jsonval.String && it.Str == name {
			return true
		}
	}
	return false
}
