package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

func writeSet(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSharedDefinitions: which tools share a definition's Go type, and what
// Validate (lint, export) and Generate refuse, with LoadOptions.Bases
// serving a URI prefix from a folder.
func TestSharedDefinitions(t *testing.T) {
	address := `{"$defs": {"Address": {"type": "object", "properties": {"line1": {"type": "string"}}}}}`
	tool := func(name, ref, meta string) string {
		return `{"name": "` + name + `", "description": "", "parameters": {"type": "object", "properties": {"a": {"$ref": "` + ref + `"}}}` + meta + `}`
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		bases map[string]string // prefix → folder under the set
		// declared maps a tool's file to the types it must declare;
		// absent lists those it must not.
		declared map[string][]string
		absent   map[string][]string
		err      string // "" when it generates
	}{
		{
			name:     "shared by two tools",
			files:    map[string]string{"a.json": tool("a", "defs/common.json#/$defs/Address", ""), "b.json": tool("b", "defs/common.json#/$defs/Address", ""), "defs/common.json": address},
			declared: map[string][]string{"a_tool.go": {"type Address struct"}},
			absent:   map[string][]string{"b_tool.go": {"type Address struct", "type BAddress struct"}},
		},
		{
			name:     "a sensitive tool keeps its own copy",
			files:    map[string]string{"a.json": tool("a", "defs/common.json#/$defs/Address", ""), "b.json": tool("b", "defs/common.json#/$defs/Address", `, "x-toolgate": {"sensitive": true}`), "defs/common.json": address},
			declared: map[string][]string{"a_tool.go": {"type Address struct"}, "b_tool.go": {"type BAddress struct"}},
		},
		{
			name:     "a URI prefix served from a folder",
			files:    map[string]string{"a.json": tool("a", "https://schemas.example.com/common.json#/$defs/Address", ""), "published/common.json": address},
			bases:    map[string]string{"https://schemas.example.com/": "published"},
			declared: map[string][]string{"a_tool.go": {"type Address struct", `"$ref":"#/$defs/Address"`}},
		},
		{
			name:  "a URL without a base",
			files: map[string]string{"a.json": tool("a", "https://schemas.example.com/common.json#/$defs/Address", ""), "defs/common.json": address},
			err:   `reference "https://schemas.example.com/common.json#/$defs/Address" names a document outside the schema set (a URL)`,
		},
		{
			name:  "two definitions, one Go name",
			files: map[string]string{"a.json": tool("a", "defs/common.json#/$defs/Address", ""), "b.json": tool("b", "other/common.json#/$defs/Address", ""), "defs/common.json": address, "other/common.json": address},
			err:   "/defs/common.json#/$defs/Address and ",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeSet(t, tc.files)
			bases := map[string]string{}
			for p, f := range tc.bases {
				bases[p] = filepath.Join(dir, f)
			}
			tools, err := gen.LoadOptions{Bases: bases}.LoadAll(dir)
			var files []gen.File
			if err == nil {
				if verr := gen.Validate(tools, gen.Options{Package: "p"}); tc.err != "" && (verr == nil || !strings.Contains(verr.Error(), tc.err)) {
					t.Errorf("Validate: %v, want an error with %q", verr, tc.err)
				}
				files, err = gen.Generate(tools, gen.Options{Package: "p"})
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			src := map[string]string{}
			for _, f := range files {
				src[f.Name] = string(f.Data)
			}
			for file, decls := range tc.declared {
				for _, d := range decls {
					if !strings.Contains(src[file], d) {
						t.Errorf("%s does not declare %q", file, d)
					}
				}
			}
			for file, decls := range tc.absent {
				for _, d := range decls {
					if strings.Contains(src[file], d) {
						t.Errorf("%s declares %q", file, d)
					}
				}
			}
		})
	}
}
