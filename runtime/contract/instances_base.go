package contract

import (
	"errors"
	"fmt"
	"slices"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// ---- the valid base ----

// flat returns s as one object schema: a boolean schema becomes {} or {"not": {}}; a local $ref is
// replaced by its target (merged with its siblings in draft 2020-12); the branches of allOf are merged in.
// Keywords two merged schemas both set differently stay in a residual allOf, which check still enforces.
// refs lists the references followed, for the recursion guard.
func (d *deriver) flat(s *jsonval.Value, refs []string, depth int) (*jsonval.Value, []string, error) {
	if depth > maxDepth {
		return nil, refs, errors.New("$ref chain too long (or a $ref cycle)")
	}
	if s.Kind == jsonval.Bool {
		if s.Bool {
			return emptyObject(), refs, nil
		}
		return &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: "not", Value: emptyObject()}}}, refs, nil
	}
	out := emptyObject()
	var allOf []*jsonval.Value
	ref := ""
	for _, m := range s.Members {
		switch m.Key {
		case "$ref":
			ref = m.Value.Str
		case "allOf":
			allOf = m.Value.Items
		default:
			out.Members = append(out.Members, m)
		}
	}
	if ref != "" {
		target := d.resolve(ref)
		if target == nil {
			return nil, refs, fmt.Errorf("$ref %q does not resolve", ref)
		}
		t, r, err := d.flat(target, append(refs, ref), depth+1)
		if err != nil {
			return nil, r, err
		}
		refs = r
		if d.draft7 {
			return t, refs, nil
		}
		out = mergeSchemas(t, out)
	}
	for _, b := range allOf {
		fb, r, err := d.flat(b, refs, depth+1)
		if err != nil {
			return nil, r, err
		}
		refs = r
		out = mergeSchemas(out, fb)
	}
	return out, refs, nil
}

// keptFirst are the keywords of which a merge keeps a's value and drops
// b's: they assert nothing.
var keptFirst = []string{"title", "description", "default", "examples", "$comment", "$id", "$schema", "$anchor", "deprecated", "readOnly", "writeOnly"}

// mergeSchemas returns a schema that combines the keywords of a and b (both flat), without changing either.
func mergeSchemas(a, b *jsonval.Value) *jsonval.Value {
	out := &jsonval.Value{Kind: jsonval.Object, Members: slices.Clone(a.Members)}
	var residual []*jsonval.Value
	for _, m := range b.Members {
		have := out.Get(m.Key)
		if have == nil {
			out.Members = append(out.Members, m)
			continue
		}
		switch k, _ := schema.Lookup(m.Key); {
		case k.Form == schema.Map && m.Key != "dependencies": // a list of names under dependencies is no map of schemas
			merged := &jsonval.Value{Kind: jsonval.Object, Members: slices.Clone(have.Members)}
			for _, p := range m.Value.Members {
				if q := merged.Get(p.Key); q != nil {
					merged.Set(p.Key, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{
						{Key: "allOf", Value: &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{q, p.Value}}}}})
				} else {
					merged.Members = append(merged.Members, p)
				}
			}
			out.Set(m.Key, merged)
		case m.Key == "required":
			items := slices.Clone(have.Items)
			for _, r := range m.Value.Items {
				if !slices.ContainsFunc(items, func(x *jsonval.Value) bool { return jsonval.Equal(x, r) }) {
					items = append(items, r)
				}
			}
			out.Set(m.Key, &jsonval.Value{Kind: jsonval.Array, Items: items})
		case m.Key == "type":
			bt := typeList(m.Value)
			var both []*jsonval.Value
			for _, t := range typeList(have) {
				switch {
				case slices.Contains(bt, t):
				case t == "number" && slices.Contains(bt, "integer"):
					t = "integer"
				case t == "integer" && slices.Contains(bt, "number"):
				default:
					continue
				}
				both = append(both, jsonString(t))
			}
			if len(both) == 0 {
				residual = append(residual, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{m}})
				continue
			}
			out.Set("type", &jsonval.Value{Kind: jsonval.Array, Items: both})
		case m.Key == "enum":
			var both []*jsonval.Value
			for _, e := range have.Items {
				if slices.ContainsFunc(m.Value.Items, func(x *jsonval.Value) bool { return jsonval.Equal(x, e) }) {
					both = append(both, e)
				}
			}
			out.Set("enum", &jsonval.Value{Kind: jsonval.Array, Items: both})
		case k.Bound == schema.Lower:
			if x, y := numRat(have), numRat(m.Value); x != nil && y != nil && y.Cmp(x) > 0 {
				out.Set(m.Key, m.Value)
			}
		case k.Bound == schema.Upper:
			if x, y := numRat(have), numRat(m.Value); x != nil && y != nil && y.Cmp(x) < 0 {
				out.Set(m.Key, m.Value)
			}
		case slices.Contains(keptFirst, m.Key):
		default:
			if !jsonval.Equal(have, m.Value) {
				residual = append(residual, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{m}})
			}
		}
	}
	if len(residual) > 0 {
		if r := out.Get("allOf"); r != nil {
			residual = append(slices.Clone(r.Items), residual...)
		}
		out.Set("allOf", &jsonval.Value{Kind: jsonval.Array, Items: residual})
	}
	return out
}

// withoutKeywords returns a copy of the flat schema f without the keywords keys.
func withoutKeywords(f *jsonval.Value, keys ...string) *jsonval.Value {
	out := emptyObject()
	for _, m := range f.Members {
		if !slices.Contains(keys, m.Key) {
			out.Members = append(out.Members, m)
		}
	}
	return out
}

// synth returns a value valid against s. ptr is the instance location, for messages; stack lists the
// references being built, so that a recursive reference is reported as errRecursive.
func (d *deriver) synth(s *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("schema nested too deeply at %s", ptrText(ptr))
	}
	f, refs, err := d.flat(s, nil, depth)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", ptrText(ptr), err)
	}
	for _, r := range refs {
		if slices.Contains(stack, r) {
			return nil, errRecursive
		}
	}
	stack = append(slices.Clip(stack), refs...)
	try := func(f *jsonval.Value) (*jsonval.Value, error) {
		v, err := d.synthFlat(f, ptr, stack, depth)
		if err == nil && !d.check(s, v, depth) {
			err = fmt.Errorf("no value satisfies the schema at %s", ptrText(ptr))
		}
		return v, err
	}
	v, first := try(f)
	if first == nil || errors.Is(first, errRecursive) {
		return v, first
	}
	var branches []*jsonval.Value
	for _, key := range []string{"anyOf", "oneOf"} {
		if b := f.Get(key); b != nil {
			for _, br := range b.Items {
				fb, _, err := d.flat(br, nil, depth+1)
				if err == nil {
					branches = append(branches, mergeSchemas(withoutKeywords(f, "anyOf", "oneOf"), fb))
				}
			}
		}
	}
	if f.Has("if") {
		for _, key := range []string{"then", "else"} {
			if b := f.Get(key); b != nil {
				if fb, _, err := d.flat(b, nil, depth+1); err == nil {
					branches = append(branches, mergeSchemas(withoutKeywords(f, "if", "then", "else"), fb))
				}
			}
		}
	}
	for _, b := range branches {
		if v, err := try(b); err == nil {
			return v, nil
		}
	}
	for _, c := range []string{`null`, `"a"`, `0`, `1`, `true`, `false`, `{}`, `[]`, `""`} {
		v, _ := jsonval.Parse([]byte(c))
		if d.check(s, v, depth) {
			return v, nil
		}
	}
	return nil, first
}

// synthFlat builds a value from the keywords of the flat schema f (it does not check composition).
func (d *deriver) synthFlat(f *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	if c := f.Get("const"); c != nil {
		return c.Clone(), nil
	}
	if e := f.Get("enum"); e != nil {
		for _, it := range e.Items {
			if d.check(f, it, depth) {
				return it.Clone(), nil
			}
		}
		return nil, fmt.Errorf("no enum value satisfies the schema at %s", ptrText(ptr))
	}
	ts := typeList(f.Get("type"))
	if ts == nil {
		ts = []string{inferType(f)}
	}
	var first error
	for _, t := range ts {
		var v *jsonval.Value
		var err error
		switch t {
		case "null":
			if len(ts) > 1 {
				continue // prefer the non-null type
			}
			v = &jsonval.Value{Kind: jsonval.Null}
		case "boolean":
			v = &jsonval.Value{Kind: jsonval.Bool, Bool: true}
		case "string":
			v, err = d.synthString(f, ptr)
		case "integer", "number":
			v, err = synthNumber(f, t == "integer", ptr)
		case "array":
			v, err = d.synthArray(f, ptr, stack, depth)
		case "object":
			v, err = d.synthObject(f, ptr, stack, depth)
		}
		if err == nil && d.check(f, v, depth) {
			return v, nil
		}
		if first == nil {
			first = err
		}
	}
	if slices.Contains(ts, "null") {
		return &jsonval.Value{Kind: jsonval.Null}, nil
	}
	if first == nil {
		first = fmt.Errorf("no value satisfies the schema at %s", ptrText(ptr))
	}
	return nil, first
}

// inferType guesses the type of an untyped schema from its keywords; null when nothing hints.
func inferType(f *jsonval.Value) string {
	has := func(keys ...string) bool { return slices.ContainsFunc(keys, f.Has) }
	asserts := func(of schema.Of) bool {
		return slices.ContainsFunc(f.Members, func(m jsonval.Member) bool {
			return schema.Is(m.Key, func(k schema.Keyword) bool { return k.Of == of && k.Class == schema.Assertion })
		})
	}
	switch {
	case has("properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentRequired"):
		return "object"
	case has("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"):
		return "array"
	case asserts(schema.OfString):
		return "string"
	case asserts(schema.OfNumber):
		return "number"
	}
	return "null"
}
