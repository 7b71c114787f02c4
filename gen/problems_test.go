package gen_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// place is an error's file:line:column and pointer, as a test compares it.
func place(t *testing.T, err error) string {
	t.Helper()
	var ge *gen.Error
	if !errors.As(err, &ge) {
		t.Fatalf("%v is not a *gen.Error", err)
	}
	return fmt.Sprintf("%s:%d:%d %s", filepath.Base(ge.File), ge.Line, ge.Column, ge.Pointer)
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestErrorPlaces: every error Load returns is placed at the line and
// column of its pointer (of the member's name for a member), or of the
// byte at fault in a file that is not JSON; columns count code points.
func TestErrorPlaces(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"a member", "{\n  \"name\": \"t\",\n  \"parameters\": {\"type\": \"object\"},\n  \"paramters\": {}\n}", []string{"t.json:4:3 /paramters"}},
		{"after multi-byte text", "{\"description\": \"é€\", \"name\": \"t\", \"parameters\": {}, \"x\u00e9\": 1, \"oops\": 1}", []string{"t.json:1:54 /x\u00e9", "t.json:1:63 /oops"}},
		{"in a list", "[\n  {\"name\": \"a\", \"parameters\": {}},\n  7\n]", []string{"t.json:3:3 /1"}},
		{"invalid JSON", "{\n  \"name\": \"t\",\n  \"parameters\": {,}\n}", []string{"t.json:3:18 "}},
		{"a duplicate member", "{\"name\": \"t\",\n \"name\": \"u\"}", []string{"t.json:2:2 "}},
		{"end of input", "{\"name\": \"t\",\n", []string{"t.json:2:1 "}},
		{"no place: the whole file", "{\"name\": \"t\"}", []string{"t.json:1:1 "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "t.json", tt.body)
			_, err := gen.Load(path)
			var list gen.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Load: %v, want an ErrorList", err)
			}
			var got []string
			for _, e := range list.Flat() {
				got = append(got, place(t, e))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("places:\n%s\nwant:\n%s\n(errors: %v)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), err)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		name string
		err  *gen.Error
		want string
	}{
		{"placed", &gen.Error{File: "s/t.json", Pointer: "/parameters/requried", Keyword: "requried", Message: "unknown", Line: 11, Column: 5}, "s/t.json:11:5: requried: unknown (at /parameters/requried)"},
		{"placed, at the root", &gen.Error{File: "t.json", Message: "invalid JSON: x", Line: 3, Column: 18}, "t.json:3:18: invalid JSON: x"},
		{"placed, hostile text escaped", &gen.Error{File: "a\nb.json", Pointer: "/p/x\u202e", Message: "m\x1b", Line: 1, Column: 2}, `a\x0ab.json:1:2: m\x1b (at /p/x\u202e)`},
		{"no place", &gen.Error{File: "t.json", Pointer: "/name", Message: "m"}, "t.json#/name: m"},
		{"no place, no pointer", &gen.Error{File: "t.json", Message: "m"}, "t.json: m"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestErrorListSorted(t *testing.T) {
	e := func(file string, line, col int, msg string) error {
		return &gen.Error{File: file, Line: line, Column: col, Message: msg}
	}
	list := gen.ErrorList{
		e("b.json", 1, 1, "b"),
		gen.ErrorList{e("a.json", 10, 2, "late"), e("a.json", 2, 30, "second line")},
		e("a.json", 2, 4, "z"),
		e("a.json", 2, 4, "a"),
		errors.New("stat x: no such file"),
		e("a.json", 0, 0, "no place"),
	}
	var got []string
	for _, err := range list.Sorted() {
		got = append(got, err.Error())
	}
	want := []string{
		"stat x: no such file",
		"a.json: no place",
		"a.json:2:4: a",
		"a.json:2:4: z",
		"a.json:2:30: second line",
		"a.json:10:2: late",
		"b.json:1:1: b",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sorted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// everyStage has a problem for each stage: the tool's members, its
// x-toolgate (two), a description, the meta-schema (two places) and the
// model (a misspelt keyword, a keyword toolgate refuses, a stranger).
const everyStage = `{
  "name": "refund_order",
  "paramters": {},
  "x-toolgate": {"timout": "10s", "sensitive": "yes"},
  "parameters": {
    "type": "object",
    "properties": {
      "amount": {"type": "integr", "maxLenght": 3},
      "code": {"type": "string", "pattern": "(", "description": "a\u0000b"},
      "when": {"type": "string", "$dynamicAnchor": "x", "frobnicate": 1}
    },
    "requried": ["amount"],
    "required": [1]
  }
}
`

// TestEveryStageInOneRun: LoadAll reports every problem of the tool's
// members and returns the tool all the same; Validate adds every problem
// of its schema: the meta-schema's at each place it refuses, and the
// model's of what is left.
func TestEveryStageInOneRun(t *testing.T) {
	path := writeFile(t, t.TempDir(), "t.json", everyStage)
	if tools, err := gen.Load(path); tools != nil || err == nil {
		t.Fatalf("Load returned %d tools, %v: want none and an error", len(tools), err)
	}
	tools, loadErr := gen.LoadAll(path)
	if len(tools) != 1 || loadErr == nil {
		t.Fatalf("LoadAll: %d tools, %v", len(tools), loadErr)
	}
	verr := gen.Validate(tools, gen.Options{})
	var got []string
	for _, e := range (gen.ErrorList{loadErr, verr}).Sorted() {
		got = append(got, strings.ReplaceAll(e.Error(), filepath.Dir(path)+string(filepath.Separator), ""))
	}
	want := []string{
		`t.json:3:3: unknown member "paramters"; did you mean "parameters"? (a tool has name, description, parameters or inputSchema, MCP's title, annotations, outputSchema, icons, execution and _meta, and x-* extensions) (at /paramters)`,
		`t.json:4:18: unknown x-toolgate member "timout"; did you mean "timeout"? (want goName, version, roles, sensitive, destructive, timeout, providers, approval, approvers, selfApproval) (at /x-toolgate/timout)`,
		`t.json:4:35: x-toolgate.sensitive must be a boolean (at /x-toolgate/sensitive)`,
		`t.json:8:18: type: unknown type "integr"; did you mean "integer"? (a type is array, boolean, integer, null, number, object or string) (at /parameters/properties/amount/type)`,
		`t.json:8:36: maxLenght: unknown keyword "maxLenght"; did you mean "maxLength"? (at /parameters/properties/amount/maxLenght)`,
		`t.json:9:34: pattern: Go's regexp cannot compile "(": error parsing regexp: missing closing ): ` + "`(`" + ` (at /parameters/properties/code/pattern)`,
		`t.json:9:50: description: the description "a\x00b" holds U+0000 (a control character) at byte 1; names and descriptions may not hold control, byte order mark, bidi or line separator characters (at /parameters/properties/code/description)`,
		`t.json:10:34: $dynamicAnchor: keyword "$dynamicAnchor" is not enforced by toolgate; remove it or express the rule with supported keywords (at /parameters/properties/when/$dynamicAnchor)`,
		`t.json:10:57: frobnicate: unknown keyword "frobnicate": not a JSON Schema keyword; remove it, or start an extension's name with x- (at /parameters/properties/when/frobnicate)`,
		`t.json:12:5: requried: unknown keyword "requried"; did you mean "required"? (at /parameters/requried)`,
		`t.json:13:18: required: invalid schema: expected string, but got number (at /parameters/required/0)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadAllStopsWhereNothingCanBeChecked: a tool without a name or
// parameters, or with a name MCP refuses, is not returned: the schema
// checks name the schema by the tool and need the parameters.
func TestLoadAllStopsWhereNothingCanBeChecked(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"no parameters", `{"name": "t", "paramters": {}}`},
		{"no name", `{"parameters": {"type": "object"}}`},
		{"a name MCP refuses", `{"name": "t t", "parameters": {"type": "object"}}`},
		{"a name that is no string", `{"name": 1, "parameters": {"type": "object"}}`},
		{"not JSON", `{"name": "t", "parameters": {`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := gen.LoadAll(writeFile(t, t.TempDir(), "t.json", tt.body))
			if len(tools) != 0 || err == nil {
				t.Errorf("LoadAll: %d tools, %v; want none and an error", len(tools), err)
			}
		})
	}
}

// TestMetaSchemaProblemsLeaveTheRestChecked: each place the meta-schema
// refuses is one problem (the alternatives of "type" are one), and the
// model of what is left still runs: a definition that is no schema is
// read as true, so that the $ref to it still resolves and the misspelt
// keyword beside it is found; the result's schema is checked too.
func TestMetaSchemaProblemsLeaveTheRestChecked(t *testing.T) {
	const body = `{
  "name": "t",
  "parameters": {
    "type": "objetc",
    "properties": {"a": {"$ref": "#/$defs/x"}, "b": {"type": ["string", "nul"]}},
    "$defs": {"x": 5},
    "requried": ["a"]
  },
  "outputSchema": {"type": "object", "properties": {"r": {"type": "strin", "maxItem": 1}}}
}
`
	path := writeFile(t, t.TempDir(), "t.json", body)
	tools, err := gen.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []gen.Options{{}, {Package: "p"}} {
		var err error
		if opts.Package == "" {
			err = gen.Validate(tools, opts)
		} else {
			_, err = gen.Generate(tools, opts)
		}
		var got []string
		for _, e := range (gen.ErrorList{err}).Sorted() {
			got = append(got, place(t, e))
		}
		want := []string{
			"t.json:4:5 /parameters/type",
			"t.json:5:73 /parameters/properties/b/type/1",
			"t.json:6:15 /parameters/$defs/x",
			"t.json:7:5 /parameters/requried",
			"t.json:9:59 /outputSchema/properties/r/type",
			"t.json:9:76 /outputSchema/properties/r/maxItem",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("package %q: problems at:\n%s\nwant:\n%s\n(%v)", opts.Package, strings.Join(got, "\n"), strings.Join(want, "\n"), err)
		}
	}
}

// TestDidYouMean: a misspelt name says which known one it is likely meant
// to be, wherever toolgate reads names; a stranger and a known keyword
// toolgate refuses say so instead.
func TestDidYouMean(t *testing.T) {
	const params = `"parameters": {"type": "object", "properties": {"a": %s}}`
	schema := func(s string) string { return `{"name": "t", ` + fmt.Sprintf(params, s) + `}` }
	tests := []struct {
		name, body, want string
	}{
		{"a tool member", `{"name": "t", "paramters": {}}`, `unknown member "paramters"; did you mean "parameters"?`},
		{"a tool list member", `{"tools": [{"name": "t", "parameters": {"type": "object"}}], "nextCursr": ""}`, `unknown member "nextCursr" in a tool list; did you mean "nextCursor"?`},
		{"an x-toolgate member, case only", `{"name": "t", "x-toolgate": {"Sensitive": true}, "parameters": {"type": "object"}}`, `unknown x-toolgate member "Sensitive"; did you mean "sensitive"?`},
		{"a schema's x-toolgate member", schema(`{"type": "string", "x-toolgate": {"goTyp": "X"}}`), `unknown x-toolgate member "goTyp"; did you mean "goType"?`},
		{"a keyword", schema(`{"type": "string", "maxLenght": 2}`), `unknown keyword "maxLenght"; did you mean "maxLength"?`},
		{"a type", schema(`{"type": "strnig"}`), `unknown type "strnig"; did you mean "string"?`},
		{"a stranger", schema(`{"type": "string", "frobnicate": 2}`), `unknown keyword "frobnicate": not a JSON Schema keyword; remove it, or start an extension's name with x-`},
		{"a keyword toolgate refuses", schema(`{"type": "string", "$dynamicAnchor": "a"}`), `keyword "$dynamicAnchor" is not enforced by toolgate`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := gen.LoadAll(writeFile(t, t.TempDir(), "t.json", tt.body))
			var all string
			for _, e := range []error{err, gen.Validate(tools, gen.Options{})} {
				if e != nil {
					all += e.Error() + "\n"
				}
			}
			if !strings.Contains(all, tt.want) {
				t.Errorf("errors:\n%s\nlack %q", all, tt.want)
			}
		})
	}
}
