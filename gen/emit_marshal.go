package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// ---- encoding ----

func (e *emitter) emitAppendMethod(n *node) {
	var body []jen.Code
	if len(n.props) == 0 && !n.keepsUndeclared() {
		body = append(body, jen.Return(jen.Append(jen.Id("b"), jen.Lit("{}").Op("..."))))
		e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
		e.f.Line()
		e.emitMarshal(n)
		return
	}
	body = append(body, jen.Id("start").Op(":=").Len(jen.Id("b")), jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')))
	for _, p := range n.props {
		member := jen.Id("b").Op("=").Qual(pkgTgimpl, "Member").Call(jen.Id("b"), jen.Id("start"), jen.Lit(p.name))
		field := jen.Id("v").Dot(p.goName)
		scalar := scalarMember(p)
		switch {
		case scalar != nil && p.required:
			body = append(body, scalar(field))
		case scalar != nil:
			body = append(body, optionalScalarMember(p, field))
		case p.node.nullable:
			body = append(body, jen.Switch(field.Clone().Dot("State").Call()).Block(
				jen.Case(jen.Qual(pkgOpt, "Null")).Block(member, jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("..."))),
				jen.Case(jen.Qual(pkgOpt, "Present")).Block(append([]jen.Code{
					jen.List(jen.Id("x"), jen.Id("_")).Op(":=").Add(field.Clone().Dot("Get").Call()),
					member.Clone()}, e.appendValue(p.node, jen.Id("x"))...)...),
			))
		case !p.required && (p.node.kind == kindNull || p.node.kind == kindNever):
			body = append(body, jen.If(field.Clone().Dot("IsSet").Call()).Block(
				append([]jen.Code{member}, e.appendValue(p.node, jen.Id("x"))...)...))
		case !p.required:
			body = append(body, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(field.Clone().Dot("Get").Call()), jen.Id("ok")).Block(
				append([]jen.Code{member}, e.appendValue(p.node, jen.Id("x"))...)...))
		default:
			body = append(body, member)
			body = append(body, e.appendValue(p.node, field)...)
		}
	}
	if n.keepsUndeclared() {
		body = append(body, jen.For(jen.List(jen.Id("key"), jen.Id("x")).Op(":=").Range().Qual(pkgTgimpl, "SortedKeys").Call(jen.Id("v").Dot("AdditionalProperties"))).Block(
			append([]jen.Code{jen.Id("b").Op("=").Qual(pkgTgimpl, "Member").Call(jen.Id("b"), jen.Id("start"), jen.Id("key"))}, e.appendElem(n.addlNode, jen.Id("x"))...)...))
	}
	if n.keepPatterned {
		body = append(body, jen.For(jen.List(jen.Id("key"), jen.Id("x")).Op(":=").Range().Qual(pkgTgimpl, "SortedKeys").Call(jen.Id("v").Dot("PatternProperties"))).Block(
			jen.Id("b").Op("=").Qual(pkgTgimpl, "Member").Call(jen.Id("b"), jen.Id("start"), jen.Id("key")),
			jen.Id("b").Op("=").Qual(pkgTgimpl, "AppendRaw").Call(jen.Id("b"), jen.Id("x"))))
	}
	body = append(body, jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}'))))
	e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
	e.f.Line()
	e.emitMarshal(n)
}

func (e *emitter) emitMarshal(n *node) {
	e.doc("MarshalJSON writes v as JSON: missing stays missing and null stays null.")
	e.f.Func().Params(jen.Id("v").Id(n.goName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("appendJSON").Call(jen.Nil()), jen.Nil()))
	e.f.Line()
}

// scalarMember returns, for a member holding a boolean, integer, number or
// string that is not nullable, the statement that appends it with its name
// (tgimpl.StringMember and the like), and nil for any other member.
func scalarMember(p *prop) func(x *jen.Statement) jen.Code {
	n := p.node
	if n.nullable || taggedSite(n) != nil {
		return nil
	}
	fn := map[kind]string{kindBool: "BoolMember", kindInt: "IntMember", kindNumber: "FloatMember", kindString: "StringMember"}[n.kind]
	if fn == "" {
		return nil
	}
	return func(x *jen.Statement) jen.Code {
		if n.kind == kindString && n.goName != "" {
			x = jen.String().Call(x)
		}
		return jen.Id("b").Op("=").Qual(pkgTgimpl, fn).Call(jen.Id("b"), jen.Id("start"), jen.Lit(p.name), x)
	}
}

// optionalScalarMember is the statement that appends the optional member
// p of scalarMember's kinds, held in field, when it is set
// (tgimpl.OptionalStringMember and the like).
func optionalScalarMember(p *prop, field *jen.Statement) jen.Code {
	fn := map[kind]string{kindBool: "OptionalBoolMember", kindInt: "OptionalIntMember", kindNumber: "OptionalFloatMember", kindString: "OptionalStringMember"}[p.node.kind]
	return jen.Id("b").Op("=").Qual(pkgTgimpl, fn).Call(jen.Id("b"), jen.Id("start"), jen.Lit(p.name), field)
}

// scalarArray names the tgimpl function that appends an array whose items
// are booleans, integers, numbers or strings, none nullable
// (tgimpl.AppendStrings and the like), or "".
func scalarArray(n *node) string {
	if n.tupled || n.items == nil || n.items.nullable || taggedSite(n.items) != nil {
		return ""
	}
	return map[kind]string{kindBool: "AppendBools", kindInt: "AppendInts", kindNumber: "AppendFloats", kindString: "AppendStrings"}[n.items.kind]
}

// appendElem appends an array item or map value, which may be nullable.
func (e *emitter) appendElem(n *node, x *jen.Statement) []jen.Code {
	if !n.nullable {
		return e.appendValue(n, x)
	}
	e.depth++
	defer func() { e.depth-- }()
	y := jen.Id(fmt.Sprintf("y%d", e.depth))
	return []jen.Code{jen.If(jen.List(y, jen.Id("ok")).Op(":=").Add(x.Clone().Dot("Get").Call()), jen.Id("ok")).Block(
		e.appendValue(n, y)...).Else().Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("...")))}
}

// appendValue appends the value x of n.
func (e *emitter) appendValue(n *node, x *jen.Statement) []jen.Code {
	b := jen.Id("b")
	set := func(c jen.Code) []jen.Code { return []jen.Code{b.Clone().Op("=").Add(c)} }
	if taggedSite(n) != nil {
		return set(jen.Add(x).Dot("appendJSON").Call(b))
	}
	switch n.kind {
	case kindBool:
		return set(jen.Qual(pkgTgimpl, "AppendBool").Call(b, x))
	case kindInt:
		return set(jen.Qual(pkgTgimpl, "AppendInt").Call(b, x))
	case kindNumber:
		return set(jen.Qual(pkgTgimpl, "AppendFloat").Call(b, x))
	case kindString:
		if n.goName != "" {
			x = jen.String().Call(x)
		}
		return set(jen.Qual(pkgTgimpl, "AppendString").Call(b, x))
	case kindNull, kindNever:
		return set(jen.Append(b, jen.Lit("null").Op("...")))
	case kindObject:
		if n.hasStruct {
			return set(jen.Add(x).Dot("appendJSON").Call(b))
		}
		e.depth++
		defer func() { e.depth-- }()
		k, v := jen.Id(fmt.Sprintf("k%d", e.depth)), jen.Id(fmt.Sprintf("v%d", e.depth))
		start := jen.Id(fmt.Sprintf("start%d", e.depth))
		// A block of its own: the maps of sibling members each declare
		// their start at the same depth.
		return []jen.Code{jen.Block(
			start.Clone().Op(":=").Len(b),
			b.Clone().Op("=").Append(b, jen.LitRune('{')),
			jen.For(jen.List(k, v).Op(":=").Range().Qual(pkgTgimpl, "SortedKeys").Call(x)).Block(
				append([]jen.Code{b.Clone().Op("=").Qual(pkgTgimpl, "Member").Call(b, start, k)}, e.appendElem(n.addlNode, v)...)...),
			b.Clone().Op("=").Append(b, jen.LitRune('}')),
		)}
	case kindArray:
		if n.tupled {
			break
		}
		if fn := scalarArray(n); fn != "" {
			return set(jen.Qual(pkgTgimpl, fn).Call(b, x))
		}
		e.depth++
		defer func() { e.depth-- }()
		i, v := jen.Id(fmt.Sprintf("i%d", e.depth)), jen.Id(fmt.Sprintf("v%d", e.depth))
		var elem []jen.Code
		if n.items == nil {
			elem = set(jen.Qual(pkgTgimpl, "AppendRaw").Call(b, v))
		} else {
			elem = e.appendElem(n.items, v)
		}
		return []jen.Code{
			b.Clone().Op("=").Append(b, jen.LitRune('[')),
			jen.For(jen.List(i, v).Op(":=").Range().Add(x)).Block(
				append([]jen.Code{jen.If(i.Clone().Op(">").Lit(0)).Block(b.Clone().Op("=").Append(b, jen.LitRune(',')))}, elem...)...),
			b.Clone().Op("=").Append(b, jen.LitRune(']')),
		}
	}
	return set(jen.Qual(pkgTgimpl, "AppendRaw").Call(b, x))
}
