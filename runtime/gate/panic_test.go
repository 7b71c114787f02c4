package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Tests that a panic of the code the gate calls (a decoder, policy,
// executor, store or auditor) does not escape it.

// TestCheckPanicsDoNotEscape: a panicking decoder or policy refuses the call
// as a system error; nothing runs and nothing escapes.
func TestCheckPanicsDoNotEscape(t *testing.T) {
	tests := []struct {
		name   string
		decode bool // panic in the decoder, else in the policy
	}{{"decoder", true}, {"policy", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			spec := paySpec(&c)
			if tt.decode {
				spec.Decode = func([]byte) (payArgs, error) { panic("decoder bug") }
			}
			policy := Policy[payArgs](func(context.Context, Principal, payArgs) error {
				if !tt.decode {
					panic("policy bug")
				}
				return nil
			})
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, policy, nil))})
			res, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
			wantCode(t, err, toolerr.ExecutionFailed, toolerr.System)
			if res.Executed || c.execs.Load() != 0 {
				t.Errorf("executed %v, execs %d; want nothing run", res.Executed, c.execs.Load())
			}
			// The ID was not claimed: a correct retry can run.
			if seen, _ := r.replay.Seen(context.Background(), caller.Scope, "c1"); seen {
				t.Error("the refused call's ID was claimed")
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

// TestExecutorPanicInEitherPath: an executor's panic is execution_failed
// (Executed, not late) whether it runs inline or in a goroutine of its
// own, where the gate recovers only when the executor did not return.
func TestExecutorPanicInEitherPath(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Hour} {
		for _, v := range []any{"boom", nil, errors.New("boom")} {
			t.Run(fmt.Sprintf("%s/%v", timeout, v), func(t *testing.T) {
				var c spyCounts
				spec := paySpec(&c)
				spec.Timeout = timeout
				rec := newRecorder()
				r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, func(context.Context, payArgs) (any, error) { panic(v) }))}, WithAuditor(rec))
				res, err := r.Dispatch(context.Background(), caller, Call{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true})
				te := wantCode(t, err, toolerr.ExecutionFailed, toolerr.System)
				if !res.Executed || te.Err == nil || !strings.Contains(te.Err.Error(), "executor panicked") {
					t.Errorf("result %+v, error %v", res, te.Err)
				}
				if e := rec.wait(1)[0]; e.Code != toolerr.ExecutionFailed || e.Late || !e.Executed {
					t.Errorf("event = %+v", e)
				}
			})
		}
	}
}
