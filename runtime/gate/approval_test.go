package gate

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The principals of the approval tests: the service authenticated them.
var (
	clerk       = Principal{ID: "u1", Tenant: "t1", Roles: []string{"clerk"}}
	otherClerk  = Principal{ID: "u2", Tenant: "t1", Roles: []string{"clerk"}}
	boss        = Principal{ID: "boss", Tenant: "t1", Roles: []string{"finance"}}
	financeUser = Principal{ID: "fin", Tenant: "t1", Roles: []string{"finance", "clerk"}}
	foreignBoss = Principal{ID: "boss", Tenant: "t2", Roles: []string{"finance"}}
)

// bigPay needs approval under the pay tool's NeedsApproval (above 100).
const bigPay = `{"account":"ACC-1","amount":500}`

// approvals is the pay tool with approvals, over stores and a clock that a
// test can share between registries (replicas).
type approvals struct {
	c       spyCounts
	clock   *testClock
	pending *MemoryPendingStore
	replay  *MemoryReplayStore
	rec     *recorder
	// revoked makes the policy deny every call.
	revoked atomic.Bool
	// ranFor is the principal each execution ran for (PrincipalFrom).
	mu     sync.Mutex
	ranFor []Principal
}

func newApprovals() *approvals {
	a := &approvals{clock: &testClock{now: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}, rec: newRecorder()}
	a.pending = NewMemoryPendingStore(MemoryPendingConfig{})
	a.pending.now = a.clock.Now
	a.replay = NewMemoryReplayStore(MemoryReplayConfig{})
	a.replay.now = a.clock.Now
	return a
}

// registry builds a replica of the pay tool with approval mode and schema
// version, over a's stores and clock.
func (a *approvals) registry(t testing.TB, mode Approval, version string, self bool) *Registry {
	t.Helper()
	spec := paySpec(&a.c)
	spec.Version, spec.Approval, spec.Approvers, spec.SelfApproval = version, mode, []string{"finance"}, self
	b := payBinding(&a.c, func(context.Context, Principal, payArgs) error {
		if a.revoked.Load() {
			return errors.New("revoked")
		}
		return nil
	}, func(ctx context.Context, _ payArgs) (any, error) {
		p, _ := PrincipalFrom(ctx)
		a.mu.Lock()
		a.ranFor = append(a.ranFor, p)
		a.mu.Unlock()
		return "paid", nil
	})
	if mode == ApprovalPolicy {
		b.NeedsApproval = func(_ context.Context, _ Principal, args payArgs) (bool, string) {
			return args.Amount > 100, "payments above 100 need a second person"
		}
	}
	r := mustRegistry(t, []*Tool{Bind(spec, b)}, WithPendingStore(a.pending), WithReplayStore(a.replay), WithAuditor(a.rec), WithApprovalTTL(time.Hour))
	r.now = a.clock.Now
	return r
}

// request dispatches args for who and checks that the call was stored to
// await approval, running nothing; it returns its ticket.
func (a *approvals) request(t *testing.T, r *Registry, who Principal, id, args string) Ticket {
	t.Helper()
	res, err := r.Dispatch(context.Background(), Caller{Principal: who, Scope: "conv-1", RequestID: "req-" + id}, Call{ID: id, Name: "pay", Args: []byte(args), Complete: true})
	te := wantCode(t, err, toolerr.ApprovalRequired, toolerr.Approval)
	if res.Executed || a.c.execs.Load() != 0 || res.Approval == nil {
		t.Fatalf("executed %v, execs %d, approval %v", res.Executed, a.c.execs.Load(), res.Approval)
	}
	if te.Approval == nil || te.Approval.PendingID != res.Approval.PendingID {
		t.Fatalf("the refusal does not name the pending call: %+v", te.Approval)
	}
	return *res.Approval
}

// execs is the number of executions so far.
func (a *approvals) execs() int64 { return a.c.execs.Load() }

// TestApprovalRequiredRunsNothing: a call that needs approval is checked,
// stored and answered approval_required with its ticket; nothing runs.
// Calls that do not need it run as before.
func TestApprovalRequiredRunsNothing(t *testing.T) {
	for _, mode := range []Approval{ApprovalRequired, ApprovalPolicy} {
		t.Run(string(mode), func(t *testing.T) {
			a := newApprovals()
			r := a.registry(t, mode, "v1", false)
			tk := a.request(t, r, clerk, "c1", bigPay)
			want := Ticket{
				PendingID: tk.PendingID, Tool: "pay", Version: "v1", ArgsDigest: Digest([]byte(bigPay)), CallID: "c1",
				Principal: "u1", Tenant: "t1", Scope: "conv-1", RequestID: "req-c1", Reason: tk.Reason,
				CreatedAt: a.clock.now, ExpiresAt: a.clock.now.Add(time.Hour),
			}
			if tk != want || len(tk.PendingID) < 26 || !strings.HasPrefix(tk.ArgsDigest, "sha256:") {
				t.Errorf("ticket %+v\nwant   %+v", tk, want)
			}
			if mode == ApprovalPolicy && tk.Reason != "payments above 100 need a second person" {
				t.Errorf("reason %q", tk.Reason)
			}
			if a.c.decodes.Load() != 1 || a.c.policies.Load() != 1 {
				t.Errorf("decodes %d, policies %d: the call was not checked once", a.c.decodes.Load(), a.c.policies.Load())
			}
			stored, err := a.pending.Get(context.Background(), tk.PendingID)
			if err != nil || stored.State != StatePending || string(stored.Args) != bigPay || stored.Ticket != tk {
				t.Errorf("stored %+v, %v", stored, err)
			}
			// A replay of the call ID is a duplicate, not a second pending call.
			_, err = r.Dispatch(context.Background(), Caller{Principal: clerk, Scope: "conv-1"}, Call{ID: "c1", Name: "pay", Args: []byte(bigPay), Complete: true})
			wantCode(t, err, toolerr.DuplicateCall, toolerr.Validation)
			if a.execs() != 0 {
				t.Errorf("the duplicate ran the executor: execs %d", a.execs())
			}
			small := Call{ID: "c2", Name: "pay", Args: []byte(goodPay), Complete: true}
			res, err := r.Dispatch(context.Background(), Caller{Principal: clerk, Scope: "conv-1"}, small)
			if mode == ApprovalPolicy {
				if err != nil || a.execs() != 1 {
					t.Errorf("a small payment: %v, execs %d", err, a.execs())
				}
			} else if wantCode(t, err, toolerr.ApprovalRequired, toolerr.Approval); res.Executed || a.execs() != 0 {
				t.Errorf("approval required ran the executor")
			}
		})
	}
}

// TestApprovalRequiredJSON: what the model reads says the call awaits
// approval, names it, and quotes no argument.
func TestApprovalRequiredJSON(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	res, _ := r.Dispatch(context.Background(), Caller{Principal: clerk, Scope: "s"}, Call{ID: "c1", Name: "pay", Args: []byte(`{"account":"SECRET-ACC","amount":500}`), Complete: true})
	if res.Executed || a.execs() != 0 {
		t.Errorf("awaiting approval, yet executed %v, execs %d", res.Executed, a.execs())
	}
	b, err := json.Marshal(res.Err)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Code, Category, Reason string
		Approval               map[string]string
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Code != "approval_required" || m.Category != "approval" || !strings.Contains(m.Reason, "awaits approval") || !strings.Contains(m.Reason, "do not send the call again") ||
		m.Approval["pendingId"] != res.Approval.PendingID || m.Approval["version"] != "v1" || m.Approval["argsDigest"] != res.Approval.ArgsDigest || m.Approval["expiresAt"] != "2026-03-02T11:00:00Z" {
		t.Errorf("JSON %s", b)
	}
	if strings.Contains(string(b), "SECRET-ACC") || strings.Contains(string(b), "500") {
		t.Errorf("the answer quotes an argument: %s", b)
	}
}

// TestApproveThenResumeRunsOnce: an approved call runs once, with exactly
// the stored bytes, for the requester; the audit trail has each step and no
// argument value.
func TestApproveThenResumeRunsOnce(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	tk := a.request(t, r, clerk, "c1", bigPay)
	if err := r.Approve(context.Background(), boss, tk.PendingID); err != nil {
		t.Fatal(err)
	}
	if a.execs() != 0 {
		t.Fatal("approving ran the call")
	}
	res, err := r.Resume(context.Background(), tk.PendingID)
	if err != nil || !res.Executed || res.Value != "paid" || a.execs() != 1 || res.CallID != "c1" || res.Approval == nil || res.Approval.PendingID != tk.PendingID {
		t.Fatalf("resume: %+v, %v, execs %d", res, err, a.execs())
	}
	if len(a.ranFor) != 1 || a.ranFor[0].ID != "u1" || a.ranFor[0].Tenant != "t1" {
		t.Errorf("ran for %+v, want the requester", a.ranFor)
	}
	_, err = r.Resume(context.Background(), tk.PendingID)
	wantCode(t, err, toolerr.ApprovalAlreadyResumed, toolerr.StateConflict)
	if a.execs() != 1 {
		t.Errorf("a second resume ran: execs %d", a.execs())
	}
	stored, _ := a.pending.Get(context.Background(), tk.PendingID)
	if stored.State != StateResumed || stored.DecidedBy != "boss" {
		t.Errorf("stored %+v", stored)
	}
	evs := a.rec.pending()
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind)+":"+string(e.Code))
		if e.PendingID != tk.PendingID {
			t.Errorf("event %+v names another pending call", e)
		}
	}
	want := "approval_requested:approval_required approval_approved:ok approval_resumed:ok approval_resumed:approval_already_resumed"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events %v\nwant %s", kinds, want)
	}
	if evs[1].Approver != "boss" || evs[1].Principal != "u1" || !evs[2].Executed || evs[2].Version != "v1" {
		t.Errorf("events %+v", evs)
	}
}

// TestConcurrentResumeRunsOnce: 32 goroutines resume one approved call at
// once, from two replicas sharing the stores: it runs once, and every other
// resume is approval_already_resumed.
func TestConcurrentResumeRunsOnce(t *testing.T) {
	a := newApprovals()
	r1 := a.registry(t, ApprovalPolicy, "v1", false)
	r2 := a.registry(t, ApprovalPolicy, "v1", false)
	tk := a.request(t, r1, clerk, "c1", bigPay)
	if err := r2.Approve(context.Background(), boss, tk.PendingID); err != nil {
		t.Fatal(err)
	}
	var ok, resumed atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := r1
			if i%2 == 1 {
				r = r2
			}
			_, err := r.Resume(context.Background(), tk.PendingID)
			var te *toolerr.Error
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &te) && te.Code == toolerr.ApprovalAlreadyResumed:
				resumed.Add(1)
			default:
				t.Errorf("resume: %v", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if a.execs() != 1 || ok.Load() != 1 || resumed.Load() != 31 {
		t.Errorf("execs %d, ok %d, already resumed %d; want 1, 1, 31", a.execs(), ok.Load(), resumed.Load())
	}
}

// TestResumeUnderTheReplayStore: when the pending store's state has not
// moved (a replica's store answered late), the replay store's claim of the
// pending ID still stops a second run.
func TestResumeUnderTheReplayStore(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	tk := a.request(t, r, clerk, "c1", bigPay)
	if err := r.Approve(context.Background(), boss, tk.PendingID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resume(context.Background(), tk.PendingID); err != nil {
		t.Fatal(err)
	}
	// Put the call back to approved, as a store that lost the move would.
	a.pending.calls[tk.PendingID].pc.State = StateApproved
	_, err := r.Resume(context.Background(), tk.PendingID)
	wantCode(t, err, toolerr.ApprovalAlreadyResumed, toolerr.StateConflict)
	if a.execs() != 1 {
		t.Errorf("execs %d, want 1", a.execs())
	}
}

// TestApprovalRefusals: each way a pending call must not run, with its
// stable code; none runs anything.
func TestApprovalRefusals(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// act approves, rejects, tampers, …; the step under test is its
		// last, whose error must have code.
		act  func(t *testing.T, a *approvals, r *Registry, id string) error
		code toolerr.Code
		cat  toolerr.Category
	}{
		{"requester approves own call", func(t *testing.T, a *approvals, _ *Registry, id string) error {
			// The requester holds the finance role here.
			r := a.registry(t, ApprovalPolicy, "v1", false)
			own := a.request(t, r, financeUser, "c9", bigPay)
			return r.Approve(ctx, financeUser, own.PendingID)
		}, toolerr.ApprovalForbidden, toolerr.Permission},
		{"approver without the role", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			return r.Approve(ctx, otherClerk, id)
		}, toolerr.ApprovalForbidden, toolerr.Permission},
		{"approver without an ID", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			return r.Approve(ctx, Principal{Tenant: "t1", Roles: []string{"finance"}}, id)
		}, toolerr.ApprovalForbidden, toolerr.Permission},
		{"approver of another tenant", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			return r.Approve(ctx, foreignBoss, id)
		}, toolerr.ApprovalUnknown, toolerr.StateConflict},
		{"another tenant inspects", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			_, err := r.Inspect(ctx, foreignBoss, id)
			return err
		}, toolerr.ApprovalUnknown, toolerr.StateConflict},
		{"another tenant rejects", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			return r.Reject(ctx, foreignBoss, id, "no")
		}, toolerr.ApprovalUnknown, toolerr.StateConflict},
		{"unknown ID", func(_ *testing.T, _ *approvals, r *Registry, _ string) error {
			return r.Approve(ctx, boss, "no-such-id")
		}, toolerr.ApprovalUnknown, toolerr.StateConflict},
		{"resume unknown ID", func(_ *testing.T, _ *approvals, r *Registry, _ string) error {
			_, err := r.Resume(ctx, "no-such-id")
			return err
		}, toolerr.ApprovalUnknown, toolerr.StateConflict},
		{"resume before approval", func(_ *testing.T, _ *approvals, r *Registry, id string) error {
			_, err := r.Resume(ctx, id)
			return err
		}, toolerr.ApprovalPending, toolerr.StateConflict},
		{"approve twice", func(t *testing.T, _ *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			return r.Approve(ctx, boss, id)
		}, toolerr.ApprovalDecided, toolerr.StateConflict},
		{"resume rejected", func(t *testing.T, _ *approvals, r *Registry, id string) error {
			if err := r.Reject(ctx, boss, id, "not this account"); err != nil {
				t.Fatal(err)
			}
			_, err := r.Resume(ctx, id)
			return err
		}, toolerr.ApprovalRejected, toolerr.StateConflict},
		{"approve rejected", func(t *testing.T, _ *approvals, r *Registry, id string) error {
			if err := r.Reject(ctx, boss, id, ""); err != nil {
				t.Fatal(err)
			}
			return r.Approve(ctx, boss, id)
		}, toolerr.ApprovalRejected, toolerr.StateConflict},
		{"approve expired", func(_ *testing.T, a *approvals, r *Registry, id string) error {
			a.clock.now = a.clock.now.Add(time.Hour)
			return r.Approve(ctx, boss, id)
		}, toolerr.ApprovalExpired, toolerr.StateConflict},
		{"resume expired", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			a.clock.now = a.clock.now.Add(time.Hour + time.Second)
			_, err := r.Resume(ctx, id)
			return err
		}, toolerr.ApprovalExpired, toolerr.StateConflict},
		{"stored bytes altered", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			a.pending.calls[id].pc.Args = []byte(`{"account":"ACC-2","amount":500}`)
			_, err := r.Resume(ctx, id)
			return err
		}, toolerr.ApprovalTampered, toolerr.System},
		{"schema version changed", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			_, err := a.registry(t, ApprovalPolicy, "v2", false).Resume(ctx, id)
			return err
		}, toolerr.ApprovalStale, toolerr.StateConflict},
		{"tool no longer bound", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			empty := mustRegistry(t, nil, WithPendingStore(a.pending), WithReplayStore(a.replay))
			_, err := empty.Resume(ctx, id)
			return err
		}, toolerr.ApprovalStale, toolerr.StateConflict},
		{"policy revoked between request and resume", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			a.revoked.Store(true)
			_, err := r.Resume(ctx, id)
			return err
		}, toolerr.Unauthorized, toolerr.Permission},
		{"requester lost the tool's role", func(t *testing.T, a *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			spec := paySpec(&a.c)
			spec.Version, spec.Approval, spec.Approvers, spec.Roles = "v1", ApprovalRequired, []string{"finance"}, []string{"admin"}
			roled := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(a.pending), WithReplayStore(a.replay))
			roled.now = a.clock.Now
			_, err := roled.Resume(ctx, id)
			return err
		}, toolerr.Unauthorized, toolerr.Permission},
		{"cancelled before resume", func(t *testing.T, _ *approvals, r *Registry, id string) error {
			mustApprove(t, r, id)
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			_, err := r.Resume(cctx, id)
			if _, err := r.Resume(context.Background(), id); err != nil {
				t.Errorf("the cancelled resume consumed the approval: %v", err)
			}
			return err
		}, toolerr.ExecutionFailed, toolerr.System},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApprovals()
			r := a.registry(t, ApprovalPolicy, "v1", false)
			tk := a.request(t, r, clerk, "c1", bigPay)
			err := tt.act(t, a, r, tk.PendingID)
			te := wantCode(t, err, tt.code, tt.cat)
			want := int64(0)
			if tt.name == "cancelled before resume" {
				want = 1 // the retry that follows, not the cancelled resume
			}
			if a.execs() != want {
				t.Errorf("execs %d, want %d", a.execs(), want)
			}
			if tt.code == toolerr.ApprovalUnknown && te.Reason != unknownPending().Reason {
				t.Errorf("another tenant's call is told apart from a missing one: %q", te.Reason)
			}
		})
	}
}

func mustApprove(t *testing.T, r *Registry, id string) {
	t.Helper()
	if err := r.Approve(context.Background(), boss, id); err != nil {
		t.Fatalf("approve: %v", err)
	}
}

// TestSelfApprovalWhenAllowed: a tool that allows self-approval lets the
// requester approve, if it holds an approver role.
func TestSelfApprovalWhenAllowed(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", true)
	tk := a.request(t, r, financeUser, "c1", bigPay)
	if err := r.Approve(context.Background(), financeUser, tk.PendingID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resume(context.Background(), tk.PendingID); err != nil || a.execs() != 1 {
		t.Errorf("resume: %v, execs %d", err, a.execs())
	}
}

// TestExpiryIsAuditedOnce: the first step that finds a call expired marks
// it so and audits approval_expired; later steps are refused without
// another expiry event.
func TestExpiryIsAuditedOnce(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	tk := a.request(t, r, clerk, "c1", bigPay)
	a.clock.now = a.clock.now.Add(2 * time.Hour)
	for range 3 {
		if _, err := r.Resume(context.Background(), tk.PendingID); err == nil {
			t.Fatal("an expired call resumed")
		}
	}
	pc, err := r.Inspect(context.Background(), boss, tk.PendingID)
	if err != nil || pc.State != StateExpired || string(pc.Args) != bigPay {
		t.Errorf("inspect: %+v, %v", pc, err)
	}
	n := 0
	for _, e := range a.rec.pending() {
		if e.Kind == ApprovalExpired {
			n++
		}
	}
	if n != 1 || a.execs() != 0 {
		t.Errorf("%d expiry events, execs %d; want 1, 0", n, a.execs())
	}
}

// TestInspect: the requester and the approvers may read a pending call,
// its bytes included; another principal of the tenant may not.
func TestInspect(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	tk := a.request(t, r, clerk, "c1", bigPay)
	for _, p := range []Principal{clerk, boss} {
		pc, err := r.Inspect(context.Background(), p, tk.PendingID)
		if err != nil || string(pc.Args) != bigPay || pc.State != StatePending || pc.Ticket != tk {
			t.Errorf("%s inspects: %+v, %v", p.ID, pc, err)
		}
	}
	_, err := r.Inspect(context.Background(), otherClerk, tk.PendingID)
	wantCode(t, err, toolerr.ApprovalForbidden, toolerr.Permission)
	if a.execs() != 0 {
		t.Errorf("execs %d", a.execs())
	}
}

// TestBatchWithApprovalRunsNothing: a batch with one call that needs
// approval runs nothing; its results say which call awaits approval. When
// another call of the batch is refused, nothing is stored either.
func TestBatchWithApprovalRunsNothing(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	c := Caller{Principal: clerk, Scope: "conv-1"}
	res := r.DispatchBatch(context.Background(), c, []Call{
		{ID: "b1", Name: "pay", Args: []byte(goodPay), Complete: true},
		{ID: "b2", Name: "pay", Args: []byte(bigPay), Complete: true},
		{ID: "b3", Name: "pay", Args: []byte(goodPay), Complete: true},
	}, BatchOptions{Parallel: true})
	codes := []toolerr.Code{res[0].Err.Code, res[1].Err.Code, res[2].Err.Code}
	if codes[0] != toolerr.BatchAborted || codes[1] != toolerr.ApprovalRequired || codes[2] != toolerr.BatchAborted || res[1].Approval == nil || res[0].Approval != nil {
		t.Fatalf("codes %v, approval %v", codes, res[1].Approval)
	}
	if a.execs() != 0 {
		t.Fatalf("execs %d", a.execs())
	}
	// The aborted calls were not claimed: sent again on their own, they run.
	if _, err := r.Dispatch(context.Background(), c, Call{ID: "b1", Name: "pay", Args: []byte(goodPay), Complete: true}); err != nil || a.execs() != 1 {
		t.Errorf("b1 alone: %v", err)
	}

	b := newApprovals()
	r = b.registry(t, ApprovalPolicy, "v1", false)
	res = r.DispatchBatch(context.Background(), c, []Call{
		{ID: "b2", Name: "pay", Args: []byte(bigPay), Complete: true},
		{ID: "b4", Name: "pay", Args: []byte(`{"account":"ACC-1"}`), Complete: true},
	}, BatchOptions{})
	if res[0].Err.Code != toolerr.BatchAborted || res[1].Err.Code != toolerr.InvalidArguments || res[0].Approval != nil || b.execs() != 0 {
		t.Errorf("results %+v %+v, execs %d", res[0].Err, res[1].Err, b.execs())
	}
	if n := len(b.pending.calls); n != 0 {
		t.Errorf("%d pending calls stored for a refused batch", n)
	}
}

// TestApprovalIsNeverAnArgument: a model that adds "approved" to the
// arguments is refused by the closed schema; nothing is stored or run.
func TestApprovalIsNeverAnArgument(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	_, err := r.Dispatch(context.Background(), Caller{Principal: clerk}, Call{ID: "c1", Name: "pay", Args: []byte(`{"account":"ACC-1","amount":500,"approved":true}`), Complete: true})
	te := wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
	if te.Violations()[0].InstancePath != "/approved" || a.execs() != 0 || len(a.pending.calls) != 0 {
		t.Errorf("violations %+v, execs %d, pending %d", te.Violations(), a.execs(), len(a.pending.calls))
	}
}

// TestRepairNeverRepairsApproval: DispatchWithRepair answers
// approval_required at once, without asking for another candidate.
func TestRepairNeverRepairsApproval(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalPolicy, "v1", false)
	asked := 0
	res, err := r.DispatchWithRepair(context.Background(), Caller{Principal: clerk}, Call{ID: "c1", Name: "pay", Args: []byte(bigPay), Complete: true}, Repair{
		MaxAttempts: 3,
		Next: func(context.Context, Call, *toolerr.Error) (Call, error) {
			asked++
			return Call{ID: "c2", Name: "pay", Args: []byte(goodPay), Complete: true}, nil
		},
	})
	wantCode(t, err, toolerr.ApprovalRequired, toolerr.Approval)
	if asked != 0 || a.execs() != 0 || res.Approval == nil {
		t.Errorf("asked %d, execs %d", asked, a.execs())
	}
}
