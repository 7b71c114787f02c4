package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// composedTools are composed schemas in toolgate's default, closed mode,
// with instances each. TestComposedClosure checks every instance with the
// generated decoder and with the oracle on the effective schema (whose
// composition sites say unevaluatedProperties: false), and asserts both
// the agreement and the verdict written here.
var composedTools = []struct {
	name, params string
	valid        []string
	invalid      []string
}{
	{"merged", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}}}]}`,
		[]string{`{"a":"x"}`, `{"a":"x","b":1}`},
		[]string{`{"a":"x","c":1}`, `{"b":1}`, `{"a":1}`, `{"a":"x","b":"1"}`}},
	{"either", `{"type":"object","properties":{"v":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}]}},"required":["v"]}`,
		[]string{`{"v":{"a":"x"}}`, `{"v":{"a":"x","b":"y"}}`, `{"v":{"b":"y"}}`},
		[]string{`{"v":{"a":"x","c":"z"}}`, `{"v":{}}`, `{"v":{"a":1}}`, `{"v":"a"}`, `{"v":{"a":"x"},"w":1}`}},
	{"pet", `{"type":"object","properties":{"pet":{"oneOf":[
			{"type":"object","properties":{"kind":{"const":"cat"},"lives":{"type":"integer","minimum":0}},"required":["kind"]},
			{"type":"object","properties":{"kind":{"const":"dog"},"bark":{"type":"boolean"}},"required":["kind"]}]}},"required":["pet"]}`,
		[]string{`{"pet":{"kind":"cat","lives":9}}`, `{"pet":{"kind":"dog"}}`},
		[]string{`{"pet":{"kind":"cat","bark":true}}`, `{"pet":{"kind":"cow"}}`, `{"pet":{"kind":"cat","lives":-1}}`, `{"pet":{"kind":"dog","extra":1}}`}},
	// A tagged union whose branches close themselves (what OpenAI's strict
	// mode needs): still a typed sum, same verdicts.
	{"closedPet", `{"type":"object","properties":{"pet":{"anyOf":[
			{"type":"object","properties":{"kind":{"const":"cat"},"lives":{"type":"integer","minimum":0}},"required":["kind","lives"],"additionalProperties":false},
			{"type":"object","properties":{"kind":{"const":"dog"},"bark":{"type":"boolean"}},"required":["kind","bark"],"additionalProperties":false}]}},"required":["pet"]}`,
		[]string{`{"pet":{"kind":"cat","lives":9}}`, `{"pet":{"bark":false,"kind":"dog"}}`},
		[]string{`{"pet":{"kind":"cat","bark":true}}`, `{"pet":{"kind":"cat","lives":9,"bark":true}}`, `{"pet":{"kind":"cow"}}`, `{"pet":{"lives":9}}`,
			`{"pet":{"kind":"cat","lives":-1}}`, `{"pet":{"kind":"dog","bark":true,"extra":1}}`, `{"pet":null}`}},
	{"inherit", `{"type":"object","properties":{"item":{"allOf":[{"$ref":"#/$defs/base"},{"properties":{"size":{"type":"integer"}}}]},"plain":{"$ref":"#/$defs/base"}},
			"$defs":{"base":{"type":"object","properties":{"id":{"type":"string"},"tags":{"type":"object","properties":{"t":{"type":"string"}}}},"required":["id"]}}}`,
		[]string{`{"item":{"id":"1","size":2}}`, `{"plain":{"id":"1"}}`, `{"item":{"id":"1","tags":{"t":"x"}}}`},
		[]string{`{"plain":{"id":"1","size":2}}`, `{"item":{"id":"1","other":2}}`, `{"item":{"id":"1","tags":{"u":"x"}}}`, `{"item":{"size":2}}`}},
	{"conditional", `{"type":"object","properties":{"country":{"type":"string"},"zip":{"type":"string"}},
			"if":{"properties":{"country":{"const":"US"}},"required":["country"]},"then":{"properties":{"zip":{"pattern":"^[0-9]{5}$"}}},
			"dependentRequired":{"zip":["country"]},"minProperties":1,"not":{"required":["forbidden"]}}`,
		[]string{`{"country":"US","zip":"12345"}`, `{"country":"FR","zip":"75001 X"}`, `{"country":"US"}`},
		[]string{`{"country":"US","zip":"1234"}`, `{"zip":"12345"}`, `{}`, `{"country":"FR","forbidden":1}`, `{"country":"FR","other":1}`}},
	{"patterned", `{"type":"object","properties":{"labels":{"type":"object","patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"maxLength":8}},
			"list":{"type":"array","items":{"type":"integer"},"contains":{"minimum":10},"maxContains":2}}}`,
		[]string{`{"labels":{"x-a":"b"}}`, `{"list":[1,10]}`, `{"list":[10,11,1]}`},
		[]string{`{"labels":{"x-a":1}}`, `{"labels":{"y":"b"}}`, `{"labels":{"x-toolong":"b"}}`, `{"list":[1,2]}`, `{"list":[10,11,12]}`}},
	// patternProperties and propertyNames inside a branch: a refused
	// member fails the branch's trial.
	{"patternedBranch", `{"type":"object","properties":{"v":{"anyOf":[{"type":"object","patternProperties":{"^x-":{"type":"integer"}},"propertyNames":{"maxLength":4}},{"type":"string"}]}}}`,
		[]string{`{"v":{"x-a":1}}`, `{"v":"s"}`},
		[]string{`{"v":{"x-a":"s"}}`, `{"v":{"x-abc":1}}`, `{"v":{"x-a":1,"y":2}}`}},
	{"mergedMember", `{"type":"object","properties":{"m":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"properties":{"y":{"type":"string"}},"required":["y"]}],"description":"merged"}}}`,
		[]string{`{"m":{"y":"a"}}`, `{"m":{"x":1,"y":"a"}}`, `{}`},
		[]string{`{"m":{"x":1}}`, `{"m":{"y":"a","z":1}}`, `{"m":{"y":1}}`, `{"m":"y"}`, `{"m":{"x":"1","y":"a"}}`}},
	{"either2", `{"type":"object","properties":{"to":{"oneOf":[{"type":"string","format":"email"},{"type":"object","properties":{"user":{"type":"integer","minimum":1}},"required":["user"]},{"type":"array","items":{"type":"string"},"minItems":1}]}},"required":["to"]}`,
		[]string{`{"to":"a@b.example"}`, `{"to":{"user":3}}`, `{"to":["x"]}`},
		[]string{`{"to":"nobody"}`, `{"to":{"user":0}}`, `{"to":{"user":3,"x":1}}`, `{"to":[]}`, `{"to":3}`, `{"to":null}`}},
	{"optionalModel", `{"type":"object","properties":{"owner":{"anyOf":[{"$ref":"#/$defs/Owner"},{"type":"null"}],"default":null},
			"main":{"$ref":"#/$defs/Owner"}},"$defs":{"Owner":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`,
		[]string{`{"owner":null}`, `{"owner":{"name":"a"}}`, `{}`, `{"main":{"name":"b"}}`},
		[]string{`{"owner":{"name":"a","x":1}}`, `{"owner":{}}`, `{"owner":"a"}`, `{"main":{"name":"b","y":2}}`}},
	{"optional", `{"type":"object","properties":{"note":{"anyOf":[{"type":"string","maxLength":3},{"type":"null"}],"default":null},
			"color":{"oneOf":[{"$ref":"#/$defs/color"},{"type":"null"}]},"list":{"anyOf":[{"type":"null"},{"type":"array","items":{"type":"integer"}}]}},
			"$defs":{"color":{"enum":["red","blue"]}}}`,
		[]string{`{"note":null}`, `{"note":"abc"}`, `{"color":"red"}`, `{"color":null}`, `{}`, `{"list":[1]}`, `{"list":null}`},
		[]string{`{"note":"abcd"}`, `{"note":1}`, `{"color":"green"}`, `{"color":1}`, `{"list":["a"]}`, `{"list":{}}`}},
}

// TestComposedTriesOnce: where a composition's closure (its
// unevaluatedProperties) needs to know which anyOf or oneOf branches hold,
// the check tries each branch once and reuses the outcome; TestComposedClosure
// checks the verdicts.
func TestComposedTriesOnce(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range composedTools {
		if tc.name != "either" {
			continue
		}
		path := filepath.Join(dir, tc.name+".json")
		tool := fmt.Appendf(nil, `{"name":%q,"description":"","parameters":%s,"x-toolgate":{"providers":["mcp"]}}`, tc.name, tc.params)
		if err := os.WriteFile(path, tool, 0o644); err != nil {
			t.Fatal(err)
		}
		tools, err := gen.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		files, err := gen.Generate(tools, gen.Options{Package: "tools"})
		if err != nil {
			t.Fatal(err)
		}
		var src []byte
		for _, f := range files {
			src = append(src, f.Data...)
		}
		// The branches are named by their one required member (branchNames).
		calls := regexp.MustCompile(`validEitherV(A|B)\(d, raw\)`).FindAll(src, -1)
		tries := map[string]int{}
		for _, c := range calls {
			tries[string(c)]++
		}
		if len(tries) < 2 {
			t.Fatalf("%s: no trials of two branches in\n%s", tc.name, src)
		}
		for c, n := range tries {
			if n != 1 {
				t.Errorf("%s: %s is called %d times, want once", tc.name, c, n)
			}
		}
	}
}

func TestComposedClosure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "composed")
	schemas := map[string][]byte{}
	for _, tc := range composedTools {
		schemas[tc.name+".json"] = fmt.Appendf(nil, `{"name":%q,"description":"","parameters":%s,"x-toolgate":{"providers":["mcp"]}}`, tc.name, tc.params)
	}
	gobuild.WriteFiles(t, mod, "schemas", schemas)
	tools, err := gen.Load(filepath.Join(mod, "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(tools, gen.Options{Package: "tools"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	gobuild.WriteFiles(t, mod, "tools", out)

	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"fmt\"\n\n\t\"composed/tools\"\n)\n\nfunc main() {\n")
	type check struct {
		tool, data string
		want       bool
	}
	var checks []check
	for _, tc := range composedTools {
		for _, v := range tc.valid {
			checks = append(checks, check{tc.name, v, true})
		}
		for _, v := range tc.invalid {
			checks = append(checks, check{tc.name, v, false})
		}
	}
	byName := map[string]*gen.Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	for _, c := range checks {
		goName := strings.ToUpper(c.tool[:1]) + c.tool[1:]
		fmt.Fprintf(&main, "\t{\n\t\t_, err := tools.Decode%sArgs([]byte(%q))\n\t\tfmt.Println(err == nil)\n\t}\n", goName, c.data)
	}
	main.WriteString("}\n")
	gobuild.WriteFiles(t, mod, "cmd", map[string][]byte{"main.go": []byte(main.String())})
	got, err := gobuild.Go(t, mod, "run", "./cmd")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	verdicts := strings.Split(got, "\n")
	if len(verdicts) != len(checks) {
		t.Fatalf("got %d verdicts for %d checks:\n%s", len(verdicts), len(checks), got)
	}
	for i, c := range checks {
		effective, _, err := gen.Schema(byName[c.tool], gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		oracle := oracleValid(t, effective.Marshal(), c.data)
		decoder := verdicts[i] == "true"
		if decoder != oracle || decoder != c.want {
			t.Errorf("%s %s: decoder %v, oracle %v, want %v (effective schema %s)", c.tool, c.data, decoder, oracle, c.want, effective.Marshal())
		}
	}
}

// oracleValid validates data with santhosh-tekuri/jsonschema against schema.
func oracleValid(t *testing.T, schema []byte, data string) bool {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("t.json", bytes.NewReader(schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("t.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return s.Validate(v) == nil
}

// TestComposeBenchFresh fails when the generated code of
// internal/composebench is not what the generator writes today (run go
// generate ./gen/internal/composebench).
func TestComposeBenchFresh(t *testing.T) {
	dir := filepath.Join("internal", "composebench")
	tools, err := gen.Load(filepath.Join(dir, "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(tools, gen.Options{Package: "composebench", OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		have, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(have, f.Data) {
			t.Errorf("%s is stale: run go generate ./gen/internal/composebench", filepath.Join(dir, f.Name))
		}
	}
}

// TestBranchNames: the branches of an anyOf or oneOf are named by their
// tag, else by their title, single required member, format or type, and
// by their index when nothing tells them apart or two would share a name,
// with a note for the type's doc in that case.
func TestBranchNames(t *testing.T) {
	shared := "It is named by its index: String would name more than one branch of the anyOf."
	objects := "It is named by its index: Object would name more than one branch of the oneOf."
	tests := []struct {
		name, kw, items string
		want, notes     []string // notes nil: none
	}{
		{"tag", "anyOf", `[{"type":"object","properties":{"kind":{"const":"email"}},"required":["kind"]},{"type":"object","properties":{"kind":{"enum":["phone"]}},"required":["kind"]}]`, []string{"Email", "Phone"}, nil},
		{"tag not required", "oneOf", `[{"type":"object","properties":{"kind":{"const":"a"}}},{"type":"object","properties":{"kind":{"const":"b"}}}]`, []string{"OneOf0", "OneOf1"}, []string{objects, objects}},
		{"title", "oneOf", `[{"title":"by email"},{"title":"By phone"}]`, []string{"ByEmail", "ByPhone"}, nil},
		{"required member", "anyOf", `[{"required":["order_id"]},{"required":["sku"]}]`, []string{"OrderID", "SKU"}, nil},
		{"format and type", "anyOf", `[{"type":"string","format":"email"},{"type":"integer"}]`, []string{"Email", "Integer"}, nil},
		{"shared name", "anyOf", `[{"type":"string"},{"type":"string"},{"type":"integer"}]`, []string{"AnyOf0", "AnyOf1", "Integer"}, []string{shared, shared, ""}},
		{"index-like title", "oneOf", `[{"title":"one of 1"},{"type":"null"}]`, []string{"OneOf0", "Null"}, nil},
		{"nothing", "oneOf", `[{},true]`, []string{"OneOf0", "OneOf1"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, notes := gen.BranchNames(tc.kw, tc.items)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("BranchNames(%s, %s) = %v, want %v", tc.kw, tc.items, got, tc.want)
			}
			if tc.notes == nil {
				tc.notes = make([]string, len(tc.want))
			}
			if fmt.Sprintf("%q", notes) != fmt.Sprintf("%q", tc.notes) {
				t.Errorf("BranchNames(%s, %s) notes %q, want %q", tc.kw, tc.items, notes, tc.notes)
			}
		})
	}
}
