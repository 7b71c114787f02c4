// Command agentloop shows the loop a real agent runs around toolgate, for
// OpenAI Chat Completions and Anthropic Messages: the model's response
// (canned here; a real agent gets it from the provider's API) goes through
// the provider adapter, the calls of the turn go through the gate as one
// batch, and the results go back as the provider's tool-result message —
// an error result carries the toolerr JSON, so the model can correct its
// call.
//
//	go run ./agentloop
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/adapter"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Canned model responses, as the providers send them.
const (
	// openAIResponse asks for an order's status.
	openAIResponse = `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4.1","choices":[{"index":0,
		"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[
			{"id":"call_1","type":"function","function":{"name":"get_order_status","arguments":"{\"orderId\":\"A-19\"}"}}]},
		"finish_reason":"tool_calls"}]}`
	// anthropicResponse asks for a refund with the amount as a string,
	// which the gate refuses: nothing runs, and the model is told why.
	anthropicResponse = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[
		{"type":"text","text":"I'll refund the order."},
		{"type":"tool_use","id":"toolu_01","name":"refund_order","input":{"orderId":"A-19","amountInCents":"2500","reason":"duplicate"}}],
		"stop_reason":"tool_use","stop_sequence":null}`
	// anthropicTruncated was cut by max_tokens: its call is incomplete.
	anthropicTruncated = `{"id":"msg_2","type":"message","role":"assistant","content":[
		{"type":"tool_use","id":"toolu_02","name":"refund_order","input":{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}}],
		"stop_reason":"max_tokens"}`
)

// agent is a service with its gate and a log of what the executors did.
type agent struct {
	reg    *gate.Registry
	caller gate.Caller
	ran    []string
}

func newAgent() (*agent, error) {
	a := &agent{caller: gate.Caller{Principal: gate.Principal{ID: "agent-7", Tenant: "shop-1", Roles: []string{"support"}}, Scope: "conversation-42"}}
	record := func(what string) { a.ran = append(a.ran, what) }
	reg, err := generated.NewRegistry(generated.Bindings{
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{
			Policy: gate.AllowAll[generated.GetOrderStatusArgs],
			Execute: func(_ context.Context, args generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				record("get_order_status " + args.OrderID)
				return generated.GetOrderStatusResult{OrderID: args.OrderID, Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-01-02T09:30:00Z"}, nil
			},
		},
		RefundOrder: gate.Binding[generated.RefundOrderArgs]{
			Policy: gate.AllowAll[generated.RefundOrderArgs],
			Execute: func(_ context.Context, args generated.RefundOrderArgs) (any, error) {
				record(fmt.Sprintf("refund_order %s %d", args.OrderID, args.AmountInCents))
				return map[string]string{"refund": "re_1"}, nil
			},
			// Large refunds wait for a person of the finance role
			// (refundgateway shows the whole flow).
			NeedsApproval: func(_ context.Context, _ gate.Principal, args generated.RefundOrderArgs) (bool, string) {
				return args.AmountInCents > 50000, "refunds above 50000 cents need a second person"
			},
		},
		CancelOrder: gate.Binding[generated.CancelOrderArgs]{
			Policy:  gate.AllowAll[generated.CancelOrderArgs],
			Execute: func(context.Context, generated.CancelOrderArgs) (any, error) { return nil, nil },
		},
		CreateShipment: gate.Binding[generated.CreateShipmentArgs]{
			Policy:  gate.AllowAll[generated.CreateShipmentArgs],
			Execute: func(context.Context, generated.CreateShipmentArgs) (any, error) { return nil, nil },
		},
		ScheduleOrderDispatch: gate.Binding[generated.ScheduleOrderDispatchArgs]{
			Policy:  gate.AllowAll[generated.ScheduleOrderDispatchArgs],
			Execute: func(context.Context, generated.ScheduleOrderDispatchArgs) (any, error) { return nil, nil },
		},
		UpdateDeliveryContact: gate.Binding[generated.UpdateDeliveryContactArgs]{
			Policy:  gate.AllowAll[generated.UpdateDeliveryContactArgs],
			Execute: func(context.Context, generated.UpdateDeliveryContactArgs) (any, error) { return nil, nil },
		},
	})
	a.reg = reg
	return a, err
}

// openAITurn handles one Chat Completions response and returns the tool
// messages to append to the conversation.
func (a *agent) openAITurn(ctx context.Context, body []byte) ([]json.RawMessage, error) {
	turn, err := adapter.ParseOpenAIChat(body)
	if err != nil {
		return nil, err // a malformed envelope: nothing runs
	}
	results := a.reg.DispatchBatch(ctx, a.caller, turn.Calls, gate.BatchOptions{})
	return adapter.OpenAIChatResults(results)
}

// anthropicTurn handles one Messages response and returns the user message
// of tool_result blocks to send next.
func (a *agent) anthropicTurn(ctx context.Context, body []byte) (json.RawMessage, error) {
	turn, err := adapter.ParseAnthropic(body)
	if err != nil {
		return nil, err
	}
	results := a.reg.DispatchBatch(ctx, a.caller, turn.Calls, gate.BatchOptions{})
	return adapter.AnthropicResults(results)
}

func main() {
	ctx := context.Background()
	a, err := newAgent()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	msgs, err := a.openAITurn(ctx, []byte(openAIResponse))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("OpenAI Chat, tool messages:")
	for _, m := range msgs {
		fmt.Println(" ", string(m))
	}
	for _, body := range []string{anthropicResponse, anthropicTruncated} {
		msg, err := a.anthropicTurn(ctx, []byte(body))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("Anthropic, next user message:")
		fmt.Println(" ", string(msg))
	}
	fmt.Println("executors run:", a.ran)
}
