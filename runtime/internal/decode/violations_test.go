package decode

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// violations decodes data, an object with one member, calling f with the
// decoder positioned at the member's value (its name pushed), and returns
// the violations recorded.
func violations(t *testing.T, data string, f func(d *Decoder)) []toolerr.Violation {
	t.Helper()
	var d Decoder
	d.Reset("t", []byte(data))
	if !d.Object() {
		t.Fatalf("not an object: %s", data)
	}
	d.R.ObjectStart()
	for {
		if _, ok := d.R.NextMember(); !ok {
			break
		}
		d.PushName()
		f(&d)
		d.Pop()
	}
	err := d.Finish()
	if err == nil {
		return nil
	}
	e, ok := toolErr(err)
	if !ok || e.Code != toolerr.InvalidArguments {
		t.Fatalf("error %v, want invalid_arguments", err)
	}
	return e.Violations()
}

func items(d *Decoder) [][]byte {
	var out [][]byte
	d.R.ArrayStart()
	for d.R.NextItem() {
		out = append(out, d.Raw())
	}
	return out
}

func TestUniqueItems(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // "" for no violation
	}{
		{"distinct", `[1, 2, "1", true, null, {}, []]`, ""},
		{"numbers by value", `[2, 1, 1.0]`, "items 1 and 2 are equal"},
		{"exponent form", `[10e-1, 3, 1]`, "items 0 and 2 are equal"},
		{"negative zero", `[0, -0.0]`, "items 0 and 1 are equal"},
		{"huge exponents", `[1e99999999999999999999, 10e99999999999999999998]`, "items 0 and 1 are equal"},
		{"huge exponents differ", `[1e99999999999999999999, 1e99999999999999999998]`, ""},
		{"false is not 0", `[false, 0, null, ""]`, ""},
		{"escaped strings", `["A", "\u0041"]`, "items 0 and 1 are equal"},
		{"strings differ", `["a", "A", "a "]`, ""},
		{"member order", `[{"a":1,"b":[1,{"c":2}]}, {"b":[1.0,{"c":2e0}],"a":1}]`, "items 0 and 1 are equal"},
		{"nested differ", `[{"a":[1,2]}, {"a":[2,1]}]`, ""},
		{"key not value", `[{"a":"b"}, {"b":"a"}]`, ""},
		{"first pair by j", `[1, 2, 3, 2, 1]`, "items 1 and 3 are equal"},
		{"first i for j", `[5, 5, 5]`, "items 0 and 1 are equal"},
		{"arrays", `[[1,[2]], [1,[2.0]]]`, "items 0 and 1 are equal"},
		{"array not object", `[[], {}]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := violations(t, `{"tags":`+tt.data+`}`, func(d *Decoder) { d.UniqueItems("/properties/tags/uniqueItems", items(d)) })
			switch {
			case tt.want == "" && len(vs) != 0:
				t.Errorf("violations %v, want none", vs)
			case tt.want != "" && (len(vs) != 1 || !strings.HasSuffix(vs[0].Message, tt.want)):
				t.Errorf("violations %v, want one ending %q", vs, tt.want)
			}
			// Agrees with the pairwise definition.
			var raws [][]byte
			var arr []json.RawMessage
			_ = json.Unmarshal([]byte(tt.data), &arr)
			for _, r := range arr {
				raws = append(raws, r)
			}
			wantDup := false
			for j := range raws {
				for i := range j {
					wantDup = wantDup || Equal(raws[i], raws[j])
				}
			}
			if _, _, dup := firstDuplicate(raws); dup != wantDup {
				t.Errorf("firstDuplicate says %v, pairwise Equal says %v", dup, wantDup)
			}
		})
	}
}

// TestUniqueItemsLinear: the work of the uniqueness check grows linearly
// with the number of items. Allocation counts are deterministic; the
// pairwise comparison it replaces parsed two items per pair, so doubling
// the items quadrupled them.
func TestUniqueItemsLinear(t *testing.T) {
	list := func(n int) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			out[i] = fmt.Appendf(nil, `{"id":%d,"v":"x"}`, i)
		}
		return out
	}
	small, large := list(200), list(800)
	a := testing.AllocsPerRun(3, func() { firstDuplicate(small) })
	b := testing.AllocsPerRun(3, func() { firstDuplicate(large) })
	if b > 5*a {
		t.Errorf("4× the items cost %.0f allocations, %.1f× the %.0f of the smaller list: not linear", b, b/a, a)
	}
}

func BenchmarkUniqueItems(b *testing.B) {
	list := make([][]byte, 2000)
	for i := range list {
		list[i] = fmt.Appendf(nil, `{"id":%d,"tags":["a","b"],"price":%d.50}`, i, i)
	}
	b.ReportAllocs()
	for b.Loop() {
		firstDuplicate(list)
	}
}

// TestSensitiveNumbers: ParseInt, IntRange and ParseFloat do not repeat
// the number of a sensitive member, and do repeat any other.
func TestSensitiveNumbers(t *testing.T) {
	const secret = "123456789.5"
	const huge = "1e999"
	tests := []struct {
		name, raw string
		parse     func(d *Decoder, raw []byte) bool
		echoes    bool
	}{
		{"ParseInt sensitive", secret, func(d *Decoder, raw []byte) bool { _, ok, _ := d.ParseInt(raw, "/p/type", true); return ok }, false},
		{"ParseInt", secret, func(d *Decoder, raw []byte) bool { _, ok, _ := d.ParseInt(raw, "/p/type", false); return ok }, true},
		{"IntRange sensitive", "99999999999999999999", func(d *Decoder, raw []byte) bool {
			_, ok, huge := d.ParseInt(raw, "/p/type", true)
			if huge {
				d.IntRange("/p/type", d.shown(raw, true))
			}
			return ok
		}, false},
		{"IntRange", "99999999999999999999", func(d *Decoder, raw []byte) bool {
			_, ok, huge := d.ParseInt(raw, "/p/type", false)
			if huge {
				d.IntRange("/p/type", d.shown(raw, false))
			}
			return ok
		}, true},
		{"ParseFloat sensitive", huge, func(d *Decoder, raw []byte) bool { _, ok := d.ParseFloat(raw, "/p/type", true); return ok }, false},
		{"ParseFloat", huge, func(d *Decoder, raw []byte) bool { _, ok := d.ParseFloat(raw, "/p/type", false); return ok }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := violations(t, `{"pin":`+tt.raw+`}`, func(d *Decoder) {
				if tt.parse(d, d.R.Number()) {
					t.Error("accepted")
				}
			})
			if len(vs) != 1 {
				t.Fatalf("violations %v", vs)
			}
			if got := strings.Contains(vs[0].Message, tt.raw); got != tt.echoes {
				t.Errorf("message %q: echoes the value %v, want %v", vs[0].Message, got, tt.echoes)
			}
		})
	}
}

// TestLongNamesCapped: a member name is repeated at most 128 runes long in
// a violation's pointer and message, and a duplicate name in the reason of
// the invalid_json error at most 64 bytes long, so the error stays small
// whatever the input.
func TestLongNamesCapped(t *testing.T) {
	long := strings.Repeat("é", 10000)
	cut := strings.Repeat("é", eagerMaxName) + "…"
	tests := []struct {
		name, data      string
		wantPtr, wantIn string
	}{
		{"short name exact", `{"a/b":{"c":1}}`, "/a~1b/c", `"a/b".c is not a known field`},
		{"name at the cap", `{"` + strings.Repeat("x", eagerMaxName) + `":1}`, "/" + strings.Repeat("x", eagerMaxName), strings.Repeat("x", eagerMaxName) + " is not"},
		{"long name cut", `{"` + long + `":1}`, "/" + cut, cut + " is not"},
		{"long nested names cut", `{"` + long + `":{"` + long + `":1}}`, "/" + cut + "/" + cut, cut + "." + cut + " is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			d.Reset("t", []byte(tt.data))
			d.Object()
			walkObjects(&d, func(mark int, name []byte) {
				d.Additional("/additionalProperties", mark, name, "")
			})
			err := d.Finish()
			e, ok := toolErr(err)
			if !ok || len(e.Violations()) != 1 {
				t.Fatalf("error %v", err)
			}
			v := e.Violations()[0]
			if v.InstancePath != tt.wantPtr {
				t.Errorf("pointer %.200q, want %.200q", v.InstancePath, tt.wantPtr)
			}
			if !strings.HasPrefix(v.Message, tt.wantIn) {
				t.Errorf("message %.300q, want it to start %.300q", v.Message, tt.wantIn)
			}
			if n := utf8.RuneCountInString(v.Message); n > 2*(eagerMaxName+1)+100 {
				t.Errorf("message of %d runes", n)
			}
		})
	}
	// A duplicate undeclared name: the invalid_json reason is bounded.
	_, err := readUnknown(t, `{"`+long+`":1,"`+long+`":2}`)
	e, ok := toolErr(err)
	if !ok || e.Code != toolerr.InvalidJSON || !strings.HasPrefix(e.Reason, "duplicate member name") || len(e.Reason) > 100 {
		t.Errorf("duplicate long name: %.300v", err)
	}
}

// TestReceivedFlag: whether "; received" is added depends on the method,
// not on the text of the rule, which can come from the schema.
func TestReceivedFlag(t *testing.T) {
	vs := violations(t, `{"c":"x"}`, func(d *Decoder) {
		d.R.Skip()
		d.Enum("/enum", `a; received b`, "x")
		d.Pattern("/pattern", `^a; received$`, "x")
		d.MinLength("/minLength", 2, 1)
	})
	want := []string{
		"c must be one of a; received b; received x",
		"c must match the pattern ^a; received$; received x",
		"c must be at least 2 characters long; received 1 character",
	}
	if len(vs) != len(want) {
		t.Fatalf("violations %v", vs)
	}
	for i, v := range vs {
		if v.Message != want[i] {
			t.Errorf("message %q, want %q", v.Message, want[i])
		}
	}
}

// TestDocumentedMessages: the messages quoted in package docs are the ones
// produced (toolerr's example shows a plain word bare), and every path the
// reader can produce fits the path stack.
func TestDocumentedMessages(t *testing.T) {
	vs := violations(t, `{"reason":"other"}`, func(d *Decoder) {
		s := d.R.String()
		d.Enum("/properties/reason/enum", "duplicate, fraudulent or requested_by_customer", violation.Quote(s))
	})
	const want = "reason must be one of duplicate, fraudulent or requested_by_customer; received other"
	if len(vs) != 1 || vs[0].Message != want {
		t.Errorf("violations %v, want %q", vs, want)
	}
	if jsonread.DefaultLimits.MaxDepth > maxPath {
		t.Errorf("Reset's depth limit %d exceeds the path stack %d", jsonread.DefaultLimits.MaxDepth, maxPath)
	}
}

// TestAdditionalKeyword: an undeclared member breaks the keyword at the
// schema path given: additionalProperties, or the unevaluatedProperties
// that closes a composition.
func TestAdditionalKeyword(t *testing.T) {
	for _, sp := range []string{"/additionalProperties", "/properties/pet/unevaluatedProperties"} {
		var d Decoder
		d.Reset("t", []byte(`{"x":1}`))
		d.Object()
		walkObjects(&d, func(mark int, name []byte) { d.Additional(sp, mark, name, "kind") })
		e, ok := toolErr(d.Finish())
		if !ok || len(e.Violations()) != 1 {
			t.Fatalf("%s: error %v", sp, e)
		}
		if v := e.Violations()[0]; v.SchemaPath != sp || !strings.HasSuffix(sp, "/"+v.Keyword) {
			t.Errorf("%s: keyword %s at %s", sp, v.Keyword, v.SchemaPath)
		}
	}
}
