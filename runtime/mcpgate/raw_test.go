package mcpgate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// rawServer serves reg over streamable HTTP answering with JSON (not
// SSE), without the auth middleware: the CallerFunc accepts a request
// whose Authorization header names a principal's token and refuses any
// other.
func rawServer(t testing.TB, reg *gate.Registry, o *Options) *httptest.Server {
	t.Helper()
	if o == nil {
		o = &Options{}
	}
	if o.HTTP == nil {
		o.HTTP = &mcp.StreamableHTTPOptions{JSONResponse: true}
	}
	h, err := Handler(reg, func(_ context.Context, req mcp.Request) (gate.Caller, error) {
		p, ok := mcptest.Principals[strings.TrimPrefix(req.GetExtra().Header.Get("Authorization"), "Bearer ")]
		if !ok {
			return gate.Caller{}, errors.New("no token")
		}
		return gate.Caller{Principal: p, Scope: p.Tenant}, nil
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// reply is one HTTP answer: the status, the session header and the
// JSON-RPC response (zero when the body is not one).
type reply struct {
	status  int
	session string
	msg     struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
}

// post sends body as one POST with token and session (either may be "").
func post(t testing.TB, c *http.Client, url, token, session, body string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, session: resp.Header.Get("Mcp-Session-Id")}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r.msg); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	return r
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`

// session initializes a session for token and returns its ID.
func session(t testing.TB, c *http.Client, url, token string) string {
	t.Helper()
	r := post(t, c, url, token, "", initialize)
	if r.status != http.StatusOK || r.session == "" || r.msg.Error != nil {
		t.Fatalf("initialize: status %d, session %q, error %+v", r.status, r.session, r.msg.Error)
	}
	if r := post(t, c, url, token, r.session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
		t.Fatalf("initialized: status %d", r.status)
	}
	return r.session
}

// TestStrictHTTP: over streamable HTTP, a member name twice anywhere in a
// message but within a tools/call's arguments — a second name that would
// switch the tool, a second arguments that would replace the first, an
// escaped repeat, a repeat in the envelope, in _meta or in a batch — and a
// client's own request ID stamp are refused with HTTP 400 and a JSON-RPC
// error, and nothing runs; a repeat within the arguments is the gate's
// invalid_json; the same session's valid call then runs once.
func TestStrictHTTP(t *testing.T) {
	const args = `{"orderId":"BOB-1"}`
	long := strings.Repeat("n", 4096)
	cases := []struct {
		name, body string
		code       int64  // the JSON-RPC error code of a refusal, or 0
		id         string // the id of the refusal
		gate       string // the gate's code of an isError result, or ""
		message    string // the refusal's message, when the case names it
	}{
		{name: "second name", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":` + args + `,"name":"cancel_order"}}`, code: -32602, id: "2"},
		{name: "second arguments", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":` + args + `,"arguments":{"orderId":"BOB-2"}}}`, code: -32602, id: "2"},
		{name: "escaped repeat", body: `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"get_order_status","n\u0061me":"cancel_order","arguments":` + args + `}}`, code: -32602, id: `"x"`},
		{name: "params before method", body: `{"jsonrpc":"2.0","params":{"name":"get_order_status","arguments":` + args + `,"name":"cancel_order"},"id":2,"method":"tools/call"}`, code: -32602, id: "2"},
		{name: "second params", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":` + args + `},"params":{"name":"cancel_order","arguments":{}}}`, code: -32700, id: "null"},
		{name: "second method", body: `{"jsonrpc":"2.0","id":2,"method":"tools/list","method":"tools/call","params":{"name":"get_order_status","arguments":` + args + `}}`, code: -32700, id: "null"},
		{name: "repeat in _meta", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"a":1,"a":2},"name":"get_order_status","arguments":` + args + `}}`, code: -32602, id: "2"},
		{name: "repeat in another method's arguments", body: `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"p","arguments":{"a":"1","a":"2"}}}`, code: -32602, id: "2"},
		{name: "client's stamp", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"` + MetaRequestID + `":"1"},"name":"get_order_status","arguments":` + args + `}}`, code: -32602, id: "2"},
		{name: "repeat in a batch", body: `[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":` + args + `,"name":"cancel_order"}}]`, code: -32602, id: "null"},
		{name: "long repeated name", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"` + long + `":1,"name":"get_order_status","arguments":` + args + `,"` + long + `":2}}`, code: -32602, id: "2", message: "malformed payload: " + jsonread.DuplicateReason([]byte(long)) + " in params"},
		{name: "not JSON", body: `{"jsonrpc":"2.0","id":2,`, code: -32700, id: "null"},
		{name: "repeat within the arguments", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1","orderId":"BOB-2"}}}`, gate: "invalid_json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			srv := rawServer(t, reg, nil)
			c := srv.Client()
			sid := session(t, c, srv.URL, "tok-bob")
			got := post(t, c, srv.URL, "tok-bob", sid, tc.body)
			if tc.code != 0 {
				if got.status != http.StatusBadRequest || got.msg.Error == nil || got.msg.Error.Code != tc.code || string(got.msg.ID) != tc.id {
					t.Errorf("status %d, id %s, error %+v; want 400, id %s, code %d", got.status, got.msg.ID, got.msg.Error, tc.id, tc.code)
				}
				if tc.message != "" && got.msg.Error != nil && got.msg.Error.Message != tc.message {
					t.Errorf("message %q, want %q", got.msg.Error.Message, tc.message)
				}
			} else if got.status != http.StatusOK || !got.msg.Result.IsError || got.msg.Result.StructuredContent["code"] != tc.gate {
				t.Errorf("status %d, result %+v, error %+v; want an isError %s", got.status, got.msg.Result, got.msg.Error, tc.gate)
			}
			if n := r.Count(); len(n) != 0 {
				t.Errorf("refused, yet runs %v", n)
			}
			ok := post(t, c, srv.URL, "tok-bob", sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_order_status","arguments":`+args+`}}`)
			if ok.status != http.StatusOK || ok.msg.Result.IsError || ok.msg.Error != nil {
				t.Errorf("the valid call after it: status %d, result %+v, error %+v", ok.status, ok.msg.Result, ok.msg.Error)
			}
			if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 1}) {
				t.Errorf("runs %v, want the valid call once", n)
			}
		})
	}
}

// TestStrictTransport: over a stdio-like transport wrapped in
// StrictTransport, a second name or arguments in params is a JSON-RPC
// invalid-params error answered with the request's id, nothing runs, and
// the connection goes on: the valid call after it runs once, and its
// replay (the same request ID) is duplicate_call.
func TestStrictTransport(t *testing.T) {
	reg, r := mcptest.NewRegistry(t, gate.WithReplayStore(gate.NewMemoryReplayStore(gate.MemoryReplayConfig{})))
	srv, err := NewServer(reg, func(context.Context, mcp.Request) (gate.Caller, error) {
		return gate.Caller{Principal: mcptest.Principals["tok-bob"], Scope: "BOB"}, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	ss, err := srv.Connect(context.Background(), StrictTransport(&mcp.IOTransport{Reader: clientOut, Writer: clientIn}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	lines := bufio.NewScanner(serverOut)
	send := func(msg string, answered bool) map[string]any {
		t.Helper()
		if _, err := io.WriteString(serverIn, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		if !answered {
			return nil
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s: %v", msg, lines.Err())
		}
		var v map[string]any
		if err := json.Unmarshal(lines.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	send(initialize, true)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1"},"name":"cancel_order"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1"},"arguments":{"orderId":"BOB-2"}}}`,
	} {
		got := send(body, true)
		e, _ := got["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32602) || got["id"] == nil {
			t.Errorf("%s: %v, want invalid params for its id", body, got)
		}
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("refused, yet runs %v", n)
	}
	const valid = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1"}}}`
	if got := send(valid, true); got["result"] == nil || got["result"].(map[string]any)["isError"] == true {
		t.Errorf("valid call: %v", got)
	}
	got := send(valid, true)
	res, _ := got["result"].(map[string]any)
	if sc, _ := res["structuredContent"].(map[string]any); sc["code"] != "duplicate_call" {
		t.Errorf("replayed call: %v, want duplicate_call", got)
	}
	if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 1}) {
		t.Errorf("runs %v, want the valid call once", n)
	}
}

// TestReplayHTTP: with a replay store, a tools/call sent again with the
// same session and request ID is duplicate_call and runs once; another
// request ID and another session with the same ID each run.
func TestReplayHTTP(t *testing.T) {
	reg, r := mcptest.NewRegistry(t, gate.WithReplayStore(gate.NewMemoryReplayStore(gate.MemoryReplayConfig{})))
	srv := rawServer(t, reg, nil)
	c := srv.Client()
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1"}}}`
	}
	one, two := session(t, c, srv.URL, "tok-bob"), session(t, c, srv.URL, "tok-bob")
	cases := []struct {
		session, id, code string
	}{
		{one, "7", ""},
		{one, "7", "duplicate_call"},
		{one, `"7"`, ""},
		{one, "8", ""},
		{two, "7", ""},
		{two, "7", "duplicate_call"},
	}
	for i, tc := range cases {
		got := post(t, c, srv.URL, "tok-bob", tc.session, call(tc.id))
		code, _ := got.msg.Result.StructuredContent["code"].(string)
		if got.status != http.StatusOK || got.msg.Result.IsError != (tc.code != "") || code != tc.code {
			t.Errorf("%d: status %d, result %+v, error %+v; want code %q", i, got.status, got.msg.Result, got.msg.Error, tc.code)
		}
	}
	if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 4}) {
		t.Errorf("runs %v, want 4", n)
	}
}
