package adapter

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
)

func addSeeds(f *testing.F, dir string) {
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	for _, file := range files {
		name, _ := filepath.Rel("testdata", file)
		f.Add(readFixture(f, filepath.ToSlash(name)))
	}
}

// FuzzOpenAIChat: the adapter never panics, and each accepted call's
// arguments are exactly what encoding/json unquotes from the same member
// (the strict reader accepts a subset of what encoding/json does, so they
// must agree), or {} for an empty string of a complete call.
func FuzzOpenAIChat(f *testing.F) {
	addSeeds(f, "openai_chat")
	f.Fuzz(func(t *testing.T, body []byte) {
		turn, err := ParseOpenAIChat(body)
		if err != nil {
			return
		}
		var ref struct {
			Choices []struct {
				Message struct {
					ToolCalls []struct {
						ID       string
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
			}
		}
		if err := json.Unmarshal(body, &ref); err != nil {
			t.Fatalf("accepted a body encoding/json rejects: %v", err)
		}
		if len(turn.Calls) == 0 {
			return
		}
		calls := ref.Choices[0].Message.ToolCalls
		if len(calls) != len(turn.Calls) {
			t.Fatalf("%d calls, encoding/json sees %d", len(turn.Calls), len(calls))
		}
		for i, c := range turn.Calls {
			want := calls[i].Function.Arguments
			if want == "" && c.Complete {
				want = "{}"
			}
			if string(c.Args) != want || c.ID != calls[i].ID || c.Name != calls[i].Function.Name || c.Dialect != gate.OpenAIChat {
				t.Fatalf("call %d = %q %q %q, encoding/json: %q %q %q", i, c.ID, c.Name, c.Args, calls[i].ID, calls[i].Function.Name, want)
			}
		}
	})
}

// FuzzAnthropic: the adapter never panics, and each accepted call's
// arguments are a sub-slice of the body that is valid JSON.
func FuzzAnthropic(f *testing.F) {
	addSeeds(f, "anthropic")
	f.Fuzz(func(t *testing.T, body []byte) {
		turn, err := ParseAnthropic(body)
		if err != nil {
			return
		}
		for _, c := range turn.Calls {
			if !within(body, c.Args) || !json.Valid(c.Args) {
				t.Fatalf("arguments %q are not a valid sub-slice of the body", c.Args)
			}
		}
	})
}

// FuzzAnthropicStream: splitting a good stream's lines into events never
// panics, and whatever is accepted never reports a call complete unless
// message_stop was pushed.
func FuzzAnthropicStream(f *testing.F) {
	f.Add(readFixture(f, "streams/anthropic/parallel_text.jsonl"))
	f.Add(readFixture(f, "streams/anthropic/no_params.jsonl"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s AnthropicStream
		stopped := false
		for _, ev := range bytes.Split(data, []byte("\n")) {
			if s.Push(ev) != nil {
				return
			}
			stopped = stopped || bytes.Contains(ev, []byte("message_stop"))
		}
		turn, err := s.Turn()
		if err != nil {
			return
		}
		for _, c := range turn.Calls {
			if c.Complete && !stopped {
				t.Fatalf("call %s complete without message_stop", c.ID)
			}
		}
	})
}
