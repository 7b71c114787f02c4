package gen_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/synth"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// checkCompilesClean fails t when gen.CompilesClean proves s valid for a
// dialect whose full compile refuses it; it returns how many dialects it
// proved s valid for.
func checkCompilesClean(t testing.TB, name string, s *jsonval.Value) int {
	t.Helper()
	clean := 0
	for _, draft7 := range []bool{false, true} {
		if !gen.CompilesClean(s, draft7) {
			continue
		}
		clean++
		if err := gen.MetaCompile(s, draft7); err != nil {
			t.Errorf("%s (draft7=%v): the fast check says valid, santhosh-tekuri/jsonschema says %v\nschema: %s", name, draft7, err, s.Marshal())
		}
	}
	return clean
}

// subschemas returns every object and boolean in v, v first.
func subschemas(v *jsonval.Value) []*jsonval.Value {
	out := []*jsonval.Value{v}
	for _, m := range v.Members {
		out = append(out, subschemas(m.Value)...)
	}
	for _, it := range v.Items {
		out = append(out, subschemas(it)...)
	}
	kept := out[:0]
	for _, s := range out {
		if s.Kind == jsonval.Object || s.Kind == jsonval.Bool {
			kept = append(kept, s)
		}
	}
	return kept
}

// jstsSchemas returns the schema of every case of the JSON Schema Test
// Suite files under dir.
func jstsSchemas(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, draft := range []string{"draft2020-12", "draft7"} {
		err := filepath.WalkDir(filepath.Join(dir, draft), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			f, err := readSuiteFile(path, rel, "")
			for _, c := range f.cases {
				out[rel+": "+c.Description] = c.Schema
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// corpusDocuments returns every JSON document (.json, .snap) under dir.
func corpusDocuments(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".snap") {
			return err
		}
		data, err := os.ReadFile(path)
		out[path] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ownSchemas returns the demo tool files and 1,000 synthetic tools.
func ownSchemas(t testing.TB) map[string][]byte {
	t.Helper()
	out := corpusDocuments(t, filepath.Join(gobuild.RepoRoot(t), "schemas"))
	for i := range 1000 {
		out[fmt.Sprintf("synthetic tool %d", i)] = synth.Tool(synthSeed, i)
	}
	return out
}

// checkDocuments runs checkCompilesClean on every subschema of each
// document, and returns how many were proved valid.
func checkDocuments(t *testing.T, docs map[string][]byte) int {
	t.Helper()
	clean := 0
	for name, data := range docs {
		v, err := jsonval.Parse(data)
		if err != nil {
			continue // not a document toolgate would read
		}
		for _, s := range subschemas(v) {
			clean += checkCompilesClean(t, name, s)
		}
	}
	return clean
}

// TestCompilesCleanNeverAcceptsWhatSanthoshRejects checks the fast path of
// the meta-schema check against the full compile on the JSON Schema Test
// Suite, the MCP corpus, the demo tools and the synthetic tools: taking
// every object and boolean of each as a root schema, in both dialects, the
// fast check must never prove valid a schema the full compile refuses.
func TestCompilesCleanNeverAcceptsWhatSanthoshRejects(t *testing.T) {
	for _, set := range []struct {
		name string
		docs func(t *testing.T) map[string][]byte
	}{
		{"own", func(t *testing.T) map[string][]byte { return ownSchemas(t) }},
		{"jsts", func(t *testing.T) map[string][]byte {
			return jstsSchemas(t, sharedDir(t, "JSON Schema Test Suite", "corpora/jsts"))
		}},
		{"mcp", func(t *testing.T) map[string][]byte {
			return corpusDocuments(t, sharedDir(t, "MCP corpus", "corpora/mcp"))
		}},
	} {
		t.Run(set.name, func(t *testing.T) {
			docs := set.docs(t)
			n := checkDocuments(t, docs)
			t.Logf("%d documents, %d schemas proved valid", len(docs), n)
			if n == 0 {
				t.Error("the fast check proved no schema valid")
			}
		})
	}
}

// TestCompilesCleanCoversOwnTools checks that the fast path serves the
// parameters of every demo and synthetic tool, in the dialect each names.
func TestCompilesCleanCoversOwnTools(t *testing.T) {
	for name, data := range ownSchemas(t) {
		v, err := jsonval.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, key := range []string{"parameters", "inputSchema", "input_schema"} {
			p := v.Get(key)
			if p == nil {
				continue
			}
			draft7 := p.Get("$schema") != nil && strings.Contains(p.Get("$schema").Str, "draft-07")
			if !gen.CompilesClean(p, draft7) {
				t.Errorf("%s: the fast check cannot prove %s valid: %s", name, key, p.Marshal())
			}
		}
	}
}

// invalidSchemas are schemas santhosh-tekuri/jsonschema refuses, one per
// rule of the fast check, in the dialect named (draft7 or not).
var invalidSchemas = []struct {
	draft7 bool
	schema string
}{
	{false, `{"pattern": "("}`},
	{false, `{"pattern": 1}`},
	{false, `{"patternProperties": {"(": {}}}`},
	{false, `{"allOf": []}`},
	{false, `{"anyOf": {}}`},
	{false, `{"prefixItems": []}`},
	{false, `{"items": [{}]}`},
	{false, `{"type": "strin"}`},
	{false, `{"type": []}`},
	{false, `{"type": ["string", "string"]}`},
	{false, `{"minLength": -1}`},
	{false, `{"maxItems": 1.5}`},
	{false, `{"minProperties": "1"}`},
	{false, `{"multipleOf": 0}`},
	{false, `{"minimum": "0"}`},
	{false, `{"required": ["a", "a"]}`},
	{false, `{"required": [1]}`},
	{false, `{"dependentRequired": {"a": ["b", "b"]}}`},
	{false, `{"properties": {"a": 1}}`},
	{false, `{"$defs": {"a": []}}`},
	{false, `{"not": "x"}`},
	{false, `{"title": 1}`},
	{false, `{"uniqueItems": "yes"}`},
	{false, `{"enum": {}}`},
	{false, `{"$ref": "#/$defs/missing"}`},
	{false, `{"$ref": "#"}`},
	{false, `{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`},
	{false, `{"properties": {"p": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}`},
	{true, `{"items": []}`},
	{true, `{"enum": []}`},
	{true, `{"enum": ["a", "a"]}`},
	{true, `{"dependencies": {"a": ["b", "b"]}}`},
	{true, `{"dependencies": {"a": 1}}`},
	{true, `{"definitions": {"a": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"}`},
}

// TestCompilesCleanRefusesInvalid checks that the fast check proves none of
// invalidSchemas valid, each being refused by the full compile.
func TestCompilesCleanRefusesInvalid(t *testing.T) {
	for _, c := range invalidSchemas {
		v, err := jsonval.Parse([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if gen.MetaCompile(v, c.draft7) == nil {
			t.Errorf("%s (draft7=%v): santhosh-tekuri/jsonschema accepts it", c.schema, c.draft7)
		}
		if gen.CompilesClean(v, c.draft7) {
			t.Errorf("%s (draft7=%v): the fast check says valid", c.schema, c.draft7)
		}
	}
}

// FuzzCompilesClean checks the fast path against the full compile on
// arbitrary documents, seeded with the demo tools, synthetic tools and
// (when present) the JSON Schema Test Suite.
func FuzzCompilesClean(f *testing.F) {
	for _, data := range ownSchemas(f) {
		f.Add(data)
	}
	for _, c := range invalidSchemas {
		f.Add([]byte(c.schema))
	}
	if dir := sharedPath(f, "corpora/jsts"); dirExists(dir) {
		for _, data := range jstsSchemas(f, dir) {
			f.Add([]byte(data))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonval.Parse(data)
		if err != nil {
			return
		}
		for _, s := range subschemas(v) {
			checkCompilesClean(t, "fuzz input", s)
		}
	})
}

func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}
