package gate

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// ReplayStore remembers the call IDs the gate has executed, per scope, so a
// replayed call does not run twice. Implementations must be safe for
// concurrent use; a store shared by several replicas makes the guarantee
// hold across them.
type ReplayStore interface {
	// Seen reports whether the call ID was claimed in the scope.
	Seen(ctx context.Context, scope, callID string) (bool, error)
	// Claim records the call ID, atomically: it returns false when the ID
	// was already claimed.
	Claim(ctx context.Context, scope, callID string) (bool, error)
	// Release forgets a claim whose call was not run after all.
	Release(ctx context.Context, scope, callID string)
}

// MemoryReplayStore is an in-memory ReplayStore bounded in size and age:
// it forgets the oldest IDs beyond its capacity and any ID older than its
// maximum age.
type MemoryReplayStore struct {
	mu     sync.Mutex
	cap    int
	maxAge time.Duration
	now    func() time.Time
	order  *list.List // of entry, oldest first
	byKey  map[replayKey]*list.Element
}

type replayKey struct{ scope, id string }

type entry struct {
	key replayKey
	at  time.Time
}

// NewMemoryReplayStore returns a store that keeps at most capacity IDs, each
// for at most maxAge.
func NewMemoryReplayStore(capacity int, maxAge time.Duration) *MemoryReplayStore {
	return &MemoryReplayStore{cap: max(capacity, 1), maxAge: maxAge, now: time.Now, order: list.New(), byKey: map[replayKey]*list.Element{}}
}

// expire drops entries beyond the age limit; the caller holds mu.
func (s *MemoryReplayStore) expire() {
	limit := s.now().Add(-s.maxAge)
	for e := s.order.Front(); e != nil && s.maxAge > 0; e = s.order.Front() {
		if en := e.Value.(entry); en.at.After(limit) {
			break
		}
		s.remove(e)
	}
}

func (s *MemoryReplayStore) remove(e *list.Element) {
	delete(s.byKey, e.Value.(entry).key)
	s.order.Remove(e)
}

// Seen implements ReplayStore.
func (s *MemoryReplayStore) Seen(_ context.Context, scope, callID string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	_, ok := s.byKey[replayKey{scope, callID}]
	return ok, nil
}

// Claim implements ReplayStore.
func (s *MemoryReplayStore) Claim(_ context.Context, scope, callID string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	k := replayKey{scope, callID}
	if _, ok := s.byKey[k]; ok {
		return false, nil
	}
	s.byKey[k] = s.order.PushBack(entry{key: k, at: s.now()})
	for s.order.Len() > s.cap {
		s.remove(s.order.Front())
	}
	return true, nil
}

// Release implements ReplayStore.
func (s *MemoryReplayStore) Release(_ context.Context, scope, callID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byKey[replayKey{scope, callID}]; ok {
		s.remove(e)
	}
}
