package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/suiteskip"
)

// TestHints: the catalog shows the behaviour hints of MCP tools, read from
// their annotations: GitHub's delete_file (../shared/corpora/mcp, whose
// annotations say destructiveHint true) is "Destructive: yes", and a
// read-only, idempotent tool says so.
func TestHints(t *testing.T) {
	corpus := filepath.Join(gobuild.RepoRoot(t), "..", "shared", "corpora", "mcp")
	suiteskip.Missing(t, "MCP corpus catalog hints", corpus)
	file := filepath.Join(corpus, "github", "delete_file.snap")
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "get.json")
	if err := os.WriteFile(readOnly, []byte(`{"name": "get_file", "description": "d", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
	  "annotations": {"readOnlyHint": true, "idempotentHint": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got := renderFiles(t, dir, file, readOnly)
	sections := map[string]string{}
	for _, s := range strings.Split(got, "\n## ")[1:] {
		name, body, _ := strings.Cut(s, "\n")
		sections[name] = body
	}
	for _, tc := range []struct {
		tool      string
		want, not []string
	}{
		{"`delete_file`", []string{"\n- Destructive: yes\n"}, []string{"Read-only", "Idempotent"}},
		{"`get_file`", []string{"\n- Destructive: no\n- Read-only: yes\n- Idempotent: yes\n"}, nil},
	} {
		body, ok := sections[tc.tool]
		if !ok {
			t.Fatalf("no section %s in\n%s", tc.tool, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q:\n%s", tc.tool, w, body)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(body, n) {
				t.Errorf("%s says %q:\n%s", tc.tool, n, body)
			}
		}
	}
}
