package gate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// testClock is a settable clock for the replay store.
type testClock struct{ now time.Time }

func (c *testClock) Now() time.Time { return c.now }

func newClockedStore(cfg MemoryReplayConfig) (*MemoryReplayStore, *testClock) {
	clock := &testClock{now: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}
	s := NewMemoryReplayStore(cfg)
	s.now = clock.Now
	return s, clock
}

func TestMemoryReplayStoreDefaults(t *testing.T) {
	want := MemoryReplayConfig{IDsPerScope: 1000, IDs: 100_000, MaxAge: 24 * time.Hour}
	for _, cfg := range []MemoryReplayConfig{{}, {IDsPerScope: -1, IDs: -1, MaxAge: -time.Second}} {
		if got := NewMemoryReplayStore(cfg).Config(); got != want {
			t.Errorf("NewMemoryReplayStore(%+v).Config() = %+v, want %+v", cfg, got, want)
		}
	}
	cfg := MemoryReplayConfig{IDsPerScope: 2, IDs: 3, MaxAge: time.Minute}
	if got := NewMemoryReplayStore(cfg).Config(); got != cfg {
		t.Errorf("Config() = %+v, want %+v", got, cfg)
	}
	r := mustRegistry(t, nil)
	if s, ok := r.replay.(*MemoryReplayStore); !ok || s.Config() != want {
		t.Errorf("the registry's default store is %#v", r.replay)
	}
}

// TestMemoryReplayStoreFailsClosed: a full scope or store refuses new
// claims with ErrReplayStoreFull and forgets nothing younger than MaxAge;
// IDs past their age, and released ones, make room.
func TestMemoryReplayStoreFailsClosed(t *testing.T) {
	ctx := context.Background()
	type step struct {
		advance time.Duration // the clock moves first
		op      string        // "claim", "release" or "seen"
		scope   string
		id      string
		ok      bool // Claim's or Seen's answer
		full    bool // Claim fails with ErrReplayStoreFull
	}
	tests := []struct {
		name  string
		cfg   MemoryReplayConfig
		steps []step
	}{
		{"a full scope refuses, and keeps its IDs", MemoryReplayConfig{IDsPerScope: 2, IDs: 10, MaxAge: time.Hour}, []step{
			{op: "claim", scope: "s", id: "a", ok: true},
			{op: "claim", scope: "s", id: "b", ok: true},
			{op: "claim", scope: "s", id: "c", full: true},
			{op: "claim", scope: "s", id: "a"}, // still claimed: a replay, not "full"
			{op: "seen", scope: "s", id: "a", ok: true},
			{op: "seen", scope: "s", id: "c"},
			{op: "claim", scope: "other", id: "c", ok: true}, // other scopes are not full
		}},
		{"a full store refuses new scopes and IDs", MemoryReplayConfig{IDsPerScope: 5, IDs: 3, MaxAge: time.Hour}, []step{
			{op: "claim", scope: "s1", id: "a", ok: true},
			{op: "claim", scope: "s2", id: "a", ok: true},
			{op: "claim", scope: "s2", id: "b", ok: true},
			{op: "claim", scope: "s3", id: "a", full: true},
			{op: "claim", scope: "s1", id: "b", full: true},
			{op: "claim", scope: "s1", id: "a"},
			{op: "seen", scope: "s1", id: "a", ok: true},
			{op: "seen", scope: "s3", id: "a"},
		}},
		{"expired IDs make room, unexpired ones never", MemoryReplayConfig{IDsPerScope: 2, IDs: 3, MaxAge: time.Hour}, []step{
			{op: "claim", scope: "s", id: "a", ok: true},
			{advance: 30 * time.Minute, op: "claim", scope: "s", id: "b", ok: true},
			{advance: 29 * time.Minute, op: "claim", scope: "s", id: "c", full: true}, // a is 59m old
			{op: "seen", scope: "s", id: "a", ok: true},
			{advance: time.Minute, op: "claim", scope: "s", id: "c", ok: true}, // a is 1h old: gone
			{op: "seen", scope: "s", id: "a"},
			{op: "seen", scope: "s", id: "b", ok: true},
			{op: "claim", scope: "t", id: "a", ok: true},
			{op: "claim", scope: "t", id: "b", full: true}, // the store holds 3
			{advance: 30 * time.Minute, op: "claim", scope: "t", id: "b", ok: true},
			{op: "seen", scope: "s", id: "b"},
			{op: "claim", scope: "s", id: "a", full: true},                          // the store holds c, t's a and b
			{advance: 30 * time.Minute, op: "claim", scope: "s", id: "a", ok: true}, // an expired ID can be claimed again
			{op: "seen", scope: "t", id: "b", ok: true},
		}},
		{"Seen forgets an ID at its age, with no claim in between", MemoryReplayConfig{IDsPerScope: 2, IDs: 3, MaxAge: time.Hour}, []step{
			{op: "claim", scope: "s", id: "a", ok: true},
			{advance: 59 * time.Minute, op: "seen", scope: "s", id: "a", ok: true},
			{advance: time.Minute, op: "seen", scope: "s", id: "a"},
			{op: "claim", scope: "s", id: "a", ok: true},
			{op: "seen", scope: "s", id: "a", ok: true},
		}},
		{"a released ID makes room", MemoryReplayConfig{IDsPerScope: 1, IDs: 1, MaxAge: time.Hour}, []step{
			{op: "claim", scope: "s", id: "a", ok: true},
			{op: "claim", scope: "t", id: "b", full: true},
			{op: "release", scope: "t", id: "a"}, // another scope's: harmless
			{op: "release", scope: "s", id: "x"}, // an unknown ID: harmless
			{op: "seen", scope: "s", id: "a", ok: true},
			{op: "release", scope: "s", id: "a"},
			{op: "seen", scope: "s", id: "a"},
			{op: "claim", scope: "t", id: "b", ok: true},
		}},
		{"long IDs and scopes are kept by hash", MemoryReplayConfig{IDsPerScope: 10, IDs: 10, MaxAge: time.Hour}, []step{
			{op: "claim", scope: strings.Repeat("s", 1000), id: strings.Repeat("x", 1<<20), ok: true},
			{op: "claim", scope: strings.Repeat("s", 1000), id: strings.Repeat("x", 1<<20)},
			{op: "seen", scope: strings.Repeat("s", 1000), id: strings.Repeat("x", 1<<20), ok: true},
			{op: "seen", scope: strings.Repeat("s", 1000), id: strings.Repeat("x", 1<<20-1)},
			{op: "seen", scope: strings.Repeat("s", 999), id: strings.Repeat("x", 1<<20)},
			{op: "claim", scope: strings.Repeat("s", 1000), id: strings.Repeat("x", 1<<20) + "y", ok: true},
			{op: "claim", scope: "s", id: "\x00" + strings.Repeat("x", 32), ok: true},
			{op: "claim", scope: "s", id: strings.Repeat("x", 64), ok: true},
			{op: "claim", scope: "s", id: strings.Repeat("x", 65), ok: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := newClockedStore(tt.cfg)
			for i, st := range tt.steps {
				clock.now = clock.now.Add(st.advance)
				var ok bool
				var err error
				switch st.op {
				case "claim":
					ok, err = s.Claim(ctx, st.scope, st.id)
				case "seen":
					ok, err = s.Seen(ctx, st.scope, st.id)
				case "release":
					err = s.Release(ctx, st.scope, st.id)
				}
				if st.full {
					if ok || !errors.Is(err, ErrReplayStoreFull) {
						t.Errorf("step %d %s(%.20q, %.20q) = %v, %v; want ErrReplayStoreFull", i, st.op, st.scope, st.id, ok, err)
					}
				} else if ok != st.ok || err != nil {
					t.Errorf("step %d %s(%.20q, %.20q) = %v, %v; want %v", i, st.op, st.scope, st.id, ok, err, st.ok)
				}
				scopes, ids := s.size()
				if ids > tt.cfg.IDs || scopes > ids {
					t.Errorf("step %d: %d IDs in %d scopes, over the bound %d", i, ids, scopes, tt.cfg.IDs)
				}
			}
			for name, sc := range s.scopes {
				if len(name) > maxKeyLen+1 {
					t.Errorf("a scope key of %d bytes is kept", len(name))
				}
				for id := range sc.ids {
					if len(id) > maxKeyLen+1 {
						t.Errorf("an ID key of %d bytes is kept", len(id))
					}
				}
			}
		})
	}
}

// TestFloodsCannotReenableReplay: through a registry with the default
// store, 1,000 calls in fresh scopes, or 1,000 more in the victim's scope,
// do not make the victim's earlier call runnable again. Past the scope's
// capacity, calls are refused (replay_unavailable, audited) and do not run.
func TestFloodsCannotReenableReplay(t *testing.T) {
	ctx := context.Background()
	var c spyCounts
	rec := newRecorder()
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(rec))
	victim := Caller{Principal: Principal{ID: "u1"}, Scope: "victim"}
	call := func(id string) Call { return Call{ID: id, Name: "pay", Args: []byte(goodPay), Complete: true} }
	if _, err := r.Dispatch(ctx, victim, call("first")); err != nil {
		t.Fatal(err)
	}
	replay := func(when string) {
		t.Helper()
		before := c.execs.Load()
		_, err := r.Dispatch(ctx, victim, call("first"))
		wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
		if c.execs.Load() != before {
			t.Errorf("%s: the replay ran", when)
		}
	}
	for i := range 1000 {
		if _, err := r.Dispatch(ctx, Caller{Principal: Principal{ID: "u2"}, Scope: fmt.Sprint("fresh-", i)}, call("first")); err != nil {
			t.Fatalf("fresh scope %d: %v", i, err)
		}
	}
	replay("after 1,000 fresh scopes")
	var refused int
	for i := range 1000 {
		before := c.execs.Load()
		res, err := r.Dispatch(ctx, victim, call(fmt.Sprint("more-", i)))
		if err == nil {
			continue
		}
		te := wantCode(t, err, toolerr.ReplayUnavailable, toolerr.System)
		if !errors.Is(te, ErrReplayStoreFull) || res.Executed || c.execs.Load() != before {
			t.Fatalf("call %d: %v (executed %v)", i, te, res.Executed)
		}
		refused++
	}
	if refused != 1 { // the scope holds 1,000: "first" and 999 more
		t.Errorf("%d calls refused, want 1", refused)
	}
	replay("after 1,000 more calls in the scope")
	if got := c.execs.Load(); got != 1+1000+999 {
		t.Errorf("%d executions, want %d", got, 1+1000+999)
	}
	var unavailable int
	for _, e := range rec.pending() {
		if e.Code == toolerr.ReplayUnavailable {
			unavailable++
			if e.Executed || e.Category != toolerr.System || e.Scope != "victim" {
				t.Errorf("event %+v", e)
			}
		}
	}
	if unavailable != 1 {
		t.Errorf("%d replay_unavailable events, want 1", unavailable)
	}
}

// TestFullStoreRefusesTheBatch: when the store cannot take a batch's
// claims, the call is replay_unavailable, the others batch_aborted, the
// claims made are released, nothing runs and every refusal is audited.
func TestFullStoreRefusesTheBatch(t *testing.T) {
	ctx := context.Background()
	var c spyCounts
	rec := newRecorder()
	s := NewMemoryReplayStore(MemoryReplayConfig{IDsPerScope: 2, IDs: 2, MaxAge: time.Hour})
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(rec), WithReplayStore(s))
	if _, err := r.Dispatch(ctx, caller, Call{ID: "old", Name: "pay", Args: []byte(goodPay), Complete: true}); err != nil {
		t.Fatal(err)
	}
	rec.wait(1)
	res := r.DispatchBatch(ctx, caller, []Call{
		{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
		{ID: "b", Name: "pay", Args: []byte(goodPay), Complete: true},
		{Name: "pay", Args: []byte(goodPay), Complete: true},
	}, BatchOptions{})
	wantCode(t, res[0].Err, toolerr.BatchAborted, toolerr.Validation)
	te := wantCode(t, res[1].Err, toolerr.ReplayUnavailable, toolerr.System)
	wantCode(t, res[2].Err, toolerr.BatchAborted, toolerr.Validation)
	if !errors.Is(te, ErrReplayStoreFull) || te.Tool != "pay" || te.CallID != "b" {
		t.Errorf("refusal %+v", te)
	}
	if c.execs.Load() != 1 {
		t.Errorf("%d executions, want 1 (the first call)", c.execs.Load())
	}
	if seen, _ := s.Seen(ctx, caller.Scope, "a"); seen {
		t.Error("the claim of a was not released")
	}
	events := rec.wait(3)
	for i, want := range []toolerr.Code{toolerr.BatchAborted, toolerr.ReplayUnavailable, toolerr.BatchAborted} {
		if events[i].Code != want || events[i].Executed {
			t.Errorf("event %d = %+v, want %s", i, events[i], want)
		}
	}
	if events[1].Category != toolerr.System {
		t.Errorf("replay_unavailable audited as %s", events[1].Category)
	}
}

func TestMemoryReplayStoreClaimIsAtomic(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryReplayStore(MemoryReplayConfig{})
	const workers = 64
	var wins atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			<-start
			for i := range 50 {
				if ok, _ := s.Claim(ctx, "s", fmt.Sprint("id-", i)); ok {
					wins.Add(1)
				}
				s.Seen(ctx, "s", fmt.Sprint("id-", (i+w)%50))
			}
		})
	}
	close(start)
	wg.Wait()
	if wins.Load() != 50 {
		t.Errorf("%d successful claims of 50 IDs by %d workers, want 50", wins.Load(), workers)
	}
}

// TestExpiredIDRunsAgain: through the registry, a replay within MaxAge is
// refused and one past it runs.
func TestExpiredIDRunsAgain(t *testing.T) {
	ctx := context.Background()
	var c spyCounts
	s, clock := newClockedStore(MemoryReplayConfig{MaxAge: time.Hour})
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithReplayStore(s))
	call := Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}
	r.Dispatch(ctx, caller, call)
	clock.now = clock.now.Add(59 * time.Minute)
	_, err := r.Dispatch(ctx, caller, call)
	wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
	clock.now = clock.now.Add(time.Minute)
	if _, err := r.Dispatch(ctx, caller, call); err != nil || c.execs.Load() != 2 {
		t.Errorf("after expiry: %v, execs %d; want a second run", err, c.execs.Load())
	}
}

// TestConcurrentReplayRunsOnce: the same call dispatched from many
// goroutines at once runs exactly once.
func TestConcurrentReplayRunsOnce(t *testing.T) {
	var c spyCounts
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))})
	const workers = 32
	var dups atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range workers {
		wg.Go(func() {
			<-start
			_, err := r.Dispatch(context.Background(), caller, Call{ID: "same", Name: "pay", Args: []byte(goodPay), Complete: true})
			var te *toolerr.Error
			if errors.As(err, &te) && te.Code == toolerr.DuplicateCall {
				dups.Add(1)
			} else if err != nil {
				t.Errorf("unexpected error %v", err)
			}
		})
	}
	close(start)
	wg.Wait()
	if c.execs.Load() != 1 || dups.Load() != workers-1 {
		t.Errorf("execs %d, duplicates %d; want 1, %d", c.execs.Load(), dups.Load(), workers-1)
	}
}

// failingStore is a ReplayStore that fails every claim or some, or refuses
// some.
type failingStore struct {
	*MemoryReplayStore
	err      error            // of every Claim
	claimErr map[string]error // by call ID
	taken    map[string]bool  // IDs whose Claim reports "already claimed"
	releases []bool           // per Release: whether its context could be cancelled
}

func (f *failingStore) Release(ctx context.Context, scope, id string) error {
	f.releases = append(f.releases, ctx.Done() != nil)
	return f.MemoryReplayStore.Release(ctx, scope, id)
}

func (f *failingStore) Claim(ctx context.Context, scope, id string) (bool, error) {
	if f.err != nil {
		return false, f.err
	}
	if err := f.claimErr[id]; err != nil {
		return false, err
	}
	if f.taken[id] {
		return false, nil
	}
	return f.MemoryReplayStore.Claim(ctx, scope, id)
}

// TestReplayStoreFailures: a failing store refuses the batch
// (replay_unavailable, wrapping the store's error), runs nothing and
// releases the claims it made.
func TestReplayStoreFailures(t *testing.T) {
	errStore := errors.New("redis down")
	tests := []struct {
		name     string
		store    *failingStore
		codes    []toolerr.Code
		releases int
	}{
		{"every Claim fails", &failingStore{err: errStore}, []toolerr.Code{toolerr.ReplayUnavailable, toolerr.ReplayUnavailable, toolerr.ReplayUnavailable}, 0},
		{"Claim fails", &failingStore{claimErr: map[string]error{"c2": errStore}}, []toolerr.Code{toolerr.BatchAborted, toolerr.ReplayUnavailable, toolerr.BatchAborted}, 2},
		{"Claim lost a race", &failingStore{taken: map[string]bool{"c3": true}}, []toolerr.Code{toolerr.BatchAborted, toolerr.BatchAborted, toolerr.DuplicateCall}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.store.MemoryReplayStore = NewMemoryReplayStore(MemoryReplayConfig{})
			var c spyCounts
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithReplayStore(tt.store))
			calls := []Call{
				{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "c2", Name: "pay", Args: []byte(goodPay), Complete: true},
				{ID: "c3", Name: "pay", Args: []byte(goodPay), Complete: true},
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res := r.DispatchBatch(ctx, caller, calls, BatchOptions{})
			for i, want := range tt.codes {
				if res[i].Err == nil || res[i].Err.Code != want || res[i].Executed {
					t.Errorf("call %d: %+v, want %s and not executed", i, res[i], want)
				}
				if want == toolerr.ReplayUnavailable && !errors.Is(res[i].Err, errStore) {
					t.Errorf("call %d: %v does not wrap the store's error", i, res[i].Err)
				}
			}
			if c.execs.Load() != 0 {
				t.Errorf("execs %d, want 0", c.execs.Load())
			}
			// Releases do not depend on the request's context.
			if len(tt.store.releases) != tt.releases || slices.Contains(tt.store.releases, true) {
				t.Errorf("releases (cancellable context) = %v, want %d, none cancellable", tt.store.releases, tt.releases)
			}
			for _, id := range []string{"c1", "c2", "c3"} {
				if seen, _ := tt.store.MemoryReplayStore.Seen(context.Background(), caller.Scope, id); seen {
					t.Errorf("claim of %s not released", id)
				}
			}
		})
	}
}

// countingStore counts the calls the gate makes to a store.
type countingStore struct {
	*MemoryReplayStore
	seen, claims, releases int
}

func (s *countingStore) Seen(ctx context.Context, scope, id string) (bool, error) {
	s.seen++
	return s.MemoryReplayStore.Seen(ctx, scope, id)
}

func (s *countingStore) Claim(ctx context.Context, scope, id string) (bool, error) {
	s.claims++
	return s.MemoryReplayStore.Claim(ctx, scope, id)
}

func (s *countingStore) Release(ctx context.Context, scope, id string) error {
	s.releases++
	return s.MemoryReplayStore.Release(ctx, scope, id)
}

// TestOneRoundTrip: a call with an ID costs the replay store one call,
// its Claim, before anything else: a call that runs makes no other, a
// replay (with good or bad arguments, or denied) is duplicate_call on the
// claim alone, and a call refused after its claim (bad arguments, a
// denial, an approval request) releases it, so that the ID runs once
// corrected; the order of refusals is kept (a replay is duplicate_call
// whatever its arguments).
func TestOneRoundTrip(t *testing.T) {
	deny := errors.New("not this account")
	policy := func(_ context.Context, _ Principal, a payArgs) error {
		if a.Account == "ACC-DENY" {
			return deny
		}
		return nil
	}
	steps := []struct {
		name                    string
		id, args                string
		code                    toolerr.Code // "" for a run
		claims, releases, execs int          // after the step, in all
	}{
		{"runs", "c1", goodPay, "", 1, 0, 1},
		{"replay", "c1", goodPay, toolerr.DuplicateCall, 2, 0, 1},
		{"replay with bad arguments", "c1", `{"account":1}`, toolerr.DuplicateCall, 3, 0, 1},
		{"replay denied", "c1", `{"account":"ACC-DENY","amount":5}`, toolerr.DuplicateCall, 4, 0, 1},
		{"bad arguments", "c2", `{"account":1}`, toolerr.InvalidArguments, 5, 1, 1},
		{"corrected", "c2", goodPay, "", 6, 1, 2},
		{"denied", "c3", `{"account":"ACC-DENY","amount":5}`, toolerr.Unauthorized, 7, 2, 2},
		{"allowed", "c3", goodPay, "", 8, 2, 3},
	}
	var c spyCounts
	store := &countingStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{})}
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, policy, nil))}, WithReplayStore(store))
	for _, s := range steps {
		res, _ := r.Dispatch(context.Background(), caller, Call{ID: s.id, Name: "pay", Args: []byte(s.args), Complete: true})
		code := toolerr.Code("")
		if res.Err != nil {
			code = res.Err.Code
		}
		if code != s.code || store.claims != s.claims || store.releases != s.releases || store.seen != 0 || int(c.execs.Load()) != s.execs {
			t.Errorf("%s: code %q, claims %d, releases %d, seen %d, execs %d; want %q, %d, %d, 0, %d",
				s.name, code, store.claims, store.releases, store.seen, c.execs.Load(), s.code, s.claims, s.releases, s.execs)
		}
	}
}

// TestHeldCallOneRoundTrip: a call held for approval keeps the claim of
// its ID made before its arguments were read (one round trip, so that a
// replay is duplicate_call); when the pending store refuses it, that claim
// is released, so that it can be sent again. Nothing runs.
func TestHeldCallOneRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		pending  PendingStore
		code     toolerr.Code
		releases int
	}{
		{"held", NewMemoryPendingStore(MemoryPendingConfig{}), toolerr.ApprovalRequired, 0},
		{"the pending store fails", &brokenPending{err: errors.New("connection lost")}, toolerr.ApprovalUnavailable, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			store := &countingStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{})}
			spec := paySpec(&c)
			spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, nil))}, WithReplayStore(store), WithPendingStore(tt.pending))
			_, err := r.Dispatch(context.Background(), caller, Call{ID: "h1", Name: "pay", Args: []byte(goodPay), Complete: true})
			wantCode(t, err, tt.code, tt.code.Category())
			if store.claims != 1 || store.releases != tt.releases || c.execs.Load() != 0 {
				t.Errorf("claims %d, releases %d, execs %d; want 1, %d, 0", store.claims, store.releases, c.execs.Load(), tt.releases)
			}
		})
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
