package gen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// sharedDir returns ../shared/<rel> from the module root, or skips (fails
// under CI=true) when it is missing.
func sharedDir(t *testing.T, rel string) string {
	t.Helper()
	dir := sharedPath(t, rel)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the test corpus %s is missing (required under CI=true): %v", dir, err)
		}
		t.Skipf("the test corpus %s is missing; skipping", dir)
	}
	return dir
}

// sharedPath is ../shared/<rel> from the module root.
func sharedPath(t testing.TB, rel string) string {
	return filepath.Join(gobuild.RepoRoot(t), "..", "shared", rel)
}

// nullableResult is the refusal of a tool whose outputSchema's root may be
// null, which toolgate does not type.
var nullableResult = regexp.MustCompile(`#/outputSchema: type: a result that may be null`)

// composition is the refusal of a tool for a composition keyword, which
// toolgate does not enforce yet.
var composition = regexp.MustCompile(`: (anyOf|oneOf|allOf|not|if|then|else): keyword "[A-Za-z]+" is not enforced by toolgate`)

// badName is the loader's refusal of a tool whose name breaks MCP's rule;
// it names the file and the tool's pointer.
var badName = regexp.MustCompile(`^(.+)#(/tools)?/[0-9]+/name: tool name ".*" does not match`)

// corpusTool is one tool of a corpus: loaded from its file as it comes,
// or, when the file is refused for another tool's name, from a copy of
// the tool alone.
type corpusTool struct {
	tool *gen.Tool
	file string
}

// loadCorpus loads the tool files of a corpus as they come. A file refused
// only for tool names that break MCP's rule counts those tools as refused
// (the error must name the file and the tool) and contributes its other
// tools, each copied alone.
func loadCorpus(t *testing.T, files []string, badNames map[string]int) []corpusTool {
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
		refused := map[string]bool{}
		for _, e := range list.Flat() {
			m := badName.FindStringSubmatch(e.Error())
			if m == nil || m[1] != f {
				t.Fatalf("%s is refused for another reason than a tool name: %v", f, e)
			}
			refused[e.(*gen.Error).Pointer] = true
			badNames[filepath.Base(f)]++
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
			if refused[fmt.Sprintf("%s/%d/name", base, i)] {
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

// TestMCPCorpus generates, with default flags, one package per corpus
// under ../shared/corpora/mcp and every tool on its own; compiles and vets
// the packages and runs their contract tests (the boundary matrix of each
// tool against santhosh-tekuri/jsonschema, per provider dialect). Every
// tool whose name is valid generates, except those refused for a
// composition keyword (counted apart, until composition lands).
func TestMCPCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests the generated corpus packages; skipped with -short")
	}
	root := sharedDir(t, "corpora/mcp")
	corpora := []struct{ name, pkg, pattern string }{
		{"captured-tools-list", "captured", "captured-tools-list/*.json"},
		{"docker-registry", "docker", "docker-registry/*.json"},
		{"github", "github", "github/*.snap"},
		{"spec", "spec", "spec/*/examples/Tool/*.json"},
	}
	mod := gobuild.Module(t, "corpus")
	var pkgs []string
	for _, c := range corpora {
		files, _ := filepath.Glob(filepath.Join(root, c.pattern))
		if len(files) == 0 {
			t.Fatalf("no files match %s", c.pattern)
		}
		badNames := map[string]int{}
		tools := loadCorpus(t, files, badNames)
		opts := gen.Options{Package: c.pkg, OutDir: filepath.Join(mod, c.pkg)}
		var ok []*gen.Tool
		refused := map[string]int{}
		resultRefused := 0
		for _, ct := range tools {
			_, err := gen.Generate([]*gen.Tool{ct.tool}, opts)
			if err == nil {
				ok = append(ok, ct.tool)
				continue
			}
			var list gen.ErrorList
			if !errors.As(err, &list) {
				list = gen.ErrorList{err}
			}
			keywords := map[string]bool{}
			for _, e := range list.Flat() {
				if m := composition.FindStringSubmatch(e.Error()); m != nil {
					keywords[m[1]] = true
					continue
				}
				if nullableResult.MatchString(e.Error()) {
					resultRefused++
					continue
				}
				t.Errorf("%s: tool %s (%s) is refused: %v", c.name, ct.tool.Name, ct.file, e)
			}
			var kws []string
			for k := range keywords {
				kws = append(kws, k)
			}
			sort.Strings(kws)
			if len(kws) > 0 {
				refused[strings.Join(kws, "+")]++
			}
		}
		// A tool name is unique in a package: a corpus whose servers share
		// names is split, the n-th tool of a name going to package n.
		var split [][]*gen.Tool
		seen := map[string]int{}
		for _, tool := range ok {
			n := seen[tool.Name]
			seen[tool.Name]++
			if n == len(split) {
				split = append(split, nil)
			}
			split[n] = append(split[n], tool)
		}
		notices := map[string]int{}
		for i, part := range split {
			pkg := c.pkg
			if i > 0 {
				pkg = fmt.Sprintf("%s%d", c.pkg, i+1)
			}
			popts := gen.Options{Package: pkg, OutDir: filepath.Join(mod, pkg), Notice: func(n gen.Notice) { notices[string(n.Provider)]++ }}
			out, err := gen.Generate(part, popts)
			if err != nil {
				t.Errorf("%s: the tools that generate one by one do not generate together: %v", c.name, err)
				continue
			}
			pkgFiles := map[string][]byte{}
			for _, f := range out {
				pkgFiles[f.Name] = f.Data
			}
			gobuild.WriteFiles(t, mod, pkg, pkgFiles)
			pkgs = append(pkgs, "./"+pkg)
		}
		t.Logf("%s: %d tools with a valid name, %d generated (%d packages); refused for composition keywords (not yet enforced; tools by keywords): %v; refused for a name breaking MCP's rule: %v; refused for an outputSchema that may be null: %d; notices (tool not exported) per provider: %v",
			c.name, len(tools), len(ok), len(split), refused, badNames, resultRefused, notices)
	}
	if out, err := gobuild.Go(t, mod, append([]string{"vet"}, pkgs...)...); err != nil {
		t.Fatalf("the generated corpus packages do not compile or vet:\n%s", out)
	}
	if out, err := gobuild.Go(t, mod, append([]string{"test", "-run", "TestToolContracts"}, pkgs...)...); err != nil {
		t.Fatalf("the contract tests of the corpus packages fail:\n%s", out)
	}
}
