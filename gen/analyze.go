package gen

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/toolgate/toolgate/gen/internal/workers"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Set is the analysis of a list of tools under one Options: each tool
// checked and modelled once, and projected for each provider at most once,
// when a reader first needs it, so that
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
}

// Analyze checks and models each tool of tools under opts, in parallel. It
// never fails: the
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

// analyze models t, with its projection for each provider computed once,
// when first asked for.
func analyze(t *Tool, opts Options) *analysis {
	tm, err := model(t, opts)
	if err != nil {
		return &analysis{err: t.relocate(err)}
	}
	if opts.Package == "" && len(t.bundled) == 0 {
		// A Set without a package is never generated (Generate refuses
		// it): no reader needs the nodes, but Err's check of the shared
		// definitions' Go names (sharedCollisions).
		tm.letGoNodes()
	}
	if !opts.ValueRoots {
		tm.projections = make(map[provider.Provider]func() (provider.Definition, error), len(provider.All))
		for _, p := range provider.All {
			tm.projections[p] = sync.OnceValues(func() (provider.Definition, error) { return tm.projectParsed(p, false) })
		}
	}
	return &analysis{tm: tm}
}

// Options are the options the Set was analysed under.
func (s *Set) Options() Options { return s.opts }

// Tools are the tools the Set was analysed from, in the order given.
func (s *Set) Tools() []*Tool { return s.tools }

// models returns the modelled tools Generate emits, in tool order, each
// projected for the providers it is exported to, and every problem found,
// also in tool order: the tools' own (a chosen provider that cannot carry
// the tool among them), and what spans tools (their file names), so that
// neither depends on the scheduling. For Generate (generating), which runs
// alone, the models are the Set's own; for Err, copies.
func (s *Set) models(generating bool) ([]*toolModel, ErrorList) {
	var errs ErrorList
	files := map[string]string{}
	var models []*toolModel
	seen := map[string]bool{}
	for _, a := range s.analyses {
		if a.err != nil {
			// A problem of a shared definition is its file's, once.
			errs = append(errs, once(a.err, seen)...)
			continue
		}
		tm := a.tm
		if !generating {
			c := *tm
			tm = &c
		}
		if !s.opts.ValueRoots {
			tm.defs, tm.leftOut = nil, nil
			if err := tm.project(s.opts); err != nil {
				errs = append(errs, err)
				continue
			}
		}
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
	models, errs := s.models(false)
	if len(errs) > 0 {
		return errs.placed()
	}
	sort.Slice(models, func(i, j int) bool { return models[i].t.Name < models[j].t.Name })
	if errs := sharedCollisions(models); len(errs) > 0 {
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
// caller's copy.
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
