package provider_test

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/provider"
)

// TestMCPHints: the MCP definition's annotations say destructiveHint true,
// readOnlyHint false and idempotentHint (false unless they say true) for
// a destructive tool, beside the other annotations of its MCP members, which stay in their
// order; a tool that is not keeps its
// annotations as they are (or has none), and no other provider's
// definition carries them.
func TestMCPHints(t *testing.T) {
	schema := `{"type":"object","properties":{},"additionalProperties":false}`
	cases := []struct {
		name string
		tool provider.Tool
		want string // the annotations, "nothing" for none
	}{
		{"none", provider.Tool{}, "nothing"},
		{"destructive", provider.Tool{Destructive: true}, `{"destructiveHint":true,"readOnlyHint":false,"idempotentHint":false}`},
		{"beside the others", provider.Tool{Destructive: true, MCP: `{"annotations":{"title":"Pay","idempotentHint":true,"openWorldHint":true}}`}, `{"title":"Pay","idempotentHint":true,"openWorldHint":true,"destructiveHint":true,"readOnlyHint":false}`},
		{"never read-only", provider.Tool{Destructive: true, MCP: `{"annotations":{"readOnlyHint":true}}`}, `{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}`},
		{"extras kept", provider.Tool{MCP: `{"annotations":{"destructiveHint":false}}`}, `{"destructiveHint":false}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := tc.tool
			tool.Name, tool.Description, tool.Schema = "pay", "Pays.", schema
			def, err := provider.Project(provider.MCP, tool)
			if err != nil {
				t.Fatal(err)
			}
			if got := marshal(parse(t, def.JSON).Get("annotations")); got != tc.want {
				t.Errorf("annotations %s, want %s", got, tc.want)
			}
			other, err := provider.Project(provider.Anthropic, tool)
			if err != nil {
				t.Fatal(err)
			}
			if got := marshal(parse(t, other.JSON).Get("annotations")); got != "nothing" {
				t.Errorf("anthropic definition has annotations %s", got)
			}
		})
	}
}
