package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// hookAuditor records events, repair events and the dispatch hook's calls
// in order.
type hookAuditor struct {
	mu      sync.Mutex
	log     []string
	events  []Event
	repairs []RepairEvent
	panics  bool
}

type hookKey struct{}

func (h *hookAuditor) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log = append(h.log, s)
}

func (h *hookAuditor) Audit(ctx context.Context, e Event) {
	h.note("audit " + e.CallID + " in " + str(ctx.Value(hookKey{})))
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e)
}

func (h *hookAuditor) StartDispatch(ctx context.Context, c Caller, calls int) (context.Context, func()) {
	if h.panics {
		panic("hook")
	}
	h.note("start " + c.Model)
	return context.WithValue(ctx, hookKey{}, "dispatch"), func() { h.note("end") }
}

func (h *hookAuditor) AuditRepair(_ context.Context, e RepairEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.repairs = append(h.repairs, e)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// TestEventStepsDialectModel: an event carries the call's dialect, the
// caller's model and the duration of each step that ran (zero for the
// steps that did not), on the registry's clock.
func TestEventStepsDialectModel(t *testing.T) {
	var c spyCounts
	h := &hookAuditor{}
	deny := func(context.Context, Principal, payArgs) error { return errors.New("no") }
	r := mustRegistry(t, []*Tool{
		Bind(paySpec(&c), payBinding(&c, nil, nil)),
		Bind(Spec[payArgs]{Name: "deny", Version: "v2", Decode: func(b []byte) (payArgs, error) { return decodePay(b, false) }}, payBinding(&c, deny, nil)),
	}, WithAuditor(h))
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	cl := Caller{Principal: Principal{ID: "u1"}, Scope: "s", Model: "model-x"}
	ctx := context.Background()
	r.Dispatch(ctx, cl, Call{ID: "ok", Name: "pay", Args: []byte(goodPay), Complete: true, Dialect: Anthropic})
	r.Dispatch(ctx, cl, Call{ID: "bad", Name: "pay", Args: []byte(`{"account":1}`), Complete: true, Dialect: OpenAIChat})
	r.Dispatch(ctx, cl, Call{ID: "denied", Name: "deny", Args: []byte(goodPay), Complete: true})
	r.Dispatch(ctx, cl, Call{ID: "unknown", Name: "nope", Args: []byte(goodPay), Complete: true, Dialect: MCP})
	ms := time.Millisecond
	want := []struct {
		id                      string
		dialect                 Dialect
		code                    toolerr.Code
		decode, policy, execute time.Duration
	}{
		{"ok", Anthropic, OK, ms, ms, ms},
		{"bad", OpenAIChat, toolerr.InvalidArguments, ms, 0, 0},
		{"denied", Plain, toolerr.Unauthorized, ms, ms, 0},
		{"unknown", MCP, toolerr.UnknownTool, 0, 0, 0},
	}
	if len(h.events) != len(want) {
		t.Fatalf("%d events", len(h.events))
	}
	if c.execs.Load() != 1 {
		t.Errorf("execs %d, want 1: only the ok call runs", c.execs.Load())
	}
	for i, w := range want {
		e := h.events[i]
		if e.CallID != w.id || e.Dialect != w.dialect || e.Code != w.code || e.Model != "model-x" || e.Resolved != (w.code != toolerr.UnknownTool) ||
			e.Decode != w.decode || e.Policy != w.policy || e.Execute != w.execute {
			t.Errorf("event %d = %+v, want %+v and model-x", i, e, w)
		}
	}
}

// TestDispatchHook: the hook wraps each dispatch; its context reaches the
// executors and the audit events, and end is called after the last event.
// A panicking hook is recovered and the call still runs.
func TestDispatchHook(t *testing.T) {
	var c spyCounts
	var execCtx []string
	var mu sync.Mutex
	exec := func(ctx context.Context, _ payArgs) (any, error) {
		mu.Lock()
		execCtx = append(execCtx, str(ctx.Value(hookKey{})))
		mu.Unlock()
		return "done", nil
	}
	h := &hookAuditor{}
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, exec))}, WithAuditor(h))
	cl := Caller{Principal: Principal{ID: "u1"}, Scope: "s", Model: "m"}
	r.DispatchBatch(context.Background(), cl, []Call{
		{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true},
		{ID: "b", Name: "pay", Args: []byte(goodPay), Complete: true},
	}, BatchOptions{})
	wantLog := []string{"start m", "audit a in dispatch", "audit b in dispatch", "end"}
	if !slices.Equal(h.log, wantLog) || !slices.Equal(execCtx, []string{"dispatch", "dispatch"}) {
		t.Errorf("log %q, executor contexts %q; want %q", h.log, execCtx, wantLog)
	}

	p := &hookAuditor{panics: true}
	r = mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(p))
	if _, err := r.Dispatch(context.Background(), cl, Call{ID: "c", Name: "pay", Args: []byte(goodPay), Complete: true}); err != nil {
		t.Fatalf("with a panicking hook: %v", err)
	}
	if !slices.Equal(p.log, []string{"audit c in "}) {
		t.Errorf("log %q", p.log)
	}
}

// TestRepairEvent: a RepairAuditor gets one event per repair loop with the
// number of attempts and the final outcome.
func TestRepairEvent(t *testing.T) {
	bad := Call{ID: "c", Name: "pay", Args: []byte(`{"account":1}`), Complete: true, Dialect: Anthropic}
	tests := []struct {
		name     string
		next     []string // the arguments of the candidates Next returns, "" for an error
		max      int
		attempts int
		code     toolerr.Code
	}{
		{"fixed on the second attempt", []string{goodPay}, 3, 2, OK},
		{"attempts exhausted", []string{`{}`, `{"amount":"1"}`}, 3, 3, toolerr.InvalidArguments},
		{"Next fails", []string{""}, 3, 1, toolerr.InvalidArguments},
		{"not repairable", nil, 3, 1, toolerr.UnknownTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			h := &hookAuditor{}
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(h))
			first := bad
			if tt.code == toolerr.UnknownTool {
				first.Name = "nope"
			}
			n := 0
			r.DispatchWithRepair(context.Background(), Caller{Principal: Principal{ID: "u1"}, Scope: "s", Model: "m"}, first, Repair{
				MaxAttempts: tt.max,
				Next: func(_ context.Context, call Call, _ *toolerr.Error) (Call, error) {
					args := tt.next[n]
					n++
					if args == "" {
						return Call{}, errors.New("model unavailable")
					}
					call.ID = call.ID + "'"
					call.Args = []byte(args)
					return call, nil
				},
			})
			if len(h.repairs) != 1 {
				t.Fatalf("%d repair events, want 1", len(h.repairs))
			}
			e := h.repairs[0]
			if e.Attempts != tt.attempts || e.Code != tt.code || e.Model != "m" || e.Dialect != Anthropic || e.Tool != first.Name || e.Resolved != (tt.code != toolerr.UnknownTool) {
				t.Errorf("repair event %+v, want %d attempts, %s", e, tt.attempts, tt.code)
			}
			if len(h.events) != tt.attempts {
				t.Errorf("%d call events, want one per attempt (%d)", len(h.events), tt.attempts)
			}
			want := int64(0)
			if tt.code == OK {
				want = 1
			}
			if c.execs.Load() != want {
				t.Errorf("execs %d, want %d: only a repaired call runs", c.execs.Load(), want)
			}
		})
	}
}

// jsonAuditor is a SlogAuditor writing JSON lines to w.
func jsonAuditor(w io.Writer) Auditor {
	return SlogAuditor(slog.New(slog.NewJSONHandler(w, nil)))
}

// decodeLine decodes the one JSON line of log.
func decodeLine(t *testing.T, log string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want 1: %s", len(lines), log)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &v); err != nil {
		t.Fatalf("log line %s: %v", lines[0], err)
	}
	return v
}

// TestSlogAuditorViolations: the slog auditor logs an event's violations
// as one JSON list under "violations", every one in order, which a JSON
// decoder (that keeps the last of repeated keys) reads whole; an event
// without violations has no such key.
func TestSlogAuditorViolations(t *testing.T) {
	var vs []ViolationRef
	var want []any
	for i := range 8 {
		v := ViolationRef{Keyword: fmt.Sprintf("kw%d", i), InstancePath: fmt.Sprintf("/items/%d", i)}
		vs = append(vs, v)
		want = append(want, map[string]any{"keyword": v.Keyword, "path": v.InstancePath})
	}
	for _, tc := range []struct {
		name string
		vs   []ViolationRef
		want []any
	}{{"eight", vs, want}, {"none", nil, nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			jsonAuditor(&log).Audit(context.Background(), Event{CallID: "c1", Tool: "pay", Code: toolerr.InvalidArguments, Category: toolerr.Validation, Violations: tc.vs})
			line := decodeLine(t, log.String())
			got, has := line["violations"]
			if tc.want == nil {
				if has {
					t.Errorf("violations %v logged for none", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("violations %v, want %v", got, tc.want)
			}
			if _, ok := line["violation"]; ok {
				t.Errorf("a violation key beside the list: %s", log.String())
			}
		})
	}
}

// TestAuditDurationAndAttempt: events carry the registry clock's duration
// and attempt 1 outside a repair loop.
func TestAuditDurationAndAttempt(t *testing.T) {
	var c spyCounts
	var events []Event
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(AuditorFunc(func(_ context.Context, e Event) { events = append(events, e) })))
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	c1 := Caller{Principal: Principal{ID: "u1"}, Scope: "s", RequestID: "req-9"}
	r.Dispatch(context.Background(), c1, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	r.Dispatch(context.Background(), c1, Call{ID: "c2", Name: "nope", Args: []byte(goodPay), Complete: true})
	if len(events) != 2 {
		t.Fatalf("%d events, want 2", len(events))
	}
	if c.execs.Load() != 1 {
		t.Errorf("execs %d, want 1: the unknown tool runs nothing", c.execs.Load())
	}
	for i, e := range events {
		if e.Duration != time.Millisecond || e.Attempt != 1 || e.RequestID != "req-9" || e.Scope != "s" || e.Principal != "u1" {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if events[0].Version != "v1" || events[0].Code != OK || events[1].Version != "" || events[1].Code != toolerr.UnknownTool || events[1].Tool != "nope" {
		t.Errorf("events = %+v", events)
	}
}
