// Package redispending is a gate.PendingStore kept in Redis, so that a
// call held for approval on one replica can be listed, approved, rejected
// and resumed on any replica that shares the Redis server.
//
//	client := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
//	pending, err := redispending.New(client, redispending.Options{})
//	replay, err := redisreplay.New(client, redisreplay.Options{})
//	reg, err := tools.NewRegistry(bindings, gate.WithPendingStore(pending), gate.WithReplayStore(replay))
//
// A pending call is a Redis hash: its state and its record (JSON). Every
// step that changes one is a Lua script, atomic in Redis: Create stores
// the calls of a batch all or none, CompareAndSwap replaces a call only
// when its state is the expected one (so of two replicas resuming one
// approved call, exactly one moves it to resumed and runs it). No state is
// read by the client and then written back.
//
// Expiry is Redis's own: a call's key expires at its ExpiresAt plus
// Options.Grace (default gate.DefaultPendingRetention, a day), so that a
// late step is told approval_expired, not approval_unknown, during the
// grace period; after it the call is gone (approval_unknown).
//
// Quotas (Options.Quota, gate.PendingQuota) bound the open calls (pending
// or approved, unexpired) of each tenant and each requester, counted in
// Redis by the same scripts; a full quota refuses only that tenant's or
// requester's new calls (approval_quota). Each tenant's open calls are
// also kept in creation order, for List: the gate's ListPending serves an
// approval screen from it.
//
// The store fails closed. Every command runs under Options.Timeout; when
// Redis is unreachable, slower than that, answers an error, or answers
// something that is not a record this store wrote, the method returns an
// error and the gate refuses the step with approval_unavailable: nothing
// runs. An OOM answer (maxmemory reached under noeviction) is
// gate.ErrPendingStoreFull; the scripts that write are refused whole by
// Redis when it is out of memory, before any write. A compare-and-swap
// whose answer was lost (a timeout, a connection that broke) may still
// have been done in Redis: the store reads the call once more, and when it
// finds its own write there (the write's random token) the step goes on (a resumed call runs, once).
// When that read fails too, the step is refused; a call moved to resumed
// that way is not run (Resume runs a call only after its move succeeded):
// it runs at most once, never twice.
//
// For the calls to survive a Redis restart or crash, run Redis with
// `appendonly yes`, `appendfsync always` and `maxmemory-policy noeviction`,
// as for runtime/redisreplay. The keys of one store are used together in
// its scripts: on Redis Cluster, give the Prefix a hash tag
// ("{toolgate}:pending:") so that they share a slot.
package redispending

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Defaults of Options.
const (
	DefaultPrefix  = "toolgate:pending:"
	DefaultTimeout = 250 * time.Millisecond
)

// Options configure a Store.
type Options struct {
	// Prefix namespaces the keys (DefaultPrefix when empty).
	Prefix string
	// Grace is how long a call is kept past its ExpiresAt
	// (gate.DefaultPendingRetention when zero).
	Grace time.Duration
	// Timeout bounds each Redis command (DefaultTimeout when zero). Past it
	// the store gives up and the gate refuses the step.
	Timeout time.Duration
	// Quota bounds the open calls of one tenant and of one requester
	// (gate.PendingQuota's defaults for fields at zero).
	Quota gate.PendingQuota
}

// Store is a gate.PendingStore in Redis. It is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	grace   time.Duration
	timeout time.Duration
	quota   gate.PendingQuota
	// now is the clock that decides which open calls are past their
	// expiry (for the quotas and List).
	now func() time.Time
}

var _ gate.PendingStore = (*Store)(nil)

// New returns a store using client. The client must respect context
// deadlines (ContextTimeoutEnabled: true); otherwise a slow Redis would be
// waited on for the client's own read timeout, and New returns an error.
func New(client redis.UniversalClient, o Options) (*Store, error) {
	if client == nil {
		return nil, errors.New("redispending: nil client")
	}
	if !contextTimeouts(client) {
		return nil, errors.New("redispending: the client must be created with ContextTimeoutEnabled: true, so that Options.Timeout bounds every command")
	}
	if o.Grace < 0 || o.Timeout < 0 {
		return nil, errors.New("redispending: negative Grace or Timeout")
	}
	s := &Store{client: client, prefix: o.Prefix, grace: o.Grace, timeout: o.Timeout, quota: o.Quota.WithDefaults(), now: time.Now}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.grace == 0 {
		s.grace = gate.DefaultPendingRetention
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

// Quota returns the store's quotas, defaults filled in.
func (s *Store) Quota() gate.PendingQuota { return s.quota }

// errGarbage marks an answer of Redis that is not what this store wrote.
var errGarbage = errors.New("redispending: Redis answered what this store did not write")

// fail wraps a command's error. Of Redis's error replies (not the client's
// or the connection's errors), an OOM answer is gate.ErrPendingStoreFull
// and a script's own refusal (a key of another type, a record that is not
// JSON) is errGarbage; an error past the deadline of ctx also wraps ctx's
// error (context.DeadlineExceeded for Options.Timeout). No key is named:
// keys hold tenants, tools and IDs.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	var reply redis.Error
	isReply := errors.As(err, &reply)
	switch {
	case isReply && redis.IsOOMError(reply):
		return fmt.Errorf("redispending: %s: %w: %w", op, gate.ErrPendingStoreFull, err)
	case isReply && garbage(reply.Error()):
		return fmt.Errorf("redispending: %s: %w: %w", op, errGarbage, err)
	case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
		return fmt.Errorf("redispending: %s: %w: %w", op, ctx.Err(), err)
	}
	return fmt.Errorf("redispending: %s: %w", op, err)
}

// garbage reports whether msg, an error reply, is a script's refusal of
// what it found: its own (TOOLGATE), Redis's for a key of another type, or
// cjson's for a record that is not JSON.
func garbage(msg string) bool {
	return strings.HasPrefix(msg, "TOOLGATE ") || strings.HasPrefix(msg, "WRONGTYPE ") || strings.Contains(msg, "cjson")
}
