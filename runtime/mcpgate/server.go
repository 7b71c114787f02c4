// Package mcpgate serves a gate registry's tools over MCP with the official
// go-sdk, over its streamable HTTP transport (or any other transport of
// the SDK).
//
//	verify := auth.RequireBearerToken(verifier, nil) // the SDK's auth middleware
//	h, err := mcpgate.Handler(reg, func(ctx context.Context, req mcp.Request) (gate.Caller, error) {
//		info := req.GetExtra().TokenInfo // verified by the middleware
//		return gate.Caller{Principal: principals[info.UserID], Scope: req.GetSession().ID()}, nil
//	}, nil)
//	http.Handle("/mcp", verify(h))
//
// There is no fixed principal per server: the service's CallerFunc derives
// the trusted caller of every request, initialize, tools/list and
// tools/call alike,
// from what the transport verified (for example the bearer token the SDK's
// auth middleware checked). Nothing in it comes from the model.
//
//   - tools/list returns exactly the tools the caller's principal may see,
//     each exactly its generated MCP definition, as Registry.Definitions
//     returns them for provider.MCP (the input schema is sent as raw JSON,
//     byte for byte). The list is one page, marked cache scope "private".
//   - tools/call runs through the gate in the MCP dialect. A name that
//     resolves to no tool the principal may see — missing or hidden alike —
//     is a JSON-RPC invalid-params error (-32602) whose message is the
//     gate's unknown_tool reason, the same for both, and nothing runs.
//     Invalid arguments, refusals and failures are isError results
//     (SEP-1303), so that the model can read and repair them: the
//     *toolerr.Error as JSON, both as the text content and as structured
//     content. A success is the executor's value as JSON text; for a tool
//     with an outputSchema, the typed result the gate checked against it,
//     as structuredContent and as its text serialization in content. The
//     outputSchema is sent in tools/list, byte for byte, like the input
//     schema. A result that broke it is an isError invalid_result, without
//     the withheld values.
//
// The server answers both methods itself, in a receiving middleware, for
// two reasons: the tool set depends on the request's principal, and the
// SDK's own tools/call path would answer an unlisted name itself, with
// another message than the gate's for a hidden one. Tools are never added
// with the generic mcp.AddTool, which validates and rewrites the arguments
// before the handler (see examples/wire); the gate's decoder is the only
// validator. An absent arguments member is read as {}.
//
// # Strict messages
//
// The SDK decodes JSON where the last of two equal member names wins: a
// second params.arguments would replace the first, a second params.name
// switch the tool. Handler therefore reads every POST body with the strict
// reader before the SDK does: a member name twice in any object of a
// message (the envelope, params, _meta, any other value) refuses the body
// with HTTP 400 and a JSON-RPC error, before a session exists or anything
// runs. Within a tools/call's arguments a repeat is left to the gate's
// decoder, which refuses the call as invalid_json, an isError result the
// model can repair (as adapter.ParseMCP does). StrictTransport does the
// same for the params over other transports (stdio).
//
// # Sessions
//
// initialize consults the CallerFunc like every other request: a refused
// caller's initialize is an error, its session is never initialized, and
// the streamable HTTP handler closes it with the request, so a refused
// caller holds nothing. At most Options.MaxSessions sessions are
// initialized at once (DefaultMaxSessions); one more initialize is refused
// with ErrTooManySessions. Handler closes a session idle for
// HTTP.SessionTimeout, DefaultSessionTimeout when that is zero.
//
// # Replay
//
// MCP's tools/call carries no call ID of the model's. A call is identified
// by its session and its JSON-RPC request ID, which MCP forbids a client to
// reuse within a session: the gate's Call.ID is the session ID, a space,
// and the request ID's JSON text (7 and "7" differ), so that a registry
// with a replay store (gate.WithReplayStore) runs a replayed request at
// most once per Caller.Scope, and refuses it as duplicate_call. The strict
// reader passes the request ID to the handler in params._meta (see
// MetaRequestID). A call without a session ID (stateless HTTP) or
// without that member (a transport not wrapped in StrictTransport) has no
// ID and is not replay-checked.
package mcpgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// CallerFunc derives the trusted caller of one request from what the
// transport verified: req.GetExtra() has the TokenInfo of the SDK's auth
// middleware and the HTTP header; req.GetSession() the session. An error
// refuses the request (a JSON-RPC invalid-request error; the error's text
// is not sent).
type CallerFunc func(ctx context.Context, req mcp.Request) (gate.Caller, error)

// Options configure the server.
type Options struct {
	// Implementation names the server to clients (default "toolgate").
	Implementation *mcp.Implementation
	// HTTP configures the streamable HTTP handler of Handler.
	HTTP *mcp.StreamableHTTPOptions
	// OnListError, when set, receives the error of Registry.Definitions
	// when a tool the principal may see has no MCP definition (it is left
	// out of tools/list).
	OnListError func(ctx context.Context, err error)
	// MaxSessions caps the sessions initialized at once (default
	// DefaultMaxSessions).
	MaxSessions int
}

// The defaults of the session bounds.
const (
	// DefaultMaxSessions is the default of Options.MaxSessions.
	DefaultMaxSessions = 1000
	// DefaultSessionTimeout is Handler's idle timeout when
	// HTTP.SessionTimeout is zero.
	DefaultSessionTimeout = 10 * time.Minute
)

// ErrNoCaller is the message of the error answered when the CallerFunc
// fails.
const ErrNoCaller = "the request has no authorized caller"

// ErrTooManySessions is the message of the error answered to an initialize
// when Options.MaxSessions sessions are initialized.
const ErrTooManySessions = "the server holds as many sessions as it may"

type server struct {
	reg    *gate.Registry
	caller CallerFunc
	opts   Options
	tools  sync.Map // definition JSON → *mcp.Tool
	srv    *mcp.Server
	// initMu serializes initializes, so that the sessions counted are the
	// sessions initialized.
	initMu sync.Mutex
}

// NewServer returns an MCP server serving reg's tools to each request's
// caller.
func NewServer(reg *gate.Registry, caller CallerFunc, o *Options) (*mcp.Server, error) {
	if reg == nil || caller == nil {
		return nil, errors.New("mcpgate: a registry and a CallerFunc are required")
	}
	s := &server{reg: reg, caller: caller}
	if o != nil {
		s.opts = *o
	}
	if s.opts.MaxSessions <= 0 {
		s.opts.MaxSessions = DefaultMaxSessions
	}
	impl := s.opts.Implementation
	if impl == nil {
		impl = &mcp.Implementation{Name: "toolgate", Version: "v0.0.0"}
	}
	s.srv = mcp.NewServer(impl, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	s.srv.AddReceivingMiddleware(s.middleware)
	return s.srv, nil
}

// Handler returns an http.Handler serving reg's tools over the SDK's
// streamable HTTP transport (one server for all sessions), reading every
// body strictly first (see the package documentation). Wrap it in the
// authentication the CallerFunc relies on (auth.RequireBearerToken).
func Handler(reg *gate.Registry, caller CallerFunc, o *Options) (http.Handler, error) {
	srv, err := NewServer(reg, caller, o)
	if err != nil {
		return nil, err
	}
	var httpOpts mcp.StreamableHTTPOptions
	if o != nil && o.HTTP != nil {
		httpOpts = *o.HTTP
	}
	httpOpts = sessionBounds(httpOpts)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &httpOpts)
	return strict(h, bodyLimit(&httpOpts)), nil
}

// sessionBounds returns o with the default idle timeout when it has none.
func sessionBounds(o mcp.StreamableHTTPOptions) mcp.StreamableHTTPOptions {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	return o
}

func (s *server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "initialize" {
			return s.initialize(ctx, method, req, next)
		}
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			return s.list(ctx, r)
		case *mcp.CallToolRequest:
			return s.call(ctx, r)
		}
		return next(ctx, method, req)
	}
}

// callerOf runs the service's CallerFunc, refusing the request on error.
func (s *server) callerOf(ctx context.Context, req mcp.Request) (gate.Caller, error) {
	c, err := s.caller(ctx, req)
	if err != nil {
		return gate.Caller{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: ErrNoCaller}
	}
	return c, nil
}

// initialize initializes a session of a caller the CallerFunc accepts,
// while fewer than MaxSessions are initialized.
func (s *server) initialize(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	if _, err := s.callerOf(ctx, req); err != nil {
		return nil, err
	}
	s.initMu.Lock()
	defer s.initMu.Unlock()
	n := 0
	for ss := range s.srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	if n >= s.opts.MaxSessions {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: ErrTooManySessions}
	}
	return next(ctx, method, req)
}

func (s *server) list(ctx context.Context, req *mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	c, err := s.callerOf(ctx, req)
	if err != nil {
		return nil, err
	}
	if req.Params != nil && req.Params.Cursor != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown cursor: tools/list has one page"}
	}
	defs, derr := s.reg.Definitions(c.Principal, provider.MCP)
	if derr != nil && s.opts.OnListError != nil {
		s.opts.OnListError(ctx, derr)
	}
	res := &mcp.ListToolsResult{Tools: make([]*mcp.Tool, 0, len(defs))}
	res.CacheScope = "private"
	for _, def := range defs {
		t, err := s.tool(def)
		if err != nil {
			return nil, err
		}
		res.Tools = append(res.Tools, t)
	}
	return res, nil
}

// tool returns the SDK's Tool of a definition, parsed once.
func (s *server) tool(def string) (*mcp.Tool, error) {
	if t, ok := s.tools.Load(def); ok {
		return t.(*mcp.Tool), nil
	}
	t, err := MCPTool(def)
	if err != nil {
		return nil, err
	}
	s.tools.Store(def, t)
	return t, nil
}

// MCPTool builds the SDK's Tool from a generated MCP definition, with the
// input schema kept as raw JSON (byte for byte, key order included), so
// that the SDK neither infers nor re-serializes it.
func MCPTool(def string) (*mcp.Tool, error) {
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(def), &tool); err != nil {
		return nil, fmt.Errorf("mcpgate: MCP definition: %w", err)
	}
	var raw struct {
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal([]byte(def), &raw); err != nil {
		return nil, fmt.Errorf("mcpgate: MCP definition: %w", err)
	}
	tool.InputSchema = raw.InputSchema
	if raw.OutputSchema != nil {
		tool.OutputSchema = raw.OutputSchema
	}
	return &tool, nil
}

func (s *server) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := s.callerOf(ctx, req)
	if err != nil {
		return nil, err
	}
	args := []byte(req.Params.Arguments)
	if len(args) == 0 {
		args = []byte("{}")
	}
	res, err := s.reg.Dispatch(ctx, c, gate.Call{ID: callID(req), Name: req.Params.Name, Args: args, Complete: true, Dialect: gate.MCP})
	if err != nil {
		if res.Err.Code == toolerr.UnknownTool {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: res.Err.Reason}
		}
		text, merr := json.Marshal(res.Err)
		if merr != nil {
			return nil, merr
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}, nil
	}
	if res.JSON != nil {
		// A typed result, checked against the tool's outputSchema: its
		// bytes as structured content and, for clients that read only
		// text, as the text content too.
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}}, StructuredContent: json.RawMessage(res.JSON)}, nil
	}
	text, err := json.Marshal(res.Value)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
}

// callID is the gate's ID of a tools/call: its session ID, a space and its
// request ID as the strict reader stamped it, or "" when either is missing.
func callID(req *mcp.CallToolRequest) string {
	id, _ := req.Params.Meta[MetaRequestID].(string)
	session := req.Session.ID()
	if id == "" || session == "" {
		return ""
	}
	return session + " " + id
}
