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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/gen"
)

type harness struct {
	t        *testing.T
	work     string
	modRoot  string
	cases    []*suiteCase
	usedSkip map[string]bool
	usedBug  map[string]bool
	runTime  time.Duration
	// remotes serves the suite's remotes/ folder under
	// http://localhost:1234/, read from disk (gen.LoadOptions.Bases).
	remotes gen.LoadOptions
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
			tools, err := h.remotes.LoadAll(c.path)
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
			ts, err := h.remotes.LoadAll(c.path)
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
