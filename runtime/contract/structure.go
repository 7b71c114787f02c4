package contract

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
)

// checkStructure compares the shape of each provider's schema with the
// effective schema.
func checkStructure(t *testing.T, tool Tool) {
	eff := mustParse(t, tool.Schema)
	for _, def := range tool.Definitions {
		ps, err := providerSchema(def)
		if err != nil {
			t.Fatal(err)
		}
		s := &shape{tool: tool.Name, def: def, root: eff, proot: ps}
		s.compare(eff, ps, "", nil)
		for _, e := range s.errs {
			t.Error(e)
		}
	}
}

type shape struct {
	tool        string
	def         provider.Definition
	root, proot *jsonval.Value
	errs        []string
}

func (s *shape) fail(ptr, format string, args ...any) {
	s.errs = append(s.errs, fmt.Sprintf("tool %s, provider %s, at %s: %s", s.tool, s.def.Provider, orRoot(ptr), fmt.Sprintf(format, args...)))
}

func (s *shape) local(ptr, kw string) bool {
	for _, l := range s.def.Local {
		if l.Pointer == ptr && l.Keyword == kw {
			return true
		}
	}
	return false
}

// deref follows a local $ref (seen guards recursion).
func deref(root, v *jsonval.Value, seen []string) (*jsonval.Value, []string, bool) {
	for v != nil && v.Get("$ref") != nil {
		t, target, ok := jsonval.ResolveRef(root, v.Get("$ref").Str)
		if !ok || slices.Contains(seen, target) {
			return nil, seen, false
		}
		seen = append(seen, target)
		v = t
	}
	return v, seen, v != nil
}

// unwrapNull returns the non-null branch of {"anyOf": [X, {"type": "null"}]}
// (how OpenAI strict is sent an optional member), and v itself for any
// other schema, another anyOf of two branches included.
func unwrapNull(v *jsonval.Value) *jsonval.Value {
	a := v.Get("anyOf")
	if a == nil || len(a.Items) != 2 {
		return v
	}
	if n := a.Items[1]; len(n.Members) == 1 && slices.Equal(schema.TypeNames(n), []string{"null"}) {
		return a.Items[0]
	}
	return v
}

func (s *shape) compare(e, p *jsonval.Value, ptr string, seen []string) {
	var ok bool
	// The effective pointer of a referenced schema is where it is defined.
	if r := e.Get("$ref"); r != nil {
		if _, target, ok := jsonval.ResolveRef(s.root, r.Str); ok {
			ptr = target
		}
	}
	e, seen, ok = deref(s.root, e, seen)
	if !ok {
		return
	}
	p, _, ok = deref(s.proot, unwrapNull(p), nil)
	if !ok {
		s.fail(ptr, "the provider's schema does not resolve")
		return
	}
	et, pt := schema.TypeNames(e), schema.TypeNames(p)
	if s.def.Provider == provider.GeminiLegacy {
		pt = legacyTypes(p)
	}
	if len(et) > 0 && !sameTypes(et, pt) {
		s.fail(ptr, "type %v became %v", et, pt)
	}
	if ev := e.Get("enum"); ev != nil && !s.local(ptr, "enum") {
		pv := p.Get("enum")
		if pv == nil || !sameEnum(ev, pv) {
			s.fail(ptr, "enum values %s became %s", ev.Marshal(), marshalOrNone(pv))
		}
	}
	if eprops := e.Get("properties"); eprops != nil {
		pprops := p.Get("properties")
		if pprops == nil {
			s.fail(ptr, "the properties are gone")
			return
		}
		var en, pn []string
		for _, m := range eprops.Members {
			en = append(en, m.Key)
		}
		for _, m := range pprops.Members {
			pn = append(pn, m.Key)
		}
		if !slices.Equal(en, pn) {
			s.fail(ptr, "property names %v became %v", en, pn)
			return
		}
		s.compareRequired(e, p, ptr)
		for _, m := range eprops.Members {
			s.compare(m.Value, pprops.Get(m.Key), ptr+"/properties/"+jsonval.EscapeToken(m.Key), seen)
		}
	}
	if a := e.Get("additionalProperties"); a != nil && a.Kind == jsonval.Bool && !a.Bool {
		pa := p.Get("additionalProperties")
		if (pa == nil || pa.Kind != jsonval.Bool || pa.Bool) && !s.local(ptr, "additionalProperties") {
			s.fail(ptr, "the object is closed in the effective schema but not in the provider's, and not listed as enforced locally")
		}
	}
	if it := e.Get("items"); it != nil && it.Kind == jsonval.Object {
		if pit := p.Get("items"); pit != nil {
			s.compare(it, pit, ptr+"/items", seen)
		} else {
			s.fail(ptr, "the items schema is gone")
		}
	}
}

func (s *shape) compareRequired(e, p *jsonval.Value, ptr string) {
	er, pr := stringSet(e.Get("required")), stringSet(p.Get("required"))
	for _, r := range er {
		if !slices.Contains(pr, r) {
			s.fail(ptr, "required member %s is not required in the provider's schema", r)
		}
	}
	for _, r := range pr {
		if slices.Contains(er, r) {
			continue
		}
		// Only OpenAI strict lists optional members as required, and then
		// they must accept null: null means "absent" for the members it
		// made nullable (NullAsAbsent), and null itself for a member the
		// effective schema already lets be null (anyOf [T, null], Zod's
		// .nullable().optional()), which the projection leaves as it is.
		if !s.def.NullAsAbsent && !acceptsNull(s.root, unwrapProp(e, r)) {
			s.fail(ptr, "optional member %s became required", r)
			continue
		}
		pm := p.Get("properties").Get(r)
		if !acceptsNull(s.proot, pm) {
			s.fail(ptr, "optional member %s became required without accepting null", r)
		}
	}
}

func unwrapProp(e *jsonval.Value, name string) *jsonval.Value { return e.Get("properties").Get(name) }

func isNullableSchema(v *jsonval.Value) bool {
	if slices.Contains(schema.TypeNames(v), "null") {
		return true
	}
	if e := v.Get("enum"); e != nil && v.Get("type") == nil {
		return slices.ContainsFunc(e.Items, func(it *jsonval.Value) bool { return it.Kind == jsonval.Null })
	}
	return false
}

// acceptsNull reports whether a schema v (in the schema root, a
// provider's or the effective one) accepts null: by its type or enum,
// through a reference, or in a branch of anyOf.
func acceptsNull(root, v *jsonval.Value) bool {
	v, _, ok := deref(root, v, nil)
	if !ok {
		return false
	}
	if isNullableSchema(v) {
		return true
	}
	if a := v.Get("anyOf"); a != nil {
		for _, alt := range a.Items {
			if alt, _, ok := deref(root, alt, nil); ok && isNullableSchema(alt) {
				return true
			}
		}
	}
	return false
}

func legacyTypes(v *jsonval.Value) []string {
	var out []string
	if t := v.Get("type"); t != nil {
		out = append(out, strings.ToLower(t.Str))
	}
	if n := v.Get("nullable"); n != nil && n.Bool {
		out = append(out, "null")
	}
	return out
}

// sameTypes: the provider may add null (OpenAI strict optional members);
// nothing else may change.
func sameTypes(e, p []string) bool {
	p = slices.DeleteFunc(slices.Clone(p), func(t string) bool { return t == "null" && !slices.Contains(e, "null") })
	if len(e) == 0 {
		return true
	}
	return slices.Equal(e, p)
}

// sameEnum: the same values in the same order; OpenAI strict may append
// null.
func sameEnum(e, p *jsonval.Value) bool {
	items := p.Items
	if n := len(items); n == len(e.Items)+1 && items[n-1].Kind == jsonval.Null {
		items = items[:n-1]
	}
	return bytes.Equal((&jsonval.Value{Kind: jsonval.Array, Items: items}).Marshal(), e.Marshal())
}

func stringSet(v *jsonval.Value) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, it := range v.Items {
		out = append(out, it.Str)
	}
	return out
}

func marshalOrNone(v *jsonval.Value) string {
	if v == nil {
		return "nothing"
	}
	return string(v.Marshal())
}
