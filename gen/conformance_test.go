package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/gen"
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
	if _, err := os.Stat(root); err != nil {
		msg := fmt.Sprintf("JSON Schema Test Suite not found at %s (../shared/corpora/jsts/draft2020-12 from the module root): %v", root, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// Not skipped under -short: the whole run (~300 validators generated,
	// one build, ~1,500 verdicts) takes about 5 s warm on 2 cores.
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
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

	h := &harness{t: t, work: t.TempDir(), modRoot: modRoot, usedSkip: map[string]bool{}, usedBug: map[string]bool{}}
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
	"refRemote.json": "remote references (documents outside the tool file) are not supported",
	"ref.json|remote ref, containing refs itself": "remote reference to the 2020-12 meta-schema",
	"defs.json":             "remote reference to the 2020-12 meta-schema",
	"vocabulary.json":       "custom meta-schemas ($vocabulary) are not supported",
	"draft7/refRemote.json": "remote references (documents outside the tool file) are not supported",
	"draft7/ref.json|remote ref, containing refs itself":             "remote reference to the draft-07 meta-schema",
	"draft7/definitions.json|validate definition against metaschema": "remote reference to the draft-07 meta-schema",

	// Deliberate refusals: toolgate generates typed code, and these schemas
	// would make it lie.
	"default.json|invalid type for default":                                                   "deliberate: toolgate refuses a default its own schema rejects (the generated accessor would hand it out), although JSON Schema makes default a mere annotation",
	"default.json|invalid string value for default":                                           "deliberate: a default its own schema rejects is a generation error",
	"default.json|the default keyword does not do anything if the property is missing":        "deliberate: a default its own schema rejects is a generation error",
	"draft7/default.json|invalid type for default":                                            "deliberate: a default its own schema rejects is a generation error",
	"draft7/default.json|invalid string value for default":                                    "deliberate: a default its own schema rejects is a generation error",
	"draft7/default.json|the default keyword does not do anything if the property is missing": "deliberate: a default its own schema rejects is a generation error",
	"properties.json|properties with escaped characters":                                      "deliberate: six member names map to the same Go field FooBar, a generation error the user resolves with x-toolgate goName (the suite's schema cannot carry it)",
	"draft7/properties.json|properties with escaped characters":                               "deliberate: a member name holds a control character (U+000C), which tool files may not hold in names",
	"draft7/ref.json|ref overrides any sibling keywords":                                      "deliberate: draft-07 ignores keywords beside $ref, but the model would be shown them; the generator asks to move them into the referenced schema",
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

type harness struct {
	t        *testing.T
	work     string
	modRoot  string
	cases    []*suiteCase
	usedSkip map[string]bool
	usedBug  map[string]bool
	runTime  time.Duration
}

func (h *harness) opts(run string) gen.Options {
	return gen.Options{Package: run, ValueRoots: true, OpenObjects: true, FormatAnnotation: !strings.HasPrefix(run, "asserted")}
}

var nonToolChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// prepare writes one tool file per case and asks the generator about each
// case alone, to tell refused cases from accepted ones.
func (h *harness) prepare(files []suiteFile) {
	t := h.t
	for fi := range files {
		f := &files[fi]
		dir := filepath.Join(h.work, "schemas", f.run)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, c := range f.cases {
			c.file, c.index = f, i
			base := strings.TrimSuffix(strings.TrimPrefix(f.rel, "testdata/conformance/"), ".json")
			c.tool = "c" + nonToolChars.ReplaceAllString(strings.ReplaceAll(base, "/", "."), "_") + "_" + strconv.Itoa(i)
			c.global = len(h.cases)
			c.goName = fmt.Sprintf("Case%d", c.global)
			h.cases = append(h.cases, c)
			c.skipKey = f.rel
			reason, ok := conformanceSkips[c.skipKey]
			if !ok {
				c.skipKey = f.rel + "|" + c.Description
				reason, ok = conformanceSkips[c.skipKey]
			}
			if ok {
				h.usedSkip[c.skipKey] = true
				c.skip = reason
			} else {
				c.skipKey = ""
			}
			doc, err := json.Marshal(map[string]any{
				"name":        c.tool,
				"description": c.Description,
				"parameters":  h.dialect(f, c.Schema),
				"x-toolgate":  map[string]any{"goName": c.goName},
			})
			if err != nil {
				t.Fatal(err)
			}
			c.path = filepath.Join(dir, c.tool+".json")
			if err := os.WriteFile(c.path, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := gen.Load(c.path)
			if err == nil {
				_, err = gen.Generate(tools, h.opts(f.run))
			}
			c.genErr = err
			c.run = err == nil
		}
	}
	for k := range conformanceSkips {
		if !h.usedSkip[k] {
			t.Errorf("conformanceSkips entry %q matches no case of the suite: remove it", k)
		}
	}
}

var compileErrLine = regexp.MustCompile(`(?m)^\s*(?:\./)?(plain7?|asserted7?)/([a-z0-9_]+_tool\.go):\d+`)

// dialect returns the schema of a draft-07 case with "$schema" naming
// draft-07 when it names no dialect (toolgate reads 2020-12 by default).
// A boolean schema means the same in both.
func (h *harness) dialect(f *suiteFile, schema json.RawMessage) json.RawMessage {
	if !strings.HasPrefix(f.rel, "draft7/") {
		return schema
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil || m["$schema"] != nil {
		return schema
	}
	b := bytes.TrimSpace(schema)
	sep := ","
	if bytes.Equal(bytes.TrimSpace(b[1:len(b)-1]), nil) {
		sep = ""
	}
	return append([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#"`+sep), b[1:]...)
}

// runAll generates the two packages and the program that runs every test,
// builds and runs it once. A case whose generated code does not compile is
// dropped (and reported) and the build retried, so one bad case cannot hide
// the others.
func (h *harness) runAll() {
	t := h.t
	mod := filepath.Join(h.work, "mod")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := fmt.Sprintf("module conformance\n\ngo 1.26\n\nrequire github.com/toolgate/toolgate v0.0.0\n\nreplace github.com/toolgate/toolgate => %s\n", h.modRoot)
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(h.modRoot, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for attempt := 0; attempt < 5; attempt++ {
		byFile := h.generate(mod)
		out, err := h.goRun(mod)
		if err == nil {
			h.parse(out)
			return
		}
		dropped := false
		for _, m := range compileErrLine.FindAllStringSubmatch(string(out), -1) {
			if c := byFile[m[1]+"/"+m[2]]; c != nil && c.run {
				c.run = false
				c.broken = "generated code does not compile:\n" + firstLines(grepLines(string(out), m[2]), 10)
				dropped = true
			}
		}
		if !dropped {
			t.Fatalf("go run failed: %v\n%s", err, firstLines(string(out), 60))
		}
	}
	t.Fatal("too many build attempts")
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// generate writes the packages plain and asserted and main.go, and returns
// the case of each generated file ("plain/x_tool.go").
func (h *harness) generate(mod string) map[string]*suiteCase {
	t := h.t
	byFile := map[string]*suiteCase{}
	var main, imports bytes.Buffer
	for _, run := range []string{"plain", "asserted", "plain7", "asserted7"} {
		dir := filepath.Join(mod, run)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var tools []*gen.Tool
		var cases []*suiteCase
		for _, c := range h.cases {
			if c.file.run != run || !c.run {
				continue
			}
			ts, err := gen.Load(c.path)
			if err != nil {
				t.Fatal(err)
			}
			tools = append(tools, ts...)
			cases = append(cases, c)
		}
		files, err := gen.Generate(tools, h.opts(run))
		if err != nil {
			t.Fatalf("generating the %s package from cases that generate one by one: %v", run, err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				if bytes.Contains(f.Data, []byte("\nconst "+c.goName+"ToolName = ")) {
					byFile[run+"/"+f.Name] = c
				}
			}
		}
		if len(cases) > 0 {
			fmt.Fprintf(&imports, "\t%q\n", "conformance/"+run)
		}
		for _, c := range cases {
			for ti, tc := range c.Tests {
				fmt.Fprintf(&main, "\t{\"%d/%d\", %s.Validate%s, %s},\n", c.global, ti, run, c.goName, strconv.Quote(string(tc.Data)))
			}
		}
	}
	src := "// Code generated by TestConformance. DO NOT EDIT.\n\npackage main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\n" + imports.String() + ")\n\n" +
		"type test struct {\n\tid   string\n\tfn   func([]byte) error\n\tdata string\n}\n\nvar tests = []test{\n" + main.String() + "}\n\n" + `func main() {
	w := os.Stdout
	for _, tc := range tests {
		run(w, tc)
	}
}

func run(w *os.File, tc test) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(w, "V\t%s\tpanic\t%s\n", tc.id, strconv.Quote(fmt.Sprint(r)))
		}
	}()
	if err := tc.fn([]byte(tc.data)); err != nil {
		fmt.Fprintf(w, "V\t%s\tinvalid\t%s\n", tc.id, strconv.Quote(err.Error()))
		return
	}
	fmt.Fprintf(w, "V\t%s\tvalid\t\"\"\n", tc.id)
}
`
	if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return byFile
}

func (h *harness) goRun(mod string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "run", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	h.runTime += time.Since(start)
	return out.Bytes(), err
}

// parse reads the verdict lines "V\t<case>/<test>\t<verdict>\t<quoted error>".
func (h *harness) parse(out []byte) {
	for _, c := range h.cases {
		if c.run {
			c.results = make([]string, len(c.Tests))
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 || f[0] != "V" {
			continue
		}
		var ci, ti int
		if _, err := fmt.Sscanf(f[1], "%d/%d", &ci, &ti); err != nil {
			h.t.Fatalf("bad verdict line %q", line)
		}
		msg, err := strconv.Unquote(f[3])
		if err != nil {
			msg = f[3]
		}
		h.cases[ci].results[ti] = f[2] + "\t" + msg
	}
}

type fileCounts struct {
	casesRun, casesSkipped         int
	passed, failed, known, skipped int
}

// report compares every verdict with the suite and prints the summary.
func (h *harness) report(files []suiteFile) {
	t := h.t
	counts := map[string]*fileCounts{}
	var total fileCounts
	for _, c := range h.cases {
		fc := counts[c.file.rel]
		if fc == nil {
			fc = &fileCounts{}
			counts[c.file.rel] = fc
		}
		caseKey := c.file.run + "|" + c.file.rel + "|" + c.Description
		switch {
		case c.genErr != nil && c.skipKey != "":
			fc.casesSkipped++
			fc.skipped += len(c.Tests)
			continue
		case c.genErr != nil || c.broken != "":
			fc.casesSkipped++
			fc.skipped += len(c.Tests)
			why := c.broken
			if why == "" {
				why = "the generator refuses a case that is not in conformanceSkips:\n" + c.genErr.Error()
			}
			if reason, ok := knownBugs[caseKey]; ok {
				h.usedBug[caseKey] = true
				fc.known += len(c.Tests)
				fc.skipped -= len(c.Tests)
				t.Logf("known bug (%s): %s: %s", reason, c.file.rel, c.Description)
				continue
			}
			t.Errorf("%s: case %q (schema %s): %s", c.file.rel, c.Description, compact(c.Schema), why)
			continue
		}
		fc.casesRun++
		caseReason, caseKnown := knownBugs[caseKey]
		failedHere := 0
		for ti, tc := range c.Tests {
			key := caseKey + "|" + tc.Description
			res := c.results[ti]
			verdict, msg, _ := strings.Cut(res, "\t")
			want := "invalid"
			if tc.Valid {
				want = "valid"
			}
			reason, isKnown := knownBugs[key]
			if isKnown {
				h.usedBug[key] = true
			} else if caseKnown {
				reason, isKnown = caseReason, true
			}
			switch {
			case res == "":
				verdict = "no verdict (the program stopped early?)"
			case verdict == want:
				fc.passed++
				if _, ok := knownBugs[key]; ok {
					t.Errorf("knownBugs entry %q: the test passes now: remove the entry", key)
				}
				continue
			}
			failedHere++
			if isKnown {
				fc.known++
				t.Logf("known bug (%s): %s | %s | %s: data %s: want %s, got %s %s", reason, c.file.rel, c.Description, tc.Description, compact(tc.Data), want, verdict, msg)
				continue
			}
			fc.failed++
			detail := ""
			if c.skipKey != "" {
				detail = fmt.Sprintf(" [listed in conformanceSkips (%s), but the generator accepted the schema: a keyword is silently dropped]", c.skip)
			}
			t.Errorf("MISMATCH %s run | %s | %s | %s%s\n  schema: %s\n  data:   %s\n  want %s, got %s %s", c.file.run, c.file.rel, c.Description, tc.Description, detail, compact(c.Schema), compact(tc.Data), want, verdict, msg)
		}
		if caseKnown {
			h.usedBug[caseKey] = true
			if failedHere == 0 {
				t.Errorf("knownBugs entry %q: the case generates, compiles and passes now: remove the entry", caseKey)
			}
		}
		if c.skipKey != "" && failedHere == 0 {
			t.Errorf("conformanceSkips entry %q (%s): the generator accepts the case and it passes every test: remove the entry", c.skipKey, c.skip)
		}
	}
	for k := range knownBugs {
		if !h.usedBug[k] {
			t.Errorf("knownBugs entry %q matches no case or test: remove it", k)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-40s %6s %9s %9s %7s %7s %7s %7s\n", "file", "tests", "cases run", "skipped", "passed", "failed", "known", "skipped")
	drafts := map[string]*fileCounts{}
	for _, f := range files {
		fc := counts[f.rel]
		if fc == nil {
			fc = &fileCounts{}
		}
		tests := fc.passed + fc.failed + fc.known + fc.skipped
		fmt.Fprintf(&b, "%-40s %6d %9d %9d %7d %7d %7d %7d\n", f.rel, tests, fc.casesRun, fc.casesSkipped, fc.passed, fc.failed, fc.known, fc.skipped)
		for _, sum := range []*fileCounts{&total, draftCounts(drafts, f.rel)} {
			sum.casesRun += fc.casesRun
			sum.casesSkipped += fc.casesSkipped
			sum.passed += fc.passed
			sum.failed += fc.failed
			sum.known += fc.known
			sum.skipped += fc.skipped
		}
	}
	fmt.Fprintf(&b, "%-40s %6d %9d %9d %7d %7d %7d %7d\n", "total", total.passed+total.failed+total.known+total.skipped, total.casesRun, total.casesSkipped, total.passed, total.failed, total.known, total.skipped)
	for _, name := range []string{"draft2020-12", "draft-07", "toolgate"} {
		if dc := drafts[name]; dc != nil {
			fmt.Fprintf(&b, "%s: %d of %d tests pass, %d fail, %d skipped\n", name, dc.passed, dc.passed+dc.failed+dc.known+dc.skipped, dc.failed+dc.known, dc.skipped)
		}
	}
	b.WriteString("skipped cases (each refused at generation):\n")
	for _, c := range h.cases {
		if c.genErr != nil && c.skipKey != "" {
			fmt.Fprintf(&b, "  %s | %s (%d tests): %s\n", c.file.rel, c.Description, len(c.Tests), c.skip)
		}
	}
	t.Log(b.String())
}

// draftCounts returns the sum of the draft that a suite file belongs to.
func draftCounts(drafts map[string]*fileCounts, rel string) *fileCounts {
	name := "draft2020-12"
	switch {
	case strings.HasPrefix(rel, "draft7/"):
		name = "draft-07"
	case strings.HasPrefix(rel, "testdata/"):
		name = "toolgate"
	}
	if drafts[name] == nil {
		drafts[name] = &fileCounts{}
	}
	return drafts[name]
}

func compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	s := b.String()
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
