package redispending

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/redistest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestNewChecksItsClient: the client must honour context deadlines.
func TestNewChecksItsClient(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"defaults", Options{}, ""},
		{"negative grace", Options{Grace: -time.Second}, "negative"},
		{"negative timeout", Options{Timeout: -time.Second}, "negative"},
	}
	for _, tt := range tests {
		s, err := New(c, tt.o)
		switch {
		case tt.want == "" && (err != nil || s.grace != gate.DefaultPendingRetention || s.timeout != DefaultTimeout || s.prefix != DefaultPrefix || s.Quota() != (gate.PendingQuota{}).WithDefaults()):
			t.Errorf("%s: %v %+v", tt.name, err, s)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("a nil client was taken")
	}
}

// call is a pending call of tool for tenant and requester, created at at
// and expiring ttl later.
func call(id, tenant, who, tool string, at time.Time, ttl time.Duration) gate.PendingCall {
	args := `{"ref":"` + id + `"}`
	return gate.PendingCall{
		Ticket: gate.Ticket{PendingID: id, Tool: tool, Version: "v1", ArgsDigest: gate.Digest([]byte(args)), CallID: "call-" + id,
			Principal: who, Tenant: tenant, Scope: "conv", CreatedAt: at, ExpiresAt: at.Add(ttl)},
		Args: []byte(args), Roles: []string{"clerk"}, State: gate.StatePending,
	}
}

// TestExpiryIsRedisTTL: a call's key expires, by Redis's own TTL, at its
// ExpiresAt plus the grace period: a call past its expiry but within the
// grace is there (and the gate tells approval_expired); past the grace
// Redis has dropped it (approval_unknown). Open calls past their expiry
// leave the quotas and the listing.
func TestExpiryIsRedisTTL(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{Grace: time.Hour, Quota: gate.PendingQuota{TenantCalls: 1}})
	now := time.Now().Truncate(time.Millisecond)
	s.now = func() time.Time { return now }
	ctx := context.Background()
	live := call("live", "t1", "u1", "refund", now, time.Minute)
	if err := s.Create(ctx, live); err != nil {
		t.Fatal(err)
	}
	at, err := c.Do(ctx, "PEXPIRETIME", s.recordKey("live")).Int64()
	if want := live.ExpiresAt.Add(time.Hour).UnixMilli(); err != nil || at != want {
		t.Errorf("the call's key expires at %d (%v), want its ExpiresAt plus the grace, %d", at, err, want)
	}
	late := call("late", "t1", "u1", "refund", now.Add(-2*time.Hour), time.Hour+time.Minute) // expired a minute ago
	gone := call("gone", "t1", "u1", "refund", now.Add(-3*time.Hour), time.Hour)             // past expiry and grace
	if err := s.Create(ctx, late, gone); err != nil {
		t.Fatalf("expired calls count against no quota: %v", err)
	}
	if _, err := s.Get(ctx, "gone"); !errors.Is(err, gate.ErrPendingNotFound) {
		t.Errorf("a call past its grace: %v, want dropped by Redis", err)
	}
	if pc, err := s.Get(ctx, "late"); err != nil || pc.PendingID != "late" {
		t.Errorf("a call within its grace: %v", err)
	}
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reg := newRegistry(t, s, log, nil)
	if err := reg.Approve(ctx, boss, "late"); errCode(err) != toolerr.ApprovalExpired {
		t.Errorf("approving a call within its grace: %v, want approval_expired", err)
	}
	if err := reg.Approve(ctx, boss, "gone"); errCode(err) != toolerr.ApprovalUnknown {
		t.Errorf("approving a call past its grace: %v, want approval_unknown", err)
	}
	if n := log.total(t); n != 0 {
		t.Errorf("%d runs of refused approvals", n)
	}
	var qe *gate.QuotaError
	if err := s.Create(ctx, call("second", "t1", "u2", "refund", now, time.Minute)); !errors.As(err, &qe) || qe.Of != "tenant" {
		t.Errorf("a second open call of a tenant with a quota of 1: %v", err)
	}
	now = now.Add(time.Minute) // live expires
	if page, err := s.List(ctx, gate.PendingQuery{Tenant: "t1"}); err != nil || len(page.Calls) != 0 {
		t.Errorf("expired calls are listed: %v %v", page.Calls, err)
	}
	if err := s.Create(ctx, call("second", "t1", "u2", "refund", now, time.Minute)); err != nil {
		t.Errorf("once the first expired: %v", err)
	}
}

// TestCreateAllOrNothing: a batch whose second call cannot be stored (its
// ID is taken, or it would exceed a quota) stores none of its calls.
func TestCreateAllOrNothing(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	c := newClient(t, srv.Addr())
	s := mustStore(t, c, Options{Quota: gate.PendingQuota{TenantCalls: 3}})
	ctx := context.Background()
	now := time.Now()
	if err := s.Create(ctx, call("a", "t1", "u1", "refund", now, time.Hour)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		calls []gate.PendingCall
		want  error
	}{
		{"the second's ID is taken", []gate.PendingCall{call("b", "t1", "u1", "refund", now, time.Hour), call("a", "t1", "u1", "refund", now, time.Hour)}, gate.ErrPendingExists},
		{"an ID twice", []gate.PendingCall{call("b", "t1", "u1", "refund", now, time.Hour), call("b", "t1", "u1", "refund", now, time.Hour)}, gate.ErrPendingExists},
		{"the batch exceeds the quota", []gate.PendingCall{call("b", "t1", "u1", "refund", now, time.Hour), call("c", "t1", "u1", "refund", now, time.Hour), call("d", "t1", "u1", "refund", now, time.Hour)}, gate.ErrPendingQuota},
		{"two tenants", []gate.PendingCall{call("b", "t1", "u1", "refund", now, time.Hour), call("c", "t2", "u1", "refund", now, time.Hour)}, nil},
	}
	for _, tt := range tests {
		err := s.Create(ctx, tt.calls...)
		if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		for _, pc := range tt.calls {
			if pc.PendingID == "a" {
				continue // stored before the batch
			}
			if _, err := s.Get(ctx, pc.PendingID); !errors.Is(err, gate.ErrPendingNotFound) {
				t.Errorf("%s: call %s was stored (%v)", tt.name, pc.PendingID, err)
			}
		}
	}
	if page, err := s.List(ctx, gate.PendingQuery{Tenant: "t1"}); err != nil || len(page.Calls) != 1 {
		t.Errorf("t1 lists %d calls (%v), want 1", len(page.Calls), err)
	}
}

// TestBatchHeldAllOrNothing: through the gate, a batch of two calls that
// need approval, with room in the tenant's quota for one, is refused
// whole: both approval_quota, nothing stored, nothing run.
func TestBatchHeldAllOrNothing(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	s := mustStore(t, newClient(t, srv.Addr()), Options{Quota: gate.PendingQuota{TenantCalls: 1}})
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	reg := newRegistry(t, s, log, nil)
	results := reg.DispatchBatch(context.Background(), gate.Caller{Principal: clerk, Scope: "conv"}, []gate.Call{refundCall("a"), refundCall("b")}, gate.BatchOptions{})
	for i, res := range results {
		if codeOf(res) != toolerr.ApprovalQuota || res.Executed || res.Approval != nil {
			t.Errorf("call %d: %v, want approval_quota and nothing held", i, res.Err)
		}
	}
	if page, err := s.List(context.Background(), gate.PendingQuery{Tenant: "t1"}); err != nil || len(page.Calls) != 0 || log.total(t) != 0 {
		t.Errorf("after the batch: %d calls held (%v), %d executions", len(page.Calls), err, log.total(t))
	}
}

// TestQuotaFlood: one tenant floods two replicas; once its requester's,
// then its tenant's quota is full, its new calls are refused with
// approval_quota, saying which quota in the refusal and its audit event,
// while another tenant's calls are still held. A resumed call frees its
// place.
func TestQuotaFlood(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	log := execLog(filepath.Join(t.TempDir(), "execs"))
	audit := &redistest.Events{}
	var regs []*gate.Registry
	for range 2 {
		regs = append(regs, newRegistry(t, mustStore(t, newClient(t, srv.Addr()), Options{Quota: gate.PendingQuota{TenantCalls: 5, RequesterCalls: 3}}), log, audit))
	}
	other := gate.Principal{ID: "v1", Tenant: "t2", Roles: []string{"clerk"}}
	u2 := gate.Principal{ID: "u2", Tenant: "t1", Roles: []string{"clerk"}}
	tests := []struct {
		who  gate.Principal
		n    int
		code toolerr.Code
		why  string
	}{
		{clerk, 3, toolerr.ApprovalRequired, ""},
		{clerk, 3, toolerr.ApprovalQuota, "the requester's quota of calls awaiting approval is full (3 calls held, quota 3)"},
		{other, 3, toolerr.ApprovalRequired, ""},
		{u2, 2, toolerr.ApprovalRequired, ""},
		{u2, 3, toolerr.ApprovalQuota, "the tenant's quota of calls awaiting approval is full (5 calls held, quota 5)"},
	}
	var first string
	k := 0
	for i, tt := range tests {
		for range tt.n {
			k++
			reg := regs[k%2]
			res, err := reg.Dispatch(context.Background(), gate.Caller{Principal: tt.who, Scope: "conv"}, refundCall(fmt.Sprintf("f%d", k)))
			var te *toolerr.Error
			if !errors.As(err, &te) || te.Code != tt.code || res.Executed {
				t.Fatalf("row %d call %d: %v, want %s", i, k, err, tt.code)
			}
			if first == "" {
				first = res.Approval.PendingID
			}
			if ev := audit.Last(); ev.Code != tt.code || ev.Principal != tt.who.ID || ev.Executed {
				t.Errorf("row %d call %d: audit event %+v", i, k, ev)
			}
			if tt.why != "" && !strings.Contains(te.Reason, tt.why) {
				t.Errorf("row %d call %d: reason %q, want %q", i, k, te.Reason, tt.why)
			}
		}
	}
	if err := regs[0].Approve(context.Background(), boss, first); err != nil {
		t.Fatal(err)
	}
	if _, err := regs[1].Resume(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if code, _ := request(regs[0], u2, "after"); code != toolerr.ApprovalRequired {
		t.Errorf("after a call was resumed: %s, want approval_required", code)
	}
	if n := log.total(t); n != 1 {
		t.Errorf("%d executions, want the one resumed", n)
	}
}

// TestListPages: a tenant's open calls are listed oldest first, in pages,
// of one tool when asked; decided calls leave the list, approved ones stay.
// Through the gate, a viewer who may not Inspect sees no argument bytes.
func TestListPages(t *testing.T) {
	srv := redistest.StartServer(t, suite, false)
	s := mustStore(t, newClient(t, srv.Addr()), Options{})
	ctx := context.Background()
	start := time.Now()
	var all, refunds []string
	for i := range 7 {
		tool := []string{"refund", "void"}[i%2]
		id := fmt.Sprintf("p%d", i)
		// Created out of order: the list follows CreatedAt, not the writes.
		at := start.Add(time.Duration((i*5)%7) * time.Second)
		if err := s.Create(ctx, call(id, "t1", "u1", tool, at, time.Hour)); err != nil {
			t.Fatal(err)
		}
		all = append(all, id)
	}
	if err := s.Create(ctx, call("other", "t2", "u1", "refund", start, time.Hour)); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(all, func(a, b string) int {
		ia, ib := int(a[1]-'0'), int(b[1]-'0')
		return (ia*5)%7 - (ib*5)%7
	})
	for _, id := range all {
		if int(id[1]-'0')%2 == 0 {
			refunds = append(refunds, id)
		}
	}
	pages := func(q gate.PendingQuery) []string {
		var ids []string
		for range 10 {
			page, err := s.List(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, pc := range page.Calls {
				ids = append(ids, pc.PendingID+":"+string(pc.State))
			}
			if page.Next == "" {
				return ids
			}
			q.After = page.Next
		}
		t.Fatal("the pages do not end")
		return nil
	}
	with := func(ids []string, st map[string]string) []string {
		var out []string
		for _, id := range ids {
			if st[id] != "gone" {
				out = append(out, id+":"+cmpOr(st[id], "pending"))
			}
		}
		return out
	}
	if got, want := pages(gate.PendingQuery{Tenant: "t1", Limit: 3}), with(all, nil); !slices.Equal(got, want) {
		t.Errorf("pages of 3: %v, want %v", got, want)
	}
	reg := newRegistry(t, s, execLog(filepath.Join(t.TempDir(), "execs")), nil)
	if err := reg.Approve(ctx, boss, refunds[0]); err != nil {
		t.Fatal(err)
	}
	if err := reg.Reject(ctx, boss, refunds[1], "no"); err != nil {
		t.Fatal(err)
	}
	st := map[string]string{refunds[0]: "approved", refunds[1]: "gone"}
	if got, want := pages(gate.PendingQuery{Tenant: "t1", Tool: "refund", Limit: 2}), with(refunds, st); !slices.Equal(got, want) {
		t.Errorf("refund pages of 2: %v, want %v", got, want)
	}
	if got, want := pages(gate.PendingQuery{Tenant: "t1", Limit: 50}), with(all, st); !slices.Equal(got, want) {
		t.Errorf("one page: %v, want %v", got, want)
	}
	for _, tt := range []struct {
		viewer gate.Principal
		args   bool
	}{{boss, true}, {clerk, true}, {gate.Principal{ID: "u9", Tenant: "t1"}, false}} {
		page, err := reg.ListPending(ctx, tt.viewer, gate.PendingQuery{Tool: "refund"})
		if err != nil || len(page.Calls) != len(refunds)-1 {
			t.Fatalf("%s: %d calls, %v", tt.viewer.ID, len(page.Calls), err)
		}
		for _, pc := range page.Calls {
			if (pc.Args != nil) != tt.args {
				t.Errorf("%s sees the arguments of %s: %q", tt.viewer.ID, pc.PendingID, pc.Args)
			}
		}
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
