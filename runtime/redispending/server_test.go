package redispending

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The tests run real redis-server processes, each on a free loopback port
// with its own directory, started and stopped by the tests themselves.
// The binary is $REDIS_SERVER or redis-server on PATH; without it the
// tests skip, except under CI=true, where they fail (.ci/run installs it).

// redisBinary returns the redis-server binary, or skips (fails under CI).
func redisBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("REDIS_SERVER"); p != "" {
		return p
	}
	p, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server not found on PATH (nor $REDIS_SERVER): the Redis pending store is tested against a real server; install redis-server"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// server is one redis-server process.
type server struct {
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	// exited receives the process's exit.
	exited chan error
}

// startServer starts a redis-server on a free loopback port. With persist,
// every write is in the append-only file, fsynced, before Redis answers
// (appendonly yes, appendfsync always), so a killed server restarted on the
// same directory has every write it acknowledged.
func startServer(t testing.TB, persist bool) *server {
	t.Helper()
	s := &server{bin: redisBinary(t), dir: t.TempDir()}
	var err error
	for range 5 {
		if s.port, err = freePort(); err != nil {
			t.Fatal(err)
		}
		if err = s.launch(persist); err == nil {
			t.Cleanup(s.kill)
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
func (s *server) launch(persist bool) error {
	aof := "no"
	if persist {
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
	c := redis.NewClient(&redis.Options{Addr: s.addr(), MaxRetries: -1})
	defer c.Close()
	for range 200 {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			return fmt.Errorf("exited: %v: %s", err, log)
		default:
		}
		if c.Ping(context.Background()).Err() == nil {
			s.exited = exited
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	<-exited
	return fmt.Errorf("no answer on %s", s.addr())
}

func (s *server) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// kill stops the server with SIGKILL (a crash: nothing is flushed that was
// not already) and waits for it to exit.
func (s *server) kill() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// restart starts the server again on the same port and directory.
func (s *server) restart(t testing.TB, persist bool) {
	t.Helper()
	if err := s.launch(persist); err != nil {
		t.Fatalf("redis-server did not restart: %v", err)
	}
}

// newClient returns a client of s that honours context deadlines.
func newClient(t testing.TB, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	return c
}
