package redispending

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
)

// The process tests run this test binary again as replica processes: with
// replicaAddr set, TestMain runs replicaMain instead of the tests.
const (
	replicaAddr = "REDISPENDING_REPLICA_ADDR"
	replicaLog  = "REDISPENDING_REPLICA_LOG"
)

func TestMain(m *testing.M) {
	// go-redis logs every failed dial; the fault tests make many on
	// purpose, and assert the outcomes instead.
	redis.SetLogger(quietLogger{})
	if addr := os.Getenv(replicaAddr); addr != "" {
		os.Exit(replicaMain(addr, execLog(os.Getenv(replicaLog)), os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// order is one command to a replica; answer its answer.
type order struct {
	Op  string `json:"op"` // ping, request, approve, resume or list
	Ref string `json:"ref,omitempty"`
	ID  string `json:"id,omitempty"`
	// N is how many Resumes of ID run at once.
	N int `json:"n,omitempty"`
}

type answer struct {
	Code      string         `json:"code"`
	PendingID string         `json:"pendingId,omitempty"`
	Codes     map[string]int `json:"codes,omitempty"`
	IDs       []string       `json:"ids,omitempty"`
}

// replicaMain is one replica: its own registry and Redis client on the
// shared Redis at addr, its executions logged in log. It prints "ready",
// then reads one order per line and prints its answer.
func replicaMain(addr string, log execLog, in io.Reader, out io.Writer) int {
	client := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, PoolSize: 32})
	defer client.Close()
	store, err := New(client, Options{Timeout: time.Second})
	if err == nil {
		var reg *gate.Registry
		if reg, err = buildRegistry(store, log, nil); err == nil {
			fmt.Fprintln(out, "ready")
			return serve(reg, client, in, out)
		}
	}
	fmt.Fprintln(os.Stderr, "replica:", err)
	return 2
}

func serve(reg *gate.Registry, client *redis.Client, in io.Reader, out io.Writer) int {
	ctx := context.Background()
	lines := bufio.NewScanner(in)
	enc := json.NewEncoder(out)
	for lines.Scan() {
		var o order
		if err := json.Unmarshal(lines.Bytes(), &o); err != nil {
			fmt.Fprintln(os.Stderr, "replica: bad order", lines.Text())
			return 2
		}
		var a answer
		switch o.Op {
		case "ping":
			a.Code = string(gate.OK)
			if err := client.Ping(ctx).Err(); err != nil {
				a.Code = "down"
			}
		case "request":
			code, id := request(reg, clerk, o.Ref)
			a.Code, a.PendingID = string(code), id
		case "approve":
			a.Code = string(errCode(reg.Approve(ctx, boss, o.ID)))
		case "resume":
			a.Codes = map[string]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			start := make(chan struct{})
			for range o.N {
				wg.Go(func() {
					<-start
					_, err := reg.Resume(ctx, o.ID)
					mu.Lock()
					defer mu.Unlock()
					a.Codes[string(errCode(err))]++
				})
			}
			close(start)
			wg.Wait()
		case "list":
			page, err := reg.ListPending(ctx, boss, gate.PendingQuery{})
			a.Code = string(errCode(err))
			for _, pc := range page.Calls {
				a.IDs = append(a.IDs, pc.PendingID+"/"+string(pc.State)+"/"+string(pc.Args))
			}
		default:
			fmt.Fprintln(os.Stderr, "replica: bad op", o.Op)
			return 2
		}
		if err := enc.Encode(a); err != nil {
			return 2
		}
	}
	return 0
}

// replica is a running replica process.
type replica struct {
	t   testing.TB
	in  io.Writer
	out *bufio.Scanner
}

// startReplicas starts n replica processes on the Redis at addr, logging
// their executions in log.
func startReplicas(t *testing.T, n int, addr string, log execLog) []*replica {
	t.Helper()
	reps := make([]*replica, n)
	for i := range reps {
		cmd, in, out := redistest.StartProcess(t, replicaAddr+"="+addr, replicaLog+"="+string(log))
		t.Cleanup(func() {
			in.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("replica %d: %v", i, err)
			}
		})
		reps[i] = &replica{t: t, in: in, out: out}
		if !reps[i].out.Scan() || reps[i].out.Text() != "ready" {
			t.Fatalf("replica %d did not start: %q %v", i, reps[i].out.Text(), reps[i].out.Err())
		}
	}
	return reps
}

// send sends an order and does not wait for its answer.
func (r *replica) send(o order) {
	r.t.Helper()
	b, _ := json.Marshal(o)
	if _, err := fmt.Fprintf(r.in, "%s\n", b); err != nil {
		r.t.Fatal(err)
	}
}

// receive reads the answer of the order sent last.
func (r *replica) receive() answer {
	r.t.Helper()
	if !r.out.Scan() {
		r.t.Fatalf("replica: no answer: %v", r.out.Err())
	}
	var a answer
	if err := json.Unmarshal(r.out.Bytes(), &a); err != nil {
		r.t.Fatalf("replica: answer %q: %v", r.out.Text(), err)
	}
	return a
}

func (r *replica) do(o order) answer {
	r.t.Helper()
	r.send(o)
	return r.receive()
}

// reachable waits until the replica's client reaches Redis again: after
// a run of failed dials, go-redis waits before it dials again.
func (r *replica) reachable() {
	r.t.Helper()
	for range 100 {
		if r.do(order{Op: "ping"}).Code == string(gate.OK) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.t.Fatal("the replica did not reach the restarted Redis")
}

// resumeAll sends n Resumes of id to every replica at once and sums their
// codes.
func resumeAll(reps []*replica, id string, n int) map[string]int {
	for _, r := range reps {
		r.send(order{Op: "resume", ID: id, N: n})
	}
	codes := map[string]int{}
	for _, r := range reps {
		for c, k := range r.receive().Codes {
			codes[c] += k
		}
	}
	return codes
}
