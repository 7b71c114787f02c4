package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/toolgate/toolgate/runtime/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden projects the tool in each testdata/*.txtar archive (files
// name, description, schema: an effective schema, and optionally mcp) for
// every provider and compares with the archive's <provider>.json (the
// definition, indented, followed by its local rules) or <provider>.refused.
func TestGolden(t *testing.T) {
	archives, _ := filepath.Glob("testdata/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no golden archives")
	}
	for _, path := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]string{}
			var inputs []txtar.File
			for _, f := range ar.Files {
				switch f.Name {
				case "name", "description", "schema", "mcp":
					in[f.Name] = strings.TrimSuffix(string(f.Data), "\n")
					inputs = append(inputs, f)
				}
			}
			tool := provider.Tool{Name: in["name"], Description: in["description"], Schema: in["schema"], MCP: in["mcp"]}
			var got []txtar.File
			schema, err := provider.ParseSchema(tool)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range provider.All {
				def, err := provider.Project(p, tool)
				// Assess answers the same, without the JSON.
				assessed, aerr := provider.Assess(p, tool, schema)
				want := def
				want.JSON = ""
				if fmt.Sprint(aerr) != fmt.Sprint(err) || !reflect.DeepEqual(assessed, want) {
					t.Errorf("%s: Assess %+v, %v; Project %+v, %v", p, assessed, aerr, def, err)
				}
				var refused *provider.RefusedError
				switch {
				case errors.As(err, &refused):
					got = append(got, txtar.File{Name: string(p) + ".refused", Data: []byte(err.Error() + "\n")})
					continue
				case err != nil:
					t.Fatalf("%s: %v", p, err)
				}
				if !json.Valid([]byte(def.JSON)) {
					t.Fatalf("%s: invalid JSON %s", p, def.JSON)
				}
				var buf bytes.Buffer
				if err := json.Indent(&buf, []byte(def.JSON), "", "  "); err != nil {
					t.Fatal(err)
				}
				buf.WriteString("\n")
				if def.NullAsAbsent {
					buf.WriteString("null-as-absent\n")
				}
				for _, l := range def.Local {
					buf.WriteString("local " + l.String() + "\n")
				}
				got = append(got, txtar.File{Name: string(p) + ".json", Data: buf.Bytes()})
			}
			if *update {
				ar.Files = append(inputs, got...)
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string]string{}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".json") || strings.HasSuffix(f.Name, ".refused") {
					want[f.Name] = string(f.Data)
				}
			}
			for _, f := range got {
				if w, ok := want[f.Name]; !ok {
					t.Errorf("unexpected %s:\n%s", f.Name, f.Data)
				} else if w != string(f.Data) {
					t.Errorf("%s differs (go test ./runtime/provider -update after checking):\nwant:\n%s\ngot:\n%s", f.Name, w, f.Data)
				}
				delete(want, f.Name)
			}
			for name := range want {
				t.Errorf("missing %s", name)
			}
		})
	}
}

// TestLocalRulesNamed: every constraint a provider's schema cannot carry is
// listed as local and named in the description the model reads.
func TestLocalRulesNamed(t *testing.T) {
	tool := provider.Tool{Name: "t", Schema: `{"type":"object","properties":{"a":{"type":"string","minLength":2,"format":"uri"},"n":{"type":"integer","multipleOf":3}},"required":["a","n"],"additionalProperties":false}`}
	tests := []struct {
		p    provider.Provider
		want []string
	}{
		{provider.OpenAIChat, []string{"/properties/a: minLength 2", `/properties/a: format "uri"`}},
		{provider.Anthropic, []string{"/properties/a: minLength 2", "/properties/n: multipleOf 3"}},
		{provider.Gemini, []string{"/properties/a: minLength 2", `/properties/a: format "uri"`, "/properties/n: multipleOf 3"}},
		{provider.GeminiLegacy, []string{`/properties/a: format "uri"`, "/properties/n: multipleOf 3", "(root): additionalProperties false"}},
		{provider.MCP, nil},
	}
	for _, tt := range tests {
		def, err := provider.Project(tt.p, tool)
		if err != nil {
			t.Fatalf("%s: %v", tt.p, err)
		}
		var got []string
		for _, l := range def.Local {
			got = append(got, l.String())
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: local rules %q, want %q", tt.p, got, tt.want)
		}
		for _, l := range def.Local {
			if !strings.Contains(def.JSON, "not expressible in this schema") || !strings.Contains(def.JSON, l.Keyword) {
				t.Errorf("%s: the description does not mention %s", tt.p, l)
			}
		}
	}
}
