package wire

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// update_delivery_contact is the composed tool: contact is a tagged anyOf
// (kind "email" or "phone", decoded into a typed sum), instructions an
// anyOf [string, null]. TestOpenAIChatWire, TestOpenAIResponsesWire,
// TestAnthropicWire and TestMCPToolsList check that its definition arrives
// as generated; the tests here take a call of it back from each SDK and
// dispatch it through the gate.

// contactBinding records the arguments update_delivery_contact runs with.
func (s *spies) contactBinding() gate.Binding[generated.UpdateDeliveryContactArgs] {
	return gate.Binding[generated.UpdateDeliveryContactArgs]{
		Policy: gate.AllowAll[generated.UpdateDeliveryContactArgs],
		Execute: func(_ context.Context, a generated.UpdateDeliveryContactArgs) (any, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.runs["update_delivery_contact"]++
			s.contacts = append(s.contacts, a)
			return map[string]any{"order_id": a.OrderID, "recorded": true}, nil
		},
	}
}

// lastContact returns the arguments of the last run of
// update_delivery_contact.
func (s *spies) lastContact(t *testing.T) generated.UpdateDeliveryContactArgs {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.contacts) == 0 {
		t.Fatal("update_delivery_contact did not run")
	}
	return s.contacts[len(s.contacts)-1]
}

// contactCalls are arguments of update_delivery_contact as a model sends
// them: the valid ones with the branch they decode into, the refused ones
// with the violation that refuses them.
var contactCalls = []struct {
	name, args string
	// For a valid call: the branch and its value.
	email, phone string
	// For a refused call: the first violation.
	keyword, pointer string
}{
	{name: "email", args: `{"order_id":"A-19","contact":{"kind":"email","email":"ada@example.com"},"instructions":null}`, email: "ada@example.com"},
	{name: "phone", args: `{"order_id":"A-19","contact":{"kind":"phone","phone":"+447700900123"},"instructions":"leave with the neighbour"}`, phone: "+447700900123"},
	{name: "unknown-kind", args: `{"order_id":"A-19","contact":{"kind":"fax","fax":"+447700900123"},"instructions":null}`, keyword: "anyOf", pointer: "/contact"},
	{name: "mismatched-kind", args: `{"order_id":"A-19","contact":{"kind":"email","phone":"+447700900123"},"instructions":null}`, keyword: "additionalProperties", pointer: "/contact/phone"},
	{name: "both-branches", args: `{"order_id":"A-19","contact":{"kind":"phone","phone":"+447700900123","email":"ada@example.com"},"instructions":null}`, keyword: "additionalProperties", pointer: "/contact/email"},
	{name: "bad-phone", args: `{"order_id":"A-19","contact":{"kind":"phone","phone":"07700 900123"},"instructions":null}`, keyword: "pattern", pointer: "/contact/phone"},
}

// checkContactCall dispatches args as the SDK returned them, in dialect d,
// and checks the outcome against want: a valid call runs once with its
// contact decoded into the branch it names; a refused one is
// invalid_arguments with the expected violation, and nothing runs.
func checkContactCall(t *testing.T, d gate.Dialect, args []byte, want int) {
	t.Helper()
	c := contactCalls[want]
	reg, s := newSpiedRegistry(t)
	res, err := reg.Dispatch(context.Background(), gate.Caller{Principal: supportOnly, Scope: "wire"},
		gate.Call{ID: "call-1", Name: "update_delivery_contact", Args: args, Complete: true, Dialect: d})
	if c.keyword != "" {
		var te *toolerr.Error
		if !errors.As(err, &te) || te.Code != toolerr.InvalidArguments || len(te.Violations()) == 0 ||
			te.Violations()[0].Keyword != c.keyword || te.Violations()[0].InstancePath != c.pointer {
			t.Fatalf("%s: error %v, want invalid_arguments with first violation %s at %s", c.name, err, c.keyword, c.pointer)
		}
		if runs := s.count(); len(runs) != 0 || res.Executed {
			t.Errorf("%s: refused, yet executor runs %v (executed %v)", c.name, runs, res.Executed)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if runs := s.count(); runs["update_delivery_contact"] != 1 || len(runs) != 1 {
		t.Errorf("%s: executor runs %v", c.name, runs)
	}
	a := s.lastContact(t)
	e, isEmail := a.Contact.Email()
	p, isPhone := a.Contact.Phone()
	switch {
	case c.email != "" && (!isEmail || isPhone || e.Email != c.email):
		t.Errorf("%s: contact decoded as email %v %+v, phone %v; want email %s", c.name, isEmail, e, isPhone, c.email)
	case c.phone != "" && (!isPhone || isEmail || p.Phone != c.phone):
		t.Errorf("%s: contact decoded as phone %v %+v, email %v; want phone %s", c.name, isPhone, p, isEmail, c.phone)
	}
	if a.OrderID != "A-19" || !a.Instructions.IsSet() {
		t.Errorf("%s: arguments %+v", c.name, a)
	}
}

// TestComposedCallOpenAIChat: a chat completion whose tool call carries
// each of contactCalls, parsed by openai-go, dispatched in the OpenAI Chat
// dialect.
func TestComposedCallOpenAIChat(t *testing.T) {
	for i, c := range contactCalls {
		t.Run(c.name, func(t *testing.T) {
			call := map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "update_delivery_contact", "arguments": c.args}}
			answer, err := json.Marshal(map[string]any{
				"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-test",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "logprobs": nil,
					"message": map[string]any{"role": "assistant", "content": nil, "refusal": nil, "tool_calls": []any{call}}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			client := openAIClient(newCapture(t, string(answer)))
			out, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
				Model:    openai.ChatModel("gpt-test"),
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Email ada@example.com about order A-19.")},
			})
			if err != nil {
				t.Fatal(err)
			}
			calls := out.Choices[0].Message.ToolCalls
			if len(calls) != 1 || calls[0].Function.Name != "update_delivery_contact" {
				t.Fatalf("tool calls %+v", calls)
			}
			checkContactCall(t, gate.OpenAIChat, []byte(calls[0].Function.Arguments), i)
		})
	}
}

// TestComposedCallAnthropic: a Messages answer whose tool_use block carries
// each of contactCalls, parsed by anthropic-sdk-go, dispatched in the
// Anthropic dialect.
func TestComposedCallAnthropic(t *testing.T) {
	for i, c := range contactCalls {
		t.Run(c.name, func(t *testing.T) {
			answer := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"toolu_1","name":"update_delivery_contact","input":` +
				c.args + `}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
			cp := newCapture(t, answer)
			client := anthropic.NewClient(aoption.WithBaseURL(cp.srv.URL+"/"), aoption.WithAPIKey("test-key"), aoption.WithMaxRetries(0))
			msg, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
				Model:     anthropic.Model("claude-test"),
				MaxTokens: 64,
				Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Email ada@example.com about order A-19."))},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(msg.Content) != 1 || msg.Content[0].Type != "tool_use" || msg.Content[0].Name != "update_delivery_contact" {
				t.Fatalf("content %+v", msg.Content)
			}
			checkContactCall(t, gate.Anthropic, msg.Content[0].Input, i)
		})
	}
}

// TestComposedCallMCP: tools/call of each of contactCalls through the
// go-sdk client to a gate-backed server. A refused call is an isError
// result carrying invalid_arguments, and nothing runs.
func TestComposedCallMCP(t *testing.T) {
	for _, c := range contactCalls {
		t.Run(c.name, func(t *testing.T) {
			reg, s := newSpiedRegistry(t)
			cs, _ := connectGate(t, reg, supportOnly)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "update_delivery_contact", Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			text := ""
			if len(res.Content) == 1 {
				if tc, ok := res.Content[0].(*mcp.TextContent); ok {
					text = tc.Text
				}
			}
			if c.keyword != "" {
				var te toolerr.Error
				if !res.IsError || json.Unmarshal([]byte(text), &te) != nil || te.Code != toolerr.InvalidArguments ||
					len(te.Violations()) == 0 || te.Violations()[0].Keyword != c.keyword || te.Violations()[0].InstancePath != c.pointer {
					t.Fatalf("isError %v, text %s; want invalid_arguments with first violation %s at %s", res.IsError, text, c.keyword, c.pointer)
				}
				if runs := s.count(); len(runs) != 0 {
					t.Errorf("refused, yet executor runs %v", runs)
				}
				return
			}
			if res.IsError || !strings.Contains(text, `"recorded":true`) {
				t.Fatalf("valid call: isError %v, text %s", res.IsError, text)
			}
			a := s.lastContact(t)
			e, isEmail := a.Contact.Email()
			p, isPhone := a.Contact.Phone()
			if isEmail == isPhone || (isEmail && e.Email != c.email) || (isPhone && p.Phone != c.phone) || (c.email != "") != isEmail {
				t.Errorf("contact decoded as email %v %+v, phone %v %+v; want email %q phone %q", isEmail, e, isPhone, p, c.email, c.phone)
			}
		})
	}
}
