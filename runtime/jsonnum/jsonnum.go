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
// The work is linear in the length of the text: exponents of any length are
// compared and subtracted digit by digit (an exponent difference of 10^18
// or more outweighs anything the rest of the text can shift), never
// converted to math/big. Compare and Int64 never use math/big and do not
// allocate; IsMultipleOf uses math/big only when m has more than 19
// significant digits (a schema's multipleOf, not the model's input), and
// even then never raises 10 to an exponent larger than 4 times m's digit
// count (see IsMultipleOf).
package jsonnum

import (
	"bytes"
	"math/big"
	"math/bits"
	"strconv"
	"sync/atomic"
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
// (or ±0 when they underflow); the caller decides what that means. An
// integer of at most 15 characters, the common case, is converted
// directly: below 2^53 every integer is a float64, so the conversion is
// exact (but for -0, which ParseFloat keeps negative).
func Float64(raw []byte) float64 {
	if len(raw) <= 15 {
		if v, ok := smallInt(raw); ok && (v != 0 || raw[0] != '-') {
			return float64(v)
		}
	}
	if len(raw) == 0 {
		return 0
	}
	// The string view does not outlive the call: ParseFloat copies the
	// text into its error, which is dropped.
	f, _ := strconv.ParseFloat(unsafe.String(&raw[0], len(raw)), 64)
	return f
}

// Compare compares the values of two numbers exactly and returns -1, 0 or
// +1. It does not allocate, and its work is linear in the length of a and b
// whatever their exponents.
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
//
// The work is linear in the length of x (times m's length when m has more
// than 19 significant digits), whatever the exponents: with x = X·10^ex and
// m = M·10^em, X and M free of trailing zeros and k = ex-em >= 0, x is a
// multiple of m iff M divides X·10^k. Write M = 2^a·5^b·M' with M' prime to
// 10. Once k >= max(a, b) (a, b < 4·digits(M)), 10^k supplies every factor
// 2 and 5, and the question is only whether M' divides X; 10^k is never
// computed for such k, however large.
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
	// If ex < em, x/m = X / (M·10^(em-ex)) and X is not a multiple of 10:
	// no integer.
	d, huge := expDiff(&nx, &nm)
	if huge < 0 {
		return false
	}
	var k int64 // valid when huge == 0
	if huge == 0 {
		k = nx.pointShift() - int64(nx.digitCount()) - nm.pointShift() + int64(nm.digitCount()) + d
		if k < 0 {
			return false
		}
	}
	if nm.digitCount() <= 19 {
		mm := nm.digits64()
		if huge > 0 || k >= 64 { // M < 2^64: a, b <= 63
			return nx.digitsMod(oddPart(mm)) == 0
		}
		return mulMod(nx.digitsMod(mm), powMod(10, uint64(k), mm), mm) == 0
	}
	bigCalls.Add(1)
	mm := nm.bigDigits()
	if huge > 0 || k >= 4*int64(nm.digitCount())+4 {
		return bigOddPartDivides(&nx, mm)
	}
	return bigMultiple(&nx, mm, k)
}

// bigCalls counts the calls that use math/big, for tests.
var bigCalls atomic.Int64

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
	// sci(x) - sci(y) = pointShift(x) - pointShift(y) + (exp(x) - exp(y)).
	c, d := 0, int64(0)
	if d, c = expDiff(x, y); c == 0 {
		c = cmpInt(x.pointShift()+d, y.pointShift())
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

// bigMultiple reports whether X·10^k mod M == 0 for 0 <= k <= 4·digits(M)+4.
func bigMultiple(x *number, mm *big.Int, k int64) bool {
	r := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), mm)
	r.Mul(r, x.bigDigits())
	return r.Mod(r, mm).Sign() == 0
}

// bigOddPartDivides reports whether M without its factors 2 and 5 divides X.
func bigOddPartDivides(x *number, mm *big.Int) bool {
	m := new(big.Int).Set(mm)
	q, r := new(big.Int), new(big.Int)
	for _, f := range []int64{2, 5} {
		bf := big.NewInt(f)
		for {
			q.QuoRem(m, bf, r)
			if r.Sign() != 0 {
				break
			}
			m.Set(q)
		}
	}
	return r.Mod(x.bigDigits(), m).Sign() == 0
}

// oddPart returns m without its factors 2 and 5.
func oddPart(m uint64) uint64 {
	for m%2 == 0 {
		m /= 2
	}
	for m%5 == 0 {
		m /= 5
	}
	return m
}

// digitsMod returns the significant digits, as an integer, modulo m > 0,
// for any number of digits.
func (n *number) digitsMod(m uint64) uint64 {
	var r uint64
	for _, c := range n.mant[n.first : n.last+1] {
		if c != '.' {
			hi, lo := bits.Mul64(r, 10)
			lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
			r = bits.Rem64(hi+carry, lo, m)
		}
	}
	return r
}

// expDiff returns the difference of the exponent parts of x and y, exactly
// when it is below 10^18 in magnitude (huge == 0; then |d| < 2·10^18), and
// otherwise only its sign (huge = ±1), which then outweighs any difference
// the digits can make (they are far fewer than 10^18). It neither allocates
// nor uses math/big: the work is linear in the exponents' lengths.
func expDiff(x, y *number) (d int64, huge int) {
	if x.bigExp == nil && y.bigExp == nil {
		return x.exp - y.exp, 0
	}
	var bx, by [20]byte
	a, an := x.expDigits(&bx)
	b, bn := y.expDigits(&by)
	if an != bn {
		// Opposite signs, one of at least 10^18: |a-b| = |a|+|b| >= 10^18.
		if an {
			return 0, -1
		}
		return 0, 1
	}
	sign := cmpDigits(a, b)
	if sign == 0 {
		return 0, 0
	}
	if sign < 0 {
		a, b = b, a
	}
	// a > b >= 0: compute a-b from the most significant digit. Once the
	// running difference v of the prefixes is positive it never falls
	// (10v + (dₐ - d_b) >= 10v - 9 >= v), so it is huge as soon as it
	// passes 10^18.
	// v < 10^18 before a step, so 10v+9 fits in a uint64, and v never
	// goes below zero (the digits before the first difference are equal).
	var v uint64
	off := len(a) - len(b)
	for i := range len(a) {
		db := byte('0')
		if i >= off {
			db = b[i-off]
		}
		v = 10*v + uint64(a[i]) - uint64(db)
		if v >= 1e18 {
			if an {
				return 0, -sign
			}
			return 0, sign
		}
	}
	if an {
		sign = -sign
	}
	return int64(sign) * int64(v), 0
}

// expDigits returns the magnitude of the exponent part as digits without
// leading zeros, and its sign; buf holds them for a short exponent.
func (n *number) expDigits(buf *[20]byte) (digits []byte, neg bool) {
	if n.bigExp != nil {
		return n.bigExp, n.expNeg
	}
	e := n.exp
	if e < 0 {
		return strconv.AppendInt(buf[:0], -e, 10), true
	}
	return strconv.AppendInt(buf[:0], e, 10), false
}

// cmpDigits compares two digit strings without leading zeros.
func cmpDigits(a, b []byte) int {
	if len(a) != len(b) {
		return cmpInt(int64(len(a)), int64(len(b)))
	}
	return bytes.Compare(a, b)
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

// AppendCanonical appends a canonical text of the number's value to b: two
// numbers have the same canonical text exactly when Compare finds them
// equal (1, 1.0, 10e-1 and 0.1e1 all give "1e1", -0 gives "0"). The text
// is "0", or an optional '-', the significant digits d₁…dₙ and "e" with
// the scientific exponent: the value is 0.d₁…dₙ·10^exponent. It is meant
// as a map key, not as JSON. The work is linear in the length of raw.
func AppendCanonical(b, raw []byte) []byte {
	n := parse(raw)
	if n.first < 0 {
		return append(b, '0')
	}
	if n.neg {
		b = append(b, '-')
	}
	for _, c := range n.mant[n.first : n.last+1] {
		if c != '.' {
			b = append(b, c)
		}
	}
	b = append(b, 'e')
	if n.bigExp == nil {
		return strconv.AppendInt(b, n.sci(), 10)
	}
	// sci = ±bigExp + pointShift, with |bigExp| >= 10^18 > |pointShift|:
	// the sign is the exponent's, and the magnitude is |bigExp| ± |shift|.
	if n.expNeg {
		b = append(b, '-')
	}
	shift := n.pointShift()
	if n.expNeg {
		shift = -shift
	}
	start := len(b)
	b = append(b, n.bigExp...)
	digits := b[start:]
	if shift >= 0 {
		carry := uint64(shift)
		for i := len(digits) - 1; i >= 0 && carry > 0; i-- {
			v := uint64(digits[i]-'0') + carry%10
			carry /= 10
			if v >= 10 {
				v -= 10
				carry++
			}
			digits[i] = byte('0' + v)
		}
		if carry > 0 {
			b = append(b[:start], append(strconv.AppendUint(nil, carry, 10), digits...)...)
		}
		return b
	}
	borrow := uint64(-shift)
	for i := len(digits) - 1; i >= 0 && borrow > 0; i-- {
		sub := borrow % 10
		borrow /= 10
		v := int(digits[i]-'0') - int(sub)
		if v < 0 {
			v += 10
			borrow++
		}
		digits[i] = byte('0' + v)
	}
	i := 0
	for i < len(digits)-1 && digits[i] == '0' {
		i++
	}
	return append(b[:start], digits[i:]...)
}
