package gate

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The Registry: the bound tools of a service, and the options of the gate
// in front of them.

// Option configures a Registry.
type Option func(*Registry)

// WithReplayStore sets the store of executed call IDs. The default is
// NewMemoryReplayStore(MemoryReplayConfig{}): up to 1,000 IDs in a scope
// and 100,000 in all, each remembered for 24 hours; when it is full, new
// calls are refused (replay_unavailable) until IDs expire. A service with
// more calls within a day, or more than one replica, needs its own
// (shared) store.
func WithReplayStore(s ReplayStore) Option { return func(r *Registry) { r.replay = s } }

// WithAuditor sets the audit hook, which receives one event per call.
func WithAuditor(a Auditor) Option { return func(r *Registry) { r.audit = a } }

// Registry is a set of bound tools and the gate in front of them. It is
// safe for concurrent use.
type Registry struct {
	tools  map[string]*Tool
	names  []string
	replay ReplayStore
	audit  Auditor
	// now is the registry's clock when a test sets it; nil is the system
	// clock: time.Now for the times kept (approvals), mono for step
	// timings, which need only differences (one clock read, not two).
	now  func() time.Time
	mono func() time.Time
	// quiet is set when the auditor is the no-op one: no event is built
	// and no step is timed.
	quiet bool
	// hook is the auditor as a DispatchHook, nil when it is not one.
	hook DispatchHook
	// pending holds the calls that await approval, each for approvalTTL.
	pending     PendingStore
	approvalTTL time.Duration
}

// NewRegistry builds a registry. Every tool must be bound (policy and
// executor non-nil) and names must be unique; otherwise it returns an error
// naming every offending tool.
func NewRegistry(tools []*Tool, opts ...Option) (*Registry, error) {
	base := time.Now()
	r := &Registry{tools: make(map[string]*Tool, len(tools)), mono: func() time.Time { return base.Add(time.Since(base)) }}
	var errs []error
	for _, t := range tools {
		switch {
		case t == nil:
			errs = append(errs, errors.New("gate: nil tool"))
		case t.typed == nil:
			errs = append(errs, fmt.Errorf("gate: tool %q was not made by Bind or BindTyped", t.Name))
		case t.bindErr != nil:
			errs = append(errs, t.bindErr)
		case r.tools[t.Name] != nil:
			errs = append(errs, fmt.Errorf("gate: tool %q is bound twice", t.Name))
		default:
			r.tools[t.Name] = t.clone()
			r.names = append(r.names, t.Name)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Strings(r.names)
	for _, o := range opts {
		o(r)
	}
	if r.replay == nil {
		r.replay = NewMemoryReplayStore(MemoryReplayConfig{})
	}
	if r.audit == nil {
		r.audit = nopAuditor{}
	}
	_, r.quiet = r.audit.(nopAuditor)
	r.hook, _ = r.audit.(DispatchHook)
	if r.pending == nil {
		r.pending = NewMemoryPendingStore(MemoryPendingConfig{})
	}
	if r.approvalTTL <= 0 {
		r.approvalTTL = DefaultApprovalTTL
	}
	return r, nil
}

// Tools returns the tools p may see, in name order: what to export to the
// model for p. Dispatch enforces the same filter. The tools are copies:
// changing them does not change the registry.
func (r *Registry) Tools(p Principal) []*Tool {
	var out []*Tool
	for _, n := range r.names {
		if t := r.tools[n]; t.VisibleTo(p) {
			out = append(out, t.clone())
		}
	}
	return out
}

// Definitions returns the definitions of the tools p may see for provider
// prov, in name order: what to send to a model on that provider. Dispatch
// enforces the same role filter, and refuses calls in prov's dialect to
// tools without a definition for it. A visible tool that prov cannot carry
// is left out and named in the error (the other definitions are still
// returned).
func (r *Registry) Definitions(p Principal, prov provider.Provider) ([]string, error) {
	var defs []string
	var missing []string
	for _, t := range r.Tools(p) {
		if d, ok := t.Definition(prov); ok {
			defs = append(defs, d.JSON)
		} else {
			missing = append(missing, t.Name)
		}
	}
	if len(missing) > 0 {
		return defs, fmt.Errorf("gate: no %s definition for %s (see the tools' Definitions documentation for why)", prov, strings.Join(missing, ", "))
	}
	return defs, nil
}

// lookup resolves a name byte-exactly among the tools p may see.
func (r *Registry) lookup(p Principal, name string, d Dialect) (*Tool, bool) {
	t, ok := r.tools[name]
	if !ok || !t.VisibleTo(p) || !t.sentIn(d) {
		return nil, false
	}
	return t, true
}

// unknownTool is the refusal for a name that resolves to no visible tool;
// it lists the tools p may call so that the model can choose again.
func (r *Registry) unknownTool(p Principal, call Call) *toolerr.Error {
	var visible []string
	for _, n := range r.names {
		if t := r.tools[n]; t.VisibleTo(p) && t.sentIn(call.Dialect) {
			visible = append(visible, n)
		}
	}
	list := "none"
	if len(visible) > 0 {
		list = strings.Join(visible, ", ")
	}
	return &toolerr.Error{Code: toolerr.UnknownTool, CallID: call.ID, Reason: fmt.Sprintf("there is no tool named %s; the tools you can call are: %s", quoteName(call.Name), list)}
}

// quoteName shows a model-written name safely: quoted, escapes visible, cut
// at 128 characters.
func quoteName(s string) string {
	if utf8.RuneCountInString(s) > 128 {
		s = string([]rune(s)[:128]) + "…"
	}
	return fmt.Sprintf("%+q", s)
}
