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

// TestSetReadersRefuse: a Set answers only for the tools it analysed (any
// other tool, even one of the same name, is an error that names it), and a
// Set analysed with ValueRoots, never projected, answers no reader but
// Generate.
func TestSetReadersRefuse(t *testing.T) {
	tools := demoTools(t)
	for _, tt := range []struct {
		name string
		set  *gen.Set
		tool *gen.Tool
		want string
		// export: Export, which reads the Set's own tools, refuses too.
		export bool
	}{
		{"foreign tool", gen.Analyze(tools[:1], gen.Options{}), demoTools(t)[0], "not in the analysed set", false},
		{"value roots", gen.Analyze(tools[:1], gen.Options{ValueRoots: true}), tools[0], "ValueRoots", true},
	} {
		for reader, call := range map[string]func() error{
			"AssessEach": func() error { _, err := tt.set.AssessEach(tt.tool, provider.All); return err },
			"Warnings":   func() error { _, err := tt.set.Warnings(tt.tool); return err },
			"Schema":     func() error { _, _, err := tt.set.Schema(tt.tool); return err },
			"Export":     func() error { _, _, err := tt.set.Export(provider.MCP); return err },
		} {
			if reader == "Export" && !tt.export {
				continue
			}
			err := call()
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.tool.Name) {
				t.Errorf("%s: %s: %v, want an error naming %s that says %q", tt.name, reader, err, tt.tool.Name, tt.want)
			}
		}
	}
}
