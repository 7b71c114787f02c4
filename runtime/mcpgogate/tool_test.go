package mcpgogate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/provider"
)

// TestTool: a generated MCP definition becomes mcp-go's Tool with its
// schemas byte for byte; a definition with a member the Tool cannot carry,
// or without a name or inputSchema, is an error.
func TestTool(t *testing.T) {
	def, ok := findDefinition(generated.GetOrderStatusDefinitions, provider.MCP)
	if !ok {
		t.Fatal("get_order_status has no MCP definition")
	}
	tool, err := Tool(def)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct{ InputSchema, OutputSchema json.RawMessage }
	if err := json.Unmarshal([]byte(def), &raw); err != nil {
		t.Fatal(err)
	}
	if tool.Name != "get_order_status" || string(tool.RawInputSchema) != string(raw.InputSchema) || string(tool.RawOutputSchema) != string(raw.OutputSchema) || len(raw.OutputSchema) == 0 {
		t.Errorf("tool %+v from %s", tool, def)
	}
	for _, bad := range []string{
		strings.Replace(def, `{`, `{"x-extra":1,`, 1),
		`{"name":"t"}`,
		`{"inputSchema":{"type":"object"}}`,
		`{"name":"t","inputSchema":{}} trailing`,
	} {
		if _, err := Tool(bad); err == nil {
			t.Errorf("Tool(%s) did not fail", bad)
		}
	}
}

func findDefinition(defs []provider.Definition, p provider.Provider) (string, bool) {
	for _, d := range defs {
		if d.Provider == p {
			return d.JSON, true
		}
	}
	return "", false
}
