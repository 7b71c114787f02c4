package mcpgogate

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"strings"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
)

// TestBodyBound: a request body past MaxBodyBytes is refused before
// mcp-go reads it (a JSON-RPC parse error with HTTP status 400, after
// which the go-sdk client closes its connection), and nothing runs; a call
// under the bound runs.
func TestBodyBound(t *testing.T) {
	const bound = 2048
	big := `{"orderId":"BOB-1","note":"` + strings.Repeat("x", bound) + `"}`
	for _, cl := range []struct {
		name    string
		connect func(testing.TB, string, string) conn
		refusal string // what the client reports
	}{{"mcp-go", mcpGoHTTP, "request body too large"}, {"go-sdk", goSDKHTTP, "Bad Request"}} {
		t.Run(cl.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			url := serveHTTP(t, reg, &HTTPOptions{MaxBodyBytes: bound})
			if got := cl.connect(t, url, "tok-bob").call(t, "get_order_status", big); !strings.Contains(got.rpcError, cl.refusal) {
				t.Errorf("an oversized body: %+v, want a refusal (%s)", got, cl.refusal)
			}
			if n := r.Count(); len(n) != 0 {
				t.Errorf("an oversized body ran %v", n)
			}
			if got := cl.connect(t, url, "tok-bob").call(t, "get_order_status", mcptest.StatusArgs("BOB-1")); got.rpcError != "" || got.isError {
				t.Errorf("a call under the bound: %+v", got)
			}
			if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 1}) {
				t.Errorf("runs %v", n)
			}
		})
	}
}

// TestSessionBound: with MaxSessions 2, over the protocol with sessions, a third session ends the least
// recently used one: its next call is refused and runs nothing, while the
// two live sessions' calls run.
func TestSessionBound(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	url := serveHTTP(t, reg, &HTTPOptions{MaxSessions: 2})
	var sessions []*gosdk.ClientSession
	for range 3 {
		tr := &gosdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"tok-bob", http.DefaultTransport}}}
		cs, err := gosdk.NewClient(&gosdk.Implementation{Name: "bound", Version: "v0"}, nil).Connect(context.Background(), tr, &gosdk.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		sessions = append(sessions, cs)
	}
	params := &gosdk.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(mcptest.StatusArgs("BOB-1"))}
	if _, err := sessions[0].CallTool(context.Background(), params); err == nil {
		t.Error("the evicted session's call was answered")
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("the evicted session's call ran %v", n)
	}
	for i, cs := range sessions[1:] {
		if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
			t.Errorf("live session %d: %v %+v", i+1, err, res)
		}
	}
	if n := r.Count(); !maps.Equal(n, map[string]int{"get_order_status": 2}) {
		t.Errorf("runs %v", n)
	}
}

// TestSessionsLRU: the bounded ID manager keeps the sessions used most
// recently, refuses unknown and ended IDs, and never holds more than its
// bound.
func TestSessionsLRU(t *testing.T) {
	s := newSessions(2)
	a, b := s.Generate(), s.Generate()
	if _, err := s.Validate(a); err != nil { // a is now the most recent
		t.Fatal(err)
	}
	c := s.Generate() // ends b
	cases := []struct {
		id   string
		live bool
	}{{a, true}, {b, false}, {c, true}, {"tg-unknown", false}, {"other", false}}
	for _, tc := range cases {
		if _, err := s.Validate(tc.id); (err == nil) != tc.live {
			t.Errorf("Validate(%s): %v, want live %v", tc.id, err, tc.live)
		}
	}
	if _, err := s.Terminate(a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(a); err == nil {
		t.Error("an ended session is valid")
	}
	if _, err := s.Terminate(a); err == nil {
		t.Error("an ended session was ended twice")
	}
	if len(s.byID) != 1 || s.lru.Len() != 1 {
		t.Errorf("%d sessions kept, want 1", len(s.byID))
	}
}

// TestStdioLineBound: a stdio line past the bound ends the connection
// with ErrLineTooLong, and nothing runs.
func TestStdioLineBound(t *testing.T) {
	reg, r := mcptest.NewRegistry(t)
	_, to, done := stdioPipes(t, reg, "tok-bob", 64)
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order_status","arguments":{"orderId":"BOB-1"}}}` + "\n"
	go to.Write([]byte(line))
	if err := <-done; !errors.Is(err, ErrLineTooLong) {
		t.Errorf("ServeStdio: %v, want ErrLineTooLong", err)
	}
	if n := r.Count(); len(n) != 0 {
		t.Errorf("runs %v", n)
	}
}
