package redispending

import (
	"io"
	"net"
	"sync"
	"testing"
)

// slowProxy forwards loopback TCP connections to a Redis server. While it
// holds, it keeps Redis's replies back (past the first skip ones) until
// released: a Redis as slow as the test wants, without a clock.
type slowProxy struct {
	l      net.Listener
	target string

	mu      sync.Mutex
	skip    int           // replies still let through before holding
	holding bool          // replies are being held
	open    chan struct{} // closed when the held replies may go
	held    int           // replies held so far since hold
	most    int           // replies to hold at most, 0 for every one
}

func startProxy(t testing.TB, target string) *slowProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &slowProxy{l: l, target: target, open: make(chan struct{})}
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
		p.release()
		cmu.Lock()
		for _, c := range conns {
			c.Close()
		}
		cmu.Unlock()
		wg.Wait()
	})
	return p
}

func (p *slowProxy) addr() string { return p.l.Addr().String() }

// replies copies s's replies to c, each read waiting while held.
func (p *slowProxy) replies(c, s net.Conn) {
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

// hold lets the next skip replies through and holds every one after.
func (p *slowProxy) hold(skip int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holding, p.skip, p.held, p.most, p.open = true, skip, 0, 0, make(chan struct{})
}

// holdOne lets the next skip replies through, holds the one after and
// lets every later one through.
func (p *slowProxy) holdOne(skip int) {
	p.hold(skip)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.most = 1
}

// heldReplies returns how many replies are held back since hold.
func (p *slowProxy) heldReplies() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// release sends the held replies on and stops holding.
func (p *slowProxy) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holding {
		close(p.open)
		p.holding = false
	}
}
