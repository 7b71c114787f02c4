package mcpgogate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestToolsListPerPrincipal: over every client and transport, tools/list
// is the principal's MCP definitions, in order, and nothing runs.
func TestToolsListPerPrincipal(t *testing.T) {
	for _, cl := range clients {
		t.Run(cl.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			names := map[string][]string{}
			for _, tok := range mcptest.Tokens {
				got := cl.connect(t, reg, tok).list(t)
				want := wantTools(t, reg, mcptest.Principals[tok])
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: the listed tools are not the MCP definitions:\n got %v\nwant %v", tok, got, want)
				}
				for _, v := range got {
					names[tok] = append(names[tok], v.(map[string]any)["name"].(string))
				}
			}
			if len(names["tok-alice"]) != 6 || slices.Equal(names["tok-bob"], names["tok-olga"]) || slices.Contains(names["tok-bob"], "schedule_order_dispatch") {
				t.Errorf("the principals' lists do not differ as their roles say: %v", names)
			}
			if n := r.Count(); len(n) != 0 {
				t.Errorf("listing ran executors: %v", n)
			}
		})
	}
}

// TestOutputSchemaListed: the tool with a typed result lists its
// outputSchema byte for byte as generated.
func TestOutputSchemaListed(t *testing.T) {
	reg, _ := mcptest.NewRegistry(t)
	var def string
	for _, tool := range reg.Tools(mcptest.Principals["tok-bob"]) {
		if tool.Name == "get_order_status" {
			def = tool.OutputSchema
		}
	}
	if def == "" {
		t.Fatal("get_order_status has no output schema")
	}
	for _, cl := range clients {
		t.Run(cl.name, func(t *testing.T) {
			for _, v := range cl.connect(t, reg, "tok-bob").list(t) {
				if m := v.(map[string]any); m["name"] == "get_order_status" {
					if !reflect.DeepEqual(m["outputSchema"], jsonValue(t, []byte(def))) {
						t.Errorf("outputSchema %v, want %s", m["outputSchema"], def)
					}
					return
				}
			}
			t.Error("get_order_status is not listed")
		})
	}
}

// TestCallTool: over every client and transport, valid calls run once,
// with the typed result as structured content; invalid arguments and
// refusals are isError results whose text and structured content are the
// gate's toolerr JSON, as a direct dispatch gives it; a hidden tool is
// refused exactly like a missing one; every refused call runs nothing.
func TestCallTool(t *testing.T) {
	cases := []struct {
		name, token, tool, args string
		rpc                     bool         // a JSON-RPC invalid-params error
		code                    toolerr.Code // an isError result with this code
		runs                    map[string]int
	}{
		{name: "valid", token: "tok-bob", tool: "get_order_status", args: mcptest.StatusArgs("BOB-1"), runs: map[string]int{"get_order_status": 1}},
		{name: "absent arguments are {}", token: "tok-bob", tool: "get_order_status", code: toolerr.InvalidArguments},
		{name: "another tenant's order", token: "tok-bob", tool: "get_order_status", args: mcptest.StatusArgs("ALICE-1"), code: toolerr.Unauthorized},
		{name: "invalid arguments", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"bob-1"}`, code: toolerr.InvalidArguments},
		{name: "unknown member", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"BOB-1","tenant":"ALICE"}`, code: toolerr.InvalidArguments},
		{name: "duplicate member", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"BOB-1","orderId":"ALICE-1"}`, code: toolerr.InvalidJSON},
		{name: "case-variant member", token: "tok-bob", tool: "get_order_status", args: `{"orderId":"BOB-1","OrderId":"ALICE-1"}`, code: toolerr.InvalidArguments},
		{name: "number as a string", token: "tok-olga", tool: "schedule_order_dispatch", args: strings.Replace(mcptest.DispatchArgs, `500`, `"500"`, 1), code: toolerr.InvalidArguments},
		{name: "visible", token: "tok-olga", tool: "schedule_order_dispatch", args: mcptest.DispatchArgs, runs: map[string]int{"schedule_order_dispatch": 1}},
		{name: "hidden", token: "tok-bob", tool: "schedule_order_dispatch", args: mcptest.DispatchArgs, rpc: true},
		{name: "missing", token: "tok-bob", tool: "schedule_order_dispatcher", args: mcptest.DispatchArgs, rpc: true},
	}
	for _, cl := range clients {
		t.Run(cl.name, func(t *testing.T) {
			msgs := map[string]string{}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					reg, r := mcptest.NewRegistry(t)
					got := cl.connect(t, reg, tc.token).call(t, tc.tool, tc.args)
					switch {
					case tc.rpc:
						if got.rpcError == "" || !got.invalidParams {
							t.Fatalf("%+v, want an invalid-params error", got)
						}
						msgs[tc.name] = strings.Replace(got.rpcError, tc.tool, "NAME", 1)
					case tc.code != "":
						want := direct(t, tc.token, tc.tool, tc.args, tc.code)
						if !got.isError || !slices.Equal(got.texts, []string{want}) || !reflect.DeepEqual(got.structured, jsonValue(t, []byte(want))) {
							t.Errorf("%+v, want an isError result with %s as text and structured content", got, want)
						}
					default:
						if got.rpcError != "" || got.isError || len(got.texts) != 1 {
							t.Fatalf("valid call refused: %+v", got)
						}
						if tc.tool == "get_order_status" && !reflect.DeepEqual(got.structured, jsonValue(t, []byte(got.texts[0]))) {
							t.Errorf("the typed result's structured content %v is not its text %s", got.structured, got.texts[0])
						}
					}
					want := tc.runs
					if want == nil {
						want = map[string]int{}
					}
					if n := r.Count(); !maps.Equal(n, want) {
						t.Errorf("runs %v, want %v", n, want)
					}
				})
			}
			if msgs["hidden"] == "" || msgs["hidden"] != msgs["missing"] {
				t.Errorf("a hidden tool is not refused like a missing one:\nhidden:  %s\nmissing: %s", msgs["hidden"], msgs["missing"])
			}
		})
	}
}

// direct is the toolerr JSON a direct dispatch of the call gives, which
// must have code; the reference registry must run nothing.
func direct(t testing.TB, token, tool, args string, code toolerr.Code) string {
	t.Helper()
	ref, runs := mcptest.NewRegistry(t)
	if args == "" {
		args = "{}"
	}
	res, _ := ref.Dispatch(context.Background(), gate.Caller{Principal: mcptest.Principals[token]}, gate.Call{Name: tool, Args: []byte(args), Complete: true, Dialect: gate.MCP})
	if res.Err == nil || res.Err.Code != code {
		t.Fatalf("reference dispatch: %v, want %s", res.Err, code)
	}
	if n := runs.Count(); len(n) != 0 || res.Executed {
		t.Fatalf("reference dispatch refused, yet runs %v (executed %v)", n, res.Executed)
	}
	b, err := json.Marshal(res.Err)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestListAfterCalls: on one server, the tools registered with mcp-go by
// one principal's calls change no other principal's tools/list, nor what
// it may call.
func TestListAfterCalls(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	url := serveHTTP(t, reg, nil)
	if got := mcpGoHTTP(t, url, "tok-olga").call(t, "schedule_order_dispatch", mcptest.DispatchArgs); got.rpcError != "" || got.isError {
		t.Fatalf("olga's call: %+v", got)
	}
	for _, tok := range []string{"tok-bob", "tok-olga", "tok-alice"} {
		for _, c := range []conn{mcpGoHTTP(t, url, tok), goSDKHTTP(t, url, tok)} {
			if got, want := c.list(t), wantTools(t, reg, mcptest.Principals[tok]); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: tools/list after another principal's call:\n got %v\nwant %v", tok, got, want)
			}
		}
	}
	if got := mcpGoHTTP(t, url, "tok-bob").call(t, "schedule_order_dispatch", mcptest.DispatchArgs); !got.invalidParams {
		t.Errorf("bob called the tool olga's call registered: %+v", got)
	}
	if n := r.Count(); !maps.Equal(n, map[string]int{"schedule_order_dispatch": 1}) {
		t.Errorf("runs %v", n)
	}
}

// TestConcurrentClients: 24 clients at once on one fresh server, of both
// SDKs and three principals, each listing and calling the tools its
// principal may see before any is registered: every client gets its own
// principal's list and results, and the runs add up exactly.
func TestConcurrentClients(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	url := serveHTTP(t, reg, nil)
	want := map[string]int{}
	type job struct {
		token, tool, args string
		c                 conn
	}
	var jobs []job
	for i := range 24 {
		tok := mcptest.Tokens[i%len(mcptest.Tokens)]
		c := mcpGoHTTP(t, url, tok)
		if i%2 == 1 {
			c = goSDKHTTP(t, url, tok)
		}
		j := job{token: tok, tool: "get_order_status", args: mcptest.StatusArgs(mcptest.Principals[tok].Tenant + "-7"), c: c}
		if tok == "tok-olga" {
			j.tool, j.args = "schedule_order_dispatch", mcptest.DispatchArgs
		}
		want[j.tool]++
		jobs = append(jobs, j)
	}
	errs := make(chan string, len(jobs))
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			if got, want := j.c.list(t), wantTools(t, reg, mcptest.Principals[j.token]); !reflect.DeepEqual(got, want) {
				errs <- j.token + ": not its principal's tools"
			}
			if got := j.c.call(t, j.tool, j.args); got.rpcError != "" || got.isError {
				errs <- fmt.Sprintf("%s %s: %+v", j.token, j.tool, got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := r.Count(); !maps.Equal(n, want) {
		t.Errorf("runs %v, want %v", n, want)
	}
}
