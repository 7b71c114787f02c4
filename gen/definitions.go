package gen

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// newProviderTool is what the provider projections start from: the tool's
// name, description, effective schema and other MCP members.
func newProviderTool(t *Tool, effective *jsonval.Value) provider.Tool {
	pt := provider.Tool{Name: t.Name, Description: t.Description, Schema: string(effective.Marshal())}
	if len(t.mcpExtras) > 0 {
		pt.MCP = string((&jsonval.Value{Kind: jsonval.Object, Members: t.mcpExtras}).Marshal())
	}
	return pt
}

// providers returns the providers the tool is exported to: its
// x-toolgate providers, else the package's (Options.Providers), else all.
func (tm *toolModel) providers(opts Options) []provider.Provider {
	switch {
	case len(tm.t.Meta.Providers) > 0:
		return tm.t.Meta.Providers
	case len(opts.Providers) > 0:
		return opts.Providers
	}
	return provider.All
}

// project computes the tool's definition for each provider it is exported
// to. A provider that cannot carry the tool faithfully is a generation
// error: the tool file must say which providers the tool is for.
func (tm *toolModel) project(opts Options) error {
	var errs ErrorList
	for _, p := range tm.providers(opts) {
		def, err := provider.Project(p, tm.projected)
		var refusal *provider.RefusedError
		switch {
		case errors.As(err, &refusal):
			errs = append(errs, &Error{File: tm.t.File, Pointer: tm.t.Pointer + "/" + tm.t.paramsKey + refusal.Pointer, Message: fmt.Sprintf("tool %s cannot be sent to %s: %s; list the providers it is for in x-toolgate.providers (for example [\"mcp\", \"anthropic\"])", tm.t.Name, p, refusal.Reason)})
		case err != nil:
			return err
		default:
			tm.defs = append(tm.defs, def)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// nullAsAbsent reports whether some definition sends optional members as
// required and nullable, so that the decoder needs its null-as-absent mode.
func (tm *toolModel) nullAsAbsent() bool {
	for _, d := range tm.defs {
		if d.NullAsAbsent {
			return true
		}
	}
	return false
}

// emitDefinitions writes the tool's provider definitions and refusals.
func (e *emitter) emitDefinitions() {
	g := e.tm.goName
	e.claim(g+"Definitions", "tool "+e.tm.t.Name)
	var defs []jen.Code
	for _, d := range e.tm.defs {
		fields := []jen.Code{
			field("Provider", jen.Qual(pkgProvider, providerConst(d.Provider))),
			field("JSON", goString(d.JSON)),
		}
		if len(d.Local) > 0 {
			var locals []jen.Code
			for _, l := range d.Local {
				locals = append(locals, jen.Values(field("Pointer", jen.Lit(l.Pointer)), field("Keyword", jen.Lit(l.Keyword)), field("Value", goString(l.Value))))
			}
			fields = append(fields, field("Local", jen.Index().Qual(pkgProvider, "Local").Add(literal(locals))))
		}
		if d.NullAsAbsent {
			fields = append(fields, field("NullAsAbsent", jen.True()))
		}
		defs = append(defs, literal(fields))
	}
	doc := fmt.Sprintf("%sDefinitions are the definitions of the %s tool for each model provider it is exported to, exactly as they are sent, each with the rules its schema cannot carry (enforced by the gate all the same).", g, e.tm.t.Name)
	var missing []string
	for _, p := range provider.All {
		if !slices.ContainsFunc(e.tm.defs, func(d provider.Definition) bool { return d.Provider == p }) {
			missing = append(missing, string(p))
		}
	}
	if len(missing) > 0 {
		doc += "\n\nNot exported to " + strings.Join(missing, ", ") + ": a call in their dialects is unknown_tool."
	}
	e.doc(doc)
	e.f.Var().Id(g+"Definitions").Op("=").Index().Qual(pkgProvider, "Definition").ValuesFunc(func(gr *jen.Group) {
		for _, d := range defs {
			gr.Line().Add(d)
		}
		gr.Line()
	})
	e.f.Line()
}

func providerConst(p provider.Provider) string {
	switch p {
	case provider.OpenAIChat:
		return "OpenAIChat"
	case provider.OpenAIResponses:
		return "OpenAIResponses"
	case provider.Anthropic:
		return "Anthropic"
	case provider.Gemini:
		return "Gemini"
	case provider.GeminiLegacy:
		return "GeminiLegacy"
	}
	return "MCP"
}

// Export returns the definitions of tools for provider p, in tool order, and
// a *provider.RefusedError for each tool p cannot carry. err reports invalid
// tool definitions, as Generate does.
func Export(tools []*Tool, opts Options, p provider.Provider) (defs []provider.Definition, refused []error, err error) {
	var errs ErrorList
	for _, t := range tools {
		tm, err := model(t, Options{OpenObjects: opts.OpenObjects, Providers: []provider.Provider{provider.MCP}})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !slices.Contains(tm.providers(opts), p) {
			refused = append(refused, &provider.RefusedError{Provider: p, Tool: t.Name, Reason: "the tool is not exported to this provider (x-toolgate.providers)"})
			continue
		}
		def, err := provider.Project(p, tm.projected)
		if err != nil {
			refused = append(refused, err)
			continue
		}
		defs = append(defs, def)
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	return defs, refused, nil
}

// field is one "Name: value" of a composite literal.
func field(name string, value jen.Code) jen.Code { return jen.Id(name).Op(":").Add(value) }

// literal is a composite literal's braces with one element a line, in the
// order given (jen.Dict would sort them).
func literal(elems []jen.Code) *jen.Statement {
	return jen.ValuesFunc(func(g *jen.Group) {
		for _, e := range elems {
			g.Line().Add(e)
		}
		g.Line()
	})
}
