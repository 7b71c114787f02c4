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
	"github.com/toolgate/toolgate/runtime/provider"
)

// sharedDir returns ../shared/<rel> from the module root, or skips (fails
// under CI=true) when it is missing.
func sharedDir(t *testing.T, rel string) string {
	t.Helper()
	dir := filepath.Join(gobuild.RepoRoot(t), "..", "shared", rel)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the test corpus %s is missing (required under CI=true): %v", dir, err)
		}
		t.Skipf("the test corpus %s is missing; skipping", dir)
	}
	return dir
}

// refusal is why the generator may refuse a real MCP tool: it fails closed
// on keywords it does not enforce yet. Any other refusal fails the test.
// Names that break MCP's own name rule are refused too.
var refusal = regexp.MustCompile(`: (anyOf|oneOf|allOf|not|if|then|else|patternProperties|propertyNames|dependentRequired|dependentSchemas|minProperties|maxProperties|contains): keyword "[A-Za-z]+" is not enforced by toolgate|#/(name): tool name ".*" does not match`)

// TestMCPCorpus generates Go for every real MCP tool schema in
// ../shared/corpora/mcp, one package per server, exported to MCP, and
// compiles it. A tool is
// either generated or refused for a keyword toolgate does not enforce yet.
func TestMCPCorpus(t *testing.T) {
	root := sharedDir(t, "corpora/mcp")
	servers := map[string][]json.RawMessage{}
	add := func(server string, data []byte) {
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
			add(server, data)
		}
	}
	mod := gobuild.Module(t, "corpus")
	var names []string
	for s := range servers {
		names = append(names, s)
	}
	sort.Strings(names)
	total, generated, refused := 0, 0, map[string]int{}
	var pkgs []string
	for _, server := range names {
		dir := t.TempDir()
		for i, tool := range servers[server] {
			path := filepath.Join(dir, fmt.Sprintf("tool%03d.json", i))
			if err := os.WriteFile(path, tool, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pkg := "p" + regexp.MustCompile(`[^a-z0-9]`).ReplaceAllString(strings.ToLower(server), "")
		var ok []*gen.Tool
		for i := range servers[server] {
			total++
			tools, err := gen.Load(filepath.Join(dir, fmt.Sprintf("tool%03d.json", i)))
			if err == nil {
				_, err = gen.Generate(tools, gen.Options{Package: pkg, Providers: []provider.Provider{provider.MCP}})
			}
			if err != nil {
				var list gen.ErrorList
				if !errors.As(err, &list) {
					list = gen.ErrorList{err}
				}
				for _, e := range list.Flat() {
					m := refusal.FindStringSubmatch(e.Error())
					if m == nil {
						t.Errorf("%s: tool %d refused for an unexpected reason: %v", server, i, e)
						continue
					}
					refused[m[1]+m[2]]++
				}
				continue
			}
			ok = append(ok, tools...)
		}
		generated += len(ok)
		files, err := gen.Generate(ok, gen.Options{Package: pkg, Providers: []provider.Provider{provider.MCP}})
		if err != nil {
			t.Errorf("%s: generating the tools that generate one by one together: %v", server, err)
			continue
		}
		out := map[string][]byte{}
		for _, f := range files {
			out[f.Name] = f.Data
		}
		gobuild.WriteFiles(t, mod, pkg, out)
		pkgs = append(pkgs, "./"+pkg)
	}
	if out, err := gobuild.Go(t, mod, append([]string{"vet"}, pkgs...)...); err != nil {
		t.Fatalf("the generated corpus packages do not compile:\n%s", out)
	}
	t.Logf("MCP corpus: %d tools, %d generated and compiled, refused (keyword: count) %v", total, generated, refused)
	if generated*2 < total {
		t.Errorf("only %d of %d tools generated", generated, total)
	}
}
