package redispending

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// approvedCall requests and approves a refund for ref on reg: its pending
// ID.
func approvedCall(t *testing.T, reg *gate.Registry, ref string) string {
	t.Helper()
	code, id := request(reg, clerk, ref)
	if code != toolerr.ApprovalRequired {
		t.Fatalf("request %s: %s", ref, code)
	}
	if err := reg.Approve(context.Background(), boss, id); err != nil {
		t.Fatalf("approve %s: %v", ref, err)
	}
	return id
}

// TestSlowRedisFailsClosed: a loopback proxy holds Redis's replies back.
// Each step gives up at the store's deadline, while Redis's answer is
// still held, and is refused with approval_unavailable: nothing runs.
// Once Redis answers again, a Resume that gave up reading the call runs it
// once; one whose move to resumed was done but whose answer, and the read
// that checks for it, were held finds the call resumed and does not run
// it: at most once.
func TestSlowRedisFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	proxy := redistest.StartProxy(t, srv.Addr())
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	// fast sets up and retries, slow (through the proxy) takes the step.
	fast := newRegistry(t, mustStore(t, newClient(t, srv.Addr()), Options{Timeout: 5 * time.Second}), log, nil)
	slowClient := newClient(t, proxy.Addr())
	slow := newRegistry(t, mustStore(t, slowClient, Options{Timeout: 50 * time.Millisecond}), log, nil)
	ctx := context.Background()
	warm := approvedCall(t, fast, "warm") // the scripts are loaded
	if _, err := fast.Resume(ctx, warm); err != nil {
		t.Fatal(err)
	}
	if _, err := fast.ListPending(ctx, boss, gate.PendingQuery{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		skip  int // replies let through before holding
		step  func(id string) error
		retry toolerr.Code // Resume once Redis is fast again
	}{
		{"request", 0, func(string) error {
			_, err := slow.Dispatch(ctx, gate.Caller{Principal: clerk, Scope: "conv"}, refundCall("slow-request"))
			return err
		}, ""},
		{"approve", 0, func(id string) error { return slow.Approve(ctx, boss, id) }, ""},
		{"resume reads", 0, func(id string) error { _, err := slow.Resume(ctx, id); return err }, gate.OK},
		{"resume moves", 1, func(id string) error { _, err := slow.Resume(ctx, id); return err }, toolerr.ApprovalAlreadyResumed},
		{"list", 0, func(string) error { _, err := slow.ListPending(ctx, boss, gate.PendingQuery{}); return err }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := approvedCall(t, fast, tt.name)
			// A live connection, so that the step's first reply is its own.
			if err := slowClient.Ping(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			runs := log.total(t)
			proxy.Hold(tt.skip)
			err := tt.step(id)
			held := proxy.Held()
			proxy.Release()
			var te *toolerr.Error
			if !errors.As(err, &te) || te.Code != toolerr.ApprovalUnavailable || !errors.Is(te, context.DeadlineExceeded) {
				t.Fatalf("%v, want approval_unavailable past the deadline", err)
			}
			if held == 0 {
				t.Fatal("the step returned before Redis's answer was held: the test did not slow Redis down")
			}
			if n := log.total(t) - runs; n != 0 {
				t.Fatalf("%d runs while Redis was slow", n)
			}
			if tt.retry != "" {
				_, err := fast.Resume(ctx, id)
				if errCode(err) != tt.retry || log.runs(t, tt.name) != map[toolerr.Code]int{gate.OK: 1}[tt.retry] {
					t.Errorf("Resume once Redis is fast: %v (%d runs), want %s", err, log.runs(t, tt.name), tt.retry)
				}
			}
		})
	}
}

// TestLostAnswerOfAMove: the answer of Resume's move to resumed is held
// back past the store's deadline, but Redis did the move and answers the
// store's next read: the store finds its own write there, and the call
// runs, once; a second Resume does not run it again.
func TestLostAnswerOfAMove(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	proxy := redistest.StartProxy(t, srv.Addr())
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	fast := newRegistry(t, mustStore(t, newClient(t, srv.Addr()), Options{Timeout: 5 * time.Second}), log, nil)
	slowClient := newClient(t, proxy.Addr())
	slow := newRegistry(t, mustStore(t, slowClient, Options{Timeout: 100 * time.Millisecond}), log, nil)
	ctx := context.Background()
	id := approvedCall(t, fast, "late-answer") // and the scripts are loaded
	if err := slowClient.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	proxy.HoldOne(1) // Get's answer goes, the move's is held
	_, err := slow.Resume(ctx, id)
	held := proxy.Held()
	proxy.Release()
	if err != nil || held != 1 || log.runs(t, "late-answer") != 1 {
		t.Fatalf("Resume: %v, %d replies held, %d runs; want it run once", err, held, log.runs(t, "late-answer"))
	}
	if _, err := fast.Resume(ctx, id); errCode(err) != toolerr.ApprovalAlreadyResumed || log.runs(t, "late-answer") != 1 {
		t.Errorf("a second Resume: %v, %d runs", err, log.runs(t, "late-answer"))
	}
}

// codeErr turns a refusal code into an error for the table of steps.
func codeErr(c toolerr.Code) error {
	if c == gate.OK {
		return nil
	}
	return &toolerr.Error{Code: c}
}

// TestOutOfMemory: with Redis at its maxmemory (noeviction), a request is
// refused with approval_unavailable (the store full), and so are Approve
// and Resume, whose scripts Redis refuses before any write; reads still
// answer. Nothing runs, and once Redis has room the approved call runs once.
func TestOutOfMemory(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{Timeout: time.Second})
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reg := newRegistry(t, s, log, nil)
	ctx := context.Background()
	approved := approvedCall(t, reg, "approved")
	_, waiting := request(reg, clerk, "waiting")
	if err := c.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		step func() error
	}{
		{"request", func() error { code, _ := request(reg, clerk, "oom"); return codeErr(code) }},
		{"approve", func() error { return reg.Approve(ctx, boss, waiting) }},
		{"resume", func() error { _, err := reg.Resume(ctx, approved); return err }},
	}
	for _, tt := range tests {
		if err := tt.step(); errCode(err) != toolerr.ApprovalUnavailable {
			t.Errorf("%s out of memory: %v, want approval_unavailable", tt.name, err)
		}
	}
	if err := s.Create(ctx, call("direct", "t1", "u1", "refund", time.Now(), time.Hour)); !errors.Is(err, gate.ErrPendingStoreFull) {
		t.Errorf("Create out of memory: %v, want ErrPendingStoreFull", err)
	}
	if page, err := reg.ListPending(ctx, boss, gate.PendingQuery{}); err != nil || len(page.Calls) != 2 {
		t.Errorf("listing out of memory: %d calls, %v; want the 2 held", len(page.Calls), err)
	}
	if n := log.total(t); n != 0 {
		t.Fatalf("%d runs out of memory", n)
	}
	if err := c.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Resume(ctx, approved); err != nil || log.runs(t, "approved") != 1 {
		t.Errorf("Resume with room again: %v, %d runs", err, log.runs(t, "approved"))
	}
	if log.runs(t, "oom") != 0 {
		t.Error("the call refused out of memory ran")
	}
}

// TestGarbageFailsClosed: a call's key altered behind the store's back (a
// record that does not decode, another call's record, a state that is not
// the record's, a key of another type), or a server that answers garbage:
// every step is approval_unavailable and nothing runs.
func TestGarbageFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{})
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reg := newRegistry(t, s, log, nil)
	ctx := context.Background()
	other := approvedCall(t, reg, "other")
	otherRecord, err := c.HGet(ctx, s.recordKey(other), "d").Result()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		alter func(key string) error
	}{
		{"a record that does not decode", func(key string) error { return c.HSet(ctx, key, "d", "not json").Err() }},
		{"a record with a member more", func(key string) error {
			d, err := c.HGet(ctx, key, "d").Result()
			if err == nil {
				err = c.HSet(ctx, key, "d", d[:len(d)-1]+`,"Extra":1}`).Err()
			}
			return err
		}},
		{"another call's record", func(key string) error { return c.HSet(ctx, key, "d", otherRecord).Err() }},
		{"a state that is not the record's", func(key string) error { return c.HSet(ctx, key, "s", "pending").Err() }},
		{"an unknown state", func(key string) error {
			d, err := c.HGet(ctx, key, "d").Result()
			if err == nil {
				err = c.HSet(ctx, key, "s", "paid", "d", replaceState(d, "paid")).Err()
			}
			return err
		}},
		{"a key of another type", func(key string) error {
			if err := c.Del(ctx, key).Err(); err != nil {
				return err
			}
			return c.Set(ctx, key, "x", 0).Err()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := approvedCall(t, reg, tt.name)
			if err := tt.alter(s.recordKey(id)); err != nil {
				t.Fatal(err)
			}
			_, rerr := reg.Resume(ctx, id)
			_, ierr := reg.Inspect(ctx, boss, id)
			for step, err := range map[string]error{"resume": rerr, "approve": reg.Approve(ctx, boss, id), "inspect": ierr, "reject": reg.Reject(ctx, boss, id, "")} {
				if errCode(err) != toolerr.ApprovalUnavailable {
					t.Errorf("%s: %v, want approval_unavailable", step, err)
				}
			}
			if n := log.total(t); n != 0 {
				t.Fatalf("%d runs", n)
			}
		})
	}
	t.Run("a server that answers garbage", func(t *testing.T) {
		addr := garbageServer(t)
		reg := newRegistry(t, mustStore(t, redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, Protocol: 2, DisableIdentity: true}), Options{}), log, nil)
		code, id := request(reg, clerk, "garbage-server")
		_, rerr := reg.Resume(ctx, other)
		_, lerr := reg.ListPending(ctx, boss, gate.PendingQuery{})
		for step, err := range map[string]error{"request": codeErr(code), "approve": reg.Approve(ctx, boss, other), "resume": rerr, "list": lerr} {
			if errCode(err) != toolerr.ApprovalUnavailable {
				t.Errorf("%s: %v, want approval_unavailable", step, err)
			}
		}
		if id != "" || log.total(t) != 0 {
			t.Errorf("pending ID %q, %d runs", id, log.total(t))
		}
	})
}

// replaceState returns the record d with its State member set to st.
func replaceState(d, st string) string {
	for _, from := range []string{"approved", "pending"} {
		old := `"State":"` + from + `"`
		if i := strings.Index(d, old); i >= 0 {
			return d[:i] + `"State":"` + st + `"` + d[i+len(old):]
		}
	}
	return d
}

// garbageServer listens on loopback and answers every read with a RESP
// integer, whatever was asked: valid RESP, never the answer expected.
func garbageServer(t *testing.T) string {
	t.Helper()
	return redistest.Serve(t, func(conn net.Conn) {
		buf := make([]byte, 4096)
		for {
			if _, err := conn.Read(buf); err != nil {
				return
			}
			if _, err := conn.Write([]byte(":7\r\n")); err != nil {
				return
			}
		}
	})
}

// TestFailClassifiesReplies: of Redis's error replies, OOM is
// gate.ErrPendingStoreFull and a script's refusal of what it found is
// errGarbage; an error of the client or the connection is neither, whatever
// its text.
func TestFailClassifiesReplies(t *testing.T) {
	tests := []struct {
		name          string
		err           error
		full, garbage bool
	}{
		{"OOM reply", redistest.ErrorReply("OOM command not allowed when used memory > 'maxmemory'."), true, false},
		{"wrapped OOM reply", fmt.Errorf("hook: %w", redistest.ErrorReply("OOM command not allowed")), true, false},
		{"script's refusal", redistest.ErrorReply("TOOLGATE not a pending call"), false, true},
		{"key of another type", redistest.ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value"), false, true},
		{"record not JSON", redistest.ErrorReply("ERR user_script:1: Expected value but found invalid token at character 1 script: cjson.decode"), false, true},
		{"other reply", redistest.ErrorReply("ERR unknown command"), false, false},
		{"connection error reading OOM", errors.New("OOM as a connection error's text"), false, false},
		{"connection error reading WRONGTYPE", errors.New("WRONGTYPE as a connection error's text"), false, false},
	}
	s := &Store{}
	for _, tt := range tests {
		err := s.fail(context.Background(), "EVALSHA", tt.err)
		if full, garbage := errors.Is(err, gate.ErrPendingStoreFull), errors.Is(err, errGarbage); full != tt.full || garbage != tt.garbage || !errors.Is(err, tt.err) {
			t.Errorf("%s: %v: full %v garbage %v, want %v %v and the error wrapped", tt.name, err, full, garbage, tt.full, tt.garbage)
		}
	}
}
