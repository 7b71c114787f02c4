package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
			}
		})
	}
}

// panickyStore panics in Claim when claim is set.
type panickyStore struct {
	*MemoryReplayStore
	claim bool
}

func (p *panickyStore) Claim(ctx context.Context, scope, id string) (bool, error) {
	if p.claim {
		panic("claim")
	}
	return p.MemoryReplayStore.Claim(ctx, scope, id)
}

// TestStoreAndAuditorPanicsDoNotEscape: a panicking replay store refuses
// the call as replay_unavailable, audited, and nothing runs; a panicking
// auditor loses its event and the result stands.
func TestStoreAndAuditorPanicsDoNotEscape(t *testing.T) {
	tests := []struct {
		name        string
		store       ReplayStore
		auditPanics bool
		wantCode    toolerr.Code // "" for success
	}{
		{"Claim panics", &panickyStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{}), claim: true}, false, toolerr.ReplayUnavailable},
		{"auditor panics", nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			var events []Event
			opts := []Option{WithAuditor(AuditorFunc(func(_ context.Context, e Event) { events = append(events, e) }))}
			if tt.store != nil {
				opts = append(opts, WithReplayStore(tt.store))
			}
			if tt.auditPanics {
				opts = append(opts, WithAuditor(AuditorFunc(func(context.Context, Event) { panic("audit") })))
			}
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, opts...)
			var err error
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Fatalf("panic escaped: %v", v)
					}
				}()
				_, err = r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
			}()
			if tt.wantCode == "" {
				if err != nil || c.execs.Load() != 1 {
					t.Errorf("err %v, execs %d; want one run", err, c.execs.Load())
				}
				return
			}
			te := wantCode(t, err, tt.wantCode, toolerr.System)
			if !strings.Contains(te.Err.Error(), "panicked") || c.execs.Load() != 0 {
				t.Errorf("error %v, execs %d; want the panic kept and nothing run", te.Err, c.execs.Load())
			}
			if len(events) != 1 || events[0].Code != tt.wantCode || events[0].Category != toolerr.System || events[0].Executed {
				t.Errorf("events = %+v, want one %s", events, tt.wantCode)
			}
		})
	}
}
