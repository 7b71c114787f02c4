package gen

import (
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// effectiveSchema returns the schema toolgate enforces for the canonical
// parameters schema p. In closed mode (the default) every object schema that
// does not say additionalProperties gets "additionalProperties": false, at
// every depth: what the gate enforces is written out for the model to see.
// implied collects the JSON pointers of the objects closed that way.
func effectiveSchema(p *jsonval.Value, draft7, open bool) (eff *jsonval.Value, implied []string) {
	eff = p.Clone()
	if open {
		return eff, nil
	}
	var walk func(s *jsonval.Value, ptr string)
	walk = func(s *jsonval.Value, ptr string) {
		if s == nil || s.Kind != jsonval.Object {
			return
		}
		if isObjectSchema(s) && !s.Has("additionalProperties") && !s.Has("$ref") {
			s.Set("additionalProperties", &jsonval.Value{Kind: jsonval.Bool})
			implied = append(implied, ptr)
		}
		for _, m := range s.Members {
			at := ptr + "/" + escapePointer(m.Key)
			switch m.Key {
			case "properties", "$defs", "definitions":
				if m.Value.Kind == jsonval.Object {
					for _, c := range m.Value.Members {
						walk(c.Value, at+"/"+escapePointer(c.Key))
					}
				}
			case "items", "additionalProperties", "additionalItems":
				if m.Value.Kind == jsonval.Array {
					walkItems(m.Value, at, walk)
				} else {
					walk(m.Value, at)
				}
			case "prefixItems":
				walkItems(m.Value, at, walk)
			}
		}
	}
	walk(eff, "")
	return eff, implied
}

func walkItems(list *jsonval.Value, ptr string, walk func(*jsonval.Value, string)) {
	if list.Kind != jsonval.Array {
		return
	}
	for i, it := range list.Items {
		walk(it, ptr+"/"+strconv.Itoa(i))
	}
}

// isObjectSchema reports whether s describes objects: its type is or
// includes "object", or it declares properties or required members.
func isObjectSchema(s *jsonval.Value) bool {
	if s.Has("properties") || s.Has("required") {
		return true
	}
	t := s.Get("type")
	switch {
	case t == nil:
		return false
	case t.Kind == jsonval.String:
		return t.Str == "object"
	case t.Kind == jsonval.Array:
		for _, it := range t.Items {
			if it.Kind == jsonval.String && it.Str == "object" {
				return true
			}
		}
	}
	return false
}
