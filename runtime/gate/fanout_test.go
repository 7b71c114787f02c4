package gate

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// orderedKey marks the context each namedHook returned, by its name.
type orderedKey struct{ name string }

// namedHook is an auditor with a dispatch hook that notes its start, end
// and events in a shared log, and the contexts its events came in.
type namedHook struct {
	name string
	log  *[]string
}

func (h namedHook) Audit(ctx context.Context, e Event) {
	var in []string
	for _, n := range []string{"one", "two"} {
		if ctx.Value(orderedKey{n}) != nil {
			in = append(in, n)
		}
	}
	*h.log = append(*h.log, h.name+" audit "+e.CallID+" in "+strings.Join(in, "+"))
}

func (h namedHook) StartDispatch(ctx context.Context, _ Caller, _ int) (context.Context, func()) {
	*h.log = append(*h.log, h.name+" start")
	return context.WithValue(ctx, orderedKey{h.name}, true), func() { *h.log = append(*h.log, h.name+" end") }
}

func (h namedHook) AuditRepair(_ context.Context, e RepairEvent) {
	*h.log = append(*h.log, h.name+" repair "+string(e.Code))
}

// TestFanOut: every auditor of a fan-out gets every event and every repair
// event; the hooks start in order, each within the previous one's context,
// and end in reverse order; a panicking auditor or hook loses only its
// own part; the events are the same as one auditor alone gets.
func TestFanOut(t *testing.T) {
	var log []string
	one, two := namedHook{"one", &log}, namedHook{"two", &log}
	panicky := AuditorFunc(func(context.Context, Event) { panic("auditor") })
	alone := &hookAuditor{}
	both := &hookAuditor{}
	hookPanics := &hookAuditor{panics: true}
	var c spyCounts
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(FanOut(one, panicky, nil, hookPanics, both, two)))
	ref := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(alone))
	bad := Call{ID: "c1", Name: "pay", Args: []byte(`{"account":1}`), Complete: true}
	fixed := func(_ context.Context, call Call, _ *toolerr.Error) (Call, error) {
		call.ID, call.Args = "c2", []byte(goodPay)
		return call, nil
	}
	for _, reg := range []*Registry{r, ref} {
		if _, err := reg.DispatchWithRepair(context.Background(), caller, bad, Repair{MaxAttempts: 2, Next: fixed}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"one start", "two start", "one audit c1 in one+two", "two audit c1 in one+two", "two end", "one end",
		"one start", "two start", "one audit c2 in one+two", "two audit c2 in one+two", "two end", "one end",
		"one repair ok", "two repair ok",
	}
	if !slices.Equal(log, want) {
		t.Errorf("log\n%q\nwant\n%q", log, want)
	}
	for _, h := range []*hookAuditor{both, hookPanics} {
		if len(h.events) != 2 || len(h.repairs) != 1 {
			t.Fatalf("%d events, %d repairs; want 2 and 1", len(h.events), len(h.repairs))
		}
		for i, e := range h.events {
			e.Duration, e.Decode, e.Policy, e.Execute = 0, 0, 0, 0
			w := alone.events[i]
			w.Duration, w.Decode, w.Policy, w.Execute = 0, 0, 0, 0
			if !reflect.DeepEqual(e, w) {
				t.Errorf("event %d through the fan-out %+v, alone %+v", i, e, w)
			}
		}
		if h.repairs[0] != alone.repairs[0] {
			t.Errorf("repair %+v, alone %+v", h.repairs[0], alone.repairs[0])
		}
	}
	if c.execs.Load() != 2 {
		t.Errorf("execs %d, want one per registry", c.execs.Load())
	}
}

// TestFanOutShape: FanOut of no auditor is the no-op one (the registry
// builds no event), of one auditor that auditor, and a fan-out is a
// DispatchHook only when one of its auditors is.
func TestFanOutShape(t *testing.T) {
	var log []string
	hook := namedHook{"one", &log}
	plain := AuditorFunc(func(context.Context, Event) {})
	if _, ok := FanOut().(nopAuditor); !ok {
		t.Errorf("FanOut() is %T, want the no-op auditor", FanOut())
	}
	if _, ok := FanOut(nil, nopAuditor{}).(nopAuditor); !ok {
		t.Errorf("FanOut(nil, no-op) is not the no-op auditor")
	}
	if a, ok := FanOut(hook).(namedHook); !ok || a != hook {
		t.Errorf("FanOut(a) is %T, want a", FanOut(hook))
	}
	if _, ok := FanOut(plain, plain).(DispatchHook); ok {
		t.Errorf("a fan-out without hooks is a DispatchHook")
	}
	if _, ok := FanOut(plain, hook).(DispatchHook); !ok {
		t.Errorf("a fan-out with a hook is not a DispatchHook")
	}
	r := mustRegistry(t, nil, WithAuditor(FanOut()))
	if !r.quiet {
		t.Errorf("a registry with FanOut() builds events")
	}
}
