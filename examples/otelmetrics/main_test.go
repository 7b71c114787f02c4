package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
)

// TestMetricsEndpoint runs the demo traffic and scrapes /metrics over
// loopback HTTP: the series the query in runtime/INTEGRATIONS.md reads are there, with the
// tool, its schema version and the outcome as labels.
func TestMetricsEndpoint(t *testing.T) {
	h, reg, err := setup()
	if err != nil {
		t.Fatal(err)
	}
	traffic(reg)
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	refund := `toolgate_tool="refund_order",toolgate_tool_version="` + generated.RefundOrderSpec.Version + `"`
	for _, want := range []string{
		`toolgate_calls_total{gen_ai_request_model="model-a",otel_scope_name="github.com/toolgate/toolgate/runtime/otelgate",otel_scope_schema_url="",otel_scope_version="",toolgate_category="none",toolgate_dialect="anthropic",toolgate_outcome="ok",` + refund + `} 1`,
		`toolgate_calls_total{gen_ai_request_model="model-a",otel_scope_name="github.com/toolgate/toolgate/runtime/otelgate",otel_scope_schema_url="",otel_scope_version="",toolgate_category="validation",toolgate_dialect="anthropic",toolgate_outcome="invalid_arguments",` + refund + `} 1`,
		`toolgate_calls_total{gen_ai_request_model="model-b",otel_scope_name="github.com/toolgate/toolgate/runtime/otelgate",otel_scope_schema_url="",otel_scope_version="",toolgate_category="validation",toolgate_dialect="openai-chat",toolgate_outcome="invalid_json",toolgate_tool="get_order_status"`,
		`toolgate_call_duration_seconds_count{gen_ai_request_model="model-a",otel_scope_name="github.com/toolgate/toolgate/runtime/otelgate",otel_scope_schema_url="",otel_scope_version="",toolgate_dialect="anthropic",toolgate_step="execute",` + refund + `} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", body)
	}
}
