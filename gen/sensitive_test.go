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
)

// A keyword case of TestSensitiveAtEveryDepth: a leaf schema, a value that
// breaks it and holds secret, the path the violation adds below the leaf
// (an undeclared name: "*" inside a sensitive value), and whether a message
// about a value that is not sensitive quotes it (the control position must
// then show it).
type leafCase struct {
	keyword string
	leaf    string // the leaf schema
	value   string // JSON
	secret  string
	sub     string // "/name" for a violation at an undeclared member of the leaf
	quotes  bool
}

var leafCases = []leafCase{
	{"enum", `{"type":"string","enum":["a","b"]}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", true},
	{"const", `{"type":"string","const":"a"}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", true},
	{"pattern", `{"type":"string","pattern":"^[0-9]+$"}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", true},
	{"format", `{"type":"string","format":"email"}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", true},
	{"minLength", `{"type":"string","minLength":100}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", false},
	{"maxLength", `{"type":"string","maxLength":3}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", false},
	{"minimum", `{"type":"number","minimum":1e12}`, `987654321.123`, "987654321.123", "", true},
	{"maximum", `{"type":"integer","maximum":5}`, `987654321`, "987654321", "", true},
	{"exclusiveMinimum", `{"type":"integer","exclusiveMinimum":1e12}`, `987654321`, "987654321", "", true},
	{"exclusiveMaximum", `{"type":"number","exclusiveMaximum":5}`, `987654321.123`, "987654321.123", "", true},
	{"multipleOf", `{"type":"number","multipleOf":7}`, `987654321.123`, "987654321.123", "", true},
	{"type", `{"type":"integer"}`, `987654321.5`, "987654321.5", "", true},
	{"type", `{"type":"integer"}`, `"Hunter2-SECRET"`, "Hunter2-SECRET", "", false},
	{"type", `{"type":"integer"}`, `98765432109876543210987`, "98765432109876543210987", "", true},
	{"type", `{"type":"number"}`, `9.87654321e999`, "9.87654321e999", "", true},
	// The float64 the executor would receive breaks the bound; the exact
	// value keeps it.
	{"exclusiveMinimum", `{"type":"number","exclusiveMinimum":0}`, `9.87654321e-400`, "9.87654321e-400", "", true},
	{"exclusiveMaximum", `{"type":"number","exclusiveMaximum":1}`, `0.99999999999999999999`, "0.99999999999999999999", "", true},
	{"minimum", `{"type":"number","minimum":0.3}`, `0.3000000000000000000001`, "0.3000000000000000000001", "", true},
	{"maximum", `{"type":"integer","maximum":5}`, `987654321098765432109`, "987654321098765432109", "", true},
	{"enum", `{"type":"integer","enum":[1,2]}`, `987654321`, "987654321", "", true},
	{"enum", `{"type":"boolean","enum":[true]}`, `false`, "received false", "", true},
	{"enum", `{"type":"object","enum":[{}]}`, `{"k":"Hunter2-SECRET"}`, "Hunter2-SECRET", "", false},
	{"uniqueItems", `{"type":"array","items":{"type":"string"},"uniqueItems":true}`, `["Hunter2-SECRET","Hunter2-SECRET"]`, "Hunter2-SECRET", "", false},
	{"additionalProperties", `{"type":"object","properties":{"x":{"type":"string"}}}`, `{"Hunter2-SECRET":1}`, "Hunter2-SECRET", "/Hunter2-SECRET", true},
	{"pattern", `{"type":"object","additionalProperties":{"type":"string","pattern":"^[0-9]+$"}}`, `{"k":"Hunter2-SECRET"}`, "Hunter2-SECRET", "/k", true},
}

// A position of TestSensitiveAtEveryDepth: the member holding it, its
// schema around the leaf (wo is where writeOnly goes), how the failing
// value is wrapped, the pointer of the leaf, and whether it is sensitive.
type position struct {
	name      string
	member    string
	schema    func(leaf, wo string) string
	wrap      string
	pointer   string
	sensitive bool
}

// marked puts wo first in the schema object leaf.
func marked(leaf, wo string) string { return "{" + wo + leaf[1:] }

var positions = []position{
	{"scalar", "s", marked, `%s`, "/s", true},
	{"object", "o", func(l, wo string) string { return `{"type":"object",` + wo + `"properties":{"p":` + l + `}}` }, `{"p":%s}`, "/o/p", true},
	{"array", "a", func(l, wo string) string { return `{"type":"array",` + wo + `"items":` + l + `}` }, `[%s]`, "/a/0", true},
	{"array item", "ai", func(l, wo string) string { return `{"type":"array","items":` + marked(l, wo) + `}` }, `[%s]`, "/ai/0", true},
	{"map", "m", func(l, wo string) string { return `{"type":"object",` + wo + `"additionalProperties":` + l + `}` }, `{"Hunter2-KEY":%s}`, "/m/*", true},
	{"map value", "mv", func(l, wo string) string { return `{"type":"object","additionalProperties":` + marked(l, wo) + `}` }, `{"k":%s}`, "/mv/k", true},
	{"ref", "r", func(_, wo string) string { return `{` + wo + `"$ref":"#/$defs/box"}` }, `{"p":%s}`, "/r/p", true},
	{"deep", "d", func(l, wo string) string {
		return `{"type":"object",` + wo + `"properties":{"x":{"type":"array","items":{"type":"object","additionalProperties":{"type":"object","properties":{"p":` + l + `}}}}}}`
	}, `{"x":[{"Hunter2-KEY":{"p":%s}}]}`, "/d/x/0/*/p", true},
	{"x-toolgate", "xs", func(l, _ string) string {
		return `{"type":"object","x-toolgate":{"sensitive":true},"properties":{"p":` + l + `}}`
	}, `{"p":%s}`, "/xs/p", true},
	// The control: the same named type, used without writeOnly, echoes.
	{"plain ref", "plain", func(_, _ string) string { return `{"$ref":"#/$defs/box"}` }, `{"p":%s}`, "/plain/p", false},
}

// sensitiveTool is the tool of one leaf case: every position in one
// object, the leaf also in $defs for the $ref positions.
func sensitiveTool(i int, c leafCase) string {
	var props []string
	for _, p := range positions {
		props = append(props, fmt.Sprintf("%q:%s", p.member, p.schema(c.leaf, `"writeOnly":true,`)))
	}
	return fmt.Sprintf(`{"name":"t%d","description":"Sensitivity case %d (%s).","parameters":{"type":"object","properties":{%s},"$defs":{"box":{"type":"object","properties":{"p":%s}}}},"x-toolgate":{"goName":"T%d","providers":["mcp"]}}`,
		i, i, c.keyword, strings.Join(props, ","), c.leaf, i)
}

// wholeTool is marked sensitive as a whole: every value and every
// undeclared name is hidden, from the top level down.
const wholeTool = `{"name":"whole","description":"A sensitive tool.","parameters":{"type":"object","properties":{
	"s":{"type":"string","pattern":"^[0-9]+$"},
	"m":{"type":"object","additionalProperties":{"type":"string","enum":["a"]}}}},
	"x-toolgate":{"sensitive":true,"providers":["mcp"]}}`

var wholeRuns = []struct{ input, keyword, pointer string }{
	{`{"s":"Hunter2-SECRET"}`, "pattern", "/s"},
	{`{"m":{"Hunter2-KEY":"Hunter2-SECRET"}}`, "enum", "/m/*"},
	{`{"Hunter2-SECRET":1}`, "additionalProperties", "/*"},
}

// sensitiveRun is one decode the generated program performs.
type sensitiveRun struct {
	Tool  int             `json:"tool"`
	Input string          `json:"input"`
	Err   json.RawMessage `json:"err"`
}

// TestSensitiveAtEveryDepth generates one tool per value-quoting keyword
// with the same failing leaf at every depth — a sensitive scalar, object,
// array, array item, map, map value, $ref and a deep mix of them — builds
// them and decodes a failing call per position: the refusal names the
// keyword at the expected pointer (a map key inside a sensitive value is
// "*") and its JSON never holds the secret, while the same leaf reached
// without writeOnly does show it, so that the check can fail.
func TestSensitiveAtEveryDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "sensitive")
	schemas := map[string][]byte{"whole.json": []byte(wholeTool)}
	for i, c := range leafCases {
		schemas[fmt.Sprintf("t%02d.json", i)] = []byte(sensitiveTool(i, c))
	}
	gobuild.WriteFiles(t, mod, "schemas", schemas)
	tools, err := gen.Load(filepath.Join(mod, "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(tools, gen.Options{Package: "vault", OutDir: filepath.Join(mod, "vault")})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	gobuild.WriteFiles(t, mod, "vault", out)

	var runs []sensitiveRun
	var prog strings.Builder
	prog.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"os\"\n\n\t\"sensitive/vault\"\n)\n\nvar decoders = []func([]byte) error{\n")
	for i := range leafCases {
		fmt.Fprintf(&prog, "\tfunc(b []byte) error { _, err := vault.DecodeT%dArgs(b); return err },\n", i)
		for _, p := range positions {
			runs = append(runs, sensitiveRun{Tool: i, Input: fmt.Sprintf(`{%q:%s}`, p.member, fmt.Sprintf(p.wrap, leafCases[i].value))})
		}
	}
	fmt.Fprintf(&prog, "\tfunc(b []byte) error { _, err := vault.DecodeWholeArgs(b); return err },\n")
	for _, w := range wholeRuns {
		runs = append(runs, sensitiveRun{Tool: len(leafCases), Input: w.input})
	}
	prog.WriteString(`}

func main() {
	var runs []struct {
		Tool  int             ` + "`json:\"tool\"`" + `
		Input string          ` + "`json:\"input\"`" + `
		Err   json.RawMessage ` + "`json:\"err\"`" + `
	}
	if err := json.NewDecoder(os.Stdin).Decode(&runs); err != nil {
		panic(err)
	}
	for i := range runs {
		if err := decoders[runs[i].Tool]([]byte(runs[i].Input)); err != nil {
			runs[i].Err, _ = json.Marshal(err)
		}
	}
	json.NewEncoder(os.Stdout).Encode(runs)
}
`)
	gobuild.WriteFiles(t, mod, "run", map[string][]byte{"main.go": []byte(prog.String())})
	input, err := json.Marshal(runs)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := gobuild.Go(t, mod, "build", "-o", "run.bin", "./run"); err != nil {
		t.Fatalf("building the program:\n%s", got)
	}
	cmd := exec.Command(filepath.Join(mod, "run.bin"))
	cmd.Stdin = bytes.NewReader(input)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the program: %v\n%s", err, got)
	}
	if err := json.Unmarshal(got, &runs); err != nil {
		t.Fatalf("the program's output: %v\n%s", err, got)
	}
	for k, r := range runs {
		if r.Tool == len(leafCases) {
			w := wholeRuns[k-len(leafCases)*len(positions)]
			t.Run("whole tool/"+w.keyword, func(t *testing.T) {
				checkSensitiveRun(t, leafCase{keyword: w.keyword, secret: "Hunter2-SECRET"}, position{pointer: w.pointer, sensitive: true}, r)
			})
			continue
		}
		c, p := leafCases[r.Tool], positions[k%len(positions)]
		t.Run(fmt.Sprintf("%d-%s/%s", r.Tool, c.keyword, p.name), func(t *testing.T) {
			checkSensitiveRun(t, c, p, r)
		})
	}
}

func checkSensitiveRun(t *testing.T, c leafCase, p position, r sensitiveRun) {
	var e struct {
		Code       string `json:"code"`
		Violations []struct {
			Keyword      string `json:"keyword"`
			InstancePath string `json:"instancePath"`
			Message      string `json:"message"`
		} `json:"violations"`
	}
	if r.Err == nil {
		t.Fatalf("input %s accepted", r.Input)
	}
	if err := json.Unmarshal(r.Err, &e); err != nil {
		t.Fatal(err)
	}
	want := p.pointer + c.sub
	if p.sensitive && c.sub != "" {
		want = p.pointer + "/*"
	}
	found := false
	for _, v := range e.Violations {
		found = found || v.Keyword == c.keyword && v.InstancePath == want
	}
	if e.Code != "invalid_arguments" || !found {
		t.Errorf("input %s: want a %s violation at %s; got %s", r.Input, c.keyword, want, r.Err)
	}
	shown := strings.Contains(string(r.Err), c.secret)
	switch {
	case p.sensitive && shown:
		t.Errorf("input %s: the refusal repeats the sensitive value %q: %s", r.Input, c.secret, r.Err)
	case p.sensitive && strings.Contains(string(r.Err), "Hunter2-KEY"):
		t.Errorf("input %s: the refusal repeats a key of a sensitive map: %s", r.Input, r.Err)
	case !p.sensitive && c.quotes && !shown:
		t.Errorf("input %s: the control (not sensitive) does not show %q: %s", r.Input, c.secret, r.Err)
	}
}
