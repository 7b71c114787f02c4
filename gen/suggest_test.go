package gen

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	tests := []struct {
		name  string
		word  string
		known []string
		want  string
	}{
		{"one letter swapped", "requried", schemaKeywords(), "required"},
		{"one letter missing", "maxLenght", schemaKeywords(), "maxLength"},
		{"case only", "Required", schemaKeywords(), "required"},
		{"case only, camel", "additionalproperties", schemaKeywords(), "additionalProperties"},
		{"a swap is one edit", "tpye", schemaKeywords(), "type"},
		{"a short word gets one edit", "typ", schemaKeywords(), "type"},
		{"a short word does not get two", "tp", []string{"type"}, ""},
		{"two edits in a long word", "mnimun", schemaKeywords(), "minimum"},
		{"three edits are too many", "mnimn", []string{"minimum"}, ""},
		{"two equally close", "mLength", []string{"minLength", "maxLength"}, ""},
		{"two equally close, case", "GONAME", []string{"goName", "GoName"}, ""},
		{"far from all", "frobnicate", schemaKeywords(), ""},
		{"known already", "required", schemaKeywords(), ""},
		{"empty", "", schemaKeywords(), ""},
		{"too long to look up", strings.Repeat("required", 20), schemaKeywords(), ""},
		{"a tool member", "paramters", toolMembers, "parameters"},
		{"an x-toolgate member", "timout", metaMembers, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := suggest(tt.word, tt.known); got != tt.want {
				t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"type", "type", 0},
		{"tpye", "type", 1},
		{"requried", "required", 1},
		{"integr", "integer", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"é", "e", 1},
	}
	for _, tt := range tests {
		if got := editDistance([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSchemaKeywordsKnowTheRefused(t *testing.T) {
	known := map[string]bool{}
	for _, k := range schemaKeywords() {
		known[k] = true
	}
	for _, k := range []string{"required", "type", "allOf", "$dynamicAnchor", "dependentRequired", "dependencies", "additionalItems", "$anchor", "unevaluatedProperties"} {
		if !known[k] {
			t.Errorf("%s is not among the known keywords", k)
		}
	}
}
