package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedDefinitions: the catalog follows references into definitions
// files, listing the members of a shared definition under every tool that
// uses it, and names where each tool's shared definitions come from.
func TestSharedDefinitions(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"order.json":       `{"name": "order", "description": "d", "parameters": {"type": "object", "properties": {"ship_to": {"$ref": "defs/common.json#/$defs/Address"}, "total": {"$ref": "defs/money.json"}}}}`,
		"refund.json":      `{"name": "refund", "description": "d", "parameters": {"type": "object", "properties": {"amount": {"$ref": "defs/money.json"}}}}`,
		"defs/common.json": `{"$defs": {"Address": {"type": "object", "properties": {"line1": {"type": "string", "minLength": 1}}}}}`,
		"defs/money.json":  `{"type": "object", "properties": {"currency": {"enum": ["GBP", "EUR"]}}}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := renderFiles(t, dir, dir)
	sections := map[string]string{}
	for _, s := range strings.Split(out, "\n## ")[1:] {
		name, _, _ := strings.Cut(s, "\n")
		sections[strings.Trim(name, "`")] = s
	}
	for _, tc := range []struct {
		tool  string
		lines []string
	}{
		{"order", []string{
			"- Shared definitions: `Address` from `defs/common.json#/$defs/Address`, `money` from `defs/money.json`",
			"| `ship_to.line1` | string | optional | length ≥ 1 |",
			"| `total.currency` | any | optional |  |  |  | \"GBP\", \"EUR\" |",
		}},
		{"refund", []string{
			"- Shared definitions: `money` from `defs/money.json`",
			"| `amount.currency` | any | optional |  |  |  | \"GBP\", \"EUR\" |",
		}},
	} {
		s, ok := sections[tc.tool]
		if !ok {
			t.Fatalf("no section for %s in\n%s", tc.tool, out)
		}
		for _, l := range tc.lines {
			if !strings.Contains(s, l) {
				t.Errorf("%s: no %q in\n%s", tc.tool, l, s)
			}
		}
	}
}
