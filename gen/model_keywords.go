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
		if f := s.Get("format"); f != nil && !b.opts.FormatAnnotation {
			if _, ok := format.Lookup(f.Str); ok {
				n.format = f.Str
			} else if f.Kind == jsonval.String {
				// An unknown format is an annotation in 2020-12: kept in
				// the schema, never asserted (format.Lookup tells the
				// provider projection and the catalog so).
				b.warn(WarnFormatUnknown, ptr+"/format", "format %q is not one toolgate asserts (%s): it is an annotation, not enforced", f.Str, strings.Join(format.Names(), ", "))
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
				if child.kind == kindNever {
					b.neverValid(pptr, m.Key, m.Value, required[m.Key])
				}
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
	if (ptr != "" || b.result) && n.addl == addlOpen && len(n.props) == 0 && !b.declaresMembers(s) {
		b.freeForm(n, ptr)
	}
	n.hasStruct = len(n.props) > 0 || n.addl != addlSchema
}

// neverValid reports member name of an object, whose schema s at ptr no
// value satisfies. Required, no value satisfies the object: an error.
// Optional, it can only be left out: a warning, unless s is false, which
// says that on purpose.
func (b *builder) neverValid(ptr, name string, s *jsonval.Value, required bool) {
	why := "no value satisfies its schema"
	if s.Has("enum") || s.Has("const") {
		why = "none of the values of its enum or const is of its type"
	}
	switch {
	case required:
		b.fail(ptr, "required", "member %q is required but %s: no value can satisfy the schema", name, why)
	case s.Kind != jsonval.Bool:
		b.warn(WarnNeverValid, ptr, "member %q accepts no value (%s): it can only be left out", name, why)
	}
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
// with the compiler that checked the schema (compiler is called only when
// there is a default): an accessor must never hand out a value the decoder
// would refuse. A default that fails is a warning (upstream files carry
// them, such as "dontcare" on a boolean) and is dropped from the model: no
// …OrDefault accessor applies it. The decoder never applies defaults, so
// what is accepted is the same either way.
func (b *builder) checkDefaults(compiler func() (*jsonschema.Compiler, error)) {
	ptrs := make([]string, 0, len(b.nodes))
	for ptr, n := range b.nodes {
		if n.def != nil && n.ptr == ptr {
			ptrs = append(ptrs, ptr)
		}
	}
	if len(ptrs) == 0 {
		return
	}
	sort.Strings(ptrs)
	c, err := compiler()
	if err != nil {
		b.errs = append(b.errs, schemaErrorAt(b.tool, b.key(), b.source(), b.url(), err))
		return
	}
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
			b.warn(WarnDefaultInvalid, ptr+"/default", "the default %s does not satisfy its own schema (%s): it is never applied, and no accessor is generated for it", b.nodes[ptr].def.Marshal(), msg)
			b.nodes[ptr].def = nil
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
