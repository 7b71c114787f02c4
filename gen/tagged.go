package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/tgimpl"
)

// Tagged unions: a oneOf (or anyOf) whose branches are objects that each
// require one member (the tag) with a constant value, the values different
// ({"oneOf": [{"type": "object", "properties": {"kind": {"const": "cat"},
// ...}, "required": ["kind"]}, ...]}: Pydantic's discriminated unions,
// OpenAPI's discriminator). At most the branch the tag names can match, so
// the decoder first reads the value's members up to the tag (usually the
// first), from the bytes ahead, then decodes the value with the main
// decoder as the branch the tag names: every violation points into the
// value, as for any object, and no other branch is tried.
// The closure of the site (unevaluatedProperties: false) is exactly the
// branch's own closure, since the branch alone evaluates the value: the
// branch is decoded closed (decodeIn). See BenchmarkDecode in
// gen/internal/composebench for the cost against a plain object.

// taggedUnion describes a site decoded as a tagged union.
type taggedUnion struct {
	kw       string // "oneOf" or "anyOf"
	branches []branch
	tag      string
	values   []string
	// closedBy is the pointer of the site's unevaluatedProperties: false,
	// "" when the site leaves its branches open.
	closedBy string
	// byType: the branches are told apart by their JSON types, which are
	// pairwise different (string | object), not by a tag.
	byType bool
}

// taggedUnion returns how n is decoded as a tagged union, or nil when it
// is not one: n has no type and no keyword but the union (and its
// closure), and every branch is a plain struct with nothing to evaluate
// but its declared properties.
func taggedSite(n *node) *taggedUnion {
	c := n.comp
	if n.kind != kindAny || c == nil || c.matchOnly || c.ref != nil || len(c.allOf) > 0 || c.not != nil || c.ifB != nil ||
		c.objectChecks() || c.contains != nil || c.unevalItems != nil || !c.seen.empty() || len(c.patterns) > 0 {
		return nil
	}
	if c.unevalProps != nil && c.unevalProps.n.kind != kindNever {
		return nil
	}
	t := &taggedUnion{kw: "oneOf", branches: c.oneOf}
	if c.unevalProps != nil {
		t.closedBy = c.unevalProps.sp
	}
	switch {
	case len(c.oneOf) > 0 && len(c.anyOf) == 0:
	case len(c.anyOf) > 0 && len(c.oneOf) == 0:
		t.kw, t.branches = "anyOf", c.anyOf
	default:
		return nil
	}
	if disjointTypes(t.branches) {
		t.byType = true
		return t
	}
	for _, b := range t.branches {
		if !plainStruct(b.n) || b.n.enum != nil {
			return nil
		}
	}
	var ok bool
	if t.tag, t.values, ok = discriminator(t.branches); !ok {
		return nil
	}
	return t
}

// plainStruct reports whether n is a struct with nothing to check or
// evaluate but its declared properties. A struct closed by its own
// additionalProperties: false is one too: that keyword evaluates every
// member, but the struct's decoder refuses every member it does not
// declare (OpenAI's strict mode needs such branches closed). So is an open
// struct that keeps its undeclared members (keptOpen, undeclared.go).
func plainStruct(n *node) bool {
	c := n.comp
	return n.kind == kindObject && n.hasStruct && !n.nullable && (n.addl != addlSchema || n.keptOpen) &&
		(c == nil || !c.checks() && len(c.patterns) == 0 && (!c.seen.allNames || n.addl == addlClosed) && len(c.sameValue()) == 0)
}

// disjointTypes reports whether each branch takes one JSON type, a
// different one: a value's first byte then names the only branch that can
// match.
func disjointTypes(branches []branch) bool {
	seen := map[string]bool{}
	for _, b := range branches {
		n := b.n
		switch n.kind {
		case kindBool, kindInt, kindNumber, kindString, kindArray:
			if n.nullable || n.comp.checks() || n.kind == kindArray && n.comp != nil && len(n.comp.sameValue()) > 0 {
				return false
			}
		case kindObject:
			if !plainStruct(n) || n.enum != nil {
				return false
			}
		default:
			return false
		}
		if seen[tokenKind(n.kind)] {
			return false
		}
		seen[tokenKind(n.kind)] = true
	}
	return true
}

// decodeTagged reads a tagged union's value into set with the union
// type's decodeJSON method.
func (e *emitter) decodeTagged(n *node, set setter) []jen.Code {
	if set.target != nil {
		return []jen.Code{set.target.Clone().Dot("decodeJSON").Call(d())}
	}
	u := jen.Id("u")
	code := []jen.Code{jen.Var().Add(u).Id(unionType(n)), u.Clone().Dot("decodeJSON").Call(d())}
	if !set.discard {
		code = append(code, set.value(u.Clone()))
	}
	return []jen.Code{jen.Block(code...)}
}

// unionBody is the body of a tagged union's decodeJSON method: look ahead
// for its tag, then decode the value as the branch the tag names, into *u.
func (e *emitter) unionBody(n *node, t *taggedUnion) []jen.Code {
	set := setter{value: func(x jen.Code) jen.Code { return jen.Op("*").Id("u").Op("=").Add(x) }}
	if t.byType {
		return e.decodeByType(n, set, t)
	}
	args := []jen.Code{dr().Dot("Data").Call().Index(jen.Id("start").Op(":")), jen.Lit(t.tag)}
	for _, v := range t.values {
		args = append(args, jen.Lit(v))
	}
	var cases []jen.Code
	for i, b := range t.branches {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(
			branchVar(b.n),
			decodeCall(jen.Id("o"), t.closedAt(b)),
			set.value(jen.Id(unionType(n)).Values(jen.Dict{jen.Id("branch"): jen.Lit(i + 1), jen.Id(branchField(i)): jen.Id("o")})),
		))
	}
	cases = append(cases, jen.Default().Block(dr().Dot("Skip").Call(), jen.If(dr().Dot("Err").Call().Op("==").Nil()).Block(noBranch(n.ptr, t.kw))))
	return []jen.Code{
		jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()),
		jen.Switch(jen.Qual(pkgTgimpl, "Tag").Call(args...)).Block(cases...),
	}
}

// branchVar declares o, the struct a branch decodes into: a pointer when
// the branch contains the union again (its field is then a pointer, as
// for any struct on a cycle).
func branchVar(n *node) jen.Code {
	if n.onCycle {
		return jen.Id("o").Op(":=").New(jen.Id(n.goName))
	}
	return jen.Var().Id("o").Id(n.goName)
}

// declareTagged declares the union type of a tagged union and its
// branches.
func (e *emitter) declareTagged(n *node, t *taggedUnion) {
	e.declareUnionType(n, t)
	for _, b := range t.branches {
		e.declare(b.n)
	}
}

// closedAt is the pointer of the unevaluatedProperties that closes branch
// b of the union, or "" when b is decoded as its own schema says.
func (t *taggedUnion) closedAt(b branch) string {
	if t.closedBy != "" && b.n.kind == kindObject && b.n.addl == addlOpen {
		return t.closedBy
	}
	return ""
}

// closedBy is the pointer of the unevaluatedProperties that closes the
// struct of n, a nullable copy of an open struct, or "".
func closedBy(n *node) string {
	if n.nullOf != nil && n.addl == addlClosed && n.nullOf.addl == addlOpen {
		return n.addlPtr
	}
	return ""
}

// closableStructs lists the open structs of tm that a composition also
// decodes closed: the branches of a closed tagged union, and the structs
// of closed nullable copies.
func closableStructs(tm *toolModel) map[*node]bool {
	out := map[*node]bool{}
	for _, root := range tm.roots() {
		walkNodes(root, func(n *node) {
			if closedBy(n) != "" {
				out[n.nullOf] = true
			}
			if t := taggedSite(n); t != nil {
				for _, b := range t.branches {
					if t.closedAt(b) != "" {
						out[b.n] = true
					}
				}
			}
		})
	}
	return out
}

// unionType is the Go type of a tagged union's values (assignNames).
func unionType(n *node) string { return n.goName }

func branchField(i int) string { return fmt.Sprintf("b%d", i) }

// accessors names each branch's accessor after its tag value (cat → Cat),
// or Branch0, Branch1, … when the values do not all make distinct Go
// names.
func accessors(t *taggedUnion) []string {
	if t.byType {
		var names []string
		for _, b := range t.branches {
			names = append(names, typeAccessor(b.n.kind))
		}
		return names
	}
	names := make([]string, len(t.values))
	taken := map[string]bool{"MarshalJSON": true, "UnmarshalJSON": true}
	for i, v := range t.values {
		val, err := jsonval.Parse([]byte(v))
		name := ""
		if err == nil && val.Kind == jsonval.String {
			name = goIdent(val.Str)
		}
		if !isGoIdentifier(name) || taken[name] {
			for j := range names {
				names[j] = fmt.Sprintf("Branch%d", j)
			}
			return names
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

// declareUnionType writes a tagged union's Go type: a small sum type that
// holds one branch's struct by value (no allocation; the zero value holds
// none), an accessor per branch, and the JSON methods.
func (e *emitter) declareUnionType(n *node, t *taggedUnion) {
	name := unionType(n)
	e.claim(name, "the tagged union of "+e.where(n))
	names := accessors(t)
	fields := []jen.Code{jen.Id("branch").Int().Comment("1 + the index of the branch held; 0: none")}
	for i, b := range t.branches {
		fields = append(fields, jen.Id(branchField(i)).Add(e.goType(b.n)))
	}
	doc := fmt.Sprintf("%s is the value of %s: exactly one of %d object shapes, told apart by its member %q (a tagged %s). "+
		"It holds the branch the tag names, decoded and checked; read it with the accessor of the branch:\n\n", name, e.where(n), len(t.branches), t.tag, t.kw)
	if t.byType {
		doc = fmt.Sprintf("%s is the value of %s: one of %d JSON types (the branches of its %s take disjoint types), the value's type naming the branch. "+
			"It holds that branch, decoded and checked; read it with the accessor of its type:\n\n", name, e.where(n), len(t.branches), t.kw)
	}
	e.doc(doc)
	e.f.Comment("\t" + "if x, ok := v." + names[0] + "(); ok {")
	e.f.Comment("\t\t// x is the " + typePhrase(t.branches[0].n) + " value")
	e.f.Comment("\t}")
	e.f.Type().Id(name).Struct(fields...)
	e.f.Line()
	for i, b := range t.branches {
		if t.byType {
			e.doc(fmt.Sprintf("%s returns the value if it is %s, and whether it is.", names[i], tgimpl.Article(typePhrase(b.n))))
		} else {
			e.doc(fmt.Sprintf("%s returns the branch whose %s is %s, and whether the value is that branch.", names[i], t.tag, t.values[i]))
		}
		e.f.Func().Params(jen.Id("u").Id(name)).Id(names[i]).Params().Params(e.goType(b.n), jen.Bool()).Block(
			jen.Return(jen.Id("u").Dot(branchField(i)), jen.Id("u").Dot("branch").Op("==").Lit(i+1)))
		e.f.Line()
	}
	var cases []jen.Code
	for i, b := range t.branches {
		body := append(e.appendValue(b.n, jen.Id("u").Dot(branchField(i))), jen.Return(jen.Id("b")))
		cases = append(cases, jen.Case(jen.Lit(i+1)).Block(body...))
	}
	e.doc("appendJSON appends the branch held to b as JSON (null when none is).")
	e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(
		jen.Switch(jen.Id("u").Dot("branch")).Block(cases...),
		jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("..."))),
	)
	e.f.Line()
	e.doc("MarshalJSON encodes the branch u holds.")
	e.f.Func().Params(jen.Id("u").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("u").Dot("appendJSON").Call(jen.Nil()), jen.Nil()))
	e.f.Line()
	e.collectScalars(func() {
		e.doc(fmt.Sprintf("decodeJSON reads the value of %s into u, checking every rule of the branch it is.", e.where(n)))
		e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("decodeJSON").Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")).Block(e.unionBody(n, t)...)
		e.f.Line()
	})
	body := []jen.Code{
		jen.Var().Id("decoded").Id(name),
		jen.Var().Id("d").Qual(pkgTgimpl, "Decoder"),
		jen.Id("d").Dot("Reset").Call(jen.Id(e.tm.goName+"ToolName"), jen.Id("data")),
		jen.Id("decoded").Dot("decodeJSON").Call(jen.Op("&").Id("d")),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("u").Op("=").Id("decoded"),
		jen.Return(jen.Nil()),
	}
	e.doc(fmt.Sprintf("UnmarshalJSON decodes u with the strict, single-pass checks of the %s decoder.", e.tm.t.Name))
	e.f.Func().Params(jen.Id("u").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	e.f.Line()
}

// decodeByType reads a union of disjoint JSON types: the value's kind
// names the branch, which reads it.
func (e *emitter) decodeByType(n *node, set setter, t *taggedUnion) []jen.Code {
	var cases []jen.Code
	for i, b := range t.branches {
		store := func(x jen.Code) jen.Code {
			return set.value(jen.Id(unionType(n)).Values(jen.Dict{jen.Id("branch"): jen.Lit(i + 1), jen.Id(branchField(i)): x}))
		}
		var body []jen.Code
		if b.n.kind == kindObject {
			body = []jen.Code{branchVar(b.n), decodeCall(jen.Id("o"), t.closedAt(b)), store(jen.Id("o"))}
		} else {
			body = e.decodeKind(b.n, setter{value: store})
		}
		cases = append(cases, jen.Case(readKind(tokenKind(b.n.kind))).Block(body...))
	}
	cases = append(cases, jen.Case(readKind("Invalid")).Block(dr().Dot("Skip").Call()),
		jen.Default().Block(dr().Dot("Skip").Call(), noBranch(n.ptr, t.kw)))
	return []jen.Code{jen.Switch(dr().Dot("Peek").Call()).Block(cases...)}
}

// noBranch is the violation of a value that no branch of the oneOf or
// anyOf (kw) of the schema at ptr can match.
func noBranch(ptr, kw string) jen.Code {
	if kw == "anyOf" {
		return d().Dot("AnyOf").Call(jen.Lit(ptr + "/anyOf"))
	}
	return d().Dot("OneOf").Call(jen.Lit(ptr+"/oneOf"), jen.Lit(-1), jen.Lit(-1))
}

// typeAccessor names a branch of a union of disjoint JSON types.
func typeAccessor(k kind) string {
	switch k {
	case kindBool:
		return "AsBool"
	case kindInt:
		return "AsInteger"
	case kindNumber:
		return "AsNumber"
	case kindString:
		return "AsString"
	case kindArray:
		return "AsArray"
	}
	return "AsObject"
}
