package redisreplay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

func mustStore(t testing.TB, c redis.UniversalClient, o Options) *Store {
	t.Helper()
	s, err := New(c, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKey: keys are namespaced, bounded in length, and distinct for
// distinct (scope, call ID) pairs, including pairs that only differ in
// where one part ends, and a raw part that looks like a hashed one.
func TestKey(t *testing.T) {
	s := mustStore(t, redis.NewClient(&redis.Options{ContextTimeoutEnabled: true}), Options{Prefix: "app:"})
	long := strings.Repeat("x", 10_000)
	hashed := part(long)
	pairs := [][2]string{
		{"", ""}, {"a", "b"}, {"a:b", "c"}, {"a", "b:c"}, {"ab", ""}, {"", "ab"},
		{"=a", ""}, {"a=", ""}, {long, "c1"}, {long + "y", "c1"}, {"s", long},
		{hashed, "c1"}, {strings.Repeat("x", MaxRawLen), "c"}, {strings.Repeat("x", MaxRawLen+1), "c"},
	}
	seen := map[string][2]string{}
	for _, p := range pairs {
		k := s.Key(p[0], p[1])
		if !strings.HasPrefix(k, "app:") {
			t.Errorf("Key(%.20q, %.20q) = %.40q: not namespaced", p[0], p[1], k)
		}
		if max := len("app:") + 3 + 2*(MaxRawLen+1); len(k) > max {
			t.Errorf("Key(%.20q, %.20q) has %d bytes, more than %d", p[0], p[1], len(k), max)
		}
		if q, dup := seen[k]; dup {
			t.Errorf("pairs (%.20q, %.20q) and (%.20q, %.20q) share key %q", q[0], q[1], p[0], p[1], k)
		}
		seen[k] = p
	}
	if got := s.Key("conv-1", "call_9"); got != "app:7:=conv-1=call_9" {
		t.Errorf("Key = %q", got)
	}
}

// TestNewOptions: a client that ignores context deadlines is refused (a
// slow Redis would be waited on); defaults apply.
func TestNewOptions(t *testing.T) {
	if _, err := New(redis.NewClient(&redis.Options{}), Options{}); err == nil || !strings.Contains(err.Error(), "ContextTimeoutEnabled") {
		t.Errorf("client without ContextTimeoutEnabled: err %v", err)
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("nil client accepted")
	}
	if _, err := New(redis.NewClient(&redis.Options{ContextTimeoutEnabled: true}), Options{TTL: -time.Second}); err == nil {
		t.Error("negative TTL accepted")
	}
	s := mustStore(t, redis.NewClusterClient(&redis.ClusterOptions{ContextTimeoutEnabled: true}), Options{})
	if s.prefix != DefaultPrefix || s.ttl != DefaultTTL || s.timeout != DefaultTimeout {
		t.Errorf("defaults: %+v", s)
	}
}

// TestStore: Claim is atomic per scope and ID and sets the expiry, Seen
// reports it, Release forgets it; long scopes and IDs work through their
// hashes.
func TestStore(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{TTL: time.Hour})
	ctx := context.Background()
	long := strings.Repeat("é", 500)
	for _, scope := range []string{"conv-1", long} {
		for _, id := range []string{"call-1", long} {
			name := fmt.Sprintf("%.10s/%.10s", scope, id)
			if seen, err := s.Seen(ctx, scope, id); err != nil || seen {
				t.Fatalf("%s: Seen before Claim = %v, %v", name, seen, err)
			}
			if ok, err := s.Claim(ctx, scope, id); err != nil || !ok {
				t.Fatalf("%s: first Claim = %v, %v", name, ok, err)
			}
			if ok, err := s.Claim(ctx, scope, id); err != nil || ok {
				t.Fatalf("%s: second Claim = %v, %v", name, ok, err)
			}
			if seen, err := s.Seen(ctx, scope, id); err != nil || !seen {
				t.Fatalf("%s: Seen after Claim = %v, %v", name, seen, err)
			}
			ttl, err := c.PTTL(ctx, s.Key(scope, id)).Result()
			if err != nil || ttl <= 0 || ttl > time.Hour {
				t.Fatalf("%s: PTTL = %v, %v; want in (0, 1h]", name, ttl, err)
			}
		}
	}
	if ok, err := s.Claim(ctx, "conv-2", "call-1"); err != nil || !ok {
		t.Fatalf("same ID in another scope: Claim = %v, %v", ok, err)
	}
	if err := s.Release(ctx, "conv-1", "call-1"); err != nil {
		t.Fatal(err)
	}
	if seen, err := s.Seen(ctx, "conv-1", "call-1"); err != nil || seen {
		t.Fatalf("Seen after Release = %v, %v", seen, err)
	}
	if seen, err := s.Seen(ctx, "conv-2", "call-1"); err != nil || !seen {
		t.Fatalf("Release touched another scope: Seen = %v, %v", seen, err)
	}
	n, err := c.DBSize(ctx).Result()
	if err != nil || n != 4 {
		t.Fatalf("DBSIZE = %d, %v; want 4 keys", n, err)
	}
}

// TestStoreExpiry: a claim expires after the TTL (Redis's own expiry).
func TestStoreExpiry(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{TTL: 50 * time.Millisecond})
	ctx := context.Background()
	if ok, err := s.Claim(ctx, "s", "c"); err != nil || !ok {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	for {
		seen, err := s.Seen(ctx, "s", "c")
		if err != nil {
			t.Fatal(err)
		}
		if !seen {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ok, err := s.Claim(ctx, "s", "c"); err != nil || !ok {
		t.Fatalf("Claim after expiry = %v, %v", ok, err)
	}
}

// TestErrorReplyFailsClosed: Redis answers an error (OOM under
// maxmemory with noeviction): the call is refused with
// replay_unavailable, nothing runs, the refusal is audited, and the error
// is gate.ErrReplayStoreFull.
func TestErrorReplyFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	ctx := context.Background()
	var execs atomic.Int64
	audit := &redistest.Events{}
	reg := newRegistry(t, mustStore(t, c, Options{}), &execs, audit, nil)
	if _, err := reg.Dispatch(ctx, gate.Caller{Scope: "s"}, shipCall("c0")); err != nil || execs.Load() != 1 {
		t.Fatalf("first call: %v, %d runs", err, execs.Load())
	}
	if err := c.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	res, _ := reg.Dispatch(ctx, gate.Caller{Scope: "s"}, shipCall("c1"))
	te := wantRefused(t, res, toolerr.ReplayUnavailable)
	if te.Code.Category() != toolerr.System || !errors.Is(te, gate.ErrReplayStoreFull) {
		t.Errorf("error %v (category %s), want system and ErrReplayStoreFull", te.Err, te.Code.Category())
	}
	if ev := audit.Last(); ev.Code != toolerr.ReplayUnavailable || ev.Category != toolerr.System || ev.Executed || ev.CallID != "c1" {
		t.Errorf("audit event %+v", ev)
	}
	if execs.Load() != 1 {
		t.Errorf("%d runs, want 1", execs.Load())
	}
}

// TestFailClassifiesReplies: an OOM error reply of Redis's, wrapped or
// not, is gate.ErrReplayStoreFull; an error of the client or the
// connection is not, whatever its text.
func TestFailClassifiesReplies(t *testing.T) {
	tests := []struct {
		name string
		err  error
		full bool
	}{
		{"OOM reply", redistest.ErrorReply("OOM command not allowed when used memory > 'maxmemory'."), true},
		{"wrapped OOM reply", fmt.Errorf("hook: %w", redistest.ErrorReply("OOM command not allowed")), true},
		{"other reply", redistest.ErrorReply("ERR unknown command"), false},
		{"connection error reading OOM", errors.New("OOM as a connection error's text"), false},
	}
	s := &Store{}
	for _, tt := range tests {
		err := s.fail(context.Background(), "SET NX", tt.err)
		if full := errors.Is(err, gate.ErrReplayStoreFull); full != tt.full || !errors.Is(err, tt.err) {
			t.Errorf("%s: %v: full %v, want %v and the error wrapped", tt.name, err, full, tt.full)
		}
	}
}
