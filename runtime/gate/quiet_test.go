package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// outcomeOf is what a dispatch decided, without the error's text.
type outcomeOf struct {
	code     toolerr.Code
	executed bool
	value    any
}

func decided(res Result) outcomeOf {
	o := outcomeOf{executed: res.Executed, value: res.Value}
	if res.Err != nil {
		o.code = res.Err.Code
	}
	return o
}

// TestNoOpAuditorDecidesAlike: without an auditor, the gate builds no
// event and times no step, and it decides every call exactly as with one:
// the same results, the same executions, in the single-call path (Dispatch,
// DispatchBatch of one call) and the batch path.
func TestNoOpAuditorDecidesAlike(t *testing.T) {
	errFull := errors.New("full")
	denyAll := func(context.Context, Principal, payArgs) error { return errors.New("no") }
	waitDone := func(ctx context.Context, _ payArgs) (any, error) { <-ctx.Done(); return nil, ctx.Err() }
	cancelled := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}
	tests := []struct {
		name    string
		policy  Policy[payArgs]
		exec    Executor[payArgs]
		timeout time.Duration
		store   func() ReplayStore
		ctx     func() context.Context
		calls   []Call // dispatched one after another
		want    []outcomeOf
		execs   int64
	}{
		{name: "success without ID", calls: []Call{{Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{executed: true, value: "paid ACC-1"}}, execs: 1},
		{name: "replayed ID", calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}, {ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{executed: true, value: "paid ACC-1"}, {code: toolerr.DuplicateCall}}, execs: 1},
		{name: "invalid arguments", calls: []Call{{ID: "a", Name: "pay", Args: []byte(`{"account":1}`), Complete: true}},
			want: []outcomeOf{{code: toolerr.InvalidArguments}}},
		{name: "unknown tool", calls: []Call{{ID: "a", Name: "Pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{code: toolerr.UnknownTool}}},
		{name: "incomplete", calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay)}},
			want: []outcomeOf{{code: toolerr.IncompleteCall}}},
		{name: "policy denies", policy: denyAll, calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{code: toolerr.Unauthorized}}},
		{name: "claim fails", store: func() ReplayStore {
			return &failingStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{}), claimErr: map[string]error{"a": errFull}}
		}, calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{code: toolerr.ReplayUnavailable}}},
		{name: "claim taken", store: func() ReplayStore {
			return &failingStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{}), taken: map[string]bool{"a": true}}
		}, calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{code: toolerr.DuplicateCall}}},
		{name: "tool timeout", exec: waitDone, timeout: time.Millisecond, calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want: []outcomeOf{{code: toolerr.Timeout, executed: true}}, execs: 1},
		{name: "cancelled before the run, then retried", ctx: cancelled,
			calls: []Call{{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}},
			want:  []outcomeOf{{code: toolerr.ExecutionFailed}}},
	}
	dispatchers := []struct {
		name string
		do   func(r *Registry, ctx context.Context, call Call) Result
	}{
		{"Dispatch", func(r *Registry, ctx context.Context, call Call) Result {
			res, err := r.Dispatch(ctx, caller, call)
			if (err == nil) != (res.Err == nil) {
				panic(fmt.Sprintf("Dispatch returned error %v with result error %v", err, res.Err))
			}
			return res
		}},
		{"DispatchBatch of one", func(r *Registry, ctx context.Context, call Call) Result {
			return r.DispatchBatch(ctx, caller, []Call{call}, BatchOptions{})[0]
		}},
		{"batch path", func(r *Registry, ctx context.Context, call Call) Result {
			return r.dispatch(ctx, caller, []Call{call}, BatchOptions{}, 1)[0]
		}},
	}
	for _, tt := range tests {
		for _, d := range dispatchers {
			for _, audited := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/audited=%v", tt.name, d.name, audited), func(t *testing.T) {
					var c spyCounts
					spec := paySpec(&c)
					spec.Timeout = tt.timeout
					var opts []Option
					rec := newRecorder()
					if audited {
						opts = append(opts, WithAuditor(rec))
					}
					if tt.store != nil {
						opts = append(opts, WithReplayStore(tt.store()))
					}
					exec := tt.exec
					var returned chan struct{}
					if tt.timeout > 0 {
						// The gate answers at the timeout without waiting:
						// count the execution once the executor returned.
						returned = make(chan struct{})
						var once sync.Once
						exec = func(ctx context.Context, a payArgs) (any, error) {
							defer once.Do(func() { close(returned) })
							return tt.exec(ctx, a)
						}
					}
					r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, tt.policy, exec))}, opts...)
					if r.quiet == audited {
						t.Fatalf("quiet = %v with an auditor %v", r.quiet, audited)
					}
					ctx := context.Background()
					if tt.ctx != nil {
						ctx = tt.ctx()
					}
					for i, call := range tt.calls {
						if got := decided(d.do(r, ctx, call)); got != tt.want[i] {
							t.Errorf("call %d: %+v, want %+v", i, got, tt.want[i])
						}
					}
					if returned != nil {
						<-returned
					}
					if n := c.execs.Load(); n != tt.execs {
						t.Errorf("%d executions, want %d", n, tt.execs)
					}
					if tt.ctx != nil {
						// The claim of a call cancelled before its run is
						// released: a retry runs.
						if got := decided(d.do(r, context.Background(), tt.calls[0])); got != (outcomeOf{executed: true, value: "paid ACC-1"}) {
							t.Errorf("retry: %+v, want a run", got)
						}
					}
					if audited {
						rec.wait(len(tt.calls))
					}
				})
			}
		}
	}
}
