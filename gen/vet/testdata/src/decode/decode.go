// Package decode holds tool-call arguments decoded outside the gate, and
// near misses.
package decode

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	openai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/tidwall/gjson"
	"github.com/toolgate/toolgate/runtime/adapter"
	"github.com/toolgate/toolgate/runtime/gate"
	"google.golang.org/genai"
	"tools"
)

type refund struct {
	OrderID string `json:"orderId"`
}

func chatUnmarshal(call openai.ChatCompletionMessageToolCallUnion) error {
	var a refund
	return json.Unmarshal([]byte(call.Function.Arguments), &a) // want `tool-call arguments from openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach encoding/json.Unmarshal outside the gate; pass the raw bytes to runtime/adapter`
}

func chatLoop(msg *openai.ChatCompletionMessage) {
	for _, call := range msg.ToolCalls {
		s := call.Function.Arguments
		b := []byte(s)
		var m map[string]any
		_ = json.Unmarshal(b, &m) // want `openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach encoding/json.Unmarshal`
	}
}

func chatDecoder(call openai.ChatCompletionMessageToolCallUnion) error {
	var a refund
	return json.NewDecoder(strings.NewReader(call.Function.Arguments)).Decode(&a) // want `reach encoding/json.NewDecoder`
}

func chatGJSON(call openai.ChatCompletionMessageToolCallUnion) string {
	return gjson.Get(call.Function.Arguments, "orderId").Raw // want `openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach github.com/tidwall/gjson.Get outside the gate`
}

func responsesGenerated(item responses.ResponseFunctionToolCall) (tools.RefundOrderArgs, error) {
	return tools.DecodeRefundOrderArgs([]byte(item.Arguments)) // want `openai-go ResponseFunctionToolCall.Arguments reach the generated DecodeRefundOrderArgs, called outside a registry,`
}

func responsesUnion(item responses.ResponseOutputItemUnion) error {
	var a refund
	return json.Unmarshal([]byte(item.Arguments.OfString), &a) // want `openai-go ResponseOutputItemUnion.Arguments reach encoding/json.Unmarshal`
}

func goSDKAddTool(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "refund_order"}, func(ctx context.Context, req *mcp.CallToolRequest, a refund) (*mcp.CallToolResult, any, error) { // want `MCP go-sdk mcp.AddTool reach the SDK's own decoding outside the gate; add the tool with Server.AddTool and hand the raw arguments to the registry \(runtime/mcpgate does\) instead`
		return nil, nil, nil
	})
}

// Server.AddTool hands the raw arguments on: no report.
func goSDKRawTool(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: "refund_order"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, nil
	})
}

func anthropicInput(block anthropic.ToolUseBlock) error {
	var a refund
	return json.Unmarshal(block.Input, &a) // want `anthropic-sdk-go ToolUseBlock.Input reach encoding/json.Unmarshal`
}

func goSDKRaw(req *mcp.CallToolRequest) error {
	var a refund
	return json.NewDecoder(bytes.NewReader(req.Params.Arguments)).Decode(&a) // want `MCP go-sdk CallToolParamsRaw.Arguments reach encoding/json.NewDecoder`
}

func goSDKMap(p *mcp.CallToolParams) string {
	m := p.Arguments.(map[string]any) // want `MCP go-sdk CallToolParams.Arguments reach a type assertion to map\[string\]any`
	s, _ := m["orderId"].(string)
	return s
}

func mcpGo(req gomcp.CallToolRequest) any {
	if m, ok := req.Params.Arguments.(map[string]any); ok { // want `mcp-go CallToolParams.Arguments reach a type assertion`
		return m["orderId"]
	}
	return nil
}

func mcpGoMethods(req gomcp.CallToolRequest) (refund, error) {
	var a refund
	if err := req.BindArguments(&a); err != nil { // want `mcp-go CallToolRequest.BindArguments reach the SDK's own decoding outside the gate`
		return a, err
	}
	id, err := req.RequireString("orderId") // want `mcp-go CallToolRequest.RequireString reach the SDK's own decoding`
	a.OrderID = id
	_ = req.GetInt("amount", 0)      // want `mcp-go CallToolRequest.GetInt reach the SDK's own decoding`
	_ = req.GetArguments()["reason"] // want `mcp-go CallToolRequest.GetArguments reach a map read`
	raw := req.GetRawArguments()
	_, _ = raw.(map[string]any) // want `mcp-go CallToolRequest.GetRawArguments reach a type assertion`
	_ = req.GetName()
	return a, err
}

func genaiArgs(fc *genai.FunctionCall) any {
	return fc.Args["orderId"] // want `genai FunctionCall.Args reach a map read`
}

func genaiRange(fc genai.FunctionCall) int {
	n := 0
	for range fc.Args { // want `genai FunctionCall.Args reach a range over the map`
		n++
	}
	return n
}

// Through the package's own functions: the argument of a helper, and the
// result of one.

func argsOf(call openai.ChatCompletionMessageToolCallUnion) string {
	return call.Function.Arguments
}

func viaResult(call openai.ChatCompletionMessageToolCallUnion) error {
	var a refund
	return json.Unmarshal([]byte(argsOf(call)), &a) // want `openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach encoding/json.Unmarshal`
}

func decodeHelper(data []byte) (refund, error) {
	var a refund
	err := json.Unmarshal(data, &a) // want `anthropic-sdk-go ToolUseBlock.Input reach encoding/json.Unmarshal`
	return a, err
}

func viaParam(block anthropic.ToolUseBlock) (refund, error) {
	return decodeHelper(block.Input)
}

type holder struct {
	raw string
}

func viaStruct(call openai.ChatCompletionMessageToolCallUnion) error {
	h := &holder{}
	h.raw = call.Function.Arguments
	var a refund
	return json.Unmarshal([]byte(h.raw), &a) // want `reach encoding/json.Unmarshal`
}

func viaClosure(block anthropic.ToolUseBlock) error {
	decode := func(b []byte) error {
		var a refund
		return json.Unmarshal(b, &a) // want `anthropic-sdk-go ToolUseBlock.Input reach encoding/json.Unmarshal`
	}
	return decode(block.Input)
}

// request wraps a call's arguments.
type request struct {
	Tool string
	Raw  string
}

func handle(r request) error {
	var a refund
	return json.Unmarshal([]byte(r.Raw), &a) // want `openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach encoding/json.Unmarshal`
}

func viaWrapper(call openai.ChatCompletionMessageToolCallUnion) error {
	return handle(request{Tool: call.Function.Name, Raw: call.Function.Arguments})
}

// The wrapper's other fields, read one by one, are not the arguments.
func toolOf(call openai.ChatCompletionMessageToolCallUnion) error {
	r := &request{Tool: call.Function.Name, Raw: call.Function.Arguments}
	var s string
	return json.Unmarshal([]byte(r.Tool), &s)
}

func viaCapture(call openai.ChatCompletionMessageToolCallUnion) func() error {
	args := call.Function.Arguments
	return func() error {
		var a refund
		return json.Unmarshal([]byte(args), &a) // want `openai-go ChatCompletionMessageFunctionToolCallFunction.Arguments reach encoding/json.Unmarshal`
	}
}

func viaCaptureByReference(block anthropic.ToolUseBlock) error {
	var raw []byte
	decode := func() error {
		var a refund
		return json.Unmarshal(raw, &a) // want `anthropic-sdk-go ToolUseBlock.Input reach encoding/json.Unmarshal`
	}
	raw = block.Input
	return decode()
}

// Near misses: none of these reports.

// The arguments go to the adapter and the registry.
func throughGate(ctx context.Context, reg *gate.Registry, p gate.Principal, call openai.ChatCompletionMessageToolCallUnion) (any, error) {
	return reg.Dispatch(ctx, p, adapter.Call(call.ID, call.Function.Name, []byte(call.Function.Arguments)))
}

// The name of the tool is not its arguments.
func nameOnly(call openai.ChatCompletionMessageToolCallUnion) error {
	var s string
	return json.Unmarshal([]byte(call.Function.Name), &s)
}

// What a service sends is not what the model wrote.
func param(p openai.ChatCompletionMessageFunctionToolCallFunctionParam) error {
	var a refund
	return json.Unmarshal([]byte(p.Arguments), &a)
}

// Bytes from elsewhere decoded with encoding/json.
func config(data []byte) error {
	var a refund
	return json.Unmarshal(data, &a)
}

// decodeHelper on bytes that are not a tool call's.
func fromConfig() (refund, error) {
	return decodeHelper([]byte(`{"orderId":"A-1"}`))
}

// decodeForTests decodes what its only caller, a test, hands it.
func decodeForTests(data []byte) (refund, error) {
	var a refund
	err := json.Unmarshal(data, &a)
	return a, err
}

// Logging the arguments' length is not decoding them.
func length(call openai.ChatCompletionMessageToolCallUnion) int {
	return len(call.Function.Arguments)
}
