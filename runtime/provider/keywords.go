package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// projection is the state of one projection.
type projection struct {
	provider     Provider
	root         *jsonval.Value
	refuse       func(ptr, format string, args ...any) error
	local        []Local
	nullAsAbsent bool
	strict       bool
}

func (pr *projection) keep(ptr, kw string, v *jsonval.Value) {
	pr.local = append(pr.local, Local{Pointer: ptr, Keyword: kw, Value: string(v.Marshal())})
}

// walkChildren calls f on every object subschema of s that the
// projections rewrite in place: the values of properties, $defs,
// definitions, items, prefixItems, additionalProperties and
// additionalItems. It is not schema.Walk: the projections handle the
// composition keywords, patternProperties and contains themselves (they
// carry, drop or refuse them, keywords.go and subsets.go), and a boolean
// schema under items or additionalProperties is left as it is. The
// keywords need no escaping in a pointer, and the pointer is built only
// for them.
func walkChildren(s *jsonval.Value, ptr string, f func(child *jsonval.Value, ptr string) error) error {
	each := func(items []*jsonval.Value, at string) error {
		for i, c := range items {
			if err := f(c, at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, m := range s.Members {
		var err error
		switch m.Key {
		case "properties", "$defs", "definitions":
			at := ptr + "/" + m.Key
			for _, c := range m.Value.Members {
				if err = f(c.Value, at+"/"+jsonval.EscapeToken(c.Key)); err != nil {
					break
				}
			}
		case "items", "additionalProperties", "additionalItems":
			if m.Value.Kind == jsonval.Array {
				err = each(m.Value.Items, ptr+"/"+m.Key)
			} else if m.Value.Kind == jsonval.Object {
				err = f(m.Value, ptr+"/"+m.Key)
			}
		case "prefixItems":
			err = each(m.Value.Items, ptr+"/"+m.Key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// inferType gives a schema without a type keyword the type its enum or
// const implies, when all their values are of one JSON type (with null
// allowed beside it): {"const": "fast"} is {"type": "string", "const":
// "fast"}. That changes nothing that is accepted.
func inferType(s *jsonval.Value) {
	if s.Kind != jsonval.Object || s.Has("type") {
		return
	}
	var vals []*jsonval.Value
	if c := s.Get("const"); c != nil {
		vals = []*jsonval.Value{c}
	} else if e := s.Get("enum"); e != nil {
		vals = e.Items
	}
	var names []string
	for _, v := range vals {
		name := v.Kind.String()
		if v.Kind == jsonval.Number {
			name = "number"
			if _, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
				name = "integer"
			}
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if slices.Contains(names, "integer") && slices.Contains(names, "number") {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "integer" })
	}
	nonNull := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "null" })
	switch {
	case len(nonNull) != 1:
		return
	case len(names) == 1:
		s.Members = append([]jsonval.Member{{Key: "type", Value: str(names[0])}}, s.Members...)
	default:
		t := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{str(nonNull[0]), str("null")}}
		s.Members = append([]jsonval.Member{{Key: "type", Value: t}}, s.Members...)
	}
}

// isNullable reports whether s accepts null by its type or enum, following
// local references (a member that is a $ref to a nullable definition is
// nullable).
func (pr *projection) isNullable(s *jsonval.Value) bool {
	s, ok := pr.deref(s)
	return ok && isNullable(s)
}

// deref follows local references from s to a schema without $ref; ok is
// false for an unresolvable or circular chain.
func (pr *projection) deref(s *jsonval.Value) (*jsonval.Value, bool) {
	var seen []string
	for s != nil && s.Kind == jsonval.Object && s.Has("$ref") {
		t, ptr, ok := jsonval.ResolveRef(pr.root, s.Get("$ref").Str)
		if !ok || slices.Contains(seen, ptr) {
			return nil, false
		}
		seen = append(seen, ptr)
		s = t
	}
	return s, s != nil
}

func isNullable(s *jsonval.Value) bool {
	if slices.Contains(schema.TypeNames(s), "null") {
		return true
	}
	// anyOf [T, {"type": "null"}] (Pydantic's Optional) accepts null
	// already.
	if a := s.Get("anyOf"); a != nil && slices.ContainsFunc(a.Items, func(b *jsonval.Value) bool {
		return slices.Equal(schema.TypeNames(b), []string{"null"})
	}) {
		return true
	}
	if e := s.Get("enum"); e != nil && s.Get("type") == nil {
		for _, v := range e.Items {
			if v.Kind == jsonval.Null {
				return true
			}
		}
	}
	return false
}

// carry keeps the keywords a provider takes (and the formats it knows),
// drops annotations and extensions, which carry no rule, and moves every
// other keyword to the enforced-locally list. A format the gate does not
// know is an annotation too: a provider that knows it keeps it, any other
// drops it, and it is listed in Definition.Unenforced (unenforced.go),
// never as enforced locally.
func (pr *projection) carry(s *jsonval.Value, ptr string, keywords map[string]bool, formats []string) {
	for _, m := range slices.Clone(s.Members) {
		switch {
		case m.Key == "format" && slices.Contains(formats, m.Value.Str):
		case m.Key == "format" && !known(m.Value):
			s.Delete(m.Key)
		case m.Key == "format":
			pr.keep(ptr, m.Key, m.Value)
			s.Delete(m.Key)
		case keywords[m.Key]:
		case schema.Is(m.Key, schema.Keyword.CarriesNoRule) || strings.HasPrefix(m.Key, "x-"):
			s.Delete(m.Key)
		default:
			pr.keep(ptr, m.Key, m.Value)
			s.Delete(m.Key)
		}
	}
}
