package gen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/suiteskip"
	"github.com/toolgate/toolgate/gen/lint"
)

// sharedDir returns ../shared/<rel> from the module root, the folder of
// suite, or skips (fails under CI=true) when it is missing.
func sharedDir(t *testing.T, suite, rel string) string {
	t.Helper()
	dir := sharedPath(t, rel)
	suiteskip.Missing(t, suite, dir)
	return dir
}

// sharedPath is ../shared/<rel> from the module root.
func sharedPath(t testing.TB, rel string) string {
	return filepath.Join(gobuild.RepoRoot(t), "..", "shared", rel)
}

// badName is the loader's refusal of a tool whose name breaks MCP's rule;
// it names the file, the tool's pointer and the name.
var badName = regexp.MustCompile(`^(.+):[0-9]+:[0-9]+: tool name ("(?:[^"\\]|\\.)*") does not match .* \(at (/tools)?/[0-9]+/name\)$`)

// corpusTool is one tool of a corpus: loaded from its file as it comes,
// or, when the file is refused for another tool's name, from a copy of
// the tool alone.
type corpusTool struct {
	tool *gen.Tool
	file string
}

// loadCorpus loads the tool files of a corpus as they come. A file refused
// only for tool names that break MCP's rule lists those tools in badNames
// under the file's base name (the error must name the file and the tool)
// and contributes its other tools, each copied alone.
func loadCorpus(t *testing.T, files []string, badNames map[string][]string) []corpusTool {
	var out []corpusTool
	for _, f := range files {
		tools, err := gen.Load(f)
		if err == nil {
			for _, tool := range tools {
				out = append(out, corpusTool{tool, f})
			}
			continue
		}
		var list gen.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%s: %v", f, err)
		}
		refused := map[string]string{} // pointer → the name the error quotes
		for _, e := range list.Flat() {
			m := badName.FindStringSubmatch(e.Error())
			if m == nil || m[1] != f {
				t.Fatalf("%s is refused for another reason than a tool name: %v", f, e)
			}
			name, err := strconv.Unquote(m[2])
			if err != nil || name == "" {
				t.Fatalf("%s: the refusal does not name the tool: %v", f, e)
			}
			refused[e.(*gen.Error).Pointer] = name
			badNames[filepath.Base(f)] = append(badNames[filepath.Base(f)], name)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list2 struct {
			Tools []json.RawMessage `json:"tools"`
		}
		var arr []json.RawMessage
		base := ""
		if json.Unmarshal(data, &arr) != nil {
			if err := json.Unmarshal(data, &list2); err != nil {
				t.Fatal(err)
			}
			arr, base = list2.Tools, "/tools"
		}
		for i, raw := range arr {
			if name, ok := refused[fmt.Sprintf("%s/%d/name", base, i)]; ok {
				var tool struct{ Name string }
				if err := json.Unmarshal(raw, &tool); err != nil || tool.Name != name {
					t.Errorf("%s: the refusal of tool %d names %q, but the tool is %q", f, i, name, tool.Name)
				}
				continue
			}
			alone := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d.json", filepath.Base(f), i))
			if err := os.WriteFile(alone, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := gen.Load(alone)
			if err != nil {
				t.Fatalf("%s tool %d alone: %v", f, i, err)
			}
			out = append(out, corpusTool{tools[0], f})
		}
	}
	return out
}

// mcpServer is one server of the MCP corpus: the tool files of its
// tools/list, generated as one package.
type mcpServer struct {
	name, pkg string
	files     []string
}

// mcpServers lists the servers of the MCP corpus at root: each captured
// tools/list response and each Docker registry tools.json is a server, the
// GitHub server's .snap files together are one, and so are the
// specification's example Tool files.
func mcpServers(t *testing.T, root string) []mcpServer {
	glob := func(pattern string) []string {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		if len(files) == 0 {
			t.Fatalf("no files match %s in %s", pattern, root)
		}
		return files
	}
	var out []mcpServer
	for _, pattern := range []string{"captured-tools-list/*.json", "docker-registry/*.tools.json"} {
		for _, f := range glob(pattern) {
			base, _, _ := strings.Cut(filepath.Base(f), ".")
			pkg := strings.ToLower(strings.ReplaceAll(base, "-", ""))
			out = append(out, mcpServer{filepath.Dir(pattern) + "/" + base, pkg, []string{f}})
		}
	}
	return append(out,
		mcpServer{"github", "github", glob("github/*.snap")},
		mcpServer{"spec examples", "spec", glob("spec/*/examples/Tool/*.json")})
}

// TestMCPCorpus generates every server of ../shared/corpora/mcp with
// default flags, as toolgate generate does (gen.Generate, then
// lint.Refusals; a oneOf overlap is a warning there, logged here), each
// into a package of one temporary module, then vets the module and runs
// every test generated into it: contract tests, fuzz seeds, all. Only the
// tools whose names break MCP's rule are left out; the loader's error must
// name the file and the tool. No generated type or field is struct{}
// except the Args of a tool that takes no arguments. The specification's
// examples define calculate_sum twice (two dialects), so the n-th tool of
// a name in a server goes to the server's n-th package.
func TestMCPCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests the generated corpus packages; skipped with -short")
	}
	root := sharedDir(t, "MCP corpus", "corpora/mcp")
	mod := gobuild.Module(t, "corpus")
	var pkgs []string
	for _, server := range mcpServers(t, root) {
		badNames := map[string][]string{}
		loaded := loadCorpus(t, server.files, badNames)
		var parts [][]*gen.Tool
		seen := map[string]int{}
		for _, ct := range loaded {
			n := seen[ct.tool.Name]
			seen[ct.tool.Name]++
			if n == len(parts) {
				parts = append(parts, nil)
			}
			parts[n] = append(parts[n], ct.tool)
		}
		var stats serverStats
		for i, tools := range parts {
			pkg := server.pkg
			if i > 0 {
				pkg = fmt.Sprintf("%s%d", server.pkg, i+1)
			}
			if generateServer(t, server.name, mod, pkg, tools, &stats) {
				pkgs = append(pkgs, "./"+pkg)
			}
		}
		t.Logf("%s: %d tools (%d package(s)), %d of them without arguments; left out for a name breaking MCP's rule: %q; notices (a provider left out): %d; oneOf overlap warnings: %d",
			server.name, len(loaded), len(parts), stats.noArgs, badNames, stats.notices, stats.overlaps)
	}
	if len(pkgs) == 0 {
		t.Fatal("no server generated")
	}
	if out, err := gobuild.Go(t, mod, append([]string{"vet"}, pkgs...)...); err != nil {
		t.Errorf("the generated corpus packages do not compile or vet:\n%s", out)
	}
	if out, err := gobuild.Go(t, mod, append([]string{"test"}, pkgs...)...); err != nil {
		t.Errorf("the generated tests of the corpus packages fail:\n%s", out)
	}
}

// serverStats counts, for a server's log line, the notices of generation
// (a provider left out), the oneOf overlap warnings and the tools that take
// no arguments.
type serverStats struct{ notices, overlaps, noArgs int }

// generateServer generates tools as package pkg under mod with default
// flags and writes it there, reporting (t.Errorf) each refusal, lint
// refusal and struct{} it finds under server's name; it returns whether
// the package was written.
func generateServer(t *testing.T, server, mod, pkg string, tools []*gen.Tool, stats *serverStats) bool {
	dir := filepath.Join(mod, pkg)
	opts := gen.Options{Package: pkg, OutDir: dir, Notice: func(gen.Notice) { stats.notices++ }}
	set := gen.Analyze(tools, opts)
	files, err := set.Generate()
	if err != nil {
		var list gen.ErrorList
		if !errors.As(err, &list) {
			list = gen.ErrorList{err}
		}
		for _, e := range list.Flat() {
			t.Errorf("%s: refused: %v", server, e)
		}
		return false
	}
	refused, _, err := lint.Refusals(set, lint.Config{})
	if err != nil {
		t.Fatalf("%s: lint: %v", server, err)
	}
	for _, f := range refused {
		t.Errorf("%s: tool %s refused by lint: %v", server, f.Tool, f)
	}
	noArgs := map[string]bool{}
	for _, tool := range tools {
		stats.overlaps += len(gen.OneOfOverlaps(tool, gen.Options{}))
		eff, _, err := set.Schema(tool)
		if err != nil {
			t.Fatalf("%s: tool %s: %v", server, tool.Name, err)
		}
		if takesNoArguments(eff) {
			noArgs[tool.Name] = true
			stats.noArgs++
		}
	}
	empty, err := emptyStructs(files, noArgs)
	if err != nil {
		t.Fatalf("%s: %v", server, err)
	}
	for _, e := range empty {
		t.Errorf("%s: struct{} holds less than its schema accepts: %s", server, e)
	}
	if _, _, err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return true
}
