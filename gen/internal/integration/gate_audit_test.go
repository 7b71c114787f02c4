package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ---- audit -------------------------------------------------------------------------

// TestAuditOneEventPerCall: every row of the matrix gives exactly one event
// with the outcome's code, category, version and violation locations.
func TestAuditOneEventPerCall(t *testing.T) {
	versions := map[string]string{
		cancelT: generated.CancelOrderSpec.Version, shipT: generated.CreateShipmentSpec.Version,
		statusT: generated.GetOrderStatusSpec.Version, refundT: generated.RefundOrderSpec.Version,
		dispatchT: generated.ScheduleOrderDispatchSpec.Version, contactT: generated.UpdateDeliveryContactSpec.Version,
	}
	for _, c := range behaviourCases {
		t.Run(c.Name, func(t *testing.T) {
			h := newHarness()
			var events []gate.Event
			r := h.generatedRegistry(t, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) { events = append(events, e) })))
			caller := gate.Caller{Principal: pAll, Scope: "s", RequestID: "req-" + c.Name}
			res, _ := r.Dispatch(context.Background(), caller, call("id-"+c.Name, c.Tool, c.Input))
			if len(events) != 1 {
				t.Fatalf("%d events, want 1", len(events))
			}
			e := events[0]
			wantCode, wantCat := gate.OK, toolerr.Category("")
			if res.Err != nil {
				wantCode, wantCat = res.Err.Code, res.Err.Code.Category()
			}
			if c.Want.Code != "" && wantCode != c.Want.Code {
				t.Fatalf("result code %s, want %s", wantCode, c.Want.Code)
			}
			if e.Code != wantCode || e.Category != wantCat || e.Tool != c.Tool || e.Version != versions[c.Tool] ||
				e.CallID != "id-"+c.Name || e.RequestID != caller.RequestID || e.Principal != pAll.ID || e.Scope != "s" ||
				e.Executed != (c.Want.Code == "") || e.Attempt != 1 {
				t.Errorf("event %+v", e)
			}
			var wantRefs []gate.ViolationRef
			if res.Err != nil {
				for _, v := range res.Err.Violations() {
					wantRefs = append(wantRefs, gate.ViolationRef{Keyword: v.Keyword, InstancePath: v.InstancePath})
				}
			}
			if !reflect.DeepEqual(e.Violations, wantRefs) {
				t.Errorf("event violations %+v, want %+v", e.Violations, wantRefs)
			}
		})
	}
}

// TestAuditNeverCarriesArgumentValues: whatever happens to a call, neither
// the events nor the slog output contain an argument value.
func TestAuditNeverCarriesArgumentValues(t *testing.T) {
	secrets := []string{"SECRETORDER9731", "secret-lower-9731", "confidential-reason-x", "approver-secret-77", "99173", "173917", "Ada Lovelace", "SW1Y 4JH"}
	type step struct {
		p     gate.Principal
		calls []gate.Call
		echo  string // a secret the model-facing error does show (proof the value was there)
	}
	steps := []step{
		{pFinance, []gate.Call{call("a1", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
		{pFinance, []gate.Call{call("a1", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""}, // replay
		{pSupport, []gate.Call{call("a2", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""}, // unauthorized
		{pFinance, []gate.Call{call("a3", refundT, refund("orderId", `"secret-lower-9731"`))}, "secret-lower-9731"},
		{pFinance, []gate.Call{call("a4", refundT, refund("reason", `"confidential-reason-x"`))}, "confidential-reason-x"},
		{pFinance, []gate.Call{call("a5", refundT, refund("approvedBy", `"approver-secret-77"`))}, ""},
		{pFinance, []gate.Call{call("a6", refundT, refund("amountInCents", "173917"))}, "173917"},
		{pFinance, []gate.Call{call("a7", refundT, `{"orderId":"SECRETORDER9731","amountInCents":99173,`)}, ""},
		{pFinance, []gate.Call{{ID: "a8", Name: refundT, Args: []byte(refund("orderId", `"SECRETORDER9731"`)), Complete: false}}, ""},
		{pNone, []gate.Call{call("a9", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
		{pAll, []gate.Call{call("b1", shipT, ship()), call("b2", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "173917"))}, "173917"},
		{pAll, []gate.Call{call("b3", shipT, ship()), call("b4", refundT, refund("orderId", `"SECRETORDER9731"`, "amountInCents", "99173"))}, ""},
	}
	h := newHarness()
	h.exec = func(_ context.Context, tool string, _ any) (any, error) {
		if tool == refundT {
			return nil, gate.Conflict("already refunded")
		}
		return "ok", nil
	}
	var events []gate.Event
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "duration" {
			return slog.Attr{} // clock values could contain any digits
		}
		return a
	}}))
	slogAudit := gate.SlogAuditor(logger)
	r := h.wrapped(t, gate.WithAuditor(gate.AuditorFunc(func(ctx context.Context, e gate.Event) {
		slogAudit.Audit(ctx, e)
		e.Duration = 0
		events = append(events, e)
	})))
	ncalls := 0
	for i, s := range steps {
		res := r.DispatchBatch(context.Background(), as(s.p), s.calls, gate.BatchOptions{})
		ncalls += len(s.calls)
		if s.echo != "" {
			found := false
			for _, rr := range res {
				if rr.Err != nil && strings.Contains(rr.Err.Error(), s.echo) {
					found = true
				}
			}
			if !found {
				t.Errorf("step %d: no refusal shows %q; the test does not exercise it", i, s.echo)
			}
		}
	}
	if len(events) != ncalls {
		t.Errorf("%d events for %d calls", len(events), ncalls)
	}
	codes := map[toolerr.Code]bool{}
	for _, e := range events {
		codes[e.Code] = true
	}
	for _, want := range []toolerr.Code{toolerr.Conflict, toolerr.DuplicateCall, toolerr.Unauthorized, toolerr.InvalidArguments, toolerr.InvalidJSON, toolerr.IncompleteCall, toolerr.UnknownTool, toolerr.BatchAborted} {
		if !codes[want] {
			t.Errorf("no event with code %s: the test does not exercise it", want)
		}
	}
	evJSON, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(logs.String(), "\n") != ncalls {
		t.Errorf("%d log lines for %d calls", strings.Count(logs.String(), "\n"), ncalls)
	}
	for _, sec := range secrets {
		if bytes.Contains(evJSON, []byte(sec)) {
			t.Errorf("audit events contain %q: %s", sec, evJSON)
		}
		if strings.Contains(logs.String(), sec) {
			t.Errorf("slog output contains %q", sec)
		}
	}
	// Member names (not values) locate violations.
	if !bytes.Contains(evJSON, []byte(`"/approvedBy"`)) || !strings.Contains(logs.String(), `"path":"/approvedBy"`) {
		t.Errorf("violation paths missing from the audit:\n%s\n%s", evJSON, logs.String())
	}
}
