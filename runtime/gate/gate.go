// Package gate runs tool calls proposed by a model, and runs nothing else.
//
// A Registry holds every tool of a service, each bound to four things: its
// exact name, its schema (a generated strict decoder), an authorization
// policy and an executor. Dispatch takes the trusted caller (supplied by the
// service, never by the model) and a normalized Call, and in order:
//
//  1. resolves the name by byte-exact lookup among the tools the caller's
//     roles may see (a hidden tool looks exactly like a missing one);
//  2. refuses an incomplete call (streaming unfinished, cut by a token
//     limit);
//  3. claims the call ID in the caller's scope, the replay store's one
//     round trip per call, and refuses an ID already claimed
//     (duplicate_call, before the arguments are read: a replay with bad
//     arguments is a replay). A call refused by a later step releases its
//     claim, so that it can run once corrected. A call without an ID is
//     not replay-checked: a provider adapter that can have no ID must
//     dedupe by other means; see ReplayStore for how long an ID is
//     remembered. The store fails closed: when it is full or fails, the
//     call is refused (replay_unavailable) and nothing runs;
//  4. decodes the arguments once with the tool's generated decoder (its
//     null-as-absent variant for calls in the OpenAI dialects, whose strict
//     mode sends null for an absent optional member);
//  5. runs the tool's policy with a copy of the principal and the typed
//     arguments, and, for a tool with an Approval, decides whether the call
//     waits for a person's approval: then it is stored as a pending call
//     and answered approval_required instead of running (see Approval,
//     Registry.Approve and Registry.Resume);
//  6. runs the executor under the context, with the tool's timeout —
//     unless the context is already done when the executor's turn comes:
//     the call is then reported as timeout (the context's deadline passed)
//     or execution_failed (it was cancelled), with Executed false, and its
//     ID's claim is released, so that a retry can run it;
//  7. for a tool bound with BindTyped (it declares a result schema),
//     checks the executor's result against it before returning it
//     (invalid_result otherwise; see BindTyped).
//
// The executor runs in a goroutine of its own (or in the dispatching one
// when the context can never end and the tool has no timeout: there is
// then no point at which to stop waiting), and the gate takes its outcome
// only while the context and the tool's timeout are live. When either
// ends first, the gate answers at once, without waiting for the executor:
// timeout for the tool's timeout or the context's deadline,
// execution_failed for a cancelled context, with Executed true. The call's
// ID stays claimed, since the executor may have taken effect; its own
// outcome goes to the auditor, when it returns, as a second event of the
// call with Event.Late set.
//
// What the gate decided cannot be changed by the code it calls: the
// principal is copied before any of that code sees it (a batch's when
// DispatchBatch starts; a single call's before its policy runs, or when
// Dispatch starts for an auditor with a DispatchHook), and each policy,
// NeedsApproval and executor gets its own copy (see PrincipalFrom), so a
// policy that appends a role changes nothing for the later calls of its
// batch.
//
// A panic in a decoder, policy or executor does not escape the gate: it is
// an execution_failed error (before the executor, nothing has run). Nor
// does a panic in the replay store (replay_unavailable: the call is
// refused, nothing runs) or in the auditor (the event is lost; the result
// stands).
//
// Every step can stop the call, always with a *toolerr.Error carrying a
// stable code, and never after a side effect: the executor is the only step
// with one, and it runs last. A batch (DispatchBatch) resolves, decodes and
// authorizes every call before the first executor starts; if any call is
// refused, or awaits approval, none runs.
//
// Generated packages declare a Spec per tool and a Bindings struct with a
// NewRegistry constructor, so binding is typed:
//
//	reg, err := tools.NewRegistry(tools.Bindings{
//		RefundOrder: gate.Binding[tools.RefundOrderArgs]{
//			Policy:  func(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error { ... },
//			Execute: func(ctx context.Context, a tools.RefundOrderArgs) (any, error) { ... },
//		},
//	}, gate.WithAuditor(gate.SlogAuditor(logger)))
//	res, err := reg.Dispatch(ctx, gate.Caller{Principal: p, Scope: conversationID}, call)
package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Principal is who a call acts for. The service fills it from its own
// authentication; nothing in it ever comes from the model. Tenant keeps
// tenants apart where the gate keeps state for a principal: an approver
// sees and decides only the pending calls of its own tenant.
type Principal struct {
	ID     string
	Tenant string
	Roles  []string
}

// clone returns a copy of p that shares nothing mutable with it.
func (p Principal) clone() Principal {
	p.Roles = slices.Clone(p.Roles)
	return p
}

// cloneFrom is clone with the roles copied into the front of spare when it
// has room (so that one allocation holds several copies); it returns the
// rest of spare. The copy's capacity is its length, so that an append to
// it cannot reach the copies after it.
func (p Principal) cloneFrom(spare []string) (Principal, []string) {
	n := len(p.Roles)
	if p.Roles == nil || n > len(spare) {
		return p.clone(), spare
	}
	p.Roles = spare[:copy(spare[:n:n], p.Roles):n]
	return p, spare[n:]
}

// principalKey is the context key of the principal an executor runs for.
type principalKey struct{}

// PrincipalFrom returns the principal of the call whose executor was given
// ctx. It is a fresh copy on every call: changing it changes nothing for
// the gate.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	if !ok {
		return Principal{}, false
	}
	return p.clone(), true
}

// Dialect names the provider wire format a call came from. Provider
// adapters set it; the gate uses it where a provider's projection of the
// schema changes meaning.
type Dialect string

// The dialects.
const (
	Plain           Dialect = ""
	OpenAIChat      Dialect = "openai-chat"
	OpenAIResponses Dialect = "openai-responses"
	Anthropic       Dialect = "anthropic"
	Gemini          Dialect = "gemini"
	MCP             Dialect = "mcp"
)

// Call is one tool call proposed by a model, normalized from a provider's
// envelope.
type Call struct {
	// ID is the provider's call ID (unique within a scope). A call with an
	// empty ID is not replay-checked: nothing stops it from running again.
	ID string
	// Name is the tool name exactly as the model wrote it.
	Name string
	// Args are the argument bytes exactly as received.
	Args []byte
	// Complete is false while a streamed call is unfinished, or when the
	// response was cut by a token limit.
	Complete bool
	// Dialect is the provider format the call came from.
	Dialect Dialect
}

// Caller is the trusted context of a dispatch.
type Caller struct {
	Principal Principal
	// Scope keys the replay store: the conversation or session the calls
	// belong to. A call ID runs at most once per scope.
	Scope string
	// RequestID is passed to the audit events.
	RequestID string
	// Model identifies the model that proposed the calls, when the service
	// knows it; it is passed to the audit events.
	Model string
}

// Policy decides whether principal p may run a tool with args. A non-nil
// error denies the call (unauthorized); the error is kept for the
// service's logs and not shown to the model. p is the policy's own copy.
type Policy[A any] func(ctx context.Context, p Principal, args A) error

// Executor runs a tool. Its result is returned to the service as it is.
// An error is execution_failed, or conflict when it is (or wraps) one
// made by Conflict. PrincipalFrom(ctx) returns the caller's principal. An
// executor should return when ctx is done: the gate does not wait for it
// then (see the package documentation).
type Executor[A any] func(ctx context.Context, args A) (any, error)

// Binding is what a service supplies for one tool.
type Binding[A any] struct {
	Policy  Policy[A]
	Execute Executor[A]
	// NeedsApproval decides, per call, whether it waits for a person's
	// approval; it is required for a tool whose spec says ApprovalPolicy,
	// and refused for any other (see Approval).
	NeedsApproval NeedsApprovalFunc[A]
}

// Spec is the generated description of a tool.
type Spec[A any] struct {
	Name        string
	Description string
	// Schema is the effective JSON Schema of the arguments.
	Schema string
	// Version is a content hash of the tool, or the tool file's version.
	Version string
	// Roles, when non-empty, limits the tool to principals with one of them.
	Roles       []string
	Destructive bool
	// Timeout bounds one execution; zero means no bound of the tool's own.
	Timeout time.Duration
	// Approval says which calls wait for a person's approval (x-toolgate
	// approval); Approvers are the roles that may approve them, and
	// SelfApproval lets the requester approve their own call.
	Approval     Approval
	Approvers    []string
	SelfApproval bool
	// Sensitive are the JSON pointers, into Schema, of the subschemas whose
	// values are sensitive (writeOnly, or x-toolgate sensitive in the tool
	// file, which Schema leaves out); [""] when the whole tool is. Nothing
	// that records calls may keep such a value (see runtime/callrecord).
	Sensitive []string
	// Decode is the tool's generated strict decoder.
	Decode func(data []byte) (A, error)
	// DecodeNullAsAbsent, when not nil, is the decoder for calls in the
	// OpenAI dialects (OpenAIChat, OpenAIResponses): OpenAI's strict mode
	// makes every optional member required and nullable, so a model talking
	// that dialect sends null to mean "absent", and this decoder reads it so.
	// Calls in any other dialect, and every call when it is nil, use Decode.
	DecodeNullAsAbsent func(data []byte) (A, error)
	// Definitions are the tool's definitions for each model provider (see
	// package provider). When there are any, a call in a provider's dialect
	// resolves only if the tool has a definition for that provider: a model
	// that was never sent the tool cannot call it.
	Definitions []provider.Definition
}

// Tool is a bound tool, as the registry holds it.
type Tool struct {
	Name        string
	Description string
	Schema      string
	Version     string
	Roles       []string
	Destructive bool
	Timeout     time.Duration
	Definitions []provider.Definition
	// Approval, Approvers and SelfApproval are the spec's.
	Approval     Approval
	Approvers    []string
	SelfApproval bool
	// OutputSchema is the effective JSON Schema of the tool's result, ""
	// for a tool without one (see BindTyped).
	OutputSchema string
	// Sensitive is the spec's.
	Sensitive []string

	// typed takes the steps of its calls that need the argument type.
	typed   *typed
	bindErr error
}

// clone returns a copy of t that shares nothing mutable with it, so that a
// caller changing the copy (its Roles, say) cannot change what the registry
// enforces.
func (t *Tool) clone() *Tool {
	cp := *t
	cp.Roles = slices.Clone(t.Roles)
	cp.Definitions = slices.Clone(t.Definitions)
	cp.Approvers = slices.Clone(t.Approvers)
	cp.Sensitive = slices.Clone(t.Sensitive)
	return &cp
}

// Bind ties a tool's spec to its binding. A nil policy or executor is
// reported by NewRegistry, naming the tool.
func Bind[A any](spec Spec[A], b Binding[A]) *Tool {
	t := newTool(Tool{
		Name: spec.Name, Description: spec.Description, Schema: spec.Schema,
		Version: spec.Version, Roles: spec.Roles,
		Destructive: spec.Destructive, Timeout: spec.Timeout, Definitions: spec.Definitions,
		Approval: spec.Approval, Approvers: spec.Approvers, SelfApproval: spec.SelfApproval,
		Sensitive: spec.Sensitive,
	}, spec.Decode != nil, b.Policy != nil, b.Execute != nil, b.NeedsApproval != nil)
	t.typed = typedOf(spec, b)
	return t
}

// newTool is what Bind does that does not need the argument type (Bind is
// instantiated for every tool): it returns a copy of spec that shares no
// slice with it, with the error NewRegistry reports when the decoder,
// policy or executor is missing or the approval settings are wrong.
func newTool(spec Tool, decodes, authorizes, executes, hasNeedsApproval bool) *Tool {
	t := spec.clone()
	switch {
	case !decodes:
		t.bindErr = fmt.Errorf("gate: tool %q has no decoder", spec.Name)
	case !authorizes && !executes:
		t.bindErr = fmt.Errorf("gate: tool %q is not bound: its policy and executor are nil", spec.Name)
	case !authorizes:
		t.bindErr = fmt.Errorf("gate: tool %q has no policy (use AllowAll explicitly to allow every principal)", spec.Name)
	case !executes:
		t.bindErr = fmt.Errorf("gate: tool %q has no executor", spec.Name)
	default:
		t.bindErr = checkApproval(spec.Name, spec.Approval, spec.Approvers, hasNeedsApproval)
	}
	return t
}

// AllowAll is a policy that lets every principal who can see the tool run
// it. Role filtering (the tool's roles) still applies.
func AllowAll[A any](context.Context, Principal, A) error { return nil }

// VisibleTo reports whether p may see t: t has no roles, or p has one of
// them.
func (t *Tool) VisibleTo(p Principal) bool {
	if len(t.Roles) == 0 {
		return true
	}
	for _, r := range p.Roles {
		if slices.Contains(t.Roles, r) {
			return true
		}
	}
	return false
}

// dialectProviders are the provider definitions a model talking each
// dialect may have been sent.
var dialectProviders = map[Dialect][]provider.Provider{
	OpenAIChat:      {provider.OpenAIChat},
	OpenAIResponses: {provider.OpenAIResponses},
	Anthropic:       {provider.Anthropic},
	Gemini:          {provider.Gemini, provider.GeminiLegacy},
	MCP:             {provider.MCP},
}

// Definition returns t's definition for provider p.
func (t *Tool) Definition(p provider.Provider) (provider.Definition, bool) {
	for _, d := range t.Definitions {
		if d.Provider == p {
			return d, true
		}
	}
	return provider.Definition{}, false
}

// sentIn reports whether a model talking dialect d can have been sent t:
// always for Plain calls; for a known dialect, when t has no definitions or
// a definition for one of the dialect's providers; never for a dialect the
// gate does not know (it fails closed: such a call is unknown_tool).
func (t *Tool) sentIn(d Dialect) bool {
	if d == Plain {
		return true
	}
	ps, ok := dialectProviders[d]
	if !ok {
		return false
	}
	if len(t.Definitions) == 0 {
		return true
	}
	for _, p := range ps {
		if _, ok := t.Definition(p); ok {
			return true
		}
	}
	return false
}

// Conflict returns an executor error that the gate reports with the code
// conflict: the state of the world forbids the call (already refunded,
// already dispatched). reason is shown to the model.
func Conflict(reason string) error {
	return &toolerr.Error{Code: toolerr.Conflict, Reason: reason}
}

// Result is the outcome of one call.
type Result struct {
	CallID string
	Tool   string
	// Value is what the executor returned, when it ran and succeeded; for a
	// tool with a result schema, the checked <Tool>Result.
	Value any
	// JSON is, for a tool with a result schema, the checked encoding of
	// Value: the bytes to send (see BindTyped). It is nil otherwise.
	JSON []byte
	// Err is the refusal or failure, nil on success.
	Err *toolerr.Error
	// Executed reports whether the executor was started.
	Executed bool
	// Approval describes the pending call: of a call stored to await
	// approval (Err's code is approval_required), or of a resumed one.
	Approval *Ticket
}

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
