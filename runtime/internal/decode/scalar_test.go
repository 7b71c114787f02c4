package decode

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// summary renders violations as "keyword schemaPath: message" lines.
func summary(vs []toolerr.Violation) string {
	var lines []string
	for _, v := range vs {
		lines = append(lines, v.Keyword+" "+v.SchemaPath+": "+v.Message)
	}
	return strings.Join(lines, "\n")
}

// TestScalarReads: each read checks the type and every keyword of its
// Scalar, enum and const included, in one fixed order (a number's enum
// before its float64 range), with their pointers and messages,
// and returns the value only when the type holds it.
func TestScalarReads(t *testing.T) {
	str := NewString("/properties/s", MinLength(2), MaxLength(3), TranslatedPattern("^\\d+$", "^[0-9]+$"), Format("uuid"))
	hidden := NewString("/properties/h", Pattern("^[0-9]+$"), Sensitive)
	integer := NewInt("/properties/i", Minimum("1.5"), ExclusiveMaximum("10"), MultipleOf("3"))
	hugeBounds := NewInt("/properties/b", Minimum("-1e30"), Maximum("1e19"))
	bigMultiple := NewInt("/properties/m", MultipleOf("0.5"))
	number := NewNumber("/properties/n", ExclusiveMinimum("0"), Maximum("100"), MultipleOf("0.01"))
	secret := NewNumber("/properties/x", Maximum("1"), Sensitive)
	few := NewString("/properties/e", Enum("a", "b c", "d\"e"))
	var values []string
	for i := range 20 {
		values = append(values, string(rune('a'+i)))
	}
	many := NewString("/properties/e", MaxLength(1), Enum(values...))
	intEnum := NewInt("/properties/i", Maximum("5"), EnumOf("enum", "1, 2, 9 or \"x\"", "1", "2", "9"))
	numEnum := NewNumber("/properties/n", EnumOf("enum", "0.5 or 1e400", "0.5", "1e400"))
	numConst := NewNumber("/properties/n", EnumOf("const", "\"x\""))
	kind := NewString("/properties/k", Const("email"))
	readE := func(r *Scalar) func(d *Decoder) (any, bool) {
		return func(d *Decoder) (any, bool) { return d.ReadEnum(r) }
	}
	runReads(t, []readCase{
		{"string too short", `{"s":"é"}`, readV(NewString("/properties/s", MinLength(2))), "", true, "minLength /properties/s/minLength: s must be at least 2 characters long; received 1 character"},
		{"string type", `{"s":12}`, readV(str), "", false, "type /properties/s/type: s must be a string; received a number"},
		{"string value", `{"s":"é"}`, readV(NewString("/properties/s", MaxLength(1))), "é", true, ""},
		{"string value refused", `{"s":"12"}`, readV(str), "", true, "format /properties/s/format: s must be a valid UUID; received 12"},
		{"string value type", `{"s":true}`, readV(str), "", false, "type /properties/s/type: s must be a string; received a boolean"},
		{"string value every rule", `{"s":"abcd"}`, readV(str), "", true, "maxLength /properties/s/maxLength: s must be at most 3 characters long; received 4 characters\npattern /properties/s/pattern: s must match the pattern ^\\d+$; received abcd\nformat /properties/s/format: s must be a valid UUID; received abcd"},
		{"string sensitive", `{"h":"secret"}`, readV(hidden), "", true, "pattern /properties/h/pattern: h must match the pattern ^[0-9]+$"},
		{"int ok", `{"i":6}`, readI(integer), int64(6), true, ""},
		{"int below limit", `{"i":1}`, readI(integer), int64(1), true, "minimum /properties/i/minimum: i must be at least 1.5; received 1\nmultipleOf /properties/i/multipleOf: i must be a multiple of 3; received 1"},
		{"int at exclusive", `{"i":10}`, readI(integer), int64(10), true, "exclusiveMaximum /properties/i/exclusiveMaximum: i must be less than 10; received 10\nmultipleOf /properties/i/multipleOf: i must be a multiple of 3; received 10"},
		{"int fraction", `{"i":6.5}`, readI(integer), int64(0), false, "type /properties/i/type: i must be an integer; received 6.5"},
		{"int one point zero", `{"i":3.0}`, readI(integer), int64(3), true, ""},
		{"int huge breaks", `{"i":1e30}`, readI(integer), int64(0), false, "exclusiveMaximum /properties/i/exclusiveMaximum: i must be less than 10; received 1e30"},
		{"int huge keeps", `{"b":-1e20}`, readI(hugeBounds), int64(0), false, "type /properties/b/type: b must be an integer between -9223372036854775808 and 9223372036854775807; received -1e20"},
		{"int beyond int64 bound", `{"b":9223372036854775807}`, readI(hugeBounds), int64(math.MaxInt64), true, ""},
		{"int huge beyond both", `{"b":-1e31}`, readI(hugeBounds), int64(0), false, "minimum /properties/b/minimum: b must be at least -1e30; received -1e31"},
		{"int fractional multiple", `{"m":7}`, readI(bigMultiple), int64(7), true, ""},
		{"number ok", `{"n":12.34}`, readN(number), 12.34, true, ""},
		{"number rules on the text", `{"n":0}`, readN(number), 0.0, true, "exclusiveMinimum /properties/n/exclusiveMinimum: n must be greater than 0; received 0"},
		{"number every rule", `{"n":100.001}`, readN(number), 100.001, true, "maximum /properties/n/maximum: n must be at most 100; received 100.001\nmultipleOf /properties/n/multipleOf: n must be a multiple of 0.01; received 100.001"},
		{"number float bound", `{"n":1e-400}`, readN(number), 0.0, true, "multipleOf /properties/n/multipleOf: n must be a multiple of 0.01; received 1e-400\nexclusiveMinimum /properties/n/exclusiveMinimum: n must be greater than 0 also as a 64-bit floating-point number; received 1e-400, which is 0 as a 64-bit float"},
		{"number beyond float64", `{"n":1e400}`, readN(NewNumber("/properties/n")), 0.0, false, "type /properties/n/type: n must be a number within the 64-bit floating-point range; received 1e400"},
		{"number sensitive", `{"x":2}`, readN(secret), 2.0, true, "maximum /properties/x/maximum: x must be at most 1"},
		{"number type", `{"n":"1"}`, readN(number), 0.0, false, "type /properties/n/type: n must be a number; received a string"},
		{"int enum", `{"i":2}`, readI(intEnum), int64(2), true, ""},
		{"int enum breaks a bound", `{"i":9}`, readI(intEnum), int64(9), true, "maximum /properties/i/maximum: i must be at most 5; received 9"},
		{"int outside enum", `{"i":3}`, readI(intEnum), int64(0), false, "enum /properties/i/enum: i must be one of 1, 2, 9 or \"x\"; received 3"},
		{"int outside enum beyond int64", `{"i":1e30}`, readI(intEnum), int64(0), false, "maximum /properties/i/maximum: i must be at most 5; received 1e30"},
		{"number enum", `{"n":5e-1}`, readN(numEnum), 0.5, true, ""},
		{"number enum beyond float64", `{"n":1e400}`, readN(numEnum), 0.0, false, "type /properties/n/type: n must be a number within the 64-bit floating-point range; received 1e400"},
		{"number outside enum beyond float64", `{"n":1e401}`, readN(numEnum), 0.0, false, "enum /properties/n/enum: n must be one of 0.5 or 1e400; received 1e401\ntype /properties/n/type: n must be a number within the 64-bit floating-point range; received 1e401"},
		{"number const of another type", `{"n":1}`, readN(numConst), 0.0, false, "const /properties/n/const: n must be \"x\"; received 1"},
		{"string const", `{"k":"email"}`, readE(kind), "email", true, ""},
		{"string other than const", `{"k":"phone"}`, readE(kind), "", false, "const /properties/k/const: k must be email; received phone"},
		{"enum", `{"e":"b c"}`, readE(few), "b c", true, ""},
		{"enum escaped", `{"e":"d\\\"e"}`, readE(few), "", false, "enum /properties/e/enum: e must be one of a, \"b c\" or \"d\\\"e\"; received \"d\\\\\\\"e\""},
		{"enum quoted value", `{"e":"d\"e"}`, readE(few), "d\"e", true, ""},
		{"enum type", `{"e":1}`, readE(few), "", false, "type /properties/e/type: e must be a string; received a number"},
		{"enum indexed", `{"e":"t"}`, readE(many), "t", true, ""},
		{"enum indexed outside", `{"e":"zz"}`, readE(many), "", false, "maxLength /properties/e/maxLength: e must be at most 1 character long; received 2 characters\nenum /properties/e/enum: e must be one of a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s or t; received zz"},
		{"bool", `{"b":true}`, func(d *Decoder) (any, bool) { return d.ReadBool("/properties/b/type") }, true, true, ""},
		{"bool type", `{"b":"true"}`, func(d *Decoder) (any, bool) { return d.ReadBool("/properties/b/type") }, false, false, "type /properties/b/type: b must be a boolean; received a string"},
	})
}

// readCase is a read of a member of data, what it returns and the
// violations it records.
type readCase struct {
	name, data string
	read       func(d *Decoder) (any, bool)
	want       any
	ok         bool
	violations string
}

func runReads(t *testing.T, tests []readCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			var ok bool
			vs := violations(t, tt.data, func(d *Decoder) { got, ok = tt.read(d) })
			if !reflect.DeepEqual(got, tt.want) || ok != tt.ok {
				t.Errorf("read %#v, %v; want %#v, %v", got, ok, tt.want, tt.ok)
			}
			if s := summary(vs); s != tt.violations {
				t.Errorf("violations:\n%s\nwant:\n%s", s, tt.violations)
			}
		})
	}
}

// readV reads with ReadString, which keeps the value only while the call
// is not refused.
func readV(r *Scalar) func(d *Decoder) (any, bool) {
	return func(d *Decoder) (any, bool) { return d.ReadString(r) }
}

func readI(r *Scalar) func(d *Decoder) (any, bool) {
	return func(d *Decoder) (any, bool) { return d.ReadInt(r) }
}

func readN(r *Scalar) func(d *Decoder) (any, bool) {
	return func(d *Decoder) (any, bool) { return d.ReadNumber(r) }
}

// TestMarkAndAbsentNull: Mark adds the member's bit and records a repeat
// as invalid JSON, after which the repeated value reads as nothing;
// AbsentNull takes a null only under NullAsAbsent.
func TestMarkAndAbsentNull(t *testing.T) {
	for _, nullAsAbsent := range []bool{false, true} {
		var d Decoder
		d.Reset("t", []byte(`{"a":null}`))
		d.NullAsAbsent = nullAsAbsent
		d.Object()
		d.R.ObjectStart()
		d.R.NextMember()
		if seen := d.Mark(0b011, 1<<2); seen != 0b111 {
			t.Fatalf("seen %b, want 111", seen)
		}
		if got := d.AbsentNull(); got != nullAsAbsent {
			t.Errorf("NullAsAbsent %v: AbsentNull %v", nullAsAbsent, got)
		}
		if !nullAsAbsent {
			d.R.Null()
		}
		d.R.NextMember()
		if err := d.Finish(); err != nil {
			t.Fatalf("NullAsAbsent %v: %v", nullAsAbsent, err)
		}
	}
	var d Decoder
	d.Reset("t", []byte(`{"a":1,"a":"two"}`))
	d.Object()
	d.R.ObjectStart()
	var seen uint64
	var got []int64
	r := NewInt("/properties/a")
	for {
		if _, ok := d.R.NextMember(); !ok {
			break
		}
		seen = d.Mark(seen, 1)
		if x, ok := d.ReadInt(r); ok {
			got = append(got, x)
		}
	}
	err := d.Finish()
	if e, ok := toolErr(err); len(got) != 1 || !ok || e.Code != toolerr.InvalidJSON || !strings.Contains(e.Reason, "duplicate member name") {
		t.Fatalf("read %v, error %v; want [1] and a duplicate member name", got, err)
	}
}

// TestRequiredMissing: one violation per missing required member, lowest
// bit first, naming the member of its bit.
func TestRequiredMissing(t *testing.T) {
	vs := violations(t, `{"x":1}`, func(d *Decoder) {
		d.R.Skip()
		d.RequiredMissing("/required", 0b0100, 0b1101, "a", "c", "d")
	})
	want := "required /required: x.a is required\nrequired /required: x.d is required"
	if s := summary(vs); s != want {
		t.Errorf("violations:\n%s\nwant:\n%s", s, want)
	}
}

func TestIntLimit(t *testing.T) {
	tests := []struct {
		text             string
		exclusive, lower bool
		want             int64
		ok               bool
	}{
		{"2", false, true, 2, true},
		{"2", true, true, 3, true},
		{"1.5", false, true, 2, true},
		{"1.5", true, true, 2, true},
		{"-1.5", false, true, -1, true},
		{"2871", false, false, 2871, true},
		{"10", true, false, 9, true},
		{"9.5", true, false, 9, true},
		{"-9.5", false, false, -10, true},
		{"1e2", false, false, 100, true},
		{"1e19", false, false, 0, false},
		{"-1e19", false, true, 0, false},
		{"9223372036854775808", true, false, math.MaxInt64, true},
	}
	for _, tt := range tests {
		got, ok := IntLimit(tt.text, tt.exclusive, tt.lower)
		if got != tt.want || ok != tt.ok {
			t.Errorf("IntLimit(%s, exclusive %v, lower %v) = %d, %v; want %d, %v", tt.text, tt.exclusive, tt.lower, got, ok, tt.want, tt.ok)
		}
	}
}

// TestFloatLimit: the float64 limit of each bound, and none where the
// float64 cannot break what the text keeps.
func TestFloatLimit(t *testing.T) {
	tests := []struct {
		bound            string
		exclusive, lower bool
		want             float64
		ok               bool
	}{
		{"0", false, true, 0, false},
		{"0", true, true, 0, true},
		{"1", true, false, 1, true},
		{"1", false, false, 0, false},
		{"0.3", false, true, 0.30000000000000004, true},
		{"0.1", false, false, 0.09999999999999999, true},
		{"1e-400", true, true, 0, true},
		{"1e400", false, true, 0, false},
		{"-1e400", true, false, 0, false},
		{"1e400", true, true, 0, false},
	}
	for _, tt := range tests {
		got, ok := FloatLimit(tt.bound, tt.exclusive, tt.lower)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FloatLimit(%s, exclusive %v, lower %v) = %v, %v; want %v, %v", tt.bound, tt.exclusive, tt.lower, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFloatNeighbours(t *testing.T) {
	tests := []struct {
		bound    string
		up, down float64
		exact    bool
	}{
		{"0", 0, 0, true},
		{"1", 1, 1, true},
		{"-2.5", -2.5, -2.5, true},
		{"0.1", 0.1, math.Nextafter(0.1, 0), false},       // 0.1 rounds up
		{"0.3", math.Nextafter(0.3, 1), 0.3, false},       // 0.3 rounds down
		{"1e-400", math.SmallestNonzeroFloat64, 0, false}, // underflow
		{"-1e-400", 0, -math.SmallestNonzeroFloat64, false},
		{"9007199254740993", 9007199254740994, 9007199254740992, false},
	}
	for _, bound := range []string{"1e400", "-1e400", "1e999999"} {
		if _, _, _, ok := floatNeighbours(bound); ok {
			t.Errorf("floatNeighbours(%s) applies beyond the float64 range", bound)
		}
	}
	for _, tt := range tests {
		up, down, exact, ok := floatNeighbours(tt.bound)
		if !ok || up != tt.up || down != tt.down || exact != tt.exact {
			t.Errorf("floatNeighbours(%s) = %v, %v, %v, %v; want %v, %v, %v", tt.bound, up, down, exact, ok, tt.up, tt.down, tt.exact)
		}
	}
}

// TestLengthBounds: minLength and maxLength count code points, whether the
// byte length alone decides (1 to 4 bytes per code point) or not: each
// string of 1-, 2-, 3- and 4-byte runes, against bounds around its length,
// is refused exactly when its code point count is out of them, with that
// count in the message.
func TestLengthBounds(t *testing.T) {
	for _, s := range []string{"", "a", "é", "😀", "ab", "éé", "a😀", "😀😀", "aaa", "€€€", "😀😀😀", "a😀é€", "😀😀😀😀"} {
		n := utf8.RuneCountInString(s)
		for lo := range 6 {
			for hi := lo; hi < 6; hi++ {
				r := NewString("/properties/s", MinLength(lo), MaxLength(hi))
				var want []string
				if n < lo {
					want = append(want, fmt.Sprintf("minLength /properties/s/minLength: s must be at least %d %s long; received %d %s", lo, characters(lo), n, characters(n)))
				}
				if n > hi {
					want = append(want, fmt.Sprintf("maxLength /properties/s/maxLength: s must be at most %d %s long; received %d %s", hi, characters(hi), n, characters(n)))
				}
				vs := violations(t, `{"s":"`+s+`"}`, func(d *Decoder) { d.ReadString(r) })
				if got := summary(vs); got != strings.Join(want, "\n") {
					t.Errorf("%q in [%d, %d]: %s, want %s", s, lo, hi, got, strings.Join(want, "\n"))
				}
			}
		}
	}
}

func characters(n int) string {
	if n == 1 {
		return "character"
	}
	return "characters"
}
