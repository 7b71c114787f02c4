package gen

import "strconv"

// effectiveSchema returns the schema toolgate enforces for the canonical
// parameters schema p. In closed mode (the default) every object schema that
// does not say additionalProperties gets "additionalProperties": false, at
// every depth: what the gate enforces is written out for the model to see.
// implied collects the JSON pointers of the objects closed that way.
func effectiveSchema(p *value, draft7, open bool) (eff *value, implied []string) {
	eff = p.clone()
	if open {
		return eff, nil
	}
	var walk func(s *value, ptr string)
	walk = func(s *value, ptr string) {
		if s == nil || s.kind != objectValue {
			return
		}
		if isObjectSchema(s) && !s.has("additionalProperties") && !s.has("$ref") {
			s.set("additionalProperties", &value{kind: boolValue})
			implied = append(implied, ptr)
		}
		for _, m := range s.members {
			at := ptr + "/" + escapePointer(m.key)
			switch m.key {
			case "properties", "$defs", "definitions":
				if m.val.kind == objectValue {
					for _, c := range m.val.members {
						walk(c.val, at+"/"+escapePointer(c.key))
					}
				}
			case "items", "additionalProperties", "additionalItems":
				if m.val.kind == arrayValue {
					walkItems(m.val, at, walk)
				} else {
					walk(m.val, at)
				}
			case "prefixItems":
				walkItems(m.val, at, walk)
			}
		}
	}
	walk(eff, "")
	return eff, implied
}

func walkItems(list *value, ptr string, walk func(*value, string)) {
	if list.kind != arrayValue {
		return
	}
	for i, it := range list.items {
		walk(it, ptr+"/"+strconv.Itoa(i))
	}
}

// isObjectSchema reports whether s describes objects: its type is or
// includes "object", or it declares properties or required members.
func isObjectSchema(s *value) bool {
	if s.has("properties") || s.has("required") {
		return true
	}
	t := s.get("type")
	switch {
	case t == nil:
		return false
	case t.kind == stringValue:
		return t.str == "object"
	case t.kind == arrayValue:
		for _, it := range t.items {
			if it.kind == stringValue && it.str == "object" {
				return true
			}
		}
	}
	return false
}
