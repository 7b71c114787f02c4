package schema_test

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
	"testing"

	"github.com/toolgate/toolgate/runtime/schema"
)

// TestClosedComposition: a composed object is closed once, at the
// composition site, with unevaluatedProperties: false; its branches stay
// open and what is below them is closed as usual.
func TestClosedComposition(t *testing.T) {
	for _, tc := range []struct {
		name, canonical, want string
	}{
		{"plain object",
			`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{}}}}}`,
			`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{}},"additionalProperties":false}},"additionalProperties":false}`},
		{"an object that declares no members is a free-form map",
			`{"type":"object","properties":{"a":{"type":"object"},"b":{"type":"object","properties":{}},"c":{"type":"array","items":{"type":"object","description":"x"}},"d":{"type":"object","const":{"k":1}}}}`,
			`{"type":"object","properties":{"a":{"type":"object","additionalProperties":true},"b":{"type":"object","properties":{},"additionalProperties":true},"c":{"type":"array","items":{"type":"object","description":"x","additionalProperties":true}},"d":{"type":"object","const":{"k":1},"additionalProperties":true}},"additionalProperties":false}`},
		{"a branch of anyOf that declares no members is any object; one of allOf adds none",
			`{"type":"object","properties":{"o":{"anyOf":[{"type":"object"},{"type":"null"}]},"m":{"allOf":[{"type":"object"},{"properties":{"k":{}}}]}}}`,
			`{"type":"object","properties":{"o":{"anyOf":[{"type":"object","additionalProperties":true},{"type":"null"}],"unevaluatedProperties":false},"m":{"allOf":[{"type":"object"},{"properties":{"k":{}}}],"unevaluatedProperties":false}},"additionalProperties":false}`},
		{"the root that declares no members takes no arguments",
			`{"type":"object","properties":{}}`,
			`{"type":"object","properties":{},"additionalProperties":false}`},
		{"an object that declares members by required, patternProperties or propertyNames is closed",
			`{"type":"object","properties":{"r":{"type":"object","required":["k"]},"p":{"type":"object","patternProperties":{"^x":{}}},"n":{"type":"object","propertyNames":{"maxLength":3}}}}`,
			`{"type":"object","properties":{"r":{"type":"object","required":["k"],"additionalProperties":false},"p":{"type":"object","patternProperties":{"^x":{}},"additionalProperties":false},"n":{"type":"object","propertyNames":{"maxLength":3},"additionalProperties":false}},"additionalProperties":false}`},
		{"allOf of objects",
			`{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{"type":"object","properties":{"c":{}}}}}]}`,
			`{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{"type":"object","properties":{"c":{}},"additionalProperties":false}}}],"unevaluatedProperties":false}`},
		{"object with anyOf",
			`{"type":"object","properties":{"k":{}},"anyOf":[{"required":["k"]},{"properties":{"x":{}}}]}`,
			`{"type":"object","properties":{"k":{}},"anyOf":[{"required":["k"]},{"properties":{"x":{}}}],"unevaluatedProperties":false}`},
		{"anyOf of scalars is no object",
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"additionalProperties":false}`},
		{"a definition a branch refers to is closed where it is used",
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base"},"q":{"allOf":[{"$ref":"#/$defs/base"},{"properties":{"extra":{}}}]}},"$defs":{"base":{"type":"object","properties":{"id":{}}}}}`,
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base","unevaluatedProperties":false},"q":{"allOf":[{"$ref":"#/$defs/base"},{"properties":{"extra":{}}}],"unevaluatedProperties":false}},"$defs":{"base":{"type":"object","properties":{"id":{}}}},"additionalProperties":false}`},
		{"a definition no branch refers to is closed where it is defined",
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base"}},"$defs":{"base":{"type":"object","properties":{"id":{}}}}}`,
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base"}},"$defs":{"base":{"type":"object","properties":{"id":{}},"additionalProperties":false}},"additionalProperties":false}`},
		{"$ref beside keywords",
			`{"$ref":"#/$defs/base","properties":{"more":{}},"$defs":{"base":{"type":"object","properties":{"id":{}}}}}`,
			`{"$ref":"#/$defs/base","properties":{"more":{}},"$defs":{"base":{"type":"object","properties":{"id":{}}}},"unevaluatedProperties":false}`},
		{"an explicit closure is kept",
			`{"type":"object","oneOf":[{"properties":{"a":{}}}],"additionalProperties":true}`,
			`{"type":"object","oneOf":[{"properties":{"a":{}}}],"additionalProperties":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(schema.Closed(parse(t, tc.canonical), false).Marshal())
			want := string(parse(t, tc.want).Marshal())
			if got != want {
				t.Errorf("Closed(%s)\n got %s\nwant %s", tc.canonical, got, want)
			}
			if open := string(schema.Closed(parse(t, tc.canonical), true).Marshal()); open != string(parse(t, tc.canonical).Marshal()) {
				t.Errorf("Closed(open) changed the schema: %s", open)
			}
		})
	}
}

// TestClosedResult: a result's root that declares no members is a
// free-form map, unlike the root of the parameters, which then takes no
// arguments; below the root both are the same.
func TestClosedResult(t *testing.T) {
	for _, tc := range []struct{ canonical, args, result string }{
		{`{"type":"object"}`, `{"type":"object","additionalProperties":false}`, `{"type":"object","additionalProperties":true}`},
		{`{"type":"object","properties":{"a":{"type":"object"}}}`,
			`{"type":"object","properties":{"a":{"type":"object","additionalProperties":true}},"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"object","additionalProperties":true}},"additionalProperties":false}`},
	} {
		if got := string(schema.Closed(parse(t, tc.canonical), false).Marshal()); got != string(parse(t, tc.args).Marshal()) {
			t.Errorf("Closed(%s) = %s, want %s", tc.canonical, got, tc.args)
		}
		if got := string(schema.ClosedResult(parse(t, tc.canonical), false).Marshal()); got != string(parse(t, tc.result).Marshal()) {
			t.Errorf("ClosedResult(%s) = %s, want %s", tc.canonical, got, tc.result)
		}
		if got := string(schema.EffectiveResult(parse(t, tc.canonical), true).Marshal()); got != string(parse(t, tc.canonical).Marshal()) {
			t.Errorf("EffectiveResult(open) changed the schema: %s", got)
		}
	}
}

func parse(t *testing.T, s string) *jsonval.Value {
	t.Helper()
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}
