package gen_test

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// toolGoNames maps the name of each tool a generated file declares
// (const <Go name>ToolName = "<tool>") to its Go name, the prefix of its
// generated identifiers (<Go name>Args, Decode<Go name>Args, <Go
// name>Schema).
func toolGoNames(file *ast.File) map[string]string {
	out := map[string]string{}
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				goName, ok := strings.CutSuffix(name.Name, "ToolName")
				if !ok || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				if tool, err := strconv.Unquote(lit.Value); err == nil {
					out[tool] = goName
				}
			}
		}
	}
	return out
}
