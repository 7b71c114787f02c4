package gen_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// reportTools are schemas with patternProperties, schema-valued
// additionalProperties and propertyNames, and instances that break a rule
// inside them. TestComposedViolationsMatchOracle decodes each instance and
// compares the keyword, instance path and schema path of every violation
// with the leaves of santhosh-tekuri/jsonschema's error on the effective
// schema: the innermost broken rule, at the member's own path.
var reportTools = []struct {
	name, params string
	instances    []string
	// sensitive, when set, is the path of a sensitive member: toolgate
	// shows the undeclared names below it as "*" (the oracle names them),
	// and no message may repeat secret.
	sensitive, secret string
}{
	{"patterned", `{"type":"object","properties":{
			"metadata":{"type":"object","patternProperties":{"^x-":{"type":"integer","minimum":1}},"additionalProperties":false},
			"notes":{"type":"object","patternProperties":{"^s-":{"type":"string","maxLength":3},"-b$":{"type":"string","pattern":"^[a-z]+$"}}},
			"nested":{"type":"object","patternProperties":{"^o-":{"type":"object","properties":{"n":{"type":"integer","minimum":0},"m":{"type":"integer"}}}}},
			"list":{"type":"array","items":{"type":"object","patternProperties":{"^x-":{"type":"number","exclusiveMaximum":10}}}}}}`,
		[]string{
			`{"metadata":{"x-a":0}}`,
			`{"metadata":{"x-a":"one","x-b":2,"x-c":-4}}`,
			`{"metadata":{"x-a":0,"y":1,"z":2}}`,
			`{"notes":{"s-1":"long"}}`,
			// Both patterns match s-b, and both fail.
			`{"notes":{"s-b":"LONG"}}`,
			`{"nested":{"o-1":{"n":-1,"m":"x"}}}`,
			`{"list":[{"x-a":1},{"x-a":10}]}`,
			// A name as received, hostile.
			`{"metadata":{"x-\"\u202e\n":0}}`,
		}, "", ""},
	{"declared", `{"type":"object","properties":{"x-id":{"type":"integer"}},"patternProperties":{"^x-":{"type":"integer","minimum":1},"id$":{"type":"integer","maximum":10}},"additionalProperties":{"type":"boolean"}}`,
		[]string{
			`{"x-id":0}`,
			`{"x-uid":20}`,
			`{"x-id":20}`,
			`{"other":1}`,
			`{"other":true,"x-a":0,"more":"x"}`,
		}, "", ""},
	{"additional", `{"type":"object","properties":{
			"tags":{"type":"object","additionalProperties":{"type":"string","maxLength":3}},
			"counts":{"type":"object","properties":{"total":{"type":"integer"}},"additionalProperties":{"type":"integer","minimum":0}}}}`,
		[]string{
			`{"tags":{"a":"long"}}`,
			`{"tags":{"a":1,"b":"ok","c":"long"}}`,
			`{"counts":{"total":1,"x":-1}}`,
		}, "", ""},
	{"referenced", `{"type":"object","properties":{
			"m":{"type":"object","patternProperties":{"^x-":{"$ref":"#/$defs/pos"}},"propertyNames":{"$ref":"#/$defs/short"}}},
			"$defs":{"pos":{"type":"integer","minimum":1},"short":{"maxLength":4}}}`,
		[]string{
			`{"m":{"x-a":0}}`,
			`{"m":{"x-abc":1}}`,
		}, "", ""},
	{"named", `{"type":"object","properties":{
			"labels":{"type":"object","propertyNames":{"maxLength":3},"additionalProperties":{"type":"string"}},
			"keys":{"type":"object","propertyNames":{"pattern":"^[a-z]+$","minLength":2},"additionalProperties":{"type":"integer"}},
			"modes":{"type":"object","propertyNames":{"enum":["r","w"]},"additionalProperties":{"type":"boolean"}}}}`,
		[]string{
			`{"labels":{"long":"s"}}`,
			`{"keys":{"A":1}}`,
			`{"keys":{"ok":1,"B1":2}}`,
			`{"modes":{"x":true}}`,
			`{"labels":{"lo\"\u202eng":"s"}}`,
		}, "", ""},
	{"secret", `{"type":"object","properties":{
			"vault":{"type":"object","writeOnly":true,"patternProperties":{"^k-":{"type":"string","maxLength":3,"pattern":"^[a-z]+$"}},"propertyNames":{"pattern":"^k-"}}}}`,
		[]string{
			`{"vault":{"k-1":"HUNTER2"}}`,
			`{"vault":{"HUNTER2":"x"}}`,
		}, "/vault", "HUNTER2"},
}

// oracleDifferences are the violations toolgate reports deliberately
// otherwise than santhosh-tekuri/jsonschema, by keyword: the oracle's leaf
// is dropped from the comparison, and toolgate's violation must be there
// instead, at the path given by the function (from the oracle's leaf and
// the instance).
var oracleDifferences = map[string]string{
	// The oracle reports a closed object's unknown members once, at the
	// object ("additionalProperties 'y', 'z' not allowed"); toolgate
	// reports each at its own path (metadata.y is not a known field), so
	// that the model can drop exactly that member.
	"additionalProperties": "each unknown member at its own path",
}

type leaf struct{ Keyword, InstancePath, SchemaPath string }

func (l leaf) String() string {
	return l.Keyword + " at " + orRootPath(l.InstancePath) + " (" + l.SchemaPath + ")"
}

func orRootPath(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func TestComposedViolationsMatchOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "reported")
	schemas := map[string][]byte{}
	for _, tc := range reportTools {
		schemas[tc.name+".json"] = fmt.Appendf(nil, `{"name":%q,"description":"","parameters":%s,"x-toolgate":{"providers":["mcp"]}}`, tc.name, tc.params)
	}
	gobuild.WriteFiles(t, mod, "tools", generateFolder(t, mod, schemas))
	tools, err := gen.Load(filepath.Join(mod, "schemas"))
	if err != nil {
		t.Fatal(err)
	}

	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"errors\"\n\t\"fmt\"\n\n\t\"github.com/toolgate/toolgate/runtime/toolerr\"\n\n\t\"reported/tools\"\n)\n\n")
	main.WriteString("func show(err error) {\n\tvar e *toolerr.Error\n\tvar vs []toolerr.Violation\n\tif errors.As(err, &e) {\n\t\tvs = e.Violations()\n\t}\n\tb, _ := json.Marshal(vs)\n\tfmt.Println(string(b))\n}\n\nfunc main() {\n")
	type check struct{ tool, data, sensitive, secret string }
	var checks []check
	for _, tc := range reportTools {
		goName := strings.ToUpper(tc.name[:1]) + tc.name[1:]
		for _, in := range tc.instances {
			checks = append(checks, check{tc.name, in, tc.sensitive, tc.secret})
			fmt.Fprintf(&main, "\t{\n\t\t_, err := tools.Decode%sArgs([]byte(%q))\n\t\tshow(err)\n\t}\n", goName, in)
		}
	}
	main.WriteString("}\n")
	gobuild.WriteFiles(t, mod, "cmd", map[string][]byte{"main.go": []byte(main.String())})
	got, err := gobuild.Go(t, mod, "run", "./cmd")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != len(checks) {
		t.Fatalf("got %d results for %d instances:\n%s", len(lines), len(checks), got)
	}
	byName := map[string]*gen.Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	for i, c := range checks {
		var vs []struct{ Keyword, InstancePath, SchemaPath, Message string }
		if err := json.Unmarshal([]byte(lines[i]), &vs); err != nil {
			t.Fatalf("%s %s: %v in %s", c.tool, c.data, err, lines[i])
		}
		effective, _, err := gen.Schema(byName[c.tool], gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := oracleLeaves(t, effective.Marshal(), c.data)
		if len(want) == 0 {
			t.Errorf("%s %s: the oracle accepts it; the table wants instances that break a rule", c.tool, c.data)
			continue
		}
		var have []leaf
		for _, v := range vs {
			have = append(have, leaf{v.Keyword, v.InstancePath, v.SchemaPath})
			if strings.Contains(v.Message, "\u202e") || strings.Contains(v.Message, "\n") {
				t.Errorf("%s %s: message %q repeats a hostile name unquoted", c.tool, c.data, v.Message)
			}
			if c.secret != "" && (strings.Contains(v.Message, c.secret) || strings.Contains(v.InstancePath, c.secret)) {
				t.Errorf("%s %s: violation %+v repeats the sensitive %s", c.tool, c.data, v, c.secret)
			}
		}
		if c.sensitive != "" {
			// A name below a sensitive member is not shown: "*".
			for i, l := range want {
				if rest, ok := strings.CutPrefix(l.InstancePath, c.sensitive+"/"); ok {
					_, after, _ := strings.Cut(rest, "/")
					want[i].InstancePath = strings.TrimSuffix(c.sensitive+"/*/"+after, "/")
				}
			}
		}
		// The oracle's leaves that toolgate reports otherwise, and
		// toolgate's for them, are compared by keyword and schema path
		// alone.
		var differs []leaf
		want = slices.DeleteFunc(want, func(l leaf) bool {
			if _, ok := oracleDifferences[l.Keyword]; ok {
				differs = append(differs, l)
				return true
			}
			return false
		})
		for _, d := range differs {
			n := len(have)
			have = slices.DeleteFunc(have, func(h leaf) bool {
				return h.Keyword == d.Keyword && h.SchemaPath == d.SchemaPath && strings.HasPrefix(h.InstancePath, d.InstancePath+"/")
			})
			if len(have) == n {
				t.Errorf("%s %s: the oracle reports %s; toolgate has no %s for it", c.tool, c.data, d, oracleDifferences[d.Keyword])
			}
		}
		sortLeaves(have)
		sortLeaves(want)
		if !slices.Equal(have, want) {
			t.Errorf("%s %s:\ntoolgate reports %v\nthe oracle       %v\nmessages %+v", c.tool, c.data, have, want, vs)
		}
	}
}

func sortLeaves(ls []leaf) {
	slices.SortFunc(ls, func(a, b leaf) int {
		return strings.Compare(a.InstancePath+"\x00"+a.SchemaPath, b.InstancePath+"\x00"+b.SchemaPath)
	})
}

// oracleLeaves validates data against schema with santhosh-tekuri/jsonschema
// and returns the innermost violations: the errors without causes, each
// named by the last token of its absolute keyword location, its locations
// unescaped.
func oracleLeaves(t *testing.T, schema []byte, data string) []leaf {
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
	var ve *jsonschema.ValidationError
	if err := s.Validate(v); !errors.As(err, &ve) {
		return nil
	}
	var out []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			// The oracle writes its pointers URL-escaped (%5E for ^). Its
			// keyword location is the path it evaluated (through $ref);
			// toolgate's schema path is where the rule is written, the
			// oracle's absolute keyword location.
			_, frag, _ := strings.Cut(e.AbsoluteKeywordLocation, "#")
			sp, err1 := url.PathUnescape(frag)
			il, err2 := url.PathUnescape(e.InstanceLocation)
			if err := errors.Join(err1, err2); err != nil {
				t.Fatalf("the oracle's locations %q, %q: %v", e.AbsoluteKeywordLocation, e.InstanceLocation, err)
			}
			out = append(out, leaf{sp[strings.LastIndexByte(sp, '/')+1:], il, sp})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}
