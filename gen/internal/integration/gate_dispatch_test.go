package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
