package gen

import (
	"cmp"
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/gen/internal/workers"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Set is the analysis of a list of tools under one Options: each tool
// checked and modelled once, and projected for every provider, so that
// every command of a run (generate, check, lint, export, the catalog,
// diff) reads the same analysis instead of computing it again, as sqlc's
// compiler hands one catalog to every generator. Its readers (Err, Export,
// AssessEach, Warnings, Schema) may run at the same time; Generate, which
// uses up the models it emits from, runs once and alone.
type Set struct {
	opts  Options
	tools []*Tool
	// analyses are the tools', in tools order; byTool finds one.
	analyses []*analysis
	byTool   map[*Tool]*analysis
	// generated is set by Generate, which uses up the models' nodes.
	generated bool
}

// analysis is one tool's: its model and what its projections answer.
type analysis struct {
	tm *toolModel
	// err is the check's and the builder's problems; tm is nil then.
	err error
	// refused is project's error under the Set's options: a chosen provider
	// that cannot carry the tool (what Generate reports).
	refused error
}

// Analyze checks and models each tool of tools under opts, in parallel,
// and projects each modelled tool for every provider. It never fails: the
// problems are in the Set, which each reader reports as the entry point of
// the same name did.
func Analyze(tools []*Tool, opts Options) *Set {
	s := &Set{opts: opts, tools: tools, byTool: make(map[*Tool]*analysis, len(tools))}
	s.analyses, _ = workers.Map(len(tools), func(i int) (*analysis, error) { return analyze(tools[i], opts), nil })
	for i, a := range s.analyses {
		s.byTool[tools[i]] = a
	}
	return s
}

// analyze models t and projects it for every provider.
func analyze(t *Tool, opts Options) *analysis {
	a := &analysis{}
	tm, err := model(t, opts)
	if err != nil {
		a.err = err
		return a
	}
	a.tm = tm
	if opts.ValueRoots {
		return a
	}
	tm.projections = make(map[provider.Provider]projection, len(provider.All))
	for _, p := range provider.All {
		def, err := tm.projectParsed(p, false)
		tm.projections[p] = projection{def, err}
	}
	// The projections are done: a definition's JSON, asked for later
	// (Export), starts from the effective schema parsed again.
	tm.releaseSchema()
	a.refused = tm.project(opts)
	return a
}

// Options are the options the Set was analysed under.
func (s *Set) Options() Options { return s.opts }

// Tools are the tools the Set was analysed from, in the order given.
func (s *Set) Tools() []*Tool { return s.tools }

// models returns the modelled tools Generate emits, in tool order, and
// every problem found, also in tool order: the tools' own, and what spans
// tools (their file names), so that neither depends on the scheduling.
func (s *Set) models() ([]*toolModel, ErrorList) {
	var errs ErrorList
	files := map[string]string{}
	var models []*toolModel
	for _, a := range s.analyses {
		if a.err != nil || a.refused != nil {
			errs = append(errs, cmp.Or(a.err, a.refused))
			continue
		}
		tm := a.tm
		if prev, dup := files[tm.fileName]; dup {
			errs = append(errs, &Error{File: tm.t.File, Pointer: tm.t.Pointer, Message: fmt.Sprintf("tools %s and %s (Go name %s) would both be written to %s; set x-toolgate goName on one of them", prev, strconv.Quote(tm.t.Name), tm.goName, tm.fileName)})
			continue
		}
		files[tm.fileName] = fmt.Sprintf("%q (Go name %s)", tm.t.Name, tm.goName)
		models = append(models, tm)
	}
	return models, errs
}

// Err returns every problem Generate would find before it writes code (an
// ErrorList, placed and sorted), or nil: what Validate returns.
func (s *Set) Err() error {
	if _, errs := s.models(); len(errs) > 0 {
		return errs.placed()
	}
	return nil
}

// analysisOf returns t's analysis; t must be one of the Set's tools.
func (s *Set) analysisOf(t *Tool) (*analysis, error) {
	a := s.byTool[t]
	if a == nil {
		return nil, fmt.Errorf("tool %s is not in the analysed set", strconv.Quote(t.Name))
	}
	return a, nil
}

// exportModel is t's model as Export reads it: the tool's definition
// checked and projected for the providers its x-toolgate providers choose
// (for MCP without a choice), whatever the Set's options choose; the
// export step then decides each provider from the projections. It is the
// caller's copy: the schema a definition's JSON is marshalled from is
// parsed for it, and let go with it.
func (s *Set) exportModel(t *Tool) (*toolModel, error) {
	if s.opts.ValueRoots {
		return nil, fmt.Errorf("tool %s: a set analysed with ValueRoots is only generated: it is not projected for the providers", strconv.Quote(t.Name))
	}
	a, err := s.analysisOf(t)
	if err != nil {
		return nil, err
	}
	if a.err != nil {
		return nil, a.err
	}
	tm := *a.tm
	tm.defs, tm.leftOut = nil, nil
	tm.setProjected(tm.projected)
	if err := tm.project(Options{OpenObjects: s.opts.OpenObjects, Providers: []provider.Provider{provider.MCP}}); err != nil {
		return nil, err
	}
	return &tm, nil
}

// Schema returns what generated code records about t: its effective schema
// (<Tool>Schema: the canonical parameters with every implied closure
// written out and no x- members) and its schema version (<Tool>Spec.Version:
// x-toolgate version, else a content hash). err is an invalid definition,
// as Generate reports it. Provider fit is not checked here.
func (s *Set) Schema(t *Tool) (effective *jsonval.Value, version string, err error) {
	tm, err := s.exportModel(t)
	if err != nil {
		return nil, "", located(err)
	}
	effective, err = jsonval.Parse([]byte(tm.projected.Schema))
	if err != nil {
		return nil, "", err
	}
	return effective, tm.version(), nil
}
