package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Tests of the steps of a call, one by one (see the package documentation).

func TestDecodeNullAsAbsentByDialect(t *testing.T) {
	const withNull = `{"account":"ACC-1","amount":5,"memo":null}`
	tests := []struct {
		dialect     Dialect
		nullDecoder bool // the spec has DecodeNullAsAbsent
		wantNull    bool // DecodeNullAsAbsent runs (else Decode)
	}{
		{Plain, true, false},
		{OpenAIChat, true, true},
		{OpenAIResponses, true, true},
		{Anthropic, true, false},
		{Gemini, true, false},
		{MCP, true, false},
		{OpenAIChat, false, false},
		{OpenAIResponses, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/null-decoder=%v", tt.dialect, tt.nullDecoder), func(t *testing.T) {
			var c spyCounts
			spec := paySpec(&c)
			if tt.nullDecoder {
				spec.DecodeNullAsAbsent = func(b []byte) (payArgs, error) {
					c.nullDecodes.Add(1)
					return decodePay(b, true)
				}
			}
			var got payArgs
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, func(_ context.Context, a payArgs) (any, error) { got = a; return nil, nil }))})
			_, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(withNull), Complete: true, Dialect: tt.dialect})
			if tt.wantNull {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if c.nullDecodes.Load() != 1 || c.decodes.Load() != 0 || c.execs.Load() != 1 {
					t.Errorf("null decodes %d, decodes %d, execs %d; want 1, 0, 1", c.nullDecodes.Load(), c.decodes.Load(), c.execs.Load())
				}
				if got.Memo != nil || got.Account != "ACC-1" {
					t.Errorf("args = %+v, want memo absent", got)
				}
				return
			}
			wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
			if c.nullDecodes.Load() != 0 || c.decodes.Load() != 1 || c.execs.Load() != 0 {
				t.Errorf("null decodes %d, decodes %d, execs %d; want 0, 1, 0", c.nullDecodes.Load(), c.decodes.Load(), c.execs.Load())
			}
		})
	}
}

// TestPlainDecoderErrorIsInvalidArguments: a hand-written decoder's plain
// error refuses the arguments without echoing its text to the model.
func TestPlainDecoderErrorIsInvalidArguments(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	secret := errors.New(`bad value "hunter2"`)
	spec.Decode = func([]byte) (payArgs, error) { return payArgs{}, secret }
	r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, nil))})
	_, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	te := wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
	b, _ := json.Marshal(te)
	if !errors.Is(err, secret) || strings.Contains(string(b), "hunter2") || c.execs.Load() != 0 || c.policies.Load() != 0 {
		t.Errorf("error %s (wraps secret: %v), policies %d, execs %d", b, errors.Is(err, secret), c.policies.Load(), c.execs.Load())
	}
}

// TestPolicyDenial: a denial is unauthorized (permission), keeps the
// policy's error for the logs only, and runs nothing.
func TestPolicyDenial(t *testing.T) {
	var c spyCounts
	denial := errors.New("tenant t2 may not pay from ACC-1")
	var seenP Principal
	var seenA payArgs
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, func(_ context.Context, p Principal, a payArgs) error {
		seenP, seenA = p, a
		if p.Tenant != "t1" {
			return denial
		}
		return nil
	}, nil))})
	other := Caller{Principal: Principal{ID: "u2", Tenant: "t2", Roles: []string{"x"}}, Scope: "conv-1"}
	res, err := r.Dispatch(context.Background(), other, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	te := wantCode(t, err, toolerr.Unauthorized, toolerr.Permission)
	if res.Executed || c.execs.Load() != 0 {
		t.Errorf("executed after a denial")
	}
	if !errors.Is(err, denial) {
		t.Errorf("error does not wrap the policy's denial")
	}
	if b, _ := json.Marshal(te); strings.Contains(string(b), "tenant t2") {
		t.Errorf("the policy's error reached the model: %s", b)
	}
	if seenP.ID != "u2" || seenP.Tenant != "t2" || seenA.Account != "ACC-1" || seenA.Amount != 5 {
		t.Errorf("policy saw %+v, %+v", seenP, seenA)
	}
	// The denied ID is not consumed: the right principal can run it.
	if _, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}); err != nil || c.execs.Load() != 1 {
		t.Errorf("allowed call after a denial: %v, execs %d", err, c.execs.Load())
	}
}

// TestUnknownDialectFailsClosed: only Plain and the known dialects resolve
// a tool; any other dialect is unknown_tool, whatever the tool's
// definitions, and nothing runs.
func TestUnknownDialectFailsClosed(t *testing.T) {
	mcpOnly := []provider.Definition{{Provider: provider.MCP, JSON: "{}"}}
	tests := []struct {
		dialect Dialect
		defs    []provider.Definition
		runs    bool
	}{
		{Plain, nil, true},
		{Plain, mcpOnly, true},
		{MCP, mcpOnly, true},
		{MCP, nil, true},
		{Anthropic, mcpOnly, false},
		{Anthropic, nil, true},
		{Dialect("openai"), nil, false},
		{Dialect("openai"), mcpOnly, false},
		{Dialect("MCP"), mcpOnly, false},
		{Dialect("mcp "), mcpOnly, false},
		{Dialect("bedrock"), nil, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/%d definitions", tt.dialect, len(tt.defs)), func(t *testing.T) {
			var c spyCounts
			spec := paySpec(&c)
			spec.Definitions = tt.defs
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, nil))})
			_, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true, Dialect: tt.dialect})
			if tt.runs {
				if err != nil || c.execs.Load() != 1 {
					t.Errorf("err %v, execs %d; want a run", err, c.execs.Load())
				}
				return
			}
			wantCode(t, err, toolerr.UnknownTool, toolerr.Validation)
			if c.decodes.Load() != 0 || c.execs.Load() != 0 {
				t.Errorf("decodes %d, execs %d; want 0, 0", c.decodes.Load(), c.execs.Load())
			}
		})
	}
}

// TestCancelledBeforeExecution: an executor whose turn comes after the
// context is done does not start; the call is execution_failed (cancelled)
// or timeout (deadline passed) with a clear reason, Executed is false, and
// its ID's claim is released so that a retry runs it. A call whose
// executor was running when the context ended is answered without its
// outcome, keeps its claim, and its outcome is audited late.
func TestCancelledBeforeExecution(t *testing.T) {
	const (
		ran     = "ran"     // ran and succeeded in time
		cut     = "cut"     // ran, answered as cancelled, outcome audited late
		skipped = "skipped" // not started
	)
	tests := []struct {
		name        string
		preCancel   bool // the context is cancelled before dispatch
		preDeadline bool // the context's deadline passed before dispatch
		cancelAfter int  // else the executor of this call (1-based) cancels it
		parallel    bool
		want        []string
	}{
		{name: "cancelled before dispatch", preCancel: true, want: []string{skipped, skipped, skipped}},
		{name: "cancelled before dispatch, parallel", preCancel: true, parallel: true, want: []string{skipped, skipped, skipped}},
		{name: "deadline passed before dispatch", preDeadline: true, want: []string{skipped, skipped, skipped}},
		{name: "deadline passed before dispatch, parallel", preDeadline: true, parallel: true, want: []string{skipped, skipped, skipped}},
		{name: "cancelled by the first executor", cancelAfter: 1, want: []string{cut, skipped, skipped}},
		{name: "cancelled by the second executor", cancelAfter: 2, want: []string{ran, cut, skipped}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.preCancel {
				cancel()
			}
			if tt.preDeadline {
				var cancelDeadline context.CancelFunc
				ctx, cancelDeadline = context.WithDeadline(ctx, time.Unix(0, 0))
				defer cancelDeadline()
			}
			var c spyCounts
			var n atomic.Int64
			rec := newRecorder()
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, func(context.Context, payArgs) (any, error) {
				if n.Add(1) == int64(tt.cancelAfter) {
					cancel()
				}
				return "ok", nil
			}))}, WithAuditor(rec))
			calls := []Call{
				{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "b", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "c", Name: "pay", Args: []byte(goodPay), Complete: true},
			}
			res := r.DispatchBatch(ctx, caller, calls, BatchOptions{Parallel: tt.parallel})
			wantEvents := len(calls)
			for i, want := range tt.want {
				seen, _ := r.replay.Seen(context.Background(), caller.Scope, calls[i].ID)
				if res[i].Executed != (want != skipped) || seen != (want != skipped) {
					t.Errorf("call %d: Executed %v, claimed %v; want %s", i, res[i].Executed, seen, want)
				}
				switch want {
				case ran:
					if res[i].Err != nil || res[i].Value != "ok" {
						t.Errorf("call %d: %v, %v", i, res[i].Value, res[i].Err)
					}
				case cut:
					wantEvents++
					te := wantCode(t, res[i].Err, toolerr.ExecutionFailed, toolerr.System)
					if !strings.Contains(te.Reason, "cancelled before the tool finished") || res[i].Value != nil {
						t.Errorf("call %d: reason %q, value %v", i, te.Reason, res[i].Value)
					}
				case skipped:
					code, reason, cause := toolerr.ExecutionFailed, "the request was cancelled before the tool ran", context.Canceled
					if tt.preDeadline {
						code, reason, cause = toolerr.Timeout, "the request's deadline passed before the tool ran", context.DeadlineExceeded
					}
					te := wantCode(t, res[i].Err, code, toolerr.System)
					if te.Reason != reason || !errors.Is(te, cause) {
						t.Errorf("call %d: reason %q, err %v", i, te.Reason, te.Err)
					}
				}
			}
			if got := n.Load(); got != int64(tt.cancelAfter) {
				t.Errorf("%d executions, want %d", got, tt.cancelAfter)
			}
			events := rec.wait(wantEvents)
			for _, e := range events {
				if e.Late && (e.Code != OK || !e.Executed) {
					t.Errorf("late event %+v, want the executor's ok", e)
				}
			}
			// A retry under a live context runs exactly the calls that did
			// not run; the ones that ran are replays.
			before := c.execs.Load()
			res = r.DispatchBatch(context.Background(), caller, calls[len(calls)-1:], BatchOptions{})
			if res[0].Err != nil || c.execs.Load() != before+1 {
				t.Errorf("retry of the last call: %v, execs +%d", res[0].Err, c.execs.Load()-before)
			}
			if tt.want[0] != skipped {
				_, err := r.Dispatch(context.Background(), caller, calls[0])
				wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
				if c.execs.Load() != before+1 {
					t.Errorf("the replay of a call that ran: execs +%d, want none beyond the retry", c.execs.Load()-before-1)
				}
			}
		})
	}
}

// TestSingleCallCopiesOfThePrincipal: in a single dispatch, the policy,
// NeedsApproval and the executor each get a copy of the principal that
// shares nothing with the caller's or with each other's, in the inline
// path and in the goroutine path, whatever each does to its own.
func TestSingleCallCopiesOfThePrincipal(t *testing.T) {
	mutate := func(p *Principal) {
		p.Roles[0] = "admin"
		p.Roles = append(p.Roles, "root")
	}
	for _, timeout := range []time.Duration{0, time.Hour} {
		t.Run(fmt.Sprintf("timeout %s", timeout), func(t *testing.T) {
			var c spyCounts
			var seen []Principal
			spec := paySpec(&c)
			spec.Timeout = timeout
			spec.Approval, spec.Approvers = ApprovalPolicy, []string{"lead"}
			b := payBinding(&c, func(_ context.Context, p Principal, _ payArgs) error {
				seen = append(seen, Principal{ID: p.ID, Roles: slices.Clone(p.Roles)})
				mutate(&p)
				return nil
			}, func(ctx context.Context, _ payArgs) (any, error) {
				p, _ := PrincipalFrom(ctx)
				seen = append(seen, Principal{ID: p.ID, Roles: slices.Clone(p.Roles)})
				mutate(&p)
				q, _ := PrincipalFrom(ctx)
				seen = append(seen, Principal{ID: q.ID, Roles: slices.Clone(q.Roles)})
				return "paid", nil
			})
			b.NeedsApproval = func(_ context.Context, p Principal, _ payArgs) (bool, string) {
				seen = append(seen, Principal{ID: p.ID, Roles: slices.Clone(p.Roles)})
				mutate(&p)
				return false, ""
			}
			r := mustRegistry(t, []*Tool{Bind(spec, b)})
			roles := make([]string, 2, 8) // spare capacity: an append could write into it
			roles[0], roles[1] = "support", "billing"
			cl := Caller{Principal: Principal{ID: "u1", Roles: roles[:2]}, Scope: "s"}
			for i := range 2 {
				res, err := r.Dispatch(context.Background(), cl, Call{ID: fmt.Sprint("c", i), Name: "pay", Args: []byte(goodPay), Complete: true})
				if err != nil || res.Value != "paid" {
					t.Fatalf("dispatch %d: %+v, %v", i, res, err)
				}
			}
			want := []string{"support", "billing"}
			if len(seen) != 8 { // per call: policy, NeedsApproval, executor twice
				t.Fatalf("seen %d principals, want 8", len(seen))
			}
			for i, p := range seen {
				if p.ID != "u1" || !slices.Equal(p.Roles, want) {
					t.Errorf("principal %d = %+v, want roles %q", i, p, want)
				}
			}
			if !slices.Equal(roles[:3], []string{"support", "billing", ""}) {
				t.Errorf("the caller's roles changed: %q", roles[:3])
			}
		})
	}
}
