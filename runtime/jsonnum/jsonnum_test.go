package jsonnum

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestInt64(t *testing.T) {
	tests := []struct {
		raw   string
		v     int64
		ok    bool
		isInt bool
	}{
		{"0", 0, true, true},
		{"-0", 0, true, true},
		{"0.0", 0, true, true},
		{"-0.000e-5", 0, true, true},
		{"0e99999999999999999999", 0, true, true},
		{"7", 7, true, true},
		{"-42", -42, true, true},
		{"1.0", 1, true, true},
		{"1e2", 100, true, true},
		{"1E+2", 100, true, true},
		{"1.5e1", 15, true, true},
		{"-1.50e1", -15, true, true},
		{"150e-1", 15, true, true},
		{"12345.6789e4", 123456789, true, true},
		{"1.5", 0, false, false},
		{"1e-1", 0, false, false},
		{"-0.5", 0, false, false},
		{"1.000000000000000000001", 0, false, false},
		{"123456789012345678", 123456789012345678, true, true}, // 18 digits: fast path
		{"9223372036854775807", math.MaxInt64, true, true},
		{"-9223372036854775808", math.MinInt64, true, true},
		{"9223372036854775808", 0, false, true},
		{"-9223372036854775809", 0, false, true},
		{"9223372036854775807.0", math.MaxInt64, true, true},
		{"9.223372036854775807e18", math.MaxInt64, true, true},
		{"-9.223372036854775808e18", math.MinInt64, true, true},
		{"9.223372036854775808e18", 0, false, true},
		{"1e18", 1e18, true, true},
		{"1e19", 0, false, true},
		{"99999999999999999999", 0, false, true},
		{"-123123123123123123123123123123", 0, false, true},
		{"1e99999999999999999999", 0, false, true},
		{"-1e+9999", 0, false, true},
		{"1e-99999999999999999999", 0, false, false},
		{"123.456e-789", 0, false, false},
		{"0.4e00669999999999999999999999999999999999999999999999999999", 0, false, true},
		{"1e000000000000000000000000000000000002", 100, true, true},
	}
	for _, tt := range tests {
		v, ok, isInt := Int64([]byte(tt.raw))
		if v != tt.v || ok != tt.ok || isInt != tt.isInt {
			t.Errorf("Int64(%s) = %d, %v, %v; want %d, %v, %v", tt.raw, v, ok, isInt, tt.v, tt.ok, tt.isInt)
		}
	}
}

func TestFloat64(t *testing.T) {
	tests := []struct {
		raw  string
		want float64
	}{
		{"0", 0},
		{"-1.5", -1.5},
		{"129.99", 129.99},
		{"1e308", 1e308},
		{"1e309", math.Inf(1)},
		{"-1e99999999999999999999", math.Inf(-1)},
		{"1e-400", 0},
		{"4.9e-324", 5e-324},
		{"42", 42},
		{"-123456789012345", -123456789012345},
		{"9007199254740993", 9007199254740992},
		{"", 0},
	}
	for _, tt := range tests {
		if got := Float64([]byte(tt.raw)); got != tt.want {
			t.Errorf("Float64(%q) = %v, want %v", tt.raw, got, tt.want)
		}
	}
	if got := Float64([]byte("-0")); !math.Signbit(got) {
		t.Errorf("Float64(-0) = %v, want negative zero", got)
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0", "0", 0},
		{"-0", "0", 0},
		{"0.000", "-0e10", 0},
		{"1", "1.0", 0},
		{"1", "1e0", 0},
		{"1", "10e-1", 0},
		{"1", "0.1e1", 0},
		{"100", "1e2", 0},
		{"1.5e1", "15", 0},
		{"1", "2", -1},
		{"2", "1", 1},
		{"-1", "1", -1},
		{"-2", "-1", -1},
		{"-1", "-2", 1},
		{"0", "-0.0001", 1},
		{"0", "1e-99999999999999999999", -1},
		{"-1e-99999999999999999999", "0", -1},
		{"1.1", "1.09", 1},
		{"1.09", "1.1", -1},
		{"1.2", "1.23", -1},
		{"12.3", "1.23e1", 0},
		{"0.05", "5e-2", 0},
		{"0.05", "0.5", -1},
		{"999", "1e3", -1},
		{"1000.0001", "1e3", 1},
		{"9.99999999999999999999999", "10", -1},
		{"10.00000000000000000000001", "10", 1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"-123456789012345678901234567890", "-123456789012345678901234567891", 1},
		{"9223372036854775807", "9223372036854775808", -1},
		{"1e999999999", "1e999999998", 1},
		{"1e999999999", "10e999999998", 0},
		{"1e99999999999999999999", "1e99999999999999999998", 1},
		{"1e99999999999999999999", "10e99999999999999999998", 0},
		{"1e99999999999999999999", "0.1e100000000000000000000", 0},
		{"-1e99999999999999999999", "-1e99999999999999999998", -1},
		{"1e-99999999999999999999", "1e-99999999999999999998", -1},
		{"1e99999999999999999999", "99999999999999999999", 1},
		{"1e-99999999999999999999", "0.0000001", -1},
		{"1e9223372036854775807", "1e9223372036854775806", 1},
		{"1e-9223372036854775808", "1e-9223372036854775807", -1},
		{"1e0000000000000000000000000000001", "10", 0},
	}
	for _, tt := range tests {
		if got := Compare([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare([]byte(tt.b), []byte(tt.a)); got != -tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

func TestIsMultipleOf(t *testing.T) {
	tests := []struct {
		x, m string
		want bool
	}{
		// JSON-Schema-Test-Suite multipleOf.json and friends.
		{"10", "2", true},
		{"7", "2", false},
		{"0", "1.5", true},
		{"4.5", "1.5", true},
		{"35", "1.5", false},
		{"0.0075", "0.0001", true},
		{"0.00751", "0.0001", false},
		{"1e308", "0.123456789", false},
		{"12391239123", "1e-8", true},
		{"1e308", "1e-8", true},
		{"-10", "2", true},
		{"1.0", "1", true},
		{"1.5", "1", false},
		// Money and the traps of binary floating point.
		{"19.99", "0.01", true},
		{"0.3", "0.1", true},
		{"0.07", "0.01", true},
		{"4.35", "0.05", true},
		{"4.36", "0.05", false},
		{"-0.0", "0.01", true},
		{"1e-2", "0.01", true},
		{"1e-3", "0.01", false},
		{"100", "1e2", true},
		{"1e2", "10", true},
		{"120", "1.2e2", true},
		{"12", "1.2e1", true},
		{"12", "0.5", true},
		{"12.25", "0.5", false},
		{"12.5", "2.5", true},
		{"7.5", "2.5", true},
		{"8", "2.5", false},
		{"0.1", "1e-20", true},
		{"1e-21", "1e-20", false},
		{"9223372036854775807", "7", true},
		{"9223372036854775808", "2", true},
		{"18446744073709551617", "3", false},
		{"18446744073709551615", "3", true},
		{"123456789012345678901234567890", "10", true},
		{"123456789012345678901234567890", "7", true},
		{"123456789012345678901234567890", "11", false},
		{"1234567890123456789012345678901234567890", "123456789012345678901234567890.1234567890", true},
		{"1234567890123456789012345678901234567891", "123456789012345678901234567890.1234567890", false},
		{"246913578024691357802469135780.2469135780", "123456789012345678901234567890.1234567890", true},
		{"1e99999999999999999999", "2", true},
		{"1e99999999999999999999", "3", false},
		{"1e99999999999999999999", "0.125", true},
		{"1e-99999999999999999999", "1", false},
		{"1e-99999999999999999999", "1e-99999999999999999999", true},
		{"3e-99999999999999999999", "1.5e-99999999999999999999", true},
		{"3e-99999999999999999999", "2e-99999999999999999999", false},
		{"7", "0", false},
		{"0", "0", false},
	}
	for _, tt := range tests {
		if got := IsMultipleOf([]byte(tt.x), []byte(tt.m)); got != tt.want {
			t.Errorf("IsMultipleOf(%s, %s) = %v, want %v", tt.x, tt.m, got, tt.want)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	var sink int
	for _, c := range []struct{ name, a, b string }{
		{"plain ints", "123456", "-98765"},
		{"decimals", "129.99", "1.2999e2"},
		{"long digits", "123456789012345678901234567890.5", "123456789012345678901234567890.25"},
		{"huge exponent", "1e999999999", "-1e-999999999"},
	} {
		a, b := []byte(c.a), []byte(c.b)
		allocs := testing.AllocsPerRun(100, func() {
			sink += Compare(a, b)
			v, _, _ := Int64(a)
			sink += int(v)
			if c.name != "huge exponent" { // out of float64 range: ParseFloat's error allocates
				sink += int(Float64(a))
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocs per run, want 0", c.name, allocs)
		}
	}
	for _, c := range [][2]string{{"1999", "7"}, {"19.99", "0.01"}, {"1e308", "0.123456789"}} {
		x, m := []byte(c[0]), []byte(c[1])
		if allocs := testing.AllocsPerRun(100, func() {
			if IsMultipleOf(x, m) {
				sink++
			}
		}); allocs != 0 {
			t.Errorf("IsMultipleOf(%s, %s): %v allocs per run, want 0", x, m, allocs)
		}
	}
	_ = sink
}

// numberRE is the RFC 8259 number grammar, with short exponents so that
// math/big can check the result.
var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?$`)

func rat(t *testing.T, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat rejects %q", s)
	}
	return r
}

var fuzzSeeds = []string{
	"0", "-0", "1", "1.0", "1e0", "10e-1", "0.1e1", "-1.5e1", "15", "19.99", "0.01",
	"123456789012345678901234567890", "9223372036854775807", "-9223372036854775808",
	"1e308", "0.123456789", "0.0075", "0.0001", "1E+2", "100", "4.5", "1.5", "1e-999",
}

// FuzzFloat64 checks Float64 against strconv.ParseFloat.
func FuzzFloat64(f *testing.F) {
	for _, a := range fuzzSeeds {
		f.Add(a)
	}
	for _, a := range []string{"-0", "999999999999999", "-999999999999999", "9007199254740993", "1234567890123456"} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, a string) {
		if !numberRE.MatchString(a) {
			t.Skip()
		}
		want, _ := strconv.ParseFloat(a, 64)
		if got := Float64([]byte(a)); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("Float64(%s) = %v, want %v", a, got, want)
		}
	})
}

// FuzzCompare checks Compare against math/big.Rat.
func FuzzCompare(f *testing.F) {
	for i, a := range fuzzSeeds {
		f.Add(a, fuzzSeeds[(i+1)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !numberRE.MatchString(a) || !numberRE.MatchString(b) {
			t.Skip()
		}
		want := rat(t, a).Cmp(rat(t, b))
		if got := Compare([]byte(a), []byte(b)); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", a, b, got, want)
		}
	})
}

// FuzzInt64 checks Int64 against math/big.Rat.
func FuzzInt64(f *testing.F) {
	for _, a := range fuzzSeeds {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, a string) {
		if !numberRE.MatchString(a) {
			t.Skip()
		}
		r := rat(t, a)
		v, ok, isInt := Int64([]byte(a))
		wantOK := r.IsInt() && r.Num().IsInt64()
		if isInt != r.IsInt() || ok != wantOK || (ok && v != r.Num().Int64()) {
			t.Fatalf("Int64(%s) = %d, %v, %v; want isInt %v, ok %v, value %s", a, v, ok, isInt, r.IsInt(), wantOK, r.RatString())
		}
	})
}

// FuzzIsMultipleOf checks IsMultipleOf against math/big.Rat.
func FuzzIsMultipleOf(f *testing.F) {
	for i, a := range fuzzSeeds {
		f.Add(a, fuzzSeeds[(i+3)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, x, m string) {
		if !numberRE.MatchString(x) || !numberRE.MatchString(m) || strings.HasPrefix(m, "-") {
			t.Skip()
		}
		rm := rat(t, m)
		if rm.Sign() == 0 {
			t.Skip()
		}
		want := new(big.Rat).Quo(rat(t, x), rm).IsInt()
		if got := IsMultipleOf([]byte(x), []byte(m)); got != want {
			t.Fatalf("IsMultipleOf(%s, %s) = %v, want %v", x, m, got, want)
		}
	})
}

func BenchmarkInt64(b *testing.B) {
	for _, raw := range []string{"42", "-1234567890", "1.5e3", "9223372036854775807"} {
		data := []byte(raw)
		b.Run(raw, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Int64(data)
			}
		})
	}
}

func BenchmarkCompare(b *testing.B) {
	for _, c := range [][2]string{{"42", "100"}, {"129.99", "1e3"}, {"0.0001", "1e-4"}, {"1e999999999", "1e999999998"}} {
		x, y := []byte(c[0]), []byte(c[1])
		b.Run(c[0]+"_vs_"+c[1], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compare(x, y)
			}
		})
	}
}

func BenchmarkIsMultipleOf(b *testing.B) {
	for _, c := range [][2]string{{"1999", "7"}, {"19.99", "0.01"}, {"1e308", "0.123456789"}} {
		x, m := []byte(c[0]), []byte(c[1])
		b.Run(c[0]+"_of_"+c[1], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				IsMultipleOf(x, m)
			}
		})
	}
}
