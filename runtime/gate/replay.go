package gate

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"
)

// ReplayStore remembers the call IDs the gate has executed, per scope, so a
// replayed call does not run twice. Implementations must be safe for
// concurrent use; a store shared by several replicas makes the guarantee
// hold across them.
//
// The guarantee lasts exactly as long as the store remembers an ID: a store
// that forgets an ID (because it is full, or the ID is older than the
// store's maximum age) lets a replay of that call run again. A bounded
// store must therefore be sized to hold every ID of the replay window — in
// each scope, all the calls that can be replayed within the maximum age —
// and its eviction must not let one scope's traffic push out another
// scope's IDs. Calls without an ID are never replay-checked (see Call.ID).
type ReplayStore interface {
	// Seen reports whether the call ID was claimed in the scope.
	Seen(ctx context.Context, scope, callID string) (bool, error)
	// Claim records the call ID, atomically: it returns false when the ID
	// was already claimed.
	Claim(ctx context.Context, scope, callID string) (bool, error)
	// Release forgets a claim whose call was refused before it ran. A
	// claim whose call started (even one that timed out) is kept.
	Release(ctx context.Context, scope, callID string) error
}

// ErrReplayStoreFull is returned by a store that cannot record another
// claim. The gate refuses the call (replay_unavailable) rather than run it
// unprotected.
var ErrReplayStoreFull = errors.New("gate: the replay store is full")

// MemoryReplayStore is an in-memory ReplayStore, bounded per scope so that
// eviction is fair between scopes:
//
//   - each scope keeps at most perScope IDs; a new claim beyond that
//     forgets the oldest ID of the same scope only, so the calls of one
//     scope (a conversation, say) never evict another scope's IDs;
//   - at most maxScopes scopes are kept; a claim in a new scope beyond
//     that forgets the whole scope least recently claimed in;
//   - any ID older than maxAge is forgotten (maxAge <= 0: no age limit).
//
// Forgetting an ID that has not reached maxAge re-enables a replay of its
// call. Choose perScope at least the number of calls one scope can make
// within maxAge, and maxScopes at least the number of scopes active within
// maxAge; with several replicas, use a shared store instead. The memory
// held is bounded by perScope × maxScopes IDs.
type MemoryReplayStore struct {
	mu        sync.Mutex
	perScope  int
	maxScopes int
	maxAge    time.Duration
	now       func() time.Time
	scopes    map[string]*scopeIDs
	order     *list.List // of *scopeIDs, by their last claim, oldest first
}

// scopeIDs are the IDs claimed in one scope.
type scopeIDs struct {
	name string
	elem *list.Element // in MemoryReplayStore.order
	last time.Time     // of the last claim
	ids  *list.List    // of entry, oldest first
	byID map[string]*list.Element
}

type entry struct {
	id string
	at time.Time
}

// NewMemoryReplayStore returns a store that keeps at most perScope IDs in
// each of at most maxScopes scopes, each ID for at most maxAge (no age
// limit when maxAge <= 0). perScope and maxScopes below 1 are raised to 1
// (a store that remembers nothing would protect nothing).
func NewMemoryReplayStore(perScope, maxScopes int, maxAge time.Duration) *MemoryReplayStore {
	return &MemoryReplayStore{
		perScope: max(perScope, 1), maxScopes: max(maxScopes, 1), maxAge: maxAge,
		now: time.Now, scopes: map[string]*scopeIDs{}, order: list.New(),
	}
}

// expired reports whether a time is at or beyond the age limit.
func (s *MemoryReplayStore) expired(at, now time.Time) bool {
	return s.maxAge > 0 && !at.After(now.Add(-s.maxAge))
}

// expire drops the scopes whose every ID is too old, and the IDs of sc
// (when not nil) that are; the caller holds mu.
func (s *MemoryReplayStore) expire(sc *scopeIDs) {
	now := s.now()
	for e := s.order.Front(); e != nil && s.expired(e.Value.(*scopeIDs).last, now); e = s.order.Front() {
		s.dropScope(e.Value.(*scopeIDs))
	}
	if sc == nil || s.scopes[sc.name] != sc {
		return
	}
	for e := sc.ids.Front(); e != nil && s.expired(e.Value.(entry).at, now); e = sc.ids.Front() {
		s.removeID(sc, e)
	}
}

func (s *MemoryReplayStore) dropScope(sc *scopeIDs) {
	delete(s.scopes, sc.name)
	s.order.Remove(sc.elem)
}

func (s *MemoryReplayStore) removeID(sc *scopeIDs, e *list.Element) {
	delete(sc.byID, e.Value.(entry).id)
	sc.ids.Remove(e)
	if sc.ids.Len() == 0 {
		s.dropScope(sc)
	}
}

// Seen implements ReplayStore.
func (s *MemoryReplayStore) Seen(_ context.Context, scope, callID string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scopes[scope]
	s.expire(sc)
	if sc = s.scopes[scope]; sc == nil {
		return false, nil
	}
	_, ok := sc.byID[callID]
	return ok, nil
}

// Claim implements ReplayStore.
func (s *MemoryReplayStore) Claim(_ context.Context, scope, callID string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scopes[scope]
	s.expire(sc)
	now := s.now()
	if sc = s.scopes[scope]; sc == nil {
		for len(s.scopes) >= s.maxScopes {
			s.dropScope(s.order.Front().Value.(*scopeIDs))
		}
		sc = &scopeIDs{name: scope, ids: list.New(), byID: map[string]*list.Element{}}
		sc.elem = s.order.PushBack(sc)
		s.scopes[scope] = sc
	} else if _, ok := sc.byID[callID]; ok {
		return false, nil
	}
	sc.byID[callID] = sc.ids.PushBack(entry{id: callID, at: now})
	sc.last = now
	s.order.MoveToBack(sc.elem)
	for sc.ids.Len() > s.perScope {
		s.removeID(sc, sc.ids.Front())
	}
	return true, nil
}

// Release implements ReplayStore.
func (s *MemoryReplayStore) Release(_ context.Context, scope, callID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc := s.scopes[scope]; sc != nil {
		if e, ok := sc.byID[callID]; ok {
			s.removeID(sc, e)
		}
	}
	return nil
}

// size returns the number of scopes and IDs held, for tests.
func (s *MemoryReplayStore) size() (scopes, ids int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.scopes {
		ids += sc.ids.Len()
	}
	return len(s.scopes), ids
}
