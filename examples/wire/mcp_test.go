package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/mcpgate"
	"github.com/toolgate/toolgate/runtime/opt"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// allRoles sees every tool of the generated package.
var allRoles = gate.Principal{ID: "agent-1", Tenant: "t1", Roles: []string{"support", "finance", "operations"}}

// supportOnly does not see schedule_order_dispatch (operations).
var supportOnly = gate.Principal{ID: "agent-2", Tenant: "t1", Roles: []string{"support"}}

// spies counts executor runs per tool.
type spies struct {
	mu   sync.Mutex
	runs map[string]int
	// statusResult, when set, is what get_order_status returns.
	statusResult func(generated.GetOrderStatusArgs) generated.GetOrderStatusResult
	// contacts are the arguments update_delivery_contact ran with.
	contacts []generated.UpdateDeliveryContactArgs
}

// status is get_order_status's result: a dispatched order with its
// carrier and tracking reference, unless statusResult says otherwise.
func (s *spies) status(a generated.GetOrderStatusArgs) generated.GetOrderStatusResult {
	if s.statusResult != nil {
		return s.statusResult(a)
	}
	return generated.GetOrderStatusResult{
		OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-01-02T09:30:00Z",
		Carrier: opt.Some(generated.GetOrderStatusResultCarrierDpd), TrackingRef: opt.Some("DPD0042"),
	}
}

func (s *spies) count() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.runs)
}

func spy[A any](s *spies, name string) gate.Binding[A] {
	return gate.Binding[A]{
		Policy: gate.AllowAll[A],
		Execute: func(ctx context.Context, a A) (any, error) {
			s.mu.Lock()
			s.runs[name]++
			s.mu.Unlock()
			return map[string]any{"tool": name, "done": true}, nil
		},
	}
}

// noApproval lets every call of b run without approval: these tests are
// about the wire (refundgateway shows approvals).
func noApproval[A any](b gate.Binding[A]) gate.Binding[A] {
	b.NeedsApproval = func(context.Context, gate.Principal, A) (bool, string) { return false, "" }
	return b
}

func newSpiedRegistry(t *testing.T) (*gate.Registry, *spies) {
	t.Helper()
	s := &spies{runs: map[string]int{}}
	reg, err := generated.NewRegistry(generated.Bindings{
		CancelOrder:    spy[generated.CancelOrderArgs](s, "cancel_order"),
		CreateShipment: spy[generated.CreateShipmentArgs](s, "create_shipment"),
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{
			Policy: gate.AllowAll[generated.GetOrderStatusArgs],
			Execute: func(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				s.mu.Lock()
				s.runs["get_order_status"]++
				s.mu.Unlock()
				return s.status(a), nil
			},
		},
		RefundOrder:           noApproval(spy[generated.RefundOrderArgs](s, "refund_order")),
		ScheduleOrderDispatch: spy[generated.ScheduleOrderDispatchArgs](s, "schedule_order_dispatch"),
		UpdateDeliveryContact: s.contactBinding(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg, s
}

// mcpDefs maps every tool name to its generated MCP definition.
func mcpDefs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tool := range tools {
		def, ok := Find(tool.defs, provider.MCP)
		if !ok {
			t.Fatalf("%s has no MCP definition", tool.name)
		}
		out[tool.name] = def.JSON
	}
	return out
}

// syncBuffer is a bytes.Buffer safe for the transport's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// connect serves reg for c over MCP and connects a client to it over an
// in-memory transport. The client's side of the transport logs every
// message it reads to the returned buffer ("read: {json}" lines).
func connect(t *testing.T, srv *mcp.Server) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	log := &syncBuffer{}
	client := mcp.NewClient(&mcp.Implementation{Name: "wire-test", Version: "v0.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: log}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, log
}

func connectGate(t *testing.T, reg *gate.Registry, p gate.Principal) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	srv, err := mcpgate.NewServer(reg, func(context.Context, mcp.Request) (gate.Caller, error) {
		return gate.Caller{Principal: p, Scope: "conversation-1"}, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, srv)
}

// wireListedTools returns the raw tools of the last tools/list result the
// client read, by name.
func wireListedTools(t *testing.T, log string) map[string]json.RawMessage {
	t.Helper()
	var found map[string]json.RawMessage
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "read: ")
		if !ok {
			continue
		}
		var msg struct {
			Result struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Result.Tools == nil {
			continue
		}
		found = map[string]json.RawMessage{}
		for _, raw := range msg.Result.Tools {
			var n struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(raw, &n); err != nil {
				t.Fatal(err)
			}
			found[n.Name] = raw
		}
	}
	if found == nil {
		t.Fatalf("no tools/list result on the wire:\n%s", log)
	}
	return found
}

func visibleNames(reg *gate.Registry, p gate.Principal) []string {
	var out []string
	for _, tool := range reg.Tools(p) {
		out = append(out, tool.Name)
	}
	return out
}

// TestMCPToolsList lists the tools of a real mcp.Server, built with
// mcpgate.NewServer from the generated MCP definitions, through a real
// mcp.Client: each tools/list entry that crossed the transport equals the
// generated definition as a JSON value and keeps its key order (the raw
// input schema is sent as it is), and the tool set is the principal's.
func TestMCPToolsList(t *testing.T) {
	defs := mcpDefs(t)
	for _, p := range []gate.Principal{allRoles, supportOnly} {
		t.Run(strings.Join(p.Roles, "+"), func(t *testing.T) {
			reg, runs := newSpiedRegistry(t)
			cs, log := connectGate(t, reg, p)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := visibleNames(reg, p)
			if p.ID == allRoles.ID && len(want) != len(tools) {
				t.Fatalf("principal sees %v, want all %d tools", want, len(tools))
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
				// What the client application sees, decoded by the SDK.
				b, err := json.Marshal(tool)
				if err != nil {
					t.Fatal(err)
				}
				assertSameValue(t, tool.Name+" (decoded by the client)", b, []byte(defs[tool.Name]))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("tools/list names %v, want %v", got, want)
			}
			wire := wireListedTools(t, log.String())
			if len(wire) != len(want) {
				t.Errorf("%d tools on the wire, want %d", len(wire), len(want))
			}
			for _, name := range want {
				raw, ok := wire[name]
				if !ok {
					t.Errorf("%s not on the wire", name)
					continue
				}
				assertSameValue(t, name+" on the wire", raw, []byte(defs[name]))
				// The tool object's own members come out in the order of
				// the SDK's Tool struct fields; the input schema, sent as
				// json.RawMessage, keeps its order at every level.
				gotSchema, _ := member(t, raw, "inputSchema")
				wantSchema, _ := member(t, []byte(defs[name]), "inputSchema")
				assertOrderKept(t, name+" inputSchema on the wire", gotSchema, wantSchema)
				assertSameBytes(t, name+" inputSchema on the wire", gotSchema, wantSchema)
			}
			if n := runs.count(); len(n) != 0 {
				t.Errorf("listing ran executors: %v", n)
			}
		})
	}
}

// TestMCPCallTool sends tools/call through a real client to a real server
// whose tools are dispatched through the gate. Argument errors come back
// as an isError result carrying the toolerr JSON, so that the model can
// repair the call; names that resolve to no visible tool are JSON-RPC
// invalid-params errors (-32602), as the MCP specification says; nothing
// runs unless the call is valid.
func TestMCPCallTool(t *testing.T) {
	cases := []struct {
		name      string
		principal gate.Principal
		tool      string
		args      string
		// Exactly one of the following.
		rpcCode  int64        // a JSON-RPC error with this code
		toolCode toolerr.Code // an isError result with this toolerr code
		runs     map[string]int
	}{
		{name: "string-for-integer", principal: allRoles, tool: "refund_order",
			args:     `{"orderId":"A-19","amountInCents":"2500","reason":"duplicate"}`,
			toolCode: toolerr.InvalidArguments},
		{name: "over-maximum", principal: allRoles, tool: "refund_order",
			args:     `{"orderId":"A-19","amountInCents":100001,"reason":"duplicate"}`,
			toolCode: toolerr.InvalidArguments},
		{name: "unknown-member-in-array-item", principal: allRoles, tool: "create_shipment",
			args:     `{"order_id":"A-19","address":{"name":"Ann","line1":"1 High St","city":"Leeds","postcode":"LS1 1AA","country":"GB"},"line_items":[{"sku":"ABCD1","quantity":1,"gift":true}]}`,
			toolCode: toolerr.InvalidArguments},
		{name: "duplicate-member", principal: allRoles, tool: "refund_order",
			args:     `{"orderId":"A-19","amountInCents":2500,"amountInCents":99999,"reason":"duplicate"}`,
			toolCode: toolerr.InvalidJSON},
		{name: "unknown-tool", principal: allRoles, tool: "refund_orders",
			args: `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`, rpcCode: jsonrpc.CodeInvalidParams},
		{name: "case-folded-name", principal: allRoles, tool: "Refund_Order",
			args: `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`, rpcCode: jsonrpc.CodeInvalidParams},
		{name: "hidden-tool", principal: supportOnly, tool: "schedule_order_dispatch",
			args: `{"order_id":"A-19","dispatch_date":"2025-06-01","amount_pence":500,"currency":"GBP","note":null}`, rpcCode: jsonrpc.CodeInvalidParams},
		{name: "valid-refund", principal: allRoles, tool: "refund_order",
			args: `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`, runs: map[string]int{"refund_order": 1}},
		{name: "valid-shipment", principal: allRoles, tool: "create_shipment",
			args: `{"order_id":"A-19","address":{"name":"Ann","line1":"1 High St","city":"Leeds","postcode":"LS1 1AA","country":"GB"},"line_items":[{"sku":"ABCD1","quantity":2}],"service":"express"}`,
			runs: map[string]int{"create_shipment": 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, runs := newSpiedRegistry(t)
			cs, _ := connectGate(t, reg, tc.principal)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			switch {
			case tc.rpcCode != 0:
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) {
					t.Fatalf("got result %+v, error %v; want a JSON-RPC error %d", res, err, tc.rpcCode)
				}
				if rpcErr.Code != tc.rpcCode {
					t.Errorf("JSON-RPC error code %d (%s), want %d", rpcErr.Code, rpcErr.Message, tc.rpcCode)
				}
			case tc.toolCode != "":
				if err != nil {
					t.Fatalf("tools/call: %v; want an isError result", err)
				}
				if !res.IsError || len(res.Content) != 1 {
					t.Fatalf("result isError=%v with %d contents, want isError with one text", res.IsError, len(res.Content))
				}
				text, ok := res.Content[0].(*mcp.TextContent)
				if !ok {
					t.Fatalf("content is %T, want text", res.Content[0])
				}
				// The text is exactly the gate's error, as JSON: what the
				// same call gets from a registry directly.
				ref, _ := newSpiedRegistry(t)
				direct, derr := ref.Dispatch(context.Background(), gate.Caller{Principal: tc.principal, Scope: "ref"},
					gate.Call{Name: tc.tool, Args: []byte(tc.args), Complete: true, Dialect: gate.MCP})
				if derr == nil {
					t.Fatal("the reference dispatch accepted the call")
				}
				want, _ := json.Marshal(direct.Err)
				if text.Text != string(want) {
					t.Errorf("error text\n got %s\nwant %s", text.Text, want)
				}
				var te struct {
					Code toolerr.Code `json:"code"`
					Tool string       `json:"tool"`
				}
				if err := json.Unmarshal([]byte(text.Text), &te); err != nil || te.Code != tc.toolCode || te.Tool != tc.tool {
					t.Errorf("error text %s: code %q tool %q, want %q %q", text.Text, te.Code, te.Tool, tc.toolCode, tc.tool)
				}
			default:
				if err != nil {
					t.Fatalf("tools/call: %v", err)
				}
				if res.IsError {
					text := ""
					if len(res.Content) == 1 {
						if tc, ok := res.Content[0].(*mcp.TextContent); ok {
							text = tc.Text
						}
					}
					t.Fatalf("valid call refused: %s", text)
				}
			}
			got := runs.count()
			want := tc.runs
			if want == nil {
				want = map[string]int{}
			}
			if !maps.Equal(got, want) {
				t.Errorf("executor runs %v, want %v", got, want)
			}
		})
	}
}

// TestMCPTypedAddToolTrap documents what the SDK does when a tool is added
// with the generic mcp.AddTool instead of Server.AddTool: it resolves the
// input schema with github.com/google/jsonschema-go, validates the
// arguments itself and answers an invalid call before the handler runs, so
// the gate (and its toolerr error) never sees it; and it decodes the
// arguments into a map and applies the schema's defaults before the
// handler, so "absent" becomes the default value and duplicate members are
// merged away. mcpgate never adds tools with mcp.AddTool for these reasons.
func TestMCPTypedAddToolTrap(t *testing.T) {
	reg, runs := newSpiedRegistry(t)
	tool, err := mcpgate.MCPTool(mcpDefs(t)["refund_order"])
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []map[string]any
	calls := func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "v0.0.0"}, nil)
	mcp.AddTool(srv, tool, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		mu.Lock()
		seen = append(seen, in)
		mu.Unlock()
		args, _ := json.Marshal(in)
		res, err := reg.Dispatch(ctx, gate.Caller{Principal: allRoles, Scope: "typed"}, gate.Call{Name: req.Params.Name, Args: args, Complete: true, Dialect: gate.MCP})
		if err != nil {
			return nil, nil, err
		}
		return nil, res.Value, nil
	})
	cs, _ := connect(t, srv)
	ctx := context.Background()

	// An invalid call is answered by the SDK's validator.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: json.RawMessage(`{"orderId":"A-19","amountInCents":"2500","reason":"duplicate"}`)})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if !res.IsError || !strings.HasPrefix(text, `validating "arguments"`) {
		t.Errorf("typed AddTool: isError=%v text %q; want the SDK's own validation error", res.IsError, text)
	}
	if json.Valid([]byte(text)) {
		t.Errorf("typed AddTool answered with JSON %s; the documented trap is that it is not the toolerr error", text)
	}
	t.Logf("documented trap: the SDK answered the invalid call itself: %s", text)
	if n := len(calls()); n != 0 || len(runs.count()) != 0 {
		t.Errorf("handler saw %d calls, executors %v; want none", n, runs.count())
	}

	// A valid call without notifyCustomer reaches the handler with the
	// schema's default filled in.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: json.RawMessage(`{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`)})
	if err != nil || res.IsError {
		t.Fatalf("valid call: %v %+v", err, res)
	}
	if got := calls(); len(got) != 1 {
		t.Fatalf("handler saw %d calls, want 1", len(got))
	} else if v, ok := got[0]["notifyCustomer"]; !ok || v != true {
		t.Errorf("handler arguments %v: the documented trap (the SDK applies the default notifyCustomer: true) no longer holds", got[0])
	} else {
		t.Logf("documented trap: the model omitted notifyCustomer; the handler received %v", got[0])
	}

	// A duplicate member is merged away before the handler: the gate sees
	// one value, not the invalid JSON the model sent.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: json.RawMessage(`{"orderId":"A-19","amountInCents":2500,"amountInCents":99999,"reason":"duplicate"}`)})
	if got := calls(); err != nil || res.IsError || len(got) != 2 {
		t.Errorf("duplicate member: error %v, result %+v, handler saw %d calls; the documented trap (merged, accepted) no longer holds", err, res, len(got))
	} else {
		t.Logf("documented trap: a call with a duplicate member reached the handler as %v", got[1])
	}
}
