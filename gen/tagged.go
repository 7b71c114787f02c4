package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
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
// branch is decoded closed (decodeClosed). See BenchmarkDecode in
// gen/internal/composebench for the cost against a plain object.

// taggedUnion describes a site decoded as a tagged union.
type taggedUnion struct {
	kw       string // "oneOf" or "anyOf"
	branches []branch
	tag      string
	values   []string
	closed   bool // the site says unevaluatedProperties: false
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
	t := &taggedUnion{kw: "oneOf", branches: c.oneOf, closed: c.unevalProps != nil}
	switch {
	case len(c.oneOf) > 0 && len(c.anyOf) == 0:
	case len(c.anyOf) > 0 && len(c.oneOf) == 0:
		t.kw, t.branches = "anyOf", c.anyOf
	default:
		return nil
	}
	for _, b := range t.branches {
		bc := b.n.comp
		if b.n.kind != kindObject || !b.n.hasStruct || b.n.nullable || b.n.enum != nil || b.n.addl == addlSchema ||
			bc != nil && (bc.checks() || len(bc.patterns) > 0 || bc.seen.allNames || len(bc.sameValue()) > 0) {
			return nil
		}
	}
	var ok bool
	if t.tag, t.values, ok = discriminator(t.branches); !ok {
		return nil
	}
	return t
}

func closedDecode(*node) string { return "decodeClosed" }

// decodeTagged reads a tagged union's value: look ahead for its tag, then
// decode it as the branch the tag names.
func (e *emitter) decodeTagged(n *node, set setter, t *taggedUnion) []jen.Code {
	args := []jen.Code{dr().Dot("Data").Call().Index(jen.Id("start").Op(":")), jen.Lit(t.tag)}
	for _, v := range t.values {
		args = append(args, jen.Lit(v))
	}
	var cases []jen.Code
	for i, b := range t.branches {
		method := "decode"
		if t.closed && b.n.addl == addlOpen {
			method = closedDecode(b.n)
		}
		cases = append(cases, jen.Case(jen.Lit(i)).Block(
			jen.Var().Id("o").Id(b.n.goName),
			jen.Id("o").Dot(method).Call(d()),
			set.value(d().Dot("Capture").Call(jen.Id("start"))),
		))
	}
	none := d().Dot("OneOf").Call(jen.Lit(n.ptr+"/"+t.kw), jen.Lit(-1), jen.Lit(-1))
	if t.kw == "anyOf" {
		none = d().Dot("AnyOf").Call(jen.Lit(n.ptr + "/anyOf"))
	}
	cases = append(cases, jen.Default().Block(dr().Dot("Skip").Call(), jen.If(dr().Dot("Err").Call().Op("==").Nil()).Block(none)))
	return []jen.Code{jen.Block(
		jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()),
		jen.Switch(jen.Qual(pkgTgimpl, "Tag").Call(args...)).Block(cases...),
	)}
}

// declareTagged declares the branches of a tagged union and, where the
// site closes them, their closed decode methods.
func (e *emitter) declareTagged(t *taggedUnion) {
	for _, b := range t.branches {
		e.declare(b.n)
		if !t.closed || b.n.addl != addlOpen {
			continue
		}
		if e.closedDone == nil {
			e.closedDone = map[*node]bool{}
		}
		if e.closedDone[b.n] {
			continue
		}
		e.closedDone[b.n] = true
		closed := *b.n
		closed.addl = addlClosed
		closed.addlPtr = b.sp
		e.doc(fmt.Sprintf("%s reads a %s from d, which is at an object, as a branch of a tagged union that closes it: a member the branch does not declare is a violation.", closedDecode(b.n), b.n.goName))
		e.f.Func().Params(jen.Id("v").Op("*").Id(b.n.goName)).Id(closedDecode(b.n)).Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")).Block(e.memberLoop(&closed, nil)...)
		e.f.Line()
	}
}
