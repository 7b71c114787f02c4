package gate

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
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
	// their ExpiresAt, and calls decided for good (rejected, resumed,
	// expired), are also dropped, oldest first, to make room.
	Retention time.Duration
	// Quota bounds the open calls of one tenant and of one requester.
	Quota PendingQuota
}

// MemoryPendingStore is an in-memory PendingStore for a single replica. It
// never drops an open, unexpired call: a new call that would exceed Calls
// or Bytes is refused (ErrPendingStoreFull) once the expired and final
// calls are gone, and one that would exceed its tenant's or requester's
// Quota is refused with a *QuotaError.
type MemoryPendingStore struct {
	mu    sync.Mutex
	cfg   MemoryPendingConfig
	now   func() time.Time
	calls map[string]*pendingEntry
	// oldest and newest end the list of every call held, in creation order.
	oldest, newest *pendingEntry
	bytes          int
	// openOldest and openNewest end the list of the calls counted against
	// the quotas, in creation order; use holds their counts.
	openOldest, openNewest *pendingEntry
	use                    map[quotaKey]*PendingUse
}

// pendingEntry is one call, linked in creation order.
type pendingEntry struct {
	prev, next *pendingEntry
	pc         PendingCall
	size       int
	// counted: the call is open and unexpired, linked in the open list and
	// counted under tenant and requester.
	counted            bool
	openPrev, openNext *pendingEntry
	tenant, requester  quotaKey
}

// quotaKey names a tenant (requester empty) or a requester of a tenant.
type quotaKey struct{ tenant, requester string }

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
	cfg.Quota = cfg.Quota.WithDefaults()
	return &MemoryPendingStore{cfg: cfg, now: time.Now, calls: map[string]*pendingEntry{}, use: map[quotaKey]*PendingUse{}}
}

// Config returns the store's sizes, defaults filled in.
func (s *MemoryPendingStore) Config() MemoryPendingConfig { return s.cfg }

// PendingCursor is the place of a call in the order of List: its
// CreatedAt as 16 hex digits of Unix nanoseconds, then its ID, so that
// cursors sort as the calls do. A page's Next is its last call's cursor.
func PendingCursor(pc PendingCall) string {
	return fmt.Sprintf("%016x:%s", uint64(pc.CreatedAt.UnixNano()), pc.PendingID)
}

// drop forgets the calls past their retention (from the oldest: with one
// TTL, creation order is expiry order), and, while need says more room is
// needed, the calls past their expiry or final, oldest first; the caller
// holds mu.
func (s *MemoryPendingStore) drop(now time.Time, need func() bool) {
	for s.oldest != nil && !now.Before(s.oldest.pc.ExpiresAt.Add(s.cfg.Retention)) {
		s.remove(s.oldest)
	}
	for e := s.oldest; e != nil && need(); {
		next := e.next
		if !now.Before(e.pc.ExpiresAt) || !e.pc.State.Open() {
			s.remove(e)
		}
		e = next
	}
}

// retire stops counting the open calls past their expiry, from the oldest
// counted; the caller holds mu.
func (s *MemoryPendingStore) retire(now time.Time) {
	for s.openOldest != nil && !now.Before(s.openOldest.pc.ExpiresAt) {
		s.uncount(s.openOldest)
	}
}

// remove unlinks e and forgets it; the caller holds mu.
func (s *MemoryPendingStore) remove(e *pendingEntry) {
	if e.counted {
		s.uncount(e)
	}
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

// count links e in the open list and counts it; the caller holds mu.
func (s *MemoryPendingStore) count(e *pendingEntry) {
	e.counted, e.openPrev = true, s.openNewest
	if s.openNewest != nil {
		s.openNewest.openNext = e
	} else {
		s.openOldest = e
	}
	s.openNewest = e
	s.charge(e, 1, e.size)
}

// uncount unlinks e from the open list and stops counting it; the caller
// holds mu.
func (s *MemoryPendingStore) uncount(e *pendingEntry) {
	if e.openPrev != nil {
		e.openPrev.openNext = e.openNext
	} else {
		s.openOldest = e.openNext
	}
	if e.openNext != nil {
		e.openNext.openPrev = e.openPrev
	} else {
		s.openNewest = e.openPrev
	}
	e.counted, e.openPrev, e.openNext = false, nil, nil
	s.charge(e, -1, -e.size)
}

// charge adds calls and bytes to what e's tenant and requester hold; the
// caller holds mu.
func (s *MemoryPendingStore) charge(e *pendingEntry, calls, bytes int) {
	for _, k := range []quotaKey{e.tenant, e.requester} {
		u := s.use[k]
		if u == nil {
			u = &PendingUse{}
			s.use[k] = u
		}
		u.Calls += calls
		u.Bytes += bytes
		if u.Calls == 0 {
			delete(s.use, k)
		}
	}
}

// held returns what k holds; the caller holds mu.
func (s *MemoryPendingStore) held(k quotaKey) PendingUse {
	if u := s.use[k]; u != nil {
		return *u
	}
	return PendingUse{}
}

// Create implements PendingStore. It fails with an error wrapping
// ErrPendingStoreFull when Calls or Bytes would be exceeded by unexpired
// calls, and with a *QuotaError when a tenant's or requester's quota
// would be; then it stores none of the calls.
func (s *MemoryPendingStore) Create(_ context.Context, calls ...PendingCall) error {
	now := s.now()
	entries := make([]*pendingEntry, len(calls))
	size := 0
	batch := map[quotaKey]*PendingUse{}
	ids := make(map[string]bool, len(calls))
	for i, pc := range calls {
		if ids[pc.PendingID] {
			return ErrPendingExists
		}
		ids[pc.PendingID] = true
		pc = pc.clone()
		e := &pendingEntry{pc: pc, size: PendingSize(pc), tenant: quotaKey{tenant: pc.Tenant}, requester: quotaKey{tenant: pc.Tenant, requester: "\x00" + pc.Principal}}
		entries[i] = e
		size += e.size
		if !pc.State.Open() || !now.Before(pc.ExpiresAt) {
			continue
		}
		for _, k := range []quotaKey{e.tenant, e.requester} {
			if batch[k] == nil {
				batch[k] = &PendingUse{}
			}
			batch[k].Calls++
			batch[k].Bytes += e.size
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		if _, taken := s.calls[e.pc.PendingID]; taken {
			return ErrPendingExists
		}
	}
	full := func() bool { return len(s.calls)+len(entries) > s.cfg.Calls || s.bytes+size > s.cfg.Bytes }
	s.drop(now, full)
	if full() {
		return fmt.Errorf("%w: it holds %d unexpired calls of %d bytes (limits %d calls, %d bytes)", ErrPendingStoreFull, len(s.calls), s.bytes, s.cfg.Calls, s.cfg.Bytes)
	}
	s.retire(now)
	for _, e := range entries {
		if batch[e.requester] == nil {
			continue
		}
		if qe := s.cfg.Quota.Check(s.held(e.tenant), *batch[e.tenant], s.held(e.requester), *batch[e.requester]); qe != nil {
			return qe
		}
	}
	for _, e := range entries {
		e.prev = s.newest
		if s.newest != nil {
			s.newest.next = e
		} else {
			s.oldest = e
		}
		s.newest = e
		s.bytes += e.size
		s.calls[e.pc.PendingID] = e
		if e.pc.State.Open() && now.Before(e.pc.ExpiresAt) {
			s.count(e)
		}
	}
	return nil
}

// Get implements PendingStore.
func (s *MemoryPendingStore) Get(_ context.Context, id string) (PendingCall, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(s.now(), func() bool { return false })
	e, ok := s.calls[id]
	if !ok {
		return PendingCall{}, ErrPendingNotFound
	}
	return e.pc.clone(), nil
}

// CompareAndSwap implements PendingStore. next keeps the call's ID; a call
// that leaves the open states stops counting against its quotas.
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
	size := PendingSize(next)
	if e.counted {
		if next.State.Open() {
			s.charge(e, 0, size-e.size)
		} else {
			s.uncount(e)
		}
	}
	s.bytes += size - e.size
	e.pc, e.size = next, size
	return true, nil
}

// List implements PendingStore. It reads every open call held: at most
// Calls.
func (s *MemoryPendingStore) List(_ context.Context, q PendingQuery) (PendingPage, error) {
	limit := q.PageLimit()
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var found []*pendingEntry
	for e := s.openOldest; e != nil; e = e.openNext {
		pc := &e.pc
		if pc.Tenant == q.Tenant && (q.Tool == "" || pc.Tool == q.Tool) && pc.State.Open() && now.Before(pc.ExpiresAt) && PendingCursor(*pc) > q.After {
			found = append(found, e)
		}
	}
	slices.SortFunc(found, func(a, b *pendingEntry) int { return cmp.Compare(PendingCursor(a.pc), PendingCursor(b.pc)) })
	var page PendingPage
	for _, e := range found[:min(limit, len(found))] {
		page.Calls = append(page.Calls, e.pc.clone())
	}
	if len(found) > limit {
		page.Next = PendingCursor(page.Calls[limit-1])
	}
	return page, nil
}
