package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/synth"
	"github.com/toolgate/toolgate/runtime/provider"
)

// withProcs runs f with GOMAXPROCS set to procs: the generator's worker
// count.
func withProcs(procs int, f func()) {
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	f()
}

// TestOutputSameOnAnyWorkerCount: the synthetic set and the demo tools,
// loaded afresh and generated on one worker and on several, give the same
// files, byte for byte, run after run.
func TestOutputSameOnAnyWorkerCount(t *testing.T) {
	dir := t.TempDir()
	if err := synth.Write(dir, synthSeed, 80); err != nil {
		t.Fatal(err)
	}
	schemas := filepath.Join(gobuild.RepoRoot(t), "schemas")
	var first []gen.File
	for run, procs := range []int{1, 4, 2, 4} {
		withProcs(procs, func() {
			tools, err := gen.Load(dir, schemas)
			if err != nil {
				t.Fatal(err)
			}
			files, err := gen.Generate(tools, gen.Options{Package: "tools", OutDir: "out"})
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = files
				return
			}
			if len(files) != len(first) {
				t.Fatalf("GOMAXPROCS %d: %d files, want %d", procs, len(files), len(first))
			}
			for i := range first {
				if files[i].Name != first[i].Name || !bytes.Equal(files[i].Data, first[i].Data) {
					t.Errorf("GOMAXPROCS %d: %s differs from the run on one worker", procs, files[i].Name)
				}
			}
		})
	}
	if len(first) < 80 {
		t.Fatalf("%d files for 85 tools", len(first))
	}
}

// writeTools writes synthetic tools and, after every seventh one, the
// next bad file of bad, so that the bad files are spread among work that
// the workers share out.
func writeTools(t *testing.T, n int, bad []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := synth.Write(dir, synthSeed, n); err != nil {
		t.Fatal(err)
	}
	for i, data := range bad {
		name := fmt.Sprintf("tool_%05d_bad.json", 7*i+3)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// errorsOn returns the error text of f's run on one worker and checks
// that runs on several workers, repeated, give the same text.
func errorsOn(t *testing.T, f func() error) string {
	t.Helper()
	var first string
	for run, procs := range []int{1, 4, 2, 4, 1} {
		withProcs(procs, func() {
			err := f()
			if err == nil {
				t.Fatalf("GOMAXPROCS %d: no error", procs)
			}
			if run == 0 {
				first = err.Error()
			} else if err.Error() != first {
				t.Errorf("GOMAXPROCS %d: errors\n%s\nwant (one worker)\n%s", procs, err, first)
			}
		})
	}
	return first
}

// synthName is the name of synthetic tool i.
func synthName(t *testing.T, i int) string {
	t.Helper()
	var tool struct{ Name string }
	if err := json.Unmarshal(synth.Tool(synthSeed, i), &tool); err != nil || tool.Name == "" {
		t.Fatalf("synthetic tool %d has no name (%v)", i, err)
	}
	return tool.Name
}

// TestLoadErrorsSameOnAnyWorkerCount: with several unreadable tool files
// and duplicate names among good ones, Load reports every problem, in file
// order, whatever the number of workers.
func TestLoadErrorsSameOnAnyWorkerCount(t *testing.T) {
	bad := []string{
		`{"name": "broken_a", "parameters": {`,
		`{"name": "` + synthName(t, 5) + `", "parameters": {"type": "object"}}`,
		`[1, 2]`,
		`{"name": "broken_b", "parameters": {"type": "object"}, "surprise": 1}`,
		`{"name": "broken c", "parameters": {"type": "object"}}`,
	}
	dir := writeTools(t, 40, bad)
	got := errorsOn(t, func() error { _, err := gen.Load(dir); return err })
	lines := strings.Split(got, "\n")
	want := []string{"tool_00003_bad.json:1:37: invalid JSON", "tool_00010_bad.json:1:1: tool name", "tool_00017_bad.json:1:2: a tool is a JSON object, not number (at /0)", "tool_00017_bad.json:1:5: a tool is a JSON object, not number (at /1)", "tool_00024_bad.json:1:56: unknown member", "tool_00031_bad.json:1:2: tool name"}
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("error %d is %q, want one at %s", i, lines[i], w)
		}
	}
}

// TestGenerateErrorsSameOnAnyWorkerCount: with several invalid tool
// definitions among good ones, Generate reports every one, in tool order,
// whatever the number of workers.
func TestGenerateErrorsSameOnAnyWorkerCount(t *testing.T) {
	bad := []string{
		`{"name": "bad_min_length", "parameters": {"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}}}`,
		`{"name": "bad_root", "parameters": {"type": "string"}}`,
		`{"name": "bad_dialect", "parameters": {"$schema": "https://example.com/schema", "type": "object"}}`,
		`{"name": "bad_ref", "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}}`,
		// Tool 5's name with dashes: the same Go name and file.
		`{"name": "` + strings.ReplaceAll(synthName(t, 5), "_", "-") + `", "parameters": {"type": "object"}}`,
	}
	dir := writeTools(t, 40, bad)
	got := errorsOn(t, func() error {
		tools, err := gen.Load(dir)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		_, err = gen.Generate(tools, gen.Options{Package: "tools"})
		return err
	})
	lines := strings.Split(got, "\n")
	want := []string{"tool_00003_bad.json:1:100: minLength: ", "tool_00010_bad.json:1:22: type: ", "tool_00017_bad.json:1:40: $schema: ", "tool_00024_bad.json:1:21: invalid schema", "tool_00031_bad.json:1:1: tools"}
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("error %d is %q, want one at %s", i, lines[i], w)
		}
	}
}

// TestExportAfterGenerate: Export and AssessEach answer the same after
// Generate has checked and projected the tools (and reused that work) as
// on tools loaded afresh, for both object semantics; a tool whose
// definition changed after Generate is exported as it now is.
func TestExportAfterGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := synth.Write(dir, synthSeed, 20); err != nil {
		t.Fatal(err)
	}
	schemas := filepath.Join(gobuild.RepoRoot(t), "schemas")
	load := func() []*gen.Tool {
		tools, err := gen.Load(dir, schemas)
		if err != nil {
			t.Fatal(err)
		}
		return tools
	}
	for _, open := range []bool{false, true} {
		fresh, warm := load(), load()
		if _, err := gen.Generate(warm, gen.Options{Package: "tools", OpenObjects: open}); err != nil {
			t.Fatal(err)
		}
		opts := gen.Options{OpenObjects: open, Providers: []provider.Provider{provider.Anthropic, provider.MCP}}
		for i := range fresh {
			want, wantErr := gen.AssessEach(fresh[i], opts, provider.All)
			got, gotErr := gen.AssessEach(warm[i], opts, provider.All)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("open %v, %s: AssessEach after Generate differs from a fresh one", open, fresh[i].Name)
			}
		}
		for _, p := range provider.All {
			want, wantLeft, wantErr := gen.Export(fresh, gen.Options{OpenObjects: open}, p)
			got, gotLeft, gotErr := gen.Export(warm, gen.Options{OpenObjects: open}, p)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotLeft, wantLeft) {
				t.Errorf("open %v, %s: Export after Generate differs from a fresh one", open, p)
			}
		}
		changed := warm[0]
		changed.Description = "Changed after generation: use it for the test."
		defs, _, err := gen.Export([]*gen.Tool{changed}, gen.Options{OpenObjects: open}, provider.MCP)
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) != 1 || !strings.Contains(defs[0].JSON, "Changed after generation") {
			t.Errorf("open %v: the changed description is not exported: %+v", open, defs)
		}
	}
}
