package redistest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards loopback TCP connections to a Redis server. While it
// holds, it keeps Redis's replies back (past the first skip ones) until
// released: a Redis as slow as the test wants, without a clock.
type Proxy struct {
	l net.Listener

	mu      sync.Mutex
	skip    int           // replies still let through before holding
	most    int           // replies to hold at most, 0 for every one
	holding bool          // replies are being held
	open    chan struct{} // closed when the held replies may go
	held    int           // replies held so far since Hold
}

// StartProxy starts a proxy to the Redis at target, closed with its
// connections when t ends.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, open: make(chan struct{})}
	close(p.open)
	var wg sync.WaitGroup
	var conns []net.Conn
	var cmu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			cmu.Lock()
			conns = append(conns, c, s)
			cmu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); io.Copy(s, c); s.Close() }()
			go func() { defer wg.Done(); p.replies(c, s); c.Close() }()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		p.Release()
		cmu.Lock()
		for _, c := range conns {
			c.Close()
		}
		cmu.Unlock()
		wg.Wait()
	})
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.l.Addr().String() }

// replies copies s's replies to c, each read waiting while held.
func (p *Proxy) replies(c, s net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			p.mu.Lock()
			wait := p.open
			if p.holding && p.skip > 0 {
				p.skip--
				wait = nil
			} else if p.holding && (p.most == 0 || p.held < p.most) {
				p.held++
			} else {
				wait = nil
			}
			p.mu.Unlock()
			if wait != nil {
				<-wait
			}
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Hold lets the next skip replies through and holds every one after.
func (p *Proxy) Hold(skip int) { p.hold(skip, 0) }

// HoldOne lets the next skip replies through, holds the one after and
// lets every later one through.
func (p *Proxy) HoldOne(skip int) { p.hold(skip, 1) }

func (p *Proxy) hold(skip, most int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holding, p.skip, p.held, p.most, p.open = true, skip, 0, most, make(chan struct{})
}

// Held returns how many replies are held back since Hold.
func (p *Proxy) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// Release sends the held replies on and stops holding.
func (p *Proxy) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holding {
		close(p.open)
		p.holding = false
	}
}
