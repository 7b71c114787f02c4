package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestDemoServer connects the SDK's client to the demo server over
// loopback HTTP with each demo token: each sees its own number of tools
// and a call runs; an unknown token is refused by the auth middleware.
func TestDemoServer(t *testing.T) {
	h, err := newHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	connect := func(token string) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer(token)}}
		return mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "v0.0.0"}, nil).Connect(ctx, tr, nil)
	}
	for token, want := range map[string]int{"support-demo": 5, "operations-demo": 3, "admin-demo": 6} {
		cs, err := connect(token)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil || len(res.Tools) != want {
			t.Errorf("%s: %v, %d tools, want %d", token, err, len(res.Tools), want)
		}
		call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(`{"orderId":"A-19"}`)})
		if err != nil || call.IsError || call.Content[0].(*mcp.TextContent).Text != statusJSON || !sameJSON(t, call.StructuredContent, statusJSON) {
			t.Errorf("%s: get_order_status: %v %+v", token, err, call)
		}
		cs.Close()
	}
	if cs, err := connect("wrong"); err == nil {
		cs.Close()
		t.Error("an unknown token connected")
	}
}

// statusJSON is the demo's get_order_status result for A-19: the typed
// result as the gate checked it, both as text and as structured content.
const statusJSON = `{"orderId":"A-19","status":"dispatched","updatedAt":"2026-01-02T09:30:00Z","carrier":"dpd","trackingRef":"DPD0042"}`

// sameJSON reports whether v (the client's decoded structured content)
// holds the same JSON value as want.
func sameJSON(t *testing.T, v any, want string) bool {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(v, w)
}
