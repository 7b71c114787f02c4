package redispending

import (
	"testing"

	"github.com/redis/go-redis/v9"
)

// The tests run real redis-server processes (runtime/internal/redistest),
// each on a free loopback port with its own directory, started and stopped
// by the tests themselves; without redis-server they skip as suite,
// except under CI=true, where they fail.
const suite = "Redis pending store"

// newClient returns a client of the Redis at addr that honours context
// deadlines.
func newClient(t testing.TB, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	return c
}
