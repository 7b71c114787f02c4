package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/format"
)

// kind is the JSON type a node decodes.
type kind uint8

const (
	kindAny    kind = iota // any JSON value, kept raw
	kindNull               // only null
	kindBool               // boolean
	kindInt                // integer (int64)
	kindNumber             // number (float64)
	kindString             // string
	kindObject             // object (struct or map)
	kindArray              // array
	kindNever              // the false schema: nothing is valid
	kindUnion              // one of several JSON types, kept raw
)

// typeBits is a set of JSON Schema types.
type typeBits uint8

const (
	tNull typeBits = 1 << iota
	tBool
	tInt
	tNumber
	tString
	tArray
	tObject
	tAll = tNull | tBool | tInt | tNumber | tString | tArray | tObject
)

var typeNames = []struct {
	name string
	bit  typeBits
	kind kind
}{
	{"null", tNull, kindNull},
	{"boolean", tBool, kindBool},
	{"integer", tInt, kindInt},
	{"number", tNumber, kindNumber},
	{"string", tString, kindString},
	{"array", tArray, kindArray},
	{"object", tObject, kindObject},
}

// node is one schema in the model: what a position in the arguments may
// hold and every rule that applies to it.
type node struct {
	ptr      string // JSON pointer of the schema in the effective schema
	name     string // Go name derived from the schema's position
	kind     kind
	nullable bool   // null is also allowed (kind is not kindNull)
	goName   string // named Go type: objects, string enums, unions' object branch
	fixed    bool   // goName was chosen in the tool file (x-toolgate goType)
	desc     string
	sens     bool // sensitive: messages never echo the value
	def      *jsonval.Value

	// strings
	minLen, maxLen int64  // -1 when absent
	pattern        string // as written in the schema
	goPattern      string // the same regular expression in Go's syntax
	format         string

	// numbers: bounds as number text
	minimum, maximum, exMin, exMax, multipleOf *jsonval.Value

	// enum and const; enumKw is "enum" or "const"
	enum    []*jsonval.Value // the values of n's own type
	enumAll []*jsonval.Value // every value of the keyword, for messages
	enumKw  string
	// enumConsts names the Go constant of each value of a string enum type.
	enumConsts map[string]string

	// objects
	props     []*prop
	addl      addlKind
	addlNode  *node
	addlPtr   string // pointer of additionalProperties (for closed objects)
	hasStruct bool   // decoded into a struct (else a map or raw)

	// arrays
	prefix   []*node
	items    *node // nil: any items allowed after prefix
	minItems int64
	maxItems int64
	unique   bool
	tupled   bool // prefixItems: kept raw, each position checked

	// unions
	variants []*node

	// recursion: a struct reached again through struct fields is held by pointer
	onCycle bool

	// comp holds the keywords checked on the whole value (compose.go)
	comp *composition
	// nullOf is the node this one makes nullable (anyOf [T, null], nullable.go).
	nullOf *node
}

type addlKind uint8

const (
	addlOpen   addlKind = iota // any extra member allowed (skipped)
	addlClosed                 // no extra member allowed
	addlSchema                 // extra members decoded into a map
)

// prop is a declared member of an object.
type prop struct {
	name     string
	goName   string
	fixed    bool // goName was chosen in the tool file (x-toolgate goName)
	node     *node
	required bool
	bit      int
	sens     bool // this use is sensitive (writeOnly or x-toolgate sensitive, also beside a $ref)
}

// builder turns an effective schema into nodes.
type builder struct {
	tool   *Tool
	root   *jsonval.Value
	draft7 bool
	opts   Options
	nodes  map[string]*node // by schema pointer, so refs share nodes and recursion ends
	refs   *refIndex        // what $id and $anchor name (refs.go)
	errs   ErrorList
	// result is set for the builder of the result's schema (outputSchema).
	result bool
}

func (b *builder) fail(ptr, keyword, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: b.tool.File, Pointer: b.tool.Pointer + "/" + b.key() + ptr, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
}

// annotations are keywords that never make a value invalid.
var annotations = map[string]bool{
	"title": true, "description": true, "$comment": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "default": true,
	// content: annotations in 2020-12 (and draft-07), describing the string,
	// never validated.
	"contentMediaType": true, "contentEncoding": true, "contentSchema": true,
}

// enforced are the keywords toolgate turns into checks.
var enforced = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"enum": true, "const": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"items": true, "prefixItems": true, "minItems": true, "maxItems": true,
	"uniqueItems": true, "$ref": true, "$defs": true, "definitions": true,
}

// build returns the node for the schema at ptr, building it once.
func (b *builder) build(ptr string, s *jsonval.Value, name string) *node {
	if n, ok := b.nodes[ptr]; ok {
		return n
	}
	if s.Kind == jsonval.Object && s.Has("$ref") && b.refBesideKeywords(ptr, s) {
		return b.buildRefBeside(ptr, s, name)
	}
	if s.Kind == jsonval.Object && s.Has("$ref") {
		return b.buildRef(ptr, s, name)
	}
	if s.Kind == jsonval.Object {
		if nn := b.nullableUnion(ptr, s, name); nn != nil {
			return nn
		}
	}
	n := &node{ptr: ptr, name: name, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	b.nodes[ptr] = n
	if s.Kind == jsonval.Bool {
		if s.Bool {
			n.kind = kindAny
		} else {
			n.kind = kindNever
		}
		return n
	}
	if s.Kind != jsonval.Object {
		b.fail(ptr, "", "a schema must be an object or a boolean, not %s", s.Kind)
		n.kind = kindNever
		return n
	}
	b.checkKeywords(ptr, s)
	b.fill(n, ptr, s, name)
	b.fillComposition(n, ptr, s, name)
	b.mergeAllOf(n)
	return n
}

// buildRef resolves a local $ref, following a chain of schemas that are
// only references to the first that is not, and shares that schema's node
// (so recursive schemas end). Every pointer of the chain maps to it.
func (b *builder) buildRef(ptr string, s *jsonval.Value, name string) *node {
	never := func() *node {
		n := &node{ptr: ptr, name: name, kind: kindNever, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
		b.nodes[ptr] = n
		return n
	}
	chain := []string{ptr}
	for s.Kind == jsonval.Object && s.Has("$ref") {
		b.checkKeywords(ptr, s)
		b.checkRefSiblings(ptr, s)
		ref := s.Get("$ref")
		if ref.Kind != jsonval.String {
			b.fail(ptr+"/$ref", "$ref", "$ref must be a string")
			return never()
		}
		target, ok, remote := b.refs.resolve(ptr, ref.Str)
		if remote {
			b.fail(ptr+"/$ref", "$ref", "reference %q names a document outside the tool file: remote references are not supported", ref.Str)
			return never()
		}
		tv := jsonval.Resolve(b.root, target)
		switch {
		case !ok || tv == nil:
			b.fail(ptr+"/$ref", "$ref", "reference %q does not resolve", ref.Str)
			return never()
		case slices.Contains(chain, target):
			b.fail(ptr+"/$ref", "$ref", "references %s lead back to themselves without a schema", strings.Join(append(chain, target), " → "))
			return never()
		}
		if n, ok := b.nodes[target]; ok {
			for _, p := range chain {
				b.nodes[p] = n
			}
			return n
		}
		chain = append(chain, target)
		ptr, s = target, tv
	}
	defName := name
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		defName = unescapePointer(ptr[i+1:])
	}
	t := b.build(ptr, s, b.base()+goIdent(defName))
	for _, p := range chain {
		b.nodes[p] = t
	}
	return t
}

// checkRefSiblings allows beside a $ref only what asserts nothing: in
// draft 2020-12 anything else needs composition (allOf), and draft-07
// ignores it, while the model would still be shown it.
func (b *builder) checkRefSiblings(ptr string, s *jsonval.Value) {
	for _, m := range s.Members {
		switch {
		case m.Key == "$ref", annotations[m.Key], m.Key == "$defs", m.Key == "definitions", m.Key == "$id", m.Key == "$anchor":
		case ptr == "" && m.Key == "$schema":
		case m.Key == "x-toolgate":
			b.schemaMeta(ptr, m.Value, true)
		case strings.HasPrefix(m.Key, "x-"):
		case b.draft7:
			b.fail(ptr+"/"+escapePointer(m.Key), m.Key, "draft-07 ignores keywords beside $ref, but the model would be shown them; move them into the referenced schema")
		default:
			b.fail(ptr+"/"+escapePointer(m.Key), m.Key, "keywords beside $ref need composition (allOf), which is not supported yet")
		}
	}
}

// sensitiveUse reports whether a member's schema marks its value
// sensitive: writeOnly or x-toolgate sensitive, also beside a $ref.
func sensitiveUse(s *jsonval.Value) bool {
	if wo := s.Get("writeOnly"); wo != nil && wo.Kind == jsonval.Bool && wo.Bool {
		return true
	}
	x := s.Get("x-toolgate")
	if x == nil {
		return false
	}
	sens := x.Get("sensitive")
	return sens != nil && sens.Kind == jsonval.Bool && sens.Bool
}

func (b *builder) checkKeywords(ptr string, s *jsonval.Value) {
	for _, m := range s.Members {
		k := m.Key
		switch {
		case k == "prefixItems" && b.draft7:
			b.fail(ptr+"/prefixItems", k, "prefixItems is a draft 2020-12 keyword; draft-07 writes a tuple as an array under items")
		case enforced[k], annotations[k], composedKeywords[k], strings.HasPrefix(k, "x-"):
		case b.draft7 && k == "dependencies":
		case k == "$id", k == "$anchor" && !b.draft7:
		case k == "$schema":
			if ptr != "" {
				b.fail(ptr+"/"+escapePointer(k), k, "%s is only supported at the root of the parameters schema", k)
			}
		case b.draft7 && k == "additionalItems":
		default:
			b.fail(ptr+"/"+escapePointer(k), k, "keyword %q is not enforced by toolgate; remove it or express the rule with supported keywords", k)
		}
	}
}

// fill sets n from the schema object s (which has no $ref).
func (b *builder) fill(n *node, ptr string, s *jsonval.Value, name string) {
	if d := s.Get("description"); d != nil && d.Kind == jsonval.String {
		n.desc = d.Str
	}
	n.sens = sensitiveUse(s)
	if x := s.Get("x-toolgate"); x != nil {
		if goType := b.schemaMeta(ptr, x, false); goType != "" {
			name, n.fixed = goType, true
		}
	}
	n.def = s.Get("default")
	types := b.types(ptr, s)
	nonNull := types &^ tNull
	switch {
	case types == 0:
		n.kind = kindNever
		return
	case nonNull == 0:
		n.kind = kindNull
		b.fillEnum(n, ptr, s)
		return
	case nonNull&(nonNull-1) == 0:
		n.nullable = types&tNull != 0
		for _, t := range typeNames {
			if t.bit == nonNull {
				n.kind = t.kind
			}
		}
		b.fillTyped(n, ptr, s, name)
		return
	}
	if types|tInt == tAll && onlyAnnotations(s) {
		n.kind = kindAny
		return
	}
	// A union of JSON types: one variant per type, each checked with the
	// keywords that apply to it; the value is kept raw.
	n.kind = kindUnion
	for _, t := range typeNames {
		if types&t.bit == 0 {
			continue
		}
		vname := name + upperFirst(strings.ReplaceAll(t.name, "boolean", "bool"))
		v := &node{ptr: ptr, name: vname, kind: t.kind, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, sens: n.sens}
		b.fillTyped(v, ptr, s, vname)
		if v.kind == kindString {
			v.goName = "" // a variant's enum is checked, not typed
		}
		n.variants = append(n.variants, v)
	}
}

func onlyAnnotations(s *jsonval.Value) bool {
	for _, m := range s.Members {
		if !annotations[m.Key] && !composedKeywords[m.Key] && m.Key != "dependencies" && !strings.HasPrefix(m.Key, "x-") && m.Key != "$defs" && m.Key != "definitions" && m.Key != "$schema" && m.Key != "$id" && m.Key != "$anchor" {
			return false
		}
	}
	return true
}

// schemaMeta validates a schema's x-toolgate and returns its goType. It
// takes goName (a field name, read by the parent object), goType (the name
// of the generated type) and sensitive (read where the schema is used);
// beside a $ref, goType belongs on the shared, referenced schema instead.
func (b *builder) schemaMeta(ptr string, x *jsonval.Value, besideRef bool) (goType string) {
	if x.Kind != jsonval.Object {
		b.fail(ptr+"/x-toolgate", "x-toolgate", "x-toolgate must be an object")
		return ""
	}
	for _, m := range x.Members {
		switch {
		case m.Key == "goName" && m.Value.Kind == jsonval.String && isGoIdentifier(m.Value.Str):
		case m.Key == "goType" && m.Value.Kind == jsonval.String && isGoIdentifier(m.Value.Str) && !besideRef:
			goType = m.Value.Str
		case m.Key == "sensitive" && m.Value.Kind == jsonval.Bool:
		case besideRef:
			b.fail(ptr+"/x-toolgate/"+escapePointer(m.Key), "x-toolgate", "x-toolgate beside $ref takes goName (an exported Go identifier) and sensitive (a boolean); set goType on the referenced schema")
		default:
			b.fail(ptr+"/x-toolgate/"+escapePointer(m.Key), "x-toolgate", "x-toolgate in a schema takes goName and goType (exported Go identifiers) and sensitive (a boolean)")
		}
	}
	return goType
}

// types returns the JSON types the schema allows: its type keyword, or what
// its enum or const values imply, or every type.
func (b *builder) types(ptr string, s *jsonval.Value) typeBits {
	var set typeBits
	t := s.Get("type")
	switch {
	case t == nil:
		set = tAll
	case t.Kind == jsonval.String:
		set = b.typeBit(ptr, t.Str)
	case t.Kind == jsonval.Array:
		for _, it := range t.Items {
			if it.Kind != jsonval.String {
				b.fail(ptr+"/type", "type", "type must be a string or an array of strings")
				continue
			}
			set |= b.typeBit(ptr, it.Str)
		}
	default:
		b.fail(ptr+"/type", "type", "type must be a string or an array of strings")
	}
	if vals := enumValues(s); vals != nil {
		var implied typeBits
		for _, v := range vals {
			implied |= valueType(v)
		}
		if implied&tInt != 0 && set&tNumber != 0 {
			implied |= tNumber
		}
		set &= implied
	}
	if set&tNumber != 0 {
		set &^= tInt // integer is a subset of number
	}
	return set
}

func enumValues(s *jsonval.Value) []*jsonval.Value {
	if c := s.Get("const"); c != nil {
		return []*jsonval.Value{c}
	}
	if e := s.Get("enum"); e != nil && e.Kind == jsonval.Array {
		return e.Items
	}
	return nil
}

// valueType is the narrowest JSON Schema type of v.
func valueType(v *jsonval.Value) typeBits {
	switch v.Kind {
	case jsonval.Null:
		return tNull
	case jsonval.Bool:
		return tBool
	case jsonval.Number:
		if _, ok := integerValue(v.Str); ok {
			return tInt
		}
		return tNumber
	case jsonval.String:
		return tString
	case jsonval.Array:
		return tArray
	}
	return tObject
}

func (b *builder) typeBit(ptr, name string) typeBits {
	for _, t := range typeNames {
		if t.name == name {
			return t.bit
		}
	}
	b.fail(ptr+"/type", "type", "unknown type %q", name)
	return 0
}

// fillTyped reads the keywords that apply to n.kind.
func (b *builder) fillTyped(n *node, ptr string, s *jsonval.Value, name string) {
	b.fillEnum(n, ptr, s)
	switch n.kind {
	case kindString:
		n.minLen = b.count(ptr, s, "minLength")
		n.maxLen = b.count(ptr, s, "maxLength")
		if p := s.Get("pattern"); p != nil {
			if p.Kind != jsonval.String {
				b.fail(ptr+"/pattern", "pattern", "pattern must be a string")
			} else if re, err := ecmaToRE2(p.Str); err != nil {
				b.fail(ptr+"/pattern", "pattern", "Go's regexp cannot compile %q: %v", p.Str, err)
			} else {
				n.pattern, n.goPattern = p.Str, re
			}
		}
		if f := s.Get("format"); f != nil {
			if _, ok := format.Lookup(f.Str); !ok && f.Kind == jsonval.String && !b.opts.FormatAnnotation {
				b.fail(ptr+"/format", "format", "format %q is not one toolgate asserts (%s)", f.Str, strings.Join(format.Names(), ", "))
			} else if !b.opts.FormatAnnotation {
				n.format = f.Str
			}
		}
		if len(n.enum) > 0 && allStrings(n.enum) && name != "" {
			n.goName = name
		}
	case kindInt, kindNumber:
		defer b.checkIntRange(n, ptr)
		n.minimum = b.number(ptr, s, "minimum")
		n.maximum = b.number(ptr, s, "maximum")
		n.exMin = b.number(ptr, s, "exclusiveMinimum")
		n.exMax = b.number(ptr, s, "exclusiveMaximum")
		n.multipleOf = b.number(ptr, s, "multipleOf")
		if n.multipleOf != nil && strings.HasPrefix(n.multipleOf.Str, "-") || n.multipleOf != nil && isZero(n.multipleOf.Str) {
			b.fail(ptr+"/multipleOf", "multipleOf", "multipleOf must be greater than 0")
		}
	case kindObject:
		b.fillObject(n, ptr, s, name)
	case kindArray:
		b.fillArray(n, ptr, s, name)
	}
}

// allStrings reports whether the values are strings, but for a null (the
// null state of a nullable enum), and there is at least one.
// checkIntRange refuses integer bounds beyond int64: integers are decoded
// as int64, so the gate would refuse values the schema (and so the model)
// allows.
func (b *builder) checkIntRange(n *node, ptr string) {
	if n.kind != kindInt {
		return
	}
	for kw, v := range map[string]*jsonval.Value{"minimum": n.minimum, "exclusiveMinimum": n.exMin, "maximum": n.maximum, "exclusiveMaximum": n.exMax} {
		if v == nil {
			continue
		}
		r, ok := new(big.Rat).SetString(v.Str)
		if ok && (r.Cmp(new(big.Rat).SetInt64(math.MinInt64)) < 0 || r.Cmp(new(big.Rat).SetInt64(math.MaxInt64)) > 0) {
			b.fail(ptr+"/"+kw, kw, "%s %s is beyond the 64-bit range integers are decoded in", kw, v.Str)
		}
	}
}

func allStrings(vals []*jsonval.Value) bool {
	strs := 0
	for _, v := range vals {
		switch v.Kind {
		case jsonval.String:
			strs++
		case jsonval.Null:
		default:
			return false
		}
	}
	return strs > 0
}

func (b *builder) fillEnum(n *node, ptr string, s *jsonval.Value) {
	if c := s.Get("const"); c != nil {
		n.enumKw = "const"
		n.enum = []*jsonval.Value{c}
		n.enumAll = n.enum
		return
	}
	e := s.Get("enum")
	if e == nil {
		return
	}
	if e.Kind != jsonval.Array {
		b.fail(ptr+"/enum", "enum", "enum must be an array")
		return
	}
	n.enumKw = "enum"
	// Values equal as JSON values (1 and 1.0, a repeated "a") are one value.
	n.enumAll = nil
	for _, v := range e.Items {
		if !slices.ContainsFunc(n.enumAll, func(w *jsonval.Value) bool { return jsonval.Equal(v, w) }) {
			n.enumAll = append(n.enumAll, v)
		}
	}
	n.enum = []*jsonval.Value{}
	for _, v := range n.enumAll {
		if valueType(v)&kindBits(n.kind) != 0 || n.kind == kindNull && v.Kind == jsonval.Null {
			n.enum = append(n.enum, v)
		}
	}
	if n.nullable {
		for _, v := range n.enumAll {
			if v.Kind == jsonval.Null {
				n.enum = append(n.enum, v)
				break
			}
		}
	}
}

// kindBits is the set of value types a node of kind k decodes.
func kindBits(k kind) typeBits {
	switch k {
	case kindNull:
		return tNull
	case kindBool:
		return tBool
	case kindInt:
		return tInt
	case kindNumber:
		return tInt | tNumber
	case kindString:
		return tString
	case kindObject:
		return tObject
	case kindArray:
		return tArray
	}
	return 0
}

func (b *builder) count(ptr string, s *jsonval.Value, kw string) int64 {
	v := s.Get(kw)
	if v == nil {
		return -1
	}
	n, ok := integerValue(v.Str)
	if v.Kind != jsonval.Number || !ok || n.Sign() < 0 || !n.IsInt64() {
		b.fail(ptr+"/"+kw, kw, "%s must be a non-negative integer", kw)
		return -1
	}
	return n.Int64()
}

func (b *builder) number(ptr string, s *jsonval.Value, kw string) *jsonval.Value {
	v := s.Get(kw)
	if v == nil {
		return nil
	}
	if v.Kind != jsonval.Number {
		b.fail(ptr+"/"+kw, kw, "%s must be a number", kw)
		return nil
	}
	return v
}

func isZero(text string) bool {
	r, ok := new(big.Rat).SetString(text)
	return ok && r.Sign() == 0
}

// integerValue returns the integer value of number text, if it is one.
func integerValue(text string) (*big.Int, bool) {
	r, ok := new(big.Rat).SetString(text)
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}

func (b *builder) fillObject(n *node, ptr string, s *jsonval.Value, name string) {
	n.goName = name
	base := b.childBase(ptr, name)
	required := map[string]bool{}
	if r := s.Get("required"); r != nil {
		if r.Kind != jsonval.Array {
			b.fail(ptr+"/required", "required", "required must be an array of strings")
		} else {
			for _, it := range r.Items {
				if it.Kind != jsonval.String {
					b.fail(ptr+"/required", "required", "required must be an array of strings")
					continue
				}
				required[it.Str] = true
			}
		}
	}
	declared := map[string]bool{}
	if ps := s.Get("properties"); ps != nil {
		if ps.Kind != jsonval.Object {
			b.fail(ptr+"/properties", "properties", "properties must be an object")
		} else {
			for _, m := range ps.Members {
				pptr := ptr + "/properties/" + escapePointer(m.Key)
				field, fixed := goIdent(m.Key), false
				if x := m.Value.Get("x-toolgate"); x != nil {
					if gn := x.Get("goName"); gn != nil && gn.Kind == jsonval.String && isGoIdentifier(gn.Str) {
						field, fixed = gn.Str, true
					}
				}
				child := b.build(pptr, m.Value, base+field)
				declared[m.Key] = true
				n.props = append(n.props, &prop{name: m.Key, goName: field, fixed: fixed, node: child, required: required[m.Key], bit: len(n.props), sens: sensitiveUse(m.Value)})
			}
		}
	}
	// Required members that are not declared can still be present (and
	// then take any value) when the object is open.
	var undeclared []string
	for r := range required {
		if !declared[r] {
			undeclared = append(undeclared, r)
		}
	}
	sort.Strings(undeclared)
	taken := map[string]bool{}
	for _, p := range n.props {
		taken[p.goName] = true
	}
	for _, r := range undeclared {
		// No schema declares these members, so nothing could carry a Go-name
		// override: a colliding name gets a numeric suffix.
		field := uniqueName(goIdent(r), taken)
		n.props = append(n.props, &prop{name: r, goName: field, node: &node{ptr: ptr + "/required", kind: kindAny}, required: true, bit: len(n.props)})
	}
	a := s.Get("additionalProperties")
	switch {
	case a == nil:
		n.addl = addlOpen
	case a.Kind == jsonval.Bool && !a.Bool:
		n.addl = addlClosed
		n.addlPtr = ptr + "/additionalProperties"
	case a.Kind == jsonval.Bool:
		n.addl = addlOpen
	default:
		n.addl = addlSchema
		n.addlPtr = ptr + "/additionalProperties"
		n.addlNode = b.build(n.addlPtr, a, base+"Value")
		if n.addlNode.kind == kindNever {
			n.addl = addlClosed
		}
	}
	if len(undeclared) > 0 && n.addl == addlClosed {
		for _, r := range undeclared {
			b.fail(ptr+"/required", "required", "member %q is required but not declared in properties of a closed object: no value can satisfy the schema", r)
		}
	}
	n.hasStruct = len(n.props) > 0 || n.addl != addlSchema
}

// uniqueName returns name, or name with the smallest suffix 2, 3, … that is
// not taken, and marks it taken.
func uniqueName(name string, taken map[string]bool) string {
	u := name
	for i := 2; taken[u]; i++ {
		u = fmt.Sprintf("%s%d", name, i)
	}
	taken[u] = true
	return u
}

// checkDefaults validates every default against the schema it stands in,
// with the compiler that checked the schema: an accessor must never hand
// out a value the decoder would refuse.
func (b *builder) checkDefaults(c *jsonschema.Compiler) {
	ptrs := make([]string, 0, len(b.nodes))
	for ptr, n := range b.nodes {
		if n.def != nil && n.ptr == ptr {
			ptrs = append(ptrs, ptr)
		}
	}
	sort.Strings(ptrs)
	for _, ptr := range ptrs {
		s, err := c.Compile(b.url() + "#" + ptr)
		if err != nil {
			continue // a subschema santhosh cannot address alone is checked nowhere else either
		}
		dec := json.NewDecoder(bytes.NewReader(b.nodes[ptr].def.Marshal()))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			continue
		}
		if err := s.Validate(v); err != nil {
			msg := err.Error()
			var ve *jsonschema.ValidationError
			if errors.As(err, &ve) {
				for len(ve.Causes) > 0 {
					ve = ve.Causes[0]
				}
				msg = ve.Message
			}
			b.fail(ptr+"/default", "default", "the default %s does not satisfy its own schema: %s", b.nodes[ptr].def.Marshal(), msg)
		}
	}
}

// childBase is the prefix of the Go names of a node's children: the node's
// name, except at the root, where it is the tool's Go name (RefundOrderReason,
// not RefundOrderArgsReason).
func (b *builder) childBase(ptr, name string) string {
	if ptr == "" {
		return b.base()
	}
	return name
}

// singular names the items of an array: LineItems → LineItem, Data → DataItem.
func singular(name string) string {
	if strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss") && len(name) > 1 {
		return name[:len(name)-1]
	}
	return name + "Item"
}

func (b *builder) fillArray(n *node, ptr string, s *jsonval.Value, name string) {
	n.minItems = b.count(ptr, s, "minItems")
	n.maxItems = b.count(ptr, s, "maxItems")
	if u := s.Get("uniqueItems"); u != nil {
		n.unique = u.Kind == jsonval.Bool && u.Bool
	}
	itemName := singular(b.childBase(ptr, name))
	prefixKw, itemsKw := "prefixItems", "items"
	if b.draft7 {
		if it := s.Get("items"); it != nil && it.Kind == jsonval.Array {
			prefixKw, itemsKw = "items", "additionalItems"
		} else {
			prefixKw = ""
		}
	}
	if prefixKw != "" {
		if p := s.Get(prefixKw); p != nil {
			if p.Kind != jsonval.Array {
				b.fail(ptr+"/"+prefixKw, prefixKw, "%s must be an array of schemas", prefixKw)
			} else {
				for i, it := range p.Items {
					n.prefix = append(n.prefix, b.build(fmt.Sprintf("%s/%s/%d", ptr, prefixKw, i), it, fmt.Sprintf("%s%d", itemName, i)))
				}
			}
		}
	}
	if it := s.Get(itemsKw); it != nil {
		n.items = b.build(ptr+"/"+itemsKw, it, itemName)
	}
	n.tupled = len(n.prefix) > 0
}
