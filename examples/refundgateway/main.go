// Command refundgateway is a runnable refund gateway: the tools generated in
// github.com/toolgate/toolgate/generated bound to fake executors over an
// in-memory order book, behind the toolgate gate. It feeds the gate a
// handful of good and bad calls, as a model might propose them, and the
// decisions of the people who approve large refunds, and prints what happens
// to each: the executor's result, or the refusal sent back to the model as
// toolerr JSON. The audit log (one slog JSON line per call or approval step)
// goes to stderr.
//
//	go run ./refundgateway
//
// The wiring is what a service writes:
//
//   - a policy per tool, typed on the tool's arguments: here a suspended
//     agent may not refund (roles and suspensions come from the service's
//     own authentication, never from the model);
//   - for refund_order, whose tool file says "approval": "policy" with
//     approvers ["finance"], a NeedsApproval function: a refund above 50000
//     cents waits for a second person of the finance role, who approves it
//     (reg.Approve) before the service resumes it (reg.Resume);
//   - an executor per tool: refunding an order twice is a gate.Conflict;
//     get_order_status returns the typed generated.GetOrderStatusResult
//     (its tool file declares an outputSchema), which the gate checks
//     before it leaves: a result that breaks the schema (here a tracking
//     reference from a carrier feed in the wrong form) is withheld as
//     invalid_result, and the model reads a generic failure;
//   - generated.NewRegistry, which refuses to build with any tool unbound;
//   - gate.SlogAuditor for the audit events.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/opt"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// refundLimit is the largest refund, in cents, that runs without a second
// person's approval.
const refundLimit = 50000

// order is one order of the book.
type order struct {
	PaidCents     int64
	RefundedCents int64
	Status        string // paid, packed, dispatched, cancelled, refunded
	UpdatedAt     string // RFC 3339
	Carrier       string // once dispatched
	TrackingRef   string // once dispatched, as the carrier's feed spells it
}

// orderBook is the fake back end: an in-memory set of orders.
type orderBook struct {
	mu     sync.Mutex
	orders map[string]*order
	// suspended are the agents who may no longer refund.
	suspended map[string]bool
}

func newOrderBook() *orderBook {
	return &orderBook{orders: map[string]*order{
		"A-19": {PaidCents: 4200, Status: "paid", UpdatedAt: "2026-03-01T09:00:00Z"},
		"B-7":  {PaidCents: 90000, Status: "paid", UpdatedAt: "2026-03-01T09:05:00Z"},
		"C-3":  {PaidCents: 1500, Status: "packed", UpdatedAt: "2026-03-01T10:00:00Z"},
		"D-4":  {PaidCents: 2200, Status: "dispatched", UpdatedAt: "2026-03-02T08:15:00Z", Carrier: "dpd", TrackingRef: "DPD15501234"},
		"D-5":  {PaidCents: 80000, Status: "paid", UpdatedAt: "2026-03-02T08:18:00Z"},
		// The carrier's feed sent this tracking reference in lower case,
		// with a space: the schema's pattern refuses it.
		"E-5": {PaidCents: 3100, Status: "dispatched", UpdatedAt: "2026-03-02T08:20:00Z", Carrier: "evri", TrackingRef: "evri 4471"},
	}, suspended: map[string]bool{}}
}

// suspend stops an agent's refunds, from the next check on.
func (b *orderBook) suspend(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.suspended[id] = true
}

// refundReceipt is what refund_order returns.
type refundReceipt struct {
	OrderID        string `json:"orderId"`
	RefundedCents  int64  `json:"refundedCents"`
	NotifyCustomer bool   `json:"notifyCustomer"`
}

func (b *orderBook) refund(_ context.Context, a generated.RefundOrderArgs) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.orders[a.OrderID]
	switch {
	case !ok:
		return nil, fmt.Errorf("no order %s", a.OrderID)
	case o.Status == "refunded":
		return nil, gate.Conflict(fmt.Sprintf("order %s was already refunded", a.OrderID))
	case a.AmountInCents > o.PaidCents:
		return nil, gate.Conflict(fmt.Sprintf("order %s was paid %d cents; a refund cannot exceed that", a.OrderID, o.PaidCents))
	}
	o.RefundedCents, o.Status = a.AmountInCents, "refunded"
	return refundReceipt{OrderID: a.OrderID, RefundedCents: a.AmountInCents, NotifyCustomer: a.NotifyCustomerOrDefault()}, nil
}

// status is get_order_status's executor. Its result is typed: the gate
// encodes it and checks it against the tool's outputSchema before it
// leaves. The conversions from the book's strings are not checked here;
// the gate checks them.
func (b *orderBook) status(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.orders[a.OrderID]
	if !ok {
		return generated.GetOrderStatusResult{}, fmt.Errorf("no order %s", a.OrderID)
	}
	r := generated.GetOrderStatusResult{OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatus(o.Status), UpdatedAt: o.UpdatedAt}
	if o.Carrier != "" {
		r.Carrier = opt.Some(generated.GetOrderStatusResultCarrier(o.Carrier))
		r.TrackingRef = opt.Some(o.TrackingRef)
	}
	return r, nil
}

func (b *orderBook) cancel(_ context.Context, a generated.CancelOrderArgs) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.orders[a.OrderID]
	switch {
	case !ok:
		return nil, fmt.Errorf("no order %s", a.OrderID)
	case o.Status != "paid" && o.Status != "packed":
		return nil, gate.Conflict(fmt.Sprintf("order %s is %s and cannot be cancelled", a.OrderID, o.Status))
	}
	o.Status = "cancelled"
	return map[string]string{"orderId": a.OrderID, "status": o.Status}, nil
}

func (b *orderBook) ship(_ context.Context, a generated.CreateShipmentArgs) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.orders[a.OrderID]; !ok {
		return nil, fmt.Errorf("no order %s", a.OrderID)
	}
	return map[string]any{"orderId": a.OrderID, "shipment": "SHP-" + a.OrderID, "items": len(a.LineItems)}, nil
}

func (b *orderBook) schedule(_ context.Context, a generated.ScheduleOrderDispatchArgs) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.orders[a.OrderID]
	if !ok {
		return nil, fmt.Errorf("no order %s", a.OrderID)
	}
	o.Status = "dispatched"
	return map[string]string{"orderId": a.OrderID, "date": a.DispatchDate}, nil
}

// updateContact records the delivery contact of an order: its email address
// or its phone number, whichever branch the call holds.
func (b *orderBook) updateContact(_ context.Context, a generated.UpdateDeliveryContactArgs) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.orders[a.OrderID]; !ok {
		return nil, fmt.Errorf("no order %s", a.OrderID)
	}
	if e, ok := a.Contact.Email(); ok {
		return map[string]string{"orderId": a.OrderID, "email": e.Email}, nil
	}
	p, _ := a.Contact.Phone()
	return map[string]string{"orderId": a.OrderID, "phone": p.Phone}, nil
}

// snapshot returns each order's status, for printing.
func (b *orderBook) snapshot() map[string]order {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]order{}
	for id, o := range b.orders {
		out[id] = *o
	}
	return out
}

// errSuspended is the refund policy's denial; it stays in the service's
// logs (the model sees only "unauthorized").
var errSuspended = errors.New("the agent is suspended from refunds")

// refundPolicy denies refunds to suspended agents. Resume runs it again, so
// a suspension between a request and its approval stops the refund.
func (b *orderBook) refundPolicy(_ context.Context, p gate.Principal, _ generated.RefundOrderArgs) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.suspended[p.ID] {
		return errSuspended
	}
	return nil
}

// refundNeedsApproval makes a refund above refundLimit wait for a second
// person of the finance role (the tool file's approvers), whoever asks.
func refundNeedsApproval(_ context.Context, _ gate.Principal, a generated.RefundOrderArgs) (bool, string) {
	return a.AmountInCents > refundLimit, "refunds above 50000 cents need the approval of a second person of the finance role"
}

// newGateway binds every generated tool to the order book and returns the
// registry, auditing to audit.
func newGateway(b *orderBook, audit io.Writer) (*gate.Registry, error) {
	logger := slog.New(slog.NewJSONHandler(audit, nil))
	return generated.NewRegistry(generated.Bindings{
		RefundOrder:           gate.Binding[generated.RefundOrderArgs]{Policy: b.refundPolicy, Execute: b.refund, NeedsApproval: refundNeedsApproval},
		GetOrderStatus:        gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: gate.AllowAll[generated.GetOrderStatusArgs], Execute: b.status},
		CancelOrder:           gate.Binding[generated.CancelOrderArgs]{Policy: gate.AllowAll[generated.CancelOrderArgs], Execute: b.cancel},
		CreateShipment:        gate.Binding[generated.CreateShipmentArgs]{Policy: gate.AllowAll[generated.CreateShipmentArgs], Execute: b.ship},
		ScheduleOrderDispatch: gate.Binding[generated.ScheduleOrderDispatchArgs]{Policy: gate.AllowAll[generated.ScheduleOrderDispatchArgs], Execute: b.schedule},
		UpdateDeliveryContact: gate.Binding[generated.UpdateDeliveryContactArgs]{Policy: gate.AllowAll[generated.UpdateDeliveryContactArgs], Execute: b.updateContact},
	}, gate.WithAuditor(gate.SlogAuditor(logger)))
}

// The principals: who the service authenticated. Nothing here comes from
// the model.
var (
	supportAgent = gate.Principal{ID: "sam", Tenant: "acme", Roles: []string{"support"}}
	supportTemp  = gate.Principal{ID: "sue", Tenant: "acme", Roles: []string{"support"}}
	financeAgent = gate.Principal{ID: "fay", Tenant: "acme", Roles: []string{"finance"}}
	financeLead  = gate.Principal{ID: "finn", Tenant: "acme", Roles: []string{"finance"}}
	otherTenant  = gate.Principal{ID: "zed", Tenant: "globex", Roles: []string{"finance"}}
)

// step is one model turn (one call, or a batch), or a person's step on a
// pending call: approve, reject or resume the call with ID of (the service
// resumes; who is then unused), or suspend who.
type step struct {
	label  string
	who    gate.Principal
	calls  []gate.Call
	batch  bool
	action string // "", "approve", "reject", "resume" or "suspend"
	of     string // the call ID of the pending call
}

func call(id, name, args string) gate.Call {
	return gate.Call{ID: id, Name: name, Args: []byte(args), Complete: true}
}

// script is the turns the demo plays.
func script() []step {
	return []step{
		{label: "support refunds 2500 cents of A-19", who: supportAgent, calls: []gate.Call{
			call("call_1", "refund_order", `{"orderId":"A-19","amountInCents":2500,"reason":"requested_by_customer"}`)}},
		{label: "the model replays call_1", who: supportAgent, calls: []gate.Call{
			call("call_1", "refund_order", `{"orderId":"A-19","amountInCents":2500,"reason":"requested_by_customer"}`)}},
		{label: "a new call refunds A-19 again", who: supportAgent, calls: []gate.Call{
			call("call_2", "refund_order", `{"orderId":"A-19","amountInCents":1700,"reason":"duplicate"}`)}},
		{label: "unknown name (case differs)", who: supportAgent, calls: []gate.Call{
			call("call_3", "Refund_Order", `{"orderId":"B-7","amountInCents":100,"reason":"duplicate"}`)}},
		{label: "invalid arguments (amount as a string, a field the model made up)", who: supportAgent, calls: []gate.Call{
			call("call_4", "refund_order", `{"orderId":"B-7","amountInCents":"100","reason":"duplicate","approvedBy":"manager"}`)}},
		{label: "invalid JSON (duplicate member)", who: supportAgent, calls: []gate.Call{
			call("call_5", "refund_order", `{"orderId":"B-7","amountInCents":100,"reason":"duplicate","orderId":"A-19"}`)}},
		{label: "support refunds 75000 cents of B-7 (over the limit: it waits for approval)", who: supportAgent, calls: []gate.Call{
			call("call_6", "refund_order", `{"orderId":"B-7","amountInCents":75000,"reason":"fraudulent"}`)}},
		{label: "the model tries to approve by itself", who: supportAgent, calls: []gate.Call{
			call("call_6b", "refund_order", `{"orderId":"B-7","amountInCents":75000,"reason":"fraudulent","approved":true}`)}},
		{label: "support tries to approve call_6", who: supportAgent, action: "approve", of: "call_6"},
		{label: "finance of another tenant tries to approve call_6", who: otherTenant, action: "approve", of: "call_6"},
		{label: "the service resumes call_6 before anyone approved it", action: "resume", of: "call_6"},
		{label: "finance approves call_6", who: financeAgent, action: "approve", of: "call_6"},
		{label: "the service resumes call_6", action: "resume", of: "call_6"},
		{label: "the service resumes call_6 again", action: "resume", of: "call_6"},
		{label: "finance refunds 75000 cents of B-7 too", who: financeAgent, calls: []gate.Call{
			call("call_7", "refund_order", `{"orderId":"B-7","amountInCents":75000,"reason":"fraudulent"}`)}},
		{label: "finance approves its own call_7", who: financeAgent, action: "approve", of: "call_7"},
		{label: "the finance lead rejects call_7", who: financeLead, action: "reject", of: "call_7"},
		{label: "the service resumes call_7", action: "resume", of: "call_7"},
		{label: "another agent looks D-5 up and refunds 60000 cents of it, in one turn", who: supportTemp, batch: true, calls: []gate.Call{
			call("call_7b", "get_order_status", `{"orderId":"D-5"}`),
			call("call_7c", "refund_order", `{"orderId":"D-5","amountInCents":60000,"reason":"requested_by_customer"}`)}},
		{label: "the finance lead approves call_7c", who: financeLead, action: "approve", of: "call_7c"},
		{label: "the agent is suspended before the refund runs", who: supportTemp, action: "suspend"},
		{label: "the service resumes call_7c", action: "resume", of: "call_7c"},
		{label: "support calls a tool only operations may see", who: supportAgent, calls: []gate.Call{
			call("call_8", "schedule_order_dispatch", `{"order_id":"C-3","dispatch_date":"2026-03-02","amount_pence":450,"currency":"GBP"}`)}},
		{label: "a call cut off by the token limit", who: supportAgent, calls: []gate.Call{
			{ID: "call_9", Name: "refund_order", Args: []byte(`{"orderId":"C-3","amountIn`), Complete: false}}},
		{label: "a batch whose third call is invalid", who: supportAgent, batch: true, calls: []gate.Call{
			call("call_10", "get_order_status", `{"orderId":"C-3"}`),
			call("call_11", "refund_order", `{"orderId":"C-3","amountInCents":1500,"reason":"duplicate"}`),
			call("call_12", "refund_order", `{"orderId":"C-3","amountInCents":0,"reason":"duplicate"}`),
			call("call_13", "cancel_order", `{"orderId":"C-3","reason":"customer asked"}`)}},
		{label: "a batch with a duplicate call ID", who: supportAgent, batch: true, calls: []gate.Call{
			call("call_14", "get_order_status", `{"orderId":"C-3"}`),
			call("call_14", "refund_order", `{"orderId":"C-3","amountInCents":1500,"reason":"duplicate"}`)}},
		{label: "the corrected batch", who: supportAgent, batch: true, calls: []gate.Call{
			call("call_15", "get_order_status", `{"orderId":"C-3"}`),
			call("call_16", "refund_order", `{"orderId":"C-3","amountInCents":1500,"reason":"duplicate"}`)}},
		{label: "the status of a dispatched order: a typed result, checked", who: supportAgent, calls: []gate.Call{
			call("call_17", "get_order_status", `{"orderId":"D-4"}`)}},
		{label: "a result that breaks its schema is withheld", who: supportAgent, calls: []gate.Call{
			call("call_18", "get_order_status", `{"orderId":"E-5"}`)}},
	}
}

// outcome is what happened to one call.
type outcome struct {
	step     string
	callID   string
	tool     string
	code     toolerr.Code // gate.OK when it ran and succeeded
	executed bool
	action   string // the approval step, "" for a model's call
	detail   string // the result as JSON, or the refusal's toolerr JSON
}

// play runs the script against reg in one conversation and returns one
// outcome per call and per approval step; suspend acts on book.
func play(ctx context.Context, reg *gate.Registry, book *orderBook, steps []step) []outcome {
	var outs []outcome
	pending := map[string]string{} // call ID → pending ID
	for _, s := range steps {
		if s.action != "" {
			if o, ok := decide(ctx, reg, book, s, pending); ok {
				outs = append(outs, o)
			}
			continue
		}
		caller := gate.Caller{Principal: s.who, Scope: "conversation-1", RequestID: "req-" + s.calls[0].ID}
		var results []gate.Result
		if s.batch {
			results = reg.DispatchBatch(ctx, caller, s.calls, gate.BatchOptions{})
		} else {
			res, _ := reg.Dispatch(ctx, caller, s.calls[0]) // the error is res.Err
			results = []gate.Result{res}
		}
		for _, r := range results {
			if r.Approval != nil {
				pending[r.CallID] = r.Approval.PendingID
			}
			outs = append(outs, outcomeOf(s.label, r))
		}
	}
	return outs
}

// outcomeOf is what happened to one call.
func outcomeOf(label string, r gate.Result) outcome {
	o := outcome{step: label, callID: r.CallID, tool: r.Tool, code: gate.OK, executed: r.Executed}
	var b []byte
	if r.Err != nil {
		o.code = r.Err.Code
		b, _ = json.Marshal(r.Err)
	} else if r.JSON != nil {
		b = r.JSON // a typed result: the checked bytes
	} else {
		b, _ = json.Marshal(r.Value)
	}
	o.detail = string(b)
	return o
}

// decide plays a person's step; suspend has no outcome.
func decide(ctx context.Context, reg *gate.Registry, book *orderBook, s step, pending map[string]string) (outcome, bool) {
	id := pending[s.of]
	var err error
	switch s.action {
	case "suspend":
		book.suspend(s.who.ID)
		return outcome{}, false
	case "approve":
		err = reg.Approve(ctx, s.who, id)
	case "reject":
		err = reg.Reject(ctx, s.who, id, "B-7 is being refunded already")
	case "resume":
		res, _ := reg.Resume(ctx, id) // the error is res.Err
		o := outcomeOf(s.label, res)
		o.callID, o.action = s.of, s.action
		return o, true
	}
	done := map[string]string{"approve": "approved", "reject": "rejected"}[s.action]
	o := outcome{step: s.label, callID: s.of, tool: "refund_order", code: gate.OK, action: s.action, detail: `"` + done + ` by ` + s.who.ID + `"`}
	var te *toolerr.Error
	if errors.As(err, &te) {
		o.code = te.Code
		b, _ := json.Marshal(te)
		o.detail = string(b)
	}
	return o, true
}

// report writes the outcomes and the final order book for a reader.
func report(w io.Writer, outs []outcome, book *orderBook) {
	last := ""
	for _, o := range outs {
		if o.step != last {
			fmt.Fprintf(w, "\n%s\n", o.step)
			last = o.step
		}
		verdict := "ran: "
		switch {
		case o.code == toolerr.ApprovalRequired:
			verdict = "awaits approval (nothing ran), relayed to the user by the model: "
		case o.action != "" && o.code != gate.OK && !o.executed:
			verdict = fmt.Sprintf("%s refused (%s, %s), nothing ran: ", o.action, o.code, o.code.Category())
		case o.action == "approve" || o.action == "reject":
			verdict = o.action + ": "
		case o.code != gate.OK:
			verdict = fmt.Sprintf("refused (%s, %s), sent to the model: ", o.code, o.code.Category())
			if o.executed {
				verdict = fmt.Sprintf("ran and failed (%s, %s), sent to the model: ", o.code, o.code.Category())
			}
		}
		if o.action == "resume" && o.code == gate.OK {
			verdict = "resumed and " + verdict
		}
		fmt.Fprintf(w, "  %s %q → %s%s\n", o.callID, o.tool, verdict, o.detail)
	}
	snap := book.snapshot()
	ids := make([]string, 0, len(snap))
	for id := range snap {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	fmt.Fprintf(w, "\norder book:\n")
	for _, id := range ids {
		o := snap[id]
		fmt.Fprintf(w, "  %-5s paid %6d  refunded %6d  %s\n", id, o.PaidCents, o.RefundedCents, o.Status)
	}
}

func main() {
	book := newOrderBook()
	reg, err := newGateway(book, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var names []string
	for _, t := range reg.Tools(supportAgent) {
		names = append(names, t.Name)
	}
	fmt.Printf("tools exported to the support agent's model: %s\n", strings.Join(names, ", "))
	report(os.Stdout, play(context.Background(), reg, book, script()), book)
}
