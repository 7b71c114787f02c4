package integration_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The gate over the generated tools, with spy policies and executors that
// count every call. Every rejected input asserts that no executor ran.

const (
	cancelT = generated.CancelOrderToolName
	statusT = generated.GetOrderStatusToolName
)

// allTools are the tool names of the package, in name order.
var allTools = []string{cancelT, shipT, statusT, refundT, dispatchT, contactT}

// ---- spies -------------------------------------------------------------------

// spyTool counts what the gate did with one tool and keeps what the policy
// and the executor last saw.
type spyTool struct {
	decodes, policies, execs atomic.Int64

	mu        sync.Mutex
	principal gate.Principal // as the policy saw it
	policyArg any            // as the policy saw them
	execArg   any            // as the executor saw them
}

// harness binds every generated tool to spies.
type harness struct {
	spies map[string]*spyTool
	// policy decides every call (nil allows); exec runs every executed call
	// (nil returns "ran <tool>").
	policy func(tool string, p gate.Principal, args any) error
	exec   func(ctx context.Context, tool string, args any) (any, error)
}

func newHarness() *harness {
	h := &harness{spies: map[string]*spyTool{}, policy: demoPolicy}
	for _, n := range allTools {
		h.spies[n] = &spyTool{}
	}
	return h
}

// errTenant and errLimit are demoPolicy's denials.
var (
	errTenant = errors.New("principal belongs to another tenant")
	errLimit  = errors.New("refunds above 50000 cents need the finance role")
)

// demoPolicy allows principals of tenant acme, and refunds above 50000
// cents only to the finance role.
func demoPolicy(tool string, p gate.Principal, args any) error {
	if p.Tenant != "acme" {
		return errTenant
	}
	if a, isRefund := args.(generated.RefundOrderArgs); isRefund && a.AmountInCents > 50000 && !slices.Contains(p.Roles, "finance") {
		return errLimit
	}
	return nil
}

func spyBinding[A any](h *harness, name string) gate.Binding[A] {
	s := h.spies[name]
	return gate.Binding[A]{
		Policy: func(_ context.Context, p gate.Principal, a A) error {
			s.policies.Add(1)
			s.mu.Lock()
			s.principal, s.policyArg = p, a
			s.mu.Unlock()
			if h.policy != nil {
				return h.policy(name, p, a)
			}
			return nil
		},
		Execute: func(ctx context.Context, a A) (any, error) {
			s.execs.Add(1)
			s.mu.Lock()
			s.execArg = a
			s.mu.Unlock()
			if h.exec != nil {
				return h.exec(ctx, name, a)
			}
			return "ran " + name, nil
		},
	}
}

// statusResult is a valid result of get_order_status for order id.
func statusResult(id string) generated.GetOrderStatusResult {
	return generated.GetOrderStatusResult{OrderID: id, Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-01-02T03:04:05Z"}
}

// typedStatus adapts a binding of get_order_status to its typed result: a
// value that is not a GetOrderStatusResult becomes a valid one.
func typedStatus(b gate.Binding[generated.GetOrderStatusArgs]) gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult] {
	t := gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: b.Policy}
	if b.Execute != nil {
		t.Execute = func(ctx context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
			v, err := b.Execute(ctx, a)
			if err != nil {
				return generated.GetOrderStatusResult{}, err
			}
			if r, ok := v.(generated.GetOrderStatusResult); ok {
				return r, nil
			}
			return statusResult(a.OrderID), nil
		}
	}
	return t
}

// spyBind binds spec with its decoder wrapped to count decodes.
func spyBind[A any](h *harness, spec gate.Spec[A]) *gate.Tool {
	s, inner := h.spies[spec.Name], spec.Decode
	spec.Decode = func(b []byte) (A, error) {
		s.decodes.Add(1)
		return inner(b)
	}
	b := spyBinding[A](h, spec.Name)
	if spec.Approval == gate.ApprovalPolicy {
		b.NeedsApproval = noApproval[A]
	}
	return gate.Bind(spec, b)
}

// noApproval is a NeedsApproval under which no call waits for approval:
// these tests are about the checks before it. Approvals are tested in
// runtime/gate and examples/refundgateway.
func noApproval[A any](context.Context, gate.Principal, A) (bool, string) { return false, "" }

// withNoApproval returns b with noApproval.
func withNoApproval[A any](b gate.Binding[A]) gate.Binding[A] {
	b.NeedsApproval = noApproval[A]
	return b
}

// gateTools are the generated tools bound to spies, leaving out the named
// ones.
func (h *harness) gateTools(omit ...string) []*gate.Tool {
	var out []*gate.Tool
	for _, t := range []*gate.Tool{
		spyBind(h, generated.CancelOrderSpec),
		spyBind(h, generated.CreateShipmentSpec),
		spyBind(h, generated.GetOrderStatusSpec),
		spyBind(h, generated.RefundOrderSpec),
		spyBind(h, generated.ScheduleOrderDispatchSpec),
		spyBind(h, generated.UpdateDeliveryContactSpec),
	} {
		if !slices.Contains(omit, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// wrapped is a registry of the generated specs with counted decodes.
func (h *harness) wrapped(t testing.TB, opts ...gate.Option) *gate.Registry {
	t.Helper()
	r, err := gate.NewRegistry(h.gateTools(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (h *harness) bindings() generated.Bindings {
	return generated.Bindings{
		CancelOrder:           spyBinding[generated.CancelOrderArgs](h, cancelT),
		CreateShipment:        spyBinding[generated.CreateShipmentArgs](h, shipT),
		GetOrderStatus:        typedStatus(spyBinding[generated.GetOrderStatusArgs](h, statusT)),
		RefundOrder:           withNoApproval(spyBinding[generated.RefundOrderArgs](h, refundT)),
		ScheduleOrderDispatch: spyBinding[generated.ScheduleOrderDispatchArgs](h, dispatchT),
		UpdateDeliveryContact: spyBinding[generated.UpdateDeliveryContactArgs](h, contactT),
	}
}

// generatedRegistry is the registry of the generated NewRegistry (decodes
// are not counted).
func (h *harness) generatedRegistry(t testing.TB, opts ...gate.Option) *gate.Registry {
	t.Helper()
	r, err := generated.NewRegistry(h.bindings(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// registryKinds are the two ways the tests build a registry.
var registryKinds = []struct {
	name          string
	build         func(h *harness, t testing.TB, opts ...gate.Option) *gate.Registry
	countsDecodes bool
}{
	{"wrapped", (*harness).wrapped, true},
	{"generated", (*harness).generatedRegistry, false},
}

func (h *harness) totals() (decodes, policies, execs int64) {
	for _, s := range h.spies {
		decodes += s.decodes.Load()
		policies += s.policies.Load()
		execs += s.execs.Load()
	}
	return
}

// assertNothingRan fails unless no executor (and, when set, no policy or
// decoder) ran.
func (h *harness) assertNothingRan(t *testing.T, noPolicy, noDecode bool) {
	t.Helper()
	d, p, e := h.totals()
	if e != 0 {
		t.Errorf("%d executor calls, want 0", e)
	}
	if noPolicy && p != 0 {
		t.Errorf("%d policy calls, want 0", p)
	}
	if noDecode && d != 0 {
		t.Errorf("%d decodes, want 0", d)
	}
}

// ---- principals and calls ----------------------------------------------------------

var (
	pAll      = gate.Principal{ID: "root", Tenant: "acme", Roles: []string{"support", "finance", "operations"}}
	pNone     = gate.Principal{ID: "anon", Tenant: "acme"}
	pSupport  = gate.Principal{ID: "sam", Tenant: "acme", Roles: []string{"support"}}
	pFinance  = gate.Principal{ID: "fay", Tenant: "acme", Roles: []string{"finance"}}
	pOps      = gate.Principal{ID: "oli", Tenant: "acme", Roles: []string{"operations"}}
	pSeveral  = gate.Principal{ID: "sev", Tenant: "acme", Roles: []string{"operations", "support"}}
	pAdmin    = gate.Principal{ID: "adm", Tenant: "acme", Roles: []string{"admin", "root", "*"}}
	pCase     = gate.Principal{ID: "cas", Tenant: "acme", Roles: []string{"Finance", "SUPPORT", " operations"}}
	pEmpty    = gate.Principal{ID: "emp", Tenant: "acme", Roles: []string{""}}
	pOtherTen = gate.Principal{ID: "eve", Tenant: "globex", Roles: []string{"support", "finance", "operations"}}
)

// visibility is the export list each principal must get, written out by
// hand from the schemas' x-toolgate roles.
var visibility = []struct {
	name  string
	p     gate.Principal
	tools []string
}{
	{"no roles", pNone, []string{shipT, statusT}},
	{"support", pSupport, []string{cancelT, shipT, statusT, refundT, contactT}},
	{"finance", pFinance, []string{shipT, statusT, refundT}},
	{"operations", pOps, []string{shipT, statusT, dispatchT}},
	{"support+operations", pSeveral, []string{cancelT, shipT, statusT, refundT, dispatchT, contactT}},
	{"all roles", pAll, allTools},
	{"unknown roles", pAdmin, []string{shipT, statusT}},
	{"case and space variants", pCase, []string{shipT, statusT}},
	{"empty role", pEmpty, []string{shipT, statusT}},
}

// validArgs are accepted arguments for each tool.
var validArgs = map[string]string{
	cancelT:   `{"orderId":"A-19","reason":"customer asked"}`,
	shipT:     ship(),
	statusT:   `{"orderId":"A-19"}`,
	refundT:   refund(),
	dispatchT: dispatch(),
}

func call(id, name, args string) gate.Call {
	return gate.Call{ID: id, Name: name, Args: []byte(args), Complete: true}
}

func as(p gate.Principal) gate.Caller {
	return gate.Caller{Principal: p, Scope: "conv-1", RequestID: "req-1"}
}

// wantErr checks that err is a *toolerr.Error with the code and returns it.
func wantErr(t *testing.T, err error, code toolerr.Code) *toolerr.Error {
	t.Helper()
	return asToolErr(t, err, code)
}

// listedTools returns the tool names an unknown_tool error offers.
func listedTools(t *testing.T, e *toolerr.Error) []string {
	t.Helper()
	const marker = "; the tools you can call are: "
	i := strings.LastIndex(e.Reason, marker)
	if i < 0 {
		t.Fatalf("unknown_tool reason lists no tools: %q", e.Reason)
	}
	rest := e.Reason[i+len(marker):]
	if rest == "none" {
		return nil
	}
	return strings.Split(rest, ", ")
}

func names(tools []*gate.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}
