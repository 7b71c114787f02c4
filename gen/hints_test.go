package gen_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// TestHints: MCP's behaviour hints map both ways. Read: annotations set
// Meta's Destructive (not when readOnlyHint is true, as MCP reads it),
// ReadOnly and Idempotent. Sent: the MCP definition's annotations say
// every hint the tool has, x-toolgate destructive included, beside the
// other annotations; x-toolgate destructive outweighs them (a destructive
// tool is never sent as read-only). A hint that is not a boolean is an
// error at the hint.
func TestHints(t *testing.T) {
	const params = `"inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}`
	cases := []struct {
		name, tool                        string
		destructive, readOnly, idempotent bool
		annotations                       map[string]any // of the MCP definition, nil for none
		errAt                             string         // the error's pointer
	}{
		{name: "none", tool: `{"name": "t", "description": "d", ` + params + `}`},
		{name: "destructive", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"title": "Delete file", "destructiveHint": true, "idempotentHint": false, "readOnlyHint": false}}`,
			destructive: true, annotations: map[string]any{"title": "Delete file", "destructiveHint": true, "idempotentHint": false, "readOnlyHint": false}},
		{name: "read-only and idempotent", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true}}`,
			readOnly: true, idempotent: true, annotations: map[string]any{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true}},
		{name: "x-toolgate destructive", tool: `{"name": "t", "description": "d", ` + params + `, "x-toolgate": {"destructive": true}}`,
			destructive: true, annotations: map[string]any{"destructiveHint": true, "readOnlyHint": false, "idempotentHint": false}},
		{name: "x-toolgate destructive beside a title", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"title": "T"}, "x-toolgate": {"destructive": true}}`,
			destructive: true, annotations: map[string]any{"title": "T", "destructiveHint": true, "readOnlyHint": false, "idempotentHint": false}},
		{name: "not a boolean", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"destructiveHint": "yes"}}`, errAt: "/annotations/destructiveHint"},
		{name: "not an object", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": true}`, errAt: "/annotations"},
		{name: "x-toolgate destructive outweighs readOnlyHint", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"readOnlyHint": true}, "x-toolgate": {"destructive": true}}`,
			destructive: true, annotations: map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false}},
		{name: "x-toolgate destructive outweighs destructiveHint false", tool: `{"name": "t", "description": "d", ` + params + `, "annotations": {"destructiveHint": false}, "x-toolgate": {"destructive": true}}`,
			destructive: true, annotations: map[string]any{"destructiveHint": true, "readOnlyHint": false, "idempotentHint": false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.json")
			if err := os.WriteFile(path, []byte(tc.tool), 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := gen.Load(path)
			if tc.errAt != "" {
				var ge *gen.Error
				if !errors.As(err, &ge) || ge.Pointer != tc.errAt {
					t.Fatalf("error %v, want one at %s", err, tc.errAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := tools[0].Meta
			if m.Destructive != tc.destructive || m.ReadOnly != tc.readOnly || m.Idempotent != tc.idempotent {
				t.Errorf("destructive %v, read-only %v, idempotent %v; want %v, %v, %v", m.Destructive, m.ReadOnly, m.Idempotent, tc.destructive, tc.readOnly, tc.idempotent)
			}
			defs, _, err := gen.Export(tools, gen.Options{}, provider.MCP)
			if err != nil || len(defs) != 1 {
				t.Fatalf("MCP definition: %+v, %v", defs, err)
			}
			var def struct{ Annotations map[string]any }
			if err := json.Unmarshal([]byte(defs[0].JSON), &def); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(def.Annotations, tc.annotations) {
				t.Errorf("annotations %v, want %v", def.Annotations, tc.annotations)
			}
		})
	}
}
