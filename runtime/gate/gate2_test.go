package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
// context is done does not start; the call is execution_failed with a
// clear reason, Executed is false, and its ID's claim is released so that
// a retry runs it.
func TestCancelledBeforeExecution(t *testing.T) {
	tests := []struct {
		name        string
		preCancel   bool // the context is done before dispatch
		cancelAfter int  // else the executor of this call (1-based) cancels it
		parallel    bool
		wantRun     []bool
	}{
		{name: "cancelled before dispatch", preCancel: true, wantRun: []bool{false, false, false}},
		{name: "cancelled before dispatch, parallel", preCancel: true, parallel: true, wantRun: []bool{false, false, false}},
		{name: "cancelled by the first executor", cancelAfter: 1, wantRun: []bool{true, false, false}},
		{name: "cancelled by the second executor", cancelAfter: 2, wantRun: []bool{true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.preCancel {
				cancel()
			}
			var c spyCounts
			var n atomic.Int64
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, func(context.Context, payArgs) (any, error) {
				if n.Add(1) == int64(tt.cancelAfter) {
					cancel()
				}
				return "ok", nil
			}))})
			var events []Event
			var mu sync.Mutex
			r.audit = AuditorFunc(func(_ context.Context, e Event) { mu.Lock(); events = append(events, e); mu.Unlock() })
			calls := []Call{
				{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "b", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "c", Name: "pay", Args: []byte(goodPay), Complete: true},
			}
			res := r.DispatchBatch(ctx, caller, calls, BatchOptions{Parallel: tt.parallel})
			for i, want := range tt.wantRun {
				if res[i].Executed != want {
					t.Errorf("call %d: Executed %v, want %v", i, res[i].Executed, want)
				}
				if want {
					if res[i].Err != nil {
						t.Errorf("call %d: %v", i, res[i].Err)
					}
					continue
				}
				te := wantCode(t, res[i].Err, toolerr.ExecutionFailed, toolerr.System)
				if te.Reason != "the request was cancelled before the tool ran" || !errors.Is(te, context.Canceled) {
					t.Errorf("call %d: reason %q, err %v", i, te.Reason, te.Err)
				}
				if seen, _ := r.replay.Seen(context.Background(), caller.Scope, calls[i].ID); seen {
					t.Errorf("call %d: its ID is still claimed", i)
				}
			}
			if len(events) != len(calls) {
				t.Errorf("%d events, want %d", len(events), len(calls))
			}
			// A retry under a live context runs exactly the calls that did
			// not run; the ones that ran are replays.
			before := c.execs.Load()
			res = r.DispatchBatch(context.Background(), caller, calls[len(calls)-1:], BatchOptions{})
			if res[0].Err != nil || c.execs.Load() != before+1 {
				t.Errorf("retry of the last call: %v, execs +%d", res[0].Err, c.execs.Load()-before)
			}
			if tt.wantRun[0] {
				_, err := r.Dispatch(context.Background(), caller, calls[0])
				wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
			}
		})
	}
}

// TestReplayStoreFairness: the calls of one scope cannot evict another
// scope's IDs; only the whole least recently used scope is evicted, and
// only when there are more scopes than the store keeps.
func TestReplayStoreFairness(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		perScope   int
		maxScopes  int
		flood      func(s *MemoryReplayStore) // after the victim claims v1, v2
		victimSeen bool
	}{
		{"another scope's many calls", 3, 4, func(s *MemoryReplayStore) {
			for i := range 1000 {
				s.Claim(ctx, "attacker", fmt.Sprint(i))
			}
		}, true},
		{"other scopes up to the bound", 3, 4, func(s *MemoryReplayStore) {
			for i := range 3 {
				for j := range 10 {
					s.Claim(ctx, fmt.Sprint("other-", i), fmt.Sprint(j))
				}
			}
		}, true},
		{"the victim's own claims push out its oldest IDs", 2, 4, func(s *MemoryReplayStore) {
			s.Claim(ctx, "victim", "v3")
			s.Claim(ctx, "victim", "v4")
		}, false},
		{"an active victim scope outlives older scopes", 3, 4, func(s *MemoryReplayStore) {
			s.Claim(ctx, "other-0", "x")
			s.Claim(ctx, "other-1", "x")
			s.Claim(ctx, "victim", "v3")
			s.Claim(ctx, "other-2", "x")
			s.Claim(ctx, "other-3", "x") // the fifth scope: other-0 goes
			if seen, _ := s.Seen(ctx, "other-0", "x"); seen {
				t.Error("the oldest scope was not evicted")
			}
		}, true},
		{"more scopes than the bound evict the oldest whole scope", 3, 4, func(s *MemoryReplayStore) {
			for i := range 4 {
				s.Claim(ctx, fmt.Sprint("other-", i), "x")
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewMemoryReplayStore(tt.perScope, tt.maxScopes, time.Hour)
			s.Claim(ctx, "victim", "v1")
			s.Claim(ctx, "victim", "v2")
			tt.flood(s)
			for _, id := range []string{"v1", "v2"} {
				if seen, _ := s.Seen(ctx, "victim", id); seen != tt.victimSeen {
					t.Errorf("victim's %s seen %v, want %v", id, seen, tt.victimSeen)
				}
			}
			scopes, ids := s.size()
			if scopes > tt.maxScopes || ids > tt.perScope*tt.maxScopes {
				t.Errorf("store holds %d IDs in %d scopes, bounds %d × %d", ids, scopes, tt.perScope, tt.maxScopes)
			}
		})
	}
	// Capacities below 1 are raised to 1.
	s := NewMemoryReplayStore(0, 0, 0)
	s.Claim(ctx, "a", "1")
	if seen, _ := s.Seen(ctx, "a", "1"); !seen {
		t.Error("a store of capacity 0 remembers nothing")
	}
}

// panickyStore panics in the methods named.
type panickyStore struct {
	*MemoryReplayStore
	seen, claim bool
}

func (p *panickyStore) Seen(ctx context.Context, scope, id string) (bool, error) {
	if p.seen {
		panic("seen")
	}
	return p.MemoryReplayStore.Seen(ctx, scope, id)
}

func (p *panickyStore) Claim(ctx context.Context, scope, id string) (bool, error) {
	if p.claim {
		panic("claim")
	}
	return p.MemoryReplayStore.Claim(ctx, scope, id)
}

// TestStoreAndAuditorPanicsDoNotEscape: a panicking replay store refuses
// the call as a store failure, nothing runs; a panicking auditor loses its
// event and the result stands.
func TestStoreAndAuditorPanicsDoNotEscape(t *testing.T) {
	tests := []struct {
		name        string
		store       ReplayStore
		auditPanics bool
		wantCode    toolerr.Code // "" for success
	}{
		{"Seen panics", &panickyStore{MemoryReplayStore: NewMemoryReplayStore(10, 10, time.Hour), seen: true}, false, toolerr.ReplayUnavailable},
		{"Claim panics", &panickyStore{MemoryReplayStore: NewMemoryReplayStore(10, 10, time.Hour), claim: true}, false, toolerr.ReplayUnavailable},
		{"auditor panics", nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			opts := []Option{}
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
			if te.Reason != "the replay store failed" || c.execs.Load() != 0 {
				t.Errorf("reason %q, execs %d", te.Reason, c.execs.Load())
			}
		})
	}
}
