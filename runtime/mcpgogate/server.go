// Package mcpgogate serves a gate registry's tools over MCP with
// mark3labs/mcp-go, over its streamable HTTP and stdio transports.
//
//	srv, err := mcpgogate.NewServer(reg, func(ctx context.Context) (gate.Caller, error) {
//		user, ok := ctx.Value(userKey{}).(string) // put there by the service's WithHTTPContextFunc
//		if !ok {
//			return gate.Caller{}, errors.New("no user")
//		}
//		return gate.Caller{Principal: principals[user], Scope: server.ClientSessionFromContext(ctx).SessionID()}, nil
//	}, nil)
//	h := mcpgogate.Handler(srv, &mcpgogate.HTTPOptions{Streamable: []server.StreamableHTTPOption{server.WithHTTPContextFunc(authenticate)}})
//
// The service's CallerFunc derives the trusted caller of every tools/list
// and tools/call from the request's context, which holds what the
// transport verified (the service's HTTPContextFunc or StdioContextFunc
// puts it there). Nothing in it comes from the model.
//
//   - tools/list returns exactly the tools the caller's principal may see,
//     each its generated MCP definition as Registry.Definitions returns it
//     for provider.MCP, computed per request; the input and output schemas
//     are sent as raw JSON, byte for byte. mcp-go always writes the tool's
//     "annotations" member: a definition without one is listed with {}.
//   - tools/call is read by the strict reader and by mcp-go (encoding/json,
//     which also decodes the arguments into a map nothing here uses), and
//     what runs is decided on the strict read: every tools/call message is
//     first read whole by adapter.ParseMCP
//     (duplicate members, members that differ from "name" or "arguments"
//     only in case, invalid UTF-8 and trailing data refuse the request
//     with a JSON-RPC invalid-request error before mcp-go reads it). The
//     envelope being unambiguous, the arguments mcp-go keeps as raw bytes
//     (CallToolParams.RawArguments) are the only ones the message has, and
//     the gate's decoder reads them, never mcp-go's map; a duplicate member
//     inside them is the decoder's invalid_json.
//   - A name that resolves to no tool the principal may see, missing or
//     hidden alike, is mcp-go's own invalid-params error for a missing tool
//     (-32602, "tool 'NAME' not found: tool not found"), the same for both,
//     and nothing runs.
//   - Invalid arguments, refusals and failures are isError results
//     (SEP-1303), so that the model can read and repair them: the
//     *toolerr.Error as JSON, both as the text content and as structured
//     content. A success is the executor's value as JSON text; for a tool
//     with an outputSchema, the typed result the gate checked against it,
//     byte for byte, as structuredContent and as its text content.
//
// Tools are registered with mcp-go on the first call a caller may make to
// them; mcp-go's input validation (WithInputSchemaValidation) is never
// turned on, since the gate's decoder is the only validator (the README
// shows what it lets through). MCP's tools/call carries no call ID of the
// model's, so calls are not replay-checked. Handler bounds request bodies
// and sessions (see HTTPOptions); ServeStdio bounds lines.
package mcpgogate

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/toolgate/toolgate/runtime/adapter"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
)

// CallerFunc derives the trusted caller of one request from its context:
// what the transport verified, and the session
// (server.ClientSessionFromContext). An error refuses the request (a
// JSON-RPC invalid-request error with the message ErrNoCaller; the error's
// text is not sent). It is called more than once per request and must
// give the same answer each time.
type CallerFunc func(ctx context.Context) (gate.Caller, error)

// Options configure the server.
type Options struct {
	// Name and Version name the server to clients (default "toolgate",
	// "v0.0.0").
	Name, Version string
	// Server options are passed to server.NewMCPServer after the ones the
	// gate needs (tool capabilities, the request hook, the tool filter).
	// Another tool filter would narrow what is listed and callable; mcp-go's
	// WithInputSchemaValidation would validate mcp-go's map before the
	// gate (see the README): leave it out.
	Server []server.ServerOption
	// OnListError, when set, receives the error of Registry.Definitions
	// when a tool the principal may see has no MCP definition (it is left
	// out of tools/list and cannot be called).
	OnListError func(ctx context.Context, err error)
}

// ErrNoCaller is the message of the error answered when the CallerFunc
// fails.
const ErrNoCaller = "the request has no authorized caller"

// errNoCaller refuses a request whose caller cannot be derived.
var errNoCaller = errors.New(ErrNoCaller)

type gateServer struct {
	reg    *gate.Registry
	caller CallerFunc
	opts   Options
	mcp    *server.MCPServer
	tools  sync.Map // definition JSON → mcp.Tool
	added  sync.Map // tool name → *sync.Once that registers it with mcp-go
}

// NewServer returns an mcp-go server serving reg's tools to each request's
// caller. Serve it with Handler or ServeStdio (or any mcp-go transport;
// then bound its input yourself).
func NewServer(reg *gate.Registry, caller CallerFunc, o *Options) (*server.MCPServer, error) {
	if reg == nil || caller == nil {
		return nil, errors.New("mcpgogate: a registry and a CallerFunc are required")
	}
	s := &gateServer{reg: reg, caller: caller}
	if o != nil {
		s.opts = *o
	}
	name, version := s.opts.Name, s.opts.Version
	if name == "" {
		name = "toolgate"
	}
	if version == "" {
		version = "v0.0.0"
	}
	hooks := &server.Hooks{}
	hooks.AddOnRequestInitialization(s.admit)
	opts := append([]server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithHooks(hooks),
		server.WithToolFilter(s.visible),
		server.WithMethodCacheHints(mcp.MethodToolsList, 0, mcp.CacheScopePrivate),
	}, s.opts.Server...)
	s.mcp = server.NewMCPServer(name, version, opts...)
	return s.mcp, nil
}

// admit runs before mcp-go handles a request. It refuses a tools/list or
// tools/call without a caller, and a tools/call whose envelope the strict
// reader refuses; it registers the tool of a call the caller may make.
func (s *gateServer) admit(ctx context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	method, err := methodOf(raw)
	if err != nil || method != mcp.MethodToolsList && method != mcp.MethodToolsCall {
		return nil // mcp-go answers other methods, and messages it cannot read
	}
	c, err := s.caller(ctx)
	if err != nil {
		return errNoCaller
	}
	if method == mcp.MethodToolsList {
		return nil
	}
	turn, err := adapter.ParseMCP(raw)
	if err != nil {
		var ae *adapter.Error
		if errors.As(err, &ae) {
			return errors.New(ae.Reason)
		}
		return err
	}
	name := turn.Calls[0].Name
	for _, t := range s.list(ctx, c.Principal) {
		if t.Name == name {
			s.register(t)
			break
		}
	}
	return nil
}

// methodOf reads the method of a JSON-RPC message as mcp-go reads it
// (encoding/json), so that every message mcp-go handles as a tools/call is
// one admit reads strictly.
func methodOf(raw []byte) (mcp.MCPMethod, error) {
	var m struct {
		Method mcp.MCPMethod `json:"method"`
	}
	err := json.Unmarshal(raw, &m)
	return m.Method, err
}

// register adds t to mcp-go once, with the gate as its handler; a
// concurrent call of the same tool waits until it is added.
func (s *gateServer) register(t mcp.Tool) {
	once, _ := s.added.LoadOrStore(t.Name, new(sync.Once))
	once.(*sync.Once).Do(func() { s.mcp.AddTool(t, s.call) })
}

// visible is the tool filter: the tools the request's principal may see,
// whatever mcp-go has registered. mcp-go lists what it returns, and lets a
// call through only if the called tool is among them.
func (s *gateServer) visible(ctx context.Context, _ []mcp.Tool) []mcp.Tool {
	c, err := s.caller(ctx)
	if err != nil {
		return nil
	}
	return s.list(ctx, c.Principal)
}

// list returns the MCP tools p may see, from Registry.Definitions.
func (s *gateServer) list(ctx context.Context, p gate.Principal) []mcp.Tool {
	defs, derr := s.reg.Definitions(p, provider.MCP)
	if derr != nil && s.opts.OnListError != nil {
		s.opts.OnListError(ctx, derr)
	}
	out := make([]mcp.Tool, 0, len(defs))
	for _, def := range defs {
		t, err := s.tool(def)
		if err != nil {
			if s.opts.OnListError != nil {
				s.opts.OnListError(ctx, err)
			}
			continue
		}
		out = append(out, t)
	}
	return out
}

// tool returns mcp-go's Tool of a definition, built once.
func (s *gateServer) tool(def string) (mcp.Tool, error) {
	if t, ok := s.tools.Load(def); ok {
		return t.(mcp.Tool), nil
	}
	t, err := Tool(def)
	if err != nil {
		return mcp.Tool{}, err
	}
	s.tools.Store(def, t)
	return t, nil
}

// call runs a tools/call through the gate, on the raw arguments.
func (s *gateServer) call(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := s.caller(ctx)
	if err != nil {
		return nil, errNoCaller
	}
	args := []byte(req.Params.RawArguments)
	if len(args) == 0 {
		args = []byte("{}")
	}
	res, _ := s.reg.Dispatch(ctx, c, gate.Call{Name: req.Params.Name, Args: args, Complete: true, Dialect: gate.MCP})
	return Result(res)
}
