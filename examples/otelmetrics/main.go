// Command otelmetrics records a gate's calls with runtime/otelgate and
// exports the metrics through the OpenTelemetry Prometheus exporter on a
// loopback port:
//
//	go run ./otelmetrics -addr 127.0.0.1:9464
//	curl -s http://127.0.0.1:9464/metrics | grep toolgate_
//
// It dispatches a little demo traffic first (good and bad calls, from two
// models, in two dialects), then serves /metrics until stopped. Point a
// Prometheus at it and ask for the validation failure rate per tool and
// schema version:
//
//	sum by (toolgate_tool, toolgate_tool_version) (rate(toolgate_calls_total{toolgate_outcome=~"invalid_json|invalid_arguments"}[5m]))
//	  / sum by (toolgate_tool, toolgate_tool_version) (rate(toolgate_calls_total[5m]))
//
// Spans go to a no-op tracer provider here; a service passes its own
// (an OTLP exporter, say).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	promclient "github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/otelgate"
	"go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/trace/noop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9464", "listen address of /metrics")
	flag.Parse()
	h, reg, err := setup()
	if err != nil {
		log.Fatal(err)
	}
	traffic(reg)
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("metrics on http://%s/metrics\n", l.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(l))
}

// setup builds the registry, audited by otelgate through a Prometheus
// exporter, and the /metrics handler.
func setup() (http.Handler, *gate.Registry, error) {
	promReg := promclient.NewRegistry()
	exporter, err := prometheus.New(prometheus.WithRegisterer(promReg))
	if err != nil {
		return nil, nil, err
	}
	audit, err := otelgate.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter)), noop.NewTracerProvider())
	if err != nil {
		return nil, nil, err
	}
	reg, err := generated.NewRegistry(generated.Bindings{
		CancelOrder:    ok[generated.CancelOrderArgs](),
		CreateShipment: ok[generated.CreateShipmentArgs](),
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: gate.AllowAll[generated.GetOrderStatusArgs],
			Execute: func(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				return generated.GetOrderStatusResult{OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatusPaid, UpdatedAt: "2026-01-02T09:30:00Z"}, nil
			}},
		RefundOrder:           withApproval(ok[generated.RefundOrderArgs]()),
		ScheduleOrderDispatch: ok[generated.ScheduleOrderDispatchArgs](),
		UpdateDeliveryContact: ok[generated.UpdateDeliveryContactArgs](),
	}, gate.WithAuditor(audit))
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(promReg, promhttp.HandlerOpts{}))
	return mux, reg, nil
}

func ok[A any]() gate.Binding[A] {
	return gate.Binding[A]{Policy: gate.AllowAll[A], Execute: func(context.Context, A) (any, error) { return "done", nil }}
}

// withApproval makes refunds above 50,000 cents wait for a second person
// (approval_required), as refund_order's x-toolgate approval asks.
func withApproval(b gate.Binding[generated.RefundOrderArgs]) gate.Binding[generated.RefundOrderArgs] {
	b.NeedsApproval = func(_ context.Context, _ gate.Principal, a generated.RefundOrderArgs) (bool, string) {
		return a.AmountInCents > 50000, "refunds above 50000 cents need the approval of a second person of the finance role"
	}
	return b
}

// traffic dispatches the demo calls.
func traffic(reg *gate.Registry) {
	p := gate.Principal{ID: "agent-1", Roles: []string{"support"}}
	calls := []struct {
		model, tool, args string
		dialect           gate.Dialect
	}{
		{"model-a", "refund_order", `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`, gate.Anthropic},
		{"model-a", "refund_order", `{"orderId":"A-20","amountInCents":"2500","reason":"duplicate"}`, gate.Anthropic},
		{"model-b", "refund_order", `{"orderId":"A-21","amountInCents":100001,"reason":"duplicate"}`, gate.OpenAIChat},
		{"model-b", "get_order_status", `{"orderId":"A-19"}`, gate.OpenAIChat},
		{"model-b", "get_order_status", `{"orderId":"A-19",}`, gate.OpenAIChat},
	}
	for i, c := range calls {
		reg.Dispatch(context.Background(), gate.Caller{Principal: p, Scope: "demo", Model: c.model},
			gate.Call{ID: fmt.Sprint("call-", i), Name: c.tool, Args: []byte(c.args), Complete: true, Dialect: c.dialect})
	}
}
