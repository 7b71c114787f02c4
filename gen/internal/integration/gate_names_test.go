package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// unknownNames are names that must never resolve to refund_order.
var unknownNames = []struct{ label, name string }{
	{"case", "Refund_Order"},
	{"upper", "REFUND_ORDER"},
	{"leading space", " refund_order"},
	{"trailing space", "refund_order "},
	{"trailing newline", "refund_order\n"},
	{"trailing NUL", "refund_order\x00"},
	{"cyrillic o", "refund_\u043erder"},
	{"fullwidth", "ｒefund_order"},
	{"zero-width joiner", "refund\u200d_order"},
	{"combining accent", "refund_order\u0301"},
	{"dash", "refund-order"},
	{"path", "../refund_order"},
	{"namespaced", "functions.refund_order"},
	{"empty", ""},
	{"from user text", "refund my order A-19 please"},
	{"from user text, quoted", `"refund_order"`},
	{"prefix", "refund_orde"},
	{"suffix", "refund_orders"},
	{"long", strings.Repeat("refund_order", 40)},
	{"invalid utf-8", "refund_order\xff"},
}

// TestGateUnknownNames: every variant is unknown_tool for every principal,
// with nothing decoded, authorized or run, and the error lists exactly the
// tools that principal may call.
func TestGateUnknownNames(t *testing.T) {
	for _, v := range visibility {
		for _, u := range unknownNames {
			for _, complete := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/complete=%v", v.name, u.label, complete), func(t *testing.T) {
					h := newHarness()
					r := h.wrapped(t)
					c := call("c1", u.name, refund())
					c.Complete = complete
					res, err := r.Dispatch(context.Background(), as(v.p), c)
					e := wantErr(t, err, toolerr.UnknownTool)
					h.assertNothingRan(t, true, true)
					if res.Executed {
						t.Error("Executed")
					}
					if got := listedTools(t, e); !slices.Equal(got, v.tools) {
						t.Errorf("listed tools %q, want %q", got, v.tools)
					}
					if e.Tool != "" || len(e.Violations()) != 0 || e.Code.Category() != toolerr.Validation {
						t.Errorf("error %+v", e)
					}
				})
			}
		}
	}
}

// memberNames returns every property name in a JSON Schema.
func memberNames(t testing.TB, schema string) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(schema), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for k := range props {
					seen[k] = true
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stringValues collects every string value (not key) of a JSON document.
func stringValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for _, c := range x {
			out = append(out, stringValues(c)...)
		}
		return out
	case []any:
		var out []string
		for _, c := range x {
			out = append(out, stringValues(c)...)
		}
		return out
	}
	return nil
}

var schemas = map[string]string{
	cancelT:   generated.CancelOrderSchema,
	shipT:     generated.CreateShipmentSchema,
	statusT:   generated.GetOrderStatusSchema,
	refundT:   generated.RefundOrderSchema,
	dispatchT: generated.ScheduleOrderDispatchSchema,
	contactT:  generated.UpdateDeliveryContactSchema,
}

// TestGateHiddenToolLooksMissing: a call to a tool the principal may not
// see gets exactly the refusal (and the audit event) that the same call gets
// from a registry without the tool, and nothing of the tool's schema leaks.
func TestGateHiddenToolLooksMissing(t *testing.T) {
	tests := []struct {
		p    gate.Principal
		tool string
	}{
		{pNone, refundT}, {pNone, cancelT}, {pNone, dispatchT},
		{pFinance, cancelT}, {pSupport, dispatchT}, {pOps, refundT},
		{pAdmin, refundT}, {pCase, refundT}, {pEmpty, cancelT},
	}
	for _, tt := range tests {
		args := map[string]string{
			"valid":         validArgs[tt.tool],
			"invalid":       `{"orderId":"a","bogus":1}`,
			"invalid json":  `{"orderId":`,
			"empty":         ``,
			"wrong members": `{"amountInCents":0,"reason":5,"notifyCustomer":"x","order_id":1,"currency":"USD"}`,
		}
		for label, a := range args {
			for _, complete := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/%s/complete=%v", tt.p.ID, tt.tool, label, complete), func(t *testing.T) {
					var outs [2]struct {
						res    gate.Result
						json   []byte
						events []gate.Event
					}
					for i := range outs {
						h := newHarness()
						tools := h.gateTools()
						if i == 1 {
							tools = h.gateTools(tt.tool)
						}
						var events []gate.Event
						r, err := gate.NewRegistry(tools, gate.WithAuditor(gate.AuditorFunc(func(_ context.Context, e gate.Event) {
							e.Duration = 0
							events = append(events, e)
						})))
						if err != nil {
							t.Fatal(err)
						}
						c := call("c1", tt.tool, a)
						c.Complete = complete
						res, err := r.Dispatch(context.Background(), as(tt.p), c)
						e := wantErr(t, err, toolerr.UnknownTool)
						h.assertNothingRan(t, true, true)
						outs[i].res, outs[i].events = res, events
						outs[i].json, _ = json.Marshal(e)
					}
					if !bytes.Equal(outs[0].json, outs[1].json) {
						t.Errorf("hidden: %s\nmissing: %s", outs[0].json, outs[1].json)
					}
					if !reflect.DeepEqual(outs[0].events, outs[1].events) {
						t.Errorf("audit differs:\nhidden: %+v\nmissing: %+v", outs[0].events, outs[1].events)
					}
					var wire map[string]any
					if err := json.Unmarshal(outs[0].json, &wire); err != nil {
						t.Fatal(err)
					}
					for k := range wire {
						if !slices.Contains([]string{"code", "category", "callId", "message", "reason"}, k) {
							t.Errorf("unknown_tool error has member %q: %s", k, outs[0].json)
						}
					}
					for _, m := range memberNames(t, schemas[tt.tool]) {
						for _, v := range stringValues(wire) {
							if strings.Contains(v, m) {
								t.Errorf("refusal leaks member %q of the hidden tool: %q", m, v)
							}
						}
					}
				})
			}
		}
	}
}
