package provider

import (
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// ---- Anthropic ----

// anthropicLocal are the keywords Anthropic's strict mode does not take.
var anthropicLocal = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems"}

func (pr *projection) anthropic(schema *jsonval.Value) (*jsonval.Value, error) {
	if !pr.closedAndFinite(schema) {
		return schema, nil
	}
	pr.strict = true
	out := schema.CloneCompact()
	var strip func(s *jsonval.Value, ptr string) error
	strip = func(s *jsonval.Value, ptr string) error {
		for _, m := range slices.Clone(s.Members) {
			drop := slices.Contains(anthropicLocal, m.Key)
			if m.Key == "minItems" {
				n, err := strconv.Atoi(m.Value.Str)
				drop = err != nil || n > 1
			}
			if drop {
				pr.keep(ptr, m.Key, m.Value)
				s.Delete(m.Key)
			}
		}
		return walkChildren(s, ptr, strip)
	}
	return out, strip(out, "")
}

// closedAndFinite reports whether every object schema is closed and no
// $ref recurses: what strict modes require.
func (pr *projection) closedAndFinite(schema *jsonval.Value) bool {
	ok := true
	var visit func(s *jsonval.Value, ptr string, refs []string) error
	visit = func(s *jsonval.Value, ptr string, refs []string) error {
		if s.Kind != jsonval.Object {
			return nil
		}
		if slices.Contains(TypeNames(s), "object") || s.Has("properties") {
			if a := s.Get("additionalProperties"); a == nil || !(a.Kind == jsonval.Bool && !a.Bool) {
				ok = false
			}
		}
		if len(TypeNames(s)) == 0 && !s.Has("$ref") && !s.Has("enum") && !s.Has("const") && !s.Has("anyOf") && !s.Has("allOf") {
			ok = false // an untyped value
		}
		if slices.ContainsFunc(anthropicNotStrict, s.Has) {
			ok = false // beyond the strict subset
		}
		for _, kw := range []string{"anyOf", "allOf"} {
			for i, alt := range itemsOf(s.Get(kw)) {
				_ = visit(alt, ptr+"/"+kw+"/"+strconv.Itoa(i), refs)
			}
		}
		if r := s.Get("$ref"); r != nil {
			t, target, found := jsonval.ResolveRef(pr.root, r.Str)
			if !found {
				ok = false // what it refers to is unknown
				return nil
			}
			if slices.Contains(refs, target) {
				ok = false
				return nil
			}
			return visit(t, target, append(refs, target))
		}
		return walkChildren(s, ptr, func(c *jsonval.Value, at string) error { return visit(c, at, refs) })
	}
	_ = visit(schema, "", nil)
	return ok
}
