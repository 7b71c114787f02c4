// Package redistest is the test harness the Redis integrations
// (runtime/redisreplay, runtime/redispending) share: real redis-server
// processes on free loopback ports, a proxy that holds Redis's replies,
// replica processes of the test binary and a recorder of audit events. It
// uses the standard library only (the core module has no Redis client).
//
// The binary is $REDIS_SERVER or redis-server on PATH; without it the
// tests skip, naming their suite through runtime/internal/suiteskip,
// except under CI=true, where they fail (.ci/run installs it).
package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/internal/suiteskip"
)

// Server is one redis-server process with a directory of its own.
type Server struct {
	bin     string
	dir     string
	port    int
	persist bool
	cmd     *exec.Cmd
	// exited receives the process's exit.
	exited chan error
}

// binary returns the redis-server binary, or skips suite (fails under CI).
func binary(t testing.TB, suite string) string {
	t.Helper()
	if p := os.Getenv("REDIS_SERVER"); p != "" {
		return p
	}
	p, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server not found on PATH (nor $REDIS_SERVER): the " + suite + " is tested against a real server; install redis-server"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		suiteskip.Skip(t, suite, msg)
	}
	return p
}

// StartServer starts a redis-server for the tests of suite on a free
// loopback port, killed when t ends. With persist, every write is in the
// append-only file, fsynced, before Redis answers (appendonly yes,
// appendfsync always), so a killed server restarted on the same directory
// has every write it acknowledged.
func StartServer(t testing.TB, suite string, persist bool) *Server {
	t.Helper()
	s := &Server{bin: binary(t, suite), dir: t.TempDir(), persist: persist}
	var err error
	for range 5 {
		if s.port, err = freePort(); err != nil {
			t.Fatal(err)
		}
		if err = s.launch(); err == nil {
			t.Cleanup(s.Kill)
			return s
		}
	}
	t.Fatalf("redis-server did not start: %v", err)
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launch starts the process and waits until it answers PING.
func (s *Server) launch() error {
	aof := "no"
	if s.persist {
		aof = "yes"
	}
	s.cmd = exec.Command(s.bin,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--appendonly", aof, "--appendfsync", "always",
		"--maxmemory-policy", "noeviction", "--daemonize", "no", "--loglevel", "warning",
		"--logfile", filepath.Join(s.dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	for range 200 {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			return fmt.Errorf("exited: %v: %s", err, log)
		default:
		}
		if s.pong() {
			s.exited = exited
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	<-exited
	return fmt.Errorf("no answer on %s", s.Addr())
}

// pong reports whether the server answers PING with PONG (not an error,
// such as LOADING while it reads its append-only file).
func (s *Server) pong() bool {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return false
	}
	if _, err := io.WriteString(c, "PING\r\n"); err != nil {
		return false
	}
	line, err := bufio.NewReader(io.LimitReader(c, 64)).ReadString('\n')
	return err == nil && line == "+PONG\r\n"
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Kill stops the server with SIGKILL (a crash: nothing is flushed that was
// not already) and waits for it to exit.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the killed server again on the same port and directory,
// persisting as it did.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if err := s.launch(); err != nil {
		t.Fatalf("redis-server did not restart: %v", err)
	}
}
