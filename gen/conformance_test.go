package gen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/suiteskip"
)

// TestConformance runs the generated validators against the JSON Schema Test
// Suite (draft 2020-12) in ../shared/corpora/jsts: every case of a file is
// generated (plain JSON Schema semantics: open objects, any root value) into
// one package per run, a generated main program validates every test's data
// with it, and each verdict is compared with the suite's "valid". Two runs
// share one build: "plain" (format as an annotation: the required files and
// optional/ecmascript-regex.json) and "asserted" (optional/format/*.json,
// format asserted).
//
// A case is skipped only when listed in conformanceSkips, and a skipped case
// must be refused by the generator (fail-closed); a case the generator
// refuses that is not listed fails the test. A mismatch fails the test unless
// listed in knownBugs; a listed bug that no longer reproduces fails the test
// too, so that both tables only shrink. See CONFORMANCE.md.
func TestConformance(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpora", "jsts", "draft2020-12"))
	if err != nil {
		t.Fatal(err)
	}
	suiteskip.Missing(t, "JSON Schema Test Suite conformance", root)
	// Not skipped under -short: the whole run (~300 validators generated,
	// one build, ~1,500 verdicts) takes about 5 s warm on 2 cores.
	if _, err := exec.LookPath("go"); err != nil {
		suiteskip.Skip(t, "JSON Schema Test Suite conformance", "the go command is not on PATH")
	}
	modRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}

	root7 := filepath.Join(filepath.Dir(root), "draft7")
	var files []suiteFile
	for _, r := range []struct {
		dir, glob, run, prefix string
	}{
		{root, "*.json", "plain", ""},
		{root, "optional/ecmascript-regex.json", "plain", ""},
		{root, "optional/format/*.json", "asserted", ""},
		// toolgate's own cases in the suite's format: shapes the suite does
		// not reach (see the file's descriptions).
		{"testdata/conformance", "*.json", "plain", "testdata/conformance/"},
		// draft-07: each schema gets "$schema" for draft-07 when it has none.
		{root7, "*.json", "plain7", "draft7/"},
		{root7, "optional/ecmascript-regex.json", "plain7", "draft7/"},
		{root7, "optional/format/*.json", "asserted7", "draft7/"},
	} {
		matches, err := filepath.Glob(filepath.Join(r.dir, r.glob))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(matches)
		for _, m := range matches {
			rel, _ := filepath.Rel(r.dir, m)
			f, err := readSuiteFile(m, r.prefix+filepath.ToSlash(rel), r.run)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no suite files in %s", root)
	}

	remotes := gen.LoadOptions{Bases: map[string]string{"http://localhost:1234/": filepath.Join(filepath.Dir(root), "remotes")}}
	h := &harness{t: t, work: t.TempDir(), modRoot: modRoot, usedSkip: map[string]bool{}, usedBug: map[string]bool{}, remotes: remotes}
	start := time.Now()
	h.prepare(files)
	genTime := time.Since(start)
	h.runAll()
	t.Logf("conformance: generation %v, build+run %v, total %v", genTime.Round(time.Millisecond), h.runTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	h.report(files)
}

// conformanceSkips lists the cases not run, keyed by file (every case of it)
// or by "file|case description" (file relative to draft2020-12). Each reason
// says why. A listed case must be
// refused by the generator: toolgate fails closed on keywords it does not
// enforce, so a listed case that generates is run anyway (see probe).
var conformanceSkips = map[string]string{
	// Not supported, by design (issue 9): each fails at generation with a
	// message naming the keyword or the reference.
	"dynamicRef.json": "$dynamicRef/$dynamicAnchor are not supported",
	"unevaluatedItems.json|unevaluatedItems with $dynamicRef":           "$dynamicRef/$dynamicAnchor are not supported",
	"unevaluatedProperties.json|unevaluatedProperties with $dynamicRef": "$dynamicRef/$dynamicAnchor are not supported",
	"ref.json|remote ref, containing refs itself":                       "remote reference to the 2020-12 meta-schema",
	"defs.json":       "remote reference to the 2020-12 meta-schema",
	"vocabulary.json": "custom meta-schemas ($vocabulary) are not supported",
	"draft7/ref.json|remote ref, containing refs itself":             "remote reference to the draft-07 meta-schema",
	"draft7/definitions.json|validate definition against metaschema": "remote reference to the draft-07 meta-schema",

	// Deliberate refusals: toolgate generates typed code, and these schemas
	// would make it lie.
	"properties.json|properties with escaped characters":        "deliberate: six member names map to the same Go field FooBar, a generation error the user resolves with x-toolgate goName (the suite's schema cannot carry it)",
	"draft7/properties.json|properties with escaped characters": "deliberate: a member name holds a control character (U+000C), which tool files may not hold in names",
	"draft7/ref.json|ref overrides any sibling keywords":        "deliberate: draft-07 ignores keywords beside $ref, but the model would be shown them; the generator asks to move them into the referenced schema",
}

// knownBugs lists generator and runtime bugs the suite finds, keyed by
// "run|file|case" (the case is refused, does not compile, or any of its
// tests fails) or "run|file|case|test" (that test fails). Each reason names
// the cause. A listed bug that no longer reproduces fails the test: remove
// the entry (the goal is an empty table).
var knownBugs = map[string]string{}

type suiteFile struct {
	rel   string // path under draft2020-12, e.g. "optional/format/date.json"
	run   string // "plain" or "asserted"
	cases []*suiteCase
}

type suiteCase struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []suiteTest     `json:"tests"`

	file    *suiteFile
	index   int
	global  int    // index in harness.cases
	tool    string // tool name
	goName  string // Go name of the tool (x-toolgate goName)
	path    string // tool file in the work dir
	skip    string // reason from conformanceSkips ("" if not listed)
	skipKey string
	genErr  error  // the generator's error, if it refuses the case
	run     bool   // generated and run
	broken  string // why a generated case was dropped (compile error)
	results []string
}

type suiteTest struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
}

func readSuiteFile(path, rel, run string) (suiteFile, error) {
	f := suiteFile{rel: rel, run: run}
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f.cases); err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	return f, nil
}
