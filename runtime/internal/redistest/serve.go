package redistest

import (
	"net"
	"testing"
)

// Serve starts a server on a free loopback port that runs serve on each
// connection it accepts (and closes it after), until t ends; it returns
// the server's host:port. It stands in for a Redis that answers as the
// test wants.
func Serve(t testing.TB, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); serve(c) }()
		}
	}()
	return l.Addr().String()
}
