package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// TestMCPCorpus lints every real MCP tool in ../shared/corpora/mcp, one
// set per server (so names are compared within a server), and logs the
// count per rule (go test ./gen/lint -run MCPCorpus -v;
// TOOLGATE_LINT_DUMP=FILE also appends every finding to FILE, for review).
// Every finding must carry a position inside its file and a known rule.
func TestMCPCorpus(t *testing.T) {
	root := filepath.Join(gobuild.RepoRoot(t), "..", "shared", "corpora", "mcp")
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the test corpus %s is missing (required under CI=true): %v", root, err)
		}
		t.Skipf("the test corpus %s is missing; skipping", root)
	}
	servers := map[string][]json.RawMessage{}
	for _, pattern := range []string{"github/*.snap", "captured-tools-list/*.json", "docker-registry/*.json"} {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		if len(files) == 0 {
			t.Fatalf("no files match %s", pattern)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			server := filepath.Base(filepath.Dir(f))
			if server != "github" {
				server = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".json"), ".tools")
			}
			var list struct {
				Tools []json.RawMessage `json:"tools"`
			}
			var arr []json.RawMessage
			switch {
			case json.Unmarshal(data, &arr) == nil:
				servers[server] = append(servers[server], arr...)
			case json.Unmarshal(data, &list) == nil && list.Tools != nil:
				servers[server] = append(servers[server], list.Tools...)
			default:
				servers[server] = append(servers[server], data)
			}
		}
	}
	counts := map[string]int{}
	total, linted, invalid, refused := 0, 0, 0, 0
	for server, raw := range servers {
		dir := t.TempDir()
		var tools []*gen.Tool
		for i, tool := range raw {
			total++
			path := filepath.Join(dir, fmt.Sprintf("%s-%03d.json", server, i))
			if err := os.WriteFile(path, tool, 0o644); err != nil {
				t.Fatal(err)
			}
			ts, err := gen.Load(path)
			if err != nil {
				invalid++
				continue
			}
			tools = append(tools, ts...)
		}
		res, err := Run(tools, Options{})
		if err != nil {
			t.Fatalf("%s: %v", server, err)
		}
		linted += len(tools)
		refused += len(res.Invalid)
		if os.Getenv("TOOLGATE_LINT_DUMP") != "" {
			f, err := os.OpenFile(os.Getenv("TOOLGATE_LINT_DUMP"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			WriteHuman(f, res)
			f.Close()
		}
		for _, f := range res.Findings {
			counts[f.Rule]++
			if f.Pos.Line < 1 || RuleByID(f.Rule) == nil || f.File == "" {
				t.Errorf("%s: finding without a position or a known rule: %+v", server, f)
			}
		}
	}
	var lines []string
	for _, id := range sortedKeys(counts) {
		lines = append(lines, fmt.Sprintf("%s %d", id, counts[id]))
	}
	sort.Strings(lines)
	t.Logf("MCP corpus: %d tools, %d linted, %d refused by the loader, %d by the generator (provider-fit skipped); findings per rule:\n%s", total, linted, invalid, refused, strings.Join(lines, "\n"))
	if linted*2 < total {
		t.Errorf("only %d of %d tools linted", linted, total)
	}
}
