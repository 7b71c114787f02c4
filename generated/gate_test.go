package generated_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// ---- the failure matrix through the gate ---------------------------------------------

// TestGateFailureMatrix feeds every row of behaviourCases through the gate:
// a refused row reaches the decoder once and nothing after it, with the
// decoder's verdict; an accepted row runs its executor once with the
// decoded arguments.
func TestGateFailureMatrix(t *testing.T) {
	for _, kind := range registryKinds {
		for _, c := range behaviourCases {
			t.Run(kind.name+"/"+c.Name, func(t *testing.T) {
				h := newHarness()
				r := kind.build(h, t)
				res, err := r.Dispatch(context.Background(), as(pAll), call("row", c.Tool, c.Input))
				s := h.spies[c.Tool]
				if kind.countsDecodes {
					if d, _, _ := h.totals(); d != 1 || s.decodes.Load() != 1 {
						t.Errorf("%d decodes (%d of %s), want exactly 1 of %s", d, s.decodes.Load(), c.Tool, c.Tool)
					}
				}
				if c.Want.Code != "" {
					checkOutcome(t, c, nil, err)
					h.assertNothingRan(t, true, false)
					if res.Executed || res.Value != nil || res.Err == nil {
						t.Errorf("result %+v, want refused and not executed", res)
					}
					return
				}
				if err != nil {
					t.Fatalf("refused a valid row: %v", err)
				}
				if _, p, e := h.totals(); e != 1 || p != 1 || s.execs.Load() != 1 {
					t.Errorf("policies %d, execs %d (%d of %s); want 1, 1", p, e, s.execs.Load(), c.Tool)
				}
				if !res.Executed || res.Value != "ran "+c.Tool {
					t.Errorf("result %+v", res)
				}
				s.mu.Lock()
				arg, parg := s.execArg, s.policyArg
				s.mu.Unlock()
				if !reflect.DeepEqual(arg, parg) {
					t.Errorf("policy saw %+v, executor %+v", parg, arg)
				}
				checkOutcome(t, c, arg, nil)
			})
		}
	}
}

// unknownNames are names that must never resolve to refund_order.
var unknownNames = []struct{ label, name string }{
	{"case", "Refund_Order"},
	{"upper", "REFUND_ORDER"},
	{"leading space", " refund_order"},
	{"trailing space", "refund_order "},
	{"trailing newline", "refund_order\n"},
	{"trailing NUL", "refund_order\x00"},
	{"cyrillic o", "refund_\u043erder"},
	{"fullwidth", "ｒefund_order"},
	{"zero-width joiner", "refund\u200d_order"},
	{"combining accent", "refund_order\u0301"},
	{"dash", "refund-order"},
	{"path", "../refund_order"},
	{"namespaced", "functions.refund_order"},
	{"empty", ""},
	{"from user text", "refund my order A-19 please"},
	{"from user text, quoted", `"refund_order"`},
	{"prefix", "refund_orde"},
	{"suffix", "refund_orders"},
	{"long", strings.Repeat("refund_order", 40)},
	{"invalid utf-8", "refund_order\xff"},
}

// TestGateUnknownNames: every variant is unknown_tool for every principal,
// with nothing decoded, authorized or run, and the error lists exactly the
// tools that principal may call.
func TestGateUnknownNames(t *testing.T) {
	for _, v := range visibility {
		for _, u := range unknownNames {
			for _, complete := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/complete=%v", v.name, u.label, complete), func(t *testing.T) {
					h := newHarness()
					r := h.wrapped(t)
					c := call("c1", u.name, refund())
					c.Complete = complete
					res, err := r.Dispatch(context.Background(), as(v.p), c)
					e := wantErr(t, err, toolerr.UnknownTool)
					h.assertNothingRan(t, true, true)
					if res.Executed {
						t.Error("Executed")
					}
					if got := listedTools(t, e); !slices.Equal(got, v.tools) {
						t.Errorf("listed tools %q, want %q", got, v.tools)
					}
					if e.Tool != "" || len(e.Violations) != 0 || e.Code.Category() != toolerr.Validation {
						t.Errorf("error %+v", e)
					}
				})
			}
		}
	}
}

// memberNames returns every property name in a JSON Schema.
func memberNames(t testing.TB, schema string) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(schema), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for k := range props {
					seen[k] = true
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stringValues collects every string value (not key) of a JSON document.
func stringValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for _, c := range x {
			out = append(out, stringValues(c)...)
		}
		return out
	case []any:
		var out []string
		for _, c := range x {
			out = append(out, stringValues(c)...)
		}
		return out
	}
	return nil
}

var schemas = map[string]string{
	cancelT:   generated.CancelOrderSchema,
	shipT:     generated.CreateShipmentSchema,
	statusT:   generated.GetOrderStatusSchema,
	refundT:   generated.RefundOrderSchema,
	dispatchT: generated.ScheduleOrderDispatchSchema,
	contactT:  generated.UpdateDeliveryContactSchema,
}

// TestGateHiddenToolLooksMissing: a call to a tool the principal may not
// see gets exactly the refusal (and the audit event) that the same call gets
// from a registry without the tool, and nothing of the tool's schema leaks.
func TestGateHiddenToolLooksMissing(t *testing.T) {
	tests := []struct {
		p    gate.Principal
		tool string
	}{
		{pNone, refundT}, {pNone, cancelT}, {pNone, dispatchT},
		{pFinance, cancelT}, {pSupport, dispatchT}, {pOps, refundT},
		{pAdmin, refundT}, {pCase, refundT}, {pEmpty, cancelT},
	}
	for _, tt := range tests {
		args := map[string]string{
			"valid":         validArgs[tt.tool],
			"invalid":       `{"orderId":"a","bogus":1}`,
			"invalid json":  `{"orderId":`,
			"empty":         ``,
			"wrong members": `{"amountInCents":0,"reason":5,"notifyCustomer":"x","order_id":1,"currency":"USD"}`,
		}
		for label, a := range args {
			for _, complete := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/%s/complete=%v", tt.p.ID, tt.tool, label, complete), func(t *testing.T) {
					var outs [2]struct {
						res    gate.Result
						json   []byte
						events []gate.Event
					}
					for i := range outs {
						h := newHarness()
						tools := h.gateTools()
						if i == 1 {
							tools = h.gateTools(tt.tool)
						}
						var events []gate.Event
						r, err := gate.NewRegistry(tools, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) {
							e.Duration = 0
							events = append(events, e)
						})))
						if err != nil {
							t.Fatal(err)
						}
						c := call("c1", tt.tool, a)
						c.Complete = complete
						res, err := r.Dispatch(context.Background(), as(tt.p), c)
						e := wantErr(t, err, toolerr.UnknownTool)
						h.assertNothingRan(t, true, true)
						outs[i].res, outs[i].events = res, events
						outs[i].json, _ = json.Marshal(e)
					}
					if !bytes.Equal(outs[0].json, outs[1].json) {
						t.Errorf("hidden: %s\nmissing: %s", outs[0].json, outs[1].json)
					}
					if !reflect.DeepEqual(outs[0].events, outs[1].events) {
						t.Errorf("audit differs:\nhidden: %+v\nmissing: %+v", outs[0].events, outs[1].events)
					}
					var wire map[string]any
					if err := json.Unmarshal(outs[0].json, &wire); err != nil {
						t.Fatal(err)
					}
					for k := range wire {
						if !slices.Contains([]string{"code", "category", "callId", "message", "reason"}, k) {
							t.Errorf("unknown_tool error has member %q: %s", k, outs[0].json)
						}
					}
					for _, m := range memberNames(t, schemas[tt.tool]) {
						for _, v := range stringValues(wire) {
							if strings.Contains(v, m) {
								t.Errorf("refusal leaks member %q of the hidden tool: %q", m, v)
							}
						}
					}
				})
			}
		}
	}
}

// TestGateUnauthorized: a denial is unauthorized (permission); the policy
// saw the typed arguments and the trusted principal; nothing runs; the repair
// loop does not retry it.
func TestGateUnauthorized(t *testing.T) {
	tests := []struct {
		name string
		p    gate.Principal
		tool string
		args string
		deny error // nil: allowed
	}{
		{"support above limit", pSupport, refundT, refund("amountInCents", "60000"), errLimit},
		{"support at limit", pSupport, refundT, refund("amountInCents", "50000"), nil},
		{"support just above limit", pSupport, refundT, refund("amountInCents", "50001"), errLimit},
		{"finance above limit", pFinance, refundT, refund("amountInCents", "60000"), nil},
		{"several without finance", pSeveral, refundT, refund("amountInCents", "100000"), errLimit},
		{"other tenant refund", pOtherTen, refundT, refund(), errTenant},
		{"other tenant status", pOtherTen, statusT, validArgs[statusT], errTenant},
		{"other tenant cancel", pOtherTen, cancelT, validArgs[cancelT], errTenant},
		{"other tenant dispatch", pOtherTen, dispatchT, validArgs[dispatchT], errTenant},
	}
	for _, kind := range registryKinds {
		for _, tt := range tests {
			t.Run(kind.name+"/"+tt.name, func(t *testing.T) {
				h := newHarness()
				var events []gate.Event
				r := kind.build(h, t, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) { events = append(events, e) })))
				caller := as(tt.p)
				res, err := r.Dispatch(context.Background(), caller, call("c1", tt.tool, tt.args))
				s := h.spies[tt.tool]
				if s.policies.Load() != 1 {
					t.Fatalf("policy ran %d times, want 1", s.policies.Load())
				}
				s.mu.Lock()
				seenP, seenA := s.principal, s.policyArg
				s.mu.Unlock()
				if !reflect.DeepEqual(seenP, tt.p) {
					t.Errorf("policy saw principal %+v, want %+v", seenP, tt.p)
				}
				want, _ := codecs[tt.tool].decode([]byte(tt.args))
				if !reflect.DeepEqual(seenA, want) {
					t.Errorf("policy saw %#v, want the typed %#v", seenA, want)
				}
				if tt.deny == nil {
					if err != nil || s.execs.Load() != 1 {
						t.Fatalf("allowed call: %v, execs %d", err, s.execs.Load())
					}
					return
				}
				e := wantErr(t, err, toolerr.Unauthorized)
				h.assertNothingRan(t, false, false)
				if res.Executed || e.Code.Category() != toolerr.Permission || !errors.Is(err, tt.deny) {
					t.Errorf("result %+v, category %s, wraps denial %v", res, e.Code.Category(), errors.Is(err, tt.deny))
				}
				if b, _ := json.Marshal(e); bytes.Contains(b, []byte(tt.deny.Error())) {
					t.Errorf("the policy's reason reached the model: %s", b)
				}
				if len(events) != 1 || events[0].Code != toolerr.Unauthorized || events[0].Category != toolerr.Permission {
					t.Errorf("events %+v", events)
				}

				// Never retried as a validation error.
				var nexts int
				_, err = r.DispatchWithRepair(context.Background(), caller, call("c2", tt.tool, tt.args), gate.Repair{MaxAttempts: 5, Next: func(context.Context, gate.Call, *toolerr.Error) (gate.Call, error) {
					nexts++
					return call("c3", tt.tool, validArgs[tt.tool]), nil
				}})
				wantErr(t, err, toolerr.Unauthorized)
				if nexts != 0 || s.policies.Load() != 2 {
					t.Errorf("repair asked for %d candidates, policy ran %d times; want 0, 2", nexts, s.policies.Load())
				}
				h.assertNothingRan(t, false, false)
			})
		}
	}
}

// TestGateIncompleteCalls: an incomplete call is refused before decoding,
// whatever its bytes, and its ID is not consumed.
func TestGateIncompleteCalls(t *testing.T) {
	argsFor := func(tool string) map[string]string {
		v := validArgs[tool]
		return map[string]string{
			"valid":     v,
			"truncated": v[:len(v)/2],
			"empty":     "",
			"invalid":   `{"x":1}`,
			"not json":  "refund it",
		}
	}
	for _, tool := range allTools {
		for label, a := range argsFor(tool) {
			t.Run(tool+"/"+label, func(t *testing.T) {
				h := newHarness()
				r := h.wrapped(t)
				c := call("c1", tool, a)
				c.Complete = false
				res, err := r.Dispatch(context.Background(), as(pAll), c)
				e := wantErr(t, err, toolerr.IncompleteCall)
				h.assertNothingRan(t, true, true)
				if res.Executed || e.Tool != tool || e.CallID != "c1" {
					t.Errorf("result %+v, error %+v", res, e)
				}
				if label == "valid" {
					c.Complete = true
					if _, err := r.Dispatch(context.Background(), as(pAll), c); err != nil || h.spies[tool].execs.Load() != 1 {
						t.Errorf("the completed call: %v, execs %d", err, h.spies[tool].execs.Load())
					}
				}
			})
		}
	}
}

// ---- batches and replays ---------------------------------------------------------------

// fourCalls is a valid batch of four calls to four tools.
func fourCalls() []gate.Call {
	return []gate.Call{
		call("b1", statusT, validArgs[statusT]),
		call("b2", shipT, validArgs[shipT]),
		call("b3", refundT, validArgs[refundT]),
		call("b4", cancelT, validArgs[cancelT]),
	}
}

// TestGateBatchThirdInvalid: when the third of four calls is refused, none
// runs; the third has its own code and the others batch_aborted. The valid
// calls' IDs are not consumed: the corrected batch then runs in full.
func TestGateBatchThirdInvalid(t *testing.T) {
	tests := []struct {
		name   string
		p      gate.Principal
		third  func(c gate.Call) gate.Call
		code   toolerr.Code
		codes  []toolerr.Code // when not the default (aborted, aborted, code, aborted)
		before []gate.Call    // run first, in the same scope
	}{
		{name: "invalid arguments", third: func(c gate.Call) gate.Call { c.Args = []byte(refund("amountInCents", "0")); return c }, code: toolerr.InvalidArguments},
		{name: "invalid json", third: func(c gate.Call) gate.Call { c.Args = []byte(`{"orderId":"A-19",}`); return c }, code: toolerr.InvalidJSON},
		{name: "closure", third: func(c gate.Call) gate.Call { c.Args = []byte(refund("approvedBy", `"boss"`)); return c }, code: toolerr.InvalidArguments},
		{name: "unknown tool", third: func(c gate.Call) gate.Call { c.Name = "Refund_Order"; return c }, code: toolerr.UnknownTool},
		{name: "hidden tool", p: pFinance, third: func(c gate.Call) gate.Call {
			c.Name, c.Args = cancelT, []byte(validArgs[cancelT])
			return c
		}, code: toolerr.UnknownTool, codes: []toolerr.Code{toolerr.BatchAborted, toolerr.BatchAborted, toolerr.UnknownTool, toolerr.UnknownTool}},
		{name: "unauthorized", p: pSupport, third: func(c gate.Call) gate.Call { c.Args = []byte(refund("amountInCents", "90000")); return c }, code: toolerr.Unauthorized},
		{name: "incomplete", third: func(c gate.Call) gate.Call { c.Complete = false; return c }, code: toolerr.IncompleteCall},
		{name: "replayed id", third: func(c gate.Call) gate.Call { c.ID = "done"; return c }, code: toolerr.DuplicateCall,
			before: []gate.Call{call("done", refundT, validArgs[refundT])}},
		{name: "id repeated in batch", third: func(c gate.Call) gate.Call { c.ID = "b1"; return c }, code: toolerr.DuplicateCall},
		{name: "id repeated in batch, other tool", third: func(c gate.Call) gate.Call {
			c.ID, c.Name, c.Args = "b2", shipT, []byte(validArgs[shipT])
			return c
		}, code: toolerr.DuplicateCall},
	}
	for _, parallel := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/parallel=%v", tt.name, parallel), func(t *testing.T) {
				h := newHarness()
				var events []gate.Event
				var mu sync.Mutex // the auditor runs concurrently in parallel batches
				r := h.wrapped(t, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) {
					mu.Lock()
					events = append(events, e)
					mu.Unlock()
				})))
				p := tt.p
				if p.ID == "" {
					p = pAll
				}
				if p.ID == pSupport.ID || p.ID == pFinance.ID {
					p.Roles = append(slices.Clone(p.Roles), "operations") // all four tools of the batch visible, bar the test's own
				}
				for _, b := range tt.before {
					if _, err := r.Dispatch(context.Background(), as(p), b); err != nil {
						t.Fatal(err)
					}
				}
				_, _, execsBefore := h.totals()
				events = nil
				calls := fourCalls()
				calls[2] = tt.third(calls[2])
				res := r.DispatchBatch(context.Background(), as(p), calls, gate.BatchOptions{Parallel: parallel})
				want := tt.codes
				if want == nil {
					want = []toolerr.Code{toolerr.BatchAborted, toolerr.BatchAborted, tt.code, toolerr.BatchAborted}
				}
				if len(res) != 4 {
					t.Fatalf("%d results", len(res))
				}
				for i, rr := range res {
					if rr.Err == nil || rr.Err.Code != want[i] || rr.Executed || rr.Value != nil || rr.CallID != calls[i].ID {
						t.Errorf("result %d = %+v (err %v), want %s, not executed", i, rr, rr.Err, want[i])
					}
				}
				for _, n := range []string{statusT, shipT, refundT, cancelT} {
					if e := h.spies[n].execs.Load(); e != 0 && !(n == refundT && e == execsBefore) {
						t.Errorf("%s executor ran %d times", n, e)
					}
				}
				if _, _, e := h.totals(); e != execsBefore {
					t.Errorf("%d executor calls during the batch, want 0", e-execsBefore)
				}
				if len(events) != 4 {
					t.Errorf("%d audit events, want 4", len(events))
				}
				for i, e := range events {
					if e.Code != want[i] || e.Executed {
						t.Errorf("event %d = %s (executed %v), want %s", i, e.Code, e.Executed, want[i])
					}
				}

				// The corrected batch, same IDs, same scope: every call runs.
				if tt.before != nil {
					return
				}
				res = r.DispatchBatch(context.Background(), as(pAll), fourCalls(), gate.BatchOptions{Parallel: parallel})
				for i, rr := range res {
					if rr.Err != nil || !rr.Executed {
						t.Errorf("corrected call %d: %+v (%v)", i, rr, rr.Err)
					}
				}
				for _, n := range []string{statusT, shipT, refundT, cancelT} {
					if e := h.spies[n].execs.Load(); e != 1 {
						t.Errorf("%s executor ran %d times after the corrected batch, want 1", n, e)
					}
				}
			})
		}
	}
}

// TestGateReplay: a call ID runs at most once per scope.
func TestGateReplay(t *testing.T) {
	steps := []struct {
		scope, id, args string
		want            toolerr.Code // "" for run
		execs           int64        // refund executions so far
	}{
		{"conv-1", "c1", refund(), "", 1},
		{"conv-1", "c1", refund(), toolerr.DuplicateCall, 1},
		{"conv-1", "c1", refund("amountInCents", "10"), toolerr.DuplicateCall, 1}, // other arguments, same ID
		{"conv-1", "c1", refund("amountInCents", "0"), toolerr.DuplicateCall, 1},  // replay checked before decoding
		{"conv-2", "c1", refund(), "", 2},                                         // another scope
		{"conv-2", "c1", refund(), toolerr.DuplicateCall, 2},
		{"conv-1", "c2", refund(), "", 3},
		{"conv-1", "", refund(), "", 4}, // no ID: not tracked
		{"conv-1", "", refund(), "", 5},
	}
	for _, kind := range registryKinds {
		t.Run(kind.name, func(t *testing.T) {
			h := newHarness()
			r := kind.build(h, t)
			for i, s := range steps {
				res, err := r.Dispatch(context.Background(), gate.Caller{Principal: pAll, Scope: s.scope}, call(s.id, refundT, s.args))
				if s.want == "" {
					if err != nil || !res.Executed {
						t.Errorf("step %d: %v", i, err)
					}
				} else if e := wantErr(t, err, s.want); res.Executed || e.CallID != s.id {
					t.Errorf("step %d: %+v", i, res)
				}
				if got := h.spies[refundT].execs.Load(); got != s.execs {
					t.Errorf("step %d: %d executions, want %d", i, got, s.execs)
				}
			}
			// A batch holding an executed ID runs nothing.
			calls := fourCalls()
			calls[3].ID = "c2"
			res := r.DispatchBatch(context.Background(), gate.Caller{Principal: pAll, Scope: "conv-1"}, calls, gate.BatchOptions{})
			if res[3].Err == nil || res[3].Err.Code != toolerr.DuplicateCall || res[0].Err == nil || res[0].Err.Code != toolerr.BatchAborted {
				t.Errorf("batch with a replayed ID: %+v", res)
			}
			if got := h.spies[statusT].execs.Load() + h.spies[shipT].execs.Load() + h.spies[cancelT].execs.Load(); got != 0 {
				t.Errorf("%d executions in a batch with a replayed ID", got)
			}
		})
	}
}

// TestGateParallelBatch: with Parallel, a valid batch runs every executor
// once, concurrently (each executor waits for all four to have started),
// with results in call order.
func TestGateParallelBatch(t *testing.T) {
	h := newHarness()
	var started sync.WaitGroup
	started.Add(4)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	h.exec = func(ctx context.Context, tool string, _ any) (any, error) {
		started.Done()
		select {
		case <-all:
			return "ran " + tool, nil
		case <-time.After(5 * time.Second):
			return nil, errors.New("the other executors did not start: not parallel")
		}
	}
	r := h.wrapped(t)
	calls := fourCalls()
	res := r.DispatchBatch(context.Background(), as(pAll), calls, gate.BatchOptions{Parallel: true})
	for i, rr := range res {
		if rr.Err != nil || !rr.Executed || rr.Value != "ran "+calls[i].Name || rr.CallID != calls[i].ID || rr.Tool != calls[i].Name {
			t.Errorf("result %d = %+v (%v)", i, rr, rr.Err)
		}
	}
	for _, n := range []string{statusT, shipT, refundT, cancelT} {
		if e := h.spies[n].execs.Load(); e != 1 {
			t.Errorf("%s ran %d times", n, e)
		}
	}
}

// TestGateSequentialBatchOrder: by default the executors run one after
// another, in call order.
func TestGateSequentialBatchOrder(t *testing.T) {
	h := newHarness()
	var order []string
	var running atomic.Int64
	h.exec = func(_ context.Context, tool string, _ any) (any, error) {
		if running.Add(1) != 1 {
			t.Error("two executors ran at once")
		}
		defer running.Add(-1)
		order = append(order, tool)
		return nil, nil
	}
	r := h.wrapped(t)
	r.DispatchBatch(context.Background(), as(pAll), fourCalls(), gate.BatchOptions{})
	if want := []string{statusT, shipT, refundT, cancelT}; !slices.Equal(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
}

// TestGateExecutorOutcomes: executor failures keep their own codes over the
// generated tools.
func TestGateExecutorOutcomes(t *testing.T) {
	tests := []struct {
		name string
		exec func(ctx context.Context) (any, error)
		code toolerr.Code
		cat  toolerr.Category
	}{
		{"error", func(context.Context) (any, error) { return nil, errors.New("ledger down") }, toolerr.ExecutionFailed, toolerr.System},
		{"conflict", func(context.Context) (any, error) { return nil, gate.Conflict("A-19 was already refunded") }, toolerr.Conflict, toolerr.StateConflict},
		{"panic", func(context.Context) (any, error) { panic("nil map") }, toolerr.ExecutionFailed, toolerr.System},
		{"claims unauthorized", func(context.Context) (any, error) {
			return nil, &toolerr.Error{Code: toolerr.Unauthorized, Reason: "x"}
		}, toolerr.ExecutionFailed, toolerr.System},
		{"timeout", func(ctx context.Context) (any, error) { <-ctx.Done(); return nil, ctx.Err() }, toolerr.Timeout, toolerr.System},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness()
			returned := make(chan struct{})
			h.exec = func(ctx context.Context, _ string, _ any) (any, error) { defer close(returned); return tt.exec(ctx) }
			spec := generated.RefundOrderSpec
			spec.Timeout = 20 * time.Millisecond
			r, err := gate.NewRegistry([]*gate.Tool{spyBind(h, spec)})
			if err != nil {
				t.Fatal(err)
			}
			var nexts int
			res, err := r.DispatchWithRepair(context.Background(), as(pAll), call("c1", refundT, refund()), gate.Repair{MaxAttempts: 3, Next: func(context.Context, gate.Call, *toolerr.Error) (gate.Call, error) {
				nexts++
				return call("c2", refundT, refund()), nil
			}})
			<-returned // at a timeout the gate answers without waiting for the executor
			e := wantErr(t, err, tt.code)
			if e.Code.Category() != tt.cat || !res.Executed || h.spies[refundT].execs.Load() != 1 || nexts != 0 {
				t.Errorf("%+v, category %s, execs %d, repairs %d", res, e.Code.Category(), h.spies[refundT].execs.Load(), nexts)
			}
		})
	}
}

// ---- registry construction and consistency -------------------------------------------------

func TestGeneratedNewRegistryRefusesUnbound(t *testing.T) {
	_, err := generated.NewRegistry(generated.Bindings{})
	if err == nil {
		t.Fatal("NewRegistry(Bindings{}) succeeded")
	}
	for _, n := range allTools {
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", n)) {
			t.Errorf("error does not name %s: %v", n, err)
		}
	}

	// One field left half bound at a time: the error names that tool only.
	type mutate func(b *generated.Bindings)
	tests := []struct {
		tool string
		miss []mutate
	}{
		{cancelT, []mutate{func(b *generated.Bindings) { b.CancelOrder.Policy = nil }, func(b *generated.Bindings) { b.CancelOrder.Execute = nil }}},
		{shipT, []mutate{func(b *generated.Bindings) { b.CreateShipment.Policy = nil }, func(b *generated.Bindings) { b.CreateShipment.Execute = nil }}},
		{statusT, []mutate{func(b *generated.Bindings) { b.GetOrderStatus.Policy = nil }, func(b *generated.Bindings) { b.GetOrderStatus.Execute = nil }}},
		{refundT, []mutate{func(b *generated.Bindings) { b.RefundOrder.Policy = nil }, func(b *generated.Bindings) { b.RefundOrder.Execute = nil }}},
		{dispatchT, []mutate{func(b *generated.Bindings) { b.ScheduleOrderDispatch.Policy = nil }, func(b *generated.Bindings) { b.ScheduleOrderDispatch.Execute = nil }}},
	}
	for _, tt := range tests {
		for i, m := range tt.miss {
			h := newHarness()
			b := h.bindings()
			m(&b)
			r, err := generated.NewRegistry(b)
			if err == nil || r != nil {
				t.Errorf("%s/%d: NewRegistry succeeded", tt.tool, i)
				continue
			}
			for _, n := range allTools {
				if got := strings.Contains(err.Error(), fmt.Sprintf("%q", n)); got != (n == tt.tool) {
					t.Errorf("%s/%d: error %q names %s: %v", tt.tool, i, err, n, got)
				}
			}
		}
	}
	if _, err := generated.NewRegistry(newHarness().bindings()); err != nil {
		t.Errorf("fully bound: %v", err)
	}
}

// TestRegistryConsistency: every generated schema compiles, names are
// unique and match schemas/, every tool is bound, and the export filter is
// never looser than dispatch.
func TestRegistryConsistency(t *testing.T) {
	type specInfo struct {
		name, schema, version string
		roles                 []string
	}
	specs := []specInfo{
		{generated.CancelOrderSpec.Name, generated.CancelOrderSpec.Schema, generated.CancelOrderSpec.Version, generated.CancelOrderSpec.Roles},
		{generated.CreateShipmentSpec.Name, generated.CreateShipmentSpec.Schema, generated.CreateShipmentSpec.Version, generated.CreateShipmentSpec.Roles},
		{generated.GetOrderStatusSpec.Name, generated.GetOrderStatusSpec.Schema, generated.GetOrderStatusSpec.Version, generated.GetOrderStatusSpec.Roles},
		{generated.RefundOrderSpec.Name, generated.RefundOrderSpec.Schema, generated.RefundOrderSpec.Version, generated.RefundOrderSpec.Roles},
		{generated.ScheduleOrderDispatchSpec.Name, generated.ScheduleOrderDispatchSpec.Schema, generated.ScheduleOrderDispatchSpec.Version, generated.ScheduleOrderDispatchSpec.Roles},
		{generated.UpdateDeliveryContactSpec.Name, generated.UpdateDeliveryContactSpec.Schema, generated.UpdateDeliveryContactSpec.Version, generated.UpdateDeliveryContactSpec.Roles},
	}

	// The tools of schemas/ are exactly the specs.
	files, err := filepath.Glob(filepath.Join("..", "schemas", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("schemas: %v, %v", files, err)
	}
	var fromFiles []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fromFiles = append(fromFiles, doc.Name)
	}
	sort.Strings(fromFiles)

	seen := map[string]bool{}
	var specNames []string
	for _, s := range specs {
		if seen[s.name] {
			t.Errorf("tool name %s is used twice", s.name)
		}
		seen[s.name] = true
		specNames = append(specNames, s.name)
		compileSchema(t, s.name, s.schema)
		if s.version == "" || s.schema != schemas[s.name] {
			t.Errorf("%s: version %q, schema constant mismatch %v", s.name, s.version, s.schema != schemas[s.name])
		}
	}
	sort.Strings(specNames)
	if !slices.Equal(specNames, fromFiles) || !slices.Equal(specNames, allTools) {
		t.Errorf("specs %q, schemas/ %q, tests %q", specNames, fromFiles, allTools)
	}

	// Every tool is bound, with its spec's metadata.
	h := newHarness()
	reg := h.generatedRegistry(t)
	bound := reg.Tools(pAll)
	if got := names(bound); !slices.Equal(got, allTools) {
		t.Fatalf("Tools(all roles) = %q, want %q", got, allTools)
	}
	for i, bt := range bound {
		s := specs[slices.IndexFunc(specs, func(s specInfo) bool { return s.name == bt.Name })]
		if bt.Schema != s.schema || bt.Version != s.version || !slices.Equal(bt.Roles, s.roles) || bt.Description == "" {
			t.Errorf("tool %d (%s) does not carry its spec: %+v", i, bt.Name, bt)
		}
	}

	// Export never looser than dispatch, in both registries.
	for _, kind := range registryKinds {
		for _, v := range visibility {
			t.Run(kind.name+"/"+v.name, func(t *testing.T) {
				h := newHarness()
				r := kind.build(h, t)
				listed := names(r.Tools(v.p))
				if !slices.Equal(listed, v.tools) {
					t.Errorf("Tools = %q, want %q", listed, v.tools)
				}
				for _, tool := range allTools {
					for _, bt := range r.Tools(pAll) {
						if bt.Name == tool && bt.VisibleTo(v.p) != slices.Contains(listed, tool) {
							t.Errorf("%s: VisibleTo = %v, listed = %v", tool, bt.VisibleTo(v.p), slices.Contains(listed, tool))
						}
					}
					before := h.spies[tool].decodes.Load()
					// "[]" reaches the decoder only if the name resolves; the
					// decoder refuses it as invalid_json.
					_, err := r.Dispatch(context.Background(), as(v.p), call("probe-"+tool, tool, "[]"))
					var e *toolerr.Error
					if !errors.As(err, &e) {
						t.Fatalf("%s: %v", tool, err)
					}
					decoded := h.spies[tool].decodes.Load() - before
					if slices.Contains(listed, tool) {
						if e.Code != toolerr.InvalidJSON || (kind.countsDecodes && decoded != 1) {
							t.Errorf("listed %s: %s, %d decodes; want invalid_json from the decoder", tool, e.Code, decoded)
						}
					} else if e.Code != toolerr.UnknownTool || decoded != 0 {
						t.Errorf("unlisted %s: %s, %d decodes; want unknown_tool, 0", tool, e.Code, decoded)
					}
					// A valid call of an unlisted tool runs nothing either.
					if !slices.Contains(listed, tool) {
						if _, err := r.Dispatch(context.Background(), as(v.p), call("try-"+tool, tool, validArgs[tool])); err == nil {
							t.Errorf("unlisted %s ran", tool)
						}
						if h.spies[tool].execs.Load() != 0 {
							t.Errorf("unlisted %s executor ran", tool)
						}
					}
				}
			})
		}
	}
}

// ---- repair loop -------------------------------------------------------------------

func TestRepairLoop(t *testing.T) {
	bad := refund("amountInCents", "0")
	tests := []struct {
		name       string
		p          gate.Principal
		first      gate.Call
		max        int
		nilNext    bool
		candidates []gate.Call // Next returns these in turn (the last one forever)
		nextErr    error       // Next fails with it
		wantErr    error       // errors.Is on the result's error
		code       toolerr.Code
		attempts   int // events, one per attempt
		nexts      int
		execs      int64
		lastViol   string // keyword of the last refusal's first violation
	}{
		{name: "max 0", first: call("r1", refundT, bad), max: 0, wantErr: gate.ErrNoAttempts},
		{name: "max negative", first: call("r1", refundT, bad), max: -3, wantErr: gate.ErrNoAttempts},
		{name: "nil Next", first: call("r1", refundT, bad), max: 3, nilNext: true, wantErr: gate.ErrNoNext},
		{name: "valid first time", first: call("r1", refundT, refund()), max: 3, attempts: 1, execs: 1},
		{name: "repaired on the 2nd attempt", first: call("r1", refundT, bad), max: 3,
			candidates: []gate.Call{call("r2", refundT, refund())}, attempts: 2, nexts: 1, execs: 1},
		{name: "repaired from invalid json on the 3rd", first: call("r1", refundT, `{"orderId":"A-19"`), max: 3,
			candidates: []gate.Call{call("r2", refundT, refund("reason", `"oops"`)), call("r3", refundT, refund())}, attempts: 3, nexts: 2, execs: 1},
		{name: "candidate is a fresh document", first: call("r1", refundT, bad), max: 2,
			candidates: []gate.Call{call("r2", refundT, `{"orderId":"A-19","amountInCents":2500}`)},
			code:       toolerr.InvalidArguments, attempts: 2, nexts: 1, lastViol: "required"},
		{name: "candidate keeps the ID of the refused call", first: call("r1", refundT, bad), max: 2,
			candidates: []gate.Call{call("r1", refundT, refund())}, attempts: 2, nexts: 1, execs: 1},
		{name: "max 1 never repairs", first: call("r1", refundT, bad), max: 1, code: toolerr.InvalidArguments, attempts: 1, lastViol: "minimum"},
		{name: "never more than max (2)", first: call("r1", refundT, bad), max: 2, candidates: []gate.Call{call("", refundT, bad)}, code: toolerr.InvalidArguments, attempts: 2, nexts: 1},
		{name: "never more than max (5)", first: call("r1", refundT, bad), max: 5, candidates: []gate.Call{call("", refundT, bad)}, code: toolerr.InvalidArguments, attempts: 5, nexts: 4},
		{name: "unknown tool not repaired", first: call("r1", "Refund_Order", refund()), max: 5, candidates: []gate.Call{call("r2", refundT, refund())}, code: toolerr.UnknownTool, attempts: 1},
		{name: "hidden tool not repaired", p: pFinance, first: call("r1", cancelT, validArgs[cancelT]), max: 5, candidates: []gate.Call{call("r2", refundT, refund())}, code: toolerr.UnknownTool, attempts: 1},
		{name: "unauthorized not repaired", p: pSupport, first: call("r1", refundT, refund("amountInCents", "70000")), max: 5,
			candidates: []gate.Call{call("r2", refundT, refund())}, code: toolerr.Unauthorized, attempts: 1},
		{name: "incomplete not repaired", first: gate.Call{ID: "r1", Name: refundT, Args: []byte(refund())}, max: 5, candidates: []gate.Call{call("r2", refundT, refund())}, code: toolerr.IncompleteCall, attempts: 1},
		{name: "repair to an unauthorized candidate stops", p: pSupport, first: call("r1", refundT, bad), max: 5,
			candidates: []gate.Call{call("r2", refundT, refund("amountInCents", "70000")), call("r3", refundT, refund())}, code: toolerr.Unauthorized, attempts: 2, nexts: 1},
		{name: "Next fails", first: call("r1", refundT, bad), max: 5, nextErr: errors.New("model unavailable"), code: toolerr.InvalidArguments, attempts: 1, nexts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness()
			var events []gate.Event
			r := h.wrapped(t, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) { events = append(events, e) })))
			var nexts int
			var prev gate.Call = tt.first
			next := func(_ context.Context, c gate.Call, err *toolerr.Error) (gate.Call, error) {
				nexts++
				if !reflect.DeepEqual(c, prev) || err == nil || (err.Code != toolerr.InvalidArguments && err.Code != toolerr.InvalidJSON) {
					t.Errorf("Next got call %+v (want the refused %+v), error %v", c, prev, err)
				}
				if tt.nextErr != nil {
					return gate.Call{}, tt.nextErr
				}
				prev = tt.candidates[min(nexts, len(tt.candidates))-1]
				return prev, nil
			}
			rp := gate.Repair{MaxAttempts: tt.max, Next: next}
			if tt.nilNext {
				rp.Next = nil
			}
			p := tt.p
			if p.ID == "" {
				p = pAll
			}
			res, err := r.DispatchWithRepair(context.Background(), as(p), tt.first, rp)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || len(events) != 0 || nexts != 0 {
					t.Errorf("error %v, %d events, %d Next calls; want %v and nothing dispatched", err, len(events), nexts, tt.wantErr)
				}
				h.assertNothingRan(t, true, true)
				return
			}
			if tt.code == "" {
				if err != nil || !res.Executed {
					t.Errorf("result %+v, %v; want executed", res, err)
				}
			} else {
				e := wantErr(t, err, tt.code)
				if tt.lastViol != "" && (len(e.Violations) == 0 || e.Violations[0].Keyword != tt.lastViol) {
					t.Errorf("last refusal %v, want first violation %s", e, tt.lastViol)
				}
				if tt.nextErr != nil && !errors.Is(err, tt.nextErr) {
					t.Errorf("error %v does not wrap Next's", err)
				}
			}
			if nexts != tt.nexts || len(events) != tt.attempts || len(events) > max(tt.max, 0) {
				t.Errorf("Next calls %d, attempts %d (max %d); want %d, %d", nexts, len(events), tt.max, tt.nexts, tt.attempts)
			}
			for i, e := range events {
				if e.Attempt != i+1 {
					t.Errorf("event %d has attempt %d", i, e.Attempt)
				}
			}
			if _, _, e := h.totals(); e != tt.execs {
				t.Errorf("%d executions, want %d", e, tt.execs)
			}
		})
	}
}

// ---- audit -------------------------------------------------------------------------

// TestAuditOneEventPerCall: every row of the matrix gives exactly one event
// with the outcome's code, category, version and violation locations.
func TestAuditOneEventPerCall(t *testing.T) {
	versions := map[string]string{
		cancelT: generated.CancelOrderSpec.Version, shipT: generated.CreateShipmentSpec.Version,
		statusT: generated.GetOrderStatusSpec.Version, refundT: generated.RefundOrderSpec.Version,
		dispatchT: generated.ScheduleOrderDispatchSpec.Version, contactT: generated.UpdateDeliveryContactSpec.Version,
	}
	for _, c := range behaviourCases {
		t.Run(c.Name, func(t *testing.T) {
			h := newHarness()
			var events []gate.Event
			r := h.generatedRegistry(t, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) { events = append(events, e) })))
			caller := gate.Caller{Principal: pAll, Scope: "s", RequestID: "req-" + c.Name}
			res, _ := r.Dispatch(context.Background(), caller, call("id-"+c.Name, c.Tool, c.Input))
			if len(events) != 1 {
				t.Fatalf("%d events, want 1", len(events))
			}
			e := events[0]
			wantCode, wantCat := gate.OK, toolerr.Category("")
			if res.Err != nil {
				wantCode, wantCat = res.Err.Code, res.Err.Code.Category()
			}
			if c.Want.Code != "" && wantCode != c.Want.Code {
				t.Fatalf("result code %s, want %s", wantCode, c.Want.Code)
			}
			if e.Code != wantCode || e.Category != wantCat || e.Tool != c.Tool || e.Version != versions[c.Tool] ||
				e.CallID != "id-"+c.Name || e.RequestID != caller.RequestID || e.Principal != pAll.ID || e.Scope != "s" ||
				e.Executed != (c.Want.Code == "") || e.Attempt != 1 {
				t.Errorf("event %+v", e)
			}
			var wantRefs []gate.ViolationRef
			if res.Err != nil {
				for _, v := range res.Err.Violations {
					wantRefs = append(wantRefs, gate.ViolationRef{Keyword: v.Keyword, InstancePath: v.InstancePath})
				}
			}
			if !reflect.DeepEqual(e.Violations, wantRefs) {
				t.Errorf("event violations %+v, want %+v", e.Violations, wantRefs)
			}
		})
	}
}

// TestAuditNeverCarriesArgumentValues: whatever happens to a call, neither
// the events nor the slog output contain an argument value.
func TestAuditNeverCarriesArgumentValues(t *testing.T) {
	secrets := []string{"SECRETORDER9731", "secret-lower-9731", "confidential-reason-x", "approver-secret-77", "99173", "173917", "Ada Lovelace", "SW1Y 4JH"}
	type step struct {
		p     gate.Principal
		calls []gate.Call
		echo  string // a secret the model-facing error does show (proof the value was there)
	}
	steps := []step{
		{pFinance, []gate.Call{call("a1", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
		{pFinance, []gate.Call{call("a1", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""}, // replay
		{pSupport, []gate.Call{call("a2", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""}, // unauthorized
		{pFinance, []gate.Call{call("a3", refundT, refund("orderId", `"secret-lower-9731"`))}, "secret-lower-9731"},
		{pFinance, []gate.Call{call("a4", refundT, refund("reason", `"confidential-reason-x"`))}, "confidential-reason-x"},
		{pFinance, []gate.Call{call("a5", refundT, refund("approvedBy", `"approver-secret-77"`))}, ""},
		{pFinance, []gate.Call{call("a6", refundT, refund("amountInCents", "173917"))}, "173917"},
		{pFinance, []gate.Call{call("a7", refundT, `{"orderId":"SECRETORDER9731","amountInCents":99173,`)}, ""},
		{pFinance, []gate.Call{{ID: "a8", Name: refundT, Args: []byte(refund("orderId", `"SECRETORDER9731"`)), Complete: false}}, ""},
		{pNone, []gate.Call{call("a9", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
		{pAll, []gate.Call{call("b1", shipT, ship()), call("b2", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "173917"))}, "173917"},
		{pAll, []gate.Call{call("b3", shipT, ship()), call("b4", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
	}
	h := newHarness()
	h.exec = func(_ context.Context, tool string, _ any) (any, error) {
		if tool == refundT {
			return nil, gate.Conflict("already refunded")
		}
		return "ok", nil
	}
	var events []gate.Event
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "duration" {
			return slog.Attr{} // clock values could contain any digits
		}
		return a
	}}))
	slogAudit := gate.SlogAuditor(logger)
	r := h.wrapped(t, gate.WithAuditor(gate.AuditorFunc(func(ctx context.Context, e gate.Event) {
		slogAudit.Audit(ctx, e)
		e.Duration = 0
		events = append(events, e)
	})))
	ncalls := 0
	for i, s := range steps {
		res := r.DispatchBatch(context.Background(), as(s.p), s.calls, gate.BatchOptions{})
		ncalls += len(s.calls)
		if s.echo != "" {
			found := false
			for _, rr := range res {
				if rr.Err != nil && strings.Contains(rr.Err.Error(), s.echo) {
					found = true
				}
			}
			if !found {
				t.Errorf("step %d: no refusal shows %q; the test does not exercise it", i, s.echo)
			}
		}
	}
	if len(events) != ncalls {
		t.Errorf("%d events for %d calls", len(events), ncalls)
	}
	codes := map[toolerr.Code]bool{}
	for _, e := range events {
		codes[e.Code] = true
	}
	for _, want := range []toolerr.Code{toolerr.Conflict, toolerr.DuplicateCall, toolerr.Unauthorized, toolerr.InvalidArguments, toolerr.InvalidJSON, toolerr.IncompleteCall, toolerr.UnknownTool, toolerr.BatchAborted} {
		if !codes[want] {
			t.Errorf("no event with code %s: the test does not exercise it", want)
		}
	}
	evJSON, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(logs.String(), "\n") != ncalls {
		t.Errorf("%d log lines for %d calls", strings.Count(logs.String(), "\n"), ncalls)
	}
	for _, sec := range secrets {
		if bytes.Contains(evJSON, []byte(sec)) {
			t.Errorf("audit events contain %q: %s", sec, evJSON)
		}
		if strings.Contains(logs.String(), sec) {
			t.Errorf("slog output contains %q", sec)
		}
	}
	// Member names (not values) locate violations.
	if !bytes.Contains(evJSON, []byte(`"/approvedBy"`)) || !strings.Contains(logs.String(), `"path":"/approvedBy"`) {
		t.Errorf("violation paths missing from the audit:\n%s\n%s", evJSON, logs.String())
	}
}

// ---- benchmarks -------------------------------------------------------------------

// BenchmarkDispatch measures the gate's cost beyond the bare decoder: a
// valid refund_order call (the bytes of BenchmarkDecode/refund_order)
// through Registry.Dispatch (lookup, replay check, decode, policy that
// allows, executor that does nothing, audit), side by side in one run with
// "decode", the generated decoder alone, so that the ratios between the
// sub-benchmarks hold on a noisy machine (run with -count 8 or more: the
// rounds interleave, take medians). Every variant dispatches under
// context.Background with the tool's own timeout (10s), so the executor
// runs in a goroutine of its own, except "inline", where the tool has no
// timeout and the executor runs in the dispatching goroutine:
//
//   - no-id: a call without an ID (no replay store);
//   - id-memory: a fresh ID per call in a MemoryReplayStore whose IDs
//     expire after a millisecond, so that it holds a steady number of them;
//   - discard-auditor: no ID, an auditor that drops every event;
//   - slog-auditor: no ID, SlogAuditor writing JSON to io.Discard.
func BenchmarkDispatch(b *testing.B) {
	data := benchInput(b, refundT)
	bind := gate.Binding[generated.RefundOrderArgs]{
		Policy:        gate.AllowAll[generated.RefundOrderArgs],
		Execute:       func(context.Context, generated.RefundOrderArgs) (any, error) { return nil, nil },
		NeedsApproval: noApproval[generated.RefundOrderArgs],
	}
	newReg := func(b *testing.B, timeout time.Duration, opts ...gate.Option) *gate.Registry {
		spec := generated.RefundOrderSpec
		spec.Timeout = timeout
		reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(spec, bind)}, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return reg
	}
	caller := gate.Caller{Principal: pSupport, Scope: "bench"}
	ids := make([]string, 1<<16)
	for i := range ids {
		ids[i] = fmt.Sprintf("call_%d", i)
	}
	b.Run(refundT+"/decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := generated.DecodeRefundOrderArgs(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	timeout := generated.RefundOrderSpec.Timeout
	store := func() gate.Option {
		return gate.WithReplayStore(gate.NewMemoryReplayStore(gate.MemoryReplayConfig{IDsPerScope: 1 << 20, IDs: 1 << 20, MaxAge: time.Millisecond}))
	}
	variants := []struct {
		name    string
		timeout time.Duration
		withID  bool
		opts    []gate.Option
	}{
		{"no-id", timeout, false, nil},
		{"inline", 0, false, nil},
		{"id-memory", timeout, true, []gate.Option{store()}},
		{"discard-auditor", timeout, false, []gate.Option{gate.WithAuditor(gate.AuditorFunc(func(context.Context, gate.Event) {}))}},
		{"slog-auditor", timeout, false, []gate.Option{gate.WithAuditor(gate.SlogAuditor(slog.New(slog.NewJSONHandler(io.Discard, nil))))}},
	}
	for _, v := range variants {
		b.Run(refundT+"/"+v.name, func(b *testing.B) {
			reg := newReg(b, v.timeout, v.opts...)
			c := gate.Call{Name: refundT, Args: data, Complete: true}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if v.withID {
					c.ID = ids[i%len(ids)]
					i++
				}
				if _, err := reg.Dispatch(context.Background(), caller, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
