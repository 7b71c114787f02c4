package gate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// classedErr is a store error that names its class.
type classedErr struct{}

func (classedErr) Error() string      { return "OOM command not allowed; key SECRET-KEY" }
func (classedErr) ErrorClass() string { return "oom" }

// TestEventCause: a denial's event carries the policy's own error text,
// and a replay store's failure the class of its error (full, deadline,
// cancelled, panic, network, the store's own class, other), in the
// event and in the slog line; neither the arguments' values nor the
// store's error text reach the audit trail, and nothing runs.
func TestEventCause(t *testing.T) {
	const args = `{"account":"SECRET-ACC-77","amount":5}`
	netErr := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect SECRET-HOST: connection refused")}
	long := strings.Repeat("é", maxCauseBytes)
	cases := []struct {
		name   string
		policy error
		store  ReplayStore
		code   toolerr.Code
		cause  string
	}{
		{name: "denial", policy: errors.New("tenant t1 may not pay from this account"), code: toolerr.Unauthorized, cause: "tenant t1 may not pay from this account"},
		{name: "long denial", policy: errors.New(long), code: toolerr.Unauthorized, cause: long[:maxCauseBytes] + "…"},
		{name: "store full", store: &failingStore{err: fmt.Errorf("scope SECRET-SCOPE: %w", ErrReplayStoreFull)}, code: toolerr.ReplayUnavailable, cause: CauseStoreFull},
		{name: "store deadline", store: &failingStore{err: fmt.Errorf("SECRET: %w", context.DeadlineExceeded)}, code: toolerr.ReplayUnavailable, cause: CauseStoreDeadline},
		{name: "store cancelled", store: &failingStore{err: fmt.Errorf("SECRET: %w", context.Canceled)}, code: toolerr.ReplayUnavailable, cause: CauseStoreCanceled},
		{name: "store panic", store: &panickyStore{MemoryReplayStore: NewMemoryReplayStore(MemoryReplayConfig{}), claim: true}, code: toolerr.ReplayUnavailable, cause: CauseStorePanic},
		{name: "store network", store: &failingStore{err: netErr}, code: toolerr.ReplayUnavailable, cause: CauseStoreNetwork},
		{name: "store class", store: &failingStore{err: fmt.Errorf("eval: %w", classedErr{})}, code: toolerr.ReplayUnavailable, cause: "oom"},
		{name: "store other", store: &failingStore{err: errors.New("SECRET-STORE garbage")}, code: toolerr.ReplayUnavailable, cause: CauseStoreOther},
		{name: "invalid arguments", code: toolerr.InvalidArguments, cause: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c spyCounts
			var policy Policy[payArgs]
			if tc.policy != nil {
				policy = func(context.Context, Principal, payArgs) error { return tc.policy }
			}
			switch s := tc.store.(type) {
			case *failingStore:
				s.MemoryReplayStore = NewMemoryReplayStore(MemoryReplayConfig{})
			case nil:
				tc.store = NewMemoryReplayStore(MemoryReplayConfig{})
			}
			h := &hookAuditor{}
			var log strings.Builder
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, policy, nil))}, WithReplayStore(tc.store), WithAuditor(FanOut(h, jsonAuditor(&log))))
			a := args
			if tc.code == toolerr.InvalidArguments {
				a = `{"account":"SECRET-ACC-77","amount":"5"}`
			}
			res, _ := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(a), Complete: true})
			if res.Err == nil || res.Err.Code != tc.code || res.Executed || c.execs.Load() != 0 {
				t.Fatalf("result %+v, execs %d; want %s, nothing run", res, c.execs.Load(), tc.code)
			}
			if len(h.events) != 1 || h.events[0].Cause != tc.cause {
				t.Fatalf("events %+v, want one with cause %q", h.events, tc.cause)
			}
			line := decodeLine(t, log.String())
			if got, _ := line["cause"].(string); got != tc.cause {
				t.Errorf("logged cause %q, want %q", got, tc.cause)
			}
			if strings.Contains(log.String(), "SECRET") || strings.Contains(h.events[0].Cause, "SECRET") {
				t.Errorf("a value or a store's text reached the audit trail: %s", log.String())
			}
		})
	}
}

// TestApprovalEventCause: a pending store's failure at a dispatch's
// request and at Approve is audited with its class, never its text, and
// nothing runs.
func TestApprovalEventCause(t *testing.T) {
	a := newApprovals()
	store := &brokenPending{inner: a.pending}
	spec := paySpec(&a.c)
	spec.Approval, spec.Approvers = ApprovalRequired, []string{"finance"}
	h := &hookAuditor{}
	r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&a.c, nil, nil))}, WithPendingStore(store), WithAuditor(h))
	call := Call{ID: "c1", Name: "pay", Args: []byte(bigPay), Complete: true}
	store.err = &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("SECRET-HOST refused")}
	if _, err := r.Dispatch(context.Background(), caller, call); err == nil {
		t.Fatal("stored with a broken store")
	}
	store.err = nil
	res, err := r.Dispatch(context.Background(), caller, call)
	wantCode(t, err, toolerr.ApprovalRequired, toolerr.Approval)
	store.err = fmt.Errorf("SECRET-KEY: %w", context.DeadlineExceeded)
	wantCode(t, r.Approve(context.Background(), boss, res.Approval.PendingID), toolerr.ApprovalUnavailable, toolerr.System)
	var got []string
	for _, e := range h.events {
		if e.Code == toolerr.ApprovalUnavailable {
			got = append(got, e.Cause)
		}
		if strings.Contains(e.Cause, "SECRET") {
			t.Errorf("a store's text in the cause: %+v", e)
		}
	}
	if want := []string{CauseStoreNetwork, CauseStoreDeadline}; !slices.Equal(got, want) {
		t.Errorf("causes %q, want %q", got, want)
	}
	if a.execs() != 0 {
		t.Errorf("execs %d", a.execs())
	}
}
