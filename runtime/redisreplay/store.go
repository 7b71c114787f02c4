// Package redisreplay is a gate.ReplayStore kept in Redis, so that a call
// ID runs at most once per scope across every replica that shares the
// Redis server.
//
//	client := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
//	store, err := redisreplay.New(client, redisreplay.Options{TTL: 24 * time.Hour})
//	reg, err := tools.NewRegistry(bindings, gate.WithReplayStore(store))
//
// A claim is one `SET key 1 NX PX ttl`: atomic per scope and call ID. It
// expires after Options.TTL, which must cover the window in which a call
// can be replayed. Release (a `DEL`) is used by the gate only for a call
// refused before it ran; a call that started, even one that timed out,
// keeps its claim.
//
// The store fails closed. Every command runs under Options.Timeout; when
// Redis is unreachable, slower than that, or answers an error, the method
// returns an error and the gate refuses the call with replay_unavailable
// (system category): nothing runs, and the refusal is audited. An OOM
// answer (maxmemory reached under noeviction) is reported as
// gate.ErrReplayStoreFull. A Claim whose answer was lost may still have
// been recorded: a retry of that call ID is then refused as duplicate_call
// until the claim expires, never run twice.
//
// The guarantee lasts as long as Redis keeps the claims. For it to survive
// a Redis restart or crash, run Redis with `appendonly yes` and
// `appendfsync always` (with `everysec`, a crash can lose the last second
// of claims, and a replay of those calls could run again), and with
// `maxmemory-policy noeviction` (any evicting policy can drop a claim
// before it expires; noeviction makes a full Redis refuse new claims
// instead, which the gate turns into replay_unavailable). A replica that
// is promoted after a failover may lack the last claims acknowledged by
// the old primary; use WAIT-based setups or a single primary with
// persistence where that matters.
package redisreplay

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Defaults of Options.
const (
	DefaultPrefix  = "toolgate:replay:"
	DefaultTTL     = 24 * time.Hour
	DefaultTimeout = 250 * time.Millisecond
)

// MaxRawLen is the longest scope or call ID written into a key as it is;
// a longer one is replaced by its SHA-256, so a key is at most
// len(Prefix) + 3 + 2 × (MaxRawLen + 1) bytes.
const MaxRawLen = 64

// Options configure a Store.
type Options struct {
	// Prefix namespaces the keys (DefaultPrefix when empty).
	Prefix string
	// TTL is how long a claim is kept (DefaultTTL when zero). It must cover
	// the longest time in which a call can be replayed.
	TTL time.Duration
	// Timeout bounds each Redis command (DefaultTimeout when zero). Past it
	// the store gives up and the gate refuses the call.
	Timeout time.Duration
}

// Store is a gate.ReplayStore in Redis. It is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	ttl     time.Duration
	timeout time.Duration
}

var _ gate.ReplayStore = (*Store)(nil)

// New returns a store using client. The client must respect context
// deadlines (ContextTimeoutEnabled: true); otherwise a slow Redis would be
// waited on for the client's own read timeout, and New returns an error.
func New(client redis.UniversalClient, o Options) (*Store, error) {
	if client == nil {
		return nil, errors.New("redisreplay: nil client")
	}
	if !contextTimeouts(client) {
		return nil, errors.New("redisreplay: the client must be created with ContextTimeoutEnabled: true, so that Options.Timeout bounds every command")
	}
	if o.TTL < 0 || o.Timeout < 0 {
		return nil, errors.New("redisreplay: negative TTL or Timeout")
	}
	s := &Store{client: client, prefix: o.Prefix, ttl: o.TTL, timeout: o.Timeout}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.ttl == 0 {
		s.ttl = DefaultTTL
	}
	if s.timeout == 0 {
		s.timeout = DefaultTimeout
	}
	return s, nil
}

// contextTimeouts reports whether client honours context deadlines.
func contextTimeouts(client redis.UniversalClient) bool {
	switch c := client.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}

// Key returns the Redis key of a claim: the prefix, then the encoded scope
// with its length, then the encoded call ID. Distinct (scope, ID) pairs
// get distinct keys; a part longer than MaxRawLen is hashed.
func (s *Store) Key(scope, callID string) string {
	sc := part(scope)
	var b strings.Builder
	b.Grow(len(s.prefix) + 4 + len(sc) + MaxRawLen + 2)
	b.WriteString(s.prefix)
	b.WriteString(strconv.Itoa(len(sc)))
	b.WriteByte(':')
	b.WriteString(sc)
	b.WriteString(part(callID))
	return b.String()
}

// part encodes one key part: "=" and the value, or "#" and the base64 of
// its SHA-256 when it is longer than MaxRawLen.
func part(v string) string {
	if len(v) <= MaxRawLen {
		return "=" + v
	}
	sum := sha256.Sum256([]byte(v))
	return "#" + base64.RawURLEncoding.EncodeToString(sum[:])
}

// Seen implements gate.ReplayStore.
func (s *Store) Seen(ctx context.Context, scope, callID string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	n, err := s.client.Exists(ctx, s.Key(scope, callID)).Result()
	if err != nil {
		return false, s.fail(ctx, "EXISTS", err)
	}
	return n == 1, nil
}

// Claim implements gate.ReplayStore.
func (s *Store) Claim(ctx context.Context, scope, callID string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	ok, err := s.client.SetNX(ctx, s.Key(scope, callID), "1", s.ttl).Result()
	if err != nil {
		return false, s.fail(ctx, "SET NX", err)
	}
	return ok, nil
}

// Release implements gate.ReplayStore.
func (s *Store) Release(ctx context.Context, scope, callID string) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := s.client.Del(ctx, s.Key(scope, callID)).Err(); err != nil {
		return s.fail(ctx, "DEL", err)
	}
	return nil
}

// fail wraps a command's error: an OOM answer (an error reply of Redis's,
// not of the client or the connection) is gate.ErrReplayStoreFull, and an
// error past the deadline of ctx also wraps ctx's error
// (context.DeadlineExceeded for Options.Timeout). The key is not named: it
// holds the call ID.
func (s *Store) fail(ctx context.Context, cmd string, err error) error {
	var reply redis.Error
	switch {
	case errors.As(err, &reply) && redis.IsOOMError(reply):
		return fmt.Errorf("redisreplay: %s: %w: %w", cmd, gate.ErrReplayStoreFull, err)
	case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
		return fmt.Errorf("redisreplay: %s: %w: %w", cmd, ctx.Err(), err)
	}
	return fmt.Errorf("redisreplay: %s: %w", cmd, err)
}
