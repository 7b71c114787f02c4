package provider

import (
	"slices"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Effective returns the schema toolgate enforces for a canonical
// parameters schema. Unless open is set, every object schema that does not
// say additionalProperties gets "additionalProperties": false, at every
// depth, objects inside arrays and definitions included: what the gate
// enforces is written out for the model to see. The canonical schema is not
// changed.
func Effective(canonical *jsonval.Value, open bool) *jsonval.Value {
	eff := canonical.Clone()
	if open {
		return eff
	}
	var close func(s *jsonval.Value, ptr string) error
	close = func(s *jsonval.Value, ptr string) error {
		if s.Kind != jsonval.Object {
			return nil
		}
		if isObjectSchema(s) && !s.Has("additionalProperties") && !s.Has("$ref") {
			s.Set("additionalProperties", boolean(false))
		}
		return walkChildren(s, ptr, close)
	}
	_ = close(eff, "") // close never fails
	return eff
}

// isObjectSchema reports whether s describes objects: its type is or
// includes "object", or it declares properties or required members.
func isObjectSchema(s *jsonval.Value) bool {
	return s.Has("properties") || s.Has("required") || slices.Contains(TypeNames(s), "object")
}
