package redistest

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// conn is a client of the proxy: ask sends a line and returns a channel
// that receives the answer.
type conn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr string) *conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &conn{t: t, c: c, r: bufio.NewReader(c)}
}

func (c *conn) ask(line string) <-chan string {
	c.t.Helper()
	if _, err := io.WriteString(c.c, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		s, _ := c.r.ReadString('\n')
		got <- s
	}()
	return got
}

// recv returns what got receives, failing t when nothing comes within
// 5s (a reply held that should not be).
func recv(t *testing.T, got <-chan string) string {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no reply")
		return ""
	}
}

// waitHeld waits until p holds n replies, giving up after 500 looks.
func waitHeld(t *testing.T, p *Proxy, n int) {
	t.Helper()
	for range 500 {
		if p.Held() == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the proxy holds %d replies, want %d", p.Held(), n)
}

// TestProxyHolds: Hold lets skip replies through and holds the rest until
// Release; HoldOne holds only the first after skip, and the replies of
// other connections go on meanwhile.
func TestProxyHolds(t *testing.T) {
	tests := []struct {
		name string
		one  bool
		skip int
		held int // replies held in all
	}{
		{"hold all", false, 0, 2},
		{"hold all after one", false, 1, 2},
		{"hold one", true, 0, 1},
		{"hold one after one", true, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := StartProxy(t, Serve(t, func(c net.Conn) { io.Copy(c, c) }))
			a, b := dial(t, p.Addr()), dial(t, p.Addr())
			if tt.one {
				p.HoldOne(tt.skip)
			} else {
				p.Hold(tt.skip)
			}
			for range tt.skip {
				if got := recv(t, a.ask("through")); got != "through\n" {
					t.Fatalf("a skipped reply: %q", got)
				}
			}
			held := a.ask("held")
			waitHeld(t, p, 1)
			other := b.ask("other")
			if tt.one {
				if got := recv(t, other); got != "other\n" {
					t.Fatalf("another connection's reply: %q", got)
				}
			} else {
				waitHeld(t, p, 2)
			}
			select {
			case got := <-held:
				t.Fatalf("the held reply %q went before Release", got)
			default:
			}
			p.Release()
			if got := recv(t, held); got != "held\n" {
				t.Fatalf("the held reply after Release: %q", got)
			}
			if !tt.one {
				if got := recv(t, other); got != "other\n" {
					t.Fatalf("the other held reply after Release: %q", got)
				}
			}
			if got := recv(t, a.ask("after")); got != "after\n" || p.Held() != tt.held {
				t.Fatalf("after Release: %q, %d held", got, p.Held())
			}
		})
	}
}
