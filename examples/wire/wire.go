// Package wire checks toolgate's provider definitions against the official
// SDKs, on the wire: the tests build requests with openai-go (Chat
// Completions and Responses), anthropic-sdk-go and the MCP go-sdk from the
// generated definitions, capture the bytes that reach a loopback server (or,
// for MCP, that cross an in-memory transport), and compare the tool schemas
// in them with the generated definitions as JSON values and, where it
// matters, in key order. README.md lists the SDK traps the tests pin down.
//
// The package's non-test code is what a service would copy: NewMCPServer
// serves a gate registry's tools over MCP with their generated definitions,
// and JSONDiff and KeyOrders compare JSON texts.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// NewMCPServer returns an MCP server with the tools of reg that c's
// principal may see, each listed with its generated MCP definition exactly
// (mcpDefs maps a tool name to the JSON of its provider.MCP definition), and
// each call dispatched through reg for c in the MCP dialect.
//
// The tools are added with the low-level Server.AddTool and their raw input
// schemas (json.RawMessage), so the SDK neither infers nor re-serializes a
// schema, and it does not validate arguments: the gate's decoder is the only
// validator, and an argument error goes back to the model as an isError
// result whose text is the *toolerr.Error as JSON. A name that resolves to
// no tool p may see is a JSON-RPC invalid-params error, as the MCP
// specification says (the SDK answers so itself for a name it does not
// list; the handler answers so for a tool the gate no longer resolves).
func NewMCPServer(reg *gate.Registry, c gate.Caller, mcpDefs map[string]string) (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "toolgate", Version: "v0.0.0"}, nil)
	for _, t := range reg.Tools(c.Principal) {
		def, ok := mcpDefs[t.Name]
		if !ok {
			return nil, fmt.Errorf("wire: tool %s has no MCP definition", t.Name)
		}
		tool, err := MCPTool(def)
		if err != nil {
			return nil, err
		}
		srv.AddTool(tool, gateHandler(reg, c))
	}
	return srv, nil
}

// MCPTool builds the SDK's Tool from a generated MCP definition, with the
// input schema kept as raw JSON (byte for byte, key order included).
func MCPTool(def string) (*mcp.Tool, error) {
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(def), &tool); err != nil {
		return nil, fmt.Errorf("wire: MCP definition: %w", err)
	}
	var raw struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal([]byte(def), &raw); err != nil {
		return nil, fmt.Errorf("wire: MCP definition: %w", err)
	}
	tool.InputSchema = raw.InputSchema
	return &tool, nil
}

func gateHandler(reg *gate.Registry, c gate.Caller) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := reg.Dispatch(ctx, c, gate.Call{
			Name:     req.Params.Name,
			Args:     req.Params.Arguments,
			Complete: true,
			Dialect:  gate.MCP,
		})
		if err != nil {
			if res.Err.Code == toolerr.UnknownTool {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: res.Err.Reason}
			}
			text, merr := json.Marshal(res.Err)
			if merr != nil {
				return nil, merr
			}
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
		}
		text, err := json.Marshal(res.Value)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
	}
}

// Find returns the definition for p among defs.
func Find(defs []provider.Definition, p provider.Provider) (provider.Definition, bool) {
	for _, d := range defs {
		if d.Provider == p {
			return d, true
		}
	}
	return provider.Definition{}, false
}

// JSONDiff compares two JSON texts as JSON values: objects as sets of
// members, arrays in order, numbers by value (1e2 equals 100). It returns
// one line per difference, each naming the JSON pointer, or nil when they
// are equal.
func JSONDiff(got, want []byte) []string {
	g, err := decode(got)
	if err != nil {
		return []string{"got: " + err.Error()}
	}
	w, err := decode(want)
	if err != nil {
		return []string{"want: " + err.Error()}
	}
	var out []string
	diff("", g, w, &out)
	return out
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

func diff(ptr string, g, w any, out *[]string) {
	at := ptr
	if at == "" {
		at = "(root)"
	}
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
			return
		}
		keys := make([]string, 0, len(w)+len(gm))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			gv, gok := gm[k]
			wv, wok := w[k]
			switch {
			case !gok:
				*out = append(*out, fmt.Sprintf("%s: missing (want %s)", p, show(wv)))
			case !wok:
				*out = append(*out, fmt.Sprintf("%s: unexpected %s", p, show(gv)))
			default:
				diff(p, gv, wv, out)
			}
		}
	case []any:
		ga, ok := g.([]any)
		if !ok || len(ga) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
			return
		}
		for i := range w {
			diff(ptr+"/"+strconv.Itoa(i), ga[i], w[i], out)
		}
	case json.Number:
		gn, ok := g.(json.Number)
		if !ok || !sameNumber(gn, w) {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
		}
	default:
		if g != w {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
		}
	}
}

func sameNumber(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// KeyOrders returns the member names of every object in data, in document
// order, keyed by the object's JSON pointer ("" for the root).
func KeyOrders(data []byte) (map[string][]string, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	out := map[string][]string{}
	if err := walkOrders(d, "", out); err != nil {
		return nil, err
	}
	return out, nil
}

func walkOrders(d *json.Decoder, ptr string, out map[string][]string) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		keys := []string{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return err
			}
			name := k.(string)
			keys = append(keys, name)
			if err := walkOrders(d, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(name), out); err != nil {
				return err
			}
		}
		out[ptr] = keys
		_, err = d.Token()
		return err
	case json.Delim('['):
		for i := 0; d.More(); i++ {
			if err := walkOrders(d, ptr+"/"+strconv.Itoa(i), out); err != nil {
				return err
			}
		}
		_, err = d.Token()
		return err
	}
	return nil
}

// OrderDiffs lists, for every object present in both texts, the pointers
// where got has the members of want in another order, with both orders.
func OrderDiffs(got, want []byte) ([]string, error) {
	g, err := KeyOrders(got)
	if err != nil {
		return nil, err
	}
	w, err := KeyOrders(want)
	if err != nil {
		return nil, err
	}
	var out []string
	for ptr, wk := range w {
		if gk, ok := g[ptr]; ok && !slices.Equal(gk, wk) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", orRoot(ptr), gk, wk))
		}
	}
	sort.Strings(out)
	return out, nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}
