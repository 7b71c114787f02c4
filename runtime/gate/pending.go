package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// PendingStore holds the calls that await approval. Implementations must
// be safe for concurrent use; a store shared by several replicas (a
// networked store) lets any replica decide and resume any pending call.
//
// The gate fails closed on the store: any error from it (a full store, a
// lost connection, a cancelled context), and a panic, refuses the step
// with the code approval_unavailable, and nothing runs. Every change of a
// pending call is a compare-and-set on its state, so two replicas that
// approve, reject, expire or resume one call at the same moment cannot
// both succeed. A store must not forget a call before its ExpiresAt to make
// room: when full, it refuses the new call instead.
type PendingStore interface {
	// Create stores a new pending call (in StatePending). It fails when
	// the ID is taken or the call cannot be stored.
	Create(ctx context.Context, pc PendingCall) error
	// Get returns the pending call with the ID, or an error wrapping
	// ErrPendingNotFound.
	Get(ctx context.Context, id string) (PendingCall, error)
	// CompareAndSwap replaces the pending call with the ID by next if, and
	// only if, its state is from, atomically: it returns false (and no
	// error) when the state is another, and an error wrapping
	// ErrPendingNotFound when there is no such call.
	CompareAndSwap(ctx context.Context, id string, from PendingState, next PendingCall) (bool, error)
}

// The errors of pending stores.
var (
	// ErrPendingNotFound: no pending call has the ID (or it was dropped
	// after its expiry).
	ErrPendingNotFound = errors.New("gate: no such pending call")
	// ErrPendingStoreFull: a new call would exceed a capacity of
	// MemoryPendingStore while every call held is unexpired.
	ErrPendingStoreFull = errors.New("gate: the pending store is full")
	// ErrPendingExists: Create was given an ID already stored.
	ErrPendingExists = errors.New("gate: a pending call with that ID exists")
)

// The defaults of MemoryPendingConfig.
const (
	// DefaultPendingCalls: the store holds 10,000 pending calls.
	DefaultPendingCalls = 10_000
	// DefaultPendingBytes: their argument bytes and strings take at most
	// 64 MiB.
	DefaultPendingBytes = 64 << 20
	// DefaultPendingRetention: a call is kept a day past its expiry, so a
	// late step is told approval_expired rather than approval_unknown.
	DefaultPendingRetention = 24 * time.Hour
)

// MemoryPendingConfig sizes a MemoryPendingStore. A field at zero or below
// takes its default.
type MemoryPendingConfig struct {
	// Calls is the most pending calls held at once.
	Calls int
	// Bytes bounds the argument bytes and strings of the calls held.
	Bytes int
	// Retention is how long a call is kept past its ExpiresAt; calls past
	// their ExpiresAt are also dropped, oldest first, to make room.
	Retention time.Duration
}

// MemoryPendingStore is an in-memory PendingStore for a single replica. It
// never drops an unexpired call: a new call that would exceed Calls or
// Bytes is refused (ErrPendingStoreFull) once the expired calls are gone.
type MemoryPendingStore struct {
	mu    sync.Mutex
	cfg   MemoryPendingConfig
	now   func() time.Time
	calls map[string]*pendingEntry
	// oldest and newest end the list of every call held, in creation order.
	oldest, newest *pendingEntry
	bytes          int
}

// pendingEntry is one call, linked in creation order.
type pendingEntry struct {
	prev, next *pendingEntry
	pc         PendingCall
	size       int
}

// NewMemoryPendingStore returns an empty store sized by cfg.
func NewMemoryPendingStore(cfg MemoryPendingConfig) *MemoryPendingStore {
	if cfg.Calls <= 0 {
		cfg.Calls = DefaultPendingCalls
	}
	if cfg.Bytes <= 0 {
		cfg.Bytes = DefaultPendingBytes
	}
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultPendingRetention
	}
	return &MemoryPendingStore{cfg: cfg, now: time.Now, calls: map[string]*pendingEntry{}}
}

// Config returns the store's sizes, defaults filled in.
func (s *MemoryPendingStore) Config() MemoryPendingConfig { return s.cfg }

// pendingSize is what a call counts against Bytes: its argument bytes and
// strings, and a fixed share for the rest.
func pendingSize(pc PendingCall) int {
	n := 256 + len(pc.Args) + len(pc.PendingID) + len(pc.Tool) + len(pc.Version) + len(pc.ArgsDigest) +
		len(pc.CallID) + len(pc.Principal) + len(pc.Tenant) + len(pc.Scope) + len(pc.RequestID) +
		len(pc.Reason) + len(pc.DecidedBy) + len(pc.Note) + len(pc.Dialect)
	for _, r := range pc.Roles {
		n += 16 + len(r)
	}
	return n
}

// drop forgets the calls past their retention (from the oldest: with one
// TTL, creation order is expiry order), and, while need says more room is
// needed, the calls past their expiry, oldest first; the caller holds mu.
func (s *MemoryPendingStore) drop(need func() bool) {
	now := s.now()
	for s.oldest != nil && !now.Before(s.oldest.pc.ExpiresAt.Add(s.cfg.Retention)) {
		s.remove(s.oldest)
	}
	for e := s.oldest; e != nil && need(); {
		next := e.next
		if !now.Before(e.pc.ExpiresAt) {
			s.remove(e)
		}
		e = next
	}
}

// remove unlinks e and forgets it; the caller holds mu.
func (s *MemoryPendingStore) remove(e *pendingEntry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		s.oldest = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		s.newest = e.prev
	}
	s.bytes -= e.size
	delete(s.calls, e.pc.PendingID)
}

// Create implements PendingStore. It fails with an error wrapping
// ErrPendingStoreFull when Calls or Bytes would be exceeded by unexpired
// calls.
func (s *MemoryPendingStore) Create(_ context.Context, pc PendingCall) error {
	pc = pc.clone()
	size := pendingSize(pc)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.calls[pc.PendingID]; ok {
		return ErrPendingExists
	}
	full := func() bool { return len(s.calls) >= s.cfg.Calls || s.bytes+size > s.cfg.Bytes }
	s.drop(full)
	if full() {
		return fmt.Errorf("%w: it holds %d unexpired calls of %d bytes (limits %d calls, %d bytes)", ErrPendingStoreFull, len(s.calls), s.bytes, s.cfg.Calls, s.cfg.Bytes)
	}
	e := &pendingEntry{prev: s.newest, pc: pc, size: size}
	if s.newest != nil {
		s.newest.next = e
	} else {
		s.oldest = e
	}
	s.newest = e
	s.bytes += size
	s.calls[pc.PendingID] = e
	return nil
}

// Get implements PendingStore.
func (s *MemoryPendingStore) Get(_ context.Context, id string) (PendingCall, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(func() bool { return false })
	e, ok := s.calls[id]
	if !ok {
		return PendingCall{}, ErrPendingNotFound
	}
	return e.pc.clone(), nil
}

// CompareAndSwap implements PendingStore. next keeps the call's ID.
func (s *MemoryPendingStore) CompareAndSwap(_ context.Context, id string, from PendingState, next PendingCall) (bool, error) {
	next = next.clone()
	next.PendingID = id
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.calls[id]
	if !ok {
		return false, ErrPendingNotFound
	}
	if e.pc.State != from {
		return false, nil
	}
	size := pendingSize(next)
	s.bytes += size - e.size
	e.pc, e.size = next, size
	return true, nil
}
