package wire

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/adapter"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
	"google.golang.org/genai"
)

// TestGeminiCallRoundTrip builds a model turn with genai's own response
// types, serializes it as the API sends it and serves it to the genai
// client; the body is read by adapter.ParseGemini (which must find the
// calls the SDK found: names, arguments, the provider's ID or a
// synthesized one) and dispatched through the gate as one batch. The
// results, from adapter.GeminiResults, are read back into the SDK's
// Content (FunctionResponse parts), sent through genai's generateContent
// with the turn's history, and the request body must carry them as the
// adapter wrote them. A turn with a refused call runs nothing.
func TestGeminiCallRoundTrip(t *testing.T) {
	status := &genai.FunctionCall{ID: "fc-1", Name: "get_order_status", Args: map[string]any{"orderId": "A-19"}}
	cases := []struct {
		name  string
		calls []*genai.FunctionCall
		runs  map[string]int
		codes []toolerr.Code // per call; "" for a success
	}{
		{
			name:  "both run",
			calls: []*genai.FunctionCall{status, {Name: "refund_order", Args: map[string]any{"orderId": "A-19", "amountInCents": 500, "reason": "duplicate"}}},
			runs:  map[string]int{"get_order_status": 1, "refund_order": 1},
			codes: []toolerr.Code{"", ""},
		},
		{
			name:  "a number sent as a string refuses the turn",
			calls: []*genai.FunctionCall{status, {Name: "refund_order", Args: map[string]any{"orderId": "A-19", "amountInCents": "500", "reason": "duplicate"}}},
			runs:  map[string]int{},
			codes: []toolerr.Code{toolerr.BatchAborted, toolerr.InvalidArguments},
		},
		{
			name:  "a hidden tool refuses the turn",
			calls: []*genai.FunctionCall{status, {Name: "schedule_order_dispatch", Args: map[string]any{"order_id": "A-19", "dispatch_date": "2025-06-01", "amount_pence": 500, "currency": "GBP"}}},
			runs:  map[string]int{},
			codes: []toolerr.Code{toolerr.BatchAborted, toolerr.UnknownTool},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parts := make([]*genai.Part, len(tc.calls))
			for i, c := range tc.calls {
				parts[i] = &genai.Part{FunctionCall: c}
			}
			answer, err := json.Marshal(&genai.GenerateContentResponse{
				ResponseID:   "resp-1",
				ModelVersion: geminiModel,
				Candidates:   []*genai.Candidate{{Content: &genai.Content{Role: genai.RoleModel, Parts: parts}, FinishReason: genai.FinishReasonStop}},
			})
			if err != nil {
				t.Fatal(err)
			}
			prompt := genai.NewContentFromText("Where is order A-19? Refund it.", genai.RoleUser)
			resp, _ := generate(t, string(answer), []*genai.Content{prompt})
			sdkCalls := resp.FunctionCalls()

			turn, err := adapter.ParseGemini(answer)
			if err != nil {
				t.Fatalf("ParseGemini: %v\n%s", err, answer)
			}
			if len(turn.Calls) != len(sdkCalls) || len(sdkCalls) != len(tc.calls) {
				t.Fatalf("the adapter found %d calls, the SDK %d, want %d", len(turn.Calls), len(sdkCalls), len(tc.calls))
			}
			for i, c := range turn.Calls {
				sc := sdkCalls[i]
				args, err := json.Marshal(sc.Args)
				if err != nil {
					t.Fatal(err)
				}
				if c.Name != sc.Name || len(JSONDiff(c.Args, args)) > 0 {
					t.Errorf("call %d: adapter %s %s, SDK %s %s", i, c.Name, c.Args, sc.Name, args)
				}
				if sc.ID != "" && c.ID != sc.ID || sc.ID == "" && !strings.HasPrefix(c.ID, adapter.GeminiIDPrefix) {
					t.Errorf("call %d: adapter ID %q, SDK ID %q", i, c.ID, sc.ID)
				}
			}

			reg, s := newSpiedRegistry(t)
			results := reg.DispatchBatch(context.Background(), gate.Caller{Principal: supportOnly, Scope: "gemini-wire"}, turn.Calls, gate.BatchOptions{})
			if n := s.count(); !maps.Equal(n, tc.runs) {
				t.Errorf("runs %v, want %v", n, tc.runs)
			}
			msg, err := adapter.GeminiResults(results)
			if err != nil {
				t.Fatal(err)
			}
			var content genai.Content
			if err := json.Unmarshal(msg, &content); err != nil {
				t.Fatalf("the SDK's Content cannot read the results: %v\n%s", err, msg)
			}
			if content.Role != genai.RoleUser || len(content.Parts) != len(tc.calls) {
				t.Fatalf("results content %s", msg)
			}
			for i, p := range content.Parts {
				fr := p.FunctionResponse
				if fr == nil || fr.Name != tc.calls[i].Name || fr.ID != tc.calls[i].ID {
					t.Fatalf("part %d: function response %+v, want name %s, ID %q", i, fr, tc.calls[i].Name, tc.calls[i].ID)
				}
				errValue, isErr := fr.Response["error"].(map[string]any)
				switch {
				case tc.codes[i] == "" && (isErr || fr.Response["output"] == nil):
					t.Errorf("part %d: response %v, want an output", i, fr.Response)
				case tc.codes[i] != "" && (!isErr || errValue["code"] != string(tc.codes[i])):
					t.Errorf("part %d: response %v, want an error %s", i, fr.Response, tc.codes[i])
				}
			}
			if tc.codes[0] == "" {
				output, _ := fr0(content).Response["output"].(map[string]any)
				if output["orderId"] != "A-19" || output["status"] == nil {
					t.Errorf("get_order_status output %v", output)
				}
			}

			_, req := generate(t, geminiAnswer, []*genai.Content{prompt, resp.Candidates[0].Content, &content})
			if len(req.Contents) != 3 {
				t.Fatalf("%d contents sent, want 3", len(req.Contents))
			}
			if d := JSONDiff(req.Contents[2], msg); len(d) > 0 {
				t.Errorf("the results went out otherwise than the adapter wrote them:\n  %s\ngot  %s\nwant %s", strings.Join(d, "\n  "), req.Contents[2], msg)
			}
		})
	}
}

// fr0 is the first part's function response.
func fr0(c genai.Content) *genai.FunctionResponse { return c.Parts[0].FunctionResponse }
