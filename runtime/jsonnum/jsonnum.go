// Package jsonnum does exact arithmetic on the text of JSON numbers, as
// returned by jsonread.Reader.Number, for toolgate's generated decoders:
// integer conversion without a float64 round trip, decimal comparison for
// minimum/maximum, and multipleOf.
//
// Every function takes number text that is already valid RFC 8259 grammar;
// on anything else the result is unspecified.
// Values are compared as the decimals they spell, so 1.0 == 1 == 1e0 ==
// 10e-1, -0 == 0, and 1.5e1 is the integer 15, as JSON Schema requires.
// Exponents may be arbitrarily long: 1e99999999999999999999 is exact.
//
// The common cases (plain integers of up to 18 digits, decimals whose
// digits fit in 64 bits) neither allocate nor use math/big; math/big is
// used only for multipleOf on operands of more than 19 significant digits
// and for exponents of more than 18 digits.
package jsonnum

import (
	"math/big"
	"math/bits"
	"strconv"
	"unsafe"
)

// Int64 converts an integer-valued number exactly. isInt reports whether
// the value is mathematically an integer (1.0, 1e2, -0 and 1.5e1 are; 1.5
// and 1e-1 are not); ok reports isInt and that the value fits in int64, in
// which case v holds it.
func Int64(raw []byte) (v int64, ok bool, isInt bool) {
	if v, ok := smallInt(raw); ok {
		return v, true, true
	}
	n := parse(raw)
	if n.first < 0 {
		return 0, true, true
	}
	digits := n.digitCount()
	if n.bigExp != nil {
		// |exponent| >= 1e18 outweighs any digit count: a huge positive
		// exponent makes an integer too large for int64, a huge negative
		// one a fraction.
		return 0, false, !n.expNeg
	}
	sci := n.sci()
	if sci < int64(digits) {
		return 0, false, false
	}
	if sci > 19 {
		return 0, false, true
	}
	// At most 19 digits: the magnitude is below 1e19 and fits in uint64.
	u := n.digits64()
	for range sci - int64(digits) {
		u *= 10
	}
	if n.neg {
		if u > 1<<63 {
			return 0, false, true
		}
		return int64(-u), true, true
	}
	if u > 1<<63-1 {
		return 0, false, true
	}
	return int64(u), true, true
}

// Float64 returns the nearest float64, as strconv.ParseFloat does, without
// allocating for values in range. Values beyond the float64 range give ±Inf
// (or ±0 when they underflow); the caller decides what that means.
func Float64(raw []byte) float64 {
	if len(raw) == 0 {
		return 0
	}
	// The string view does not outlive the call: ParseFloat copies the
	// text into its error, which is dropped.
	f, _ := strconv.ParseFloat(unsafe.String(&raw[0], len(raw)), 64)
	return f
}

// Compare compares the values of two numbers exactly and returns -1, 0 or
// +1. It does not allocate unless an exponent has more than 18 digits.
func Compare(a, b []byte) int {
	if x, ok := smallInt(a); ok {
		if y, ok := smallInt(b); ok {
			return cmpInt(x, y)
		}
	}
	x, y := parse(a), parse(b)
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return cmpInt(int64(sx), int64(sy))
	}
	c := cmpMagnitude(&x, &y)
	if sx < 0 {
		return -c
	}
	return c
}

// IsMultipleOf reports whether x is an integer multiple of m, exactly:
// 19.99 is a multiple of 0.01 and 0.0075 of 0.0001, while 1e308 is not a
// multiple of 0.123456789. The caller guarantees m > 0; for m == 0 the
// result is false.
func IsMultipleOf(x, m []byte) bool {
	if a, ok, _ := Int64(x); ok {
		if b, ok, _ := Int64(m); ok {
			return b != 0 && a%b == 0
		}
	}
	nx, nm := parse(x), parse(m)
	if nx.first < 0 {
		return true
	}
	if nm.first < 0 {
		return false
	}
	// x = X·10^ex and m = M·10^em with X and M free of trailing zeros.
	// If ex < em, x/m = X / (M·10^(em-ex)) and X is not a multiple of 10:
	// no integer. Otherwise x/m is an integer iff X·10^(ex-em) mod M == 0.
	if nx.bigExp == nil && nm.bigExp == nil {
		ex := nx.sci() - int64(nx.digitCount())
		em := nm.sci() - int64(nm.digitCount())
		if ex < em {
			return false
		}
		if nx.digitCount() <= 19 && nm.digitCount() <= 19 {
			mm := nm.digits64()
			return mulMod(nx.digits64()%mm, powMod(10, uint64(ex-em), mm), mm) == 0
		}
		return bigMultiple(&nx, &nm, big.NewInt(ex-em))
	}
	k := new(big.Int).Sub(nx.bigScaleExp(), nm.bigScaleExp())
	if k.Sign() < 0 {
		return false
	}
	return bigMultiple(&nx, &nm, k)
}

// number is the decomposed text of a non-empty JSON number. Its value is
// ±0.d₁d₂…dₙ·10^sci, where d₁…dₙ are the significant digits of mant from
// first to last (skipping the '.'), so d₁ and dₙ are not zero.
type number struct {
	mant   []byte // integer and fraction digits with the '.', no sign or exponent
	first  int    // index in mant of the first non-zero digit; -1 when the value is zero
	last   int    // index in mant of the last non-zero digit
	point  int    // index in mant of the '.', or len(mant)
	neg    bool
	expNeg bool   // sign of the exponent part
	exp    int64  // exponent part, when it has at most 18 digits
	bigExp []byte // exponent digits without leading zeros, when there are more than 18
}

// maxExpDigits is the longest exponent held in an int64: |exp| < 1e18
// leaves room to add a digit count without overflow.
const maxExpDigits = 18

func parse(raw []byte) number {
	n := number{first: -1, last: -1}
	i := 0
	if len(raw) > 0 && raw[0] == '-' {
		n.neg = true
		i = 1
	}
	j := i
	n.point = -1
	for ; j < len(raw); j++ {
		c := raw[j]
		if c == 'e' || c == 'E' {
			break
		}
		switch {
		case c == '.':
			n.point = j - i
		case c != '0':
			if n.first < 0 {
				n.first = j - i
			}
			n.last = j - i
		}
	}
	n.mant = raw[i:j]
	if n.point < 0 {
		n.point = len(n.mant)
	}
	if j++; j < len(raw) {
		switch raw[j] {
		case '-':
			n.expNeg = true
			j++
		case '+':
			j++
		}
		for j < len(raw)-1 && raw[j] == '0' {
			j++
		}
		e := raw[j:]
		if len(e) > maxExpDigits {
			n.bigExp = e
			return n
		}
		for _, c := range e {
			n.exp = n.exp*10 + int64(c-'0')
		}
		if n.expNeg {
			n.exp = -n.exp
		}
	}
	return n
}

func (n *number) sign() int {
	switch {
	case n.first < 0:
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// digitCount is the number of significant digits.
func (n *number) digitCount() int {
	if n.first < 0 {
		return 0
	}
	if n.first < n.point && n.point < n.last {
		return n.last - n.first
	}
	return n.last - n.first + 1
}

// pointShift is sci without the exponent part: the position of the decimal
// point relative to the first significant digit.
func (n *number) pointShift() int64 {
	if n.first < n.point {
		return int64(n.point - n.first)
	}
	return int64(n.point - n.first + 1)
}

// sci is the scientific exponent; valid only when bigExp is nil.
func (n *number) sci() int64 { return n.pointShift() + n.exp }

// bigSci is the scientific exponent for any exponent length.
func (n *number) bigSci() *big.Int {
	e := big.NewInt(n.exp)
	if n.bigExp != nil {
		e.SetString(string(n.bigExp), 10)
		if n.expNeg {
			e.Neg(e)
		}
	}
	return e.Add(e, big.NewInt(n.pointShift()))
}

// bigScaleExp is e in value = D·10^e, D the significant digits as an integer.
func (n *number) bigScaleExp() *big.Int {
	e := n.bigSci()
	return e.Sub(e, big.NewInt(int64(n.digitCount())))
}

// digits64 returns the significant digits as an integer; valid only when
// there are at most 19 of them.
func (n *number) digits64() uint64 {
	var u uint64
	for _, c := range n.mant[n.first : n.last+1] {
		if c != '.' {
			u = u*10 + uint64(c-'0')
		}
	}
	return u
}

// bigDigits returns the significant digits as an integer.
func (n *number) bigDigits() *big.Int {
	buf := make([]byte, 0, n.digitCount())
	for _, c := range n.mant[n.first : n.last+1] {
		if c != '.' {
			buf = append(buf, c)
		}
	}
	d, _ := new(big.Int).SetString(string(buf), 10)
	return d
}

// cmpMagnitude compares |x| and |y|, both non-zero.
func cmpMagnitude(x, y *number) int {
	var c int
	if x.bigExp == nil && y.bigExp == nil {
		c = cmpInt(x.sci(), y.sci())
	} else {
		c = x.bigSci().Cmp(y.bigSci())
	}
	if c != 0 {
		return c
	}
	// Same exponent: compare the significant digits as a fraction 0.d₁d₂…
	// Neither ends in zero, so a proper prefix is the smaller value.
	i, j := x.first, y.first
	for i <= x.last && j <= y.last {
		a, b := x.mant[i], y.mant[j]
		switch {
		case a == '.':
			i++
		case b == '.':
			j++
		case a != b:
			return cmpInt(int64(a), int64(b))
		default:
			i++
			j++
		}
	}
	switch {
	case i <= x.last:
		return 1
	case j <= y.last:
		return -1
	}
	return 0
}

// bigMultiple reports whether X·10^k mod M == 0 for k >= 0.
func bigMultiple(x, m *number, k *big.Int) bool {
	mm := m.bigDigits()
	r := new(big.Int).Exp(big.NewInt(10), k, mm)
	r.Mul(r, x.bigDigits())
	return r.Mod(r, mm).Sign() == 0
}

// smallInt parses plain integer text of at most 18 digits.
func smallInt(raw []byte) (int64, bool) {
	s := raw
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mulMod returns a·b mod m without overflow.
func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return bits.Rem64(hi, lo, m)
}

// powMod returns base^k mod m by square-and-multiply.
func powMod(base, k, m uint64) uint64 {
	r := 1 % m
	base %= m
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r = mulMod(r, base, m)
		}
		base = mulMod(base, base, m)
	}
	return r
}
