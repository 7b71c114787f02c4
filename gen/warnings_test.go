package gen_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// TestWarnings: what upstream tool files get slightly wrong is generated
// with a warning (Options.Warn and gen.Warnings agree), never refused: a
// BFCL-style default its own schema rejects (no OrDefault accessor for
// it), a format toolgate does not know (not enforced, listed as
// unenforced in every provider's definition), a root with properties but
// no type (read as an object; the effective schema says so), an optional
// member no value satisfies (BFCL's enum of strings on a boolean: it can
// only be left out, and its field's doc says so).
func TestWarnings(t *testing.T) {
	tests := []struct {
		name   string
		params string
		// want are the warnings, as "kind pointer".
		want []string
		// code must be in the generated tool file, absent must not.
		code, absent string
		// effective must be in the effective schema.
		effective string
		// unenforced is what every definition lists as not enforced.
		unenforced []string
	}{
		{"BFCL dontcare default", `{"type": "object", "properties": {"fast": {"type": "boolean", "default": "dontcare"}, "n": {"type": "integer", "default": 3}}}`,
			[]string{"default-invalid /parameters/properties/fast/default"}, "NOrDefault", "FastOrDefault", `"default":"dontcare"`, nil},
		{"format json", `{"type": "object", "properties": {"doc": {"type": "string", "format": "json"}, "id": {"type": "string", "format": "uuid"}}}`,
			[]string{"format-unknown /parameters/properties/doc/format"}, `tgimpl.Format("uuid")`, `tgimpl.Format("json")`, `"format":"json"`, []string{`/properties/doc: format "json"`}},
		{"root without type", `{"properties": {"q": {"type": "string"}}, "required": ["q"]}`,
			[]string{"root-type-implied /parameters"}, "Q string", "", `{"type":"object","properties"`, nil},
		{"BFCL enum of another type", `{"type": "object", "properties": {"fast": {"type": "boolean", "enum": ["True", "False", "dontcare"]}, "mode": {"type": "integer", "const": "on"}, "ok": {"type": "boolean"}}}`,
			[]string{"never-valid /parameters/properties/fast", "never-valid /parameters/properties/mode"}, "No value is accepted", "", `"enum":["True","False","dontcare"]`, nil},
		{"clean", `{"type": "object", "properties": {"q": {"type": "string", "format": "email"}}}`,
			nil, `tgimpl.Format("email")`, "", `"format":"email"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.json")
			if err := os.WriteFile(path, []byte(`{"name": "find_it", "description": "d", "parameters": `+tt.params+`}`), 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := gen.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			files, err := gen.Generate(tools, gen.Options{Package: "p", Warn: func(w gen.Warning) {
				got = append(got, w.Kind+" "+w.Pointer)
				if w.File != path || w.Tool != "find_it" || w.Message == "" {
					t.Errorf("warning %+v does not name the file, the tool and the problem", w)
				}
			}})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
			again, err := gen.Warnings(tools[0], gen.Options{})
			if err != nil || len(again) != len(tt.want) {
				t.Errorf("gen.Warnings: %v, %v; want the %d Generate reported", again, err, len(tt.want))
			}
			var src string
			for _, f := range files {
				if f.Name == "find_it_tool.go" {
					src = string(f.Data)
				}
			}
			if !strings.Contains(src, tt.code) || (tt.absent != "" && strings.Contains(src, tt.absent)) {
				t.Errorf("the tool file should hold %q and not %q:\n%s", tt.code, tt.absent, src)
			}
			eff, _, err := gen.Schema(tools[0], gen.Options{})
			if err != nil || !strings.Contains(string(eff.Marshal()), tt.effective) {
				t.Errorf("effective schema %s (%v) lacks %s", eff.Marshal(), err, tt.effective)
			}
			for _, p := range provider.All {
				defs, _, err := gen.Export(tools, gen.Options{}, p)
				if err != nil || len(defs) != 1 {
					t.Fatalf("%s: %v", p, err)
				}
				var listed []string
				for _, l := range defs[0].Unenforced {
					listed = append(listed, l.String())
				}
				if !slices.Equal(listed, tt.unenforced) {
					t.Errorf("%s: unenforced %q, want %q", p, listed, tt.unenforced)
				}
				for _, l := range defs[0].Local {
					if l.Keyword == "format" && strings.Contains(l.Value, "json") {
						t.Errorf("%s lists the unknown format as enforced locally: %v", p, l)
					}
				}
			}
		})
	}
}
