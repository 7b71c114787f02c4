package gate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Tests of what a single call costs: the principal's copies in the
// executor's state, the clock reads, the executor's goroutine that ends
// its own context, and the replay store's reuse of forgotten entries.

func TestCloneFrom(t *testing.T) {
	tests := []struct {
		name      string
		roles     []string
		spare     int
		wantSpare int // len of the spare returned
		fromSpare bool
	}{
		{"nil roles", nil, 4, 4, false},
		{"empty roles", []string{}, 4, 4, true},
		{"fits", []string{"a", "b"}, 4, 2, true},
		{"fits exactly", []string{"a", "b"}, 2, 0, true},
		{"does not fit", []string{"a", "b", "c"}, 2, 2, false},
		{"no spare", []string{"a"}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spare := make([]string, tc.spare)
			p := Principal{ID: "u", Tenant: "t", Roles: tc.roles}
			got, rest := p.cloneFrom(spare)
			if got.ID != "u" || got.Tenant != "t" || !slices.Equal(got.Roles, tc.roles) || (got.Roles == nil) != (tc.roles == nil) {
				t.Fatalf("copy = %+v, want %+v", got, p)
			}
			if len(rest) != tc.wantSpare {
				t.Errorf("spare left %d, want %d", len(rest), tc.wantSpare)
			}
			if cap(got.Roles) != len(got.Roles) && tc.fromSpare {
				t.Errorf("copy's capacity %d, want its length %d", cap(got.Roles), len(got.Roles))
			}
			if len(tc.roles) == 0 {
				return
			}
			inSpare := len(spare) > 0 && &got.Roles[0] == &spare[0]
			if inSpare != tc.fromSpare {
				t.Errorf("copy in spare = %v, want %v", inSpare, tc.fromSpare)
			}
			// The copy shares nothing with p, and an append to it does not
			// reach the rest of spare.
			got.Roles[0] = "changed"
			if p.Roles[0] == "changed" {
				t.Error("the copy shares p's array")
			}
			_ = append(got.Roles, "appended")
			if slices.Contains(rest, "appended") {
				t.Error("an append to the copy wrote into the spare")
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

// TestClockReads: with an auditor, a dispatch reads the registry's clock
// once at each step boundary: start, end of decode, end of policy, and the
// executor's return; with a call ID, also after the replay store's claim
// (its one round trip), which is not counted in the steps. Without an
// auditor it reads none. The steps' durations are those of the reads.
func TestClockReads(t *testing.T) {
	tests := []struct {
		name    string
		audited bool
		id      string
		reads   int
	}{
		{"audited, no ID", true, "", 4},
		{"audited, ID", true, "a", 5},
		{"not audited, no ID", false, "", 0},
		{"not audited, ID", false, "a", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c spyCounts
			var opts []Option
			rec := newRecorder()
			if tc.audited {
				opts = append(opts, WithAuditor(rec))
			}
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, opts...)
			// A store that is not the in-memory one, so that its own clock
			// is not counted.
			r.replay = &memoryOnly{ids: map[string]bool{}}
			reads := 0
			tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			r.now = func() time.Time { reads++; tick = tick.Add(time.Millisecond); return tick }
			res, err := r.Dispatch(context.Background(), caller, Call{ID: tc.id, Name: "pay", Args: []byte(goodPay), Complete: true})
			if err != nil || res.Value != "paid ACC-1" {
				t.Fatalf("dispatch: %+v, %v", res, err)
			}
			if reads != tc.reads {
				t.Errorf("%d clock reads, want %d", reads, tc.reads)
			}
			if !tc.audited {
				return
			}
			ms := time.Millisecond
			if e := rec.wait(1)[0]; e.Decode != ms || e.Policy != ms || e.Execute != ms || e.Duration != ms || e.Code != OK {
				t.Errorf("event = %+v, want each step 1ms", e)
			}
		})
	}
}

// memoryOnly is a minimal ReplayStore.
type memoryOnly struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *memoryOnly) Seen(_ context.Context, scope, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[scope+"\x00"+id], nil
}

func (s *memoryOnly) Claim(_ context.Context, scope, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := scope + "\x00" + id
	if s.ids[k] {
		return false, nil
	}
	s.ids[k] = true
	return true, nil
}

func (s *memoryOnly) Release(_ context.Context, scope, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ids, scope+"\x00"+id)
	return nil
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

// TestMemoryReplayStoreMatchesAModel runs random claims, checks, releases
// and clock steps against a store small enough to fill, and against a
// plain model of what it must answer, so that the reuse of forgotten
// entries cannot leak one ID's state into another's.
func TestMemoryReplayStoreMatchesAModel(t *testing.T) {
	type claim struct {
		at time.Time
	}
	cfg := MemoryReplayConfig{IDsPerScope: 4, IDs: 6, MaxAge: 10 * time.Second}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		s, clock := newClockedStore(cfg)
		model := map[[2]string]claim{}
		ctx := context.Background()
		for step := range 400 {
			scope := fmt.Sprint("s", rng.IntN(3))
			id := fmt.Sprint("id", rng.IntN(8))
			k := [2]string{scope, id}
			now := clock.now
			live := func(c claim) bool { return c.at.After(now.Add(-cfg.MaxAge)) }
			switch op := rng.IntN(10); {
			case op < 2:
				clock.now = clock.now.Add(time.Duration(rng.IntN(4)) * time.Second)
			case op < 4:
				got, err := s.Seen(ctx, scope, id)
				c, ok := model[k]
				if err != nil || got != (ok && live(c)) {
					t.Fatalf("round %d step %d: Seen(%s, %s) = %v, %v; model %v", round, step, scope, id, got, err, ok && live(c))
				}
			case op < 8:
				for mk, c := range model {
					if !live(c) {
						delete(model, mk)
					}
				}
				inScope := 0
				for mk := range model {
					if mk[0] == scope {
						inScope++
					}
				}
				_, held := model[k]
				ok, err := s.Claim(ctx, scope, id)
				switch {
				case held:
					if ok || err != nil {
						t.Fatalf("round %d step %d: Claim of a held ID = %v, %v", round, step, ok, err)
					}
				case inScope >= cfg.IDsPerScope || len(model) >= cfg.IDs:
					if ok || !errors.Is(err, ErrReplayStoreFull) {
						t.Fatalf("round %d step %d: Claim in a full store = %v, %v", round, step, ok, err)
					}
				default:
					if !ok || err != nil {
						t.Fatalf("round %d step %d: Claim = %v, %v", round, step, ok, err)
					}
					model[k] = claim{at: now}
				}
			default:
				if err := s.Release(ctx, scope, id); err != nil {
					t.Fatal(err)
				}
				delete(model, k)
			}
			if _, n := s.size(); n != len(model) {
				t.Fatalf("round %d step %d: the store holds %d IDs, the model %d", round, step, n, len(model))
			}
		}
	}
}

// TestDispatchAllocations: a call that runs inline allocates only its
// arguments and its executor's state, which holds the principal's copies
// while they fit (four roles in all: the gate's, the policy's and
// NeedsApproval's copies; each copy that does not fit takes one
// allocation), and with an ID the replay store's entry, which holds the
// ID's copy.
func TestDispatchAllocations(t *testing.T) {
	allow := func(context.Context, Principal, payArgs) error { return nil }
	asks := func(context.Context, Principal, payArgs) (bool, string) { return false, "" }
	tests := []struct {
		name  string
		asks  bool
		roles []string
		id    bool
		want  float64
	}{
		{"one role", false, []string{"a"}, false, 2},
		{"one role, NeedsApproval", true, []string{"a"}, false, 2},
		{"two roles, NeedsApproval", true, []string{"a", "b"}, false, 3},
		{"two roles", false, []string{"a", "b"}, false, 2},
		{"three roles", false, []string{"a", "b", "c"}, false, 3},
		{"three roles, NeedsApproval", true, []string{"a", "b", "c"}, false, 4},
		{"no roles", false, nil, false, 2},
		{"one role, ID", false, []string{"a"}, true, 3},
	}
	args := payArgs{Account: "ACC-1", Amount: 5}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec[payArgs]{Name: "pay", Version: "v1", Decode: func([]byte) (payArgs, error) { return args, nil }}
			b := Binding[payArgs]{Policy: allow, Execute: func(context.Context, payArgs) (any, error) { return nil, nil }}
			if tc.asks {
				spec.Approval, spec.Approvers, b.NeedsApproval = ApprovalPolicy, []string{"lead"}, asks
			}
			r := mustRegistry(t, []*Tool{Bind(spec, b)},
				WithReplayStore(NewMemoryReplayStore(MemoryReplayConfig{IDsPerScope: 1 << 20, IDs: 1 << 20})))
			cl := Caller{Principal: Principal{ID: "u1", Roles: tc.roles}, Scope: "s"}
			call := Call{Name: "pay", Args: []byte(goodPay), Complete: true}
			ids := make([]string, 200)
			for i := range ids {
				ids[i] = fmt.Sprint("call-", i)
			}
			i := 0
			got := testing.AllocsPerRun(100, func() {
				if tc.id {
					call.ID = ids[i]
					i++
				}
				if _, err := r.Dispatch(context.Background(), cl, call); err != nil {
					t.Fatal(err)
				}
			})
			if got != tc.want {
				t.Errorf("%v allocations per dispatch, want %v", got, tc.want)
			}
		})
	}
}

// TestGoroutinePathAllocations: a call whose executor runs in a goroutine
// of its own allocates, beyond what running a function in a goroutine
// under the executor's context costs (its context, the goroutine, the
// wait), only its arguments and its executor's state, which holds the
// execution.
func TestGoroutinePathAllocations(t *testing.T) {
	args := payArgs{Account: "ACC-1", Amount: 5}
	spec := Spec[payArgs]{Name: "pay", Version: "v1", Decode: func([]byte) (payArgs, error) { return args, nil }}
	b := Binding[payArgs]{Policy: AllowAll[payArgs], Execute: func(context.Context, payArgs) (any, error) { return nil, nil }}
	cl := Caller{Principal: Principal{ID: "u1", Roles: []string{"a"}}, Scope: "s"}
	call := Call{Name: "pay", Args: []byte(goodPay), Complete: true}
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		name    string
		timeout time.Duration
		ctx     context.Context
		// handoff runs a closure in a goroutine under a context made as
		// the gate makes the executor's, and waits for it.
		handoff func(parent context.Context)
	}{
		{"tool timeout", time.Hour, context.Background(), func(parent context.Context) {
			xctx, cancel := context.WithTimeoutCause(parent, time.Hour, errToolTimeout)
			go func() { cancel() }()
			<-xctx.Done()
		}},
		{"context that can end", 0, cancellable, func(parent context.Context) {
			xctx, cancel := context.WithCancel(parent)
			go func() { cancel() }()
			<-xctx.Done()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := spec
			spec.Timeout = tc.timeout
			r := mustRegistry(t, []*Tool{Bind(spec, b)})
			tool := r.tools["pay"]
			if !tool.runsAside(tc.ctx) || tool.runsAside(context.Background()) != (tc.timeout > 0) {
				t.Fatalf("runsAside: the call should run in a goroutine of its own")
			}
			parent := &principalCtx{Context: tc.ctx}
			base := testing.AllocsPerRun(100, func() { tc.handoff(parent) })
			got := testing.AllocsPerRun(100, func() {
				if _, err := r.Dispatch(tc.ctx, cl, call); err != nil {
					t.Fatal(err)
				}
			})
			if got != base+2 {
				t.Errorf("%v allocations per dispatch, want %v (the handoff's %v, the arguments and the executor's state)", got, base+2, base)
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
