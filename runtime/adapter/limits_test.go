package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestMCPDuplicateArgsIsError: a tools/call whose arguments repeat a member
// is answered with an isError result carrying invalid_json, which the model
// can correct (SEP-1303), not with a JSON-RPC error; no executor runs.
func TestMCPDuplicateArgsIsError(t *testing.T) {
	turn, err := ParseMCP(readFixture(t, "mcp/duplicate_in_args.json"))
	if err != nil {
		t.Fatalf("the envelope was refused: %v", err)
	}
	runs, res := runTurn(t, turn, err)
	if runs != 0 || len(res) != 1 {
		t.Fatalf("%d executors ran, %d results", runs, len(res))
	}
	msg, err := MCPResult(res[0])
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		ID     json.RawMessage  `json:"id"`
		Error  *json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct{ Text string }
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &out); err != nil {
		t.Fatal(err)
	}
	var te toolerr.Error
	if out.Error != nil || !out.Result.IsError || string(out.ID) != "7" || len(out.Result.Content) != 1 {
		t.Fatalf("result %s, want an isError result for id 7", msg)
	}
	if err := json.Unmarshal([]byte(out.Result.Content[0].Text), &te); err != nil || te.Code != toolerr.InvalidJSON {
		t.Errorf("content %s: code %q, want invalid_json", out.Result.Content[0].Text, te.Code)
	}
}

// streamOf builds the events of a stream of one dialect carrying calls
// calls (keys from first, stepping by step), each with args split into
// frags equal fragments, and text text blocks of 120 bytes.
type streamSpec struct {
	calls, first, step, frags, text int
	args                            string
}

func (sp streamSpec) events(d gate.Dialect) [][]byte {
	var evs []string
	add := func(format string, a ...any) { evs = append(evs, fmt.Sprintf(format, a...)) }
	frag := func(i int) string {
		n := len(sp.args) / sp.frags
		if i == sp.frags-1 {
			return sp.args[i*n:]
		}
		return sp.args[i*n : (i+1)*n]
	}
	line := strings.Repeat("x", 120)
	switch d {
	case gate.OpenAIChat:
		for i := range sp.text {
			add(`{"choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}]}`, js(fmt.Sprint(i%10)+line[1:]))
		}
		for c := range sp.calls {
			k := sp.first + c*sp.step
			add(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"get_order","arguments":""}}]},"finish_reason":null}]}`, k, k)
			for f := range sp.frags {
				add(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]},"finish_reason":null}]}`, k, js(frag(f)))
			}
		}
		add(`{"choices":[{"index":0,"delta":{},"finish_reason":%s}]}`, js(map[bool]string{true: "tool_calls", false: "stop"}[sp.calls > 0]))
	case gate.OpenAIResponses:
		add(`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`)
		for range sp.text {
			add(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":%s}`, js(line))
		}
		for c := range sp.calls {
			k := sp.first + c*sp.step
			add(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"get_order","arguments":"","status":"in_progress"}}`, k, k, k)
			for f := range sp.frags {
				add(`{"type":"response.function_call_arguments.delta","item_id":"fc_%d","output_index":%d,"delta":%s}`, k, k, js(frag(f)))
			}
			add(`{"type":"response.output_item.done","output_index":%d,"item":{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"get_order","arguments":%s,"status":"completed"}}`, k, k, k, js(sp.args))
		}
		add(`{"type":"response.completed","response":{"status":"completed","output":[]}}`)
	case gate.Anthropic:
		add(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`)
		for i := range sp.text {
			add(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i)
			add(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, js(line))
			add(`{"type":"content_block_stop","index":%d}`, i)
		}
		for c := range sp.calls {
			k := sp.text + sp.first + c*sp.step
			add(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_%d","name":"get_order","input":{}}}`, k, k)
			for f := range sp.frags {
				add(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, k, js(frag(f)))
			}
			add(`{"type":"content_block_stop","index":%d}`, k)
		}
		add(`{"type":"message_delta","delta":{"stop_reason":%s}}`, js(map[bool]string{true: "tool_use", false: "end_turn"}[sp.calls > 0]))
		add(`{"type":"message_stop"}`)
	}
	out := make([][]byte, len(evs))
	for i, e := range evs {
		out[i] = []byte(e)
	}
	return out
}

// pushAll feeds events and returns the first error, and how many events
// were accepted.
func pushAll(d gate.Dialect, events [][]byte) (Turn, int, error) {
	s, _ := NewStream(d)
	for i, ev := range events {
		if err := s.Push(ev); err != nil {
			return Turn{}, i, err
		}
	}
	t, err := s.Turn()
	return t, len(events), err
}

func wantLimit(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != LimitExceeded {
		t.Fatalf("error %v, want limit_exceeded", err)
	}
}

var streamDialects = []gate.Dialect{gate.OpenAIChat, gate.OpenAIResponses, gate.Anthropic}

// TestStreamCallBytesCap: one call's argument fragments may total
// MaxCallBytes; the fragment that passes it fails the stream with
// limit_exceeded, and nothing of it is buffered.
func TestStreamCallBytesCap(t *testing.T) {
	const frags = 64
	for _, d := range streamDialects {
		at := streamSpec{calls: 1, frags: frags, args: `"` + strings.Repeat("a", MaxCallBytes-2) + `"`}
		if _, _, err := pushAll(d, at.events(d)); err != nil {
			t.Errorf("%s: arguments of exactly MaxCallBytes: %v", d, err)
		}
		over := at
		over.args += " "
		evs := over.events(d)
		s, _ := NewStream(d)
		var err error
		for _, ev := range evs {
			if err = s.Push(ev); err != nil {
				break
			}
		}
		wantLimit(t, err)
		st := stateOf(s)
		if n := len(st.calls[0].args); n > MaxCallBytes || st.size > MaxCallBytes {
			t.Errorf("%s: %d bytes buffered for the call (%d in all), cap %d", d, n, st.size, MaxCallBytes)
		}
	}
}

// stateOf returns the state of an assembler.
func stateOf(s Stream) *streamState {
	switch s := s.(type) {
	case *OpenAIChatStream:
		return &s.s
	case *OpenAIResponsesStream:
		return &s.s
	case *AnthropicStream:
		return &s.s
	}
	panic("unknown stream")
}

// TestStreamCallsCap: a stream may carry MaxStreamCalls calls; the next one
// fails it with limit_exceeded.
func TestStreamCallsCap(t *testing.T) {
	for _, d := range streamDialects {
		sp := streamSpec{calls: MaxStreamCalls, step: 1, frags: 1, args: `{}`}
		turn, _, err := pushAll(d, sp.events(d))
		if err != nil || len(turn.Calls) != MaxStreamCalls {
			t.Fatalf("%s: %d calls: %v", d, len(turn.Calls), err)
		}
		sp.calls++
		_, n, err := pushAll(d, sp.events(d))
		wantLimit(t, err)
		if n == len(sp.events(d)) {
			t.Errorf("%s: the error came at the end of the stream", d)
		}
	}
}

// TestStreamBytesCap: what a stream buffers in all (arguments and text
// together) is capped at MaxStreamBytes, even when every call stays under
// MaxCallBytes: a call of 1 MiB arguments, then text events of 1 MiB until
// the cap is passed.
func TestStreamBytesCap(t *testing.T) {
	mib := js(strings.Repeat("t", 1<<20))
	text := map[gate.Dialect]string{
		gate.OpenAIChat:      `{"choices":[{"index":0,"delta":{"content":` + mib + `},"finish_reason":null}]}`,
		gate.OpenAIResponses: `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":` + mib + `}`,
		gate.Anthropic:       `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + mib + `}}`,
	}
	for _, d := range streamDialects {
		evs := streamSpec{calls: 1, first: 1, frags: 1, args: `"` + strings.Repeat("b", MaxCallBytes-2) + `"`}.events(d)
		end := 2 // not the end of the stream: Chat's finish chunk, the others' two final events
		if d == gate.OpenAIChat {
			end = 1
		}
		evs = evs[:len(evs)-end]
		if d == gate.Anthropic {
			evs = append(evs, []byte(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
		}
		s, _ := NewStream(d)
		for _, ev := range evs {
			if err := s.Push(ev); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
		}
		before := MaxCallBytes
		if d == gate.Anthropic {
			before += 2 * blockCost // the tool_use and text blocks
		}
		if got := stateOf(s).size; got != before {
			t.Errorf("%s: %d bytes counted before the text, want %d", d, got, before)
		}
		ev := []byte(text[d])
		fit := (MaxStreamBytes - before) >> 20
		pushed := 0
		var err error
		for ; pushed <= MaxStreamBytes>>20; pushed++ {
			if err = s.Push(ev); err != nil {
				break
			}
		}
		wantLimit(t, err)
		if st := stateOf(s); st.size > MaxStreamBytes || pushed != fit || fit < 62 {
			t.Errorf("%s: %d bytes buffered after %d text events, cap %d", d, st.size, pushed, MaxStreamBytes)
		}
	}
}

// TestStreamTextAllocs bounds the allocations of a stream of text events:
// a constant number per event (the per-event parse), not growing with the
// text already assembled.
func TestStreamTextAllocs(t *testing.T) {
	for _, d := range streamDialects {
		perEvent := func(n int) float64 {
			evs := streamSpec{text: n}.events(d)
			return testing.AllocsPerRun(2, func() { pushAll(d, evs) }) / float64(len(evs))
		}
		small, large := perEvent(100), perEvent(3000)
		if large > small+1 {
			t.Errorf("%s: %.1f allocations per event at 3000 text events, %.1f at 100", d, large, small)
		}
	}
}

// TestWholeTextAllocs: a whole response of many text blocks allocates a
// bounded number of times per block, and its bytes allocated grow
// linearly (quadratic concatenation would make 10x the blocks cost 100x).
func TestWholeTextAllocs(t *testing.T) {
	for _, d := range []gate.Dialect{gate.OpenAIResponses, gate.Anthropic, gate.Gemini} {
		small, large := wholeText(d, 500), wholeText(d, 5000)
		allocs := func(body []byte) float64 {
			return testing.AllocsPerRun(3, func() {
				if _, err := Parse(d, body); err != nil {
					t.Fatal(err)
				}
			})
		}
		sa, la := allocs(small), allocs(large)
		if la > 11*sa {
			t.Errorf("%s: %.0f allocations for 5000 blocks, %.0f for 500", d, la, sa)
		}
		a, b := bytesAllocated(d, small), bytesAllocated(d, large)
		if b > 20*a {
			t.Errorf("%s: %d bytes allocated for 5000 blocks, %d for 500: not linear", d, b, a)
		}
	}
}

// bytesAllocated measures the bytes one Parse of body allocates.
func bytesAllocated(d gate.Dialect, body []byte) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Parse(d, body)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// wholeText builds a whole response of one dialect with n text blocks (or
// parts) of 120 bytes and one call.
func wholeText(d gate.Dialect, n int) []byte {
	var b bytes.Buffer
	line := js(strings.Repeat("y", 120))
	sep := func(i int) {
		if i > 0 {
			b.WriteByte(',')
		}
	}
	switch d {
	case gate.OpenAIResponses:
		b.WriteString(`{"status":"completed","output":[{"type":"message","content":[`)
		for i := range n {
			sep(i)
			b.WriteString(`{"type":"output_text","text":` + line + `}`)
		}
		b.WriteString(`]},{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_order","arguments":"{}","status":"completed"}]}`)
	case gate.Anthropic:
		b.WriteString(`{"type":"message","content":[`)
		for i := range n {
			sep(i)
			b.WriteString(`{"type":"text","text":` + line + `}`)
		}
		b.WriteString(`,{"type":"tool_use","id":"toolu_1","name":"get_order","input":{}}],"stop_reason":"tool_use"}`)
	case gate.Gemini:
		b.WriteString(`{"responseId":"r","candidates":[{"content":{"parts":[`)
		for i := range n {
			sep(i)
			b.WriteString(`{"text":` + line + `}`)
		}
		b.WriteString(`,{"functionCall":{"name":"get_order","args":{}}}]},"finishReason":"STOP"}]}`)
	}
	return b.Bytes()
}

// TestStreamKeepsNoEvent: after Push the assembler holds no reference to
// the event (its parsers are reset), and after a large event it drops the
// parsers, whose scratch buffers may have grown to the event's size.
func TestStreamKeepsNoEvent(t *testing.T) {
	for _, d := range streamDialects {
		evs := streamSpec{calls: 1, frags: 2, args: `{"note":"` + strings.Repeat(`\u00e9`, 20000) + `"}`}.events(d)
		s, _ := NewStream(d)
		for i, ev := range evs {
			if err := s.Push(ev); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			st := stateOf(s)
			if len(ev) > 64<<10 {
				if st.p != nil {
					t.Errorf("%s event %d (%d bytes): the parsers are kept", d, i, len(ev))
				}
				continue
			}
			for q := st.p; q != nil; q = q.spare {
				if q.r.Data() != nil {
					t.Errorf("%s event %d: a parser still reads the event", d, i)
				}
			}
		}
		if turn, err := s.Turn(); err != nil || len(turn.Calls) != 1 || !turn.Calls[0].Complete {
			t.Errorf("%s: %+v, %v", d, turn, err)
		}
	}
}
