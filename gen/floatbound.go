package gen

import (
	"math"
	"math/big"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// floatBreaks returns the condition under which x, the float64 of the
// number text raw, breaks the bound while raw keeps it, or nil when that cannot
// happen. Bounds are checked exactly on the text; the float64 handed to the
// executor is the text rounded to nearest, which can land on or past the
// bound: with exclusiveMinimum 0, 1e-400 becomes 0, and with
// exclusiveMaximum 1, 0.99999999999999999999 becomes 1.
//
// For a float64 x and a bound B, with up(B) the least float64 >= B and
// down(B) the greatest float64 <= B:
//
//	x >= B  iff  x >= up(B)      x > B  iff  x > down(B)
//	x <= B  iff  x <= down(B)    x < B  iff  x < up(B)
//
// Rounding is monotonic, so an inclusive bound that is a float64 is kept by
// x whenever it is kept by the text: no check. An exclusive bound always
// needs one (the text may round onto it). A bound beyond the float64
// range needs none: every finite x keeps it, or the text that keeps it is
// beyond the range too and ParseFloat refuses it first.
func floatBreaks(x, raw *jen.Statement, bound string, exclusive, lower bool) jen.Code {
	up, down, exact, ok := floatNeighbours(bound)
	if !ok || exact && !exclusive {
		return nil
	}
	var limit float64
	var op string
	switch {
	case lower && exclusive:
		limit, op = down, "<="
	case lower:
		limit, op = up, "<"
	case exclusive:
		limit, op = up, ">="
	default:
		limit, op = down, ">"
	}
	if math.IsInf(limit, 0) {
		return nil
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

// floatNeighbours returns up(B) and down(B) for the number text B, and
// whether B is itself a float64; ok is false for a B beyond the float64
// range, where no float64 check applies.
func floatNeighbours(text string) (up, down float64, exact, ok bool) {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return 0, 0, false, false
	}
	f, exact := r.Float64()
	switch {
	case exact:
		return f, f, true, true
	case math.IsInf(f, 0):
		return 0, 0, false, false
	}
	if new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		return math.Nextafter(f, math.Inf(1)), f, false, true
	}
	return f, math.Nextafter(f, math.Inf(-1)), false, true
}

// floatLit writes f as a Go constant that reads back exactly: the shortest
// decimal that rounds to f.
func floatLit(f float64) jen.Code { return jen.Id(strconv.FormatFloat(f, 'g', -1, 64)) }
