package schema

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Effective returns the schema toolgate enforces for a canonical
// parameters schema: what is embedded in generated code, projected for each
// provider and shown to the model. It is Closed(canonical, open) without
// extension members: every member whose name starts with "x-" (x-toolgate,
// toolgate's own metadata, and any other vendor extension) is removed from
// every schema object at every depth, subschemas of every applicator
// included. Property and definition names that start with "x-" are names,
// not extensions, and stay. The canonical schema is not changed.
func Effective(canonical *jsonval.Value, open bool) *jsonval.Value {
	eff := Closed(canonical, open)
	stripExtensions(eff)
	return eff
}

// WithoutExtensions returns a copy of s without its extension members, as
// Effective leaves them out: Effective(c, open) is
// WithoutExtensions(Closed(c, open)), for a caller that needs both without
// closing the schema twice. s is not changed.
func WithoutExtensions(s *jsonval.Value) *jsonval.Value {
	out := s.Clone()
	stripExtensions(out)
	return out
}

// Closed returns a copy of a canonical parameters schema in which, unless
// open is set, the objects a value may be are closed, at every depth,
// objects inside arrays and definitions included: what the gate enforces is
// written out for the model to see. An object schema that does not say
// additionalProperties gets "additionalProperties": false; a composed one
// gets "unevaluatedProperties": false instead (see closure.go). Unlike
// Effective it keeps extension members (x-toolgate), for the generator,
// which reads per-member metadata from them; the JSON pointers of
// everything else are the same in both.
func Closed(canonical *jsonval.Value, open bool) *jsonval.Value {
	eff := canonical.Clone()
	if open {
		return eff
	}
	closeAll(eff, false)
	return eff
}

// ClosedResult is Closed for a tool's result (its outputSchema), whose
// root is a value like any other: a root that declares no members
// ({"type": "object"}) is a free-form map, as it is below the root of the
// parameters (freeform.go), rather than the "no arguments" of a
// parameters root.
func ClosedResult(canonical *jsonval.Value, open bool) *jsonval.Value {
	eff := canonical.Clone()
	if open {
		return eff
	}
	closeAll(eff, true)
	return eff
}

// EffectiveResult is Effective for a tool's result: ClosedResult without
// extension members.
func EffectiveResult(canonical *jsonval.Value, open bool) *jsonval.Value {
	eff := ClosedResult(canonical, open)
	stripExtensions(eff)
	return eff
}

// isObjectSchema reports whether s describes objects: its type is or
// includes "object", or it declares properties or required members.
func isObjectSchema(s *jsonval.Value) bool {
	return s.Has("properties") || s.Has("required") || slices.Contains(TypeNames(s), "object")
}

// TypeNames returns the type names of a schema's type keyword: none, one,
// or the list.
func TypeNames(s *jsonval.Value) []string {
	t := s.Get("type")
	switch {
	case t == nil:
		return nil
	case t.Kind == jsonval.String:
		return []string{t.Str}
	}
	var out []string
	for _, it := range t.Items {
		out = append(out, it.Str)
	}
	return out
}

// stripExtensions removes the "x-" members of s and of every subschema.
func stripExtensions(s *jsonval.Value) {
	if s.Kind != jsonval.Object {
		return
	}
	s.Members = slices.DeleteFunc(s.Members, func(m jsonval.Member) bool { return strings.HasPrefix(m.Key, "x-") })
	Subschemas(s, func(_ Keyword, sub *jsonval.Value) { stripExtensions(sub) })
}

func boolean(b bool) *jsonval.Value { return &jsonval.Value{Kind: jsonval.Bool, Bool: b} }
