package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/suiteskip"
)

// mcpCorpus is ../shared/corpora/mcp; the test skips when it is missing,
// and fails under CI=true.
func mcpCorpus(t *testing.T) string {
	t.Helper()
	root := filepath.Join(gobuild.RepoRoot(t), "..", "shared", "corpora", "mcp")
	suiteskip.Missing(t, "MCP corpus lint", root)
	return root
}

// TestMCPCorpus lints every real MCP tool in ../shared/corpora/mcp, one
// set per server (so names are compared within a server), and logs the
// count per rule (go test ./gen/lint -run MCPCorpus -v;
// TOOLGATE_LINT_DUMP=FILE also appends every finding to FILE, for review).
// Every finding must carry a position inside its file and a known rule.
func TestMCPCorpus(t *testing.T) {
	root := mcpCorpus(t)
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
		res, err := Run(gen.Analyze(tools, gen.Options{}), Options{})
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

// TestRealServersGenerate: tools of real MCP servers that the heuristic
// rules used to refuse generate with default options, as generate runs
// them: Okta's add_user_to_group(user_id) (the user acted on) and Vectra's
// read-only list_platform_users(role) (a filter) raise no finding of a
// certain rule. Vectra's two names with spaces stay refused by the loader,
// an invalid definition that says what breaks MCP's rule.
func TestRealServersGenerate(t *testing.T) {
	root := filepath.Join(mcpCorpus(t), "docker-registry")
	tests := []struct {
		file string
		// refused is how many tools the loader refuses (names that break
		// MCP's rule).
		refused int
		// tool must be among the tools generated.
		tool string
	}{
		{"okta-mcp-server.tools.json", 0, "add_user_to_group"},
		{"vectra-ai-rux-mcp-server.tools.json", 2, "list_platform_users"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(root, tt.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = gen.Load(path)
			var list gen.ErrorList
			errors.As(err, &list)
			if (err != nil) != (tt.refused > 0) || len(list.Flat()) != tt.refused {
				t.Fatalf("load: %v; want %d refused names", err, tt.refused)
			}
			for _, e := range list.Flat() {
				if !strings.Contains(e.Error(), ": tool name") || !strings.HasSuffix(e.Error(), "/name)") || !strings.Contains(e.Error(), "' ' is not allowed") {
					t.Errorf("refused for another reason: %v", e)
				}
			}
			// The valid tools, as a team would keep them after dropping the
			// invalid ones.
			var tools []json.RawMessage
			if err := json.Unmarshal(data, &tools); err != nil {
				var list struct{ Tools []json.RawMessage }
				if err := json.Unmarshal(data, &list); err != nil {
					t.Fatal(err)
				}
				tools = list.Tools
			}
			dir := t.TempDir()
			var loaded []*gen.Tool
			for i, raw := range tools {
				p := filepath.Join(dir, fmt.Sprintf("t%03d.json", i))
				if err := os.WriteFile(p, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				if ts, err := gen.Load(p); err == nil {
					loaded = append(loaded, ts...)
				}
			}
			if len(loaded) != len(tools)-tt.refused {
				t.Fatalf("%d of %d tools load, want %d", len(loaded), len(tools), len(tools)-tt.refused)
			}
			res, err := Run(gen.Analyze(loaded, gen.Options{}), Options{MinSeverity: Error, Generating: true})
			if err != nil || len(res.Invalid) > 0 {
				t.Fatalf("lint: %v %v", err, res.Invalid)
			}
			for _, f := range res.Findings {
				if RuleByID(f.Rule).Certain() {
					t.Errorf("refused at generation: %v", f)
				}
			}
			if _, err := gen.Generate(loaded, gen.Options{Package: "p"}); err != nil {
				t.Fatalf("generate: %v", err)
			}
			if !slices.ContainsFunc(loaded, func(tl *gen.Tool) bool { return tl.Name == tt.tool }) {
				t.Errorf("%s is not among the tools generated", tt.tool)
			}
		})
	}
}
