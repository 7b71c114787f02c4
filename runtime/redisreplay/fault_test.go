package redisreplay

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestRedisDownThenRestarted: Redis (appendonly, fsync always) is killed
// in the middle of a run and restarted on the same data. While it is down
// every call is refused with replay_unavailable (new IDs and replays
// alike), audited, and nothing runs; after the restart no call ID that had
// run runs again, and the IDs refused during the outage run once.
func TestRedisDownThenRestarted(t *testing.T) {
	srv := redistest.StartServer(t, suite, true)
	c := newClient(t, srv.Addr())
	var execs atomic.Int64
	audit := &redistest.Events{}
	reg := newRegistry(t, mustStore(t, c, Options{Timeout: time.Second}), &execs, audit, nil)
	ctx := context.Background()
	caller := gate.Caller{Scope: "conv-1"}
	ran := map[string]int{} // executions per call ID, from the results
	dispatch := func(id string) gate.Result {
		res, _ := reg.Dispatch(ctx, caller, shipCall(id))
		if res.Executed {
			ran[id]++
		}
		return res
	}

	const before, during = 20, 10
	for i := range before {
		if res := dispatch(fmt.Sprintf("a%d", i)); codeOf(res) != gate.OK {
			t.Fatalf("a%d before the outage: %v", i, res.Err)
		}
	}

	srv.Kill()
	runsAtKill := execs.Load()
	for i := range during {
		for _, id := range []string{fmt.Sprintf("b%d", i), fmt.Sprintf("a%d", i)} {
			te := wantRefused(t, dispatch(id), toolerr.ReplayUnavailable)
			if te.Code.Category() != toolerr.System {
				t.Fatalf("%s: category %s", id, te.Code.Category())
			}
			if ev := audit.Last(); ev.CallID != id || ev.Code != toolerr.ReplayUnavailable || ev.Executed {
				t.Fatalf("%s: audit event %+v", id, ev)
			}
		}
	}
	if n := execs.Load() - runsAtKill; n != 0 {
		t.Fatalf("%d executions while Redis was down, want 0", n)
	}

	srv.Restart(t)
	waitReachable(t, c)
	for i := range before {
		id := fmt.Sprintf("a%d", i)
		if err := wantRefused(t, dispatch(id), toolerr.DuplicateCall); err == nil {
			t.Fatalf("%s ran again after the restart", id)
		}
	}
	for i := range during {
		if res := dispatch(fmt.Sprintf("b%d", i)); codeOf(res) != gate.OK {
			t.Fatalf("b%d after the restart: %v", i, res.Err)
		}
	}
	for id, n := range ran {
		if n != 1 {
			t.Errorf("%s ran %d times", id, n)
		}
	}
	if got, want := execs.Load(), int64(before+during); got != want || len(ran) != before+during {
		t.Errorf("%d executions of %d IDs, want %d of %d", got, len(ran), want, before+during)
	}
	t.Logf("faults: %d calls ran, Redis killed (SIGKILL), %d calls refused while down (%d new IDs, %d replays) with 0 executions, Redis restarted on its AOF, %d replays refused as duplicate_call, %d refused IDs ran once",
		before, 2*during, during, during, before, during)
}

// TestSlowRedisIsNotWaitedOn: a loopback proxy holds Redis's replies back.
// The store gives up at its deadline and the gate refuses the call with
// replay_unavailable while Redis's answer is still held, so the call was
// not waited on; nothing runs. A Claim whose answer is lost this way may
// have been recorded: the call is kept claimed, and a retry of that ID is
// refused as duplicate_call, never run.
func TestSlowRedisIsNotWaitedOn(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	proxy := redistest.StartProxy(t, srv.Addr())
	c := newClient(t, proxy.Addr())
	var execs atomic.Int64
	audit := &redistest.Events{}
	reg := newRegistry(t, mustStore(t, c, Options{Timeout: 50 * time.Millisecond}), &execs, audit, nil)
	ctx := context.Background()
	caller := gate.Caller{Scope: "conv-1"}
	if res, err := reg.Dispatch(ctx, caller, shipCall("warm")); err != nil || !res.Executed {
		t.Fatalf("warm-up call: %v", err)
	}

	// The claim (SET NX) is the call's one command: its reply is the first
	// held.
	tests := []struct {
		name  string
		skip  int // replies let through before holding
		retry toolerr.Code
	}{
		{"Claim is slow", 0, toolerr.DuplicateCall},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("slow-%d", i)
			runs := execs.Load()
			proxy.Hold(tt.skip)
			res, _ := reg.Dispatch(ctx, caller, shipCall(id))
			held := proxy.Held()
			proxy.Release()
			te := wantRefused(t, res, toolerr.ReplayUnavailable)
			if !errors.Is(te, context.DeadlineExceeded) {
				t.Errorf("error %v, want the deadline", te.Err)
			}
			if held == 0 {
				t.Error("the call returned before Redis's answer was held: the test did not slow Redis down")
			}
			if ev := audit.Last(); ev.Code != toolerr.ReplayUnavailable || ev.Executed {
				t.Errorf("audit event %+v", ev)
			}
			if execs.Load() != runs {
				t.Fatalf("%d runs while Redis was slow", execs.Load()-runs)
			}
			res, _ = reg.Dispatch(ctx, caller, shipCall(id))
			if codeOf(res) != tt.retry {
				t.Errorf("retry after Redis is fast again: %v, want %s", res.Err, tt.retry)
			}
		})
	}
}

// waitReachable waits until c reaches Redis again: after a run of failed
// dials, go-redis waits before it dials again.
func waitReachable(t *testing.T, c *redis.Client) {
	t.Helper()
	for range 100 {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the client did not reach the restarted Redis")
}
