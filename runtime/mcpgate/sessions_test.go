package mcpgate

import (
	"math"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
)

// settled returns the goroutines and the heap in use once the count is at
// most want (or after 500 rounds of collecting and yielding, when it never
// gets there), so that goroutines still ending are not counted.
func settled(want int) (int, uint64) {
	var m runtime.MemStats
	n := runtime.NumGoroutine()
	for i := 0; i < 500 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	return n, m.HeapInuse
}

// flood sends n initializes with token from 8 clients at once and returns
// how many were answered with an error whose message is want.
func flood(t *testing.T, c *http.Client, url, token string, n int, want string) int {
	t.Helper()
	var mu sync.Mutex
	refused := 0
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				r := post(t, c, url, token, "", initialize)
				if r.msg.Error != nil && r.msg.Error.Message == want {
					mu.Lock()
					refused++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	c.CloseIdleConnections()
	return refused
}

// TestSessionFlood: 1,000 initializes of a caller the CallerFunc refuses
// are each refused, and afterwards the server holds no more goroutines
// and about no more memory than before; 1,000 initializes of an accepted
// caller beyond MaxSessions (10) are refused past the tenth, and the
// server holds about ten sessions' goroutines. A held session costs at
// least one goroutine, so 1,000 held sessions could not pass.
func TestSessionFlood(t *testing.T) {
	const n, max = 1000, 10
	cases := []struct {
		name, token, refusal string
		refused              int
		held                 int // the sessions that may stay
	}{
		{"refused caller", "", ErrNoCaller, n, 0},
		{"beyond MaxSessions", "tok-bob", ErrTooManySessions, n - max, max},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, _ := mcptest.NewRegistry(t)
			srv := rawServer(t, reg, &Options{MaxSessions: max})
			c := srv.Client()
			post(t, c, srv.URL, "", "", initialize)
			c.CloseIdleConnections()
			before, heapBefore := settled(math.MaxInt)
			if got := flood(t, c, srv.URL, tc.token, n, tc.refusal); got != tc.refused {
				t.Errorf("%d initializes refused with %q, want %d", got, tc.refusal, tc.refused)
			}
			// A session of the SDK's streamable transport holds a few
			// goroutines; allow 4 per session held and 16 for the
			// connections still closing.
			bound := before + 4*tc.held + 16
			after, heapAfter := settled(bound)
			t.Logf("goroutines %d before, %d after; heap in use %d before, %d after", before, after, heapBefore, heapAfter)
			if after > bound {
				t.Errorf("goroutines %d before, %d after %d initializes; want at most %d", before, after, n, bound)
			}
			if grown := int64(heapAfter) - int64(heapBefore); grown > int64(64<<10*(tc.held+8)) {
				t.Errorf("the heap in use grew by %d bytes after %d initializes", grown, n)
			}
		})
	}
}

// TestMaxSessions: once MaxSessions sessions are initialized, another
// initialize is refused with ErrTooManySessions; a session closed (DELETE)
// makes room for one.
func TestMaxSessions(t *testing.T) {
	reg, _ := mcptest.NewRegistry(t)
	srv := rawServer(t, reg, &Options{MaxSessions: 2})
	c := srv.Client()
	first := session(t, c, srv.URL, "tok-bob")
	session(t, c, srv.URL, "tok-alice")
	if r := post(t, c, srv.URL, "tok-olga", "", initialize); r.msg.Error == nil || r.msg.Error.Message != ErrTooManySessions {
		t.Fatalf("third initialize: status %d, error %+v; want %q", r.status, r.msg.Error, ErrTooManySessions)
	}
	req, err := http.NewRequest(http.MethodDelete, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", first)
	req.Header.Set("Authorization", "Bearer tok-bob")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	session(t, c, srv.URL, "tok-olga")
}

// TestIdleSession: a session idle for HTTP.SessionTimeout is closed (its
// ID is then unknown); without one, Handler uses DefaultSessionTimeout,
// and NewServer DefaultMaxSessions.
func TestIdleSession(t *testing.T) {
	reg, _ := mcptest.NewRegistry(t)
	srv := rawServer(t, reg, &Options{HTTP: &mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: time.Millisecond}})
	c := srv.Client()
	sid := session(t, c, srv.URL, "tok-bob")
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	status := 0
	for i := 0; i < 500 && status != http.StatusNotFound; i++ {
		time.Sleep(10 * time.Millisecond)
		status = post(t, c, srv.URL, "tok-bob", sid, list).status
	}
	if status != http.StatusNotFound {
		t.Errorf("an idle session still answers: status %d", status)
	}
	if got := sessionBounds(mcp.StreamableHTTPOptions{}).SessionTimeout; got != DefaultSessionTimeout {
		t.Errorf("default idle timeout %v, want %v", got, DefaultSessionTimeout)
	}
	if got := sessionBounds(mcp.StreamableHTTPOptions{SessionTimeout: time.Minute}).SessionTimeout; got != time.Minute {
		t.Errorf("idle timeout %v, want the one set", got)
	}
}
