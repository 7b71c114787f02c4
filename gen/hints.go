package gen

import (
	"fmt"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// hints reads the behaviour hints of a tool's MCP annotations into its
// Meta, as MCP reads them: destructiveHint true sets Destructive unless
// readOnlyHint is true (MCP ignores destructiveHint then), readOnlyHint
// sets ReadOnly and idempotentHint Idempotent. x-toolgate destructive
// outweighs the annotations: the tool is destructive, not read-only, and
// its MCP definition says so (provider.Tool.Destructive). A hint that is
// not a boolean, or annotations that are not an object, are errors at the
// pointer returned.
func (t *Tool) hints() (string, error) {
	for _, m := range t.mcpExtras {
		if m.Key != "annotations" {
			continue
		}
		if m.Value.Kind != jsonval.Object {
			return "/annotations", fmt.Errorf("annotations must be an object")
		}
		hint := map[string]*bool{"destructiveHint": nil, "readOnlyHint": nil, "idempotentHint": nil}
		for _, a := range m.Value.Members {
			if _, ok := hint[a.Key]; !ok {
				continue
			}
			if a.Value.Kind != jsonval.Bool {
				return "/annotations/" + a.Key, fmt.Errorf("annotations.%s must be a boolean", a.Key)
			}
			b := a.Value.Bool
			hint[a.Key] = &b
		}
		destructive, readOnly, idempotent := hint["destructiveHint"], hint["readOnlyHint"], hint["idempotentHint"]
		t.Meta.ReadOnly = !t.Meta.Destructive && readOnly != nil && *readOnly
		t.Meta.Idempotent = idempotent != nil && *idempotent
		t.Meta.Destructive = t.Meta.Destructive || (destructive != nil && *destructive && !t.Meta.ReadOnly)
	}
	return "", nil
}
