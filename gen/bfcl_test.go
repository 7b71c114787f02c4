package gen_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/realset"
	"github.com/toolgate/toolgate/gen/lint"
)

// bfclFunction is one distinct function definition of the BFCL corpus.
type bfclFunction struct {
	name string
	// source is where it first appears: question file and entry, or
	// multi-turn function doc file.
	source string
	// code is true for the Java and JavaScript categories, whose types are
	// Java's and whose ground-truth values are source code.
	code bool
	file []byte // its tool file (realset.BFCLToolFile)
}

// bfclCodeFiles are the question files of the Java and JavaScript
// categories.
var bfclCodeFiles = map[string]bool{"BFCL_v4_simple_java.json": true, "BFCL_v4_simple_javascript.json": true}

// bfclTools reads every distinct function definition of the BFCL corpus
// (JSON Lines: questions with a "function" list, and multi-turn function
// docs; distinct as canonical JSON), in file order.
func bfclTools(t *testing.T, root string) []bfclFunction {
	files, _ := filepath.Glob(filepath.Join(root, "*.json"))
	more, _ := filepath.Glob(filepath.Join(root, "multi_turn_func_doc", "*.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatalf("no BFCL files in %s", root)
	}
	seen := map[string]bool{}
	var out []bfclFunction
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var entry struct {
				ID       string            `json:"id"`
				Function []json.RawMessage `json:"function"`
				Name     string            `json:"name"`
			}
			if err := json.Unmarshal(line, &entry); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			fns, source := entry.Function, rel+" "+entry.ID
			if entry.Name != "" {
				fns, source = []json.RawMessage{line}, rel
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
				tool, err := realset.BFCLToolFile(raw)
				if err != nil {
					t.Fatalf("%s: %v", source, err)
				}
				name, _ := fn["name"].(string)
				out = append(out, bfclFunction{name, source, bfclCodeFiles[rel], tool})
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// bfclRefusal is why the generate path (gen.Analyze, its Generate, then
// lint.Refusals of the same Set) refuses a tool: the JSON pointer and the
// keyword or lint rule of each error, in order.
func bfclRefusal(t *testing.T, path string) []string {
	var set *gen.Set
	loaded, err := gen.Load(path)
	if err == nil {
		set = gen.Analyze(loaded, gen.Options{Package: "bfcl"})
		_, err = set.Generate()
	}
	var out []string
	if err != nil {
		var list gen.ErrorList
		if !errors.As(err, &list) {
			list = gen.ErrorList{err}
		}
		for _, e := range list.Flat() {
			var ge *gen.Error
			if !errors.As(e, &ge) {
				t.Fatalf("%s: %v", path, e)
			}
			out = append(out, fmt.Sprintf("%s %s: %s", ge.Pointer, ge.Keyword, ge.Message))
		}
		return out
	}
	refused, _, err := lint.Refusals(set, lint.Config{})
	if err != nil {
		t.Fatalf("%s: lint: %v", path, err)
	}
	for _, f := range refused {
		out = append(out, fmt.Sprintf("%s %s: %s", f.Pointer, f.Rule, f.Message))
	}
	return out
}

// bfclUpstream are the BFCL functions whose own definitions are certainly
// wrong, so that toolgate generate must refuse them, by name and where they
// first appear, with what makes them so (the refusal's pointer and keyword
// or lint rule). Each of these requires a member whose enum holds no value
// of the member's type (strings on an integer, on an array: the enum meant
// for its items), so that the function accepts no call.
var bfclUpstream = map[string]string{
	"get_response (BFCL_v4_live_irrelevance.json live_irrelevance_428-103-0)":     "/parameters/properties/intents required",
	"Events_3_BuyEventTickets (BFCL_v4_live_relevance.json live_relevance_8-8-0)": "/parameters/properties/number_of_tickets required",
	"extract_parameters_v1 (BFCL_v4_live_simple.json live_simple_71-35-0)":        "/parameters/properties/metrics required",
}

// TestBFCLCorpus converts every distinct BFCL function definition to its
// tool file (realset.BFCLToolFile) and generates each on its own with
// default flags, as toolgate generate does: gen.Generate, then
// lint.Refusals. No tool is refused because a provider cannot carry it
// (those are notices) or for a heuristic; every refusal is an upstream
// inconsistency that bfclUpstream names. The corpus holds 3,420 distinct
// definitions (canonical JSON), 3,270 of them outside the Java and
// JavaScript categories (whose parameter types are Java's and whose
// values are source code); the target is that at least 3,265 of those
// 3,270 generate.
func TestBFCLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("generates about 3,400 tools; skipped with -short")
	}
	fns := bfclTools(t, sharedDir(t, "BFCL corpus", "corpora/bfcl"))
	dir := t.TempDir()
	total, generated := 0, 0
	stillRefused := map[string]bool{}
	for i, fn := range fns {
		path := filepath.Join(dir, fmt.Sprintf("f%04d.json", i))
		if err := os.WriteFile(path, fn.file, 0o644); err != nil {
			t.Fatal(err)
		}
		if !fn.code {
			total++
		}
		refusal := bfclRefusal(t, path)
		key := fn.name + " (" + fn.source + ")"
		switch want, upstream := bfclUpstream[key]; {
		case len(refusal) == 0 && !fn.code:
			generated++
		case len(refusal) == 0:
		case !upstream:
			t.Errorf("%s is refused: %s\n%s", key, strings.Join(refusal, "; "), fn.file)
		case !slices.ContainsFunc(refusal, func(r string) bool { return strings.HasPrefix(r, want+":") }):
			t.Errorf("%s is refused, but not for %s: %s", key, want, strings.Join(refusal, "; "))
		default:
			stillRefused[key] = true
		}
	}
	for key, want := range bfclUpstream {
		if !stillRefused[key] {
			t.Errorf("%s (%s) is no longer refused, or no longer in the corpus: take it off bfclUpstream", key, want)
		}
	}
	if total != 3270 {
		t.Errorf("%d distinct definitions outside the Java and JavaScript categories, want 3,270", total)
	}
	if generated < 3265 {
		t.Errorf("%d of %d distinct definitions outside the Java and JavaScript categories generate, want at least 3,265", generated, total)
	}
	t.Logf("BFCL: %d distinct definitions; outside the Java and JavaScript categories %d of %d generate; refused as upstream inconsistencies: %d", len(fns), generated, total, len(stillRefused))
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
		// make test names this skip from the variable (a log written here
		// would keep go test from caching the package).
		t.Skip("set TOOLGATE_BFCL_BUILD=1 to measure the build of the BFCL corpus's tools")
	}
	dir := t.TempDir()
	taken := map[string]bool{}
	var tools []*gen.Tool
	for i, fn := range bfclTools(t, sharedDir(t, "BFCL corpus", "corpora/bfcl")) {
		path := filepath.Join(dir, fmt.Sprintf("f%04d.json", i))
		if err := os.WriteFile(path, fn.file, 0o644); err != nil {
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
