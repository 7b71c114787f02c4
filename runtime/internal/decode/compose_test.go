package decode

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

func TestFirstTwo(t *testing.T) {
	for _, tc := range []struct {
		oks           []bool
		first, second int
	}{
		{nil, -1, -1},
		{[]bool{false, false}, -1, -1},
		{[]bool{false, true, false}, 1, -1},
		{[]bool{true, false, true, true}, 0, 2},
	} {
		if f, s := FirstTwo(tc.oks...); f != tc.first || s != tc.second {
			t.Errorf("FirstTwo(%v) = %d, %d; want %d, %d", tc.oks, f, s, tc.first, tc.second)
		}
	}
}

func TestMembersAndItems(t *testing.T) {
	var got []string
	for name, raw := range Members([]byte(` {"a\u0062": [1, {"x":2}], "c" : "d"}`)) {
		got = append(got, name+"="+string(raw))
	}
	if want := []string{`ab=[1, {"x":2}]`, `c="d"`}; !slices.Equal(got, want) {
		t.Errorf("Members = %q, want %q", got, want)
	}
	got = nil
	for i, raw := range Items([]byte(`[1, "two" ,{"3":3}]`)) {
		got = append(got, string(rune('0'+i))+"="+string(raw))
	}
	if want := []string{`0=1`, `1="two"`, `2={"3":3}`}; !slices.Equal(got, want) {
		t.Errorf("Items = %q, want %q", got, want)
	}
	for range Members([]byte(`[1]`)) {
		t.Error("Members of an array yields nothing")
	}
	if !Has([]byte(`{"a":1,"b":2}`), "b") || Has([]byte(`{"a":{"b":2}}`), "b") {
		t.Error("Has looks at the top-level members only")
	}
}

func TestTrial(t *testing.T) {
	var d Decoder
	d.Trial([]byte(`"x"`))
	d.R.String()
	if !d.Valid() {
		t.Error("a read string is valid")
	}
	d.Trial([]byte(`"x" 1`))
	d.R.String()
	if d.Valid() {
		t.Error("trailing data is not valid")
	}
	d.Trial([]byte(`"x"`))
	d.R.String()
	d.MinLength("/minLength", 2, 1)
	if d.Valid() {
		t.Error("a violation makes the trial fail")
	}
}

// TestTrialStopsAtFirstViolation: a trial records nothing and keeps no
// value: its first violation stops the reader, so that the rest of the
// value is not read, and a failed trial costs no allocation.
func TestTrialStopsAtFirstViolation(t *testing.T) {
	raw := []byte(`{"a":"x","b":1,"c":true}`)
	var d Decoder
	try := func() {
		d.Trial(raw)
		d.R.ObjectStart()
		d.R.NextMember()
		d.PushName()
		start := d.R.Offset()
		if got := d.Value(d.R.String()); got != "" {
			t.Errorf("Value in a trial = %q, want \"\"", got)
		}
		if c := d.Capture(start); string(c) != `"x"` || &c[0] != &raw[start] {
			t.Errorf("Capture in a trial = %q, want a view of the input", c)
		}
		d.Pop()
		d.R.NextMember()
		d.PushName()
		d.TypeMismatch("/properties/b/type", "string")
		d.Pop()
	}
	try()
	if d.R.Err() != jsonread.Stopped || d.v.Len() != 0 {
		t.Errorf("after a violation: reader error %v, %d records; want stopped, none", d.R.Err(), d.v.Len())
	}
	if name, ok := d.R.NextMember(); ok {
		t.Errorf("a stopped trial read on: %q", name)
	}
	if d.Valid() {
		t.Error("a violation makes the trial fail")
	}
	if n := testing.AllocsPerRun(100, try); n != 0 {
		t.Errorf("a failed trial: %v allocations, want 0", n)
	}
	// Reset ends the trial: the same violation is recorded again.
	d.Reset("t", raw)
	d.R.ObjectStart()
	d.R.NextMember()
	d.PushName()
	d.TypeMismatch("/properties/a/type", "integer")
	if d.v.Len() != 1 || d.R.Err() != nil {
		t.Errorf("after Reset: %d records, reader error %v; want 1, none", d.v.Len(), d.R.Err())
	}
}

func TestCompositionViolations(t *testing.T) {
	for _, tc := range []struct {
		name    string
		record  func(d *Decoder)
		keyword string
		message string
	}{
		{"oneOf none", func(d *Decoder) { d.OneOf("/oneOf", -1, -1) }, "oneOf", "a must match exactly one schema of oneOf; it matches none"},
		{"oneOf two", func(d *Decoder) { d.OneOf("/oneOf", 0, 2) }, "oneOf", "a must match exactly one schema of oneOf; it matches #0 and #2"},
		{"anyOf", func(d *Decoder) { d.AnyOf("/anyOf") }, "anyOf", "a must match at least one schema of anyOf; it matches none"},
		{"allOf", func(d *Decoder) { d.AllOf("/allOf/1", 1) }, "allOf", "a must match every schema of allOf; it does not match #1"},
		{"not", func(d *Decoder) { d.Not("/not") }, "not", "a must not match the schema of not"},
		{"then", func(d *Decoder) { d.IfThenElse("/then", "then") }, "then", "a matches the if schema, so it must match then"},
		{"else", func(d *Decoder) { d.IfThenElse("/else", "else") }, "else", "a does not match the if schema, so it must match else"},
		{"min contains", func(d *Decoder) { d.Contains("/contains", 2, -1, 1) }, "minContains", "a must contain at least 2 items matching contains; received 1"},
		{"contains", func(d *Decoder) { d.Contains("/contains", 1, -1, 0) }, "contains", "a must contain at least 1 item matching contains; received 0"},
		{"max contains", func(d *Decoder) { d.Contains("/contains", 1, 3, 4) }, "maxContains", "a must contain between 1 and 3 items matching contains; received 4"},
		{"minProperties", func(d *Decoder) { d.MinProperties("/minProperties", 2, 1) }, "minProperties", "a must have at least 2 members; received 1"},
		{"dependentRequired", func(d *Decoder) { d.DependentRequired("/dependentRequired/x", "x", "y") }, "dependentRequired", `a must have y because it has x`},
		{"propertyNames", func(d *Decoder) { d.PropertyName("/propertyNames", "Bad") }, "propertyNames", `a has a member name that propertyNames does not allow; received Bad`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := violations(t, `{"a": 1}`, func(d *Decoder) { d.R.Skip(); tc.record(d) })
			if len(vs) != 1 || vs[0].Keyword != tc.keyword || vs[0].Message != tc.message || vs[0].InstancePath != "/a" {
				t.Errorf("got %+v, want keyword %s, message %q", vs, tc.keyword, tc.message)
			}
		})
	}
}

func TestPropertyNameHiddenWhenSensitive(t *testing.T) {
	vs := violations(t, `{"a": 1}`, func(d *Decoder) {
		d.BeginSensitive()
		d.R.Skip()
		d.PropertyName("/propertyNames", "secret-name")
		d.EndSensitive()
	})
	if len(vs) != 1 || strings.Contains(vs[0].Message, "secret-name") {
		t.Errorf("got %+v, want one violation that does not repeat the name", vs)
	}
}

func TestTag(t *testing.T) {
	vals := []string{`"cat"`, `"dog"`, `1`}
	for _, tc := range []struct {
		ahead string
		want  int
	}{
		{`{"kind":"dog","x":1}`, 1},
		{` { "kind" : "cat" } , "next": 2}`, 0},
		{`{"x":1,"kind":"dog"}`, 1},
		{`{"kind":"do\u0067"}`, 1},
		{`{"k\u0069nd":"cat"}`, 0},
		{`{"kind":1.0}`, 2},
		{`{"kind":"dogs"}`, -1},
		{`{"kind":"dog"x}`, 1}, // what follows the tag is the decoder's to refuse
		{`{"other":"dog"}`, -1},
		{`["kind","dog"]`, -1},
		{`"dog"`, -1},
	} {
		if got := Tag([]byte(tc.ahead), "kind", vals...); got != tc.want {
			t.Errorf("Tag(%s) = %d, want %d", tc.ahead, got, tc.want)
		}
	}
}

// stringTrialRules are the rules TestStringTrial and FuzzStringTrial try.
var stringTrialRules = []*Scalar{
	NewString("/a"),
	NewString("/b", Format("ipv4")),
	NewString("/c", Format("ipv6")),
	NewString("/d", MinLength(2), MaxLength(3)),
	NewString("/e", Pattern(`^[a-z]+$`)),
	NewString("/f", MinLength(1), Pattern(`b$`), Format("hostname")),
}

// decoderTrial is the trial StringTrial stands for: a Decoder that reads
// raw with the rule, a value of another type satisfying it when others.
func decoderTrial(raw []byte, r *Scalar, others bool) bool {
	var d Decoder
	d.Trial(raw)
	if others && d.R.Peek() != jsonread.String {
		d.R.Skip()
		return d.Valid()
	}
	d.ReadString(r)
	return d.Valid()
}

// TestStringTrial: the trial without a Decoder gives the Decoder's
// verdict, for strings plain and escaped, values of other types (which
// satisfy a branch without a type, and not one of type string) and
// whitespace around the value.
func TestStringTrial(t *testing.T) {
	cases := []struct {
		raw  string
		want []bool // per rule, typed; others only changes non-strings
	}{
		{`"192.0.2.1"`, []bool{true, true, false, false, false, false}},
		{`"::1"`, []bool{true, false, true, true, false, false}},
		{`"192\u002e0.2.1"`, []bool{true, true, false, false, false, false}},
		{`"ab"`, []bool{true, false, false, true, true, true}},
		{`"\u00e9\u00e9"`, []bool{true, false, false, true, false, false}},
		{`"éééé"`, []bool{true, false, false, false, false, false}},
		{`""`, []bool{true, false, false, false, false, false}},
		{" \t\"ab\"\n", []bool{true, false, false, true, true, true}},
		{`"a\nb"`, []bool{true, false, false, true, false, false}},
	}
	for _, c := range cases {
		for i, r := range stringTrialRules {
			for _, others := range []bool{false, true} {
				got := StringTrial([]byte(c.raw), r, others)
				if got != c.want[i] {
					t.Errorf("StringTrial(%s, rule %s, %v) = %v, want %v", c.raw, r.ptr, others, got, c.want[i])
				}
				if d := decoderTrial([]byte(c.raw), r, others); d != got {
					t.Errorf("StringTrial(%s, rule %s, %v) = %v, the Decoder's trial %v", c.raw, r.ptr, others, got, d)
				}
			}
		}
	}
	for _, raw := range []string{`12`, `null`, `true`, `{"a":"b"}`, `["x"]`, ` -1.5e3 `} {
		for _, r := range stringTrialRules {
			for _, others := range []bool{false, true} {
				if got := StringTrial([]byte(raw), r, others); got != others {
					t.Errorf("StringTrial(%s, rule %s, %v) = %v, want %v", raw, r.ptr, others, got, others)
				}
			}
		}
	}
}

// FuzzStringTrial holds StringTrial to the Decoder's trial on any JSON
// value the reader accepts.
func FuzzStringTrial(f *testing.F) {
	for _, s := range []string{`"192.0.2.1"`, `"\u00e9b"`, `"ab"`, ` "x" `, `7`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var r jsonread.Reader
		r.Reset(raw, jsonread.DefaultLimits)
		r.Skip()
		if r.Finish(); r.Err() != nil {
			return
		}
		for _, rule := range stringTrialRules {
			for _, others := range []bool{false, true} {
				if got, want := StringTrial(raw, rule, others), decoderTrial(raw, rule, others); got != want {
					t.Fatalf("StringTrial(%q, rule %s, %v) = %v, the Decoder's trial %v", raw, rule.ptr, others, got, want)
				}
			}
		}
	})
}
