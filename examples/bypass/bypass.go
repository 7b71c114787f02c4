// Package bypass holds, on purpose, one of each way around the gate that
// toolgate vet reports, written against the real provider SDKs: the
// examples module runs toolgate vet in make test and expects exactly these
// findings (vet.golden), and nothing anywhere else. Nothing calls this
// code; do not copy it.
package bypass

import (
	"context"
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
)

// refundArgs is a second, hand-written copy of the refund_order arguments.
type refundArgs struct {
	OrderID       string `json:"orderId"`
	AmountInCents int64  `json:"amountInCents"`
}

// OpenAIRefund decodes an openai-go tool call's arguments with
// encoding/json: no strict decoding, no authorization.
func OpenAIRefund(call openai.ChatCompletionMessageToolCallUnion) (refundArgs, error) {
	var a refundArgs
	err := json.Unmarshal([]byte(call.Function.Arguments), &a)
	return a, err
}

// AnthropicRefund does the same with an anthropic-sdk-go tool use block.
func AnthropicRefund(block anthropic.ToolUseBlock) (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal(block.Input, &m)
	return m, err
}

// MCPRefund does the same with the MCP go-sdk's raw call parameters.
func MCPRefund(req *mcp.CallToolRequest) (refundArgs, error) {
	var a refundArgs
	err := json.Unmarshal(req.Params.Arguments, &a)
	return a, err
}

func cancel(context.Context, generated.CancelOrderArgs) (any, error) { return "cancelled", nil }

// anyone lets every caller cancel any order: it never reads the principal.
func anyone(_ context.Context, _ gate.Principal, a generated.CancelOrderArgs) error { return nil }

// Binding binds cancel_order to cancel behind anyone.
func Binding() gate.Binding[generated.CancelOrderArgs] {
	return gate.Binding[generated.CancelOrderArgs]{Policy: anyone, Execute: cancel}
}

// Nightly calls the executor directly, around the gate.
func Nightly(ctx context.Context, orderID string) error {
	_, err := cancel(ctx, generated.CancelOrderArgs{OrderID: orderID})
	return err
}
