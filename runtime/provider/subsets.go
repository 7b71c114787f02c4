package provider

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// What the providers' subsets leave out of composed schemas (see the
// package comment).

// anthropicNotStrict reports whether the keyword name is beyond
// Anthropic's strict subset and cannot be dropped and listed without
// changing what the model is asked for: a keyword of the composition path
// that the schema.Keyword rows do not mark schema.AnthropicStrict. A tool
// that has one is sent in full, not strict.
func anthropicNotStrict(name string) bool {
	return schema.Is(name, func(k schema.Keyword) bool { return k.Enforced == schema.Composed }) && !schema.Takes(schema.AnthropicStrict, name)
}

// shapingApplicators choose or add to the shape of a value (the
// schema.Keyword rows that compose it): dropped from a provider's schema,
// they would change what the model is asked for, not only loosen a rule,
// when a branch describes objects or arrays.
var shapingApplicators = func() []string {
	var out []string
	for _, k := range schema.Keywords() {
		if k.Composes {
			out = append(out, k.Name)
		}
	}
	return out
}()

// shapes reports whether a subschema (or list or map of them) describes
// the structure of objects or arrays.
func shapes(v *jsonval.Value) bool {
	switch v.Kind {
	case jsonval.Array:
		return slices.ContainsFunc(v.Items, shapes)
	case jsonval.Object:
		for _, m := range v.Members {
			switch {
			case schema.Is(m.Key, func(k schema.Keyword) bool { return k.Shapes }):
				return true
			case m.Key == "type":
				if slices.ContainsFunc(schema.TypeNames(v), func(t string) bool { return t == "object" || t == "array" }) {
					return true
				}
			}
			if slices.Contains(shapingApplicators, m.Key) && shapes(m.Value) {
				return true
			}
		}
		if ds := v.Get("dependentSchemas"); ds != nil {
			for _, m := range ds.Members {
				if shapes(m.Value) {
					return true
				}
			}
		}
	}
	return false
}

// refuseShaping refuses a schema one of whose applicators the provider
// does not take (keywords lists what it takes) shapes objects or arrays.
func (pr *projection) refuseShaping(s *jsonval.Value, ptr string, keywords map[string]bool) error {
	for _, kw := range shapingApplicators {
		v := s.Get(kw)
		if v == nil || keywords[kw] {
			continue
		}
		if kw == "dependentSchemas" && v.Kind == jsonval.Object {
			for _, m := range v.Members {
				if shapes(m.Value) {
					return pr.refuse(ptr+"/"+kw, "%s shapes the value's members or items and %s does not take it", kw, pr.provider)
				}
			}
			continue
		}
		if shapes(v) {
			return pr.refuse(ptr+"/"+kw, "%s shapes the value's members or items and %s does not take it", kw, pr.provider)
		}
	}
	return nil
}

// itemsOf returns the items of an array value, or nil.
func itemsOf(v *jsonval.Value) []*jsonval.Value {
	if v == nil || v.Kind != jsonval.Array {
		return nil
	}
	return v.Items
}

// pointerRef reports whether a $ref is a JSON pointer into the document
// (not an $id, an anchor or another document).
func pointerRef(r *jsonval.Value) bool {
	return r.Kind == jsonval.String && (r.Str == "#" || strings.HasPrefix(r.Str, "#/"))
}
