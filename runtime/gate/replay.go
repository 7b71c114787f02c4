package gate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// ReplayStore remembers the call IDs the gate has claimed, per scope, so a
// replayed call does not run twice. Implementations must be safe for
// concurrent use; a store shared by several replicas (a networked store)
// makes the guarantee hold across them.
//
// The gate fails closed on the store:
//
//   - the gate calls Claim once per call with an ID, before it decodes
//     the arguments: that is the store's one round trip for a call that
//     runs. Seen is not called by the gate (it is for tests and tools);
//   - any error from Claim (a full store, a lost connection, a cancelled
//     context) refuses the call with the code replay_unavailable, and
//     nothing runs; so does a panic;
//   - a claim is released only for a call refused before its executor
//     started (its arguments, its policy, another call of its batch, an
//     approval it awaits, a request cancelled before its turn); once an
//     executor has started, its claim is kept, after a timeout too, since
//     the outcome is then unknown;
//   - an error from Release is ignored: the claim then stands, which can
//     only refuse a retry, never allow a replay.
//
// The guarantee lasts as long as the store remembers an ID. A store must
// therefore never forget an ID before its maximum age to make room: when
// it is full it refuses the new claim instead (MemoryReplayStore returns
// an error wrapping ErrReplayStoreFull). Calls without an ID are never
// replay-checked (see Call.ID).
type ReplayStore interface {
	// Seen reports whether the call ID is claimed in the scope.
	Seen(ctx context.Context, scope, callID string) (bool, error)
	// Claim records the call ID in the scope, atomically: it returns false
	// (and no error) when the ID is already claimed there, and an error
	// when it cannot tell or cannot record the claim.
	Claim(ctx context.Context, scope, callID string) (bool, error)
	// Release forgets a claim whose call was refused before it ran. The
	// gate passes context.WithoutCancel of the request's context, so that
	// a cancelled request still releases its claims.
	Release(ctx context.Context, scope, callID string) error
}

// ErrReplayStoreFull is returned (wrapped) by MemoryReplayStore.Claim when a
// new claim would exceed a capacity while every ID held is younger than
// the maximum age. The gate refuses the call with replay_unavailable.
var ErrReplayStoreFull = errors.New("gate: the replay store is full")

// The defaults of MemoryReplayConfig.
const (
	// DefaultReplayIDsPerScope: a conversation can make 1,000 tool calls
	// within DefaultReplayMaxAge.
	DefaultReplayIDsPerScope = 1000
	// DefaultReplayIDs: the store holds 100,000 IDs in all: about 18 MB
	// in scopes of many calls, up to 48 MB when every scope holds a single
	// call (see MemoryReplayConfig.IDs).
	DefaultReplayIDs = 100_000
	// DefaultReplayMaxAge: an ID is remembered for a day.
	DefaultReplayMaxAge = 24 * time.Hour
)

// MemoryReplayConfig sizes a MemoryReplayStore. A field at zero or below
// takes its default.
type MemoryReplayConfig struct {
	// IDsPerScope is the most IDs one scope holds at once (default
	// DefaultReplayIDsPerScope). Size it for the calls one scope (a
	// conversation) can make within MaxAge.
	IDsPerScope int
	// IDs is the most IDs the store holds at once, in all scopes (default
	// DefaultReplayIDs). It bounds the memory held: about 180 bytes per
	// ID, up to 480 when every scope holds a single ID. A scope or
	// ID longer than 64 bytes is kept as a 33-byte hash.
	IDs int
	// MaxAge is how long an ID is remembered (default DefaultReplayMaxAge);
	// an older one is forgotten, and its call can run again.
	MaxAge time.Duration
}

// MemoryReplayStore is an in-memory ReplayStore for a single replica. It
// remembers each ID for MaxAge and never forgets a younger one to make
// room: the IDs past their age are dropped at every call, and a claim that
// would still take a scope beyond IDsPerScope, or the store beyond IDs,
// fails with ErrReplayStoreFull. One scope's traffic can thus fill its own
// scope, or the store, and have new calls refused until IDs expire, but
// never re-enable the replay of a call.
type MemoryReplayStore struct {
	mu  sync.Mutex
	cfg MemoryReplayConfig
	// now is the store's clock; nil is the monotonic clock. Times are
	// kept as durations since base (one clock read instead of time.Now's
	// two, and no time.Time arithmetic: only ages matter here).
	now    func() time.Time
	base   time.Time
	scopes map[string]*replayScope
	// last is the scope of the last call, looked up without hashing when
	// the next call is in the same scope (a conversation's calls are).
	last *replayScope
	// oldest and newest end the list of every ID held, in claim order.
	oldest, newest *replayID
	n              int
	// free holds up to maxFreeIDs forgotten entries for the next claims.
	free  *replayID
	nfree int
}

// maxFreeIDs bounds the forgotten entries kept for reuse.
const maxFreeIDs = 1 << 10

// clock returns the time on the store's clock, since base.
func (s *MemoryReplayStore) clock() time.Duration {
	if s.now != nil {
		return s.now().Sub(s.base)
	}
	return time.Since(s.base)
}

// scope returns the IDs claimed in the scope named key, nil when none;
// the caller holds mu.
func (s *MemoryReplayStore) scope(key string) *replayScope {
	if s.last != nil && s.last.name == key {
		return s.last
	}
	sc := s.scopes[key]
	if sc != nil {
		s.setLast(sc)
	}
	return sc
}

// setLast makes sc the last scope, forgetting the previous one if it
// holds no ID: remove keeps the last scope when it empties, so that a
// conversation whose calls are refused one after another (each claimed,
// then released) does not make its scope again for each. The caller
// holds mu.
func (s *MemoryReplayStore) setLast(sc *replayScope) {
	if old := s.last; old != nil && old != sc && len(old.ids) == 0 {
		delete(s.scopes, old.name)
	}
	s.last = sc
}

// replayScope is the IDs claimed in one scope.
type replayScope struct {
	name string
	ids  map[string]*replayID
}

// replayID is one claim, linked in MemoryReplayStore's claim order.
type replayID struct {
	prev, next *replayID
	scope      *replayScope
	// id is the claimed ID's key, kept in buf (see own).
	id string
	// at is when the ID was claimed, on the store's clock.
	at  time.Duration
	buf [maxKeyLen]byte
}

// own returns a copy of key k (at most maxKeyLen bytes) kept in e's own
// buffer, so that a claim allocates nothing when it reuses a forgotten
// entry. The string aliases e.buf, which is written only here, after the
// map's key and e.id, the only uses of the previous copy, are gone (remove
// deletes the one and clears the other). k is a key (see key): a longer
// one would be cut, and two IDs could share an entry, so it panics.
func (e *replayID) own(k string) string {
	if len(k) > maxKeyLen {
		panic("gate: replay key longer than maxKeyLen")
	}
	n := copy(e.buf[:], k)
	return unsafe.String(&e.buf[0], n)
}

// NewMemoryReplayStore returns an empty store sized by cfg.
func NewMemoryReplayStore(cfg MemoryReplayConfig) *MemoryReplayStore {
	if cfg.IDsPerScope <= 0 {
		cfg.IDsPerScope = DefaultReplayIDsPerScope
	}
	if cfg.IDs <= 0 {
		cfg.IDs = DefaultReplayIDs
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultReplayMaxAge
	}
	return &MemoryReplayStore{cfg: cfg, base: time.Now(), scopes: map[string]*replayScope{}}
}

// Config returns the store's sizes, defaults filled in.
func (s *MemoryReplayStore) Config() MemoryReplayConfig { return s.cfg }

// expire forgets the IDs claimed MaxAge before now or earlier; the caller
// holds mu. Claims are listed in claim order, so the expired ones are a prefix
// (with a clock that steps back, an ID can be kept longer, never less).
func (s *MemoryReplayStore) expire(now time.Duration) {
	limit := now - s.cfg.MaxAge
	for s.oldest != nil && s.oldest.at <= limit {
		s.remove(s.oldest)
	}
}

// remove unlinks e and forgets it; the caller holds mu.
func (s *MemoryReplayStore) remove(e *replayID) {
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
	s.n--
	delete(e.scope.ids, e.id)
	if len(e.scope.ids) == 0 && e.scope != s.last {
		delete(s.scopes, e.scope.name)
	}
	if s.nfree < maxFreeIDs {
		// Field by field: clearing the whole entry, buf included, would
		// take the collector's bulk write barrier for its pointers. buf
		// needs no clearing: own writes it before e.id views it again.
		e.prev, e.scope, e.id, e.at = nil, nil, "", 0
		e.next = s.free
		s.free = e
		s.nfree++
	}
}

// entry returns a zero entry, reused when one is free; the caller holds mu.
func (s *MemoryReplayStore) entry() *replayID {
	e := s.free
	if e == nil {
		return &replayID{}
	}
	s.free, e.next = e.next, nil
	s.nfree--
	return e
}

// maxKeyLen is the longest scope or call ID the store keeps as it is.
const maxKeyLen = 64

// key is how the store knows a scope or call ID: the string itself, or,
// when longer than maxKeyLen, its SHA-256 after a NUL byte, so memory stays
// bounded per ID. A short string starting with NUL is hashed too, so the
// two forms never meet. Claim keeps copies of keys, never a slice of the
// caller's buffer.
func key(s string) string {
	if len(s) <= maxKeyLen && (s == "" || s[0] != 0) {
		return s
	}
	return hashedKey(s)
}

// hashedKey is key of a long string, apart (and not inlined into it) so
// that key is inlined.
//
//go:noinline
func hashedKey(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "\x00" + string(sum[:])
}

// Seen implements ReplayStore. It reads the clock only for an ID it
// holds: one past its age is not seen (Claim forgets it).
func (s *MemoryReplayStore) Seen(_ context.Context, scope, callID string) (bool, error) {
	scope, callID = key(scope), key(callID)
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scope(scope)
	if sc == nil {
		return false, nil
	}
	e, ok := sc.ids[callID]
	return ok && e.at > s.clock()-s.cfg.MaxAge, nil
}

// Claim implements ReplayStore. It fails with an error wrapping
// ErrReplayStoreFull when the scope holds IDsPerScope IDs, or the store
// IDs, all younger than MaxAge.
func (s *MemoryReplayStore) Claim(_ context.Context, scope, callID string) (bool, error) {
	scope, callID = key(scope), key(callID)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock()
	s.expire(now)
	sc := s.scope(scope)
	if sc != nil {
		if _, ok := sc.ids[callID]; ok {
			return false, nil
		}
		if len(sc.ids) >= s.cfg.IDsPerScope {
			return false, fmt.Errorf("%w: the scope holds %d call IDs younger than %s", ErrReplayStoreFull, len(sc.ids), s.cfg.MaxAge)
		}
	}
	if s.n >= s.cfg.IDs {
		return false, fmt.Errorf("%w: it holds %d call IDs younger than %s", ErrReplayStoreFull, s.n, s.cfg.MaxAge)
	}
	if sc == nil {
		sc = &replayScope{name: strings.Clone(scope), ids: map[string]*replayID{}}
		s.scopes[sc.name] = sc
		s.setLast(sc)
	}
	e := s.entry()
	e.prev, e.scope, e.id, e.at = s.newest, sc, e.own(callID), now
	if s.newest != nil {
		s.newest.next = e
	} else {
		s.oldest = e
	}
	s.newest = e
	s.n++
	sc.ids[e.id] = e
	return true, nil
}

// Release implements ReplayStore.
func (s *MemoryReplayStore) Release(_ context.Context, scope, callID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc := s.scope(key(scope)); sc != nil {
		if e, ok := sc.ids[key(callID)]; ok {
			s.remove(e)
		}
	}
	return nil
}

// size returns the number of scopes and IDs held, for tests.
func (s *MemoryReplayStore) size() (scopes, ids int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scopes = len(s.scopes)
	if s.last != nil && len(s.last.ids) == 0 {
		scopes-- // kept empty (see setLast)
	}
	return scopes, s.n
}
