package gen_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/synth"
	"github.com/toolgate/toolgate/runtime/provider"
)

// TestSetReadersAfterGenerate: a Set that generated answers every other
// reader (Err, Export, AssessEach, Warnings, Schema) as a Set of the same
// tools that never generated does, and generates once: the second
// Generate is an error, with no files.
func TestSetReadersAfterGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := synth.Write(dir, synthSeed, 10); err != nil {
		t.Fatal(err)
	}
	tools, err := gen.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tools = append(tools, demoTools(t)...)
	for _, tt := range []struct {
		name string
		opts gen.Options
	}{
		{"default", gen.Options{Package: "tools"}},
		{"open objects, chosen providers", gen.Options{Package: "tools", OpenObjects: true, Providers: []provider.Provider{provider.Anthropic, provider.Gemini}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			used := gen.Analyze(tools, tt.opts)
			if _, err := used.Generate(); err != nil {
				t.Fatal(err)
			}
			again, err := used.Generate()
			if err == nil || again != nil || !strings.Contains(err.Error(), "generated already") {
				t.Errorf("second Generate: %d files, error %v; want none and an error", len(again), err)
			}
			fresh := gen.Analyze(tools, tt.opts)
			if got, want := used.Err(), fresh.Err(); !reflect.DeepEqual(got, want) {
				t.Errorf("Err: %v, a fresh Set's %v", got, want)
			}
			for _, p := range provider.All {
				defs, leftOut, err := used.Export(p)
				wantDefs, wantLeftOut, wantErr := fresh.Export(p)
				if err != nil || wantErr != nil {
					t.Fatalf("Export(%s): %v, a fresh Set's %v", p, err, wantErr)
				}
				if !reflect.DeepEqual(defs, wantDefs) || !reflect.DeepEqual(leftOut, wantLeftOut) {
					t.Errorf("Export(%s) differs from a fresh Set's", p)
				}
			}
			for _, tool := range tools {
				each, err := used.AssessEach(tool, provider.All)
				wantEach, wantErr := fresh.AssessEach(tool, provider.All)
				if err != nil || wantErr != nil || !reflect.DeepEqual(each, wantEach) {
					t.Errorf("%s: AssessEach %v (%v), a fresh Set's %v (%v)", tool.Name, each, err, wantEach, wantErr)
				}
				warnings, err := used.Warnings(tool)
				wantWarnings, wantErr := fresh.Warnings(tool)
				if err != nil || wantErr != nil || !reflect.DeepEqual(warnings, wantWarnings) {
					t.Errorf("%s: Warnings %v (%v), a fresh Set's %v (%v)", tool.Name, warnings, err, wantWarnings, wantErr)
				}
				schema, version, err := used.Schema(tool)
				wantSchema, wantVersion, wantErr := fresh.Schema(tool)
				if err != nil || wantErr != nil || version != wantVersion || string(schema.Marshal()) != string(wantSchema.Marshal()) {
					t.Errorf("%s: Schema %s (%v), a fresh Set's %s (%v)", tool.Name, version, err, wantVersion, wantErr)
				}
			}
		})
	}
}

// TestSetRefusesForeignTool: a Set answers only for the tools it analysed;
// any other tool, even one of the same name, is an error that names it.
func TestSetRefusesForeignTool(t *testing.T) {
	tools := demoTools(t)
	set := gen.Analyze(tools[:1], gen.Options{})
	foreign := demoTools(t)[0]
	for _, tt := range []struct {
		reader string
		call   func() error
	}{
		{"AssessEach", func() error { _, err := set.AssessEach(foreign, provider.All); return err }},
		{"Warnings", func() error { _, err := set.Warnings(foreign); return err }},
		{"Schema", func() error { _, _, err := set.Schema(foreign); return err }},
	} {
		err := tt.call()
		if err == nil || !strings.Contains(err.Error(), "not in the analysed set") || !strings.Contains(err.Error(), foreign.Name) {
			t.Errorf("%s of a tool the Set did not analyse: %v", tt.reader, err)
		}
	}
}
