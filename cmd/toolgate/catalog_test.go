package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestCatalogWrittenOnlyWhenChanged runs generate --catalog again, after
// setting the catalog's mtime in the past: an unchanged catalog keeps it,
// a changed one is replaced; either way its mode is 0644, as the Go files'.
func TestCatalogWrittenOnlyWhenChanged(t *testing.T) {
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	tests := []struct {
		name    string
		tool    string // the tool file of the second run
		written bool
	}{
		{"unchanged", cleanTool, false},
		{"changed", strings.Replace(cleanTool, `"maxLength": 20`, `"maxLength": 30`, 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, map[string]string{"schemas/a.json": cleanTool, "generated/doc.go": "// Package generated holds the tools.\npackage generated\n"})
			path := filepath.Join(dir, "schemas/CATALOG.md")
			if code, out, errOut := runIn(t, dir, "generate", "--catalog", "schemas/CATALOG.md"); code != exitOK || !strings.Contains(out, "wrote schemas/CATALOG.md") {
				t.Fatalf("first generate: exit %d\n%s%s", code, out, errOut)
			}
			if err := os.Chtimes(path, past, past); err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, "schemas/a.json", tt.tool)
			code, out, errOut := runIn(t, dir, "generate", "--catalog", "schemas/CATALOG.md")
			if code != exitOK || strings.Contains(out, "wrote schemas/CATALOG.md") != tt.written {
				t.Fatalf("second generate: exit %d, want the catalog written: %v\n%s%s", code, tt.written, out, errOut)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if kept := st.ModTime().Equal(past); kept == tt.written {
				t.Errorf("mtime %v after the second run; written: %v", st.ModTime(), tt.written)
			}
			if st.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", st.Mode().Perm())
			}
		})
	}
}
