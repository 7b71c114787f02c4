package redispending

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

const perReplica = 16 // concurrent Resumes per replica and round

// onceCodes is what 2 replicas resuming one approved call perReplica times
// each must see: one run, every other Resume refused as resumed already.
var onceCodes = map[string]int{string(gate.OK): 1, string(toolerr.ApprovalAlreadyResumed): 2*perReplica - 1}

// listed returns the IDs a replica's list answer shows with state st and
// the argument bytes of ref.
func listed(a answer, st gate.PendingState, ref string) []string {
	var ids []string
	for _, s := range a.IDs {
		id, rest, _ := strings.Cut(s, "/")
		if rest == string(st)+`/{"ref":"`+ref+`"}` {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestReplicasResumeOnce: two replica processes share one Redis. A call is
// requested on the first, listed (with its arguments, for the approver)
// and approved on the second, then resumed 16 times at once on each: it
// runs exactly once (in the execution log every process writes), and the
// 31 other Resumes are approval_already_resumed.
func TestReplicasResumeOnce(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reps := startReplicas(t, 2, srv.Addr(), log)
	for round := range 4 {
		ref := fmt.Sprintf("r%d", round)
		a := reps[0].do(order{Op: "request", Ref: ref})
		if a.Code != string(toolerr.ApprovalRequired) || a.PendingID == "" {
			t.Fatalf("%s: request answered %+v", ref, a)
		}
		if l := reps[1].do(order{Op: "list"}); l.Code != string(gate.OK) || !slices.Equal(listed(l, gate.StatePending, ref), []string{a.PendingID}) {
			t.Fatalf("%s: the other replica lists %+v", ref, l)
		}
		if c := reps[1].do(order{Op: "approve", ID: a.PendingID}).Code; c != string(gate.OK) {
			t.Fatalf("%s: approve: %s", ref, c)
		}
		if codes := resumeAll(reps, a.PendingID, perReplica); !maps.Equal(codes, onceCodes) {
			t.Errorf("%s: resumes %v, want %v", ref, codes, onceCodes)
		}
		if n := log.runs(t, ref); n != 1 {
			t.Errorf("%s ran %d times, want once", ref, n)
		}
		if l := reps[0].do(order{Op: "list"}); len(l.IDs) != 0 {
			t.Errorf("%s: a resumed call is still listed: %v", ref, l.IDs)
		}
	}
	t.Logf("replicas: 2 processes, 4 calls requested on one and approved on the other, each resumed %d times at once: %d executions", 2*perReplica, log.total(t))
}

// TestReplicasRestartKeepsCalls: Redis (appendonly, fsync always) is
// killed and restarted on its data between every step of a call: the
// pending call is still pending, the approved call still approved, and it
// runs exactly once when both replicas resume it; after another restart it
// does not run again.
func TestReplicasRestartKeepsCalls(t *testing.T) {
	srv := redistest.StartServer(t, suite, true)
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reps := startReplicas(t, 2, srv.Addr(), log)
	restart := func() {
		srv.Kill()
		srv.Restart(t)
		for _, r := range reps {
			r.reachable()
		}
	}
	a := reps[0].do(order{Op: "request", Ref: "kept"})
	if a.Code != string(toolerr.ApprovalRequired) {
		t.Fatalf("request: %+v", a)
	}
	restart()
	if ids := listed(reps[1].do(order{Op: "list"}), gate.StatePending, "kept"); !slices.Equal(ids, []string{a.PendingID}) {
		t.Fatalf("after a restart the pending call is not listed: %v", ids)
	}
	if c := reps[1].do(order{Op: "approve", ID: a.PendingID}).Code; c != string(gate.OK) {
		t.Fatalf("approve: %s", c)
	}
	restart()
	if ids := listed(reps[0].do(order{Op: "list"}), gate.StateApproved, "kept"); !slices.Equal(ids, []string{a.PendingID}) {
		t.Fatalf("after a restart the approved call is not listed: %v", ids)
	}
	if codes := resumeAll(reps, a.PendingID, perReplica); !maps.Equal(codes, onceCodes) {
		t.Errorf("resumes %v, want %v", codes, onceCodes)
	}
	restart()
	want := map[string]int{string(toolerr.ApprovalAlreadyResumed): 2 * perReplica}
	if codes := resumeAll(reps, a.PendingID, perReplica); !maps.Equal(codes, want) {
		t.Errorf("resumes after the last restart %v, want %v", codes, want)
	}
	if n := log.total(t); n != 1 {
		t.Errorf("%d executions, want 1", n)
	}
}

// TestReplicasRedisKilled: Redis is killed in the middle of the flow. While
// it is down every step on either replica is approval_unavailable and
// nothing runs; once it is back on its data, the approved call is still
// approved and runs exactly once, the pending call is still pending, and
// the call requested during the outage was never stored.
func TestReplicasRedisKilled(t *testing.T) {
	srv := redistest.StartServer(t, suite, true)
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reps := startReplicas(t, 2, srv.Addr(), log)
	approved := reps[0].do(order{Op: "request", Ref: "approved"}).PendingID
	waiting := reps[0].do(order{Op: "request", Ref: "waiting"}).PendingID
	if c := reps[1].do(order{Op: "approve", ID: approved}).Code; approved == "" || waiting == "" || c != string(gate.OK) {
		t.Fatalf("before the outage: approve %s", c)
	}

	srv.Kill()
	down := map[string]int{string(toolerr.ApprovalUnavailable): 2 * perReplica}
	if codes := resumeAll(reps, approved, perReplica); !maps.Equal(codes, down) {
		t.Errorf("resumes while Redis is down: %v, want %v", codes, down)
	}
	steps := []struct {
		name string
		o    order
	}{
		{"request", order{Op: "request", Ref: "outage"}},
		{"approve", order{Op: "approve", ID: waiting}},
		{"list", order{Op: "list"}},
	}
	for _, st := range steps {
		for i, r := range reps {
			if a := r.do(st.o); a.Code != string(toolerr.ApprovalUnavailable) || a.PendingID != "" {
				t.Errorf("%s on replica %d while Redis is down: %+v, want approval_unavailable", st.name, i, a)
			}
		}
	}
	if n := log.total(t); n != 0 {
		t.Fatalf("%d executions while Redis was down", n)
	}

	srv.Restart(t)
	for _, r := range reps {
		r.reachable()
	}
	l := reps[1].do(order{Op: "list"})
	if !slices.Equal(listed(l, gate.StateApproved, "approved"), []string{approved}) || !slices.Equal(listed(l, gate.StatePending, "waiting"), []string{waiting}) || len(l.IDs) != 2 {
		t.Fatalf("after the restart the replica lists %v, want the approved and the waiting call only", l.IDs)
	}
	if codes := resumeAll(reps, approved, perReplica); !maps.Equal(codes, onceCodes) {
		t.Errorf("resumes after the restart %v, want %v", codes, onceCodes)
	}
	if c := reps[0].do(order{Op: "approve", ID: waiting}).Code; c != string(gate.OK) {
		t.Fatalf("approve after the restart: %s", c)
	}
	if codes := resumeAll(reps, waiting, perReplica); !maps.Equal(codes, onceCodes) {
		t.Errorf("resumes of the waiting call %v, want %v", codes, onceCodes)
	}
	if got := []int{log.runs(t, "approved"), log.runs(t, "waiting"), log.runs(t, "outage")}; !slices.Equal(got, []int{1, 1, 0}) {
		t.Errorf("runs of approved, waiting, outage: %v, want [1 1 0]", got)
	}
}
