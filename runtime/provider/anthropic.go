package provider

import (
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// ---- Anthropic ----

// anthropicLocal reports whether Anthropic's strict mode does not take the
// assertion name (the schema.Keyword rows without schema.AnthropicStrict).
// The assertions anthropicNotStrict reports never reach it.
func anthropicLocal(name string) bool {
	return schema.Is(name, func(k schema.Keyword) bool { return k.Class == schema.Assertion }) && !schema.Takes(schema.AnthropicStrict, name)
}

func (pr *projection) anthropic(in *jsonval.Value) (*jsonval.Value, error) {
	if !pr.closedAndFinite(in) {
		return in, nil
	}
	pr.strict = true
	out := in.CloneCompact()
	var strip func(s *jsonval.Value, ptr string) error
	strip = func(s *jsonval.Value, ptr string) error {
		for _, m := range slices.Clone(s.Members) {
			drop := anthropicLocal(m.Key)
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
// $ref recurses: what strict modes require. Each definition is visited
// once, however many references lead to it (refVisits), so that the walk
// is linear in the schema.
func (pr *projection) closedAndFinite(in *jsonval.Value) bool {
	ok := true
	refs := refVisits{}
	var visit func(s *jsonval.Value, ptr string) error
	visit = func(s *jsonval.Value, ptr string) error {
		if !ok || s.Kind != jsonval.Object {
			return nil
		}
		if slices.Contains(schema.TypeNames(s), "object") || s.Has("properties") {
			if a := s.Get("additionalProperties"); a == nil || !(a.Kind == jsonval.Bool && !a.Bool) {
				ok = false
			}
		}
		if len(schema.TypeNames(s)) == 0 && !s.Has("$ref") && !s.Has("enum") && !s.Has("const") && !s.Has("anyOf") && !s.Has("allOf") {
			ok = false // an untyped value
		}
		if slices.ContainsFunc(s.Members, func(m jsonval.Member) bool { return anthropicNotStrict(m.Key) }) {
			ok = false // beyond the strict subset
		}
		for _, kw := range []string{"anyOf", "allOf"} {
			for i, alt := range itemsOf(s.Get(kw)) {
				_ = visit(alt, ptr+"/"+kw+"/"+strconv.Itoa(i))
			}
		}
		if r := s.Get("$ref"); r != nil {
			t, target, found := jsonval.ResolveRef(pr.root, r.Str)
			switch {
			case !found:
				ok = false // what it refers to is unknown
			case refs[target] == refVisiting:
				ok = false // it recurses
			case refs[target] == refUnvisited:
				refs[target] = refVisiting
				_ = visit(t, target)
				refs[target] = refVisited
			}
			return nil
		}
		return walkChildren(s, ptr, func(c *jsonval.Value, at string) error { return visit(c, at) })
	}
	_ = visit(in, "")
	return ok
}

// refVisits tells, per definition (the pointer a reference resolves to),
// whether a walk that follows references is inside it (a reference to it
// then recurses) or has walked it already (then it need not again).
type refVisits map[string]refVisit

type refVisit uint8

const (
	refUnvisited refVisit = iota
	refVisiting
	refVisited
)
