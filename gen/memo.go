package gen

import (
	"slices"
	"sync"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// toolMemo keeps, for one tool, what Export and AssessEach need and what
// Generate has already computed, so that a process that generates and then
// lints (toolgate generate and check) checks and projects each tool once:
// the projected tool of a successful model, per object semantics, and each
// provider's projection of it. Both depend only on the tool's definition;
// a memo is dropped when the tool's exported fields no longer hold what it
// was computed from.
type toolMemo struct {
	mu sync.Mutex
	// from is the definition the memo was computed from.
	from memoKey
	// exports are the modelled tools Export starts from, per OpenObjects:
	// only the tool and its projection are set.
	exports map[bool]*toolModel
	// projections are provider.Assess's answers (Project's without the
	// JSON), per OpenObjects and provider.
	projections map[projectionKey]projection
}

// memoKey is what a tool's projection depends on besides the files it was
// parsed from (which do not change: params, output and mcpExtras are
// unexported and set once by Load).
type memoKey struct {
	name, description string
	meta              Meta
}

func (k memoKey) equal(o memoKey) bool {
	a, b := k.meta, o.meta
	return k.name == o.name && k.description == o.description &&
		a.GoName == b.GoName && a.Version == b.Version && a.Sensitive == b.Sensitive &&
		a.Destructive == b.Destructive && a.ReadOnly == b.ReadOnly && a.Idempotent == b.Idempotent && a.Timeout == b.Timeout && a.Approval == b.Approval &&
		a.SelfApproval == b.SelfApproval && slices.Equal(a.Roles, b.Roles) &&
		slices.Equal(a.Providers, b.Providers) && slices.Equal(a.Approvers, b.Approvers)
}

type projectionKey struct {
	open bool
	p    provider.Provider
}

type projection struct {
	def provider.Definition
	err error
}

// memo returns t's memo, locked, emptied first when t's definition changed
// since it was filled; the caller unlocks it. A tool Load did not return
// has none (nil).
func (t *Tool) memo() *toolMemo {
	m := t.memoed
	if m == nil {
		return nil
	}
	m.mu.Lock()
	key := memoKey{name: t.Name, description: t.Description, meta: t.Meta}
	if m.exports == nil || !m.from.equal(key) {
		m.from = key
		m.exports = map[bool]*toolModel{}
		m.projections = map[projectionKey]projection{}
	}
	return m
}

// rememberExport records tm, modelled with opts, as the start of Export's
// model of its tool when opts model the tool as Export does (the providers
// aside, which only the projection step reads).
func rememberExport(tm *toolModel, opts Options) {
	if opts.ValueRoots || opts.FormatAnnotation {
		return
	}
	m := tm.t.memo()
	if m == nil {
		return
	}
	defer m.mu.Unlock()
	m.exports[opts.OpenObjects] = &toolModel{t: tm.t, open: tm.open, projected: tm.projected, goName: tm.goName, fileName: tm.fileName, warnings: tm.warnings}
}

// setProjected sets the projected tool, and its schema parsed when first
// needed. The memo keeps only the JSON: a tool taken from it parses again.
func (tm *toolModel) setProjected(pt provider.Tool) {
	tm.projected = pt
	tm.schema = sync.OnceValues(func() (*jsonval.Value, error) { return provider.ParseSchema(pt) })
}

// setEffective sets the projected tool of the effective schema eff, which
// its Schema is the JSON of; the projections start from eff itself, not
// from that JSON parsed again (the projections change neither). Once they
// are done (projected), eff is let go.
func (tm *toolModel) setEffective(t *Tool, eff *jsonval.Value, open bool) {
	tm.projected = newProviderTool(t, eff, open)
	tm.schema = func() (*jsonval.Value, error) { return eff, nil }
}

// releaseSchema lets go of the schema the projections started from, once
// they are done: a projection asked for later (and not memoized) parses
// the JSON again.
func (tm *toolModel) releaseSchema() {
	tm.setProjected(tm.projected)
}

// rememberedExport is the model rememberExport recorded for the object
// semantics open, or nil.
func rememberedExport(t *Tool, open bool) *toolModel {
	m := t.memo()
	if m == nil {
		return nil
	}
	defer m.mu.Unlock()
	return m.exports[open]
}

// projectFor is provider.Assess(p, tm.projected): Project without the
// definition's JSON, computed once per tool, object semantics (tm.open) and
// provider. Each caller gets its own Local slice.
func (tm *toolModel) projectFor(p provider.Provider) (provider.Definition, error) {
	key := projectionKey{tm.open, p}
	if m := tm.t.memo(); m != nil {
		got, ok := m.projections[key]
		m.mu.Unlock()
		if ok {
			got.def.Local = slices.Clone(got.def.Local)
			return got.def, got.err
		}
	}
	def, err := tm.projectParsed(p, false)
	if m := tm.t.memo(); m != nil {
		m.projections[key] = projection{def, err}
		m.mu.Unlock()
		def.Local = slices.Clone(def.Local)
	}
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
