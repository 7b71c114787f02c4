package gen

import (
	"errors"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// providerTool is what the provider projections start from.
func (tm *toolModel) providerTool() provider.Tool {
	pt := provider.Tool{Name: tm.t.Name, Description: tm.t.Description, Schema: string(tm.effective.Marshal())}
	if len(tm.t.mcpExtras) > 0 {
		pt.MCP = string((&jsonval.Value{Kind: jsonval.Object, Members: tm.t.mcpExtras}).Marshal())
	}
	return pt
}

// project computes the tool's definition for every provider; a provider
// that cannot carry the tool faithfully is recorded in refused, not failed.
func (tm *toolModel) project() error {
	tm.refused = map[provider.Provider]string{}
	for _, p := range provider.All {
		def, err := provider.Project(p, tm.providerTool())
		var refusal *provider.RefusedError
		switch {
		case errors.As(err, &refusal):
			tm.refused[p] = refusal.Error()
		case err != nil:
			return err
		default:
			tm.defs = append(tm.defs, def)
		}
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
		fields := jen.Dict{
			jen.Id("Provider"): jen.Qual(pkgProvider, providerConst(d.Provider)),
			jen.Id("JSON"):     goString(d.JSON),
		}
		if d.NullAsAbsent {
			fields[jen.Id("NullAsAbsent")] = jen.True()
		}
		if len(d.Local) > 0 {
			var locals []jen.Code
			for _, l := range d.Local {
				locals = append(locals, jen.Values(jen.Dict{
					jen.Id("Pointer"): jen.Lit(l.Pointer),
					jen.Id("Keyword"): jen.Lit(l.Keyword),
					jen.Id("Value"):   goString(l.Value),
				}))
			}
			fields[jen.Id("Local")] = jen.Index().Qual(pkgProvider, "Local").ValuesFunc(func(g *jen.Group) {
				for _, l := range locals {
					g.Line().Add(l)
				}
				g.Line()
			})
		}
		defs = append(defs, jen.Values(fields))
	}
	doc := fmt.Sprintf("%sDefinitions are the definitions of the %s tool for each model provider, exactly as they are sent, each with the rules its schema cannot carry (enforced by the gate all the same).", g, e.tm.t.Name)
	for _, p := range provider.All {
		if r, ok := e.tm.refused[p]; ok {
			doc += "\n\nNot for " + string(p) + ": " + r + "."
		}
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
		tm, err := model(t, opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		def, err := provider.Project(p, tm.providerTool())
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
