package gate

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// Tests of what a call allocates.

func TestCloneFrom(t *testing.T) {
	tests := []struct {
		name      string
		roles     []string
		spare     int
		wantSpare int // len of the spare returned
		fromSpare bool
	}{
		{"nil roles", nil, 4, 4, false},
		{"empty roles", []string{}, 4, 4, true},
		{"fits", []string{"a", "b"}, 4, 2, true},
		{"fits exactly", []string{"a", "b"}, 2, 0, true},
		{"does not fit", []string{"a", "b", "c"}, 2, 2, false},
		{"no spare", []string{"a"}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spare := make([]string, tc.spare)
			p := Principal{ID: "u", Tenant: "t", Roles: tc.roles}
			got, rest := p.cloneFrom(spare)
			if got.ID != "u" || got.Tenant != "t" || !slices.Equal(got.Roles, tc.roles) || (got.Roles == nil) != (tc.roles == nil) {
				t.Fatalf("copy = %+v, want %+v", got, p)
			}
			if len(rest) != tc.wantSpare {
				t.Errorf("spare left %d, want %d", len(rest), tc.wantSpare)
			}
			if cap(got.Roles) != len(got.Roles) && tc.fromSpare {
				t.Errorf("copy's capacity %d, want its length %d", cap(got.Roles), len(got.Roles))
			}
			if len(tc.roles) == 0 {
				return
			}
			inSpare := len(spare) > 0 && &got.Roles[0] == &spare[0]
			if inSpare != tc.fromSpare {
				t.Errorf("copy in spare = %v, want %v", inSpare, tc.fromSpare)
			}
			// The copy shares nothing with p, and an append to it does not
			// reach the rest of spare.
			got.Roles[0] = "changed"
			if p.Roles[0] == "changed" {
				t.Error("the copy shares p's array")
			}
			_ = append(got.Roles, "appended")
			if slices.Contains(rest, "appended") {
				t.Error("an append to the copy wrote into the spare")
			}
		})
	}
}

// TestDispatchAllocations: a call that runs inline allocates only its
// arguments with its executor's state, which holds the principal's copies
// while they fit (four roles in all: the gate's, the policy's and
// NeedsApproval's copies; each copy that does not fit takes one
// allocation), and with an ID the replay store's entry, which holds the
// ID's copy.
func TestDispatchAllocations(t *testing.T) {
	allow := func(context.Context, Principal, payArgs) error { return nil }
	asks := func(context.Context, Principal, payArgs) (bool, string) { return false, "" }
	tests := []struct {
		name  string
		asks  bool
		roles []string
		id    bool
		want  float64
	}{
		{"one role", false, []string{"a"}, false, 1},
		{"one role, NeedsApproval", true, []string{"a"}, false, 1},
		{"two roles, NeedsApproval", true, []string{"a", "b"}, false, 2},
		{"two roles", false, []string{"a", "b"}, false, 1},
		{"three roles", false, []string{"a", "b", "c"}, false, 2},
		{"three roles, NeedsApproval", true, []string{"a", "b", "c"}, false, 3},
		{"no roles", false, nil, false, 1},
		{"one role, ID", false, []string{"a"}, true, 2},
	}
	args := payArgs{Account: "ACC-1", Amount: 5}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec[payArgs]{Name: "pay", Version: "v1", Decode: func([]byte) (payArgs, error) { return args, nil }}
			b := Binding[payArgs]{Policy: allow, Execute: func(context.Context, payArgs) (any, error) { return nil, nil }}
			if tc.asks {
				spec.Approval, spec.Approvers, b.NeedsApproval = ApprovalPolicy, []string{"lead"}, asks
			}
			r := mustRegistry(t, []*Tool{Bind(spec, b)},
				WithReplayStore(NewMemoryReplayStore(MemoryReplayConfig{IDsPerScope: 1 << 20, IDs: 1 << 20})))
			cl := Caller{Principal: Principal{ID: "u1", Roles: tc.roles}, Scope: "s"}
			call := Call{Name: "pay", Args: []byte(goodPay), Complete: true}
			ids := make([]string, 200)
			for i := range ids {
				ids[i] = fmt.Sprint("call-", i)
			}
			i := 0
			got := testing.AllocsPerRun(100, func() {
				if tc.id {
					call.ID = ids[i]
					i++
				}
				if _, err := r.Dispatch(context.Background(), cl, call); err != nil {
					t.Fatal(err)
				}
			})
			if got != tc.want {
				t.Errorf("%v allocations per dispatch, want %v", got, tc.want)
			}
		})
	}
}

// TestGoroutinePathAllocations: a call whose executor runs in a goroutine
// of its own allocates, beyond what running a function in a goroutine
// under the executor's context costs (its context, the goroutine, the
// wait), only its arguments with its executor's state, and the execution,
// which holds a copy of the call.
func TestGoroutinePathAllocations(t *testing.T) {
	args := payArgs{Account: "ACC-1", Amount: 5}
	spec := Spec[payArgs]{Name: "pay", Version: "v1", Decode: func([]byte) (payArgs, error) { return args, nil }}
	b := Binding[payArgs]{Policy: AllowAll[payArgs], Execute: func(context.Context, payArgs) (any, error) { return nil, nil }}
	cl := Caller{Principal: Principal{ID: "u1", Roles: []string{"a"}}, Scope: "s"}
	call := Call{Name: "pay", Args: []byte(goodPay), Complete: true}
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		name    string
		timeout time.Duration
		ctx     context.Context
		// handoff runs a closure in a goroutine under a context made as
		// the gate makes the executor's, and waits for it.
		handoff func(parent context.Context)
	}{
		{"tool timeout", time.Hour, context.Background(), func(parent context.Context) {
			xctx, cancel := context.WithTimeoutCause(parent, time.Hour, errToolTimeout)
			go func() { cancel() }()
			<-xctx.Done()
		}},
		{"context that can end", 0, cancellable, func(parent context.Context) {
			xctx, cancel := context.WithCancel(parent)
			go func() { cancel() }()
			<-xctx.Done()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := spec
			spec.Timeout = tc.timeout
			r := mustRegistry(t, []*Tool{Bind(spec, b)})
			tool := r.tools["pay"]
			if !tool.runsAside(tc.ctx) || tool.runsAside(context.Background()) != (tc.timeout > 0) {
				t.Fatalf("runsAside: the call should run in a goroutine of its own")
			}
			parent := &principalCtx{Context: tc.ctx}
			base := testing.AllocsPerRun(100, func() { tc.handoff(parent) })
			got := testing.AllocsPerRun(100, func() {
				if _, err := r.Dispatch(tc.ctx, cl, call); err != nil {
					t.Fatal(err)
				}
			})
			if got != base+2 {
				t.Errorf("%v allocations per dispatch, want %v (the handoff's %v, the arguments with the executor's state, and the execution)", got, base+2, base)
			}
		})
	}
}
