package decode

import (
	"math"
	"math/big"
)

// IntLimit turns a bound into the inclusive int64 limit an integer is
// compared with: x >= 1.5 is x >= 2, x > 3 is x >= 4. An integer breaks a
// lower bound when x < limit and an upper one when x > limit. ok is false
// when the limit does not fit in int64 (or the text is not a number): the
// text is then compared.
func IntLimit(text string, exclusive, lower bool) (limit int64, ok bool) {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return 0, false
	}
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int)) // floor division
	switch {
	case lower && (m.Sign() != 0 || exclusive): // ceil of a fraction; past an integer
		q.Add(q, big.NewInt(1))
	case !lower && m.Sign() == 0 && exclusive:
		q.Sub(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// FloatLimit returns the float64 past which x, the float64 of a number
// text that keeps the bound, breaks it all the same, and false when that
// cannot happen. Bounds are checked exactly on the text; the float64
// handed to the executor is the text rounded to nearest, which can land on
// or past the bound: with exclusiveMinimum 0, 1e-400 becomes 0, and with
// exclusiveMaximum 1, 0.99999999999999999999 becomes 1.
//
// For a float64 x and a bound B, with up(B) the least float64 >= B and
// down(B) the greatest float64 <= B:
//
//	x >= B  iff  x >= up(B)      x > B  iff  x > down(B)
//	x <= B  iff  x <= down(B)    x < B  iff  x < up(B)
//
// so x breaks a lower bound when x < up(B) (inclusive) or x <= down(B)
// (exclusive), and an upper one when x > down(B) or x >= up(B). Rounding
// is monotonic, so an inclusive bound that is a float64 is kept by x
// whenever it is kept by the text: no check. An exclusive bound always
// needs one (the text may round onto it). A bound beyond the float64
// range needs none: every finite x keeps it, or the text that keeps it is
// beyond the range too and ParseFloat refuses it first.
func FloatLimit(text string, exclusive, lower bool) (limit float64, ok bool) {
	up, down, exact, ok := floatNeighbours(text)
	if !ok || exact && !exclusive {
		return 0, false
	}
	switch {
	case lower && exclusive, !lower && !exclusive:
		limit = down
	default:
		limit = up
	}
	if math.IsInf(limit, 0) {
		return 0, false
	}
	return limit, true
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
