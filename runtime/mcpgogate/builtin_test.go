package mcpgogate

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// handed is what a plain mcp-go handler got: orderId from the map mcp-go
// decoded, and from the arguments bound to a struct (BindArguments, that
// is encoding/json: case-insensitive, the last duplicate wins).
type handed struct{ fromMap, bound any }

// builtinServer serves the MCP definitions through mcp-go alone, with its
// own input validation on (WithInputSchemaValidation). With open, each
// input schema is served without its top-level additionalProperties, as
// schemas are usually written (schemas/ here, mcp.NewTool's).
func builtinServer(t testing.TB, open bool) (url string, seen func() []handed) {
	t.Helper()
	reg, _ := mcptest.NewRegistry(t)
	defs, err := reg.Definitions(mcptest.Principals["tok-alice"], provider.MCP)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []handed
	srv := server.NewMCPServer("builtin", "v0", server.WithInputSchemaValidation())
	for _, def := range defs {
		tool, err := Tool(def)
		if err != nil {
			t.Fatal(err)
		}
		if open {
			var schema map[string]any
			if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil {
				t.Fatal(err)
			}
			delete(schema, "additionalProperties")
			tool.RawInputSchema = marshal(t, schema)
		}
		srv.AddTool(tool, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var bound struct {
				OrderID any `json:"orderId"`
			}
			if err := req.BindArguments(&bound); err != nil {
				return nil, err
			}
			mu.Lock()
			defer mu.Unlock()
			got = append(got, handed{req.GetArguments()["orderId"], bound.OrderID})
			return mcp.NewToolResultText("ran"), nil
		})
	}
	hs := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp", func() []handed {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// TestBuiltinValidationDiffers sends the same calls to mcp-go's own input
// validation, on the generated definitions and on open schemas, and to
// the gate. The gate refuses each before any executor runs. mcp-go's
// validation checks the map it decoded: it lets a duplicate key through
// whatever the schema (the handler gets the last value), and with an open
// schema an unknown member and a case variant too (a struct binding then
// reads the variant's value). The table in runtime/INTEGRATIONS.md is this test's result.
func TestBuiltinValidationDiffers(t *testing.T) {
	cases := []struct {
		name, tool, args string
		gate             toolerr.Code
		runs, runsOpen   *handed // what the handler got, nil when mcp-go refused the call
	}{
		{name: "unknown member", tool: "get_order_status", args: `{"orderId":"BOB-1","tenant":"ALICE"}`, gate: toolerr.InvalidArguments,
			runsOpen: &handed{"BOB-1", "BOB-1"}},
		{name: "duplicate key", tool: "get_order_status", args: `{"orderId":"BOB-1","orderId":"ALICE-1"}`, gate: toolerr.InvalidJSON,
			runs: &handed{"ALICE-1", "ALICE-1"}, runsOpen: &handed{"ALICE-1", "ALICE-1"}},
		{name: "case-variant key", tool: "get_order_status", args: `{"orderId":"BOB-1","OrderId":"ALICE-1"}`, gate: toolerr.InvalidArguments,
			runsOpen: &handed{"BOB-1", "ALICE-1"}},
		{name: "number sent as a string", tool: "schedule_order_dispatch", args: strings.Replace(mcptest.DispatchArgs, `500`, `"500"`, 1), gate: toolerr.InvalidArguments},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []struct {
				open bool
				want *handed
			}{{false, tc.runs}, {true, tc.runsOpen}} {
				url, seen := builtinServer(t, mode.open)
				got := mcpGoHTTP(t, url, "tok-alice").call(t, tc.tool, tc.args)
				ran := seen()
				switch {
				case mode.want == nil && (len(ran) != 0 || !got.isError):
					t.Errorf("open %v: mcp-go's validation let the call through: %+v %v", mode.open, got, ran)
				case mode.want != nil && (len(ran) != 1 || got.isError || got.rpcError != ""):
					t.Errorf("open %v: mcp-go's validation refused the call: %+v", mode.open, got)
				case mode.want != nil && tc.tool == "get_order_status" && ran[0] != *mode.want:
					t.Errorf("open %v: the handler got %+v, want %+v", mode.open, ran[0], *mode.want)
				}
			}
			reg, r := mcptest.NewRegistry(t)
			gated := mcpGoHTTP(t, serveHTTP(t, reg, nil), "tok-alice").call(t, tc.tool, tc.args)
			var te toolerr.Error
			if !gated.isError || len(gated.texts) != 1 || json.Unmarshal([]byte(gated.texts[0]), &te) != nil || te.Code != tc.gate {
				t.Errorf("the gate: %+v, want an isError result with %s", gated, tc.gate)
			}
			if n := r.Count(); len(n) != 0 {
				t.Errorf("the gate ran %v", n)
			}
		})
	}
}
