package provider_test

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/provider"
)

// TestClosedComposition: a composed object is closed once, at the
// composition site, with unevaluatedProperties: false; its branches stay
// open and what is below them is closed as usual.
func TestClosedComposition(t *testing.T) {
	for _, tc := range []struct {
		name, canonical, want string
	}{
		{"plain object",
			`{"type":"object","properties":{"a":{"type":"object"}}}`,
			`{"type":"object","properties":{"a":{"type":"object","additionalProperties":false}},"additionalProperties":false}`},
		{"allOf of objects",
			`{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{"type":"object"}}}]}`,
			`{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{"type":"object","additionalProperties":false}}}],"unevaluatedProperties":false}`},
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
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base"}},"$defs":{"base":{"type":"object"}}}`,
			`{"type":"object","properties":{"p":{"$ref":"#/$defs/base"}},"$defs":{"base":{"type":"object","additionalProperties":false}},"additionalProperties":false}`},
		{"$ref beside keywords",
			`{"$ref":"#/$defs/base","properties":{"more":{}},"$defs":{"base":{"type":"object","properties":{"id":{}}}}}`,
			`{"$ref":"#/$defs/base","properties":{"more":{}},"$defs":{"base":{"type":"object","properties":{"id":{}}}},"unevaluatedProperties":false}`},
		{"an explicit closure is kept",
			`{"type":"object","oneOf":[{"properties":{"a":{}}}],"additionalProperties":true}`,
			`{"type":"object","oneOf":[{"properties":{"a":{}}}],"additionalProperties":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(provider.Closed(parse(t, tc.canonical), false).Marshal())
			want := string(parse(t, tc.want).Marshal())
			if got != want {
				t.Errorf("Closed(%s)\n got %s\nwant %s", tc.canonical, got, want)
			}
			if open := string(provider.Closed(parse(t, tc.canonical), true).Marshal()); open != string(parse(t, tc.canonical).Marshal()) {
				t.Errorf("Closed(open) changed the schema: %s", open)
			}
		})
	}
}
