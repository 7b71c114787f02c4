package integration_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
