package schemadiff

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// load writes tool files into a folder and loads them.
func load(t *testing.T, files ...string) []*gen.Tool {
	t.Helper()
	dir := t.TempDir()
	for i, body := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tools, err := gen.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

func tool(name, params string) string {
	return fmt.Sprintf(`{"name": %q, "description": "d", "parameters": %s}`, name, params)
}

// obj is an object schema with the given properties and required list.
func obj(props, required string) string {
	return `{"type": "object", "properties": {` + props + `}, "required": [` + required + `]}`
}

func kinds(r *Report) []string {
	var out []string
	for _, t := range r.Tools {
		for _, c := range t.Changes {
			out = append(out, c.Kind+" "+c.Pointer)
		}
	}
	return out
}

// TestChangeKinds has one case (at least) per change kind, old → new.
func TestChangeKinds(t *testing.T) {
	n := `"n": {"type": "integer", "minimum": 1, "maximum": 100}`
	s := `"s": {"type": "string", "maxLength": 10}`
	e := `"e": {"type": "string", "enum": ["a", "b"]}`
	tests := []struct {
		kind     string
		old, new []string
		want     []string
	}{
		{ToolRemoved, []string{tool("a", obj("", "")), tool("b", obj("", ""))}, []string{tool("a", obj("", ""))}, []string{"tool-removed "}},
		{ToolAdded, []string{tool("a", obj("", ""))}, []string{tool("a", obj("", "")), tool("b", obj("", ""))}, []string{"tool-added "}},
		{ResultChanged, []string{tool("a", obj("", ""))}, []string{`{"name": "a", "description": "d", "parameters": ` + obj("", "") + `, "outputSchema": ` + obj(s, "") + `}`}, []string{"result-changed /outputSchema"}},
		{DescriptionChanged, []string{tool("a", obj(s, ""))}, []string{`{"name": "a", "description": "other", "parameters": ` + obj(`"s": {"type": "string", "maxLength": 10, "description": "x"}`, "") + `}`}, []string{"description-changed ", "description-changed /properties/s/description"}},
		{PropertyRemoved, []string{tool("a", obj(n+","+s, ""))}, []string{tool("a", obj(n, ""))}, []string{"property-removed /properties/s"}},
		{PropertyAdded, []string{tool("a", obj(n, ""))}, []string{tool("a", obj(n+","+s, ""))}, []string{"property-added /properties/s"}},
		{RequiredAdded, []string{tool("a", obj(n, ""))}, []string{tool("a", obj(n+","+s, `"n", "s"`))}, []string{"required-added /required", "required-added /required"}},
		{RequiredRemoved, []string{tool("a", obj(n, `"n"`))}, []string{tool("a", obj(n, ""))}, []string{"required-removed /required"}},
		{TypeNarrowed, []string{tool("a", obj(`"x": {"type": "number"}`, ""))}, []string{tool("a", obj(`"x": {"type": "integer"}`, ""))}, []string{"type-narrowed /properties/x/type"}},
		{TypeWidened, []string{tool("a", obj(`"x": {"type": "integer"}`, ""))}, []string{tool("a", obj(`"x": {"type": ["integer", "null"]}`, ""))}, []string{"type-widened /properties/x/type"}},
		{EnumValueRemoved, []string{tool("a", obj(e, ""))}, []string{tool("a", obj(`"e": {"type": "string", "enum": ["a"]}`, ""))}, []string{"enum-value-removed /properties/e/enum"}},
		{EnumValueAdded, []string{tool("a", obj(e, ""))}, []string{tool("a", obj(`"e": {"type": "string", "enum": ["a", "b", "c"]}`, ""))}, []string{"enum-value-added /properties/e/enum"}},
		{EnumAdded, []string{tool("a", obj(s, ""))}, []string{tool("a", obj(`"s": {"type": "string", "maxLength": 10, "const": "x"}`, ""))}, []string{"enum-added /properties/s/const"}},
		{EnumRemoved, []string{tool("a", obj(e, ""))}, []string{tool("a", obj(`"e": {"type": "string"}`, ""))}, []string{"enum-removed /properties/e/enum"}},
		{BoundNarrowed, []string{tool("a", obj(n+","+s, ""))}, []string{tool("a", obj(`"n": {"type": "integer", "exclusiveMinimum": 1, "maximum": 50}, "s": {"type": "string", "maxLength": 10, "minLength": 1}`, ""))}, []string{"bound-narrowed /properties/n/exclusiveMinimum", "bound-narrowed /properties/n/maximum", "bound-narrowed /properties/s/minLength"}},
		{BoundNarrowed, []string{tool("a", obj(`"x": {"type": "number", "multipleOf": 0.5}`, ""))}, []string{tool("a", obj(`"x": {"type": "number", "multipleOf": 1.5}`, ""))}, []string{"bound-narrowed /properties/x/multipleOf"}},
		{BoundWidened, []string{tool("a", obj(n+`, "l": {"type": "array", "items": {"type": "integer"}, "maxItems": 3}`, ""))}, []string{tool("a", obj(`"n": {"type": "integer", "minimum": 0, "maximum": 100}, "l": {"type": "array", "items": {"type": "integer"}}`, ""))}, []string{"bound-widened /properties/n/minimum", "bound-widened /properties/l/maxItems"}},
		{BoundWidened, []string{tool("a", obj(`"x": {"type": "number", "multipleOf": 1}`, ""))}, []string{tool("a", obj(`"x": {"type": "number", "multipleOf": 0.5}`, ""))}, []string{"bound-widened /properties/x/multipleOf"}},
		{PatternAdded, []string{tool("a", obj(s, ""))}, []string{tool("a", obj(`"s": {"type": "string", "maxLength": 10, "pattern": "^a"}`, ""))}, []string{"pattern-added /properties/s/pattern"}},
		{PatternChanged, []string{tool("a", obj(`"s": {"type": "string", "pattern": "^a"}`, ""))}, []string{tool("a", obj(`"s": {"type": "string", "pattern": "^b"}`, ""))}, []string{"pattern-changed /properties/s/pattern"}},
		{PatternRemoved, []string{tool("a", obj(`"s": {"type": "string", "pattern": "^a"}`, ""))}, []string{tool("a", obj(`"s": {"type": "string"}`, ""))}, []string{"pattern-removed /properties/s/pattern"}},
		{FormatAdded, []string{tool("a", obj(s, ""))}, []string{tool("a", obj(`"s": {"type": "string", "maxLength": 10, "format": "date"}`, ""))}, []string{"format-added /properties/s/format"}},
		{FormatChanged, []string{tool("a", obj(`"s": {"type": "string", "format": "date"}`, ""))}, []string{tool("a", obj(`"s": {"type": "string", "format": "date-time"}`, ""))}, []string{"format-changed /properties/s/format"}},
		{FormatRemoved, []string{tool("a", obj(`"s": {"type": "string", "format": "date"}`, ""))}, []string{tool("a", obj(`"s": {"type": "string"}`, ""))}, []string{"format-removed /properties/s/format"}},
		{ObjectClosed, []string{tool("a", `{"type": "object", "properties": {}, "additionalProperties": true}`)}, []string{tool("a", `{"type": "object", "properties": {}}`)}, []string{"object-closed /additionalProperties"}},
		{ObjectOpened, []string{tool("a", obj(`"o": {"type": "object", "properties": {"k": {"type": "string"}}}`, ""))}, []string{tool("a", obj(`"o": {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": {"type": "string"}}`, ""))}, []string{"object-opened /properties/o/additionalProperties"}},
		{"free-form map typed", []string{tool("a", obj(`"o": {"type": "object"}`, ""))}, []string{tool("a", obj(`"o": {"type": "object", "additionalProperties": {"type": "string"}}`, ""))}, []string{"schema-changed /properties/o/additionalProperties"}},
		{"typed map made free-form", []string{tool("a", obj(`"o": {"type": "object", "additionalProperties": {"type": "string"}}`, ""))}, []string{tool("a", obj(`"o": {"type": "object"}`, ""))}, []string{"object-opened /properties/o/additionalProperties"}},
		{DefaultChanged, []string{tool("a", obj(`"b": {"type": "boolean", "default": true}`, ""))}, []string{tool("a", obj(`"b": {"type": "boolean", "default": false}`, ""))}, []string{"default-changed /properties/b/default"}},
		{SchemaChanged, []string{tool("a", obj(`"l": {"type": "array"}`, ""))}, []string{tool("a", obj(`"l": {"type": "array", "items": {"type": "integer"}}`, ""))}, []string{"schema-changed /properties/l/items"}},
		{RolesNarrowed, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": ["support", "finance"]}}`}, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": ["finance", "audit"]}}`}, []string{"roles-narrowed "}},
		{RolesNarrowed, []string{tool("a", obj("", ""))}, []string{`{"name": "a", "description": "d", "parameters": ` + obj("", "") + `, "x-toolgate": {"roles": ["finance"]}}`}, []string{"roles-narrowed "}},
		{RolesWidened, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": ["finance"]}}`}, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": ["finance", "audit"]}}`}, []string{"roles-widened "}},
		{RolesWidened, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": ["finance"]}}`}, []string{`{"name": "a", "description": "d", "parameters": {"type": "object"}}`}, []string{"roles-widened "}},
		{"through $ref", []string{tool("a", `{"type": "object", "properties": {"x": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "integer", "maximum": 5}}}`)}, []string{tool("a", `{"type": "object", "properties": {"x": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "integer", "maximum": 4}}}`)}, []string{"bound-narrowed /properties/x/maximum"}},
		{"in array items", []string{tool("a", obj(`"l": {"type": "array", "items": {"type": "object", "properties": {"q": {"type": "integer"}}}}`, ""))}, []string{tool("a", obj(`"l": {"type": "array", "items": {"type": "object", "properties": {"q": {"type": "integer"}}, "required": ["q"]}}`, ""))}, []string{"required-added /properties/l/items/required"}},
		{"unchanged", []string{tool("a", obj(n+","+s+","+e, `"n"`))}, []string{tool("a", obj(n+","+s+","+e, `"n"`))}, nil},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			covered[tt.kind] = true
			r, err := Compare(gen.Analyze(load(t, tt.old...), gen.Options{}), gen.Analyze(load(t, tt.new...), gen.Options{}), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if got := kinds(r); !slices.Equal(got, tt.want) {
				t.Errorf("changes %q, want %q", got, tt.want)
			}
			for _, td := range r.Tools {
				for _, c := range td.Changes {
					k := KindByID(c.Kind)
					if c.Callers != k.Callers || c.Queued != k.Queued {
						t.Errorf("%s classified %s/%s, want %s/%s", c.Kind, c.Callers, c.Queued, k.Callers, k.Queued)
					}
				}
			}
		})
	}
	for _, k := range Kinds {
		if !covered[k.ID] {
			t.Errorf("change kind %s has no table test", k.ID)
		}
	}
}
