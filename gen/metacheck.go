package gen

import (
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
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

// kwType is what a keyword's value must be, per its dialect's meta-schema.
type kwType uint8

const (
	kwAny          kwType = iota // any JSON value
	kwString                     // a string
	kwBool                       // a boolean
	kwNumber                     // a number
	kwPositive                   // a number greater than 0
	kwCount                      // a non-negative integer
	kwArray                      // an array
	kwEnum                       // draft-07: a non-empty array of unique items
	kwPattern                    // a regular expression
	kwTypes                      // a simple type or a non-empty array of unique ones
	kwStrings                    // an array of unique strings
	kwSchema                     // a schema
	kwSchemas                    // a non-empty array of schemas
	kwSchemaOrList               // draft-07 items: a schema or a non-empty array of them
	kwSchemaMap                  // an object of schemas
	kwPatternMap                 // patternProperties: an object of schemas keyed by regular expressions
	kwStringsMap                 // an object of string arrays
	kwDependencies               // draft-07: an object of schemas or string arrays
	kwRef                        // $ref
	kwDialect                    // $schema
)

var keywords2020 = map[string]kwType{
	"$schema": kwDialect, "$ref": kwRef, "$comment": kwString, "$defs": kwSchemaMap,
	"prefixItems": kwSchemas, "items": kwSchema, "contains": kwSchema,
	"additionalProperties": kwSchema, "properties": kwSchemaMap, "patternProperties": kwPatternMap,
	"dependentSchemas": kwSchemaMap, "propertyNames": kwSchema, "if": kwSchema, "then": kwSchema,
	"else": kwSchema, "allOf": kwSchemas, "anyOf": kwSchemas, "oneOf": kwSchemas, "not": kwSchema,
	"unevaluatedItems": kwSchema, "unevaluatedProperties": kwSchema,
	"contentEncoding": kwString, "contentMediaType": kwString, "contentSchema": kwSchema,
	"format": kwString, "title": kwString, "description": kwString, "default": kwAny,
	"deprecated": kwBool, "readOnly": kwBool, "writeOnly": kwBool, "examples": kwArray,
	"type": kwTypes, "const": kwAny, "enum": kwArray, "multipleOf": kwPositive,
	"maximum": kwNumber, "exclusiveMaximum": kwNumber, "minimum": kwNumber, "exclusiveMinimum": kwNumber,
	"maxLength": kwCount, "minLength": kwCount, "pattern": kwPattern, "maxItems": kwCount,
	"minItems": kwCount, "uniqueItems": kwBool, "maxContains": kwCount, "minContains": kwCount,
	"maxProperties": kwCount, "minProperties": kwCount, "required": kwStrings,
	"dependentRequired": kwStringsMap,
}

var keywords7 = map[string]kwType{
	"$schema": kwDialect, "$ref": kwRef, "$comment": kwString, "title": kwString,
	"description": kwString, "default": kwAny, "readOnly": kwBool, "writeOnly": kwBool,
	"examples": kwArray, "multipleOf": kwPositive, "maximum": kwNumber, "exclusiveMaximum": kwNumber,
	"minimum": kwNumber, "exclusiveMinimum": kwNumber, "maxLength": kwCount, "minLength": kwCount,
	"pattern": kwPattern, "additionalItems": kwSchema, "items": kwSchemaOrList, "maxItems": kwCount,
	"minItems": kwCount, "uniqueItems": kwBool, "contains": kwSchema, "maxProperties": kwCount,
	"minProperties": kwCount, "required": kwStrings, "additionalProperties": kwSchema,
	"definitions": kwSchemaMap, "properties": kwSchemaMap, "patternProperties": kwPatternMap,
	"dependencies": kwDependencies, "propertyNames": kwSchema, "const": kwAny, "enum": kwEnum,
	"type": kwTypes, "format": kwString, "contentMediaType": kwString, "contentEncoding": kwString,
	"if": kwSchema, "then": kwSchema, "else": kwSchema, "allOf": kwSchemas, "anyOf": kwSchemas,
	"oneOf": kwSchemas, "not": kwSchema,
}

// otherKeywords are the keywords santhosh-tekuri/jsonschema reads in some
// dialect that neither table above lets through: a schema using one is
// left to the full check.
var otherKeywords = map[string]bool{
	"id": true, "$id": true, "$anchor": true, "$dynamicRef": true, "$dynamicAnchor": true,
	"$vocabulary": true, "$recursiveRef": true, "$recursiveAnchor": true,
}

// isKeyword reports whether santhosh-tekuri/jsonschema reads key as a
// keyword in some dialect.
func isKeyword(key string) bool {
	_, in2020 := keywords2020[key]
	_, in7 := keywords7[key]
	return in2020 || in7 || otherKeywords[key]
}

// stackResetting are the keywords whose subschemas santhosh compiles with
// a fresh $ref loop-detection stack: they apply to other instance
// locations. Every other subschema keyword counts as staying at the same
// location (an over-approximation, which can only make acyclic say no).
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
	kw     map[string]kwType
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
		if t == kwDialect && !root || !m.value(t, mem.Value) {
			return false
		}
	}
	return true
}

// value reports whether v is a value of type t.
func (m *metaCheck) value(t kwType, v *jsonval.Value) bool {
	switch t {
	case kwAny:
		return true
	case kwString:
		return v.Kind == jsonval.String
	case kwBool:
		return v.Kind == jsonval.Bool
	case kwNumber:
		return v.Kind == jsonval.Number
	case kwPositive:
		r := v.Rat()
		return r != nil && r.Sign() > 0
	case kwCount:
		return isCount(v)
	case kwArray:
		return v.Kind == jsonval.Array
	case kwEnum:
		return v.Kind == jsonval.Array && len(v.Items) > 0 && uniqueScalars(v.Items)
	case kwPattern:
		return v.Kind == jsonval.String && isRE2(v.Str)
	case kwTypes:
		if v.Kind == jsonval.String {
			return simpleTypes[v.Str]
		}
		return v.Kind == jsonval.Array && len(v.Items) > 0 && uniqueStrings(v.Items, simpleTypes)
	case kwStrings:
		return v.Kind == jsonval.Array && uniqueStrings(v.Items, nil)
	case kwSchema:
		return m.schema(v, false)
	case kwSchemas:
		return v.Kind == jsonval.Array && len(v.Items) > 0 && m.schemaList(v.Items)
	case kwSchemaOrList:
		if v.Kind == jsonval.Array {
			return len(v.Items) > 0 && m.schemaList(v.Items)
		}
		return m.schema(v, false)
	case kwSchemaMap, kwPatternMap, kwStringsMap, kwDependencies:
		return m.object(t, v)
	case kwRef:
		if v.Kind != jsonval.String || !m.resolves(v.Str) {
			return false
		}
		m.refs = append(m.refs, v.Str)
		return true
	case kwDialect:
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
func (m *metaCheck) object(t kwType, v *jsonval.Value) bool {
	if v.Kind != jsonval.Object {
		return false
	}
	for _, mem := range v.Members {
		var ok bool
		switch t {
		case kwStringsMap:
			ok = m.value(kwStrings, mem.Value)
		case kwDependencies:
			ok = mem.Value.Kind == jsonval.Array && m.value(kwStrings, mem.Value) || m.schema(mem.Value, false)
		case kwPatternMap:
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
		case v.Kind == jsonval.Array && (keywords2020[mem.Key] == kwSchemas || keywords7[mem.Key] == kwSchemas):
			for _, c := range v.Items {
				sameLocationRefs(c, refs)
			}
		case keywords2020[mem.Key] == kwSchema || keywords7[mem.Key] == kwSchema:
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
