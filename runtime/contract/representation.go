package contract

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
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
//     is reported as that bound, which the oracle agrees with);
//   - a keyword whose verdict is that of subschemas (anyOf, oneOf, allOf,
//     not, if/then/else, contains, patternProperties, propertyNames,
//     unevaluated…, $ref: branchKeywords) at a value that holds such a
//     number at any depth: one beyond the float64 range, an integer beyond
//     int64, or one float64 does not hold exactly (1e-400,
//     1.00000000000000000000001; 0.1 is held as the float64 nearest it,
//     as its schema's bounds are). A branch is tried by decoding it, so a
//     number its Go type cannot hold fails the branch as it fails a
//     member; the branch's own violation is not reported, the keyword's
//     is, so the number's violation cannot be confirmed as above — and is
//     accepted at such a value only.
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
		if !representationOnly(schema, inst, v) && !branchOnInexactNumber(schema, inst, v) {
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

// branchOnInexactNumber reports whether v is the violation of a keyword
// whose verdict is that of subschemas (its schema path names it, in
// schema) at a value of inst that holds a number the Go types may not hold
// exactly.
func branchOnInexactNumber(schema, inst *jsonval.Value, v toolerr.Violation) bool {
	i := strings.LastIndexByte(v.SchemaPath, '/')
	return branchKeywords[v.Keyword] && i >= 0 && jsonval.UnescapeToken(v.SchemaPath[i+1:]) == v.Keyword &&
		jsonval.Resolve(schema, v.SchemaPath) != nil && holdsInexactNumber(jsonval.Resolve(inst, v.InstancePath))
}

// holdsInexactNumber reports whether the value v, at any depth, holds a
// number the Go types of a decoder may not hold exactly: beyond the
// float64 range, an integer beyond int64, or one whose float64 is not the
// number written (its shortest form differs in value).
func holdsInexactNumber(v *jsonval.Value) bool {
	if v == nil {
		return false
	}
	switch v.Kind {
	case jsonval.Number:
		raw := []byte(v.Str)
		f := jsonnum.Float64(raw)
		if _, fits, isInt := jsonnum.Int64(raw); math.IsInf(f, 0) || isInt && !fits {
			return true
		}
		return jsonnum.Compare(raw, strconv.AppendFloat(nil, f, 'g', -1, 64)) != 0
	case jsonval.Object:
		return slices.ContainsFunc(v.Members, func(m jsonval.Member) bool { return holdsInexactNumber(m.Value) })
	case jsonval.Array:
		return slices.ContainsFunc(v.Items, holdsInexactNumber)
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
