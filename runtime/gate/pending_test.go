package gate

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

func newClockedPending(cfg MemoryPendingConfig) (*MemoryPendingStore, *testClock) {
	clock := &testClock{now: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}
	s := NewMemoryPendingStore(cfg)
	s.now = clock.Now
	return s, clock
}

// pendingCall is a call expiring ttl after the clock's now.
func pendingCall(id string, clock *testClock, ttl time.Duration, args string) PendingCall {
	return PendingCall{Ticket: Ticket{PendingID: id, Tool: "pay", ExpiresAt: clock.now.Add(ttl)}, Args: []byte(args), State: StatePending}
}

func TestMemoryPendingStoreDefaults(t *testing.T) {
	want := MemoryPendingConfig{Calls: 10_000, Bytes: 64 << 20, Retention: 24 * time.Hour,
		Quota: PendingQuota{TenantCalls: 1_000, TenantBytes: 16 << 20, RequesterCalls: 100, RequesterBytes: 4 << 20}}
	for _, cfg := range []MemoryPendingConfig{{}, {Calls: -1, Bytes: -1, Retention: -time.Second}} {
		if got := NewMemoryPendingStore(cfg).Config(); got != want {
			t.Errorf("Config() = %+v, want %+v", got, want)
		}
	}
	r := mustRegistry(t, nil)
	if s, ok := r.pending.(*MemoryPendingStore); !ok || s.Config() != want || r.approvalTTL != DefaultApprovalTTL {
		t.Errorf("the registry's default pending store is %#v, TTL %s", r.pending, r.approvalTTL)
	}
}

// TestMemoryPendingStoreFailsClosed: a full store refuses new calls while
// every call held is unexpired, drops expired calls to make room, and
// forgets a call only after its retention.
func TestMemoryPendingStoreFailsClosed(t *testing.T) {
	ctx := context.Background()
	s, clock := newClockedPending(MemoryPendingConfig{Calls: 2, Bytes: 2000, Retention: time.Hour})
	for _, id := range []string{"a", "b"} {
		if err := s.Create(ctx, pendingCall(id, clock, time.Minute, "{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, pendingCall("c", clock, time.Minute, "{}")); !errors.Is(err, ErrPendingStoreFull) {
		t.Fatalf("third call: %v, want ErrPendingStoreFull", err)
	}
	if err := s.Create(ctx, pendingCall("a", clock, time.Minute, "{}")); !errors.Is(err, ErrPendingExists) {
		t.Errorf("a taken ID: %v", err)
	}
	if err := s.Create(ctx, pendingCall("d", clock, time.Minute, "{}"), pendingCall("d", clock, time.Minute, "{}")); !errors.Is(err, ErrPendingExists) {
		t.Errorf("an ID twice in one batch: %v", err)
	}
	if _, err := s.Get(ctx, "d"); !errors.Is(err, ErrPendingNotFound) {
		t.Errorf("a batch with an ID twice stored it: %v", err)
	}
	// Once a and b expire, they make room (oldest first) …
	clock.now = clock.now.Add(time.Minute)
	if err := s.Create(ctx, pendingCall("c", clock, time.Minute, "{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrPendingNotFound) {
		t.Errorf("a was not dropped: %v", err)
	}
	if pc, err := s.Get(ctx, "b"); err != nil || pc.PendingID != "b" {
		t.Errorf("b was dropped before it was needed: %v", err)
	}
	// … and are kept until their retention passes otherwise.
	clock.now = clock.now.Add(time.Hour)
	if _, err := s.Get(ctx, "b"); !errors.Is(err, ErrPendingNotFound) {
		t.Errorf("b outlived its retention: %v", err)
	}
	// Bytes bound the arguments.
	if err := s.Create(ctx, pendingCall("big", clock, time.Minute, strings.Repeat("x", 2000))); !errors.Is(err, ErrPendingStoreFull) {
		t.Errorf("a call over Bytes: %v", err)
	}
}

// TestMemoryPendingStoreCopies: the store shares no bytes with its callers.
func TestMemoryPendingStoreCopies(t *testing.T) {
	ctx := context.Background()
	s, clock := newClockedPending(MemoryPendingConfig{})
	pc := pendingCall("a", clock, time.Minute, `{"a":1}`)
	if err := s.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	pc.Args[0] = 'X'
	got, _ := s.Get(ctx, "a")
	got.Args[1] = 'Y'
	if again, _ := s.Get(ctx, "a"); string(again.Args) != `{"a":1}` {
		t.Errorf("stored bytes changed through a caller: %s", again.Args)
	}
}

// TestMemoryPendingStoreCompareAndSwap: of many concurrent moves from one
// state, exactly one succeeds.
func TestMemoryPendingStoreCompareAndSwap(t *testing.T) {
	ctx := context.Background()
	s, clock := newClockedPending(MemoryPendingConfig{})
	if err := s.Create(ctx, pendingCall("a", clock, time.Minute, "{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CompareAndSwap(ctx, "nope", StatePending, PendingCall{}); !errors.Is(err, ErrPendingNotFound) {
		t.Errorf("unknown ID: %v", err)
	}
	var won atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := pendingCall("a", clock, time.Minute, "{}")
			next.State = StateApproved
			if ok, err := s.CompareAndSwap(ctx, "a", StatePending, next); err == nil && ok {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	if got, _ := s.Get(ctx, "a"); won.Load() != 1 || got.State != StateApproved {
		t.Errorf("%d swaps won, state %s", won.Load(), got.State)
	}
}

// TestBindChecksApproval: the approval settings and NeedsApproval must
// agree.
func TestBindChecksApproval(t *testing.T) {
	var c spyCounts
	need := func(context.Context, Principal, payArgs) (bool, string) { return true, "" }
	tests := []struct {
		mode      Approval
		approvers []string
		need      NeedsApprovalFunc[payArgs]
		want      string // "" for no error
	}{
		{ApprovalNone, nil, nil, ""},
		{ApprovalRequired, []string{"finance"}, nil, ""},
		{ApprovalPolicy, []string{"finance"}, need, ""},
		{"always", []string{"finance"}, nil, `approval "always"`},
		{ApprovalRequired, nil, nil, "names no approver roles"},
		{ApprovalRequired, []string{""}, nil, "names no approver roles"},
		{ApprovalPolicy, []string{"finance"}, nil, "needs NeedsApproval"},
		{ApprovalRequired, []string{"finance"}, need, "would never be asked"},
		{ApprovalNone, nil, need, "would never be asked"},
	}
	for _, tt := range tests {
		spec := paySpec(&c)
		spec.Approval, spec.Approvers = tt.mode, tt.approvers
		b := payBinding(&c, nil, nil)
		b.NeedsApproval = tt.need
		_, err := NewRegistry([]*Tool{Bind(spec, b)})
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q %v need=%v: %v, want %q", tt.mode, tt.approvers, tt.need != nil, err, tt.want)
		}
	}
}

// brokenPending is a pending store that fails or panics.
type brokenPending struct {
	err   error
	panic bool
	inner PendingStore
}

func (b *brokenPending) Create(ctx context.Context, pcs ...PendingCall) error {
	if b.panic {
		panic("boom")
	}
	if b.err != nil {
		return b.err
	}
	return b.inner.Create(ctx, pcs...)
}

func (b *brokenPending) List(ctx context.Context, q PendingQuery) (PendingPage, error) {
	if b.panic {
		panic("boom")
	}
	if b.err != nil {
		return PendingPage{}, b.err
	}
	return b.inner.List(ctx, q)
}

func (b *brokenPending) Get(ctx context.Context, id string) (PendingCall, error) {
	if b.panic {
		panic("boom")
	}
	if b.err != nil {
		return PendingCall{}, b.err
	}
	return b.inner.Get(ctx, id)
}

func (b *brokenPending) CompareAndSwap(ctx context.Context, id string, from PendingState, next PendingCall) (bool, error) {
	if b.panic {
		panic("boom")
	}
	if b.err != nil {
		return false, b.err
	}
	return b.inner.CompareAndSwap(ctx, id, from, next)
}

// TestPendingStoreFailsClosed: a store that fails or panics refuses the
// request (approval_unavailable) and releases the call ID, and refuses
// every later step; nothing runs.
func TestPendingStoreFailsClosed(t *testing.T) {
	for _, broken := range []*brokenPending{{err: errors.New("connection lost")}, {panic: true}} {
		a := newApprovals()
		store := &brokenPending{inner: a.pending}
		spec := paySpec(&a.c)
		spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
		r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(store))
		store.err, store.panic = broken.err, broken.panic
		call := Call{ID: "c1", Name: "pay", Args: []byte(bigPay), Complete: true}
		_, err := r.Dispatch(context.Background(), caller, call)
		wantCode(t, err, toolerr.ApprovalUnavailable, toolerr.System)
		store.err, store.panic = nil, false
		res, err := r.Dispatch(context.Background(), caller, call)
		wantCode(t, err, toolerr.ApprovalRequired, toolerr.Approval) // the ID was released
		store.err, store.panic = broken.err, broken.panic
		wantCode(t, r.Approve(context.Background(), boss, res.Approval.PendingID), toolerr.ApprovalUnavailable, toolerr.System)
		_, err = r.Resume(context.Background(), res.Approval.PendingID)
		wantCode(t, err, toolerr.ApprovalUnavailable, toolerr.System)
		if a.execs() != 0 {
			t.Errorf("execs %d", a.execs())
		}
	}
}
