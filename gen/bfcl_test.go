package gen_test

import (
	"bufio"
	"bytes"
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
	"github.com/toolgate/toolgate/gen/internal/realset"
)

// bfclTools reads every distinct function definition of the BFCL corpus
// (JSON Lines: questions with a "function" list, and multi-turn function
// docs), as canonical tool files.
func bfclTools(t *testing.T, root string) [][]byte {
	files, _ := filepath.Glob(filepath.Join(root, "*.json"))
	more, _ := filepath.Glob(filepath.Join(root, "multi_turn_func_doc", "*.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatalf("no BFCL files in %s", root)
	}
	seen := map[string]bool{}
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var entry struct {
				Function []json.RawMessage `json:"function"`
				Name     string            `json:"name"`
			}
			if err := json.Unmarshal(line, &entry); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			fns := entry.Function
			if entry.Name != "" {
				fns = []json.RawMessage{line}
			}
			for _, raw := range fns {
				var fn map[string]any
				if err := json.Unmarshal(raw, &fn); err != nil {
					t.Fatal(err)
				}
				canon, _ := json.Marshal(fn) // sorted keys: a canonical form
				if seen[string(canon)] {
					continue
				}
				seen[string(canon)] = true
				delete(fn, "response") // multi-turn docs: the result, not the arguments
				if p, ok := fn["parameters"].(map[string]any); ok {
					realset.BFCLSchema(p)
				}
				tool, _ := json.Marshal(fn)
				out = append(out, tool)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// bfclReason groups refusals: a keyword's problem by keyword, anything else
// by its message with quoted parts and numbers elided.
var bfclElide = regexp.MustCompile(`"[^"]*"|[0-9]+`)

// TestBFCLCorpus converts every distinct BFCL function definition to a
// canonical tool file (bfclSchema) and generates each on its own with
// default flags. No tool is refused because a provider cannot carry it
// (those are notices); every refusal is an upstream inconsistency the
// generator must refuse: an enum its own schema rejects. A default its
// schema rejects is a warning, not a refusal.
func TestBFCLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("generates about 3,400 tools; skipped with -short")
	}
	root := sharedDir(t, "corpora/bfcl")
	tools := bfclTools(t, root)
	dir := t.TempDir()
	generated, nameOnly, strictOnly := 0, 0, 0
	notices := map[string]int{}
	refused := map[string]int{}
	for i, tool := range tools {
		path := filepath.Join(dir, fmt.Sprintf("f%04d.json", i))
		if err := os.WriteFile(path, tool, 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := gen.Load(path)
		var left []gen.Notice
		if err == nil {
			_, err = gen.Generate(loaded, gen.Options{Package: "bfcl", Notice: func(n gen.Notice) { left = append(left, n) }})
		}
		if err != nil {
			var list gen.ErrorList
			if !errors.As(err, &list) {
				list = gen.ErrorList{err}
			}
			reasons := map[string]bool{}
			for _, e := range list.Flat() {
				var ge *gen.Error
				if !errors.As(e, &ge) {
					t.Fatalf("%s: %v", tool, e)
				}
				r := ge.Keyword
				if r == "" {
					r = bfclElide.ReplaceAllString(ge.Message, "…")
				}
				reasons[r] = true
			}
			var rs []string
			for r := range reasons {
				rs = append(rs, r)
				if r != "enum" {
					t.Errorf("%s is refused: %v", tool, err)
				}
			}
			sort.Strings(rs)
			refused[strings.Join(rs, " + ")]++
			continue
		}
		generated++
		names := 0
		for _, n := range left {
			notices[string(n.Provider)]++
			if strings.HasPrefix(n.Reason, "the name does not match") {
				names++
			}
		}
		switch {
		case len(left) > 0 && names == len(left):
			nameOnly++
		case len(left) > 0:
			strictOnly++
		}
	}
	t.Logf("BFCL: %d distinct definitions, %d generated; left out of some provider: %d for the name alone, %d for other limits (each of these was refused before providers were chosen); notices per provider: %v; refused (reason: tools): %v",
		len(tools), generated, nameOnly, strictOnly, notices, refused)
}

// TestBFCLBuild compiles one package of the BFCL corpus's distinct
// functions (the first of each generated file name, which folds names
// that differ in case or punctuation; those the generator refuses are
// left out, as TestBFCLCorpus expects) and logs the build's wall time and
// peak memory per tool, as TestSynthBuild does. Real catalogs are mostly
// small tools, so what is compiled per tool beyond its decoder (the gate's
// generic code) weighs more there. It is a measurement, run on demand
// only:
//
//	TOOLGATE_BFCL_BUILD=1 go test ./gen -run TestBFCLBuild -v -timeout 0
func TestBFCLBuild(t *testing.T) {
	if os.Getenv("TOOLGATE_BFCL_BUILD") == "" {
		t.Skip("set TOOLGATE_BFCL_BUILD=1 to measure the build of the BFCL corpus's tools")
	}
	dir := t.TempDir()
	taken := map[string]bool{}
	var tools []*gen.Tool
	for i, tool := range bfclTools(t, sharedDir(t, "corpora/bfcl")) {
		path := filepath.Join(dir, fmt.Sprintf("f%04d.json", i))
		if err := os.WriteFile(path, tool, 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := gen.Load(path)
		if err != nil {
			continue
		}
		files, err := gen.Generate(loaded, gen.Options{Package: "bfcl"})
		if err != nil {
			continue
		}
		for _, f := range files {
			if strings.HasSuffix(f.Name, "_tool.go") && !taken[f.Name] {
				taken[f.Name] = true
				tools = append(tools, loaded...)
			}
		}
	}
	files, err := gen.Generate(tools, gen.Options{Package: "bfcl"})
	if err != nil {
		t.Fatal(err)
	}
	measureBuild(t, "bfclbuild", "bfcl", files, len(tools))
}
