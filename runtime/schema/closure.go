package schema

import (
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Closure of composed objects.
//
// Closed by default means: an object takes the members its schema declares
// and no other. For a plain object schema that is "additionalProperties":
// false. It cannot be for a composition: additionalProperties only sees the
// properties beside it, so closing each branch of
//
//	{"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}
//
// would reject every instance ({"a":1,"b":2} has b, unknown to the first
// branch, and a, unknown to the second). The closure of a composed value is
// therefore written once, at the composition site, as
// "unevaluatedProperties": false: the object takes the members that the
// branches it matches evaluate (their properties, patternProperties and
// additionalProperties), and no other. The branches themselves stay open;
// what is below them (a member's object, an item's object) is closed as
// usual. So the effective schema of the example is
//
//	{"allOf": [...], "unevaluatedProperties": false}
//
// and for {"anyOf": [{"properties": {"a": {}}, "required": ["a"]},
// {"properties": {"b": {}}, "required": ["b"]}]} an instance {"a":1,"b":2}
// is accepted (both branches match, a and b are evaluated) while
// {"a":1,"c":3} is rejected (c is evaluated by no matching branch).
//
// A schema is a composition site when it is the schema of a value (the
// root, a member, an item, a map value, a definition) rather than a branch
// of another schema, and it has an applicator that applies to the same
// value: allOf, anyOf, oneOf, if/then/else, dependentSchemas, or a $ref
// beside other keywords. It is closed when it or one of its branches
// describes objects. A definition that a branch refers to ({"allOf":
// [{"$ref": "#/$defs/base"}, {...}]}) is a branch too, so it is not closed
// where it is defined; a member that refers to it alone is closed at the
// reference: {"$ref": "#/$defs/base", "unevaluatedProperties": false}.
//
// An object schema below the root that declares no members at all is a
// free-form map, and gets "additionalProperties": true (freeform.go): as
// the schema of a value, and as a branch of anyOf or oneOf (Pydantic's
// Optional[dict]), one shape the value may take. A branch of allOf that
// declares no members only says the value is an object; it stays as it is.

type closer struct {
	root *jsonval.Value
	// branchDefs are the pointers of the definitions a branch refers to.
	branchDefs map[string]bool
	// rootValue: the root is a value like any other (a result), so that a
	// root that declares no members is a free-form map; the root of the
	// parameters that declares none takes no arguments.
	rootValue bool
	// objectDefs keeps objectish of each definition a reference resolves
	// to, by its pointer; asking marks the definitions being asked.
	objectDefs, asking map[string]bool
}

func closeAll(root *jsonval.Value, rootValue bool) {
	c := &closer{root: root, branchDefs: map[string]bool{}, rootValue: rootValue, objectDefs: map[string]bool{}, asking: map[string]bool{}}
	c.findBranchDefs(root, false)
	c.close(root, "", true)
}

// refBeside reports whether s has a $ref and, beside it, keywords that
// assert something (in 2020-12 both apply).
func refBeside(s *jsonval.Value) bool {
	if !s.Has("$ref") {
		return false
	}
	for _, m := range s.Members {
		k, _ := Lookup(m.Key)
		switch {
		case m.Key == "$ref", k.Class == Definitions, k.CarriesNoRule(), strings.HasPrefix(m.Key, "x-"):
		default:
			return true
		}
	}
	return false
}

// sameValue calls f on each subschema of s that applies to s's own value.
// The schemas of draft-07's dependencies apply to it too, but the closure
// has never treated them as branches: they are left out, so a draft-07
// schema closes as it did.
func sameValue(s *jsonval.Value, ptr string, f func(c *jsonval.Value, ptr string)) {
	Each(s, ptr, func(k Keyword, c *jsonval.Value, at string) {
		if k.Applies == SameValue && k.Name != "dependencies" {
			f(c, at)
		}
	})
}

// findBranchDefs marks the definitions referred to from a branch (or from
// beside other keywords), following chains of references.
func (c *closer) findBranchDefs(s *jsonval.Value, branch bool) {
	if s.Kind != jsonval.Object {
		return
	}
	if r := s.Get("$ref"); r != nil && r.Kind == jsonval.String && (branch || refBeside(s)) {
		c.markDef(r.Str)
	}
	sameValue(s, "", func(b *jsonval.Value, _ string) { c.findBranchDefs(b, true) })
	walkValues(s, "", func(v *jsonval.Value, _ string) { c.findBranchDefs(v, false) })
}

func (c *closer) markDef(ref string) {
	t, ptr, ok := jsonval.ResolveRef(c.root, ref)
	if !ok || c.branchDefs[ptr] {
		return
	}
	c.branchDefs[ptr] = true
	if r := t.Get("$ref"); r != nil && r.Kind == jsonval.String {
		c.markDef(r.Str)
	}
}

// objectish reports whether s, or a branch of it, or what it refers to,
// describes objects.
func (c *closer) objectish(s *jsonval.Value) bool {
	found, _ := c.objectishCut(s)
	return found
}

// objectishCut is objectish, and whether a definition being asked was
// reached again (a cycle, which counts as no object). Each definition is
// asked once and its answer kept, however many references lead to it,
// unless the answer is no object and a cycle cut it short: it might then
// differ asked from elsewhere.
func (c *closer) objectishCut(s *jsonval.Value) (found, cut bool) {
	if s.Kind != jsonval.Object {
		return false, false
	}
	if isObjectSchema(s) {
		return true, false
	}
	if r := s.Get("$ref"); r != nil && r.Kind == jsonval.String {
		if t, ptr, ok := jsonval.ResolveRef(c.root, r.Str); ok {
			known, isKnown := c.objectDefs[ptr]
			switch {
			case isKnown:
				found = known
			case c.asking[ptr]:
				cut = true
			default:
				c.asking[ptr] = true
				found, cut = c.objectishCut(t)
				delete(c.asking, ptr)
				if found || !cut {
					c.objectDefs[ptr] = found
				}
			}
			if found {
				return true, false
			}
		}
	}
	sameValue(s, "", func(b *jsonval.Value, _ string) {
		if found {
			return
		}
		f, bcut := c.objectishCut(b)
		found, cut = f, cut || bcut
	})
	return found, cut && !found
}

// close closes s when it is the schema of a value (site) and walks on.
func (c *closer) close(s *jsonval.Value, ptr string, site bool) {
	if s.Kind != jsonval.Object {
		return
	}
	if site && !s.Has("additionalProperties") && !s.Has("unevaluatedProperties") {
		composed := refBeside(s) || composes(s)
		switch r := s.Get("$ref"); {
		case composed && c.objectish(s):
			s.Set("unevaluatedProperties", boolean(false))
		case r != nil:
			// A reference alone: the definition is closed where it is
			// defined, unless a branch refers to it too.
			if t, tptr, ok := jsonval.ResolveRef(c.root, r.Str); ok && c.branchDefs[tptr] && c.objectish(t) {
				s.Set("unevaluatedProperties", boolean(false))
			}
		case (ptr != "" || c.rootValue) && DeclaresNoMembers(s):
			s.Set("additionalProperties", boolean(true)) // a free-form map (freeform.go)
		case isObjectSchema(s):
			s.Set("additionalProperties", boolean(false))
		}
	}
	if !site && alternative(ptr) && DeclaresNoMembers(s) {
		s.Set("additionalProperties", boolean(true)) // any object, as a value of its own would be
	}
	sameValue(s, ptr, func(b *jsonval.Value, at string) { c.close(b, at, false) })
	walkValues(s, ptr, func(v *jsonval.Value, at string) { c.close(v, at, !c.branchDefs[at]) })
}

// alternative reports whether the schema at ptr is a branch of anyOf or
// oneOf: one of the shapes the value may take, unlike a branch of allOf,
// which adds to the others.
func alternative(ptr string) bool {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return false
	}
	return strings.HasSuffix(ptr[:i], "/anyOf") || strings.HasSuffix(ptr[:i], "/oneOf")
}

// walkValues calls f on every subschema of s that applies to a value other
// than s's own (a member, an item, a definition), but not to a member name
// (propertyNames): those are no values a closure could be written for.
func walkValues(s *jsonval.Value, ptr string, f func(child *jsonval.Value, ptr string)) {
	Each(s, ptr, func(k Keyword, c *jsonval.Value, at string) {
		if k.Applies == Members || k.Applies == Nowhere {
			f(c, at)
		}
	})
}

// composes reports whether s has an applicator that adds to or chooses the
// shape of its own value, which makes it a composition site.
func composes(s *jsonval.Value) bool {
	for _, m := range s.Members {
		if Is(m.Key, func(k Keyword) bool { return k.Composes }) {
			return true
		}
	}
	return false
}
