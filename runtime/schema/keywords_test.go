package schema_test

import (
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/schema"
)

// TestLookup: the rows of a few keywords say what each is.
func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		want schema.Keyword
	}{
		{"maxLength", schema.Keyword{Name: "maxLength", Class: schema.Assertion, Drafts: schema.Draft2020 | schema.Draft7, Enforced: schema.Direct, Value: schema.CountValue, Of: schema.OfString, Bound: schema.Upper, Pair: "minLength", Measure: schema.Length, Subsets: schema.GeminiLegacy}},
		{"items", schema.Keyword{Name: "items", Class: schema.Applicator, Drafts: schema.Draft2020 | schema.Draft7, Form: schema.OneOrList, Applies: schema.Members, Shapes: true, Enforced: schema.Direct, Value: schema.SchemaValue, Value7: schema.SchemaOrListValue, Of: schema.OfArray}},
		{"oneOf", schema.Keyword{Name: "oneOf", Class: schema.Applicator, Drafts: schema.Draft2020 | schema.Draft7, Form: schema.List, Applies: schema.SameValue, Composes: true, Enforced: schema.Composed, Value: schema.SchemasValue}},
		{"not", schema.Keyword{Name: "not", Class: schema.Applicator, Drafts: schema.Draft2020 | schema.Draft7, Form: schema.One, Applies: schema.SameValue, Enforced: schema.Composed, Value: schema.SchemaValue}},
		{"dependencies", schema.Keyword{Name: "dependencies", Class: schema.Applicator, Drafts: schema.Draft7, Form: schema.Map, Applies: schema.SameValue, Value: schema.DependenciesValue, Of: schema.OfObject}},
		{"$defs", schema.Keyword{Name: "$defs", Class: schema.Definitions, Drafts: schema.Draft2020, Form: schema.Map, Applies: schema.Nowhere, Enforced: schema.Direct, Value: schema.SchemaMapValue}},
		{"$dynamicRef", schema.Keyword{Name: "$dynamicRef", Class: schema.Reference, Drafts: schema.Draft2020}},
		{"writeOnly", schema.Keyword{Name: "writeOnly", Class: schema.Annotation, Drafts: schema.Draft2020 | schema.Draft7, Value: schema.BoolValue}},
	} {
		got, ok := schema.Lookup(tc.name)
		if !ok || got != tc.want {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", tc.name, got, ok, tc.want)
		}
	}
	for _, name := range []string{"maxlength", "x-toolgate", "", "nullable"} {
		if k, ok := schema.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %+v, want no keyword", name, k)
		}
	}
}

// TestTable: the rows are unique and consistent: a keyword with
// subschemas says which value they apply to and is an applicator or
// definitions; only an applicator composes; every row of a draft has the
// value its meta-schema asks, but the identifiers and dynamic references
// the quick check leaves alone.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range schema.Keywords() {
		if seen[k.Name] {
			t.Errorf("%s: two rows", k.Name)
		}
		seen[k.Name] = true
		if (k.Form == schema.NoSubschema) != (k.Applies == schema.NoValue) {
			t.Errorf("%s: form %d but applies %d", k.Name, k.Form, k.Applies)
		}
		if k.Form != schema.NoSubschema && k.Class != schema.Applicator && k.Class != schema.Definitions {
			t.Errorf("%s: holds subschemas but is of class %d", k.Name, k.Class)
		}
		if k.Composes && (k.Class != schema.Applicator || k.Applies != schema.SameValue) {
			t.Errorf("%s: composes but does not apply to the same value", k.Name)
		}
		noValue := k.Drafts == 0 || k.Class == schema.Identifier && k.Name != "$schema" || k.Class == schema.Reference && k.Name != "$ref"
		if noValue != (k.Value == 0) {
			t.Errorf("%s: value %d", k.Name, k.Value)
		}
		if k.Bound != schema.NoBound && k.Value != schema.NumberValue && k.Value != schema.CountValue {
			t.Errorf("%s: a bound of value %d", k.Name, k.Value)
		}
		if (k.Bound != schema.NoBound) != (k.Pair != "") || k.Bound != schema.NoBound && k.Measure == schema.NoMeasure {
			t.Errorf("%s: bound %d, pair %q, measure %d", k.Name, k.Bound, k.Pair, k.Measure)
		}
		if p, ok := schema.Lookup(k.Pair); k.Pair != "" && (!ok || p.Pair != k.Name || p.Bound == k.Bound || p.Measure != k.Measure || p.Exclusive != k.Exclusive) {
			t.Errorf("%s: pair %+v does not pair back", k.Name, p)
		}
		if k.Subsets != 0 && k.Class != schema.Assertion && k.Enforced != schema.Composed {
			t.Errorf("%s: a provider subset column on a keyword of class %d, enforced %d", k.Name, k.Class, k.Enforced)
		}
	}
	for _, tc := range []struct {
		name string
		d    schema.Draft
		want schema.Value
	}{
		{"items", schema.Draft2020, schema.SchemaValue},
		{"items", schema.Draft7, schema.SchemaOrListValue},
		{"enum", schema.Draft7, schema.UniqueArrayValue},
		{"enum", schema.Draft2020, schema.ArrayValue},
		{"minItems", schema.Draft7, schema.CountValue},
	} {
		k, _ := schema.Lookup(tc.name)
		if got := k.ValueIn(tc.d); got != tc.want {
			t.Errorf("%s in draft %d: %d, want %d", tc.name, tc.d, got, tc.want)
		}
	}
}

// TestCarriesNoRule: annotations and identifiers carry no rule; anything
// else, or no keyword, does or may.
func TestCarriesNoRule(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"description", true}, {"$id", true}, {"$schema", true}, {"contentSchema", true},
		{"$ref", false}, {"$defs", false}, {"minimum", false}, {"allOf", false}, {"x-toolgate", false},
	} {
		if got := schema.Is(tc.name, schema.Keyword.CarriesNoRule); got != tc.want {
			t.Errorf("CarriesNoRule(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCountPairs: the size bounds pair each lower bound with its upper
// one, in the table's order, as f selects them.
func TestCountPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(schema.Keyword) bool
		want [][2]string
	}{
		{"all", func(schema.Keyword) bool { return true },
			[][2]string{{"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minContains", "maxContains"}, {"minProperties", "maxProperties"}}},
		{"of strings", func(k schema.Keyword) bool { return k.Of == schema.OfString }, [][2]string{{"minLength", "maxLength"}}},
		{"none", func(schema.Keyword) bool { return false }, nil},
	} {
		if got := schema.CountPairs(tc.f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: CountPairs = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestBoundOf: each measure's inclusive bounds, and none where there is
// no such bound.
func TestBoundOf(t *testing.T) {
	for _, tc := range []struct {
		m    schema.Measure
		b    schema.Bound
		want string
	}{
		{schema.Magnitude, schema.Lower, "minimum"},
		{schema.Magnitude, schema.Upper, "maximum"},
		{schema.Length, schema.Lower, "minLength"},
		{schema.Length, schema.Upper, "maxLength"},
		{schema.ItemCount, schema.Upper, "maxItems"},
		{schema.MemberCount, schema.Lower, "minProperties"},
		{schema.MatchCount, schema.Upper, "maxContains"},
		{schema.Magnitude, schema.NoBound, ""},
		{schema.NoMeasure, schema.Lower, ""},
	} {
		k, ok := schema.BoundOf(tc.m, tc.b)
		if k.Name != tc.want || ok != (tc.want != "") {
			t.Errorf("BoundOf(%d, %d) = %q, %v; want %q", tc.m, tc.b, k.Name, ok, tc.want)
		}
	}
}

// TestTakes: the provider subsets' columns, and no keyword.
func TestTakes(t *testing.T) {
	for _, tc := range []struct {
		s    schema.Subset
		name string
		want bool
	}{
		{schema.AnthropicStrict, "pattern", true},
		{schema.AnthropicStrict, "required", true},
		{schema.AnthropicStrict, "minLength", false},
		{schema.AnthropicStrict, "uniqueItems", false},
		{schema.AnthropicStrict, "anyOf", true},
		{schema.AnthropicStrict, "oneOf", false},
		{schema.GeminiLegacy, "maxItems", true},
		{schema.GeminiLegacy, "format", false},
		{schema.GeminiLegacy, "exclusiveMinimum", false},
		{schema.GeminiLegacy, "x-toolgate", false},
	} {
		if got := schema.Takes(tc.s, tc.name); got != tc.want {
			t.Errorf("Takes(%d, %q) = %v, want %v", tc.s, tc.name, got, tc.want)
		}
	}
}
