package gen

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// TestSensitivePointers: Spec.Sensitive lists the pointer of every
// subschema marked writeOnly or x-toolgate sensitive, at any depth and
// beside a $ref, and [""] for a tool marked sensitive; each pointer
// resolves in the effective schema.
func TestSensitivePointers(t *testing.T) {
	params := `{"type": "object", "properties": {
	  "pin": {"type": "string", "writeOnly": true},
	  "card": {"$ref": "#/$defs/card", "x-toolgate": {"sensitive": true}},
	  "plain": {"$ref": "#/$defs/card"},
	  "rows": {"type": "array", "items": {"type": "object", "properties": {"cvv": {"type": "integer", "x-toolgate": {"sensitive": true}}}}},
	  "either": {"anyOf": [{"type": "string", "writeOnly": true}, {"type": "integer"}]},
	  "open": {"type": "string", "x-toolgate": {"sensitive": false}}},
	  "$defs": {"card": {"type": "string"}, "secret": {"type": "object", "writeOnly": true, "properties": {"inner": {"type": "string", "writeOnly": true}}}}}`
	tests := []struct {
		name, meta string
		want       []string
	}{
		{"members", ``, []string{"/properties/pin", "/properties/card", "/properties/rows/items/properties/cvv", "/properties/either/anyOf/0", "/$defs/secret"}},
		{"a sensitive tool", `, "x-toolgate": {"sensitive": true}`, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src := `{"name": "pay", "description": "Pay.", "parameters": ` + params + tt.meta + `}`
			if err := os.WriteFile(filepath.Join(dir, "pay.json"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			tm, err := model(tools[0], Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := tm.sensitivePointers()
			if !slices.Equal(got, tt.want) {
				t.Fatalf("sensitivePointers() = %q, want %q", got, tt.want)
			}
			eff, _, err := Schema(tools[0], Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range got {
				if jsonval.Resolve(eff, p) == nil {
					t.Errorf("%q does not resolve in the effective schema", p)
				}
			}
		})
	}
}
