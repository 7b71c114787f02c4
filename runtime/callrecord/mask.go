package callrecord

import (
	"regexp"
	"slices"
	"strconv"
	"unicode"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// formatExamples are valid stand-ins for strings that satisfy a format.
var formatExamples = map[string]string{
	"date":          "2000-01-01",
	"date-time":     "2000-01-01T00:00:00Z",
	"time":          "00:00:00Z",
	"duration":      "P1D",
	"email":         "a@example.com",
	"idn-email":     "a@example.com",
	"hostname":      "example.com",
	"idn-hostname":  "example.com",
	"ipv4":          "192.0.2.1",
	"ipv6":          "2001:db8::1",
	"uri":           "https://example.com/",
	"uri-reference": "https://example.com/",
	"iri":           "https://example.com/",
	"iri-reference": "https://example.com/",
	"uuid":          "00000000-0000-4000-8000-000000000000",
}

// Mask returns a copy of args with the text taken out, walking it beside
// the tool's effective schema. What is kept, exactly:
//
//   - numbers, booleans and null, unless sensitive: bounds, multipleOf and
//     types need them. A sensitive one becomes null (Exact is then false).
//   - member names: the gate's audit events already carry them in
//     violation paths, and additionalProperties refusals need them.
//   - a string equal to a value of the schema's enum or const there (it is
//     schema text, not the caller's), unless sensitive.
//   - for a string with a format it satisfies, a fixed valid example of the
//     format (2000-01-01 for a date), unless the format is unknown.
//   - for any other string, its length in code points and each character's
//     class: an upper-case letter becomes A, any other letter a, a digit 1;
//     spaces, punctuation, symbols and control characters are kept, since
//     patterns and the gate's control-character checks test them.
//
// exact is false when masking may change the outcome: a sensitive
// non-string was replaced, or a masked string's match against the schema's
// pattern or format differs from the original's (or the pattern is not
// RE2): "2026-13-01" (no such month) masks to "1111-11-11", a valid date.
// sensitive reports instance pointers ("/card/number") whose values are
// masked whatever the schema says.
func Mask(schema, args *jsonval.Value, sensitive func(ptr string) bool) (masked *jsonval.Value, exact bool) {
	m := &masker{root: schema, sensitive: sensitive, exact: true}
	return m.value(args, schema, ""), m.exact
}

type masker struct {
	root      *jsonval.Value
	sensitive func(string) bool
	exact     bool
}

func (m *masker) deref(s *jsonval.Value) *jsonval.Value {
	for range 32 {
		if s == nil || s.Kind != jsonval.Object {
			return s
		}
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != jsonval.String {
			return s
		}
		t, _, ok := jsonval.ResolveRef(m.root, ref.Str)
		if !ok {
			return nil
		}
		s = t
	}
	return nil
}

func (m *masker) value(v, schema *jsonval.Value, ptr string) *jsonval.Value {
	s := m.deref(schema)
	if s != nil && s.Kind != jsonval.Object {
		s = nil
	}
	secret := m.sensitive != nil && m.sensitive(ptr)
	switch v.Kind {
	case jsonval.Object:
		out := &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{}}
		for _, mem := range v.Members {
			var child *jsonval.Value
			if s != nil {
				if props := s.Get("properties"); props != nil {
					child = props.Get(mem.Key)
				}
				if child == nil {
					child = s.Get("additionalProperties")
				}
			}
			out.Members = append(out.Members, jsonval.Member{Key: mem.Key, Value: m.value(mem.Value, child, ptr+"/"+jsonval.EscapeToken(mem.Key))})
		}
		return out
	case jsonval.Array:
		out := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{}}
		for i, it := range v.Items {
			var child *jsonval.Value
			if s != nil {
				if pre := s.Get("prefixItems"); pre != nil && pre.Kind == jsonval.Array && i < len(pre.Items) {
					child = pre.Items[i]
				} else {
					child = s.Get("items")
				}
			}
			out.Items = append(out.Items, m.value(it, child, ptr+"/"+strconv.Itoa(i)))
		}
		return out
	case jsonval.String:
		return &jsonval.Value{Kind: jsonval.String, Str: m.str(v.Str, s, secret)}
	}
	if secret && v.Kind != jsonval.Null {
		m.exact = false
		return &jsonval.Value{Kind: jsonval.Null}
	}
	return v.Clone()
}

func (m *masker) str(orig string, s *jsonval.Value, secret bool) string {
	if s != nil && !secret {
		if slices.ContainsFunc(enumValues(s), func(e *jsonval.Value) bool { return e.Kind == jsonval.String && e.Str == orig }) {
			return orig
		}
		if f := s.Get("format"); f != nil && f.Kind == jsonval.String {
			if check, ok := format.Lookup(f.Str); ok && check(orig) {
				if ex, ok := formatExamples[f.Str]; ok {
					return ex
				}
			}
		}
	}
	out := []rune(orig)
	for i, r := range out {
		switch {
		case unicode.IsUpper(r):
			out[i] = 'A'
		case unicode.IsLetter(r):
			out[i] = 'a'
		case unicode.IsDigit(r):
			out[i] = '1'
		}
	}
	masked := string(out)
	if s != nil {
		if f := s.Get("format"); f != nil && f.Kind == jsonval.String {
			if check, ok := format.Lookup(f.Str); ok && check(orig) != check(masked) {
				m.exact = false
			}
		}
		if p := s.Get("pattern"); p != nil && p.Kind == jsonval.String {
			re, err := regexp.Compile(p.Str)
			if err != nil || re.MatchString(orig) != re.MatchString(masked) {
				m.exact = false
			}
		}
	}
	return masked
}

func enumValues(s *jsonval.Value) []*jsonval.Value {
	if e := s.Get("enum"); e != nil && e.Kind == jsonval.Array {
		return e.Items
	}
	if c := s.Get("const"); c != nil {
		return []*jsonval.Value{c}
	}
	return nil
}
