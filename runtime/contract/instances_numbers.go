package contract

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// numBounds are the numeric limits of a flat schema.
type numBounds struct {
	lo, hi         *big.Rat
	loExcl, hiExcl bool
	step           *big.Rat // multipleOf, made integral for integers
}

// boundsOf reads the numeric limits of f; for integers the step is the least integer multiple of
// multipleOf (1 without it).
func boundsOf(f *jsonval.Value, integer bool) numBounds {
	var b numBounds
	set := func(key string, r *big.Rat, low bool) {
		if r == nil {
			return
		}
		excl := strings.HasPrefix(key, "exclusive")
		if low {
			if b.lo == nil || r.Cmp(b.lo) > 0 || r.Cmp(b.lo) == 0 && excl {
				b.lo, b.loExcl = r, excl
			}
		} else if b.hi == nil || r.Cmp(b.hi) < 0 || r.Cmp(b.hi) == 0 && excl {
			b.hi, b.hiExcl = r, excl
		}
	}
	set("minimum", numRat(f.Get("minimum")), true)
	set("exclusiveMinimum", numRat(f.Get("exclusiveMinimum")), true)
	set("maximum", numRat(f.Get("maximum")), false)
	set("exclusiveMaximum", numRat(f.Get("exclusiveMaximum")), false)
	b.step = numRat(f.Get("multipleOf"))
	if integer {
		if b.step == nil {
			b.step = big.NewRat(1, 1)
		} else if !b.step.IsInt() {
			b.step = new(big.Rat).SetInt(b.step.Num()) // lcm(p/q, 1) = p for p/q in lowest terms
		}
	}
	return b
}

// admits reports whether x is within the bounds and a multiple of the step.
func (b numBounds) admits(x *big.Rat) bool {
	if b.lo != nil && (x.Cmp(b.lo) < 0 || b.loExcl && x.Cmp(b.lo) == 0) {
		return false
	}
	if b.hi != nil && (x.Cmp(b.hi) > 0 || b.hiExcl && x.Cmp(b.hi) == 0) {
		return false
	}
	return b.step == nil || new(big.Rat).Quo(x, b.step).IsInt()
}

// synthNumber picks a number within the bounds of f: 1 if it fits, else the least multiple of the step
// above the lower bound (or the greatest below the upper bound), else a point between the bounds.
func synthNumber(f *jsonval.Value, integer bool, ptr string) (*jsonval.Value, error) {
	b := boundsOf(f, integer)
	one := big.NewRat(1, 1)
	cands := []*big.Rat{one}
	if b.step != nil {
		switch {
		case b.lo != nil:
			k := new(big.Rat).Quo(b.lo, b.step)
			n := new(big.Int).Div(k.Num(), k.Denom()) // floor
			for range 2 {
				n.Add(n, big.NewInt(1))
				cands = append(cands, new(big.Rat).Mul(new(big.Rat).SetInt(n), b.step))
			}
			cands = append(cands, new(big.Rat).Set(b.lo))
		case b.hi != nil:
			k := new(big.Rat).Quo(b.hi, b.step)
			n := new(big.Int).Div(k.Num(), k.Denom())
			for range 2 {
				cands = append(cands, new(big.Rat).Mul(new(big.Rat).SetInt(n), b.step))
				n.Sub(n, big.NewInt(1))
			}
		default:
			cands = append(cands, b.step)
		}
	} else {
		switch {
		case b.lo != nil && b.hi != nil:
			cands = append(cands, b.lo, new(big.Rat).Quo(new(big.Rat).Add(b.lo, b.hi), big.NewRat(2, 1)))
		case b.lo != nil:
			cands = append(cands, b.lo, new(big.Rat).Add(b.lo, one))
		case b.hi != nil:
			cands = append(cands, b.hi, new(big.Rat).Sub(b.hi, one))
		}
	}
	for _, c := range cands {
		if b.admits(c) {
			return jsonNumber(c), nil
		}
	}
	return nil, fmt.Errorf("no number satisfies the bounds at %s", ptrText(ptr))
}
