package schema_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// TestWalk: Walk visits the subschema at every applicator location, with
// its pointer and keyword, and nothing that is not a subschema.
func TestWalk(t *testing.T) {
	for _, tc := range []struct {
		name, s string
		want    []string // keyword pointer
	}{
		{"maps", `{"properties":{"a":{},"b/c":true},"patternProperties":{"^x":{}},"$defs":{"d":{}},"definitions":{"e":{}},"dependentSchemas":{"f":{}}}`,
			[]string{"properties /properties/a", "properties /properties/b~1c", "patternProperties /patternProperties/^x", "$defs /$defs/d", "definitions /definitions/e", "dependentSchemas /dependentSchemas/f"}},
		{"lists", `{"allOf":[{}],"anyOf":[{},{}],"oneOf":[true],"prefixItems":[{}]}`,
			[]string{"allOf /allOf/0", "anyOf /anyOf/0", "anyOf /anyOf/1", "oneOf /oneOf/0", "prefixItems /prefixItems/0"}},
		{"single schemas", `{"not":{},"if":{},"then":{},"else":{},"additionalProperties":false,"unevaluatedProperties":false,"unevaluatedItems":{},"propertyNames":{},"contains":{},"additionalItems":{}}`,
			[]string{"not /not", "if /if", "then /then", "else /else", "additionalProperties /additionalProperties", "unevaluatedProperties /unevaluatedProperties", "unevaluatedItems /unevaluatedItems", "propertyNames /propertyNames", "contains /contains", "additionalItems /additionalItems"}},
		{"items as one schema or a list", `{"items":{"type":"string"},"x":{"items":[{},{}]}}`,
			[]string{"items /items"}},
		{"draft-07 items list", `{"items":[{},{}]}`, []string{"items /items/0", "items /items/1"}},
		{"dependencies: schemas and name lists", `{"dependencies":{"a":{},"b":["c"]}}`,
			[]string{"dependencies /dependencies/a", "dependencies /dependencies/b"}},
		{"no subschemas in data or annotations", `{"const":{"properties":{}},"enum":[{"not":{}}],"default":{"items":{}},"examples":[{}],"contentSchema":{},"x-toolgate":{"allOf":[{}]}}`, nil},
		{"a list keyword that is no list holds none", `{"allOf":{},"properties":[]}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			schema.Each(parse(t, tc.s), "", func(k schema.Keyword, _ *jsonval.Value, ptr string) {
				got = append(got, k.Name+" "+ptr)
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("Walk(%s)\n got %q\nwant %q", tc.s, got, tc.want)
			}
			var subs, want []string
			schema.Subschemas(parse(t, tc.s), func(k schema.Keyword, _ *jsonval.Value) { subs = append(subs, k.Name) })
			for _, w := range tc.want {
				want = append(want, strings.Fields(w)[0])
			}
			if !slices.Equal(subs, want) {
				t.Errorf("Subschemas(%s) visits %q, want %q", tc.s, subs, want)
			}
		})
	}
}

// TestWalkStops: Walk returns the first error its function returns, and
// visits nothing after it.
func TestWalkStops(t *testing.T) {
	stop := errors.New("stop")
	for _, tc := range []struct {
		name, s string
		at      string
		visits  int
	}{
		{"in a map", `{"properties":{"a":{},"b":{},"c":{}},"not":{}}`, "/properties/b", 2},
		{"in a list", `{"anyOf":[{},{},{}],"not":{}}`, "/anyOf/1", 2},
		{"at one schema", `{"not":{},"if":{}}`, "/not", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			visits := 0
			err := schema.Walk(parse(t, tc.s), "", func(_ schema.Keyword, _ *jsonval.Value, ptr string) error {
				visits++
				if ptr == tc.at {
					return stop
				}
				return nil
			})
			if !errors.Is(err, stop) || visits != tc.visits {
				t.Errorf("Walk: err %v after %d visits, want %v after %d", err, visits, stop, tc.visits)
			}
		})
	}
	if err := schema.Walk(parse(t, `true`), "", func(schema.Keyword, *jsonval.Value, string) error { return stop }); err != nil {
		t.Errorf("Walk(true) = %v, want nil: a boolean schema holds no subschemas", err)
	}
}
