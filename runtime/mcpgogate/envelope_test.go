package mcpgogate

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
)

// rawStdio is a stdio peer that writes JSON-RPC lines as they are, after
// the initialize handshake.
type rawStdio struct {
	t    testing.TB
	to   io.Writer
	from *bufio.Reader
}

func newRawStdio(t testing.TB, reg *gate.Registry, token string) *rawStdio {
	t.Helper()
	from, to, _ := stdioPipes(t, reg, token, 0)
	p := &rawStdio{t: t, to: to, from: bufio.NewReader(from)}
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`)
	p.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *rawStdio) write(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.to, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// send writes a request and returns its response, as a JSON value.
func (p *rawStdio) send(line string) map[string]any {
	p.t.Helper()
	p.write(line)
	resp, err := p.from.ReadBytes('\n')
	if err != nil {
		p.t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(resp, &v); err != nil {
		p.t.Fatalf("%v: %s", err, resp)
	}
	return v
}

// TestEnvelopeRefused: a tools/call whose envelope a layer reading it
// with encoding/json (mcp-go itself) would read otherwise than the strict
// reader — two arguments members, two names, a case variant of
// "arguments" or "name" — is a JSON-RPC invalid-request error naming the
// problem, and nothing runs; the same call with a clean envelope runs.
func TestEnvelopeRefused(t *testing.T) {
	const ok = `{"orderId":"BOB-1"}`
	const other = `{"orderId":"BOB-2"}`
	cases := []struct {
		name, params, reason string // reason: a part of the error message, "" for a call that runs
	}{
		{"clean", `{"name":"get_order_status","arguments":` + ok + `}`, ""},
		{"two arguments", `{"name":"get_order_status","arguments":` + ok + `,"arguments":` + other + `}`, `duplicate member name "arguments"`},
		{"two names", `{"name":"cancel_order","name":"get_order_status","arguments":` + ok + `}`, `duplicate member name "name"`},
		{"Arguments beside arguments", `{"name":"get_order_status","arguments":` + ok + `,"Arguments":` + other + `}`, `"Arguments"`},
		{"Arguments alone", `{"name":"get_order_status","Arguments":` + ok + `}`, `"Arguments"`},
		{"NAME", `{"NAME":"get_order_status","arguments":` + ok + `}`, `"NAME"`},
		{"two params", `{"name":"get_order_status","arguments":` + ok + `},"params":{"name":"get_order_status","arguments":` + other + `}`, `duplicate member name "params"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			resp := newRawStdio(t, reg, "tok-bob").send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + tc.params + `}`)
			if tc.reason == "" {
				res, _ := resp["result"].(map[string]any)
				if res == nil || res["isError"] == true {
					t.Fatalf("clean call: %v", resp)
				}
				if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 1}) {
					t.Errorf("runs %v", n)
				}
				return
			}
			e, _ := resp["error"].(map[string]any)
			if e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), tc.reason) {
				t.Errorf("response %v, want an invalid-request error about %s", resp, tc.reason)
			}
			if n := r.Count(); len(n) != 0 {
				t.Errorf("a refused envelope ran %v", n)
			}
		})
	}
}

// TestCallerError: a request whose caller cannot be derived is refused,
// tools/list and tools/call alike, with ErrNoCaller and nothing runs.
func TestCallerError(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	url := serveHTTP(t, reg, nil)
	for _, cl := range []struct {
		name    string
		connect func(testing.TB, string, string) conn
	}{{"mcp-go", mcpGoHTTP}, {"go-sdk", goSDKHTTP}} {
		t.Run(cl.name, func(t *testing.T) {
			c := cl.connect(t, url, "tok-unknown")
			got := c.call(t, "get_order_status", `{"orderId":"BOB-1"}`)
			if !strings.Contains(got.rpcError, ErrNoCaller) {
				t.Errorf("tools/call: %+v, want %q", got, ErrNoCaller)
			}
			var err error
			switch c := c.(type) {
			case mcpGoConn:
				_, err = c.c.ListTools(context.Background(), mcp.ListToolsRequest{})
			case goSDKConn:
				_, err = c.cs.ListTools(context.Background(), nil)
			}
			if err == nil || !strings.Contains(err.Error(), ErrNoCaller) {
				t.Errorf("tools/list: %v, want %q", err, ErrNoCaller)
			}
		})
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("runs %v", n)
	}
}
