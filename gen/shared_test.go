package gen_test

import (
	"errors"
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

// TestSharedDefinitionProblemPlaced: a problem inside a definition that
// tool files bring in is placed in the definitions file, at its pointer
// there, once however many tools use it; the tool's own $defs stay the
// tool file's.
func TestSharedDefinitionProblemPlaced(t *testing.T) {
	for _, tc := range []struct {
		name string
		defs string // defs/common.json
		ref  string // the tools' $ref
		want string // the pointer in defs/common.json
	}{
		{"a definition of a container", `{"$defs": {"Address": {"type": "object", "properties": {"line1": {"type": "strin"}}}}}`, "defs/common.json#/$defs/Address", "/$defs/Address/properties/line1/type"},
		{"a whole document", `{"type": "object", "properties": {"line1": {"type": "strin"}}}`, "defs/common.json", "/properties/line1/type"},
		{"the document's root", `{"type": "strin"}`, "defs/common.json", "/type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := func(name string) string {
				return `{"name": "` + name + `", "description": "", "parameters": {"type": "object", "properties": {"a": {"$ref": "` + tc.ref + `"}, "own": {"$ref": "#/$defs/own"}}, "$defs": {"own": {"type": "nul"}}}}`
			}
			dir := writeSet(t, map[string]string{"a.json": tool("a"), "b.json": tool("b"), "defs/common.json": tc.defs})
			tools, err := gen.LoadAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			var list gen.ErrorList
			if err := gen.Validate(tools, gen.Options{Package: "p"}); !errors.As(err, &list) {
				t.Fatalf("Validate: %v, want an ErrorList", err)
			}
			shared, own := 0, map[string]bool{}
			for _, e := range list.Flat() {
				var ge *gen.Error
				if !errors.As(e, &ge) {
					t.Fatalf("%v is not a *gen.Error", e)
				}
				switch ge.File {
				case filepath.Join(dir, "defs", "common.json"):
					if ge.Pointer != tc.want {
						t.Errorf("problem at %s in the definitions file, want %s", ge.Pointer, tc.want)
					}
					shared++
				case filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"):
					if ge.Pointer != "/parameters/$defs/own/type" {
						t.Errorf("problem at %s in %s, want /parameters/$defs/own/type", ge.Pointer, ge.File)
					}
					own[ge.File] = true
				default:
					t.Errorf("problem in %s: %v", ge.File, ge)
				}
			}
			if shared != 1 || len(own) != 2 {
				t.Errorf("%d problems in the definitions file (want 1), tool files with their own %v (want both): %v", shared, own, list)
			}
		})
	}
}

// TestSharedDefinitionLoadProblemOnce: a problem LoadAll finds in a
// definitions file (a description it refuses) is reported once, whether the
// tools that bring the file in are in one tool file or in several.
func TestSharedDefinitionLoadProblemOnce(t *testing.T) {
	defs := `{"$defs": {"Address": {"type": "object", "description": "bad\u0007bell"}}}`
	tool := func(name string) string {
		return `{"name": "` + name + `", "description": "", "parameters": {"type": "object", "properties": {"a": {"$ref": "defs/common.json#/$defs/Address"}}}}`
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"two tool files", map[string]string{"a.json": tool("a"), "b.json": tool("b"), "defs/common.json": defs}},
		{"a list of two tools", map[string]string{"ab.json": `[` + tool("a") + `, ` + tool("b") + `]`, "defs/common.json": defs}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeSet(t, tc.files)
			_, err := gen.LoadAll(dir)
			var list gen.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("LoadAll: %v, want an ErrorList", err)
			}
			if n := len(list.Flat()); n != 1 || !strings.Contains(err.Error(), "common.json") || !strings.Contains(err.Error(), "/$defs/Address/description") {
				t.Errorf("LoadAll: %d problems, want the description's in common.json once:\n%v", n, err)
			}
		})
	}
}
