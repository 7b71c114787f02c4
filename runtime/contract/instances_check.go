package contract

import (
	"cmp"
	"errors"
	"math/big"
	"slices"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// ---- checking ----

// check reports whether v is valid against the schema s.
func (d *deriver) check(s, v *jsonval.Value, depth int) bool {
	if depth > maxDepth {
		d.fail(errors.New("schema or instance nested too deeply (or a $ref cycle)"))
		return false
	}
	switch s.Kind {
	case jsonval.Bool:
		return s.Bool
	case jsonval.Object:
	default:
		return true
	}
	if ref := s.Get("$ref"); ref != nil {
		t := d.resolve(ref.Str)
		if t == nil || !d.check(t, v, depth+1) {
			return false
		}
		if d.draft7 {
			return true
		}
	}
	for _, m := range s.Members {
		if !d.keyword(s, m.Key, m.Value, v, depth) {
			return false
		}
	}
	return true
}

// keyword checks one keyword (with its siblings where it depends on them).
func (d *deriver) keyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "type":
		return slices.ContainsFunc(typeList(kw), func(t string) bool { return hasType(v, t) })
	case "enum":
		return slices.ContainsFunc(kw.Items, func(e *jsonval.Value) bool { return jsonval.Equal(e, v) })
	case "const":
		return jsonval.Equal(kw, v)
	case "allOf":
		for _, b := range kw.Items {
			if !d.check(b, v, depth+1) {
				return false
			}
		}
	case "anyOf":
		return slices.ContainsFunc(kw.Items, func(b *jsonval.Value) bool { return d.check(b, v, depth+1) })
	case "oneOf":
		n := 0
		for _, b := range kw.Items {
			if d.check(b, v, depth+1) {
				n++
			}
		}
		return n == 1
	case "not":
		return !d.check(kw, v, depth+1)
	case "unevaluatedProperties", "unevaluatedItems":
		return d.draft7 || d.unevaluated(s, key, kw, v, depth)
	case "if":
		if d.check(kw, v, depth+1) {
			if t := s.Get("then"); t != nil {
				return d.check(t, v, depth+1)
			}
		} else if e := s.Get("else"); e != nil {
			return d.check(e, v, depth+1)
		}
	}
	if k, ok := schema.Lookup(key); ok && k.Bound != schema.NoBound {
		if holds, measured := boundHolds(k, kw, v); measured {
			return holds
		}
	}
	switch v.Kind {
	case jsonval.Number:
		return numberKeyword(key, kw, v)
	case jsonval.String:
		return d.stringKeyword(key, kw, v)
	case jsonval.Array:
		return d.arrayKeyword(s, key, kw, v, depth)
	case jsonval.Object:
		return d.objectKeyword(s, key, kw, v, depth)
	}
	return true
}

// boundHolds checks the bound k against v, reading the bound's direction
// and measure from its row (minimum, exclusiveMaximum, minLength,
// maxItems, minProperties, …); measured is false when k does not measure
// values of v's kind (and for the bounds of contains, which contains
// checks).
func boundHolds(k schema.Keyword, kw, v *jsonval.Value) (holds, measured bool) {
	var c int
	switch {
	case k.Measure == schema.Magnitude && v.Kind == jsonval.Number:
		x, b := numRat(v), numRat(kw)
		if x == nil || b == nil {
			return false, true
		}
		c = x.Cmp(b)
	case k.Measure == schema.Length && v.Kind == jsonval.String:
		c = cmp.Compare(utf8.RuneCountInString(v.Str), intOf(kw))
	case k.Measure == schema.ItemCount && v.Kind == jsonval.Array:
		c = cmp.Compare(len(v.Items), intOf(kw))
	case k.Measure == schema.MemberCount && v.Kind == jsonval.Object:
		c = cmp.Compare(len(v.Members), intOf(kw))
	default:
		return false, false
	}
	switch {
	case k.Bound == schema.Lower && k.Exclusive:
		return c > 0, true
	case k.Bound == schema.Lower:
		return c >= 0, true
	case k.Exclusive:
		return c < 0, true
	}
	return c <= 0, true
}

// numberKeyword checks a numeric keyword other than a bound against the
// number v.
func numberKeyword(key string, kw, v *jsonval.Value) bool {
	if key != "multipleOf" {
		return true
	}
	x, b := numRat(v), numRat(kw)
	return x != nil && b != nil && new(big.Rat).Quo(x, b).IsInt()
}

// stringKeyword checks a string keyword other than a bound against the string v.
func (d *deriver) stringKeyword(key string, kw, v *jsonval.Value) bool {
	switch key {
	case "pattern":
		return d.match(kw.Str, v.Str)
	case "format":
		if f, ok := format.Lookup(kw.Str); ok {
			return f(v.Str)
		}
	}
	return true
}

// arrayKeyword checks an array keyword of s other than a bound against the array v.
func (d *deriver) arrayKeyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "uniqueItems":
		if isTrue(kw) {
			for i := range v.Items {
				for j := range i {
					if jsonval.Equal(v.Items[i], v.Items[j]) {
						return false
					}
				}
			}
		}
	case "items", "prefixItems", "additionalItems":
		for i, it := range v.Items {
			if sub, k := d.itemSchema(s, i); k == key && !d.check(sub, it, depth+1) {
				return false
			}
		}
	case "contains":
		n := 0
		for _, it := range v.Items {
			if d.check(kw, it, depth+1) {
				n++
			}
		}
		lo, hi := 1, len(v.Items)
		if m := s.Get("minContains"); m != nil && !d.draft7 {
			lo = intOf(m)
		}
		if m := s.Get("maxContains"); m != nil && !d.draft7 {
			hi = intOf(m)
		}
		return n >= lo && n <= hi
	}
	return true
}

// objectKeyword checks an object keyword of s other than a bound against the object v.
func (d *deriver) objectKeyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "required":
		return !slices.ContainsFunc(kw.Items, func(r *jsonval.Value) bool { return !v.Has(r.Str) })
	case "properties", "patternProperties", "additionalProperties":
		for _, m := range v.Members {
			for _, ms := range d.memberSchemas(s, m.Key) {
				if ms.key == key && !d.check(ms.schema, m.Value, depth+1) {
					return false
				}
			}
		}
	case "propertyNames":
		for _, m := range v.Members {
			if !d.check(kw, &jsonval.Value{Kind: jsonval.String, Str: m.Key}, depth+1) {
				return false
			}
		}
	case "dependentRequired", "dependentSchemas", "dependencies":
		for _, dep := range kw.Members {
			if !v.Has(dep.Key) {
				continue
			}
			if dep.Value.Kind == jsonval.Array {
				if key == "dependentSchemas" {
					continue
				}
				if slices.ContainsFunc(dep.Value.Items, func(r *jsonval.Value) bool { return r.Kind == jsonval.String && !v.Has(r.Str) }) {
					return false
				}
			} else if key != "dependentRequired" && !d.check(dep.Value, v, depth+1) {
				return false
			}
		}
	}
	return true
}

// memberSchema is a schema that applies to an object member, and the keyword it comes from.
type memberSchema struct {
	key    string
	schema *jsonval.Value
}

// memberSchemas returns the schemas of s that apply to the member named name: its property schema and
// every matching patternProperties schema, or else additionalProperties.
func (d *deriver) memberSchemas(s *jsonval.Value, name string) []memberSchema {
	var out []memberSchema
	if p := s.Get("properties").Get(name); p != nil {
		out = append(out, memberSchema{"properties", p})
	}
	if pp := s.Get("patternProperties"); pp != nil {
		for _, m := range pp.Members {
			if d.match(m.Key, name) {
				out = append(out, memberSchema{"patternProperties", m.Value})
			}
		}
	}
	if len(out) == 0 {
		if a := s.Get("additionalProperties"); a != nil {
			out = append(out, memberSchema{"additionalProperties", a})
		}
	}
	return out
}

// itemSchema returns the schema of s for the item at index i and the keyword it comes from, or the
// true schema and "".
func (d *deriver) itemSchema(s *jsonval.Value, i int) (*jsonval.Value, string) {
	prefix, rest, restKey := s.Get("prefixItems"), s.Get("items"), "items"
	if d.draft7 {
		prefix, restKey = nil, "additionalItems"
		if rest != nil && rest.Kind == jsonval.Array {
			prefix, rest = rest, s.Get("additionalItems")
		} else {
			restKey = "items"
		}
		if prefix != nil && i < len(prefix.Items) {
			return prefix.Items[i], "items"
		}
	} else if prefix != nil && i < len(prefix.Items) {
		return prefix.Items[i], "prefixItems"
	}
	if rest != nil {
		return rest, restKey
	}
	return trueSchema, ""
}

var trueSchema = &jsonval.Value{Kind: jsonval.Bool, Bool: true}
