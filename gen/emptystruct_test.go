package gen_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// emptyStructs returns every struct{} that the generated Go files of a
// package declare as a type or give a field, as "file: type T" or "file:
// type T, field F", except the Args type of a tool in noArgs (tool names),
// whose schema admits only {}. No other Go type may hold less than its
// schema accepts.
func emptyStructs(files []gen.File, noArgs map[string]bool) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") || strings.HasSuffix(f.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		allowed := noArgsTypes(file, noArgs)
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if isEmptyStruct(ts.Type) && !allowed[ts.Name.Name] {
					out = append(out, fmt.Sprintf("%s: type %s", f.Name, ts.Name.Name))
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					ast.Inspect(field.Type, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok && isEmptyStruct(e) {
							out = append(out, fmt.Sprintf("%s: type %s, field %s", f.Name, ts.Name.Name, fieldName(field)))
							return false
						}
						return true
					})
				}
			}
		}
	}
	return out, nil
}

func isEmptyStruct(e ast.Expr) bool {
	st, ok := e.(*ast.StructType)
	return ok && len(st.Fields.List) == 0
}

func fieldName(f *ast.Field) string {
	if len(f.Names) == 0 {
		return "(embedded)"
	}
	return f.Names[0].Name
}

// noArgsTypes maps the Args type of each tool of noArgs that file
// declares to true.
func noArgsTypes(file *ast.File, noArgs map[string]bool) map[string]bool {
	out := map[string]bool{}
	for tool, goName := range toolGoNames(file) {
		if noArgs[tool] {
			out[goName+"Args"] = true
		}
	}
	return out
}

// takesNoArguments reports whether an effective schema admits only the
// empty object: closed, with no member declared and nothing composed.
func takesNoArguments(eff *jsonval.Value) bool {
	for _, m := range eff.Members {
		switch m.Key {
		case "type", "title", "description", "$schema", "$comment", "examples", "default":
		case "properties":
			if len(m.Value.Members) > 0 {
				return false
			}
		case "additionalProperties":
			if m.Value.Kind != jsonval.Bool || m.Value.Bool {
				return false
			}
		default:
			return false
		}
	}
	return eff.Get("additionalProperties") != nil
}

// TestEmptyStructs: struct{} is found as a declared type and in a field's
// type at any depth, except as the Args of a tool without arguments; a
// struct with fields is not.
func TestEmptyStructs(t *testing.T) {
	src := `package p

const (
	NoneToolName = "none"
	SomeToolName = "some"
)

type NoneArgs struct{}

type SomeArgs struct{}

type Filled struct {
	A int
	B tgopt.Optional[struct{}]
	C []map[string]struct{}
	D struct{ X int }
}
`
	for _, tc := range []struct {
		name   string
		noArgs map[string]bool
		want   []string
	}{
		{"both tools take arguments", nil, []string{"a_tool.go: type NoneArgs", "a_tool.go: type SomeArgs", "a_tool.go: type Filled, field B", "a_tool.go: type Filled, field C"}},
		{"none takes none", map[string]bool{"none": true}, []string{"a_tool.go: type SomeArgs", "a_tool.go: type Filled, field B", "a_tool.go: type Filled, field C"}},
	} {
		got, err := emptyStructs([]gen.File{{Name: "a_tool.go", Data: []byte(src)}, {Name: "a_test.go", Data: []byte("package p\n\ntype T struct{}\n")}}, tc.noArgs)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: emptyStructs = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTakesNoArguments: only a closed object with no member declared and
// nothing composed admits only {}.
func TestTakesNoArguments(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   bool
	}{
		{`{"type":"object","additionalProperties":false}`, true},
		{`{"type":"object","properties":{},"additionalProperties":false,"description":"x"}`, true},
		{`{"type":"object"}`, false},
		{`{"type":"object","additionalProperties":true}`, false},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, false},
		{`{"type":"object","properties":{"a":{}},"additionalProperties":false}`, false},
		{`{"type":"object","oneOf":[{"required":["a"]}],"additionalProperties":false}`, false},
	} {
		eff, err := jsonval.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := takesNoArguments(eff); got != tc.want {
			t.Errorf("takesNoArguments(%s) = %v, want %v", tc.schema, got, tc.want)
		}
	}
}
