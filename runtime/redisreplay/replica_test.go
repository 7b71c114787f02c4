package redisreplay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The replica test runs this test binary again as replica processes: with
// replicaAddr set, TestMain runs replicaMain instead of the tests.
const (
	replicaAddr  = "REDISREPLAY_REPLICA_ADDR"
	replicaCalls = "REDISREPLAY_REPLICA_CALLS"
	execsKey     = "toolgate-test:execs:"
)

func TestMain(m *testing.M) {
	// go-redis logs every failed dial; the fault tests make many on
	// purpose, and assert the outcomes instead.
	redis.SetLogger(quietLogger{})
	if addr := os.Getenv(replicaAddr); addr != "" {
		os.Exit(replicaMain(addr, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// roundResult is what one replica reports for one round.
type roundResult struct {
	ID       string         `json:"id"`
	Executed int            `json:"executed"`
	Codes    map[string]int `json:"codes"`
}

// replicaMain is one replica: its own registry and store on the shared
// Redis at addr. It prints "ready", then for each line "go ID" on stdin
// dispatches call ID concurrently as many times as $REDISREPLAY_REPLICA_CALLS
// says, and prints a roundResult. Each execution also increments a counter
// in Redis, so the parent counts executions independently of the replicas'
// reports.
func replicaMain(addr string, in io.Reader, out io.Writer) int {
	n, err := strconv.Atoi(os.Getenv(replicaCalls))
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	client := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, PoolSize: n})
	defer client.Close()
	store, err := New(client, Options{Prefix: "toolgate-test:replay:"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	var current atomic.Value // the round's call ID
	spec := gate.Spec[noArgs]{Name: "ship", Version: "v1", Decode: decodeNoArgs}
	reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(spec, gate.Binding[noArgs]{
		Policy: gate.AllowAll[noArgs],
		Execute: func(ctx context.Context, _ noArgs) (any, error) {
			return nil, client.Incr(ctx, execsKey+current.Load().(string)).Err()
		},
	})}, gate.WithReplayStore(store))
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	fmt.Fprintln(out, "ready")
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		id, ok := strings.CutPrefix(lines.Text(), "go ")
		if !ok {
			fmt.Fprintln(os.Stderr, "replica: bad command", lines.Text())
			return 2
		}
		current.Store(id)
		r := roundResult{ID: id, Codes: map[string]int{}}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range n {
			wg.Go(func() {
				<-start
				res, _ := reg.Dispatch(context.Background(), gate.Caller{Scope: "conv-shared"}, shipCall(id))
				mu.Lock()
				defer mu.Unlock()
				if res.Executed {
					r.Executed++
				}
				r.Codes[string(codeOf(res))]++
			})
		}
		close(start)
		wg.Wait()
		if err := json.NewEncoder(out).Encode(r); err != nil {
			return 2
		}
	}
	return 0
}

// replica is a running replica process.
type replica struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// TestReplicas: 4 replica processes, each with its own registry, share one
// Redis. In each round the 4 dispatch the same call ID 16 times each, all
// at once: 64 concurrent dispatches, exactly one execution (counted by
// the replicas and, independently, in Redis), 63 duplicate_call refusals.
func TestReplicas(t *testing.T) {
	const processes, perProcess, rounds = 4, 16, 8
	srv := redistest.StartServer(t, suite, false)
	reps := make([]*replica, processes)
	for i := range reps {
		cmd, in, out := redistest.StartProcess(t, replicaAddr+"="+srv.Addr(), replicaCalls+"="+strconv.Itoa(perProcess))
		reps[i] = &replica{cmd: cmd, in: in, out: out}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	for i, r := range reps {
		if !r.out.Scan() || r.out.Text() != "ready" {
			t.Fatalf("replica %d did not start: %q %v", i, r.out.Text(), r.out.Err())
		}
	}
	c := newClient(t, srv.Addr())
	var dispatches, executions, counted int
	for round := range rounds {
		id := fmt.Sprintf("call-%d", round)
		for _, r := range reps {
			if _, err := fmt.Fprintf(r.in, "go %s\n", id); err != nil {
				t.Fatal(err)
			}
		}
		codes := map[string]int{}
		executed := 0
		for i, r := range reps {
			if !r.out.Scan() {
				t.Fatalf("replica %d: no result: %v", i, r.out.Err())
			}
			var res roundResult
			if err := json.Unmarshal(r.out.Bytes(), &res); err != nil || res.ID != id {
				t.Fatalf("replica %d: result %q: %v", i, r.out.Text(), err)
			}
			executed += res.Executed
			for code, n := range res.Codes {
				codes[code] += n
			}
		}
		inRedis, err := c.Get(context.Background(), execsKey+id).Int()
		if err != nil {
			t.Fatalf("%s: execution counter: %v", id, err)
		}
		want := map[string]int{string(gate.OK): 1, string(toolerr.DuplicateCall): processes*perProcess - 1}
		if executed != 1 || inRedis != 1 || !maps.Equal(codes, want) {
			t.Errorf("%s: %d executions reported, %d counted in Redis, codes %v; want 1, 1, %v", id, executed, inRedis, codes, want)
		}
		dispatches += processes * perProcess
		executions += executed
		counted += inRedis
	}
	for _, r := range reps {
		r.in.Close()
		if err := r.cmd.Wait(); err != nil {
			t.Errorf("replica: %v", err)
		}
	}
	t.Logf("replicas: %d processes, %d rounds of %d concurrent dispatches of one call ID: %d dispatches, %d executions (%d counted in Redis)",
		processes, rounds, processes*perProcess, dispatches, executions, counted)
}
