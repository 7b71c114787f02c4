package gate

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// A bound tool: the generated Spec of a tool and the service's Binding of
// it, tied by Bind.

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
