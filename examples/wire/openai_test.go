package wire

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/toolgate/toolgate/runtime/provider"
)

const chatAnswer = `{"id":"chatcmpl-1","object":"chat.completion","created":0,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"ok","refusal":null},"finish_reason":"stop","logprobs":null}]}`

const responsesAnswer = `{"id":"resp_1","object":"response","created_at":0,"status":"completed","model":"gpt-test","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"temperature":1,"top_p":1}`

func openAIClient(c *capture) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(c.srv.URL+"/v1/"),
		option.WithAPIKey("test-key"),
		option.WithMaxRetries(0),
	)
}

// sendChat sends a chat completion with one tool and returns tools[0] as it
// crossed the wire.
func sendChat(t *testing.T, tool openai.ChatCompletionToolUnionParam) []byte {
	t.Helper()
	c := newCapture(t, chatAnswer)
	client := openAIClient(c)
	_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    openai.ChatModel("gpt-test"),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Refund order A-19.")},
		Tools:    []openai.ChatCompletionToolUnionParam{tool},
	})
	if err != nil {
		t.Fatalf("chat completion: %v", err)
	}
	body, path := c.last(t)
	if path != "/v1/chat/completions" {
		t.Fatalf("request went to %s", path)
	}
	got := wireTools(t, body)
	if len(got) != 1 {
		t.Fatalf("%d tools on the wire, want 1:\n%s", len(got), body)
	}
	return got[0]
}

// sendResponses sends a Responses request with one tool and returns
// tools[0] as it crossed the wire.
func sendResponses(t *testing.T, tool responses.ToolUnionParam) []byte {
	t.Helper()
	c := newCapture(t, responsesAnswer)
	client := openAIClient(c)
	_, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: shared.ResponsesModel("gpt-test"),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Refund order A-19.")},
		Tools: []responses.ToolUnionParam{tool},
	})
	if err != nil {
		t.Fatalf("responses: %v", err)
	}
	body, path := c.last(t)
	if path != "/v1/responses" {
		t.Fatalf("request went to %s", path)
	}
	got := wireTools(t, body)
	if len(got) != 1 {
		t.Fatalf("%d tools on the wire, want 1:\n%s", len(got), body)
	}
	return got[0]
}

// TestOpenAIChatWire sends every tool's generated OpenAIChat definition
// through openai-go's Chat Completions client, built two ways:
//
//   - typed, as most users would: shared.FunctionDefinitionParam with
//     Parameters as a map (shared.FunctionParameters) and Strict true. Every
//     keyword arrives with its value, but the SDK marshals the map with
//     encoding/json, which sorts object keys: properties reach the model in
//     alphabetical order, not the schema's. OpenAI strict output follows the
//     schema's key order, so this changes the order of the model's
//     arguments (trap, asserted).
//   - raw: param.Override[openai.ChatCompletionFunctionToolParam] with the
//     definition as json.RawMessage. The SDK sends the bytes as they are
//     (compacted, with encoding/json's HTML escaping of <, > and &), so
//     every key keeps its order (asserted, byte for byte).
func TestOpenAIChatWire(t *testing.T) {
	reordered := 0
	forEachTool(t, provider.OpenAIChat, func(t *testing.T, name string, def provider.Definition) {
		want := []byte(def.JSON)
		var d struct {
			Type     string `json:"type"`
			Function struct {
				Name        string         `json:"name"`
				Description string         `json:"description"`
				Parameters  map[string]any `json:"parameters"`
				Strict      bool           `json:"strict"`
			} `json:"function"`
		}
		if err := json.Unmarshal(want, &d); err != nil {
			t.Fatal(err)
		}
		if d.Type != "function" || d.Function.Name != name || !d.Function.Strict {
			t.Fatalf("definition is not a strict function tool named %s: %s", name, want)
		}

		t.Run("typed", func(t *testing.T) {
			got := sendChat(t, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:        d.Function.Name,
				Description: openai.String(d.Function.Description),
				Parameters:  shared.FunctionParameters(d.Function.Parameters),
				Strict:      openai.Bool(true),
			}))
			assertSameValue(t, "tools[0]", got, want)
			fn, _ := member(t, got, "function")
			if s, ok := member(t, fn, "strict"); !ok || string(s) != "true" {
				t.Errorf("function.strict on the wire = %s (present %v), want true", s, ok)
			}
			// The trap: the parameters map is sent with sorted keys at
			// every level.
			params, _ := member(t, fn, "parameters")
			assertSortedKeys(t, "function.parameters", params)
			wantFn, _ := member(t, want, "function")
			wantParams, _ := member(t, wantFn, "parameters")
			for _, ptr := range reorderedProperties(t, wantParams) {
				reordered++
				orders, _ := KeyOrders(params)
				wantOrders, _ := KeyOrders(wantParams)
				t.Logf("documented trap: %s reaches the model as %v, the schema says %v", ptr, orders[ptr], wantOrders[ptr])
			}
		})

		t.Run("raw", func(t *testing.T) {
			got := sendChat(t, openai.ChatCompletionToolUnionParam{
				OfFunction: new(param.Override[openai.ChatCompletionFunctionToolParam](json.RawMessage(def.JSON))),
			})
			assertSameValue(t, "tools[0]", got, want)
			assertOrderKept(t, "tools[0]", got, want)
			assertSameBytes(t, "tools[0]", got, want)
		})
	})
	if reordered == 0 {
		t.Error("no tool's properties were reordered: the sorted-keys trap was not exercised")
	}
}

// TestOpenAIResponsesWire sends every tool's generated OpenAIResponses
// definition through openai-go's Responses client: typed
// (responses.FunctionToolParam, Parameters as a map, Strict set from the
// definition) and raw (param.Override). As for Chat Completions, the typed
// construction sends every keyword with sorted keys, the raw one keeps the
// order. In both, "strict": true is on the wire explicitly.
//
// The trap: FunctionToolParam.Strict is a param.Opt[bool] tagged omitzero,
// so a tool built without it is sent without "strict" at all, and the
// Responses API then decides by itself (strict when it judges the schema
// compatible, per the SDK's own documentation) — the opposite of Chat
// Completions, where absent means false. A definition projected for strict
// mode (optional members sent as required and nullable) must say so; the
// test shows the SDK drops an unset Strict.
func TestOpenAIResponsesWire(t *testing.T) {
	forEachTool(t, provider.OpenAIResponses, func(t *testing.T, name string, def provider.Definition) {
		want := []byte(def.JSON)
		var d struct {
			Type        string         `json:"type"`
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
			Strict      *bool          `json:"strict"`
		}
		if err := json.Unmarshal(want, &d); err != nil {
			t.Fatal(err)
		}
		if d.Type != "function" || d.Name != name || d.Strict == nil {
			t.Fatalf("definition is not a function tool named %s with an explicit strict: %s", name, want)
		}
		wantParams, _ := member(t, want, "parameters")

		t.Run("typed", func(t *testing.T) {
			got := sendResponses(t, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
				Name:        d.Name,
				Description: openai.String(d.Description),
				Parameters:  d.Parameters,
				Strict:      openai.Bool(*d.Strict),
			}})
			assertSameValue(t, "tools[0]", got, want)
			if s, ok := member(t, got, "strict"); !ok || string(s) != "true" {
				t.Errorf("strict on the wire = %s (present %v), want true", s, ok)
			}
			params, _ := member(t, got, "parameters")
			assertSortedKeys(t, "parameters", params)
			if ptrs := reorderedProperties(t, wantParams); len(ptrs) > 0 {
				t.Logf("documented trap: properties reordered (sorted) at %v", ptrs)
			}
		})

		t.Run("raw", func(t *testing.T) {
			got := sendResponses(t, responses.ToolUnionParam{
				OfFunction: new(param.Override[responses.FunctionToolParam](json.RawMessage(def.JSON))),
			})
			assertSameValue(t, "tools[0]", got, want)
			assertOrderKept(t, "tools[0]", got, want)
			assertSameBytes(t, "tools[0]", got, want)
			if s, ok := member(t, got, "strict"); !ok || string(s) != "true" {
				t.Errorf("strict on the wire = %s (present %v), want true", s, ok)
			}
		})

		t.Run("strict-unset-trap", func(t *testing.T) {
			got := sendResponses(t, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
				Name:        d.Name,
				Description: openai.String(d.Description),
				Parameters:  d.Parameters,
			}})
			if s, ok := member(t, got, "strict"); ok {
				t.Errorf("the SDK sent strict = %s for an unset Strict; the documented trap (omitted) no longer holds", s)
			}
			// What the API then does is its own choice; the generated
			// definition never leaves it to chance.
		})
	})
}
