// Package mcptest is the fixture the MCP gates' tests share (mcpgate and
// mcpgogate): the generated tools bound to executors that count their
// runs, and the principals the tests authenticate as, by bearer token.
package mcptest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Principals are the principals, by bearer token. Each tenant may only
// look up its own orders (the policy of get_order_status).
var Principals = map[string]gate.Principal{
	"tok-alice": {ID: "alice", Tenant: "ALICE", Roles: []string{"support", "finance", "operations"}},
	"tok-bob":   {ID: "bob", Tenant: "BOB", Roles: []string{"support"}},
	"tok-olga":  {ID: "olga", Tenant: "OLGA", Roles: []string{"operations"}},
}

// Tokens are the keys of Principals, sorted.
var Tokens = slices.Sorted(maps.Keys(Principals))

// DispatchArgs are valid arguments of schedule_order_dispatch.
const DispatchArgs = `{"order_id":"A-19","dispatch_date":"2025-06-01","amount_pence":500,"currency":"GBP","note":null}`

// StatusArgs are the arguments of get_order_status for order.
func StatusArgs(order string) string { return fmt.Sprintf(`{"orderId":%q}`, order) }

// Runs counts executor runs per tool.
type Runs struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *Runs) add(tool string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n[tool]++
}

// Count returns the runs so far, by tool; a tool that never ran is absent.
func (r *Runs) Count() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.n)
}

func spy[A any](r *Runs, name string) gate.Binding[A] {
	return gate.Binding[A]{Policy: gate.AllowAll[A], Execute: func(context.Context, A) (any, error) {
		r.add(name)
		return map[string]any{"tool": name}, nil
	}}
}

// withoutApproval lets a refund run without approval: refund_order asks
// its binding whether a call needs one.
func withoutApproval[A any](b gate.Binding[A]) gate.Binding[A] {
	b.NeedsApproval = func(context.Context, gate.Principal, A) (bool, string) { return false, "" }
	return b
}

// NewRegistry binds the generated tools with opts, each executor counted
// in the Runs it returns; get_order_status lets a principal look up its
// own tenant's orders only, and returns a typed result echoing the order.
func NewRegistry(t testing.TB, opts ...gate.Option) (*gate.Registry, *Runs) {
	t.Helper()
	r := &Runs{n: map[string]int{}}
	reg, err := generated.NewRegistry(generated.Bindings{
		CancelOrder:    spy[generated.CancelOrderArgs](r, "cancel_order"),
		CreateShipment: spy[generated.CreateShipmentArgs](r, "create_shipment"),
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{
			Policy: func(_ context.Context, p gate.Principal, a generated.GetOrderStatusArgs) error {
				if !strings.HasPrefix(a.OrderID, p.Tenant+"-") {
					return errors.New("another tenant's order")
				}
				return nil
			},
			Execute: func(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				r.add("get_order_status")
				return generated.GetOrderStatusResult{OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-01-02T09:30:00Z"}, nil
			},
		},
		RefundOrder:           withoutApproval(spy[generated.RefundOrderArgs](r, "refund_order")),
		ScheduleOrderDispatch: spy[generated.ScheduleOrderDispatchArgs](r, "schedule_order_dispatch"),
		UpdateDeliveryContact: spy[generated.UpdateDeliveryContactArgs](r, "update_delivery_contact"),
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, r
}
