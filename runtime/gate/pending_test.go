package gate

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	want := MemoryPendingConfig{Calls: 10_000, Bytes: 64 << 20, Retention: 24 * time.Hour}
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
