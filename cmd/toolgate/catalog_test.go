package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCatalogGenerateAndCheck(t *testing.T) {
	dir := workspace(t, map[string]string{"schemas/a.json": cleanTool, "generated/doc.go": "// Package generated holds the tools.\npackage generated\n"})
	code, out, errOut := runIn(t, dir, "generate", "--catalog", "schemas/CATALOG.md")
	if code != exitOK || !strings.Contains(out, "wrote schemas/CATALOG.md") {
		t.Fatalf("generate: exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "schemas/CATALOG.md"))
	if err != nil || !strings.Contains(string(data), "| `order_id` | string | required | length ≤ 20 |") {
		t.Fatalf("catalog: %v\n%s", err, data)
	}
	if code, out, errOut := runIn(t, dir, "check", "--catalog", "schemas/CATALOG.md"); code != exitOK {
		t.Fatalf("check after generate: exit %d\n%s%s", code, out, errOut)
	}
	// A schema change without regenerating makes the catalog stale.
	writeFile(t, dir, "schemas/a.json", strings.Replace(cleanTool, `"maxLength": 20`, `"maxLength": 30`, 1))
	code, out, _ = runIn(t, dir, "check", "--catalog", "schemas/CATALOG.md")
	if code != exitDrift || !strings.Contains(out, "schemas/CATALOG.md: stale") || !strings.Contains(out, "+| `order_id` | string | required | length ≤ 30 |") {
		t.Errorf("stale catalog: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(dir, "schemas/CATALOG.md"))
	runIn(t, dir, "generate")
	if code, out, _ := runIn(t, dir, "check", "--catalog", "schemas/CATALOG.md"); code != exitDrift || !strings.Contains(out, "missing") {
		t.Errorf("missing catalog: exit %d\n%s", code, out)
	}
	if code, _, errOut := runIn(t, dir, "export", "--provider", "mcp", "--catalog", "x.md"); code != exitUsage {
		t.Errorf("export --catalog: exit %d\n%s", code, errOut)
	}
}
