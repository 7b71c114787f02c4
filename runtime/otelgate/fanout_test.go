package otelgate

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestFanOutWithSlog: behind gate.FanOut with a SlogAuditor, the
// OpenTelemetry auditor still gets its dispatch hook (every call span is
// the child of a dispatch span) and its repair events (the attempts
// histogram), while the slog auditor logs every call; a store failure's
// span carries its cause, the store error's class.
func TestFanOutWithSlog(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	a, err := New(mp, tp)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	both := gate.FanOut(gate.SlogAuditor(slog.New(slog.NewJSONHandler(&log, nil))), a)
	reg, down := newRegistry(t, both, nil), newRegistry(t, both, downStore{})
	ctx := context.Background()
	m1 := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"support"}}, Scope: "conv-1", Model: "m1"}
	if _, err := reg.DispatchWithRepair(ctx, m1, refund("c1", bad, gate.Anthropic), gate.Repair{MaxAttempts: 3,
		Next: func(context.Context, gate.Call, *toolerr.Error) (gate.Call, error) {
			return refund("c1'", good, gate.Anthropic), nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	down.Dispatch(ctx, m1, refund("c2", good, gate.Anthropic))

	parents := map[string]bool{}
	var calls []sdktrace.ReadOnlySpan
	for _, s := range spans.Ended() {
		if s.Name() == "toolgate.dispatch" {
			parents[s.SpanContext().SpanID().String()] = true
		} else {
			calls = append(calls, s)
		}
	}
	if len(parents) != 3 || len(calls) != 3 {
		t.Fatalf("%d dispatch spans, %d call spans; want 3 and 3", len(parents), len(calls))
	}
	for _, s := range calls {
		if !parents[s.Parent().SpanID().String()] {
			t.Errorf("call span %v is not a dispatch span's child", s.Attributes())
		}
	}
	if last := calls[2]; !slices.Contains(last.Attributes(), KeyCause.String(gate.CauseStoreOther)) {
		t.Errorf("store failure span %v, want %s=%s", last.Attributes(), KeyCause, gate.CauseStoreOther)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	repairs := 0
	for _, line := range flatten(t, rm) {
		if strings.HasPrefix(line, "toolgate.repair.attempts ") {
			repairs++
		}
	}
	if repairs != 1 {
		t.Errorf("%d repair data points, want 1", repairs)
	}
	var codes []string
	for _, line := range strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n") {
		var v struct{ Code string }
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("log line %s: %v", line, err)
		}
		codes = append(codes, v.Code)
	}
	if want := []string{"invalid_arguments", "ok", "replay_unavailable"}; !slices.Equal(codes, want) {
		t.Errorf("logged codes %v, want %v", codes, want)
	}
}
