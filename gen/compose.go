package gen

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// Composition: the keywords that look at a whole value rather than at one
// JSON type's content. The decoder reads the value as its own keywords say
// (typed, or kept raw when the schema gives no type), then checks these on
// the bytes it has just read: no second pass over the document, one pass
// over the value's own bytes per branch that must be tried (see
// runtime/internal/decode/compose.go).

// composedKeyword reports whether k is a keyword a composition holds
// (schema.Composed).
func composedKeyword(k string) bool {
	return schema.Is(k, func(kw schema.Keyword) bool { return kw.Enforced == schema.Composed })
}

// branch is a subschema checked on the value's bytes, with its schema
// pointer (the keyword's pointer for a single subschema).
type branch struct {
	n  *node
	sp string
}

// composition is what a schema requires of a whole value besides its typed
// keywords.
type composition struct {
	ref                 *branch // the $ref beside other keywords (2020-12)
	allOf, anyOf, oneOf []branch
	not                 *branch
	ifB, thenB, elseB   *branch

	minProps, maxProps int64 // -1 when absent
	depRequired        []depRequired
	depSchemas         []depSchema
	propNames          *branch
	patterns           []patternProp

	contains                 *branch
	minContains, maxContains int64 // maxContains -1 when absent

	unevalProps, unevalItems *branch
	seen                     seenInfo

	// owner is the node whose patternProperties these are.
	owner *node
	// matchOnly marks the composition of a union's object variant: it only
	// lets the member loop accept the names patternProperties covers; the
	// union's own node checks the values.
	matchOnly bool
}

// seenInfo is what a schema evaluates of a value by its own keywords,
// besides patternProperties and contains (held above): for the
// unevaluated keywords of a schema it is a branch of.
type seenInfo struct {
	names    []string // properties
	allNames bool     // additionalProperties
	prefix   int      // prefixItems (draft-07: items as an array)
	allItems bool     // items (draft-07: additionalItems, or items as one schema)
}

func (si seenInfo) empty() bool {
	return len(si.names) == 0 && !si.allNames && si.prefix == 0 && !si.allItems
}

// evaluates reports whether n, where it holds, evaluates anything of the
// value for unevaluatedProperties or unevaluatedItems.
func (c *composition) evaluates() bool {
	return c != nil && !c.matchOnly && (!c.seen.empty() || len(c.patterns) > 0 || c.contains != nil || c.unevalProps != nil || c.unevalItems != nil || len(c.sameValue()) > 0)
}

type depRequired struct {
	name, sp string
	deps     []string
}

type depSchema struct {
	name string
	b    branch
}

type patternProp struct {
	pattern, goPattern, sp string
	b                      branch
}

// nodes lists the subschemas of c (nil: none), in keyword order.
func (c *composition) nodes() []*node {
	if c == nil {
		return nil
	}
	var out []*node
	one := func(b *branch) {
		if b != nil {
			out = append(out, b.n)
		}
	}
	many := func(bs []branch) {
		for i := range bs {
			out = append(out, bs[i].n)
		}
	}
	one(c.ref)
	many(c.allOf)
	many(c.anyOf)
	many(c.oneOf)
	one(c.not)
	one(c.ifB)
	one(c.thenB)
	one(c.elseB)
	for i := range c.depSchemas {
		out = append(out, c.depSchemas[i].b.n)
	}
	one(c.propNames)
	for i := range c.patterns {
		out = append(out, c.patterns[i].b.n)
	}
	one(c.contains)
	one(c.unevalProps)
	one(c.unevalItems)
	return out
}

// checks reports whether c has anything to check on a value.
func (c *composition) checks() bool {
	return c != nil && !c.matchOnly && (c.ref != nil || len(c.allOf)+len(c.anyOf)+len(c.oneOf) > 0 || c.not != nil ||
		c.ifB != nil || c.objectChecks() || c.contains != nil || c.unevalProps != nil || c.unevalItems != nil)
}

// unevaluatedChecks reports whether the value's members or items are
// checked against unevaluatedProperties or unevaluatedItems.
func (c *composition) unevaluatedChecks() bool {
	return c.unevalProps != nil && c.unevalProps.n.kind != kindAny || c.unevalItems != nil && c.unevalItems.n.kind != kindAny
}

func (c *composition) objectChecks() bool {
	return c.minProps >= 0 || c.maxProps >= 0 || len(c.depRequired)+len(c.depSchemas)+len(c.patterns) > 0 || c.propNames != nil
}

// hasComposition reports whether s holds a keyword of a composition.
func (b *builder) hasComposition(s *jsonval.Value) bool {
	for _, m := range s.Members {
		if composedKeyword(m.Key) || b.draft7 && m.Key == "dependencies" {
			return true
		}
	}
	return false
}

// fillComposition reads the composition keywords of s into n.comp.
func (b *builder) fillComposition(n *node, ptr string, s *jsonval.Value, name string) {
	si := b.seenInfo(s)
	if !b.hasComposition(s) && si.empty() {
		return
	}
	base := b.childBase(ptr, name)
	c := &composition{minProps: -1, maxProps: -1, minContains: 1, maxContains: -1, seen: si}
	sub := func(kw, suffix string) *branch {
		v := s.Get(kw)
		if v == nil {
			return nil
		}
		sp := ptr + "/" + kw
		return &branch{n: b.build(sp, v, base+suffix), sp: sp}
	}
	list := func(kw, suffix string) []branch {
		v := s.Get(kw)
		if v == nil {
			return nil
		}
		if v.Kind != jsonval.Array || len(v.Items) == 0 {
			b.fail(ptr+"/"+kw, kw, "%s must be a non-empty array of schemas", kw)
			return nil
		}
		names, notes := make([]string, len(v.Items)), make([]string, len(v.Items))
		for i := range v.Items {
			names[i] = fmt.Sprintf("%s%d", suffix, i)
		}
		if kw != "allOf" {
			names, notes = branchNames(kw, v.Items)
		}
		out := make([]branch, len(v.Items))
		for i, it := range v.Items {
			sp := fmt.Sprintf("%s/%s/%d", ptr, kw, i)
			out[i] = branch{n: b.build(sp, it, base+names[i]), sp: sp}
			if out[i].n.name == base+names[i] {
				out[i].n.indexNote = notes[i]
			}
		}
		return out
	}
	c.allOf = list("allOf", "AllOf")
	c.anyOf = list("anyOf", "AnyOf")
	c.oneOf = list("oneOf", "OneOf")
	c.not = sub("not", "Not")
	if c.ifB = sub("if", "If"); c.ifB != nil {
		c.thenB = sub("then", "Then")
		c.elseB = sub("else", "Else")
	}
	c.minProps = b.count(ptr, s, "minProperties")
	c.maxProps = b.count(ptr, s, "maxProperties")
	b.fillDependencies(c, ptr, s, base)
	c.propNames = sub("propertyNames", "Name")
	if pp := s.Get("patternProperties"); pp != nil {
		if pp.Kind != jsonval.Object {
			b.fail(ptr+"/patternProperties", "patternProperties", "patternProperties must be an object")
		}
		for i, m := range pp.Members {
			sp := ptr + "/patternProperties/" + escapePointer(m.Key)
			re, err := ecmaToRE2(m.Key)
			if err != nil {
				b.fail(sp, "patternProperties", "Go's regexp cannot compile %q: %v", m.Key, err)
				continue
			}
			c.patterns = append(c.patterns, patternProp{pattern: m.Key, goPattern: re, sp: sp,
				b: branch{n: b.build(sp, m.Value, fmt.Sprintf("%sPattern%d", base, i)), sp: sp}})
		}
	}
	if c.contains = sub("contains", "Contains"); c.contains != nil && !b.draft7 {
		if s.Has("minContains") {
			c.minContains = b.count(ptr, s, "minContains")
		}
		c.maxContains = b.count(ptr, s, "maxContains")
	}
	c.unevalProps = sub("unevaluatedProperties", "Unevaluated")
	c.unevalItems = sub("unevaluatedItems", "UnevaluatedItem")
	c.owner = n
	n.comp = c
	for _, v := range n.variants {
		if v.kind == kindObject && len(c.patterns) > 0 {
			v.comp = &composition{patterns: c.patterns, owner: n, matchOnly: true, minProps: -1, maxProps: -1}
		}
	}
}

// seenInfo reads what s evaluates by its own keywords.
func (b *builder) seenInfo(s *jsonval.Value) seenInfo {
	var si seenInfo
	if ps := s.Get("properties"); ps != nil && ps.Kind == jsonval.Object {
		for _, m := range ps.Members {
			si.names = append(si.names, m.Key)
		}
	}
	si.allNames = s.Has("additionalProperties")
	if b.draft7 {
		if it := s.Get("items"); it != nil && it.Kind == jsonval.Array {
			si.prefix = len(it.Items)
			si.allItems = s.Has("additionalItems")
		} else {
			si.allItems = it != nil
		}
		return si
	}
	if p := s.Get("prefixItems"); p != nil && p.Kind == jsonval.Array {
		si.prefix = len(p.Items)
	}
	si.allItems = s.Has("items")
	return si
}

// fillDependencies reads dependentRequired and dependentSchemas, or
// draft-07's dependencies, which holds both.
func (b *builder) fillDependencies(c *composition, ptr string, s *jsonval.Value, base string) {
	for _, kw := range []string{"dependentRequired", "dependentSchemas", "dependencies"} {
		v := s.Get(kw)
		if v == nil || kw == "dependencies" && !b.draft7 {
			continue
		}
		if v.Kind != jsonval.Object {
			b.fail(ptr+"/"+kw, kw, "%s must be an object", kw)
			continue
		}
		for i, m := range v.Members {
			sp := ptr + "/" + kw + "/" + escapePointer(m.Key)
			switch {
			case m.Value.Kind == jsonval.Array && kw != "dependentSchemas":
				dr := depRequired{name: m.Key, sp: sp}
				for _, it := range m.Value.Items {
					if it.Kind != jsonval.String {
						b.fail(sp, kw, "%s of %q must be an array of strings", kw, m.Key)
						continue
					}
					dr.deps = append(dr.deps, it.Str)
				}
				c.depRequired = append(c.depRequired, dr)
			case kw != "dependentRequired":
				c.depSchemas = append(c.depSchemas, depSchema{name: m.Key, b: branch{n: b.build(sp, m.Value, fmt.Sprintf("%sDependency%d", base, i)), sp: sp}})
			default:
				b.fail(sp, kw, "%s of %q must be an array of strings", kw, m.Key)
			}
		}
	}
}

// refBesideKeywords reports whether a 2020-12 schema with $ref has
// keywords beside it that assert something: the $ref is then one more
// schema the value must match, like a branch of allOf.
func (b *builder) refBesideKeywords(ptr string, s *jsonval.Value) bool {
	if b.draft7 {
		return false
	}
	for _, m := range s.Members {
		switch {
		case m.Key == "$ref", annotation(m.Key), m.Key == "$defs", m.Key == "definitions", strings.HasPrefix(m.Key, "x-"):
		case m.Key == "$id", m.Key == "$anchor", ptr == "" && m.Key == "$schema":
		default:
			return true
		}
	}
	return false
}

// buildRefBeside builds a schema that has assertions beside its $ref: the
// schema without the $ref, with the reference checked as a branch.
func (b *builder) buildRefBeside(ptr string, s *jsonval.Value, name string) *node {
	rest := s.Clone()
	rest.Delete("$ref")
	n := b.build(ptr, rest, name)
	only := &jsonval.Value{Kind: jsonval.Object}
	only.Set("$ref", s.Get("$ref"))
	target := b.buildRef(ptr+"/$ref", only, name+"Ref")
	if n.comp == nil {
		n.comp = &composition{owner: n, minProps: -1, maxProps: -1, minContains: 1, maxContains: -1}
	}
	n.comp.ref = &branch{n: target, sp: ptr + "/$ref"}
	return n
}

// sameValue lists the subschemas of c that apply to the very value c's
// node applies to (not to a member or an item of it), but for not, whose
// evaluation never counts.
func (c *composition) sameValue() []*branch {
	if c == nil {
		return nil
	}
	var out []*branch
	for _, b := range []*branch{c.ref, c.ifB, c.thenB, c.elseB} {
		if b != nil {
			out = append(out, b)
		}
	}
	for _, list := range [][]branch{c.allOf, c.anyOf, c.oneOf} {
		for i := range list {
			out = append(out, &list[i])
		}
	}
	for i := range c.depSchemas {
		out = append(out, &c.depSchemas[i].b)
	}
	return out
}

// discriminator finds a member that every branch requires with one
// constant value, the values pairwise different (a tagged union): the
// member's name and the JSON text of each branch's value. Only object
// values can then match, and each at most the branch its value names.
func discriminator(branches []branch) (name string, values []string, ok bool) {
	if len(branches) < 2 || len(branches) > 64 {
		return "", nil, false
	}
	objects := make([]*node, len(branches))
	for i, b := range branches {
		objects[i] = objectPart(b.n)
		if objects[i] == nil {
			return "", nil, false
		}
	}
candidates:
	for _, p := range objects[0].props {
		var vals []*jsonval.Value
		for _, o := range objects {
			v := tagValue(o, p.name)
			if v == nil {
				continue candidates
			}
			for _, w := range vals {
				if jsonval.Equal(v, w) {
					continue candidates
				}
			}
			vals = append(vals, v)
		}
		for _, v := range vals {
			values = append(values, string(v.Marshal()))
		}
		return p.name, values, true
	}
	return "", nil, false
}

// objectPart is the node that reads n's objects: n, or a union's object
// variant.
func objectPart(n *node) *node {
	switch n.kind {
	case kindObject:
		return n
	case kindUnion:
		for _, v := range n.variants {
			if v.kind == kindObject {
				return v
			}
		}
	}
	return nil
}

// tagValue is the one value that object node o requires of member name.
func tagValue(o *node, name string) *jsonval.Value {
	for _, p := range o.props {
		if p.name == name && p.required && len(p.node.enumAll) == 1 && !p.node.nullable {
			return p.node.enumAll[0]
		}
	}
	return nil
}
