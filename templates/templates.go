// Package templates holds the text/template sources of the outputs toolgate
// does not build as Go syntax trees: the contract test and the fuzz test
// generated beside the tools, and the Markdown catalog of the tools. The
// generator executes them; nothing else should.
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
	// Result is set for a tool with a result schema: its contract covers
	// it too (contract.WithResult with GoName+"ResultSpec").
	Result bool
}

// Catalog renders the Markdown catalog of the tools. Its data is
// CatalogData. Every string from a tool file, its file name included, goes
// through text (prose and table cells), span (a code span outside a
// table) or code (a code span in a table cell), which keep it on its line,
// in its cell and inert (see markdown.go).
var Catalog = template.Must(template.New("catalog.md.tmpl").Funcs(template.FuncMap{"text": text, "span": span, "code": code}).ParseFS(files, "catalog.md.tmpl"))

// CatalogData is what the catalog template needs.
type CatalogData struct {
	Tools []CatalogTool
}

// CatalogShared is a definition a tool brings in: its name and where it
// comes from ("defs/common.json#/$defs/Address").
type CatalogShared struct{ Name, From string }

// CatalogTool is one tool of the catalog.
type CatalogTool struct {
	Name, Description, Version, Source string
	// Shared are the definitions the tool brings in from definitions
	// files.
	Shared []CatalogShared
	Roles  []string
	// Destructive, ReadOnly and Idempotent are the tool's behaviour hints
	// (x-toolgate destructive, MCP's annotations).
	Destructive, ReadOnly, Idempotent bool
	Timeout                           string
	// Approval is the tool's x-toolgate approval ("required", "policy" or
	// ""), Approvers the roles that may approve, SelfApproval whether the
	// requester may approve their own call.
	Approval     string
	Approvers    []string
	SelfApproval bool
	Params       []CatalogParam
	// HasResult is set for a tool with a result schema (outputSchema),
	// whose members, at any depth, are Result.
	HasResult bool
	Result    []CatalogParam
	Providers []CatalogProvider
}

// CatalogParam is one parameter, at any depth: Path is "address.line1" or
// "line_items[].sku".
type CatalogParam struct {
	Path, Type, Bounds, Format, Pattern, Enum, Default, Description string
	// Presence is "required", "optional" or "each item" (for Path
	// "tags[]"), and ", nullable" when null is allowed.
	Presence string
	// DefaultInvalid marks a Default its own schema rejects: the
	// generator warned, and no accessor applies it.
	DefaultInvalid bool
}

// CatalogProvider is a provider with the rules its schema cannot express
// (the gate enforces them locally), or, when the tool is not exported to
// it, why (LeftOut).
type CatalogProvider struct {
	Name    string
	Local   []string
	LeftOut string
}
