package gen

import (
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Pydantic's Optional[T] is {"anyOf": [T, {"type": "null"}]} (oneOf
// alike). Decoded as a composition the value would be kept raw; since the
// branches are disjoint (T does not take null), it is T made nullable: the
// Go type is opt.Nullable[T] (as for "type": [T, "null"]), and the decoder
// reads T's rules straight into it, one pass, no branch tried.

// nullableUnion returns the node of a schema that is only T or null, or
// nil. It applies when T takes no null and has no composition of its own to
// check; an object T that the site closes (unevaluatedProperties: false,
// Pydantic's Optional[Model] in the effective schema) is decoded closed.
func (b *builder) nullableUnion(ptr string, s *jsonval.Value, name string) *node {
	var kw string
	closed := false // the closure of the site (closure.go): T is decoded closed
	for _, m := range s.Members {
		switch {
		case m.Key == "anyOf" || m.Key == "oneOf":
			if kw != "" || m.Value.Kind != jsonval.Array || len(m.Value.Items) != 2 {
				return nil
			}
			kw = m.Key
		case annotation(m.Key), strings.HasPrefix(m.Key, "x-"), m.Key == "$defs", m.Key == "definitions", m.Key == "$id", m.Key == "$anchor":
		case m.Key == "unevaluatedProperties" && m.Value.Kind == jsonval.Bool && !m.Value.Bool:
			closed = true
		case ptr == "" && m.Key == "$schema":
		default:
			return nil
		}
	}
	if kw == "" {
		return nil
	}
	items := s.Get(kw).Items
	other := -1
	for i, it := range items {
		if onlyNull(it) {
			other = 1 - i
		}
	}
	if other < 0 || onlyNull(items[other]) {
		return nil
	}
	t := b.build(ptr+"/"+kw+"/"+string(rune('0'+other)), items[other], name)
	switch {
	case t.nullable, t.comp.checks(), t.kind == kindAny, t.kind == kindNull, t.kind == kindNever, t.kind == kindUnion:
		return nil
	case t.kind == kindObject && t.addl == addlOpen && !(closed && plainStruct(t)):
		return nil
	case t.kind != kindObject && closed:
		return nil
	}
	nn := *t
	if closed && t.addl == addlOpen {
		nn.addl, nn.addlPtr = addlClosed, ptr+"/unevaluatedProperties"
	}
	nn.nullable = true
	nn.nullOf = t
	nn.sens = t.sens || sensitiveUse(s)
	nn.def = nil
	if t.enum != nil {
		nn.enum = append(append([]*jsonval.Value(nil), t.enum...), &jsonval.Value{Kind: jsonval.Null})
		nn.enumAll = append(append([]*jsonval.Value(nil), t.enumAll...), &jsonval.Value{Kind: jsonval.Null})
	}
	if d := s.Get("description"); d != nil && d.Kind == jsonval.String {
		nn.desc = d.Str
	}
	b.nodes[ptr] = &nn
	return &nn
}

// onlyNull reports whether a schema is {"type": "null"} (annotations aside).
func onlyNull(s *jsonval.Value) bool {
	if s.Kind != jsonval.Object {
		return false
	}
	t := s.Get("type")
	if t == nil || t.Kind != jsonval.String || t.Str != "null" {
		return false
	}
	for _, m := range s.Members {
		if m.Key != "type" && !annotation(m.Key) && !strings.HasPrefix(m.Key, "x-") {
			return false
		}
	}
	return true
}
