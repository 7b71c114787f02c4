package gen

import (
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// compilesClean reports whether santhosh-tekuri/jsonschema provably
// compiles s, the root of a schema of the given dialect compiled as
// compileAt does: s passes the dialect's meta-schema, every $ref resolves
// and no $ref loops back to a schema through keywords that stay at the
// same instance location. It proves this only for a common subset: each
// keyword of the dialect with a value of the type its meta-schema asks
// for, a $schema naming the dialect at the root only, $ref only to the
// root or to a root $defs (draft-07: definitions) member, no $id, anchors
// or $vocabulary, and keywords of other dialects nowhere. It answers false
// for anything else, which compileAt then checks as it always did.
func compilesClean(s *jsonval.Value, draft7 bool) bool {
	m := &metaCheck{root: s, draft7: draft7, kw: keywords2020, defs: "$defs"}
	if draft7 {
		m.kw, m.defs = keywords7, "definitions"
	}
	return m.schema(s, true) && m.acyclic()
}

// keywords2020 and keywords7 are what the value of each keyword of the
// subset must be, per its dialect's meta-schema (schema.Keyword.Value).
var (
	keywords2020 = keywordValues(schema.Draft2020)
	keywords7    = keywordValues(schema.Draft7)
)

func keywordValues(d schema.Draft) map[string]schema.Value {
	m := map[string]schema.Value{}
	for _, k := range schema.Keywords() {
		if v := k.ValueIn(d); k.Drafts&d != 0 && v != 0 {
			m[k.Name] = v
		}
	}
	return m
}

// isKeyword reports whether santhosh-tekuri/jsonschema reads key as a
// keyword in some dialect: whether it is a row of the schema table.
func isKeyword(key string) bool {
	_, ok := schema.Lookup(key)
	return ok
}

// stackResetting are the keywords whose subschemas santhosh compiles with
// a fresh $ref loop-detection stack: they apply to other instance
// locations. Every other subschema keyword counts as staying at the same
// location (an over-approximation, which can only make acyclic say no).
// It is a fact of santhosh-tekuri/jsonschema's compiler, not of the
// keywords: contains and unevaluatedProperties apply to other locations
// too (schema.Members) but do not reset its stack.
var stackResetting = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "additionalItems": true,
}

var simpleTypes = map[string]bool{
	"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true,
}

type metaCheck struct {
	root   *jsonval.Value
	draft7 bool
	kw     map[string]schema.Value
	defs   string   // the keyword of the definitions $ref may point into
	refs   []string // every $ref seen
}

// schema reports whether v is a schema of the subset; root is true for the
// document's root.
func (m *metaCheck) schema(v *jsonval.Value, root bool) bool {
	if v.Kind == jsonval.Bool {
		return true
	}
	if v.Kind != jsonval.Object {
		return false
	}
	for _, mem := range v.Members {
		t, ok := m.kw[mem.Key]
		if !ok {
			if isKeyword(mem.Key) {
				return false
			}
			continue
		}
		if t == schema.DialectValue && !root || !m.value(t, mem.Value) {
			return false
		}
	}
	return true
}

// value reports whether v is a value of type t.
func (m *metaCheck) value(t schema.Value, v *jsonval.Value) bool {
	switch t {
	case schema.AnyValue:
		return true
	case schema.StringValue:
		return v.Kind == jsonval.String
	case schema.BoolValue:
		return v.Kind == jsonval.Bool
	case schema.NumberValue:
		return v.Kind == jsonval.Number
	case schema.PositiveValue:
		r := v.Rat()
		return r != nil && r.Sign() > 0
	case schema.CountValue:
		return isCount(v)
	case schema.ArrayValue:
		return v.Kind == jsonval.Array
	case schema.UniqueArrayValue:
		return v.Kind == jsonval.Array && len(v.Items) > 0 && uniqueScalars(v.Items)
	case schema.PatternValue:
		return v.Kind == jsonval.String && isRE2(v.Str)
	case schema.TypesValue:
		if v.Kind == jsonval.String {
			return simpleTypes[v.Str]
		}
		return v.Kind == jsonval.Array && len(v.Items) > 0 && uniqueStrings(v.Items, simpleTypes)
	case schema.StringsValue:
		return v.Kind == jsonval.Array && uniqueStrings(v.Items, nil)
	case schema.SchemaValue:
		return m.schema(v, false)
	case schema.SchemasValue:
		return v.Kind == jsonval.Array && len(v.Items) > 0 && m.schemaList(v.Items)
	case schema.SchemaOrListValue:
		if v.Kind == jsonval.Array {
			return len(v.Items) > 0 && m.schemaList(v.Items)
		}
		return m.schema(v, false)
	case schema.SchemaMapValue, schema.PatternMapValue, schema.StringsMapValue, schema.DependenciesValue:
		return m.object(t, v)
	case schema.RefValue:
		if v.Kind != jsonval.String || !m.resolves(v.Str) {
			return false
		}
		m.refs = append(m.refs, v.Str)
		return true
	case schema.DialectValue:
		want := draft2020URL
		if m.draft7 {
			want = draft7URL
		}
		return v.Kind == jsonval.String && strings.TrimSuffix(v.Str, "#") == want
	}
	return false
}

func (m *metaCheck) schemaList(items []*jsonval.Value) bool {
	for _, it := range items {
		if !m.schema(it, false) {
			return false
		}
	}
	return true
}

// object checks an object-valued keyword of type t member by member.
func (m *metaCheck) object(t schema.Value, v *jsonval.Value) bool {
	if v.Kind != jsonval.Object {
		return false
	}
	for _, mem := range v.Members {
		var ok bool
		switch t {
		case schema.StringsMapValue:
			ok = m.value(schema.StringsValue, mem.Value)
		case schema.DependenciesValue:
			ok = mem.Value.Kind == jsonval.Array && m.value(schema.StringsValue, mem.Value) || m.schema(mem.Value, false)
		case schema.PatternMapValue:
			ok = isRE2(mem.Key) && m.schema(mem.Value, false)
		default:
			ok = m.schema(mem.Value, false)
		}
		if !ok {
			return false
		}
	}
	return true
}

// resolves reports whether ref is "#" or names a member of the root's
// definitions by a plain name.
func (m *metaCheck) resolves(ref string) bool {
	if ref == "#" {
		return true
	}
	name, ok := strings.CutPrefix(ref, "#/"+m.defs+"/")
	if !ok || name == "" || strings.TrimFunc(name, isPlainNameRune) != "" {
		return false
	}
	return m.root.Kind == jsonval.Object && m.root.Get(m.defs).Get(name) != nil
}

func isPlainNameRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.'
}

// acyclic reports whether no schema, the root or the target of any $ref,
// can reach itself through same-location keywords and $refs: the loops
// santhosh-tekuri/jsonschema refuses. It runs after schema, so every $ref
// is "#" or a root definition.
func (m *metaCheck) acyclic() bool {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var visit func(ref string) bool
	visit = func(ref string) bool {
		switch state[ref] {
		case open:
			return false
		case done:
			return true
		}
		state[ref] = open
		target := m.root
		if ref != "#" {
			target = m.root.Get(m.defs).Get(strings.TrimPrefix(ref, "#/"+m.defs+"/"))
		}
		var refs []string
		sameLocationRefs(target, &refs)
		for _, r := range refs {
			if !visit(r) {
				return false
			}
		}
		state[ref] = done
		return true
	}
	if !visit("#") {
		return false
	}
	for _, ref := range m.refs {
		if !visit(ref) {
			return false
		}
	}
	return true
}

// sameLocationRefs appends the $refs of s and of its subschemas reached
// without a keyword of stackResetting or definitions (which apply only
// through a $ref).
func sameLocationRefs(s *jsonval.Value, refs *[]string) {
	if s.Kind != jsonval.Object {
		return
	}
	for _, mem := range s.Members {
		v := mem.Value
		switch {
		case mem.Key == "$ref":
			*refs = append(*refs, v.Str)
		case stackResetting[mem.Key] || mem.Key == "$defs" || mem.Key == "definitions":
		case v.Kind == jsonval.Object && (mem.Key == "dependentSchemas" || mem.Key == "dependencies"):
			for _, c := range v.Members {
				sameLocationRefs(c.Value, refs)
			}
		case v.Kind == jsonval.Array && (keywords2020[mem.Key] == schema.SchemasValue || keywords7[mem.Key] == schema.SchemasValue):
			for _, c := range v.Items {
				sameLocationRefs(c, refs)
			}
		case keywords2020[mem.Key] == schema.SchemaValue || keywords7[mem.Key] == schema.SchemaValue:
			sameLocationRefs(v, refs)
		}
	}
}

// isCount reports whether v is a non-negative integer written in digits
// alone, small enough for any int.
func isCount(v *jsonval.Value) bool {
	if v.Kind != jsonval.Number || len(v.Str) > 9 {
		return false
	}
	for i := 0; i < len(v.Str); i++ {
		if v.Str[i] < '0' || v.Str[i] > '9' {
			return false
		}
	}
	return true
}

// isRE2 reports whether pattern translates (as re2Patterns rewrites it
// before santhosh-tekuri/jsonschema sees it) into a pattern RE2 compiles.
func isRE2(pattern string) bool {
	_, err := ecmaToRE2(pattern)
	return err == nil
}

// uniqueStrings reports whether items are distinct strings, each in allowed
// unless allowed is nil.
func uniqueStrings(items []*jsonval.Value, allowed map[string]bool) bool {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if it.Kind != jsonval.String || seen[it.Str] || allowed != nil && !allowed[it.Str] {
			return false
		}
		seen[it.Str] = true
	}
	return true
}

// uniqueScalars reports whether items are distinct strings, booleans and
// nulls (numbers, whose equality is by value, are left to the full check).
func uniqueScalars(items []*jsonval.Value) bool {
	type key struct {
		kind jsonval.Kind
		str  string
		b    bool
	}
	seen := make(map[key]bool, len(items))
	for _, it := range items {
		k := key{it.Kind, it.Str, it.Bool}
		if it.Kind != jsonval.String && it.Kind != jsonval.Bool && it.Kind != jsonval.Null || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}
