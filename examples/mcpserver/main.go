// Command mcpserver serves the tools generated in
// github.com/toolgate/toolgate/generated over MCP (streamable HTTP), behind
// the toolgate gate, with runtime/mcpgate. Point any MCP client at it:
//
//	go run ./mcpserver -addr 127.0.0.1:8080
//	# MCP endpoint http://127.0.0.1:8080/mcp, header
//	# "Authorization: Bearer support-demo" (or operations-demo, or admin-demo)
//
// Each bearer token is a principal with its own roles, so each sees its own
// tools/list: support-demo sees five tools, operations-demo three,
// admin-demo all six. The executors are fakes that answer from a fixed
// order book; the audit log (one slog JSON line per call) goes to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/mcpgate"
	"github.com/toolgate/toolgate/runtime/opt"
)

// principals are the demo bearer tokens. A real service verifies its own
// tokens (OAuth, sessions) and maps them to its principals.
var principals = map[string]gate.Principal{
	"support-demo":    {ID: "sam", Tenant: "demo", Roles: []string{"support"}},
	"operations-demo": {ID: "oli", Tenant: "demo", Roles: []string{"operations"}},
	"admin-demo":      {ID: "ada", Tenant: "demo", Roles: []string{"support", "finance", "operations"}},
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	flag.Parse()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	h, err := newHandler(slog.New(slog.NewJSONHandler(os.Stderr, nil)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("MCP endpoint http://%s/mcp; bearer tokens: support-demo, operations-demo, admin-demo\n", l.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(l))
}

// newHandler returns the HTTP handler: /mcp, behind the SDK's bearer-token
// middleware, with the principal of each request taken from its token.
func newHandler(logger *slog.Logger) (http.Handler, error) {
	reg, err := generated.NewRegistry(bindings(), gate.WithAuditor(gate.SlogAuditor(logger)))
	if err != nil {
		return nil, err
	}
	byID := map[string]gate.Principal{}
	for _, p := range principals {
		byID[p.ID] = p
	}
	h, err := mcpgate.Handler(reg, func(_ context.Context, req mcp.Request) (gate.Caller, error) {
		info := req.GetExtra().TokenInfo
		if info == nil {
			return gate.Caller{}, errors.New("no verified token")
		}
		return gate.Caller{Principal: byID[info.UserID], Scope: req.GetSession().ID()}, nil
	}, &mcpgate.Options{Implementation: &mcp.Implementation{Name: "toolgate-demo", Version: "v0.0.0"}})
	if err != nil {
		return nil, err
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		p, ok := principals[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.ID, Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", auth.RequireBearerToken(verify, nil)(h))
	return mux, nil
}

func bindings() generated.Bindings {
	return generated.Bindings{
		CancelOrder: gate.Binding[generated.CancelOrderArgs]{Policy: gate.AllowAll[generated.CancelOrderArgs],
			Execute: func(_ context.Context, a generated.CancelOrderArgs) (any, error) {
				return map[string]any{"orderId": a.OrderID, "status": "cancelled"}, nil
			}},
		CreateShipment: gate.Binding[generated.CreateShipmentArgs]{Policy: gate.AllowAll[generated.CreateShipmentArgs],
			Execute: func(_ context.Context, a generated.CreateShipmentArgs) (any, error) {
				return map[string]any{"orderId": a.OrderID, "shipment": "SH-" + a.OrderID}, nil
			}},
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: gate.AllowAll[generated.GetOrderStatusArgs],
			Execute: func(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				return generated.GetOrderStatusResult{
					OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-01-02T09:30:00Z",
					Carrier: opt.Some(generated.GetOrderStatusResultCarrierDpd), TrackingRef: opt.Some("DPD0042"),
				}, nil
			}},
		RefundOrder: gate.Binding[generated.RefundOrderArgs]{Policy: gate.AllowAll[generated.RefundOrderArgs],
			Execute: func(_ context.Context, a generated.RefundOrderArgs) (any, error) {
				return map[string]any{"orderId": a.OrderID, "refundedCents": a.AmountInCents}, nil
			},
			// Large refunds wait for a second person (approval_required).
			NeedsApproval: func(_ context.Context, _ gate.Principal, a generated.RefundOrderArgs) (bool, string) {
				return a.AmountInCents > 50000, "refunds above 50000 cents need the approval of a second person of the finance role"
			}},
		ScheduleOrderDispatch: gate.Binding[generated.ScheduleOrderDispatchArgs]{Policy: gate.AllowAll[generated.ScheduleOrderDispatchArgs],
			Execute: func(_ context.Context, a generated.ScheduleOrderDispatchArgs) (any, error) {
				return map[string]any{"orderId": a.OrderID, "scheduled": true}, nil
			}},
		UpdateDeliveryContact: gate.Binding[generated.UpdateDeliveryContactArgs]{Policy: gate.AllowAll[generated.UpdateDeliveryContactArgs],
			Execute: func(_ context.Context, a generated.UpdateDeliveryContactArgs) (any, error) {
				if e, ok := a.Contact.Email(); ok {
					return map[string]any{"order_id": a.OrderID, "email": e.Email}, nil
				}
				p, _ := a.Contact.Phone()
				return map[string]any{"order_id": a.OrderID, "phone": p.Phone}, nil
			}},
	}
}
