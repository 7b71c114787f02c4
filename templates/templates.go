// Package templates holds the text/template sources of the outputs toolgate
// does not build as Go syntax trees: the contract test and the fuzz test
// generated beside the tools. The generator executes them; nothing else
// should.
package templates

import (
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Contract renders toolgate_contract_test.go. Its data is ContractData.
var Contract = template.Must(template.ParseFS(files, "contract_test.go.tmpl"))

// Fuzz renders toolgate_fuzz_test.go. Its data is ContractData, of which it
// uses the header, the package and the tools' Go names.
var Fuzz = template.Must(template.ParseFS(files, "fuzz_test.go.tmpl"))

// ContractData is what the contract test template needs.
type ContractData struct {
	Header  string
	Package string
	Tools   []ContractTool
}

// ContractTool is one tool of the contract test.
type ContractTool struct {
	// GoName is the tool's Go name: its declarations are GoName+"Spec",
	// GoName+"Source" and so on.
	GoName string
	// MCP is the tool's other MCP members as a Go string literal.
	MCP string
	// OpenObjects is the generation option as a Go literal.
	OpenObjects bool
	// Providers is the Go slice literal of the providers the tool is
	// exported to.
	Providers string
}
