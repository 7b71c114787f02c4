// Package vet is toolgate's static analyzer: it reports the ways a tool
// call can go around the gate in a service that has one.
//
// Analyzer runs five checks, each named in its diagnostics' category:
//
//   - decode-outside-gate: a value read from a provider SDK's tool-call
//     argument field (openai-go Chat and Responses Arguments,
//     anthropic-sdk-go ToolUseBlock.Input, the MCP go-sdk's and mcp-go's
//     CallToolParams.Arguments, mcp-go's CallToolRequest.GetArguments and
//     GetRawArguments, genai FunctionCall.Args) reaches encoding/json
//     (Unmarshal, NewDecoder) or another JSON library (goccy/go-json,
//     segmentio/encoding, sonic, gjson, jsonparser), is read as a map, or
//     is passed to a generated Decode…Args function outside a registry;
//     or mcp-go decodes it itself (CallToolRequest.BindArguments,
//     RequireString, GetInt, …), or the go-sdk's generic mcp.AddTool does. The value is followed over SSA through
//     assignments, conversions, local variables and their fields, the
//     strings, bytes, io and bufio packages, calls to functions of the same
//     package (arguments and results) and the variables function literals
//     capture.
//   - executor-bypass: a function or method bound as Execute in a
//     gate.Binding or gate.TypedBinding is also called directly from
//     non-test code, in its package or in a package that imports it; a
//     driver that sees every package joins the Results with CrossPackage
//     for the other packages (toolgate vet does).
//   - generated-edited: a tool file carrying toolgate's generated header
//     whose source schema still has the hash the header records, but whose
//     declarations differ from what the generator writes for that schema,
//     with a suggested fix that rewrites the file as generated (for an
//     editor: the -fix of go vet and singlechecker skips generated files).
//   - principal-unread (a warning): a function bound as a Policy never
//     reads its Principal parameter.
//   - identity-from-args (a warning): a bound policy or executor compares
//     an argument member named like an identity (UserID, Tenant, Role,
//     IsAdmin…) with something that does not come from the principal (the
//     Principal parameter, gate.PrincipalFrom, or a variable assigned from
//     them), switches on one, or tests a boolean one. Comparing with ""
//     asks whether it was given and is no finding.
//
// What _test.go files do (decode arguments, bind or call executors) counts
// for none of the checks. A warning is turned off for one line by a comment
// "//toolgate:allow CHECK REASON" on that line or the line above; the
// reason is required.
//
// Run it as `toolgate vet ./...`, as `go vet -vettool=$(which toolgate-vet)
// ./...` (cmd/toolgate-vet), or from golangci-lint as a plugin that returns
// Analyzer.
package vet

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
)

// The checks' names, used as diagnostic categories.
const (
	CheckDecode    = "decode-outside-gate"
	CheckExecutor  = "executor-bypass"
	CheckGenerated = "generated-edited"
	CheckPrincipal = "principal-unread"
	CheckIdentity  = "identity-from-args"
)

// gatePath is the import path of the gate runtime package.
const gatePath = "github.com/toolgate/toolgate/runtime/gate"

// Analyzer reports tool calls that can go around the gate.
var Analyzer = &analysis.Analyzer{
	Name:       "toolgate",
	Doc:        "report tool-call arguments decoded outside the gate, executors called around it, hand-edited generated code and policies that ignore the principal",
	URL:        "https://pkg.go.dev/github.com/toolgate/toolgate/gen/vet",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes:  []analysis.Fact{new(boundExecutor)},
	ResultType: reflect.TypeFor[*Result](),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	checkDecode(pass)
	bindings := findBindings(pass)
	res := checkExecutors(pass, bindings)
	bodies := boundBodies(pass, bindings)
	checkPrincipals(pass, bodies)
	checkIdentities(pass, bodies)
	checkGenerated(pass)
	return res, nil
}
