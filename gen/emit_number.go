package gen

import (
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/tgimpl"
)

func (e *emitter) decodeInt(n *node, set setter) []jen.Code {
	raw := jen.Id("raw")
	var checks, hugeChecks []jen.Code
	got := e.got(n, d().Dot("Text").Call(raw))
	x := jen.Id("x")
	bound := func(kw string, b *jsonval.Value, exclusive, lower bool) {
		if b == nil {
			return
		}
		sp := n.ptr + "/" + kw
		report := d().Dot(upperFirst(kw)).Call(jen.Lit(sp), jen.Lit(b.Str), got)
		hugeChecks = append(hugeChecks, jen.If(numCompare(raw, b.Str, exclusive, lower)).Block(report.Clone(), jen.Id("broken").Op("=").True()))
		limit, ok := tgimpl.IntLimit(b.Str, exclusive, lower)
		var cond jen.Code
		switch {
		case ok && lower:
			cond = x.Clone().Op("<").Add(intLit(limit))
		case ok:
			cond = x.Clone().Op(">").Add(intLit(limit))
		default:
			cond = numCompare(raw, b.Str, exclusive, lower)
		}
		checks = append(checks, jen.If(cond).Block(report))
	}
	bound("minimum", n.minimum, false, true)
	bound("exclusiveMinimum", n.exMin, true, true)
	bound("maximum", n.maximum, false, false)
	bound("exclusiveMaximum", n.exMax, true, false)
	if m := n.multipleOf; m != nil {
		var cond jen.Code
		if mi, ok := integerValue(m.Str); ok && mi.IsInt64() {
			cond = x.Clone().Op("%").Add(intLit(mi.Int64())).Op("!=").Lit(0)
		} else {
			cond = jen.Op("!").Qual(pkgJSONNum, "IsMultipleOf").Call(raw, jen.Index().Byte().Call(jen.Lit(m.Str)))
		}
		checks = append(checks, jen.If(cond).Block(d().Dot("MultipleOf").Call(jen.Lit(n.ptr+"/multipleOf"), jen.Lit(m.Str), got)))
	}
	if n.enum != nil {
		var lits []jen.Code
		for _, v := range n.enum {
			if iv, ok := integerValue(v.Str); ok && v.Kind == jsonval.Number && iv.IsInt64() {
				lits = append(lits, intLit(iv.Int64()))
			}
		}
		if len(lits) == 0 {
			checks = append(checks, e.enumViolation(n, got))
		} else {
			checks = append(checks, jen.Switch(x).Block(jen.Case(lits...), jen.Default().Block(e.enumViolation(n, got))))
		}
	}
	checks = append(checks, set.value(x))
	// An integer beyond int64 is still an integer: a bound it breaks is
	// reported as such; only one it keeps leaves the type's range to refuse.
	outOfRange := d().Dot("IntRange").Call(jen.Lit(typePtr(n)), got)
	if len(hugeChecks) > 0 {
		hugeChecks = append([]jen.Code{jen.Id("broken").Op(":=").False()}, hugeChecks...)
		outOfRange = jen.If(jen.Op("!").Id("broken")).Block(outOfRange)
	}
	hugeChecks = append(hugeChecks, outOfRange)
	return []jen.Code{
		raw.Clone().Op(":=").Add(dr().Dot("Number").Call()),
		jen.If(jen.List(x, jen.Id("ok"), jen.Id("huge")).Op(":=").Add(d().Dot("ParseInt").Call(raw, jen.Lit(typePtr(n)), jen.Lit(e.sensitiveNode(n)))), jen.Id("ok")).Block(checks...).
			Else().If(jen.Id("huge")).Block(hugeChecks...),
	}
}

// numCompare is the exact comparison of number text with a bound that
// fails the rule.
func numCompare(raw jen.Code, bound string, exclusive, lower bool) jen.Code {
	cmp := jen.Qual(pkgJSONNum, "Compare").Call(raw, jen.Index().Byte().Call(jen.Lit(bound)))
	switch {
	case lower && exclusive:
		return cmp.Op("<=").Lit(0)
	case lower:
		return cmp.Op("<").Lit(0)
	case exclusive:
		return cmp.Op(">=").Lit(0)
	}
	return cmp.Op(">").Lit(0)
}

func (e *emitter) decodeNumber(n *node, set setter) []jen.Code {
	raw := jen.Id("raw")
	got := e.got(n, d().Dot("Text").Call(raw))
	var checks, floatChecks []jen.Code
	bound := func(kw string, b *jsonval.Value, exclusive, lower bool) {
		if b == nil {
			return
		}
		sp := n.ptr + "/" + kw
		checks = append(checks, jen.If(numCompare(raw, b.Str, exclusive, lower)).Block(
			d().Dot(upperFirst(kw)).Call(jen.Lit(sp), jen.Lit(b.Str), got)))
		if cond := floatBreaks(jen.Id("x"), raw, b.Str, exclusive, lower); cond != nil {
			floatChecks = append(floatChecks, jen.If(cond).Block(
				d().Dot("FloatBound").Call(jen.Lit(kw), jen.Lit(sp), jen.Lit(b.Str), got, jen.Id("x"))))
		}
	}
	bound("minimum", n.minimum, false, true)
	bound("exclusiveMinimum", n.exMin, true, true)
	bound("maximum", n.maximum, false, false)
	bound("exclusiveMaximum", n.exMax, true, false)
	if m := n.multipleOf; m != nil {
		checks = append(checks, jen.If(jen.Op("!").Qual(pkgJSONNum, "IsMultipleOf").Call(raw, jen.Index().Byte().Call(jen.Lit(m.Str)))).Block(
			d().Dot("MultipleOf").Call(jen.Lit(n.ptr+"/multipleOf"), jen.Lit(m.Str), got)))
	}
	if n.enum != nil {
		lits := []jen.Code{raw}
		for _, v := range n.enum {
			if v.Kind == jsonval.Number {
				lits = append(lits, jen.Lit(v.Str))
			}
		}
		checks = append(checks, jen.If(jen.Op("!").Qual(pkgTgimpl, "NumberIn").Call(lits...)).Block(e.enumViolation(n, got)))
	}
	// The rules are checked on the exact text; the float64 conversion comes
	// last and fails beyond float64's range, or when the float64 the
	// executor would receive breaks a bound the text keeps (floatBreaks).
	out := append([]jen.Code{raw.Clone().Op(":=").Add(dr().Dot("Number").Call())}, checks...)
	floatChecks = append(floatChecks, set.value(jen.Id("x")))
	return append(out, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(d().Dot("ParseFloat").Call(raw, jen.Lit(typePtr(n)), jen.Lit(e.sensitiveNode(n)))), jen.Id("ok")).Block(floatChecks...))
}

// intLit is an untyped integer constant.
func intLit(v int64) jen.Code { return jen.Id(strconv.FormatInt(v, 10)) }
