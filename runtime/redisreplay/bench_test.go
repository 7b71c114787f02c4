package redisreplay

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
)

// BenchmarkDispatch measures one dispatch of a fresh call ID (Claim,
// decode, policy, execute) with the in-memory store and with the Redis
// store on a loopback redis-server, in the same run: compare the two
// ns/op (make bench-redis prints the ratio). The in-memory store forgets
// an ID after 100 ms, so that the millions of IDs of a run never fill it
// (a full store refuses the call).
func BenchmarkDispatch(b *testing.B) {
	srv := redistest.StartServer(b, suite, false)
	stores := []struct {
		name  string
		store gate.ReplayStore
	}{
		{"memory", gate.NewMemoryReplayStore(gate.MemoryReplayConfig{IDsPerScope: 1 << 20, IDs: 1 << 20, MaxAge: 100 * time.Millisecond})},
		{"redis", mustStore(b, newClient(b, srv.Addr()), Options{})},
	}
	var i int // call IDs are never reused, across runs and stores
	for _, s := range stores {
		b.Run(s.name, func(b *testing.B) {
			var execs atomic.Int64
			reg := newRegistry(b, s.store, &execs, nil, nil)
			caller := gate.Caller{Scope: "bench-" + s.name}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				i++
				if _, err := reg.Dispatch(ctx, caller, shipCall(strconv.Itoa(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
