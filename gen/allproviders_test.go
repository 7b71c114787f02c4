package gen_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// TestAllProvidersWrittenOut: a tool exported to every provider lists
// them in the generated package itself, as they are at generation time,
// never through the runtime's provider.All, which a newer runtime may
// extend (or a program change) after the code was generated and checked.
// The contract test does use provider.All: against a runtime that knows
// more providers it fails, which is the point.
func TestAllProvidersWrittenOut(t *testing.T) {
	tools, err := gen.Load("../schemas")
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(tools, gen.Options{Package: "tools"})
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	uses := 0
	for _, f := range files {
		if strings.HasSuffix(f.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "tgprovider" && n.Sel.Name == "All" {
					t.Errorf("%s refers to tgprovider.All", f.Name)
				}
			case *ast.ValueSpec:
				if len(n.Names) == 1 && n.Names[0].Name == "allProviders" {
					for _, e := range n.Values[0].(*ast.CompositeLit).Elts {
						declared = append(declared, e.(*ast.SelectorExpr).Sel.Name)
					}
				}
			case *ast.Ident:
				if n.Name == "allProviders" {
					uses++
				}
			}
			return true
		})
		if bytes.Contains(f.Data, []byte("tgprovider.All...")) {
			t.Errorf("%s passes tgprovider.All", f.Name)
		}
	}
	want := make([]string, len(provider.All))
	for i, p := range provider.All {
		want[i] = providerConstName(t, p)
	}
	if !slices.Equal(declared, want) {
		t.Errorf("allProviders lists %v, want %v", declared, want)
	}
	if uses < 2 {
		t.Errorf("allProviders is used %d times, want the declaration and the demo tools' definitions", uses)
	}
}

// providerConstName is the name of p's constant in package provider.
func providerConstName(t *testing.T, p provider.Provider) string {
	t.Helper()
	names := map[provider.Provider]string{
		provider.OpenAIChat: "OpenAIChat", provider.OpenAIResponses: "OpenAIResponses", provider.Anthropic: "Anthropic",
		provider.Gemini: "Gemini", provider.GeminiLegacy: "GeminiLegacy", provider.MCP: "MCP",
	}
	name, ok := names[p]
	if !ok {
		t.Fatalf("no constant name known for provider %s", strconv.Quote(string(p)))
	}
	return name
}
