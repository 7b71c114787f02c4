package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// quotaApprovals is newApprovals over a memory store with quota q.
func quotaApprovals(q PendingQuota) *approvals {
	a := newApprovals()
	a.pending = NewMemoryPendingStore(MemoryPendingConfig{Quota: q})
	a.pending.now = a.clock.Now
	return a
}

// dispatchPay dispatches one pay call of who with args.
func dispatchPay(r *Registry, who Principal, id, args string) (Result, error) {
	return r.Dispatch(context.Background(), Caller{Principal: who, Scope: "conv-" + who.Tenant}, Call{ID: id, Name: "pay", Args: []byte(args), Complete: true})
}

// TestPendingQuota: one tenant floods the store; once its requester's,
// then its tenant's quota is full, its new calls are refused with
// approval_quota, whose reason and audit event say which quota, and
// nothing runs; another tenant's calls are still stored. A decision frees
// its call's place.
func TestPendingQuota(t *testing.T) {
	a := quotaApprovals(PendingQuota{TenantCalls: 5, RequesterCalls: 3})
	r := a.registry(t, ApprovalRequired, "v1", false)
	flooder := []Principal{clerk, otherClerk, {ID: "u3", Tenant: "t1", Roles: []string{"clerk"}}}
	other := Principal{ID: "v1", Tenant: "t2", Roles: []string{"clerk"}}
	tests := []struct {
		who  Principal
		n    int
		code toolerr.Code
		why  string
	}{
		{flooder[0], 3, toolerr.ApprovalRequired, ""},
		{flooder[0], 2, toolerr.ApprovalQuota, "the requester's quota of calls awaiting approval is full (3 calls held, quota 3)"},
		{other, 2, toolerr.ApprovalRequired, ""},
		{flooder[1], 2, toolerr.ApprovalRequired, ""},
		{flooder[1], 1, toolerr.ApprovalQuota, "the tenant's quota of calls awaiting approval is full (5 calls held, quota 5)"},
		{flooder[2], 1, toolerr.ApprovalQuota, "the tenant's quota"},
		{other, 1, toolerr.ApprovalRequired, ""},
	}
	var first Ticket
	for i, tt := range tests {
		for k := range tt.n {
			id := fmt.Sprintf("c%d-%d", i, k)
			a.rec.pending()
			res, err := dispatchPay(r, tt.who, id, bigPay)
			te := wantCode(t, err, tt.code, tt.code.Category())
			if res.Executed || a.execs() != 0 {
				t.Fatalf("%s: executed %v, execs %d", id, res.Executed, a.execs())
			}
			if first.PendingID == "" {
				first = *res.Approval
			}
			ev := a.rec.pending()
			if len(ev) != 1 || ev[0].Code != tt.code || ev[0].Principal != tt.who.ID || ev[0].Executed {
				t.Fatalf("%s: events %+v, want one %s", id, ev, tt.code)
			}
			if tt.code == toolerr.ApprovalQuota && (!strings.Contains(te.Reason, tt.why) || !strings.Contains(te.Reason, "nothing was run") || res.Approval != nil) {
				t.Errorf("%s: reason %q (approval %v), want it to say %q", id, te.Reason, res.Approval, tt.why)
			}
		}
	}
	// A decided call leaves the quota: the tenant may ask again.
	if err := r.Reject(context.Background(), boss, first.PendingID, "no"); err != nil {
		t.Fatal(err)
	}
	if _, err := dispatchPay(r, flooder[2], "after-reject", bigPay); !isCode(err, toolerr.ApprovalRequired) {
		t.Errorf("after a rejection: %v, want approval_required", err)
	}
	// Expired calls leave it too.
	a.clock.now = a.clock.now.Add(2 * time.Hour)
	for i := range 3 {
		if _, err := dispatchPay(r, flooder[0], fmt.Sprintf("late-%d", i), bigPay); !isCode(err, toolerr.ApprovalRequired) {
			t.Errorf("after the expiry: %v, want approval_required", err)
		}
	}
	if a.execs() != 0 {
		t.Errorf("execs %d", a.execs())
	}
}

func isCode(err error, c toolerr.Code) bool {
	var te *toolerr.Error
	return errors.As(err, &te) && te.Code == c
}

// TestMemoryPendingQuotaBytes: the byte quotas count like the call quotas.
func TestMemoryPendingQuotaBytes(t *testing.T) {
	s, clock := newClockedPending(MemoryPendingConfig{Quota: PendingQuota{TenantBytes: 3000, RequesterBytes: 2000}})
	ctx := context.Background()
	call := func(id, tenant, who string, n int) PendingCall {
		pc := pendingCall(id, clock, time.Minute, strings.Repeat("x", n))
		pc.Tenant, pc.Principal = tenant, who
		return pc
	}
	tests := []struct {
		pc   PendingCall
		want string // the QuotaError's Of and Unit, "" for stored
	}{
		{call("a", "t1", "u1", 1000), ""},
		{call("b", "t1", "u1", 1000), "requester bytes"},
		{call("c", "t1", "u2", 1000), ""},
		{call("d", "t1", "u3", 1000), "tenant bytes"},
		{call("e", "t2", "u3", 1000), ""},
	}
	for _, tt := range tests {
		err := s.Create(ctx, tt.pc)
		var qe *QuotaError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.pc.PendingID, err)
		case tt.want != "" && (!errors.As(err, &qe) || !errors.Is(err, ErrPendingQuota) || qe.Of+" "+qe.Unit != tt.want):
			t.Errorf("%s: %v, want a %s quota error", tt.pc.PendingID, err, tt.want)
		}
	}
}

// TestMemoryPendingMakesRoomOfFinalCalls: a full store drops calls decided
// for good, oldest first, to make room; open calls it keeps.
func TestMemoryPendingMakesRoomOfFinalCalls(t *testing.T) {
	s, clock := newClockedPending(MemoryPendingConfig{Calls: 2})
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := s.Create(ctx, pendingCall(id, clock, time.Hour, "{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, pendingCall("c", clock, time.Hour, "{}")); !errors.Is(err, ErrPendingStoreFull) {
		t.Fatalf("c: %v, want full", err)
	}
	done := pendingCall("a", clock, time.Hour, "{}")
	done.State = StateRejected
	if ok, err := s.CompareAndSwap(ctx, "a", StatePending, done); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := s.Create(ctx, pendingCall("c", clock, time.Hour, "{}")); err != nil {
		t.Fatalf("c after a was rejected: %v", err)
	}
	if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrPendingNotFound) {
		t.Errorf("a: %v, want dropped", err)
	}
	if _, err := s.Get(ctx, "b"); err != nil {
		t.Errorf("b, open: %v", err)
	}
}

// halfPending is a pending store that refuses any Create holding a call
// with poison arguments, the way a store fails on a batch's second call.
type halfPending struct {
	PendingStore
	poison string
}

func (h *halfPending) Create(ctx context.Context, pcs ...PendingCall) error {
	for _, pc := range pcs {
		if string(pc.Args) == h.poison {
			return errors.New("the store failed on this call")
		}
	}
	return h.PendingStore.Create(ctx, pcs...)
}

// TestBatchHeldAllOrNothing: a batch whose calls need approval is stored
// whole or not at all. When the store fails on the second call, or the
// second call's ID is a replay, the first is not left pending: nothing is
// listed, nothing ran, and the first call's ID was released (it can be
// asked again alone).
func TestBatchHeldAllOrNothing(t *testing.T) {
	const second = `{"account":"ACC-2","amount":900}`
	tests := []struct {
		name   string
		store  func(a *approvals) PendingStore
		before []string // call IDs dispatched (and held) before the batch
		want   []toolerr.Code
	}{
		{"the store fails on the second", func(a *approvals) PendingStore { return &halfPending{a.pending, second} }, nil,
			[]toolerr.Code{toolerr.ApprovalUnavailable, toolerr.ApprovalUnavailable}},
		{"the second is a replay", func(a *approvals) PendingStore { return a.pending }, []string{"b2"},
			[]toolerr.Code{toolerr.BatchAborted, toolerr.DuplicateCall}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApprovals()
			spec := paySpec(&a.c)
			spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(tt.store(a)), WithReplayStore(a.replay))
			r.now = a.clock.Now
			for _, id := range tt.before {
				if _, err := dispatchPay(r, clerk, id, goodPay); !isCode(err, toolerr.ApprovalRequired) {
					t.Fatal(err)
				}
			}
			held, _ := a.pending.List(context.Background(), PendingQuery{Tenant: "t1"})
			calls := []Call{{ID: "b1", Name: "pay", Args: []byte(bigPay), Complete: true}, {ID: "b2", Name: "pay", Args: []byte(second), Complete: true}}
			results := r.DispatchBatch(context.Background(), Caller{Principal: clerk, Scope: "conv-t1"}, calls, BatchOptions{})
			for i, res := range results {
				if codeOf(res) != tt.want[i] || res.Executed || res.Approval != nil {
					t.Errorf("call %d: %v (executed %v, approval %v), want %s", i, res.Err, res.Executed, res.Approval, tt.want[i])
				}
			}
			page, err := a.pending.List(context.Background(), PendingQuery{Tenant: "t1"})
			if err != nil || len(page.Calls) != len(held.Calls) {
				t.Errorf("after the batch the store holds %d open calls (%v), want %d", len(page.Calls), err, len(held.Calls))
			}
			if a.execs() != 0 {
				t.Errorf("execs %d", a.execs())
			}
			if _, err := dispatchPay(r, clerk, "b1", bigPay); !isCode(err, toolerr.ApprovalRequired) {
				t.Errorf("b1 alone after the batch: %v, want approval_required (its ID released)", err)
			}
		})
	}
}

func codeOf(res Result) toolerr.Code {
	if res.Err == nil {
		return OK
	}
	return res.Err.Code
}

// staleReads is a pending store whose reads of a call return the first
// state it read, forever, while its writes go through: reads lag writes.
type staleReads struct {
	PendingStore
	mu     sync.Mutex
	frozen map[string]PendingCall
}

func (s *staleReads) Get(ctx context.Context, id string) (PendingCall, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pc, ok := s.frozen[id]; ok {
		return pc.clone(), nil
	}
	pc, err := s.PendingStore.Get(ctx, id)
	if err == nil {
		s.frozen[id] = pc.clone()
	}
	return pc, err
}

// TestStaleReadsFailClosed: a store whose reads lag its writes makes the
// expiry path see a call move on and read it unmoved, again and again;
// the retry is bounded and every step then fails closed
// (approval_unavailable): no stack overflow, and nothing runs.
func TestStaleReadsFailClosed(t *testing.T) {
	a := newApprovals()
	fresh := a.registry(t, ApprovalRequired, "v1", false)
	stale := &staleReads{PendingStore: a.pending, frozen: map[string]PendingCall{}}
	spec := paySpec(&a.c)
	spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
	r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(stale), WithReplayStore(a.replay))
	r.now = a.clock.Now
	tk := a.request(t, fresh, clerk, "c1", bigPay)
	if _, err := stale.Get(context.Background(), tk.PendingID); err != nil { // frozen pending
		t.Fatal(err)
	}
	if err := fresh.Approve(context.Background(), boss, tk.PendingID); err != nil {
		t.Fatal(err)
	}
	a.clock.now = a.clock.now.Add(2 * time.Hour)
	steps := []struct {
		name string
		do   func() error
	}{
		{"Resume", func() error { _, err := r.Resume(context.Background(), tk.PendingID); return err }},
		{"Approve", func() error { return r.Approve(context.Background(), boss, tk.PendingID) }},
		{"Reject", func() error { return r.Reject(context.Background(), boss, tk.PendingID, "late") }},
		{"Inspect", func() error { _, err := r.Inspect(context.Background(), boss, tk.PendingID); return err }},
	}
	for _, st := range steps {
		te := wantCode(t, st.do(), toolerr.ApprovalUnavailable, toolerr.System)
		if !strings.Contains(te.Err.Error(), "did not settle") {
			t.Errorf("%s: %v, want the unsettled reads named", st.name, te.Err)
		}
	}
	if a.execs() != 0 {
		t.Errorf("execs %d", a.execs())
	}
}

// otherCall is a pending store whose reads answer another call's record.
type otherCall struct{ PendingStore }

func (o otherCall) Get(ctx context.Context, id string) (PendingCall, error) {
	pc, err := o.PendingStore.Get(ctx, id)
	pc.PendingID = "someone-else"
	return pc, err
}

// TestResumeRefusalsName: a refused Resume is audited with the pending ID
// it aimed at, whatever the store did, as Approve and Reject are.
func TestResumeRefusalsName(t *testing.T) {
	tests := []struct {
		name  string
		store func(a *approvals) PendingStore
		code  toolerr.Code
	}{
		{"unknown", func(a *approvals) PendingStore { return a.pending }, toolerr.ApprovalUnknown},
		{"store error", func(a *approvals) PendingStore {
			return &brokenPending{inner: a.pending, err: errors.New("connection lost")}
		}, toolerr.ApprovalUnavailable},
		{"store panic", func(a *approvals) PendingStore { return &brokenPending{inner: a.pending, panic: true} }, toolerr.ApprovalUnavailable},
		{"another call's record", func(a *approvals) PendingStore { return otherCall{a.pending} }, toolerr.ApprovalUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApprovals()
			fresh := a.registry(t, ApprovalRequired, "v1", false)
			id := "no-such-call"
			if tt.code != toolerr.ApprovalUnknown {
				id = a.request(t, fresh, clerk, "c1", bigPay).PendingID
				if err := fresh.Approve(context.Background(), boss, id); err != nil {
					t.Fatal(err)
				}
			}
			spec := paySpec(&a.c)
			spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
			rec := newRecorder()
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(tt.store(a)), WithReplayStore(a.replay), WithAuditor(rec))
			_, err := r.Resume(context.Background(), id)
			wantCode(t, err, tt.code, tt.code.Category())
			ev := rec.pending()
			if len(ev) != 1 || ev[0].Kind != ApprovalResumed || ev[0].PendingID != id || ev[0].Code != tt.code || ev[0].Executed {
				t.Errorf("events %+v, want one approval_resumed of %s, %s", ev, id, tt.code)
			}
			if a.execs() != 0 {
				t.Errorf("execs %d", a.execs())
			}
		})
	}
}

// TestListPending: an approval screen's pages list the open calls of the
// viewer's tenant, oldest first, of one tool when asked; argument bytes
// only for a viewer who may Inspect the call. Rejected calls and other
// tenants' calls are not listed.
func TestListPending(t *testing.T) {
	a := newApprovals()
	r := a.registry(t, ApprovalRequired, "v1", false)
	var ids []string
	for i, who := range []Principal{clerk, otherClerk, clerk, foreignBoss, otherClerk} {
		ids = append(ids, a.request(t, r, who, fmt.Sprintf("c%d", i), bigPay).PendingID)
		a.clock.now = a.clock.now.Add(time.Second)
	}
	if err := r.Reject(context.Background(), boss, ids[2], "no"); err != nil {
		t.Fatal(err)
	}
	if err := r.Approve(context.Background(), boss, ids[4]); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		viewer Principal
		tool   string
		limit  int
		want   []string // per page, the pending IDs with "+" when Args are shown
	}{
		{boss, "", 2, []string{ids[0] + "+", ids[1] + "+", "|", ids[4] + "+"}},
		{clerk, "pay", 0, []string{ids[0] + "+", ids[1], ids[4]}},
		{otherClerk, "", 1, []string{ids[0], "|", ids[1] + "+", "|", ids[4] + "+"}},
		{foreignBoss, "", 0, []string{ids[3] + "+"}},
		{boss, "other", 0, nil},
	}
	for _, tt := range tests {
		var got []string
		q := PendingQuery{Tenant: "t2", Tool: tt.tool, Limit: tt.limit}
		for range 10 {
			page, err := r.ListPending(context.Background(), tt.viewer, q)
			if err != nil {
				t.Fatalf("%s: %v", tt.viewer.ID, err)
			}
			for _, pc := range page.Calls {
				s := pc.PendingID
				switch {
				case pc.Args != nil && string(pc.Args) != bigPay:
					t.Errorf("%s: args %q", s, pc.Args)
				case pc.Args != nil:
					s += "+"
				}
				got = append(got, s)
			}
			if page.Next == "" {
				break
			}
			got = append(got, "|")
			q.After = page.Next
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s lists %q, want %q", tt.viewer.ID, got, tt.want)
		}
	}
	_, err := r.ListPending(context.Background(), Principal{Tenant: "t1"}, PendingQuery{})
	wantCode(t, err, toolerr.ApprovalForbidden, toolerr.Permission)
	broken := mustRegistry(t, nil, WithPendingStore(&brokenPending{err: errors.New("connection lost")}))
	_, err = broken.ListPending(context.Background(), boss, PendingQuery{})
	wantCode(t, err, toolerr.ApprovalUnavailable, toolerr.System)
	if a.execs() != 0 {
		t.Errorf("execs %d", a.execs())
	}
}
