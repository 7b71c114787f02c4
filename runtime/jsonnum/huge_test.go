package jsonnum

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// hugeExp is an exponent of a million digits: math/big would take seconds
// to convert it (and the old code did, for each Compare).
var hugeExp = "1" + strings.Repeat("0", 1_000_000)

// TestHugeExponentsBounded: exponents of any length are decided digit by
// digit, never with math/big, and without allocating for Compare.
func TestHugeExponentsBounded(t *testing.T) {
	h := hugeExp
	h1 := "1" + strings.Repeat("0", 999_999) + "1" // hugeExp + 1
	compares := []struct {
		a, b string
		want int
	}{
		{"1e" + h, "1e" + h, 0},
		{"1e" + h, "10e" + h, -1},
		{"1e" + h1, "10e" + h, 0},
		{"1e" + h1, "1e" + h, 1},
		{"1e-" + h1, "1e-" + h, -1},
		{"1e-" + h, "0.1e-" + h, 1},
		{"1e" + h, "1e-" + h, 1},
		{"-1e" + h, "1e-" + h, -1},
		{"1e" + h, "9e999999999999999999", 1},
		{"1e-" + h, "9e-999999999999999999", -1},
		{"123.45e" + h, "12.345e" + h1, 0},
	}
	for _, tt := range compares {
		before := bigCalls.Load()
		if got := Compare([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("Compare(%.20s…, %.20s…) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare([]byte(tt.b), []byte(tt.a)); got != -tt.want {
			t.Errorf("Compare(%.20s…, %.20s…) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
		if n := bigCalls.Load() - before; n != 0 {
			t.Errorf("Compare(%.20s…, %.20s…) used math/big %d times", tt.a, tt.b, n)
		}
		a, b := []byte(tt.a), []byte(tt.b)
		if allocs := testing.AllocsPerRun(3, func() { Compare(a, b) }); allocs != 0 {
			t.Errorf("Compare(%.20s…, %.20s…): %v allocs, want 0", tt.a, tt.b, allocs)
		}
	}
	multiples := []struct {
		x, m          string
		want, usesBig bool
	}{
		{"1e" + h, "2", true, false},
		{"1e" + h, "0.125", true, false},
		{"1e" + h, "3", false, false},
		{"3e" + h, "3", true, false},
		{"21e" + h, "1.75", true, false}, // 21·10^h / (7/4) = 12·10^h
		{"1e-" + h, "1", false, false},
		{"1e-" + h, "1e-" + h, true, false},
		{"3e-" + h, "1.5e-" + h, true, false},
		{"1e" + h, "1e" + h1, false, false},
		{"1e" + h1, "1e" + h, true, false},
		{"7e" + h, "12345678901234567890123", false, true}, // M' does not divide 7
		{"12345678901234567890123e" + h, "12345678901234567890123", true, true},
		{"24691357802469135780246e" + h, "1.2345678901234567890123e-5", true, true},
	}
	for _, tt := range multiples {
		before := bigCalls.Load()
		if got := IsMultipleOf([]byte(tt.x), []byte(tt.m)); got != tt.want {
			t.Errorf("IsMultipleOf(%.30s…, %.30s) = %v, want %v", tt.x, tt.m, got, tt.want)
		}
		if n := bigCalls.Load() - before; (n != 0) != tt.usesBig {
			t.Errorf("IsMultipleOf(%.30s…, %.30s) used math/big %d times, want usesBig=%v", tt.x, tt.m, n, tt.usesBig)
		}
	}
}

// TestExponentArithmeticAgainstBig checks Compare and IsMultipleOf on
// exponents around 10^18 (where the exact and the "huge" paths meet)
// against math/big, which is fast enough on exponents of ~20 digits.
func TestExponentArithmeticAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	exps := []string{"0", "1", "17", "999999999999999999", "1000000000000000000", "1000000000000000001",
		"999999999999999998", "9999999999999999999", "10000000000000000000", "123456789012345678901",
		"-1", "-999999999999999999", "-1000000000000000000", "-1000000000000000001", "-10000000000000000000"}
	mants := []string{"1", "10", "0.1", "0.001", "100.5", "3", "15", "1.5", "12345678901234567890123", "0.000125"}
	pick := func() string {
		return mants[rng.IntN(len(mants))] + "e" + exps[rng.IntN(len(exps))]
	}
	for range 4000 {
		a, b := pick(), pick()
		if got, want := Compare([]byte(a), []byte(b)), refCompare(a, b); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", a, b, got, want)
		}
		if got, want := IsMultipleOf([]byte(a), []byte(b)), refMultiple(a, b); got != want {
			t.Fatalf("IsMultipleOf(%s, %s) = %v, want %v", a, b, got, want)
		}
	}
}

// refNumber splits positive number text into its significant digits D and
// e with value D·10^e, using math/big.
func refNumber(s string) (*big.Int, *big.Int) {
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := new(big.Int).SetString(exp, 10)
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		e.Sub(e, big.NewInt(int64(len(mant)-i-1)))
		mant = mant[:i] + mant[i+1:]
	}
	d, _ := new(big.Int).SetString(mant, 10)
	return d, e
}

func refCompare(a, b string) int {
	da, ea := refNumber(a)
	db, eb := refNumber(b)
	// Compare da·10^(ea-eb) with db, or da with db·10^(eb-ea), by
	// logarithms first: exponents here can be ~10^20.
	diff := new(big.Int).Sub(ea, eb)
	la, lb := big.NewInt(int64(len(da.String()))), big.NewInt(int64(len(db.String())))
	lhs := new(big.Int).Add(la, diff) // digits of da·10^diff
	if c := lhs.Cmp(new(big.Int).Add(lb, big.NewInt(2))); c > 0 {
		return 1
	}
	if c := new(big.Int).Add(lhs, big.NewInt(2)).Cmp(lb); c < 0 {
		return -1
	}
	// Close: the difference is small.
	if diff.Sign() >= 0 {
		return new(big.Int).Mul(da, new(big.Int).Exp(big.NewInt(10), diff, nil)).Cmp(db)
	}
	return da.Cmp(new(big.Int).Mul(db, new(big.Int).Exp(big.NewInt(10), diff.Neg(diff), nil)))
}

func refMultiple(x, m string) bool {
	dx, ex := refNumber(x)
	dm, em := refNumber(m)
	k := new(big.Int).Sub(ex, em)
	if k.Sign() < 0 {
		// x/m = dx / (dm·10^-k): an integer iff dm·10^-k divides dx; dx
		// has few digits, so -k must be small for that.
		if k.Cmp(big.NewInt(-100)) < 0 {
			return false
		}
		div := new(big.Int).Mul(dm, new(big.Int).Exp(big.NewInt(10), k.Neg(k), nil))
		return new(big.Int).Mod(dx, div).Sign() == 0
	}
	r := new(big.Int).Exp(big.NewInt(10), k, dm)
	r.Mul(r, dx)
	return r.Mod(r, dm).Sign() == 0
}

// BenchmarkHugeExponent measures Compare and IsMultipleOf on exponents of a
// million digits (linear: about a millisecond, not seconds).
func BenchmarkHugeExponent(b *testing.B) {
	x, y := []byte("1e"+hugeExp), []byte("1e"+hugeExp[:len(hugeExp)-1]+"1")
	b.Run("Compare", func(b *testing.B) {
		for b.Loop() {
			Compare(x, y)
		}
	})
	b.Run("IsMultipleOf", func(b *testing.B) {
		for b.Loop() {
			IsMultipleOf(x, []byte("0.125"))
		}
	})
}

// TestAppendCanonical: the canonical text is equal exactly when Compare
// says the values are.
func TestAppendCanonical(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"0", "0"}, {"-0", "0"}, {"0.000e5", "0"},
		{"1", "1e1"}, {"1.0", "1e1"}, {"10e-1", "1e1"}, {"0.1e1", "1e1"}, {"1E+0", "1e1"},
		{"-15", "-15e2"}, {"-1.5e1", "-15e2"}, {"0.0075", "75e-2"},
		{"1e999999999999999999", "1e1000000000000000000"},
		{"10e9999999999999999999", "1e10000000000000000001"},
		{"0.01e1000000000000000000", "1e999999999999999999"},
		{"0.1e-1000000000000000000", "1e-1000000000000000000"},
		{"100e-1000000000000000000", "1e-999999999999999997"},
	}
	for _, tt := range tests {
		if got := string(AppendCanonical(nil, []byte(tt.raw))); got != tt.want {
			t.Errorf("AppendCanonical(%s) = %s, want %s", tt.raw, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	exps := []string{"0", "1", "-1", "2", "17", "18", "-18", "999999999999999999", "1000000000000000000", "1000000000000000001",
		"999999999999999998", "9999999999999999999", "10000000000000000000", "-1000000000000000000", "-999999999999999999", "-1000000000000000001"}
	mants := []string{"1", "10", "0.1", "0.01", "100", "1.5", "15", "150", "-1", "-10", "0", "0.0"}
	for range 5000 {
		a := mants[rng.IntN(len(mants))] + "e" + exps[rng.IntN(len(exps))]
		b := mants[rng.IntN(len(mants))] + "e" + exps[rng.IntN(len(exps))]
		ka, kb := string(AppendCanonical(nil, []byte(a))), string(AppendCanonical(nil, []byte(b)))
		if (ka == kb) != (Compare([]byte(a), []byte(b)) == 0) {
			t.Fatalf("%s → %s, %s → %s, but Compare = %d", a, ka, b, kb, Compare([]byte(a), []byte(b)))
		}
	}
}
