package mcpgate

import (
	"context"
	"crypto/rand"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StrictTransport wraps another transport of the SDK (stdio, IO, in
// memory) for NewServer's Connect or Run:
//
//	srv.Run(ctx, mcpgate.StrictTransport(&mcp.StdioTransport{}))
//
// It reads the params of every request strictly, as Handler does (no
// member name twice, except within a tools/call's arguments, which the
// gate refuses itself), and stamps a tools/call with its request ID (see
// MetaRequestID). A refused request is answered with a JSON-RPC
// invalid-params error and never reaches the server. The SDK's transport
// has already decoded the envelope (jsonrpc, id, method, params), which
// only Handler reads strictly.
//
// A connection without a session ID of its own (stdio) gets a random one,
// so that its calls are replay-checked per connection.
func StrictTransport(t mcp.Transport) mcp.Transport { return strictTransport{t} }

type strictTransport struct{ inner mcp.Transport }

func (t strictTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	id := c.SessionID()
	if id == "" {
		id = rand.Text()
	}
	return &strictConn{Connection: c, id: id}, nil
}

type strictConn struct {
	mcp.Connection
	id string
}

func (c *strictConn) SessionID() string { return c.id }

// Read returns the next message whose params are strict; it answers a
// refused request and drops a refused notification.
func (c *strictConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return nil, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || len(req.Params) == 0 {
			return msg, nil
		}
		params, err := checkParams(req.Method, req.Params, idText(req))
		if err == nil {
			req.Params = params
			return req, nil
		}
		if !req.IsCall() {
			continue
		}
		resp := &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "malformed payload: " + err.Error()}}
		if err := c.Connection.Write(ctx, resp); err != nil {
			return nil, err
		}
	}
}

// idText is the JSON text of a request's ID, or "" for a notification.
func idText(req *jsonrpc.Request) string {
	switch v := req.ID.Raw().(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		return jsonString(v)
	}
	return ""
}
