package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
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
	shared   string // the definitions file and pointer it was built from (shared.go), or ""
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
	freeForm  bool   // declares no members: a map of raw values (freeform.go)
	merged    bool   // holds the members of its oneOf or anyOf (alternatives.go)
	// indexNote says why a branch of an anyOf or oneOf is named by its
	// index though it has a name of its own (branchNames); its type's doc
	// says so.
	indexNote string
	untyped   bool // merged without a type: another value breaks the union
	// keepMatched: the members patternProperties covers are kept in the
	// struct's AdditionalProperties (undeclared.go).
	keepMatched bool
	// keepPatterned: beside a typed additionalProperties, the members
	// patternProperties covers are kept raw in the struct's
	// PatternProperties (undeclared.go).
	keepPatterned bool
	// keptOpen: open, its undeclared members kept in AdditionalProperties
	// (addlSchema of raw values) by keepUndeclared; still a plain struct.
	keptOpen bool

	// arrays
	prefix   []*node
	items    *node // nil: any items allowed after prefix
	minItems int64
	maxItems int64
	unique   bool
	tupled   bool // prefixItems: kept raw, each position checked

	// unions
	variants []*node
	// onlyStrings: a union of every type whose keywords all apply to
	// strings (stringKeywords), so that a value of another type is valid.
	onlyStrings bool

	// recursion: a struct reached again through struct fields is held by pointer
	onCycle bool

	// comp holds the keywords checked on the whole value (compose.go)
	comp *composition
	// nullOf is the node this one makes nullable (anyOf [T, null], nullable.go).
	nullOf *node
}

// newNode returns the node of kind k at ptr, with no length or count
// bounds yet.
func newNode(ptr, name string, k kind) *node {
	return &node{ptr: ptr, name: name, kind: k, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
}

type addlKind uint8

const (
	addlOpen     addlKind = iota // any extra member allowed (skipped)
	addlClosed                   // no extra member allowed
	addlSchema                   // extra members decoded into a map
	addlClosedAt                 // open, unless the decodeIn argument closedAt closes it (tagged.go)
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
	warns  []Warning // warnings.go
	// result is set for the builder of the result's schema (outputSchema).
	result bool
}

func (b *builder) fail(ptr, keyword, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: b.tool.File, Pointer: b.tool.Pointer + "/" + b.key() + ptr, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
}

// annotation reports whether k is a keyword that never makes a value
// invalid (schema.Annotation).
func annotation(k string) bool {
	return schema.Is(k, func(kw schema.Keyword) bool { return kw.Class == schema.Annotation })
}

// enforced reports whether k is a keyword the plain decoder of a value
// turns into checks (schema.Direct).
func enforced(k string) bool {
	return schema.Is(k, func(kw schema.Keyword) bool { return kw.Enforced == schema.Direct })
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
	n := newNode(ptr, name, kindAny)
	n.shared = b.sharedKey(ptr)
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
	b.mergeAlternatives(n)
	return n
}

// buildRef resolves a local $ref, following a chain of schemas that are
// only references to the first that is not, and shares that schema's node
// (so recursive schemas end). Every pointer of the chain maps to it.
func (b *builder) buildRef(ptr string, s *jsonval.Value, name string) *node {
	never := func() *node {
		n := newNode(ptr, name, kindNever)
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
	// A shared definition is named after itself, for every tool; at the
	// root it is the tool's arguments, named after the tool.
	typeName := b.base() + goIdent(defName)
	if b.sharedKey(ptr) != "" && chain[0] != "" {
		typeName = goIdent(defName)
	}
	t := b.build(ptr, s, typeName)
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
		case m.Key == "$ref", annotation(m.Key), m.Key == "$defs", m.Key == "definitions", m.Key == "$id", m.Key == "$anchor":
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
		case enforced(k), annotation(k), composedKeyword(k), strings.HasPrefix(k, "x-"):
		case b.draft7 && k == "dependencies":
		case k == "$id", k == "$anchor" && !b.draft7:
		case k == "$schema":
			if ptr != "" {
				b.fail(ptr+"/"+escapePointer(k), k, "%s is only supported at the root of the parameters schema", k)
			}
		case b.draft7 && k == "additionalItems":
		case isKeyword(k):
			b.fail(ptr+"/"+escapePointer(k), k, "keyword %q is not enforced by toolgate; remove it or express the rule with supported keywords", k)
		default:
			b.fail(ptr+"/"+escapePointer(k), k, "%s", unknownKeyword(k))
		}
	}
}

// unknownKeyword is the message of a schema member k that is no keyword
// toolgate knows (schemaKeywords) nor an extension: a misspelt one, when
// one keyword is close, else a stranger.
func unknownKeyword(k string) string {
	if s := suggest(k, schemaKeywords()); s != "" {
		return fmt.Sprintf("unknown keyword %q; did you mean %q?", k, s)
	}
	return fmt.Sprintf("unknown keyword %q: not a JSON Schema keyword; remove it, or start an extension's name with x-", k)
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
		v := newNode(ptr, vname, t.kind)
		v.sens = n.sens
		b.fillTyped(v, ptr, s, vname)
		if v.kind == kindString {
			v.goName = "" // a variant's enum is checked, not typed
		}
		n.variants = append(n.variants, v)
	}
	n.onlyStrings = types|tInt == tAll && onlyStringKeywords(s)
}

// stringKeyword reports whether k is an assertion that applies to strings
// only (schema.OfString): one a tgimpl.Scalar checks.
func stringKeyword(k string) bool {
	return schema.Is(k, func(kw schema.Keyword) bool { return kw.Of == schema.OfString && kw.Class == schema.Assertion })
}

// onlyStringKeywords reports whether every keyword of s is an annotation,
// an extension or one of stringKeywords.
func onlyStringKeywords(s *jsonval.Value) bool {
	for _, m := range s.Members {
		if !annotation(m.Key) && !stringKeyword(m.Key) && !strings.HasPrefix(m.Key, "x-") {
			return false
		}
	}
	return true
}

func onlyAnnotations(s *jsonval.Value) bool {
	for _, m := range s.Members {
		if !annotation(m.Key) && !composedKeyword(m.Key) && m.Key != "dependencies" && !strings.HasPrefix(m.Key, "x-") && m.Key != "$defs" && m.Key != "definitions" && m.Key != "$schema" && m.Key != "$id" && m.Key != "$anchor" {
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
		case !slices.Contains(schemaMetaMembers, m.Key) && suggest(m.Key, schemaMetaMembers) != "":
			b.fail(ptr+"/x-toolgate/"+escapePointer(m.Key), "x-toolgate", "unknown x-toolgate member %q%s", m.Key, didYouMean(m.Key, schemaMetaMembers))
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
