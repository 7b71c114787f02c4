package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

func (e *emitter) decodeArray(n *node, set setter) []jen.Code {
	e.depth++
	defer func() { e.depth-- }()
	i := jen.Id(fmt.Sprintf("i%d", e.depth))
	items := jen.Id(fmt.Sprintf("items%d", e.depth))
	var out []jen.Code
	if n.tupled || n.enum != nil {
		out = append(out, jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()))
	}
	// The items are collected in a buffer on the stack and copied once
	// (tgimpl.Own); past maxItems they are still read and checked but no
	// longer kept, since the call is refused.
	buffered := 8
	if n.maxItems >= 1 && n.maxItems < int64(buffered) {
		buffered = int(n.maxItems)
	}
	if !n.tupled {
		elem := jen.Qual(pkgJSON, "RawMessage")
		if n.items != nil {
			elem = e.elemType(n.items)
		}
		buf := jen.Id(fmt.Sprintf("buf%d", e.depth))
		out = append(out,
			jen.Var().Add(buf).Index(jen.Lit(buffered)).Add(elem),
			items.Clone().Op(":=").Add(buf).Index(jen.Empty(), jen.Lit(0)))
	}
	if n.unique {
		out = append(out,
			jen.Var().Id("rawBuf").Index(jen.Lit(buffered)).Index().Byte(),
			jen.Id("raws").Op(":=").Id("rawBuf").Index(jen.Empty(), jen.Lit(0)))
	}
	keep := func(x jen.Code) jen.Code {
		add := items.Clone().Op("=").Append(items, x)
		if n.maxItems < 0 {
			return add
		}
		return jen.If(i.Clone().Op("<").Lit(int(n.maxItems))).Block(add)
	}
	var body []jen.Code
	body = append(body, d().Dot("PushIndex").Call(i))
	if n.maxItems >= 0 {
		body = append(body, jen.If(i.Clone().Op("==").Lit(int(n.maxItems))).Block(d().Dot("Drop").Call()))
	}
	if n.unique {
		body = append(body, jen.Id("from").Op(":=").Add(dr().Dot("Offset").Call()))
	}
	switch {
	case n.tupled:
		var cases []jen.Code
		for k, p := range n.prefix {
			cases = append(cases, jen.Case(jen.Lit(k)).Block(e.decodeValue(p, discard)...))
		}
		rest := []jen.Code{dr().Dot("Skip").Call()}
		if n.items != nil {
			rest = e.decodeValue(n.items, discard)
		}
		cases = append(cases, jen.Default().Block(rest...))
		body = append(body, jen.Switch(i).Block(cases...))
	case n.items == nil:
		body = append(body, keep(d().Dot("Raw").Call()))
	default:
		body = append(body, e.decodeValue(n.items, e.elemSetter(n.items, keep))...)
	}
	if n.unique {
		body = append(body, jen.Id("raws").Op("=").Append(jen.Id("raws"), dr().Dot("Capture").Call(jen.Id("from"))))
	}
	body = append(body, d().Dot("Pop").Call())
	out = append(out,
		dr().Dot("ArrayStart").Call(),
		i.Clone().Op(":=").Lit(0),
		jen.For(dr().Dot("NextItem").Call()).Block(append(body, i.Clone().Op("++"))...),
	)
	if n.minItems > 0 {
		out = append(out, jen.If(i.Clone().Op("<").Lit(int(n.minItems))).Block(d().Dot("MinItems").Call(jen.Lit(n.ptr+"/minItems"), jen.Lit(int(n.minItems)), i)))
	}
	if n.maxItems >= 0 {
		out = append(out, jen.If(i.Clone().Op(">").Lit(int(n.maxItems))).Block(d().Dot("MaxItems").Call(jen.Lit(n.ptr+"/maxItems"), jen.Lit(int(n.maxItems)), i)))
	}
	if n.unique {
		out = append(out, d().Dot("UniqueItems").Call(jen.Lit(n.ptr+"/uniqueItems"), jen.Id("raws")))
	}
	out = append(out, e.rawEnumCheck(n)...)
	if n.tupled {
		return append(out, set.value(d().Dot("Capture").Call(jen.Id("start"))))
	}
	return append(out, set.value(jen.Qual(pkgTgimpl, "Own").Call(items)))
}
