package gen_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

func demoTools(t testing.TB) []*gen.Tool {
	t.Helper()
	tools, err := gen.Load(filepath.Join(gobuild.RepoRoot(t), "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// TestDeterministic: the same tools give the same bytes, run after run and
// whatever the order the tools are listed in.
func TestDeterministic(t *testing.T) {
	tools := demoTools(t)
	opts := gen.Options{Package: "tools", OutDir: "out"}
	first, err := gen.Generate(tools, opts)
	if err != nil {
		t.Fatal(err)
	}
	reversed := make([]*gen.Tool, len(tools))
	for i, tool := range tools {
		reversed[len(tools)-1-i] = tool
	}
	for run, in := range [][]*gen.Tool{tools, reversed, tools} {
		again, err := gen.Generate(in, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(first) {
			t.Fatalf("run %d: %d files, want %d", run, len(again), len(first))
		}
		for i := range first {
			if again[i].Name != first[i].Name || !bytes.Equal(again[i].Data, first[i].Data) {
				t.Errorf("run %d: %s differs from the first run", run, again[i].Name)
			}
		}
	}
}

// BenchmarkGenerate1000 generates a package of 1,000 tools (the five demo
// tools, renamed 200 times) — the design's target is under 3 s.
func BenchmarkGenerate1000(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(gobuild.RepoRoot(b), "schemas")
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			name := strings.TrimSuffix(e.Name(), ".json")
			renamed := strings.Replace(string(data), `"name": "`+name+`"`, fmt.Sprintf(`"name": "%s_%d"`, name, i), 1)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%d.json", name, i)), []byte(renamed), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		tools, err := gen.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		files, err := gen.Generate(tools, gen.Options{Package: "tools"})
		if err != nil {
			b.Fatal(err)
		}
		if len(files) != 1002 {
			b.Fatalf("%d files", len(files))
		}
	}
}
