package gen

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
)

// newProviderTool is what the provider projections start from: the tool's
// name, description, effective schema and other MCP members, the
// outputSchema among them as its effective schema (what the gate checks
// results against).
func newProviderTool(t *Tool, effective *jsonval.Value, open bool) provider.Tool {
	pt := provider.Tool{Name: t.Name, Description: t.Description, Schema: string(effective.Marshal()), Destructive: t.Meta.Destructive}
	if len(t.mcpExtras) > 0 {
		extras := make([]jsonval.Member, len(t.mcpExtras))
		for i, m := range t.mcpExtras {
			if m.Key == "outputSchema" {
				m.Value = schema.Effective(m.Value, open)
			}
			extras[i] = m
		}
		pt.MCP = string((&jsonval.Value{Kind: jsonval.Object, Members: extras}).Marshal())
	}
	return pt
}

// Notice says that a tool is not exported to a provider, and why. With no
// providers chosen (neither Options.Providers nor the tool's x-toolgate
// providers), a tool goes to every provider that can carry it faithfully,
// and each one left out is a notice, not an error.
type Notice struct {
	// File and Pointer locate what the provider cannot carry (the tool, or
	// the schema inside it).
	File, Pointer string
	Tool          string
	Provider      provider.Provider
	Reason        string
}

func (n Notice) String() string {
	loc := n.File
	if n.Pointer != "" {
		loc += "#" + n.Pointer
	}
	return fmt.Sprintf("%s: tool %s is not exported to %s: %s", loc, n.Tool, n.Provider, n.Reason)
}

// chosen returns the providers chosen for the tool: its x-toolgate
// providers, else the package's (Options.Providers); nil when none were
// chosen, and the tool goes to every provider that can carry it.
func (tm *toolModel) chosen(opts Options) []provider.Provider {
	switch {
	case len(tm.t.Meta.Providers) > 0:
		return tm.t.Meta.Providers
	case len(opts.Providers) > 0:
		return opts.Providers
	}
	return nil
}

// chosenBy names where the providers of the tool were chosen.
func (tm *toolModel) chosenBy() string {
	if len(tm.t.Meta.Providers) > 0 {
		return "x-toolgate.providers"
	}
	return "the providers option (--providers)"
}

// exported returns the providers the tool is exported to, in the order
// chosen (provider.All without a choice).
func (tm *toolModel) exported() []provider.Provider {
	out := make([]provider.Provider, len(tm.defs))
	for i, d := range tm.defs {
		out[i] = d.Provider
	}
	return out
}

// refusedError is the generation error for a chosen provider that cannot
// carry the tool.
func (tm *toolModel) refusedError(r *provider.RefusedError) error {
	return &Error{File: tm.t.File, Pointer: tm.refusedAt(r), Provider: r.Provider, Message: fmt.Sprintf("tool %s cannot be sent to %s: %s; %s lists %s, so leave it out there (or list no providers: the tool then goes to every provider that can carry it)", tm.t.Name, r.Provider, r.Reason, tm.chosenBy(), r.Provider)}
}

// refusedAt is the pointer, in the tool file, to what r refuses: the name,
// or a schema inside the parameters.
func (tm *toolModel) refusedAt(r *provider.RefusedError) string {
	if r.Name {
		return tm.t.Pointer + "/name"
	}
	return tm.t.Pointer + "/" + tm.t.paramsKey + r.Pointer
}

// notice is the notice for a provider, not chosen, that cannot carry the
// tool.
func (tm *toolModel) notice(r *provider.RefusedError) Notice {
	return Notice{File: tm.t.File, Pointer: tm.refusedAt(r), Tool: tm.t.Name, Provider: r.Provider, Reason: r.Reason}
}

// project computes the tool's definition for each provider it is exported
// to. Among chosen providers, one that cannot carry the tool faithfully is
// a generation error; without a choice, it is left out with a notice.
func (tm *toolModel) project(opts Options) error {
	chosen := tm.chosen(opts)
	ps := chosen
	if ps == nil {
		ps = provider.All
	}
	var errs ErrorList
	for _, p := range ps {
		def, err := tm.projectFor(p)
		var refusal *provider.RefusedError
		switch {
		case errors.As(err, &refusal) && chosen != nil:
			errs = append(errs, tm.refusedError(refusal))
		case errors.As(err, &refusal):
			tm.leftOut = append(tm.leftOut, tm.notice(refusal))
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

// emitDefinitions writes the tool's provider definitions, derived when the
// package initializes from the embedded effective schema (what the
// generator projected, byte for byte: the contract test compares), and the
// providers it is left out of.
func (e *emitter) emitDefinitions() {
	g := e.tm.goName
	e.claim(g+"Definitions", "tool "+e.tm.t.Name)
	tool := []jen.Code{
		field("Name", jen.Id(g+"ToolName")),
		field("Description", jen.Id(g+"Description")),
		field("Schema", jen.Id(g+"Schema")),
	}
	if e.tm.projected.MCP != "" {
		tool = append(tool, field("MCP", goString(e.tm.projected.MCP)))
	}
	if e.tm.projected.Destructive {
		tool = append(tool, field("Destructive", jen.True()))
	}
	args := []jen.Code{jen.Qual(pkgProvider, "Tool").Add(literal(tool))}
	if slices.Equal(e.tm.exported(), provider.All) {
		args = append(args, jen.Id(allProviders).Op("..."))
	} else {
		for _, p := range e.tm.exported() {
			args = append(args, jen.Qual(pkgProvider, providerConst(p)))
		}
	}
	doc := fmt.Sprintf("%sDefinitions are the %s tool's definitions for each provider it is exported to, as sent, with the rules each cannot carry (the gate enforces them).", g, e.tm.t.Name)
	var chosenOut []string
	for _, p := range provider.All {
		if !slices.Contains(e.tm.exported(), p) && !slices.ContainsFunc(e.tm.leftOut, func(n Notice) bool { return n.Provider == p }) {
			chosenOut = append(chosenOut, string(p))
		}
	}
	for _, n := range e.tm.leftOut {
		doc += fmt.Sprintf("\n\nNot exported to %s, which cannot carry it faithfully: %s.", n.Provider, n.Reason)
	}
	if len(chosenOut) > 0 {
		doc += fmt.Sprintf("\n\nNot exported to %s: %s leaves them out.", strings.Join(chosenOut, ", "), e.tm.chosenBy())
	}
	if len(e.tm.defs) < len(provider.All) {
		doc += "\n\nA call in the dialect of a provider the tool is not exported to is unknown_tool."
	}
	if len(e.tm.defs) > 0 && len(e.tm.defs[0].Unenforced) > 0 {
		var notes []string
		for _, l := range e.tm.defs[0].Unenforced {
			notes = append(notes, l.String())
		}
		doc += fmt.Sprintf("\n\nAnnotations the gate does not enforce (Definition.Unenforced): %s.", strings.Join(notes, "; "))
	}
	e.doc(doc)
	e.f.Var().Id(g+"Definitions").Op("=").Qual(pkgProvider, "MustDefinitions").CallFunc(func(gr *jen.Group) {
		for _, a := range args {
			gr.Line().Add(a)
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

// Export returns the definitions of tools for provider p, in tool order,
// and a notice for each tool not exported to p: left out of the providers
// chosen for it, or, with none chosen, one p cannot carry faithfully. err
// reports invalid tool definitions, as Generate does, and a tool p cannot
// carry although p was chosen for it. It analyses tools under opts
// (Analyze) and exports the Set.
func Export(tools []*Tool, opts Options, p provider.Provider) (defs []provider.Definition, leftOut []Notice, err error) {
	return Analyze(tools, opts).Export(p)
}

// Export returns the definitions of the Set's tools for provider p, in
// tool order, and a notice for each tool not exported to p, as the
// function Export does.
func (s *Set) Export(p provider.Provider) (defs []provider.Definition, leftOut []Notice, err error) {
	var errs ErrorList
	for _, t := range s.tools {
		tm, err := s.exportModel(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		def, notice, refused, err := tm.export(s.opts, p, true)
		switch {
		case err != nil:
			return nil, nil, err
		case refused != nil:
			errs = append(errs, refused)
		case notice != nil:
			leftOut = append(leftOut, *notice)
		default:
			defs = append(defs, *def)
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs.placed()
	}
	return defs, leftOut, nil
}

// Assessment is what Export decides for one tool and one provider, without
// marshalling: the definition's rules left local and NullAsAbsent (its
// JSON is empty), or the notice why the tool is left out.
type Assessment struct {
	Provider   provider.Provider
	Definition *provider.Definition
	LeftOut    *Notice
}

// AssessEach decides, for each provider of ps in turn, what Export would
// answer for the one tool t, analysed under opts, marshalling no
// definition (the providers that take the tool, the rules left local and
// the notices need no JSON; Export gives it): err is the error Export
// would return for the first provider it reports one for.
func AssessEach(t *Tool, opts Options, ps []provider.Provider) ([]Assessment, error) {
	return Analyze([]*Tool{t}, opts).AssessEach(t, ps)
}

// AssessEach is the function AssessEach for t, one of the Set's tools,
// read from the Set's analysis.
func (s *Set) AssessEach(t *Tool, ps []provider.Provider) ([]Assessment, error) {
	tm, err := s.exportModel(t)
	if err != nil {
		return nil, ErrorList{err}.placed()
	}
	out := make([]Assessment, 0, len(ps))
	for _, p := range ps {
		def, notice, refused, err := tm.export(s.opts, p, false)
		switch {
		case err != nil:
			return nil, err
		case refused != nil:
			return nil, ErrorList{refused}.placed()
		}
		out = append(out, Assessment{Provider: p, Definition: def, LeftOut: notice})
	}
	return out, nil
}

// export projects the modelled tool for p: its definition (with its JSON
// when withJSON is set), or a notice when it is left out; refused is the
// error of a tool p cannot carry although p was chosen for it, err any
// other failure.
func (tm *toolModel) export(opts Options, p provider.Provider, withJSON bool) (def *provider.Definition, notice *Notice, refused, err error) {
	chosen := tm.chosen(opts)
	if chosen != nil && !slices.Contains(chosen, p) {
		return nil, &Notice{File: tm.t.File, Pointer: tm.t.Pointer, Tool: tm.t.Name, Provider: p, Reason: tm.chosenBy() + " leaves it out"}, nil, nil
	}
	var d provider.Definition
	if withJSON {
		d, err = tm.projectParsed(p, true) // projectFor's answer, marshalled
	} else {
		d, err = tm.projectFor(p)
	}
	var refusal *provider.RefusedError
	switch {
	case errors.As(err, &refusal) && chosen != nil:
		return nil, nil, tm.refusedError(refusal), nil
	case errors.As(err, &refusal):
		n := tm.notice(refusal)
		return nil, &n, nil, nil
	case err != nil:
		return nil, nil, nil, err
	}
	return &d, nil, nil, nil
}

// projectFor is provider.Assess(p, tm.projected): Project without the
// definition's JSON, computed once per provider (Analyze). Each caller
// gets its own Local slice.
func (tm *toolModel) projectFor(p provider.Provider) (provider.Definition, error) {
	def, err := tm.projections[p]()
	def.Local = slices.Clone(def.Local)
	return def, err
}

// projectParsed is provider.ProjectParsed (withJSON) or provider.Assess
// from the schema parsed once.
func (tm *toolModel) projectParsed(p provider.Provider, withJSON bool) (provider.Definition, error) {
	schema, err := tm.schema()
	if err != nil {
		return provider.Definition{}, err
	}
	if withJSON {
		return provider.ProjectParsed(p, tm.projected, schema)
	}
	return provider.Assess(p, tm.projected, schema)
}

// setEffective sets the projected tool of the effective schema eff, which
// its Schema is the JSON of; the projections start from eff itself, not
// from that JSON parsed again (the projections change neither).
func (tm *toolModel) setEffective(t *Tool, eff *jsonval.Value, open bool) {
	tm.projected = newProviderTool(t, eff, open)
	tm.schema = func() (*jsonval.Value, error) { return eff, nil }
}

// releaseSchema lets go of the effective schema the projections start
// from (Generate, once it has projected the tool, before it emits): a
// projection asked for later parses its JSON again, once.
func (tm *toolModel) releaseSchema() {
	pt := tm.projected
	tm.schema = sync.OnceValues(func() (*jsonval.Value, error) { return provider.ParseSchema(pt) })
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

// allProviders names the package variable that lists every provider, for
// the tools exported to all of them.
const allProviders = "allProviders"

// emitAllProviders declares allProviders when a tool is exported to every
// provider: the runtime's list as it is when the code is generated, written
// out, so that a runtime that knows more providers, or code that changes
// provider.All, does not export a tool to a provider it was not generated
// and checked for.
func emitAllProviders(f *jen.File, models []*toolModel) {
	if !slices.ContainsFunc(models, func(tm *toolModel) bool { return slices.Equal(tm.exported(), provider.All) }) {
		return
	}
	list := make([]jen.Code, len(provider.All))
	for i, p := range provider.All {
		list[i] = jen.Qual(pkgProvider, providerConst(p))
	}
	f.Line()
	f.Comment("allProviders lists every provider as of the generation of this package: a tool exported to all of them is sent to these.")
	f.Var().Id(allProviders).Op("=").Index().Qual(pkgProvider, "Provider").Values(list...)
}
