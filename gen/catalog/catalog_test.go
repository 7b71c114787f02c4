package catalog

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

var update = flag.Bool("update", false, "rewrite the golden file")

// TestGolden renders testdata/hostile.json, whose strings try to break out
// of their table cells (pipes, newlines, backticks, HTML), and compares it
// with testdata/hostile.md.golden.
func TestGolden(t *testing.T) {
	tools, err := gen.Load("testdata/hostile.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Render(gen.Analyze(tools, gen.Options{}), "testdata/CATALOG.md")
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/hostile.md.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run go test ./gen/catalog -update and review\n%s", golden, got)
	}
	// Every row of a table has its header's number of cells.
	cells := 0
	for _, line := range strings.Split(string(got), "\n") {
		if strings.Contains(line, "<script") || strings.Contains(line, "<b>") {
			t.Errorf("raw HTML in the catalog: %s", line)
		}
		if !strings.HasPrefix(line, "|") {
			cells = 0
			continue
		}
		n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cells == 0 {
			cells = n
		} else if n != cells {
			t.Errorf("row with %d separators in a table of %d: %s", n, cells, line)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "CATALOG.md")
	if diff, err := Check(path, []byte("a\n")); err != nil || !strings.Contains(diff, "missing") {
		t.Errorf("missing: %q, %v", diff, err)
	}
	if err := os.WriteFile(path, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff, err := Check(path, []byte("a\n")); err != nil || diff != "" {
		t.Errorf("current: %q, %v", diff, err)
	}
	if diff, err := Check(path, []byte("b\n")); err != nil || !strings.Contains(diff, "-a") || !strings.Contains(diff, "+b") {
		t.Errorf("stale: %q, %v", diff, err)
	}
}

// TestAnnotations: a format toolgate does not assert is marked in the
// parameters table as an annotation nobody enforces, and a default its
// schema rejects as never applied; an asserted format and a valid default
// are shown as they are.
func TestAnnotations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	tool := `{"name": "put_doc", "description": "d", "parameters": {"type": "object", "properties": {"doc": {"type": "string", "format": "json"}, "id": {"type": "string", "format": "uuid"},
	  "fast": {"type": "boolean", "default": "dontcare"}, "slow": {"type": "boolean", "default": false}}}}`
	if err := os.WriteFile(path, []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	got := renderFiles(t, filepath.Dir(path), path)
	for _, tt := range []struct{ row, cell string }{
		{"| `doc` |", "| json (an annotation, not enforced) |"},
		{"| `id` |", "| uuid |"},
		{"| `fast` |", "| `\"dontcare\"` (invalid: never applied) |"},
		{"| `slow` |", "| `false` |"},
	} {
		found := false
		for _, line := range strings.Split(string(got), "\n") {
			if strings.HasPrefix(line, tt.row) {
				found = true
				if !strings.Contains(line, tt.cell) {
					t.Errorf("row %s lacks %q", line, tt.cell)
				}
			}
		}
		if !found {
			t.Errorf("no row %s in\n%s", tt.row, got)
		}
	}
}

// renderFiles renders the catalog, at dir/CATALOG.md, of the tool files
// (or folders) at paths.
func renderFiles(t *testing.T, dir string, paths ...string) string {
	t.Helper()
	tools, err := gen.Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(gen.Analyze(tools, gen.Options{}), filepath.Join(dir, "CATALOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
