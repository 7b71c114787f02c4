package gate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// waitGoroutines waits until at most n goroutines run, and fails with
// their stacks if that does not happen within a generous bound (this
// checks for a leak, not for speed).
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for range 1000 {
		if runtime.NumGoroutine() <= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
}

// deadlineCtx is a context whose deadline passes when the test calls
// expire, so that a test does not race a clock.
type deadlineCtx struct {
	context.Context
	done chan struct{}
}

func newDeadlineCtx() (ctx context.Context, expire func()) {
	d := &deadlineCtx{Context: context.Background(), done: make(chan struct{})}
	return d, sync.OnceFunc(func() { close(d.done) })
}

func (d *deadlineCtx) Deadline() (time.Time, bool) { return time.Unix(0, 0), true }
func (d *deadlineCtx) Done() <-chan struct{}       { return d.done }
func (d *deadlineCtx) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func TestExecutorOutcomes(t *testing.T) {
	errBoom := errors.New("database down")
	var cancelCaller context.CancelFunc // cancels the caller's context of the case that sets it
	var expireCaller func()             // passes the caller's deadline in the case that sets it
	tests := []struct {
		name     string
		timeout  time.Duration
		ctx      func() (context.Context, context.CancelFunc)
		exec     Executor[payArgs]
		code     toolerr.Code // "" for success
		cat      toolerr.Category
		reason   string       // substring of the refusal's Reason, when set
		unwrapIs error        // errors.Is(err, unwrapIs), when set
		late     toolerr.Code // the code of the late event, when there is one
	}{
		{name: "success", exec: func(context.Context, payArgs) (any, error) { return 42, nil }},
		{name: "error", exec: func(context.Context, payArgs) (any, error) { return nil, errBoom }, code: toolerr.ExecutionFailed, cat: toolerr.System, unwrapIs: errBoom},
		{name: "conflict", exec: func(context.Context, payArgs) (any, error) { return nil, Conflict("already paid") }, code: toolerr.Conflict, cat: toolerr.StateConflict, reason: "already paid"},
		{name: "wrapped conflict", exec: func(context.Context, payArgs) (any, error) {
			return nil, fmt.Errorf("ledger: %w", Conflict("already paid"))
		}, code: toolerr.Conflict, cat: toolerr.StateConflict, reason: "already paid"},
		{name: "panic", exec: func(context.Context, payArgs) (any, error) { panic("boom") }, code: toolerr.ExecutionFailed, cat: toolerr.System},
		{name: "panic nil", exec: func(context.Context, payArgs) (any, error) { panic(nil) }, code: toolerr.ExecutionFailed, cat: toolerr.System},
		{name: "panic error", exec: func(context.Context, payArgs) (any, error) { panic(errBoom) }, code: toolerr.ExecutionFailed, cat: toolerr.System},
		{name: "timeout", timeout: 20 * time.Millisecond, exec: func(ctx context.Context, _ payArgs) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, code: toolerr.Timeout, cat: toolerr.System, reason: "did not finish within 20ms", late: toolerr.ExecutionFailed},
		{name: "timeout, error wraps the cause", timeout: 20 * time.Millisecond, exec: func(ctx context.Context, _ payArgs) (any, error) {
			<-ctx.Done()
			return nil, fmt.Errorf("gave up: %w", context.Cause(ctx))
		}, code: toolerr.Timeout, cat: toolerr.System, late: toolerr.ExecutionFailed},
		{name: "timeout, then a conflict", timeout: 20 * time.Millisecond, exec: func(ctx context.Context, _ payArgs) (any, error) {
			<-ctx.Done()
			return nil, Conflict("already paid")
		}, code: toolerr.Timeout, cat: toolerr.System, late: toolerr.Conflict},
		{name: "within timeout", timeout: time.Minute, exec: func(ctx context.Context, _ payArgs) (any, error) {
			if _, ok := ctx.Deadline(); !ok {
				return nil, errors.New("no deadline set")
			}
			return "ok", nil
		}},
		{name: "caller cancelled is not a tool timeout", timeout: time.Minute,
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				cancelCaller = cancel
				return ctx, cancel
			},
			// Cancelled while the executor runs (a context cancelled
			// before, see TestCancelledBeforeExecution, runs nothing).
			exec: func(ctx context.Context, _ payArgs) (any, error) { cancelCaller(); <-ctx.Done(); return nil, ctx.Err() },
			code: toolerr.ExecutionFailed, cat: toolerr.System, reason: "cancelled before the tool finished", unwrapIs: context.Canceled, late: toolerr.ExecutionFailed},
		{name: "caller deadline is a timeout", timeout: time.Minute,
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, expire := newDeadlineCtx()
				expireCaller = expire
				return ctx, expire
			},
			exec: func(ctx context.Context, _ payArgs) (any, error) { expireCaller(); <-ctx.Done(); return nil, ctx.Err() },
			code: toolerr.Timeout, cat: toolerr.System, reason: "the request's deadline passed", unwrapIs: context.DeadlineExceeded, late: toolerr.ExecutionFailed},
		{name: "executor cannot claim unauthorized", exec: func(context.Context, payArgs) (any, error) {
			return nil, &toolerr.Error{Code: toolerr.Unauthorized, Reason: "nope"}
		}, code: toolerr.ExecutionFailed, cat: toolerr.System},
		{name: "executor cannot claim invalid_arguments", exec: func(context.Context, payArgs) (any, error) {
			return nil, &toolerr.Error{Code: toolerr.InvalidArguments}
		}, code: toolerr.ExecutionFailed, cat: toolerr.System},
	}
	// With a context that can never end and no timeout, the executor runs
	// in the dispatching goroutine ("inline"); else in its own.
	type variant struct {
		parallel, inline bool
	}
	for _, tt := range tests {
		variants := []variant{{false, false}, {true, false}}
		if tt.ctx == nil && tt.timeout == 0 {
			variants = append(variants, variant{false, true}, variant{true, true})
		}
		for _, v := range variants {
			t.Run(fmt.Sprintf("%s/parallel=%v/inline=%v", tt.name, v.parallel, v.inline), func(t *testing.T) {
				parallel := v.parallel
				var c spyCounts
				spec := paySpec(&c)
				spec.Timeout = tt.timeout
				rec := newRecorder()
				r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, tt.exec))}, WithAuditor(rec))
				ctx, cancel := context.WithCancel(context.Background()) // never cancelled
				if v.inline {
					ctx = context.Background()
				}
				if tt.ctx != nil {
					ctx, cancel = tt.ctx()
				}
				defer cancel()
				res := r.DispatchBatch(ctx, caller, []Call{{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}}, BatchOptions{Parallel: parallel})
				want := 1
				if tt.late != "" {
					want = 2
				}
				// After the last event (a late one once the executor
				// returned), the executor has run.
				events := rec.wait(want)
				if len(res) != 1 || !res[0].Executed || c.execs.Load() != 1 {
					t.Fatalf("results %+v, execs %d; want one executed call", res, c.execs.Load())
				}
				if extra := rec.pending(); len(extra) > 0 {
					t.Errorf("more events than %d: %+v", want, extra)
				}
				if !events[0].Executed || events[0].Late {
					t.Fatalf("first event = %+v, want the executed call's, not late", events[0])
				}
				if tt.late != "" {
					if e := events[1]; !e.Late || !e.Executed || e.Code != tt.late || e.CallID != "c1" || e.Tool != "pay" {
						t.Errorf("late event = %+v, want %s", e, tt.late)
					}
				}
				if tt.code == "" {
					if res[0].Err != nil {
						t.Fatalf("refused: %v", res[0].Err)
					}
					if events[0].Code != OK {
						t.Errorf("event code %s, want ok", events[0].Code)
					}
					return
				}
				te := wantCode(t, res[0].Err, tt.code, tt.cat)
				if res[0].Value != nil {
					t.Errorf("Value = %v, want nil on failure", res[0].Value)
				}
				if te.Tool != "pay" || te.CallID != "c1" {
					t.Errorf("Tool, CallID = %q, %q", te.Tool, te.CallID)
				}
				if tt.reason != "" && !strings.Contains(te.Reason, tt.reason) {
					t.Errorf("Reason %q does not contain %q", te.Reason, tt.reason)
				}
				if tt.unwrapIs != nil && !errors.Is(te, tt.unwrapIs) {
					t.Errorf("error %v does not wrap %v", te, tt.unwrapIs)
				}
				if events[0].Code != tt.code || events[0].Category != tt.cat {
					t.Errorf("event = %s/%s, want %s/%s", events[0].Code, events[0].Category, tt.code, tt.cat)
				}
			})
		}
	}
}

// hangGuard bounds how long a broken gate can hang a test: the executor is
// released then, and the test fails because the executor returned before
// Dispatch did. It is no measure of speed.
const hangGuard = time.Minute

// TestGateDoesNotWaitForALateExecutor: an executor that ignores its
// context is not waited for. The gate answers when the tool's timeout or
// the caller's deadline passes (timeout) or the caller cancels
// (execution_failed), while the executor still runs: the test releases
// it only after Dispatch has returned, so a gate that waited fails (see
// hangGuard). The claim stays (a replay is refused, nothing runs again), and the
// executor's own outcome, panic included, is audited late.
func TestGateDoesNotWaitForALateExecutor(t *testing.T) {
	errBoom := errors.New("ledger down")
	ends := []struct {
		name   string
		code   toolerr.Code
		reason string
	}{
		{"tool timeout", toolerr.Timeout, "the tool did not finish within 1ms"},
		{"caller deadline", toolerr.Timeout, "the request's deadline passed before the tool finished"},
		{"caller cancels", toolerr.ExecutionFailed, "the request was cancelled before the tool finished"},
	}
	outcomes := []struct {
		name string
		exec func() (any, error)
		late toolerr.Code
	}{
		{"success", func() (any, error) { return "paid", nil }, OK},
		{"error", func() (any, error) { return nil, errBoom }, toolerr.ExecutionFailed},
		{"conflict", func() (any, error) { return nil, Conflict("already paid") }, toolerr.Conflict},
		{"panic", func() (any, error) { panic("late bug") }, toolerr.ExecutionFailed},
	}
	for _, end := range ends {
		for _, out := range outcomes {
			t.Run(end.name+"/"+out.name, func(t *testing.T) {
				base := runtime.NumGoroutine()
				var c spyCounts
				started, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
				releaseOnce := sync.OnceFunc(func() { close(release) })
				guard := time.AfterFunc(hangGuard, releaseOnce)
				defer guard.Stop()
				spec := paySpec(&c)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				switch end.name {
				case "tool timeout":
					spec.Timeout = time.Millisecond
				case "caller deadline":
					ctx, cancel = newDeadlineCtx()
				}
				rec := newRecorder()
				r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, func(context.Context, payArgs) (any, error) {
					defer close(returned)
					close(started)
					<-release // ignores its context
					return out.exec()
				}))}, WithAuditor(rec))
				if end.name != "tool timeout" {
					go func() { <-started; cancel() }() // cancels, or passes the deadline
				}
				call := Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}
				res, err := r.Dispatch(ctx, caller, call)
				select {
				case <-returned:
					t.Fatal("the executor returned before Dispatch did: the gate waited for it")
				default:
				}
				<-started // the gate may have answered before the executor's goroutine ran
				te := wantCode(t, err, end.code, toolerr.System)
				if te.Reason != end.reason+"; it may or may not have taken effect" || !res.Executed || res.Value != nil {
					t.Errorf("reason %q, executed %v, value %v", te.Reason, res.Executed, res.Value)
				}
				if evs := rec.pending(); len(evs) != 1 || evs[0].Code != end.code || evs[0].Late || !evs[0].Executed {
					t.Errorf("events before the executor returned = %+v, want the answer's only", evs)
				}
				// The outcome is unknown: the claim stays, a replay runs nothing.
				_, err = r.Dispatch(context.Background(), caller, call)
				wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
				if n := c.execs.Load(); n != 1 {
					t.Errorf("%d executions, want 1", n)
				}
				rec.wait(1) // the replay's refusal
				releaseOnce()
				late := rec.wait(1)[0]
				if !late.Late || late.Code != out.late || !late.Executed || late.CallID != "c1" || late.Version != "v1" || late.Principal != caller.Principal.ID {
					t.Errorf("late event = %+v, want %s", late, out.late)
				}
				waitGoroutines(t, base)
				if extra := rec.pending(); len(extra) > 0 {
					t.Errorf("more events: %+v", extra)
				}
			})
		}
	}
}

// TestTimedOutCallDoesNotHoldBackItsBatch: in a batch, a call whose
// executor ignores its timeout is answered timeout while the others get
// their own results, sequential or parallel.
func TestTimedOutCallDoesNotHoldBackItsBatch(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		t.Run(fmt.Sprintf("parallel=%v", parallel), func(t *testing.T) {
			base := runtime.NumGoroutine()
			release := make(chan struct{})
			releaseOnce := sync.OnceFunc(func() { close(release) })
			guard := time.AfterFunc(hangGuard, releaseOnce)
			defer guard.Stop()
			started := make(chan struct{})
			var slow, fast spyCounts
			slowSpec := paySpec(&slow)
			slowSpec.Name, slowSpec.Timeout = "slow_pay", time.Millisecond
			rec := newRecorder()
			r := mustRegistry(t, []*Tool{
				Bind(slowSpec, payBinding(&slow, nil, func(context.Context, payArgs) (any, error) { close(started); <-release; return "late", nil })),
				Bind(paySpec(&fast), payBinding(&fast, nil, nil)),
			}, WithAuditor(rec))
			res := r.DispatchBatch(context.Background(), caller, []Call{
				{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "b", Name: "slow_pay", Args: []byte(goodPay), Complete: true},
				{ID: "c", Name: "pay", Args: []byte(goodPay), Complete: true},
			}, BatchOptions{Parallel: parallel})
			if res[0].Err != nil || res[2].Err != nil || res[0].Value != "paid ACC-1" || res[2].Value != "paid ACC-1" {
				t.Errorf("fast calls: %+v, %+v", res[0], res[2])
			}
			te := wantCode(t, res[1].Err, toolerr.Timeout, toolerr.System)
			if !errors.Is(te, errToolTimeout) {
				t.Errorf("the slow call: %v, want the tool's timeout", te)
			}
			<-started // the gate may have answered before the executor's goroutine ran
			if fast.execs.Load() != 2 || slow.execs.Load() != 1 {
				t.Errorf("execs fast %d, slow %d; want 2, 1", fast.execs.Load(), slow.execs.Load())
			}
			if evs := rec.pending(); len(evs) != 3 || slices.ContainsFunc(evs, func(e Event) bool { return e.Late }) {
				t.Errorf("events = %+v, want 3, none late", evs)
			}
			releaseOnce()
			if e := rec.wait(1)[0]; !e.Late || e.CallID != "b" || e.Code != OK {
				t.Errorf("late event = %+v", e)
			}
			waitGoroutines(t, base)
		})
	}
}

// TestPoliciesCannotChangeThePrincipal: each policy and executor gets its
// own copy of the principal. A policy that rewrites or appends roles does
// not make a hidden tool later in the batch visible (the batch is refused
// and nothing runs), nor does it change what the next policy, an executor
// or the caller sees.
func TestPoliciesCannotChangeThePrincipal(t *testing.T) {
	mutations := []struct {
		name   string
		mutate func(p *Principal)
	}{
		{"rewrite a role", func(p *Principal) { p.Roles[0] = "admin" }},
		{"append a role", func(p *Principal) { p.Roles = append(p.Roles, "admin") }},
		{"append within capacity, then reslice", func(p *Principal) { p.Roles = append(p.Roles[:0], "admin", "admin") }},
		{"clear the roles", func(p *Principal) { clear(p.Roles) }},
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			var payC, adminC spyCounts
			var seen []Principal
			adminSpec := paySpec(&adminC)
			adminSpec.Name, adminSpec.Roles = "admin_pay", []string{"admin"}
			spec := paySpec(&payC)
			spec.Timeout = time.Hour // PrincipalFrom through the timeout's context
			r := mustRegistry(t, []*Tool{
				Bind(spec, payBinding(&payC, func(_ context.Context, p Principal, _ payArgs) error {
					seen = append(seen, Principal{ID: p.ID, Roles: slices.Clone(p.Roles)})
					m.mutate(&p)
					return nil
				}, func(ctx context.Context, _ payArgs) (any, error) {
					p, ok := PrincipalFrom(ctx)
					if !ok {
						return nil, errors.New("no principal in the executor's context")
					}
					seen = append(seen, Principal{ID: p.ID, Roles: slices.Clone(p.Roles)})
					m.mutate(&p)
					return "paid", nil
				})),
				Bind(adminSpec, payBinding(&adminC, nil, nil)),
			})
			roles := make([]string, 1, 8) // spare capacity: an append could write into it
			roles[0] = "support"
			c := Caller{Principal: Principal{ID: "u1", Roles: roles}, Scope: "s"}
			res := r.DispatchBatch(context.Background(), c, []Call{
				{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "b", Name: "admin_pay", Args: []byte(goodPay), Complete: true},
			}, BatchOptions{})
			wantCode(t, res[1].Err, toolerr.UnknownTool, toolerr.Validation)
			wantCode(t, res[0].Err, toolerr.BatchAborted, toolerr.Validation)
			if payC.execs.Load()+adminC.execs.Load()+adminC.policies.Load() != 0 {
				t.Errorf("execs %d + %d, admin policies %d; want nothing run", payC.execs.Load(), adminC.execs.Load(), adminC.policies.Load())
			}
			// Two pay calls: the second policy and both executors see the
			// caller's roles, whatever the first policy and executor did.
			res = r.DispatchBatch(context.Background(), c, []Call{
				{ID: "c", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "d", Name: "pay", Args: []byte(goodPay), Complete: true},
			}, BatchOptions{})
			if res[0].Err != nil || res[1].Err != nil || payC.execs.Load() != 2 {
				t.Fatalf("results %+v, execs %d", res, payC.execs.Load())
			}
			want := Principal{ID: "u1", Roles: []string{"support"}}
			if len(seen) != 5 { // policy (refused batch), 2 policies, 2 executors
				t.Fatalf("seen %d principals, want 5", len(seen))
			}
			for i, p := range seen {
				if p.ID != want.ID || !slices.Equal(p.Roles, want.Roles) {
					t.Errorf("principal %d = %+v, want %+v", i, p, want)
				}
			}
			if !slices.Equal(c.Principal.Roles, []string{"support"}) || !slices.Equal(roles[:2], []string{"support", ""}) {
				t.Errorf("the caller's roles changed: %q (array %q)", c.Principal.Roles, roles[:2])
			}
			if got := r.Tools(c.Principal); len(got) != 1 || got[0].Name != "pay" {
				t.Errorf("tools visible after the batch: %d", len(got))
			}
		})
	}
	if _, ok := PrincipalFrom(context.Background()); ok {
		t.Error("PrincipalFrom found a principal in a context without one")
	}
}

// TestRepairConfigurationErrors: an unusable Repair names its real cause
// (ErrNoAttempts, ErrNoNext, or both) and dispatches nothing.
func TestRepairConfigurationErrors(t *testing.T) {
	next := func(context.Context, Call, *toolerr.Error) (Call, error) { return Call{}, nil }
	tests := []struct {
		name     string
		rp       Repair
		want     []error
		notWant  []error
		contains string
	}{
		{"no Next", Repair{MaxAttempts: 3}, []error{ErrNoNext}, []error{ErrNoAttempts}, "Repair.Next is nil"},
		{"no attempts", Repair{Next: next}, []error{ErrNoAttempts}, []error{ErrNoNext}, "Repair.MaxAttempts must be at least 1"},
		{"negative attempts", Repair{MaxAttempts: -1, Next: next}, []error{ErrNoAttempts}, []error{ErrNoNext}, "MaxAttempts"},
		{"neither", Repair{}, []error{ErrNoAttempts, ErrNoNext}, nil, "Repair.Next is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			rec := newRecorder()
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(rec))
			_, err := r.DispatchWithRepair(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}, tt.rp)
			if err == nil || !strings.Contains(err.Error(), tt.contains) {
				t.Fatalf("error %v, want one containing %q", err, tt.contains)
			}
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Errorf("error %v is not %v", err, w)
				}
			}
			for _, w := range tt.notWant {
				if errors.Is(err, w) || strings.Contains(err.Error(), w.Error()) {
					t.Errorf("error %v blames %v", err, w)
				}
			}
			if c.decodes.Load()+c.policies.Load()+c.execs.Load() != 0 || len(rec.pending()) != 0 {
				t.Errorf("something ran or was audited: %+v", &c)
			}
		})
	}
}

// TestSlogAuditorMarksLate: the slog auditor logs a late event with
// late=true, and other events without the attribute.
func TestSlogAuditorMarksLate(t *testing.T) {
	for _, late := range []bool{false, true} {
		var buf strings.Builder
		a := SlogAuditor(slog.New(slog.NewJSONHandler(&buf, nil)))
		a.Audit(context.Background(), Event{CallID: "c1", Tool: "pay", Code: OK, Executed: true, Late: late})
		if got := strings.Contains(buf.String(), `"late":true`); got != late {
			t.Errorf("late %v: log %s", late, buf.String())
		}
		if strings.Contains(buf.String(), `"late":false`) {
			t.Errorf("log %s carries late=false", buf.String())
		}
	}
}

// TestGoroutinePathWithoutTimeout: a tool without a timeout, dispatched
// under a context that can end, runs in a goroutine of its own: its
// outcome when it returns while the context is live (its context is then
// ended), execution_failed at once when the context is cancelled first.
func TestGoroutinePathWithoutTimeout(t *testing.T) {
	var c spyCounts
	var execCtx context.Context
	release := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := newRecorder()
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, func(ctx context.Context, a payArgs) (any, error) {
		if a.Account == "ACC-slow" {
			cancel() // the caller gives up while the executor runs
			<-release
			return "paid", nil
		}
		execCtx = ctx
		return "paid", nil
	}))}, WithAuditor(rec))
	res, err := r.Dispatch(ctx, caller, Call{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true})
	if err != nil || res.Value != "paid" || !res.Executed {
		t.Fatalf("dispatch: %+v, %v", res, err)
	}
	if execCtx.Err() == nil {
		t.Error("the executor's context is live after the gate answered")
	}
	if e := rec.wait(1)[0]; e.Code != OK || e.Late {
		t.Errorf("event = %+v", e)
	}
	res, err = r.Dispatch(ctx, caller, Call{ID: "b", Name: "pay", Args: []byte(`{"account":"ACC-slow","amount":5}`), Complete: true})
	te := wantCode(t, err, toolerr.ExecutionFailed, toolerr.System)
	if !res.Executed || !errors.Is(te, context.Canceled) {
		t.Errorf("cancelled: %+v", res)
	}
	if e := rec.wait(1)[0]; e.Code != toolerr.ExecutionFailed || e.Late {
		t.Errorf("event = %+v", e)
	}
	close(release)
	if e := rec.wait(1)[0]; e.Code != OK || !e.Late || e.CallID != "b" {
		t.Errorf("late event = %+v", e)
	}
	if c.execs.Load() != 2 {
		t.Errorf("execs = %d, want 2", c.execs.Load())
	}
}
