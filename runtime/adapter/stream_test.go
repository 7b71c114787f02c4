package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// streamFixtures are the expectations for testdata/streams/<dialect>/*.jsonl
// (one event payload per line). same names a whole-response fixture whose
// turn the stream must equal.
var streamFixtures = map[string]struct {
	want
	same string
}{
	"openai_chat/parallel.jsonl":            {same: "openai_chat/parallel.json", want: fixtures["openai_chat/parallel.json"]},
	"openai_chat/backwards.jsonl":           {want: want{calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", `{"orderId":"B-7"}`}}, complete: true, stop: "tool_calls", runs: 2}},
	"openai_chat/text_and_call.jsonl":       {same: "openai_chat/text_and_call.json", want: fixtures["openai_chat/text_and_call.json"]},
	"openai_chat/length.jsonl":              {same: "openai_chat/length.json", want: fixtures["openai_chat/length.json"]},
	"openai_chat/unfinished.jsonl":          {want: want{calls: []wantCall{{"call_1", "get_order", a19}}}},
	"openai_chat/done_without_finish.jsonl": {want: want{calls: []wantCall{{"call_1", "get_order", a19}}}},
	"openai_chat/empty_args.jsonl":          {same: "openai_chat/empty_args.json", want: fixtures["openai_chat/empty_args.json"]},
	"openai_chat/id_changes.jsonl":          {want: want{code: InvalidStream}},
	"openai_chat/name_changes.jsonl":        {want: want{code: InvalidStream}},
	"openai_chat/after_finish.jsonl":        {want: want{code: InvalidStream}},
	"openai_chat/tool_calls_no_calls.jsonl": {want: want{code: MissingCalls}},
	"openai_chat/missing_id.jsonl":          {want: want{code: MissingCallID}},
	"openai_chat/duplicate_id.jsonl":        {want: want{code: toolerr.DuplicateCall}},
	"openai_chat/duplicate_key.jsonl":       {want: want{code: InvalidEnvelope}},
	"openai_chat/second_choice.jsonl":       {want: want{code: InvalidEnvelope}},
	"openai_chat/case_variant_index.jsonl":  {want: want{code: InvalidEnvelope}},

	"openai_responses/parallel.jsonl":                     {same: "openai_responses/parallel_with_reasoning.json", want: fixtures["openai_responses/parallel_with_reasoning.json"]},
	"openai_responses/incomplete.jsonl":                   {same: "openai_responses/incomplete.json", want: fixtures["openai_responses/incomplete.json"]},
	"openai_responses/unfinished.jsonl":                   {want: want{calls: []wantCall{{"call_1", "get_order", a19}}}},
	"openai_responses/empty_args.jsonl":                   {same: "openai_responses/empty_args.json", want: fixtures["openai_responses/empty_args.json"]},
	"openai_responses/done_mismatch.jsonl":                {want: want{code: InvalidStream}},
	"openai_responses/final_mismatch.jsonl":               {want: want{code: InvalidStream}},
	"openai_responses/done_name_mismatch.jsonl":           {want: want{code: InvalidStream}},
	"openai_responses/delta_unknown_item.jsonl":           {want: want{code: InvalidStream}},
	"openai_responses/delta_after_done.jsonl":             {want: want{code: InvalidStream}},
	"openai_responses/error.jsonl":                        {want: want{code: ProviderError}},
	"openai_responses/unknown_item.jsonl":                 {want: want{code: UnknownType}},
	"openai_responses/after_completed.jsonl":              {want: want{code: InvalidStream}},
	"openai_responses/done_without_deltas.jsonl":          {same: "openai_responses/single.json", want: fixtures["openai_responses/single.json"]},
	"openai_responses/item_done_without_deltas.jsonl":     {same: "openai_responses/single.json", want: fixtures["openai_responses/single.json"]},
	"openai_responses/done_without_deltas_mismatch.jsonl": {want: want{code: InvalidStream}},

	"anthropic/parallel_text.jsonl":             {same: "anthropic/parallel_text.json", want: fixtures["anthropic/parallel_text.json"]},
	"anthropic/no_params.jsonl":                 {same: "anthropic/no_params.json", want: fixtures["anthropic/no_params.json"]},
	"anthropic/no_params_no_delta.jsonl":        {same: "anthropic/no_params.json", want: fixtures["anthropic/no_params.json"]},
	"anthropic/max_tokens.jsonl":                {want: want{calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}, {"toolu_02", "get_order", `{"ord`}}, stop: "max_tokens", truncated: true}},
	"anthropic/unfinished.jsonl":                {want: want{calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, stop: "tool_use"}},
	"anthropic/block_not_stopped.jsonl":         {want: want{calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, stop: "tool_use"}},
	"anthropic/placeholder_nonempty.jsonl":      {want: want{code: InvalidStream}},
	"anthropic/delta_before_start.jsonl":        {want: want{code: InvalidStream}},
	"anthropic/delta_after_stop.jsonl":          {want: want{code: InvalidStream}},
	"anthropic/restart_index.jsonl":             {want: want{code: InvalidStream}},
	"anthropic/before_message_start.jsonl":      {want: want{code: InvalidStream}},
	"anthropic/error.jsonl":                     {want: want{code: ProviderError}},
	"anthropic/unknown_block.jsonl":             {want: want{code: UnknownType}},
	"anthropic/unknown_delta.jsonl":             {want: want{code: UnknownType}},
	"anthropic/after_stop.jsonl":                {want: want{code: InvalidStream}},
	"anthropic/unknown_event.jsonl":             {same: "anthropic/single.json", want: fixtures["anthropic/single.json"]},
	"anthropic/tool_use_no_calls.jsonl":         {want: want{code: MissingCalls}},
	"anthropic/thinking.jsonl":                  {same: "anthropic/thinking.json", want: fixtures["anthropic/thinking.json"]},
	"anthropic/case_variant_partial_json.jsonl": {want: want{code: InvalidEnvelope}},
	"anthropic/duplicate_in_args.jsonl":         {same: "anthropic/duplicate_in_args.json", want: fixtures["anthropic/duplicate_in_args.json"]},
}

// feed pushes every line of a .jsonl fixture and returns the turn, or the
// first error (from Push or Turn).
func feed(t testing.TB, d gate.Dialect, events [][]byte) (Turn, error) {
	t.Helper()
	s, err := NewStream(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if err := s.Push(ev); err != nil {
			if err2 := s.Push([]byte(`{}`)); err2 != err {
				t.Errorf("errors are not sticky: Push after %v returned %v", err, err2)
			}
			if _, err3 := s.Turn(); err3 != err {
				t.Errorf("errors are not sticky: Turn after %v returned %v", err, err3)
			}
			return Turn{Dialect: d}, err
		}
	}
	return s.Turn()
}

func lines(b []byte) [][]byte { return bytes.Split(bytes.TrimSpace(b), []byte("\n")) }

func TestStreamFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/streams/*/*.jsonl")
	for _, f := range files {
		name, _ := filepath.Rel("testdata/streams", f)
		if _, ok := streamFixtures[filepath.ToSlash(name)]; !ok {
			t.Errorf("%s has no expectation", name)
		}
	}
	for name, tc := range streamFixtures {
		t.Run(name, func(t *testing.T) {
			d := dialectOf(name)
			turn, err := feed(t, d, lines(readFixture(t, "streams/"+name)))
			checkTurn(t, d, turn, err, tc.want)
			if tc.same != "" {
				whole, err := Parse(d, readFixture(t, tc.same))
				if err != nil {
					t.Fatal(err)
				}
				sameCalls(t, turn, whole)
			}
			runs, res := runTurn(t, turn, err)
			if runs != tc.runs {
				t.Errorf("%d executors ran, want %d", runs, tc.runs)
			}
			for _, r := range res {
				if tc.refuse != "" && (r.Err == nil || r.Err.Code != tc.refuse) {
					t.Errorf("call %s: result %+v, want refused with %s", r.CallID, r, tc.refuse)
				}
			}
		})
	}
}

// sameCalls compares the normalized calls and turn facts of two turns.
func sameCalls(t *testing.T, got, want Turn) {
	t.Helper()
	if got.Text != want.Text || got.Refusal != want.Refusal || got.StopReason != want.StopReason || got.Truncated != want.Truncated {
		t.Errorf("turn facts differ: %+v vs %+v", got, want)
	}
	if len(got.Calls) != len(want.Calls) {
		t.Fatalf("%d calls vs %d", len(got.Calls), len(want.Calls))
	}
	for i := range got.Calls {
		g, w := got.Calls[i], want.Calls[i]
		if g.ID != w.ID || g.Name != w.Name || !bytes.Equal(g.Args, w.Args) || g.Complete != w.Complete || g.Dialect != w.Dialect {
			t.Errorf("call %d: %+v (args %s) vs %+v (args %s)", i, g, g.Args, w, w.Args)
		}
	}
}

// TestIncompleteUntilEnd checks after every prefix of each good stream that
// no call is reported complete before the provider completes the turn.
func TestIncompleteUntilEnd(t *testing.T) {
	for name, tc := range streamFixtures {
		if tc.code != "" || !tc.complete {
			continue
		}
		d := dialectOf(name)
		evs := lines(readFixture(t, "streams/"+name))
		s, _ := NewStream(d)
		last := len(evs) - 1
		for last > 0 && !strings.Contains(string(evs[last]), "finish_reason\":\"") && !strings.Contains(string(evs[last]), "response.completed") && !strings.Contains(string(evs[last]), "message_stop") {
			last--
		}
		for i, ev := range evs {
			if err := s.Push(ev); err != nil {
				t.Fatalf("%s event %d: %v", name, i, err)
			}
			turn, err := s.Turn()
			if err != nil {
				t.Fatalf("%s after event %d: %v", name, i, err)
			}
			for _, c := range turn.Calls {
				if c.Complete != (i >= last) {
					t.Errorf("%s after event %d of %d: call %s complete=%t", name, i, len(evs), c.ID, c.Complete)
				}
			}
		}
	}
}

// The arguments used to re-chunk: escapes of every kind (\u00e9, a
// surrogate pair, \", \\, \n, \/), raw multi-byte UTF-8, a big integer and
// members in a deliberate order.
const rechunkArgs = `{"orderId":"A-19","note":"caf\u00e9 \"q\" back\\slash\n\/ \ud83d\ude00","raw":"é😀","n":123456789012345678901234567890,"a":[1.5e+3,{"z":null}]}`

// chunkings returns chunkings of s: split in two at every boundary, one
// byte per chunk, and n random chunkings from a seeded source. Boundaries
// fall between runes: an event carries valid UTF-8, and a provider never
// splits a raw character across events (escaped forms are split freely).
func chunkings(s string, n int) [][]string {
	var out [][]string
	for i := 0; i <= len(s); i++ {
		if i == len(s) || utf8.RuneStart(s[i]) {
			out = append(out, []string{s[:i], s[i:]})
		}
	}
	var single []string
	for _, r := range s {
		single = append(single, string(r))
	}
	out = append(out, single)
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		var c []string
		rest := s
		for rest != "" {
			k := min(len(rest), 1+rng.IntN(12))
			for k < len(rest) && !utf8.RuneStart(rest[k]) {
				k++
			}
			c = append(c, rest[:k])
			rest = rest[k:]
		}
		out = append(out, c)
	}
	return out
}

func js(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// rechunkers build, for each dialect, the events of a stream carrying one
// call whose argument fragments are frags, and the whole response that
// carries the same call.
var rechunkers = map[gate.Dialect]struct {
	events func(frags []string) []string
	whole  func(args string) string
}{
	gate.OpenAIChat: {
		events: func(frags []string) []string {
			evs := []string{`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_order","arguments":""}}]},"finish_reason":null}]}`}
			for _, f := range frags {
				evs = append(evs, `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":`+js(f)+`}}]},"finish_reason":null}]}`)
			}
			return append(evs, `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		},
		whole: func(args string) string {
			return `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_order","arguments":` + js(args) + `}}]},"finish_reason":"tool_calls"}]}`
		},
	},
	gate.OpenAIResponses: {
		events: func(frags []string) []string {
			evs := []string{`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_order","arguments":"","status":"in_progress"}}`}
			for _, f := range frags {
				evs = append(evs, `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":`+js(f)+`}`)
			}
			all := js(strings.Join(frags, ""))
			return append(evs,
				`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":`+all+`}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_order","arguments":`+all+`,"status":"completed"}}`,
				`{"type":"response.completed","response":{"status":"completed","output":[]}}`)
		},
		whole: func(args string) string {
			return `{"object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_order","arguments":` + js(args) + `,"status":"completed"}]}`
		},
	},
	gate.Anthropic: {
		events: func(frags []string) []string {
			evs := []string{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01","name":"get_order","input":{}}}`}
			for _, f := range frags {
				evs = append(evs, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+js(f)+`}}`)
			}
			return append(evs, `{"type":"content_block_stop","index":0}`, `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, `{"type":"message_stop"}`)
		},
		whole: func(args string) string {
			return `{"type":"message","content":[{"type":"tool_use","id":"toolu_01","name":"get_order","input":` + args + `}],"stop_reason":"tool_use"}`
		},
	},
}

// TestRechunk re-chunks the argument fragments of one call at every byte
// boundary and in random chunkings: every chunking must give the call of
// the whole response.
func TestRechunk(t *testing.T) {
	for d, rc := range rechunkers {
		whole, err := Parse(d, []byte(rc.whole(rechunkArgs)))
		if err != nil {
			t.Fatalf("%s whole: %v", d, err)
		}
		if string(whole.Calls[0].Args) != rechunkArgs {
			t.Fatalf("%s whole args = %s", d, whole.Calls[0].Args)
		}
		for i, frags := range chunkings(rechunkArgs, 300) {
			var evs [][]byte
			for _, e := range rc.events(frags) {
				evs = append(evs, []byte(e))
			}
			turn, err := feed(t, d, evs)
			if err != nil {
				t.Fatalf("%s chunking %d %q: %v", d, i, frags, err)
			}
			if len(turn.Calls) != 1 || !bytes.Equal(turn.Calls[0].Args, whole.Calls[0].Args) || turn.Calls[0].ID != whole.Calls[0].ID || !turn.Calls[0].Complete {
				t.Fatalf("%s chunking %d %q: got %+v (args %s), want args %s", d, i, frags, turn.Calls, turn.Calls[0].Args, whole.Calls[0].Args)
			}
		}
	}
}

// TestRechunkInterleaved interleaves the fragments of two parallel Chat
// calls in random orders; each call must assemble by its index.
func TestRechunkInterleaved(t *testing.T) {
	other := `{"orderId":"B-7","x":"\u00e9\\\""}`
	rng := rand.New(rand.NewPCG(3, 4))
	cs := chunkings(rechunkArgs, 50)
	os := chunkings(other, 50)
	for i := range 200 {
		a, b := cs[rng.IntN(len(cs))], os[rng.IntN(len(os))]
		evs := [][]byte{
			[]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"list_orders","arguments":""}}]},"finish_reason":null}]}`),
			[]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_order","arguments":""}}]},"finish_reason":null}]}`),
		}
		for len(a)+len(b) > 0 {
			k, frag := 0, ""
			if len(b) == 0 || (len(a) > 0 && rng.IntN(2) == 0) {
				frag, a = a[0], a[1:]
			} else {
				k, frag, b = 1, b[0], b[1:]
			}
			evs = append(evs, []byte(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]},"finish_reason":null}]}`, k, js(frag))))
		}
		evs = append(evs, []byte(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`))
		turn, err := feed(t, gate.OpenAIChat, evs)
		if err != nil {
			t.Fatal(err)
		}
		if len(turn.Calls) != 2 || string(turn.Calls[0].Args) != rechunkArgs || string(turn.Calls[1].Args) != other || turn.Calls[0].ID != "call_1" || turn.Calls[1].Name != "list_orders" {
			t.Fatalf("interleaving %d: %+v", i, turn.Calls)
		}
	}
}

func TestNewStreamZeroValues(t *testing.T) {
	for _, d := range []gate.Dialect{gate.OpenAIChat, gate.OpenAIResponses, gate.Anthropic} {
		s, err := NewStream(d)
		if err != nil {
			t.Fatal(err)
		}
		turn, err := s.Turn()
		if err != nil || len(turn.Calls) != 0 || turn.Dialect != d {
			t.Errorf("%s: empty stream gave %+v, %v", d, turn, err)
		}
		var e *Error
		if err := s.Push([]byte(`{"type":`)); !errors.As(err, &e) || e.Code != InvalidEnvelope {
			t.Errorf("%s: bad JSON gave %v", d, err)
		}
	}
}
