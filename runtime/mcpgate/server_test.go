package mcpgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// serve serves reg over streamable HTTP on a loopback port behind the
// SDK's bearer-token middleware; the principal of each request is the
// token's.
func serve(t testing.TB, reg *gate.Registry) string {
	t.Helper()
	byID := map[string]gate.Principal{}
	for _, p := range mcptest.Principals {
		byID[p.ID] = p
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		p, ok := mcptest.Principals[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.ID, Expiration: time.Now().Add(time.Hour)}, nil
	}
	h, err := Handler(reg, func(_ context.Context, req mcp.Request) (gate.Caller, error) {
		info := req.GetExtra().TokenInfo
		if info == nil {
			return gate.Caller{}, errors.New("no token")
		}
		return gate.Caller{Principal: byID[info.UserID], Scope: req.GetSession().ID()}, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(srv.Close)
	return srv.URL
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect connects an SDK client with token over streamable HTTP.
func connect(t testing.TB, url, token string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpgate-test", Version: "v0.0.0"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// listed returns the names of the tools p may see, and the tools as JSON
// values, from tools/list.
func listed(t testing.TB, cs *mcp.ClientSession) ([]string, map[string]any) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	values := map[string]any{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		values[tool.Name] = jsonValue(t, b)
	}
	return names, values
}

func jsonValue(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// wantDefinitions returns what Registry.Definitions gives p for MCP, by
// name, as JSON values, and the names in order.
func wantDefinitions(t testing.TB, reg *gate.Registry, p gate.Principal) ([]string, map[string]any) {
	t.Helper()
	defs, err := reg.Definitions(p, provider.MCP)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	values := map[string]any{}
	for _, d := range defs {
		v := jsonValue(t, []byte(d))
		name := v.(map[string]any)["name"].(string)
		names = append(names, name)
		values[name] = v
	}
	return names, values
}

// TestToolsListPerPrincipal: over loopback HTTP, each token's tools/list
// is exactly Registry.Definitions for its principal and MCP — different
// sets for different principals — and nothing runs.
func TestToolsListPerPrincipal(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	url := serve(t, reg)
	seen := map[string][]string{}
	for _, tok := range mcptest.Tokens {
		got, gotValues := listed(t, connect(t, url, tok))
		want, wantValues := wantDefinitions(t, reg, mcptest.Principals[tok])
		if !slices.Equal(got, want) {
			t.Errorf("%s: tools/list %v, want %v", tok, got, want)
		}
		if !reflect.DeepEqual(gotValues, wantValues) {
			t.Errorf("%s: the listed tools are not the MCP definitions:\n got %v\nwant %v", tok, gotValues, wantValues)
		}
		seen[tok] = got
	}
	if len(seen["tok-alice"]) != 6 || slices.Equal(seen["tok-bob"], seen["tok-olga"]) || slices.Contains(seen["tok-bob"], "schedule_order_dispatch") {
		t.Errorf("the principals' lists do not differ as their roles say: %v", seen)
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("listing ran executors: %v", n)
	}
}

// TestToolsListHints: tools/list says a destructive tool is one (its
// x-toolgate destructive, as annotations.destructiveHint) and says
// nothing of a tool without hints.
func TestToolsListHints(t *testing.T) {
	reg, _ := mcptest.NewRegistry(t)
	res, err := connect(t, serve(t, reg), "tok-alice").ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	destructive := map[string]bool{}
	for _, tool := range res.Tools {
		if tool.Annotations != nil && tool.Annotations.DestructiveHint != nil {
			destructive[tool.Name] = *tool.Annotations.DestructiveHint
		}
	}
	if want := map[string]bool{"cancel_order": true, "refund_order": true}; !maps.Equal(destructive, want) {
		t.Errorf("destructiveHint %v, want %v", destructive, want)
	}
}

// callTool calls a tool, without arguments when args is empty: the
// result, or the JSON-RPC error; any other error fails the test.
func callTool(t testing.TB, cs *mcp.ClientSession, name, args string) (*mcp.CallToolResult, *jsonrpc.Error) {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if args != "" {
		params.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			t.Fatalf("%s: %v, want a result or a JSON-RPC error", name, err)
		}
		return nil, rpcErr
	}
	return res, nil
}

// TestCallTool: valid calls run once; invalid arguments and refusals are
// isError results whose text and structured content are the gate's
// toolerr JSON; a hidden tool is refused exactly like a missing one (same
// code, same message up to the name) and nothing runs.
func TestCallTool(t *testing.T) {
	cases := []struct {
		name, token, tool, args string
		rpc                     bool         // a JSON-RPC invalid-params error
		code                    toolerr.Code // an isError result with this code
		runs                    map[string]int
	}{
		{name: "valid", token: "tok-bob", tool: "get_order_status", args: mcptest.StatusArgs("BOB-1"), runs: map[string]int{"get_order_status": 1}},
		{name: "absent arguments are {}", token: "tok-bob", tool: "get_order_status", args: "", code: toolerr.InvalidArguments},
		{name: "another tenant's order", token: "tok-bob", tool: "get_order_status", args: mcptest.StatusArgs("ALICE-1"), code: toolerr.Unauthorized},
		{name: "invalid arguments", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"bob-1"}`, code: toolerr.InvalidArguments},
		{name: "duplicate member", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"BOB-1","orderId":"BOB-2"}`, code: toolerr.InvalidJSON},
		{name: "visible", token: "tok-olga", tool: "schedule_order_dispatch", args: mcptest.DispatchArgs, runs: map[string]int{"schedule_order_dispatch": 1}},
		{name: "hidden", token: "tok-bob", tool: "schedule_order_dispatch", args: mcptest.DispatchArgs, rpc: true},
		{name: "missing", token: "tok-bob", tool: "schedule_order_dispatcher", args: mcptest.DispatchArgs, rpc: true},
	}
	msgs := map[string]string{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			cs := connect(t, serve(t, reg), tc.token)
			res, rpcErr := callTool(t, cs, tc.tool, tc.args)
			switch {
			case tc.rpc:
				if rpcErr == nil || rpcErr.Code != jsonrpc.CodeInvalidParams {
					t.Fatalf("result %+v, error %v; want invalid params", res, rpcErr)
				}
				msgs[tc.name] = strings.Replace(rpcErr.Message, fmt.Sprintf("%q", tc.tool), "NAME", 1)
			case tc.code != "":
				if rpcErr != nil || !res.IsError || len(res.Content) != 1 {
					t.Fatalf("result %+v, error %v; want an isError result", res, rpcErr)
				}
				ref, refRuns := mcptest.NewRegistry(t)
				args := tc.args
				if args == "" {
					args = "{}"
				}
				// The call's ID is its session's and its request's.
				id, _ := res.StructuredContent.(map[string]any)["callId"].(string)
				if n, ok := strings.CutPrefix(id, cs.ID()+" "); !ok || n == "" || strings.Trim(n, "0123456789") != "" {
					t.Errorf("call ID %q, want the session ID %q, a space and the request ID", id, cs.ID())
				}
				direct, _ := ref.Dispatch(context.Background(), gate.Caller{Principal: mcptest.Principals[tc.token]}, gate.Call{ID: id, Name: tc.tool, Args: []byte(args), Complete: true, Dialect: gate.MCP})
				want, _ := json.Marshal(direct.Err)
				if direct.Err == nil || direct.Err.Code != tc.code {
					t.Fatalf("reference dispatch: %v, want %s", direct.Err, tc.code)
				}
				if n := refRuns.Count(); len(n) != 0 || direct.Executed {
					t.Errorf("reference dispatch refused, yet runs %v (executed %v)", n, direct.Executed)
				}
				if text := res.Content[0].(*mcp.TextContent).Text; text != string(want) {
					t.Errorf("text\n got %s\nwant %s", text, want)
				}
				if !reflect.DeepEqual(res.StructuredContent, jsonValue(t, want)) {
					t.Errorf("structured content %v, want %s", res.StructuredContent, want)
				}
			default:
				if rpcErr != nil || res.IsError {
					t.Fatalf("valid call refused: %+v %v", res, rpcErr)
				}
			}
			want := tc.runs
			if want == nil {
				want = map[string]int{}
			}
			if got := r.Count(); !maps.Equal(got, want) {
				t.Errorf("runs %v, want %v", got, want)
			}
		})
	}
	if !strings.HasPrefix(msgs["hidden"], "there is no tool named NAME; the tools you can call are: ") || msgs["hidden"] != msgs["missing"] {
		t.Errorf("a hidden tool is not refused like a missing one:\nhidden:  %s\nmissing: %s", msgs["hidden"], msgs["missing"])
	}
}

// TestConcurrentClients: 32 clients at once, over loopback HTTP, each with
// one of three principals' tokens, each list and call; every client gets
// its own principal's tool list, its own tenant's order, its own
// principal's refusals, and the executions add up exactly.
func TestConcurrentClients(t *testing.T) {
	const clients = 32
	reg, r := mcptest.NewRegistry(t)
	url := serve(t, reg)
	wantNames := map[string][]string{}
	for _, tok := range mcptest.Tokens {
		wantNames[tok], _ = wantDefinitions(t, reg, mcptest.Principals[tok])
	}
	errs := make(chan error, clients)
	wantRuns := map[string]int{}
	var wg sync.WaitGroup
	for i := range clients {
		tok := mcptest.Tokens[i%len(mcptest.Tokens)]
		p := mcptest.Principals[tok]
		if slices.Contains(p.Roles, "operations") {
			wantRuns["schedule_order_dispatch"]++
		}
		wantRuns["get_order_status"]++
		cs := connect(t, url, tok)
		wg.Go(func() {
			errs <- client(cs, i, tok, p, wantNames[tok])
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := r.Count(); !maps.Equal(got, wantRuns) {
		t.Errorf("runs %v, want %v", got, wantRuns)
	}
}

// client is one concurrent client's session.
func client(cs *mcp.ClientSession, i int, tok string, p gate.Principal, wantNames []string) error {
	ctx := context.Background()
	lr, err := cs.ListTools(ctx, nil)
	if err != nil {
		return fmt.Errorf("client %d: %v", i, err)
	}
	var names []string
	for _, tool := range lr.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, wantNames) {
		return fmt.Errorf("client %d (%s): tools %v, want %v", i, tok, names, wantNames)
	}
	own := fmt.Sprintf("%s-%d", p.Tenant, i)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(mcptest.StatusArgs(own))})
	if err != nil || res.IsError {
		return fmt.Errorf("client %d (%s): own order: %v %+v", i, tok, err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != fmt.Sprintf(`{"orderId":%q,"status":"dispatched","updatedAt":"2026-01-02T09:30:00Z"}`, own) {
		return fmt.Errorf("client %d (%s): got another client's result %s", i, tok, text)
	}
	other := "ZED-1"
	if res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(mcptest.StatusArgs(other))}); err != nil || !res.IsError {
		return fmt.Errorf("client %d (%s): another tenant's order: %v %+v", i, tok, err, res)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "schedule_order_dispatch", Arguments: json.RawMessage(mcptest.DispatchArgs)})
	var rpcErr *jsonrpc.Error
	hidden := errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeInvalidParams
	if slices.Contains(p.Roles, "operations") == hidden || (err != nil && !hidden) {
		return fmt.Errorf("client %d (%s): schedule_order_dispatch: %v", i, tok, err)
	}
	return nil
}

// TestCallerError: when the service's CallerFunc fails, tools/list and
// tools/call are JSON-RPC invalid-request errors that do not carry the
// function's error text, and nothing runs.
func TestCallerError(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	srv, err := NewServer(reg, func(context.Context, mcp.Request) (gate.Caller, error) {
		return gate.Caller{}, errors.New("secret detail")
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0.0.0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, lerr := cs.ListTools(context.Background(), nil)
	_, cerr := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(mcptest.StatusArgs("BOB-1"))})
	for _, err := range []error{lerr, cerr} {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidRequest || rpcErr.Message != ErrNoCaller {
			t.Errorf("error %v, want invalid request %q", err, ErrNoCaller)
		}
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("runs %v", n)
	}
}
