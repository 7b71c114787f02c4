package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

func TestRefundGateway(t *testing.T) {
	book := newOrderBook()
	var audit bytes.Buffer
	reg, err := newGateway(book, &audit)
	if err != nil {
		t.Fatal(err)
	}
	outs := play(context.Background(), reg, book, script())

	want := []struct {
		callID   string
		code     toolerr.Code
		executed bool
		detail   string // substring of the detail
	}{
		{"call_1", gate.OK, true, `"refundedCents":2500`},
		{"call_1", toolerr.DuplicateCall, false, "already executed"},
		{"call_2", toolerr.Conflict, true, "order A-19 was already refunded"},
		{"call_3", toolerr.UnknownTool, false, "the tools you can call are: cancel_order, create_shipment, get_order_status, refund_order"},
		{"call_4", toolerr.InvalidArguments, false, `"instancePath":"/approvedBy"`},
		{"call_5", toolerr.InvalidJSON, false, `duplicate member name`},
		{"call_6", toolerr.ApprovalRequired, false, `"category":"approval"`},
		{"call_6b", toolerr.InvalidArguments, false, `"instancePath":"/approved"`},
		{"call_6", toolerr.ApprovalForbidden, false, "none of the tool's approver roles"},
		{"call_6", toolerr.ApprovalUnknown, false, "there is no pending call with that ID"},
		{"call_6", toolerr.ApprovalPending, false, "not been approved yet"},
		{"call_6", gate.OK, false, "approved by fay"},
		{"call_6", gate.OK, true, `"refundedCents":75000`},
		{"call_6", toolerr.ApprovalAlreadyResumed, false, "resumed already"},
		{"call_7", toolerr.ApprovalRequired, false, `"pendingId"`},
		{"call_7", toolerr.ApprovalForbidden, false, "may not approve their own call"},
		{"call_7", gate.OK, false, "rejected by finn"},
		{"call_7", toolerr.ApprovalRejected, false, "rejected"},
		{"call_7b", toolerr.BatchAborted, false, "awaits approval"},
		{"call_7c", toolerr.ApprovalRequired, false, `"argsDigest":"sha256:`},
		{"call_7c", gate.OK, false, "approved by finn"},
		{"call_7c", toolerr.Unauthorized, false, `"category":"permission"`},
		{"call_8", toolerr.UnknownTool, false, "the tools you can call are: cancel_order, create_shipment, get_order_status, refund_order"},
		{"call_9", toolerr.IncompleteCall, false, "incomplete"},
		{"call_10", toolerr.BatchAborted, false, "none was run"},
		{"call_11", toolerr.BatchAborted, false, "none was run"},
		{"call_12", toolerr.InvalidArguments, false, `"instancePath":"/amountInCents"`},
		{"call_13", toolerr.BatchAborted, false, "none was run"},
		{"call_14", toolerr.BatchAborted, false, "none was run"},
		{"call_14", toolerr.DuplicateCall, false, "twice in one batch"},
		{"call_15", gate.OK, true, `"status":"packed"`}, // not cancelled by the aborted batch
		{"call_16", gate.OK, true, `"refundedCents":1500`},
		{"call_17", gate.OK, true, `{"orderId":"D-4","status":"dispatched","updatedAt":"2026-03-02T08:15:00Z","carrier":"dpd","trackingRef":"DPD15501234"}`},
		{"call_18", toolerr.InvalidResult, true, `"category":"system"`},
	}
	if len(outs) != len(want) {
		t.Fatalf("%d outcomes, want %d: %+v", len(outs), len(want), outs)
	}
	for i, w := range want {
		o := outs[i]
		if o.callID != w.callID || o.code != w.code || o.executed != w.executed || !strings.Contains(o.detail, w.detail) {
			t.Errorf("outcome %d (%s) = %s %s executed=%v %s\nwant %s %s executed=%v, detail containing %s",
				i, o.step, o.callID, o.code, o.executed, o.detail, w.callID, w.code, w.executed, w.detail)
		}
		if o.code != gate.OK {
			var m map[string]any
			if err := json.Unmarshal([]byte(o.detail), &m); err != nil || m["code"] != string(o.code) {
				t.Errorf("outcome %d: refusal is not toolerr JSON: %s", i, o.detail)
			}
		}
	}
	// The denial reason stays in the service; the hidden tool's schema
	// never reaches the support agent's model.
	for _, o := range outs {
		if strings.Contains(o.detail, errSuspended.Error()) {
			t.Errorf("%s: the policy's reason reached the model: %s", o.callID, o.detail)
		}
		if o.callID == "call_8" && (strings.Contains(o.detail, "order_id") || strings.Contains(o.detail, "dispatch_date")) {
			t.Errorf("hidden tool's schema leaked: %s", o.detail)
		}
	}

	snap := book.snapshot()
	if a, b, c, d := snap["A-19"], snap["B-7"], snap["C-3"], snap["D-5"]; a.RefundedCents != 2500 || b.RefundedCents != 75000 || c.RefundedCents != 1500 || c.Status != "refunded" || d.RefundedCents != 0 {
		t.Errorf("order book %+v", snap)
	}

	// One audit line per call and approval step, with no argument value
	// in it.
	lines := strings.Split(strings.TrimSpace(audit.String()), "\n")
	if len(lines) != len(outs) {
		t.Errorf("%d audit lines for %d calls and steps", len(lines), len(outs))
	}
	for _, kind := range []string{"approval_requested", "approval_approved", "approval_rejected", "approval_resumed"} {
		if !strings.Contains(audit.String(), `"kind":"`+kind+`"`) {
			t.Errorf("no %s event in the audit log", kind)
		}
	}
	// The withheld result reaches neither the model nor the audit log; the
	// audit line names the broken rule.
	if d := outs[len(outs)-1].detail; strings.Contains(d, "evri") || strings.Contains(d, "4471") || strings.Contains(d, "pattern") {
		t.Errorf("the withheld result leaked to the model: %s", d)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "invalid_result") || !strings.Contains(last, "/trackingRef") || !strings.Contains(last, "pattern") {
		t.Errorf("the audit line of the withheld result does not name the violation: %s", last)
	}
	for _, v := range []string{"manager", `"reason":"fraudulent"`, "requested_by_customer", "evri 4471"} {
		if strings.Contains(audit.String(), v) {
			t.Errorf("audit log contains argument value %s", v)
		}
	}

	var out bytes.Buffer
	report(&out, outs, book)
	for _, s := range []string{"awaits approval (nothing ran)", "resumed and ran", "approve refused (approval_forbidden, permission)", "ran and failed (conflict, conflict)", "C-3   paid   1500  refunded   1500  refunded"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
}

// TestRefundApproval: up to the limit a refund runs at once; above it, it
// waits whoever asks, and runs once a second person of the finance role has
// approved it; a suspended agent's refund never runs.
func TestRefundApproval(t *testing.T) {
	tests := []struct {
		p         gate.Principal
		amount    string
		suspended bool
		code      toolerr.Code // the request's
		approver  gate.Principal
		resumed   toolerr.Code // the resume's, when approved
	}{
		{supportAgent, "50000", false, gate.OK, gate.Principal{}, ""},
		{supportAgent, "50001", false, toolerr.ApprovalRequired, financeAgent, gate.OK},
		{financeAgent, "100000", false, toolerr.ApprovalRequired, financeLead, gate.OK},
		{financeAgent, "100000", false, toolerr.ApprovalRequired, financeAgent, toolerr.ApprovalPending},
		{supportAgent, "50001", false, toolerr.ApprovalRequired, gate.Principal{ID: "x", Tenant: "acme", Roles: []string{"Finance"}}, toolerr.ApprovalPending},
		{supportAgent, "100", true, toolerr.Unauthorized, gate.Principal{}, ""},
	}
	for _, tt := range tests {
		book := newOrderBook()
		book.orders["Z-1"] = &order{PaidCents: 100000, Status: "paid"}
		if tt.suspended {
			book.suspend(tt.p.ID)
		}
		reg, err := newGateway(book, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		steps := []step{{label: "x", who: tt.p, calls: []gate.Call{
			call("c", "refund_order", `{"orderId":"Z-1","amountInCents":`+tt.amount+`,"reason":"duplicate"}`)}}}
		if tt.resumed != "" {
			steps = append(steps, step{label: "y", who: tt.approver, action: "approve", of: "c"}, step{label: "z", action: "resume", of: "c"})
		}
		outs := play(context.Background(), reg, book, steps)
		if outs[0].code != tt.code || tt.resumed != "" && outs[2].code != tt.resumed {
			t.Errorf("%s refunding %s, approved by %s: %+v", tt.p.ID, tt.amount, tt.approver.ID, outs)
		}
		ran := tt.code == gate.OK || tt.resumed == gate.OK
		if refunded := book.snapshot()["Z-1"].RefundedCents != 0; refunded != ran {
			t.Errorf("%s refunding %s: refunded %v", tt.p.ID, tt.amount, refunded)
		}
	}
}
