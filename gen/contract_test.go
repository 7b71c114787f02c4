package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// TestContractCatchesSchemaDrift generates a package with its contract test,
// runs that test and the seed corpus of its fuzz targets (they pass), then edits the canonical schema without
// regenerating: the contract test must fail, naming the tool, the provider
// and the difference.
func TestContractCatchesSchemaDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	root := gobuild.RepoRoot(t)
	canonical, err := os.ReadFile(filepath.Join(root, "schemas", "refund_order.json"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gobuild.Module(t, "drift")
	// A second tool exported to MCP alone: its contract expects exactly
	// that definition.
	mcpOnly := []byte(`{"name": "lookup", "description": "Look up.", "parameters": {"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}, "required": ["q"]}, "x-toolgate": {"providers": ["mcp"]}}`)
	gobuild.WriteFiles(t, mod, "tools", generateFolder(t, mod, map[string][]byte{"refund_order.json": canonical, "lookup.json": mcpOnly}))
	// The fuzz targets run their seed corpus as plain tests.
	got, err := gobuild.Go(t, mod, "test", "-v", "-run", "^(TestToolContracts|FuzzDecode.*)$", "./tools")
	if err != nil {
		t.Fatalf("the contract or fuzz test of a fresh package fails:\n%s", got)
	}
	for _, target := range []string{"FuzzDecodeLookupArgs", "FuzzDecodeRefundOrderArgs"} {
		if !strings.Contains(got, "--- PASS: "+target+" ") {
			t.Errorf("fuzz target %s of a fresh package did not run:\n%s", target, got)
		}
	}

	edited := strings.Replace(string(canonical), `"maximum": 100000`, `"maximum": 5000`, 1)
	if edited == string(canonical) {
		t.Fatal("the schema no longer has the maximum this test edits")
	}
	gobuild.WriteFiles(t, mod, "schemas", map[string][]byte{"refund_order.json": []byte(edited)})
	got, err = gobuild.Go(t, mod, "test", "-run", "TestToolContracts", "./tools")
	if err == nil {
		t.Fatalf("the contract test passes after the schema was edited:\n%s", got)
	}
	for _, want := range []string{
		"tool refund_order: ../schemas/refund_order.json changed since the code was generated",
		"effective schema: at /properties/amountInCents/maximum: was 100000, now 5000",
		"provider openai-chat: the definition sent differs at /function/parameters/properties/amountInCents/maximum: was 100000, now 5000",
		"provider anthropic: the definition sent differs at /description",
		"provider mcp: the definition sent differs at /inputSchema/properties/amountInCents/maximum: was 100000, now 5000",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the failure does not say %q:\n%s", want, got)
		}
	}
}
