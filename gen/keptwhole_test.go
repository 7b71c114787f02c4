package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// keptTools are the shapes whose values once lost what the decoder had
// checked (an untagged union of objects, the members patternProperties
// covers, beside a typed additionalProperties too, a const object, an
// object that declares no members, each also inside an array, a definition
// an open object uses both as a branch and as a plain value, the branches
// of an open tagged union) and a recursive tagged union. TestKeptWhole decodes each accepted input, re-encodes the typed
// value and compares it with the input (numbers by value, members in any
// order); each refused input must be refused.
var keptTools = []struct {
	name, params string
	open         bool
	accepted     []string
	refused      []string
}{
	{"untagged_union", `{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"object","oneOf":[
			{"type":"object","properties":{"node_id":{"type":"string"}},"required":["node_id"],"additionalProperties":false},
			{"type":"object","properties":{"item_id":{"type":"integer"}},"required":["item_id"],"additionalProperties":false},
			{"type":"object","properties":{"owner":{"type":"string"},"number":{"type":"integer"}},"required":["owner","number"],"additionalProperties":false}]}},
		"field":{"type":"object","oneOf":[
			{"type":"object","properties":{"id":{"type":"integer"},"value":{}},"required":["id","value"],"additionalProperties":false},
			{"type":"object","properties":{"name":{"type":"string"},"value":{}},"required":["name","value"],"additionalProperties":false}]}}}`,
		false,
		[]string{`{"items":[{"node_id":"PVTI_1"},{"item_id":42},{"number":7,"owner":"o"}]}`,
			`{"field":{"name":"Status","value":{"x":[1,2.50,null]}}}`, `{"field":{"id":3,"value":"Done"}}`},
		[]string{`{"items":[{"node_id":"a","item_id":1}]}`, `{"items":[{}]}`, `{"items":[{"item_id":"1"}]}`, `{"items":[{"owner":"o"}]}`,
			`{"field":{"id":1,"name":"n","value":1}}`, `{"field":{"id":1}}`, `{"field":"id"}`}},
	{"untagged_untyped", `{"type":"object","properties":{"comments":{"type":"array","items":{"anyOf":[
		{"type":"object","properties":{"path":{"type":"string"},"position":{"type":"number"}},"required":["path","position"],"additionalProperties":false},
		{"type":"object","properties":{"path":{"type":"string"},"line":{"type":"integer"}},"required":["path","line"],"additionalProperties":false}]}}}}`,
		false,
		[]string{`{"comments":[{"path":"a","position":1.50},{"line":3,"path":"b"}]}`},
		[]string{`{"comments":["x"]}`, `{"comments":[null]}`, `{"comments":[{"path":"a"}]}`, `{"comments":[{"path":"a","line":1,"position":2}]}`, `{"comments":[{"path":"a","line":1e400}]}`}},
	{"untagged_raw_member", `{"type":"object","properties":{"f":{"type":"object","anyOf":[
		{"properties":{"id":{"type":"integer"},"value":{"type":"string"}},"required":["id","value"]},
		{"properties":{"name":{"type":"string"},"value":{"type":"integer"}},"required":["name","value"]}]}}}`,
		false,
		[]string{`{"f":{"id":1,"value":"a"}}`, `{"f":{"name":"n","value":3}}`},
		[]string{`{"f":{"id":1,"name":"n","value":"a"}}`, `{"f":{"id":1,"value":3}}`, `{"f":{"name":"n","value":"a"}}`, `{"f":{"id":1,"value":"a","x":1}}`, `{"f":true}`}},
	{"untagged_unmergeable", `{"type":"object","properties":{"u":{"type":"object","oneOf":[
		{"properties":{"a":{"type":"string"}},"required":["a"],"patternProperties":{"^x-":{"type":"integer"}}},
		{"properties":{"b":{"type":"integer"}},"required":["b"],"additionalProperties":false}]}}}`,
		false,
		[]string{`{"u":{"a":"s","x-1":2}}`, `{"u":{"b":1}}`},
		[]string{`{"u":{"a":"s","x-1":"2"}}`, `{"u":{"a":"s","b":1}}`, `{"u":{"a":1}}`, `{"u":"a"}`, `{"u":{}}`}},
	{"pattern_members", `{"type":"object","properties":{
		"labels":{"type":"object","patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"maxLength":8}},
		"mixed":{"type":"object","properties":{"a":{"type":"integer"}},"patternProperties":{"^x-":{"type":"string"}}}}}`,
		false,
		[]string{`{"labels":{"x-a":"b","x-c":"d"}}`, `{"mixed":{"a":1,"x-b":"c"}}`},
		[]string{`{"labels":{"x-a":1}}`, `{"labels":{"y":"b"}}`, `{"labels":{"x-toolong":"b"}}`, `{"mixed":{"a":1,"b":2}}`}},
	{"pattern_typed_additional", `{"type":"object","properties":{
		"m":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":{"type":"boolean"}},
		"flags":{"type":"object","patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":{"type":"boolean"}}}}`,
		false,
		[]string{`{"m":{"a":"s","x-n":1,"other":true}}`, `{"m":{"x-a":1,"x-b":2.0}}`, `{"flags":{"x-n":2,"on":false}}`, `{"flags":{}}`},
		[]string{`{"m":{"x-n":true}}`, `{"m":{"other":1}}`, `{"m":{"a":1}}`, `{"flags":{"x-n":"1"}}`, `{"flags":{"on":null}}`}},
	{"const_object", `{"type":"object","properties":{"c":{"const":{"a":1,"b":[true]}},"cs":{"type":"array","items":{"type":"object","enum":[{"k":1},{"k":2}]}}}}`,
		false,
		[]string{`{"c":{"a":1,"b":[true]}}`, `{"c":{"b":[true],"a":1.0}}`, `{"cs":[{"k":2},{"k":1}]}`},
		[]string{`{"c":{"a":2,"b":[true]}}`, `{"c":{}}`, `{"c":{"a":1,"b":[true],"x":0}}`, `{"cs":[{"k":3}]}`}},
	{"free_form", `{"type":"object","properties":{
		"inputs":{"type":"object","properties":{},"description":"Inputs."},
		"rows":{"type":"array","items":{"type":"object","description":"A row."}},
		"maybe":{"anyOf":[{"type":"object","description":"Any object."},{"type":"null"}]}}}`,
		false,
		[]string{`{"inputs":{"ref":"main","n":{"deep":[1,{"x":null}]}}}`, `{"inputs":{}}`, `{"rows":[{"a":1},{},{"b":"c"}]}`,
			`{"maybe":{"k":"v"}}`, `{"maybe":null}`},
		[]string{`{"inputs":[]}`, `{"inputs":"{}"}`, `{"rows":[1]}`, `{"maybe":"x"}`, `{"other":1}`}},
	{"free_form_open", `{"type":"object","properties":{"gradeDict":{"type":"object","description":"Grades by student."},
		"rows":{"type":"array","items":{"type":"object","additionalProperties":true}}}}`,
		true,
		[]string{`{"gradeDict":{"ann":90,"bob":72.5}}`, `{"rows":[{"a":{"b":[]}}]}`, `{"other":1}`},
		[]string{`{"gradeDict":[90]}`, `{"rows":{}}`}},
	{"shared_definition_open", `{"type":"object","properties":{
		"u":{"oneOf":[{"$ref":"#/$defs/item"},{"type":"string"}]},
		"plain":{"$ref":"#/$defs/item"},
		"list":{"type":"array","items":{"$ref":"#/$defs/item"}}},
		"$defs":{"item":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}`,
		true,
		[]string{`{"plain":{"id":1,"extra":"x"}}`, `{"list":[{"id":1,"n":{"deep":[null]}},{"id":2}]}`, `{"u":{"id":2,"more":[1]}}`, `{"u":"s"}`},
		[]string{`{"plain":{"extra":1}}`, `{"plain":{"id":"1"}}`, `{"u":{"more":1}}`, `{"list":[{"id":1.5}]}`}},
	{"tagged_open", `{"type":"object","properties":{"b":{"oneOf":[
		{"type":"object","properties":{"type":{"const":"a"},"x":{"type":"string"}},"required":["type"]},
		{"type":"object","properties":{"type":{"const":"b"}},"required":["type"]}]}}}`,
		true,
		[]string{`{"b":{"type":"a","x":"s","y":[1,{"z":null}]}}`, `{"b":{"n":1.50,"type":"b"}}`},
		[]string{`{"b":{"type":"c"}}`, `{"b":{"type":"a","x":1}}`, `{"b":{"y":1}}`}},
	{"recursive_tagged", `{"type":"object","properties":{"root":{"$ref":"#/$defs/block"}},"required":["root"],"$defs":{"block":{"oneOf":[
		{"type":"object","properties":{"type":{"const":"para"},"text":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/block"}}},"required":["type"]},
		{"type":"object","properties":{"type":{"const":"list"},"children":{"type":"array","items":{"$ref":"#/$defs/block"}}},"required":["type"]}]}}}`,
		false,
		[]string{`{"root":{"type":"para","text":"a","children":[{"type":"list","children":[{"type":"para"},{"children":[],"type":"list"}]}]}}`},
		[]string{`{"root":{"type":"list","text":"a"}}`, `{"root":{"type":"para","children":[{"type":"quote"}]}}`, `{"root":{}}`}},
}

// keptSays is what the refusal of some refused inputs of keptTools says: a
// merged union without a type reports another value as its union's
// violation, and a member that breaks its own schema at its own path.
var keptSays = map[string]string{
	`{"comments":["x"]}`:                       "comments[0] must match at least one schema of anyOf; it matches none",
	`{"comments":[{"path":"a","line":1e400}]}`: "comments[0].line must be an integer between",
}

func TestKeptWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "kept")
	var prog strings.Builder
	prog.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"os\"\n\n\t\"kept/closed\"\n\t\"kept/open\"\n)\n\nvar decoders = []func([]byte) ([]byte, error){\n")
	for _, open := range []bool{false, true} {
		pkg := keptPackage(open)
		schemas := map[string][]byte{}
		for _, k := range keptTools {
			if k.open == open {
				schemas[k.name+".json"] = fmt.Appendf(nil, `{"name":%q,"description":"A tool.","parameters":%s}`, k.name, k.params)
			}
		}
		gobuild.WriteFiles(t, mod, pkg, generateSchemas(t, mod, "schemas_"+pkg, schemas, gen.Options{Package: pkg, OutDir: filepath.Join(mod, pkg), OpenObjects: open}))
	}
	type run struct {
		Tool    int     `json:"tool"`
		Input   string  `json:"input"`
		Encoded string  `json:"encoded"`
		Err     *string `json:"err"`
	}
	var runs []run
	for i, k := range keptTools {
		var goName strings.Builder
		for _, part := range strings.Split(k.name, "_") {
			goName.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
		fmt.Fprintf(&prog, "\tfunc(b []byte) ([]byte, error) { v, err := %s.Decode%sArgs(b); if err != nil { return nil, err }; return v.MarshalJSON() },\n",
			keptPackage(k.open), goName.String())
		for _, in := range append(append([]string(nil), k.accepted...), k.refused...) {
			runs = append(runs, run{Tool: i, Input: in})
		}
	}
	prog.WriteString(`}

func main() {
	var runs []struct {
		Tool    int     ` + "`json:\"tool\"`" + `
		Input   string  ` + "`json:\"input\"`" + `
		Encoded string  ` + "`json:\"encoded\"`" + `
		Err     *string ` + "`json:\"err\"`" + `
	}
	if err := json.NewDecoder(os.Stdin).Decode(&runs); err != nil {
		panic(err)
	}
	for i := range runs {
		b, err := decoders[runs[i].Tool]([]byte(runs[i].Input))
		if err != nil {
			msg := err.Error()
			runs[i].Err = &msg
			continue
		}
		runs[i].Encoded = string(b)
	}
	json.NewEncoder(os.Stdout).Encode(runs)
}
`)
	gobuild.WriteFiles(t, mod, "run", map[string][]byte{"main.go": []byte(prog.String())})
	if got, err := gobuild.Go(t, mod, "vet", "./..."); err != nil {
		t.Fatalf("vetting the generated packages:\n%s", got)
	}
	if got, err := gobuild.Go(t, mod, "build", "-o", "run.bin", "./run"); err != nil {
		t.Fatalf("building the program:\n%s", got)
	}
	input, err := json.Marshal(runs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(mod, "run.bin"))
	cmd.Stdin = bytes.NewReader(input)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the program: %v\n%s", err, got)
	}
	n := len(runs)
	if err := json.Unmarshal(got, &runs); err != nil || len(runs) != n {
		t.Fatalf("the program's output (%d runs, want %d): %v\n%s", len(runs), n, err, got)
	}
	for _, r := range runs {
		k := keptTools[r.Tool]
		accept := false
		for _, in := range k.accepted {
			accept = accept || in == r.Input
		}
		t.Run(k.name, func(t *testing.T) {
			switch {
			case !accept && r.Err == nil:
				t.Errorf("%s accepted (it encodes to %s); want it refused", r.Input, r.Encoded)
			case !accept && keptSays[r.Input] != "" && !strings.Contains(*r.Err, keptSays[r.Input]):
				t.Errorf("%s refused with %q; want it to say %q", r.Input, *r.Err, keptSays[r.Input])
			case !accept:
			case r.Err != nil:
				t.Errorf("%s refused: %s", r.Input, *r.Err)
			case !sameJSON(t, r.Input, r.Encoded):
				t.Errorf("%s decodes to a value that encodes to %s", r.Input, r.Encoded)
			}
		})
	}
}

// keptPackage names the generated package of the closed or open tools.
func keptPackage(open bool) string {
	if open {
		return "open"
	}
	return "closed"
}

// sameJSON reports whether a and b are the same JSON value: numbers by
// value, members in any order.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	va, err := jsonval.Parse([]byte(a))
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	vb, err := jsonval.Parse([]byte(b))
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return jsonval.Equal(va, vb)
}
