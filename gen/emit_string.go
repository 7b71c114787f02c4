package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/format"
)

func (e *emitter) decodeString(n *node, set setter) []jen.Code {
	s := jen.Id("s")
	out := []jen.Code{s.Clone().Op(":=").Add(dr().Dot("String").Call())}
	got := e.got(n, d().Dot("Quote").Call(s))
	if n.minLen >= 0 || n.maxLen >= 0 {
		out = append(out, jen.Id("length").Op(":=").Qual(pkgTgimpl, "RuneCount").Call(s))
		if n.minLen >= 0 {
			out = append(out, jen.If(jen.Id("length").Op("<").Lit(int(n.minLen))).Block(
				d().Dot("MinLength").Call(jen.Lit(n.ptr+"/minLength"), jen.Lit(int(n.minLen)), jen.Id("length"))))
		}
		if n.maxLen >= 0 {
			out = append(out, jen.If(jen.Id("length").Op(">").Lit(int(n.maxLen))).Block(
				d().Dot("MaxLength").Call(jen.Lit(n.ptr+"/maxLength"), jen.Lit(int(n.maxLen)), jen.Id("length"))))
		}
	}
	if n.pattern != "" {
		out = append(out, jen.If(jen.Op("!").Add(e.patternVar(n)).Dot("Match").Call(s)).Block(
			d().Dot("Pattern").Call(jen.Lit(n.ptr+"/pattern"), jen.Lit(n.pattern), got)))
	}
	// The format is checked on a view of the bytes; the Go string is made
	// last, by Value, which does not copy a refused value.
	str := d().Dot("Value").Call(s)
	if n.format != "" {
		fn := formatFunc(n.format)
		out = append(out,
			jen.If(jen.Op("!").Qual(pkgFormat, fn).Call(jen.Qual(pkgTgimpl, "View").Call(s))).Block(
				d().Dot("Format").Call(jen.Lit(n.ptr+"/format"), jen.Lit(format.Description(n.format)), got)))
	}
	if n.enum == nil && set.discard && n.format == "" {
		return append(out, set.value(s))
	}
	if n.enum == nil {
		return append(out, set.value(str))
	}
	return append(out, e.stringEnum(n, set))
}

// stringEnum stores the string s of the enum n: a switch on the bytes,
// which the compiler does without allocating; a named enum type stores
// its constant.
func (e *emitter) stringEnum(n *node, set setter) jen.Code {
	s := jen.Id("s")
	var cases []jen.Code
	for _, v := range n.enum {
		if v.Kind != jsonval.String {
			continue
		}
		if n.goName != "" {
			cases = append(cases, jen.Case(jen.Lit(v.Str)).Block(set.value(jen.Id(n.enumConsts[v.Str]))))
		} else {
			cases = append(cases, jen.Case(jen.Lit(v.Str)).Block(set.value(d().Dot("Value").Call(s.Clone()))))
		}
	}
	cases = append(cases, jen.Default().Block(e.enumViolation(n, e.got(n, d().Dot("Quote").Call(s.Clone())))))
	return jen.Switch(jen.String().Call(s)).Block(cases...)
}

func formatFunc(name string) string {
	switch name {
	case "date-time":
		return "DateTime"
	case "uuid":
		return "UUID"
	case "uri":
		return "URI"
	case "ipv4":
		return "IPv4"
	case "ipv6":
		return "IPv6"
	}
	return upperFirst(name)
}
