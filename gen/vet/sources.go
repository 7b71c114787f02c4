package vet

import (
	"go/types"
	"slices"
	"strings"
)

// A source is a provider SDK's struct field that holds a model's tool-call
// arguments as it sent them.
type source struct {
	// module is the SDK's module path without a major version suffix; sub
	// is the package inside it ("" the root, "*" any package of it).
	module, sub string
	// types are the struct types that hold the field; nil means every type
	// of the package whose name does not end in Param (params are what a
	// service sends, not what the model wrote).
	types []string
	field string
	// name is the SDK's name in diagnostics.
	name string
}

var sources = []source{
	{module: "github.com/openai/openai-go", sub: "*", field: "Arguments", name: "openai-go"},
	{module: "github.com/anthropics/anthropic-sdk-go", types: []string{
		"ToolUseBlock", "BetaToolUseBlock", "ContentBlockUnion", "BetaContentBlockUnion",
		"ContentBlockStartEventContentBlockUnion", "BetaRawContentBlockStartEventContentBlockUnion",
	}, field: "Input", name: "anthropic-sdk-go"},
	{module: "github.com/modelcontextprotocol/go-sdk", sub: "mcp", types: []string{"CallToolParams", "CallToolParamsRaw"}, field: "Arguments", name: "MCP go-sdk"},
	{module: "github.com/mark3labs/mcp-go", sub: "mcp", types: []string{"CallToolParams"}, field: "Arguments", name: "mcp-go"},
	{module: "google.golang.org/genai", types: []string{"FunctionCall"}, field: "Args", name: "genai"},
}

// sourceField reports whether field number i of the struct type t (a
// named struct or a pointer to one) is a tool-call argument field, and
// names it for a diagnostic.
func sourceField(t types.Type, i int) (string, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	typeName, path, named := namedOf(t)
	if named == nil {
		return "", false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "", false
	}
	field := st.Field(i).Name()
	for _, s := range sources {
		if field != s.field || !inPackage(path, s.module, s.sub) {
			continue
		}
		if s.types == nil && !strings.HasSuffix(typeName, "Param") || slices.Contains(s.types, typeName) {
			return s.name + " " + typeName + "." + field, true
		}
	}
	return "", false
}

// namedOf returns the name and package path of the named type t is or
// points to, and that type; nil when t is neither (or is predeclared).
func namedOf(t types.Type) (name, path string, named *types.Named) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", "", nil
	}
	return named.Obj().Name(), named.Obj().Pkg().Path(), named
}

// inPackage reports whether path is package sub of module, at any major
// version.
func inPackage(path, module, sub string) bool {
	rest, ok := strings.CutPrefix(path, module)
	if !ok || rest != "" && rest[0] != '/' {
		return false
	}
	rest = strings.TrimPrefix(rest, "/")
	if major, after, _ := strings.Cut(rest, "/"); isMajor(major) {
		rest = after
	}
	return sub == "*" || rest == sub
}

// isMajor reports whether s is a major version suffix: v2, v3, ….
func isMajor(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' {
		return false
	}
	return strings.Trim(s[1:], "0123456789") == ""
}
