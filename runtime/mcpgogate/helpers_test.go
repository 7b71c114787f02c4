package mcpgogate

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/internal/mcptest"
	"github.com/toolgate/toolgate/runtime/provider"
)

// principalKey holds the principal the transport verified.
type principalKey struct{}

// callerOf is the tests' CallerFunc: the verified principal, scoped by the
// session.
func callerOf(ctx context.Context) (gate.Caller, error) {
	p, ok := ctx.Value(principalKey{}).(gate.Principal)
	if !ok {
		return gate.Caller{}, errors.New("no principal")
	}
	c := gate.Caller{Principal: p}
	if s := server.ClientSessionFromContext(ctx); s != nil {
		c.Scope = s.SessionID()
	}
	return c, nil
}

// authenticate is the HTTP context function: the bearer token's principal.
func authenticate(ctx context.Context, r *http.Request) context.Context {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if p, known := mcptest.Principals[tok]; ok && known {
		ctx = context.WithValue(ctx, principalKey{}, p)
	}
	return ctx
}

func newServer(t testing.TB, reg *gate.Registry) *server.MCPServer {
	t.Helper()
	srv, err := NewServer(reg, callerOf, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// serveHTTP serves reg on a loopback port; it returns the endpoint.
func serveHTTP(t testing.TB, reg *gate.Registry, o *HTTPOptions) string {
	t.Helper()
	var opts HTTPOptions
	if o != nil {
		opts = *o
	}
	opts.Streamable = append(opts.Streamable, server.WithHTTPContextFunc(authenticate))
	hs := httptest.NewServer(Handler(newServer(t, reg), &opts))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// stdioPipes serves reg over stdio on in-process pipes, as the principal
// of token (the stdio peer is trusted as a whole); it returns the client's
// ends and the channel of ServeStdio's error.
func stdioPipes(t testing.TB, reg *gate.Registry, token string, maxLine int) (fromServer io.ReadCloser, toServer io.WriteCloser, done <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	srv := newServer(t, reg)
	go func() {
		errc <- ServeStdio(ctx, srv, inR, outW, maxLine, server.WithStdioContextFunc(func(ctx context.Context) context.Context {
			return context.WithValue(ctx, principalKey{}, mcptest.Principals[token])
		}))
		outW.Close()
	}()
	t.Cleanup(func() { // the server ends, then closes its output: the client reads EOF
		cancel()
		inW.Close()
	})
	return outR, inW, errc
}

// outcome is what a client got from tools/call: a JSON-RPC error, or a
// result.
type outcome struct {
	rpcError      string // the error's message, "" for a result
	invalidParams bool   // the error is -32602
	isError       bool
	texts         []string
	structured    any
}

// conn is one connected client of either SDK.
type conn interface {
	list(t testing.TB) []any // the tools, as JSON values
	call(t testing.TB, name, args string) outcome
}

// mcpGoConn is mcp-go's client.
type mcpGoConn struct{ c *mcpclient.Client }

// legacy is the last protocol version with sessions (initialize); the
// clients' default, 2026-07-28, is stateless.
const legacy = "2025-11-25"

func startMCPGo(t testing.TB, c *mcpclient.Client, version string) conn {
	t.Helper()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpgogate-test", Version: "v0.0.0"}
	init.Params.ProtocolVersion = version
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return mcpGoConn{c}
}

func mcpGoHTTP(t testing.TB, url, token string) conn { return mcpGoHTTPVersion(t, url, token, "") }

func mcpGoHTTPVersion(t testing.TB, url, token, version string) conn {
	t.Helper()
	c, err := mcpclient.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	return startMCPGo(t, c, version)
}

func mcpGoStdio(t testing.TB, reg *gate.Registry, token string) conn {
	t.Helper()
	from, to, _ := stdioPipes(t, reg, token, 0)
	return startMCPGo(t, mcpclient.NewClient(transport.NewIO(from, to, nil)), "")
}

func (m mcpGoConn) list(t testing.TB) []any {
	t.Helper()
	res, err := m.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, 0, len(res.Tools))
	for _, tool := range res.Tools {
		out = append(out, jsonValue(t, marshal(t, tool)))
	}
	return out
}

func (m mcpGoConn) call(t testing.TB, name, args string) outcome {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if args != "" {
		req.Params.RawArguments = json.RawMessage(args)
	}
	res, err := m.c.CallTool(context.Background(), req)
	if err != nil {
		return outcome{rpcError: err.Error(), invalidParams: errors.Is(err, mcp.ErrInvalidParams)}
	}
	o := outcome{isError: res.IsError}
	for _, c := range res.Content {
		tc, ok := c.(mcp.TextContent)
		if !ok {
			t.Fatalf("content %T, want text", c)
		}
		o.texts = append(o.texts, tc.Text)
	}
	if len(res.RawStructuredContent) > 0 {
		o.structured = jsonValue(t, res.RawStructuredContent)
	}
	return o
}

// goSDKConn is the official go-sdk's client.
type goSDKConn struct{ cs *gosdk.ClientSession }

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connectGoSDK(t testing.TB, tr gosdk.Transport, version string) conn {
	t.Helper()
	cs, err := gosdk.NewClient(&gosdk.Implementation{Name: "mcpgogate-test", Version: "v0.0.0"}, nil).Connect(context.Background(), tr, &gosdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return goSDKConn{cs}
}

func goSDKHTTP(t testing.TB, url, token string) conn { return goSDKHTTPVersion(t, url, token, "") }

func goSDKHTTPVersion(t testing.TB, url, token, version string) conn {
	t.Helper()
	return connectGoSDK(t, &gosdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, version)
}

func goSDKStdio(t testing.TB, reg *gate.Registry, token string) conn {
	t.Helper()
	from, to, _ := stdioPipes(t, reg, token, 0)
	return connectGoSDK(t, &gosdk.IOTransport{Reader: from, Writer: to}, "")
}

func (g goSDKConn) list(t testing.TB) []any {
	t.Helper()
	res, err := g.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, 0, len(res.Tools))
	for _, tool := range res.Tools {
		v := jsonValue(t, marshal(t, tool)).(map[string]any)
		// The SDK's ToolAnnotations writes its two false hints always:
		// the empty annotations object it read is written back with them.
		if tool.Annotations != nil && *tool.Annotations == (gosdk.ToolAnnotations{}) {
			v["annotations"] = map[string]any{}
		}
		out = append(out, v)
	}
	return out
}

func (g goSDKConn) call(t testing.TB, name, args string) outcome {
	t.Helper()
	params := &gosdk.CallToolParams{Name: name}
	if args != "" {
		params.Arguments = json.RawMessage(args)
	}
	res, err := g.cs.CallTool(context.Background(), params)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			return outcome{rpcError: err.Error()} // the HTTP status of a refused body
		}
		return outcome{rpcError: rpcErr.Message, invalidParams: rpcErr.Code == jsonrpc.CodeInvalidParams}
	}
	o := outcome{isError: res.IsError}
	for _, c := range res.Content {
		tc, ok := c.(*gosdk.TextContent)
		if !ok {
			t.Fatalf("content %T, want text", c)
		}
		o.texts = append(o.texts, tc.Text)
	}
	if res.StructuredContent != nil {
		o.structured = jsonValue(t, marshal(t, res.StructuredContent))
	}
	return o
}

// clients connects each SDK's client over each transport, as token.
var clients = []struct {
	name    string
	connect func(t testing.TB, reg *gate.Registry, token string) conn
}{
	{"mcp-go/http", func(t testing.TB, reg *gate.Registry, token string) conn {
		return mcpGoHTTP(t, serveHTTP(t, reg, nil), token)
	}},
	{"mcp-go/http-" + legacy, func(t testing.TB, reg *gate.Registry, token string) conn {
		return mcpGoHTTPVersion(t, serveHTTP(t, reg, nil), token, legacy)
	}},
	{"mcp-go/stdio", mcpGoStdio},
	{"go-sdk/http", func(t testing.TB, reg *gate.Registry, token string) conn {
		return goSDKHTTP(t, serveHTTP(t, reg, nil), token)
	}},
	{"go-sdk/http-" + legacy, func(t testing.TB, reg *gate.Registry, token string) conn {
		return goSDKHTTPVersion(t, serveHTTP(t, reg, nil), token, legacy)
	}},
	{"go-sdk/stdio", goSDKStdio},
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonValue(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// wantTools returns what Registry.Definitions gives p for MCP, as JSON
// values, with the empty annotations mcp-go writes for a tool without.
func wantTools(t testing.TB, reg *gate.Registry, p gate.Principal) []any {
	t.Helper()
	defs, err := reg.Definitions(p, provider.MCP)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, 0, len(defs))
	for _, d := range defs {
		v := jsonValue(t, []byte(d)).(map[string]any)
		if _, ok := v["annotations"]; !ok {
			v["annotations"] = map[string]any{}
		}
		out = append(out, v)
	}
	return out
}
