package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/tgimpl"
)

// floatBreaks returns the condition under which x, the float64 of the
// number text raw, breaks the bound while raw keeps it, or nil when that cannot
// happen (see tgimpl.FloatLimit, which says past which float64 it does).
func floatBreaks(x, raw *jen.Statement, bound string, exclusive, lower bool) jen.Code {
	limit, ok := tgimpl.FloatLimit(bound, exclusive, lower)
	if !ok {
		return nil
	}
	var op string
	switch {
	case lower && exclusive:
		op = "<="
	case lower:
		op = "<"
	case exclusive:
		op = ">="
	default:
		op = ">"
	}
	// Only when the text keeps the bound: when it breaks it, that is
	// reported already. The exact comparison runs only for an x past the
	// limit.
	return x.Clone().Op(op).Add(floatLit(limit)).Op("&&").Add(numKeeps(raw, bound, exclusive, lower))
}

// numKeeps is the exact comparison of number text with a bound that keeps
// the rule: the negation of numCompare.
func numKeeps(raw *jen.Statement, bound string, exclusive, lower bool) jen.Code {
	cmp := jen.Qual(pkgJSONNum, "Compare").Call(raw.Clone(), jen.Index().Byte().Call(jen.Lit(bound)))
	switch {
	case lower && exclusive:
		return cmp.Op(">").Lit(0)
	case lower:
		return cmp.Op(">=").Lit(0)
	case exclusive:
		return cmp.Op("<").Lit(0)
	}
	return cmp.Op("<=").Lit(0)
}

// floatLit writes f as a Go constant that reads back exactly: the shortest
// decimal that rounds to f.
func floatLit(f float64) jen.Code { return jen.Id(strconv.FormatFloat(f, 'g', -1, 64)) }
