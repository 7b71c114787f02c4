package integration_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
				if tt.lastViol != "" && (len(e.Violations()) == 0 || e.Violations()[0].Keyword != tt.lastViol) {
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
