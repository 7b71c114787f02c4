package adapter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// wantCall is what the adapter promises about one call.
type wantCall struct{ id, name, args string }

// want is what the adapter promises about one fixture. Completeness is a
// property of the turn: every call has the same.
type want struct {
	calls     []wantCall
	complete  bool
	text      string
	refusal   string
	stop      string
	truncated bool
	code      toolerr.Code // the adapter's error, if any
	runs      int          // executors the end-to-end test expects to run
	refuse    toolerr.Code // the gate's code for the refused call, if any
}

// dupArgs are arguments with a duplicate member: returned as they are,
// refused per call by the decoder.
const dupArgs = `{"orderId": "A-19", "orderId": "Z-1"}`

const a19 = `{"orderId":"A-19"}`

var gem = GeminiIDPrefix + "mD1XaO3TKKy7:0:"

// fixtures are the expectations for every file under testdata/<dialect>/.
var fixtures = map[string]want{
	"openai_chat/single.json":                  {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "tool_calls", runs: 1},
	"openai_chat/parallel.json":                {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", `{"orderId":"B-7"}`}, {"call_3", "list_orders", `{}`}}, complete: true, stop: "tool_calls", runs: 3},
	"openai_chat/text_and_call.json":           {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, text: "Let me look that up.", stop: "tool_calls", runs: 1},
	"openai_chat/refusal.json":                 {refusal: "I can't help with that.", stop: "stop"},
	"openai_chat/text_only.json":               {text: "Hello.", stop: "stop"},
	"openai_chat/named_choice_stop.json":       {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "stop", runs: 1},
	"openai_chat/length.json":                  {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", `{"orderId":"B-`}}, stop: "length", truncated: true},
	"openai_chat/content_filter.json":          {calls: []wantCall{{"call_1", "get_order", a19}}, stop: "content_filter"},
	"openai_chat/unknown_finish.json":          {calls: []wantCall{{"call_1", "get_order", a19}}, stop: "something_new"},
	"openai_chat/null_finish.json":             {calls: []wantCall{{"call_1", "get_order", a19}}},
	"openai_chat/empty_args.json":              {calls: []wantCall{{"call_1", "list_orders", `{}`}}, complete: true, stop: "tool_calls", runs: 1},
	"openai_chat/empty_args_required.json":     {calls: []wantCall{{"call_1", "get_order", `{}`}}, complete: true, stop: "tool_calls"},
	"openai_chat/empty_object_args.json":       {calls: []wantCall{{"call_1", "list_orders", `{}`}}, complete: true, stop: "tool_calls", runs: 1},
	"openai_chat/string_in_string.json":        {calls: []wantCall{{"call_1", "get_order", `"{\"orderId\":\"A-19\"}"`}}, complete: true, stop: "tool_calls"},
	"openai_chat/escaped_args.json":            {calls: []wantCall{{"call_1", "get_order", `{"orderId":"A-\u00e9\"x\\", "n": 12345678901234567890123}`}}, complete: true, stop: "tool_calls"},
	"openai_chat/invalid_args.json":            {calls: []wantCall{{"call_1", "get_order", `{"orderId":19}`}}, complete: true, stop: "tool_calls"},
	"openai_chat/unknown_tool.json":            {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "delete_everything", `{}`}}, complete: true, stop: "tool_calls"},
	"openai_chat/missing_id.json":              {code: MissingCallID},
	"openai_chat/empty_id.json":                {code: MissingCallID},
	"openai_chat/duplicate_id.json":            {code: toolerr.DuplicateCall},
	"openai_chat/duplicate_name.json":          {code: InvalidEnvelope},
	"openai_chat/duplicate_arguments.json":     {code: InvalidEnvelope},
	"openai_chat/duplicate_escaped_key.json":   {code: InvalidEnvelope},
	"openai_chat/tool_calls_no_calls.json":     {code: MissingCalls},
	"openai_chat/custom_type.json":             {code: UnknownType},
	"openai_chat/legacy_function_call.json":    {code: UnknownType},
	"openai_chat/missing_arguments.json":       {code: InvalidEnvelope},
	"openai_chat/new_fields.json":              {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "tool_calls", runs: 1},
	"openai_chat/two_choices.json":             {code: InvalidEnvelope},
	"openai_chat/error_body.json":              {code: ProviderError},
	"openai_chat/trailing_data.json":           {code: InvalidEnvelope},
	"openai_chat/no_choices.json":              {},
	"openai_chat/no_choices_member.json":       {code: InvalidEnvelope},
	"openai_chat/case_variant_name.json":       {code: InvalidEnvelope},
	"openai_chat/case_variant_arguments.json":  {code: InvalidEnvelope},
	"openai_chat/case_variant_tool_calls.json": {code: InvalidEnvelope},
	"openai_chat/case_variant_escaped.json":    {code: InvalidEnvelope},
	"openai_chat/empty_name.json":              {code: InvalidEnvelope},
	"openai_chat/duplicate_in_args.json":       {calls: []wantCall{{"call_1", "get_order", `{"orderId":"A-19","orderId":"Z-1"}`}}, complete: true, stop: "tool_calls", refuse: toolerr.InvalidJSON},

	"openai_responses/single.json":                  {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "completed", runs: 1},
	"openai_responses/parallel_with_reasoning.json": {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", `{"orderId":"B-7"}`}}, complete: true, text: "Checking both.", stop: "completed", runs: 2},
	"openai_responses/incomplete.json":              {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", `{"orderId":"B`}}, stop: "incomplete", truncated: true},
	"openai_responses/item_in_progress.json":        {calls: []wantCall{{"call_1", "get_order", a19}, {"call_2", "get_order", a19}}, stop: "completed"},
	"openai_responses/no_item_status.json":          {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "completed", runs: 1},
	"openai_responses/failed.json":                  {calls: []wantCall{{"call_1", "get_order", a19}}, stop: "failed"},
	"openai_responses/empty_args.json":              {calls: []wantCall{{"call_1", "list_orders", `{}`}}, complete: true, stop: "completed", runs: 1},
	"openai_responses/missing_call_id.json":         {code: MissingCallID},
	"openai_responses/duplicate_call_id.json":       {code: toolerr.DuplicateCall},
	"openai_responses/duplicate_arguments.json":     {code: InvalidEnvelope},
	"openai_responses/unknown_item.json":            {code: UnknownType},
	"openai_responses/computer_call.json":           {code: UnknownType},
	"openai_responses/refusal.json":                 {refusal: "I can't help with that.", stop: "completed"},
	"openai_responses/unknown_content.json":         {code: UnknownType},
	"openai_responses/hosted_tools.json":            {calls: []wantCall{{"call_1", "get_order", a19}}, complete: true, stop: "completed", runs: 1},
	"openai_responses/no_output.json":               {code: InvalidEnvelope},
	"openai_responses/output_renamed.json":          {code: InvalidEnvelope},
	"openai_responses/output_case_variant.json":     {code: InvalidEnvelope},
	"openai_responses/case_variant_call_id.json":    {code: InvalidEnvelope},
	"openai_responses/case_variant_long_s.json":     {code: InvalidEnvelope},
	"openai_responses/empty_name.json":              {code: InvalidEnvelope},
	"openai_responses/duplicate_in_args.json":       {calls: []wantCall{{"call_1", "get_order", `{"orderId":"A-19","orderId":"Z-1"}`}}, complete: true, stop: "completed", refuse: toolerr.InvalidJSON},

	"anthropic/single.json":                   {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "tool_use", runs: 1},
	"anthropic/parallel_text.json":            {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}, {"toolu_02", "get_order", `{ "orderId" : "B-7" }`}}, complete: true, text: "I'll look up both orders.", stop: "tool_use", runs: 2},
	"anthropic/max_tokens.json":               {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}, {"toolu_02", "get_order", `{}`}}, stop: "max_tokens", truncated: true},
	"anthropic/context_window.json":           {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, stop: "model_context_window_exceeded", truncated: true},
	"anthropic/no_params.json":                {calls: []wantCall{{"toolu_01", "list_orders", `{}`}}, complete: true, stop: "tool_use", runs: 1},
	"anthropic/tool_use_no_calls.json":        {code: MissingCalls},
	"anthropic/unknown_block.json":            {code: UnknownType},
	"anthropic/thinking.json":                 {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "tool_use", runs: 1},
	"anthropic/end_turn_with_call.json":       {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "end_turn", runs: 1},
	"anthropic/text_only.json":                {text: "Hello.", stop: "end_turn"},
	"anthropic/missing_input.json":            {code: InvalidEnvelope},
	"anthropic/missing_id.json":               {code: MissingCallID},
	"anthropic/duplicate_id.json":             {code: toolerr.DuplicateCall},
	"anthropic/duplicate_input.json":          {code: InvalidEnvelope},
	"anthropic/duplicate_in_args.json":        {calls: []wantCall{{"toolu_01", "get_order", dupArgs}}, complete: true, stop: "tool_use", refuse: toolerr.InvalidJSON},
	"anthropic/no_content.json":               {code: InvalidEnvelope},
	"anthropic/case_variant_input.json":       {code: InvalidEnvelope},
	"anthropic/case_variant_stop_reason.json": {code: InvalidEnvelope},
	"anthropic/empty_name.json":               {code: InvalidEnvelope},
	"anthropic/exact_bytes.json":              {calls: []wantCall{{"toolu_01", "get_order", `{"zeta":1.0e+2,"orderId":"A-\u00e9","big":123456789012345678901234567890}`}}, complete: true, stop: "tool_use"},
	"anthropic/input_string.json":             {calls: []wantCall{{"toolu_01", "get_order", `"{\"orderId\":\"A-19\"}"`}}, complete: true, stop: "tool_use"},
	"anthropic/refusal_stop.json":             {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}, stop: "refusal"},
	"anthropic/pause_turn.json":               {stop: "pause_turn"},
	"anthropic/null_stop.json":                {calls: []wantCall{{"toolu_01", "get_order", `{"orderId": "A-19"}`}}},
	"anthropic/error_body.json":               {code: ProviderError},
	"anthropic/invalid_utf8.json":             {code: InvalidEnvelope},

	"gemini/single.json":                  {calls: []wantCall{{gem + "0", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "STOP", runs: 1},
	"gemini/no_response_id.json":          {calls: []wantCall{{"", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "STOP", runs: 1},
	"gemini/with_id.json":                 {calls: []wantCall{{"fc-77", "get_order", `{"orderId": "A-19"}`}}, complete: true, stop: "STOP", runs: 1},
	"gemini/parallel_text.json":           {calls: []wantCall{{gem + "1", "get_order", `{"orderId": "A-19"}`}, {gem + "2", "get_order", `{"orderId": "B-7"}`}}, complete: true, text: "Looking up both.", stop: "STOP", runs: 2},
	"gemini/max_tokens.json":              {calls: []wantCall{{gem + "0", "get_order", `{"orderId": "A-19"}`}}, stop: "MAX_TOKENS", truncated: true},
	"gemini/no_args.json":                 {calls: []wantCall{{gem + "0", "list_orders", `{}`}}, complete: true, stop: "STOP", runs: 1},
	"gemini/safety.json":                  {calls: []wantCall{{gem + "0", "get_order", `{"orderId": "A-19"}`}}, stop: "SAFETY"},
	"gemini/no_finish.json":               {calls: []wantCall{{gem + "0", "get_order", `{"orderId": "A-19"}`}}},
	"gemini/thought.json":                 {calls: []wantCall{{gem + "2", "get_order", `{"orderId": "A-19"}`}}, complete: true, text: "Here you go.", stop: "STOP", runs: 1},
	"gemini/unknown_part.json":            {code: UnknownType},
	"gemini/partial_args.json":            {code: UnknownType},
	"gemini/duplicate_id.json":            {code: toolerr.DuplicateCall},
	"gemini/duplicate_args.json":          {code: InvalidEnvelope},
	"gemini/exact_bytes.json":             {calls: []wantCall{{gem + "0", "get_order", `{"big":12345678901234567890,"orderId":"A-19"}`}}, complete: true, stop: "STOP"},
	"gemini/two_candidates.json":          {code: InvalidEnvelope},
	"gemini/prompt_blocked.json":          {},
	"gemini/error_body.json":              {code: ProviderError},
	"gemini/no_candidates.json":           {code: InvalidEnvelope},
	"gemini/prompt_blocked_reason.json":   {},
	"gemini/malformed_function_call.json": {code: FailedCall},
	"gemini/unexpected_tool_call.json":    {code: FailedCall},
	"gemini/too_many_tool_calls.json":     {code: FailedCall},
	"gemini/case_variant_args.json":       {code: InvalidEnvelope},
	"gemini/lone_variant_args.json":       {code: InvalidEnvelope},
	"gemini/case_variant_kelvin.json":     {code: InvalidEnvelope},
	"gemini/empty_name.json":              {code: InvalidEnvelope},
	"gemini/duplicate_in_args.json":       {calls: []wantCall{{gem + "0", "get_order", dupArgs}}, complete: true, stop: "STOP", refuse: toolerr.InvalidJSON},

	"mcp/numeric_id.json":               {calls: []wantCall{{"7", "get_order", `{"orderId": "A-19"}`}}, complete: true, runs: 1},
	"mcp/string_id.json":                {calls: []wantCall{{`"req-\u003c7\u003e"`, "get_order", `{"orderId": "A-19"}`}}, complete: true, runs: 1},
	"mcp/no_arguments.json":             {calls: []wantCall{{"8", "list_orders", `{}`}}, complete: true, runs: 1},
	"mcp/notification.json":             {code: MissingCallID},
	"mcp/other_method.json":             {code: UnknownType},
	"mcp/duplicate_name.json":           {code: InvalidEnvelope},
	"mcp/batch.json":                    {code: InvalidEnvelope},
	"mcp/null_id.json":                  {code: InvalidEnvelope},
	"mcp/wrong_version.json":            {code: InvalidEnvelope},
	"mcp/arguments_string.json":         {calls: []wantCall{{"2", "get_order", `"{\"orderId\":\"A-19\"}"`}}, complete: true},
	"mcp/case_variant_name.json":        {code: InvalidEnvelope},
	"mcp/case_variant_method.json":      {code: InvalidEnvelope},
	"mcp/empty_name.json":               {code: InvalidEnvelope},
	"mcp/duplicate_in_args.json":        {calls: []wantCall{{"7", "get_order", dupArgs}}, complete: true, refuse: toolerr.InvalidJSON},
	"mcp/duplicate_in_nested_args.json": {calls: []wantCall{{"7", "get_order", `{"orderId": "A-19", "meta": {"k": 1, "k": 2}}`}}, complete: true, refuse: toolerr.InvalidJSON},
}

// dialects maps a testdata directory to its dialect.
var dialects = map[string]gate.Dialect{
	"openai_chat": gate.OpenAIChat, "openai_responses": gate.OpenAIResponses,
	"anthropic": gate.Anthropic, "gemini": gate.Gemini, "mcp": gate.MCP,
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dialectOf(name string) gate.Dialect { return dialects[strings.Split(name, "/")[0]] }

// checkTurn compares a turn or error with w.
func checkTurn(t *testing.T, d gate.Dialect, got Turn, err error, w want) {
	t.Helper()
	if w.code != "" {
		var e *Error
		if !errors.As(err, &e) || e.Code != w.code || e.Dialect != d {
			t.Fatalf("error = %v, want code %s", err, w.code)
		}
		if len(got.Calls) != 0 {
			t.Fatalf("an error returned calls: %+v", got.Calls)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got.Dialect != d || got.Text != w.text || got.Refusal != w.refusal || got.StopReason != w.stop || got.Truncated != w.truncated {
		t.Errorf("turn = {%s text %q refusal %q stop %q truncated %t}, want {%s %q %q %q %t}",
			got.Dialect, got.Text, got.Refusal, got.StopReason, got.Truncated, d, w.text, w.refusal, w.stop, w.truncated)
	}
	if len(got.Calls) != len(w.calls) {
		t.Fatalf("got %d calls %+v, want %d", len(got.Calls), got.Calls, len(w.calls))
	}
	for i, c := range got.Calls {
		wc := w.calls[i]
		if wc.id == "" && d == gate.Gemini {
			wc.id = c.ID // checked by TestGeminiSynthesizedIDs
		}
		if c.ID != wc.id || c.Name != wc.name || string(c.Args) != wc.args || c.Complete != w.complete || c.Dialect != d {
			t.Errorf("call %d = {%q %q %s complete %t %s}, want {%q %q %s %t %s}", i, c.ID, c.Name, c.Args, c.Complete, c.Dialect, wc.id, wc.name, wc.args, w.complete, d)
		}
	}
}

func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.json")
	for _, f := range files {
		name, _ := filepath.Rel("testdata", f)
		if _, ok := fixtures[filepath.ToSlash(name)]; !ok {
			t.Errorf("%s has no expectation", name)
		}
	}
	for name, w := range fixtures {
		t.Run(name, func(t *testing.T) {
			d := dialectOf(name)
			got, err := Parse(d, readFixture(t, name))
			checkTurn(t, d, got, err, w)
		})
	}
}

func TestGeminiSynthesizedIDs(t *testing.T) {
	body := readFixture(t, "gemini/no_response_id.json")
	a, err := ParseGemini(body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseGemini(slices.Clone(body))
	id := a.Calls[0].ID
	if !strings.HasPrefix(id, GeminiIDPrefix) || !strings.HasSuffix(id, ":0:0") || len(id) != len(GeminiIDPrefix)+16+4 {
		t.Errorf("synthesized ID = %q, want prefix, 16 hex digits, :0:0", id)
	}
	if b.Calls[0].ID != id {
		t.Errorf("the same body gave IDs %q and %q", id, b.Calls[0].ID)
	}
	other := []byte(strings.Replace(string(body), "56", "57", 1))
	c, _ := ParseGemini(other)
	if c.Calls[0].ID == id {
		t.Errorf("two different bodies share the synthesized ID %q", id)
	}
}

func TestErrorOffset(t *testing.T) {
	body := readFixture(t, "openai_chat/duplicate_name.json")
	_, err := ParseOpenAIChat(body)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	if want := strings.LastIndex(string(body), `"name"`); e.Offset != want {
		t.Errorf("offset = %d, want %d (the second \"name\")", e.Offset, want)
	}
	if got := e.Error(); !strings.Contains(got, "adapter: openai-chat: invalid_envelope at byte") || !strings.Contains(got, `duplicate member name "name"`) {
		t.Errorf("Error() = %q", got)
	}
}

func TestArgsAliasBody(t *testing.T) {
	for _, name := range []string{"openai_chat/empty_object_args.json", "anthropic/single.json", "gemini/single.json", "mcp/numeric_id.json"} {
		body := readFixture(t, name)
		turn, err := Parse(dialectOf(name), body)
		if err != nil {
			t.Fatal(err)
		}
		args := turn.Calls[0].Args
		if !within(body, args) {
			t.Errorf("%s: arguments %s are not a slice of the body", name, args)
		}
		if cap(args) != len(args) {
			t.Errorf("%s: arguments have spare capacity into the body", name)
		}
	}
}

// within reports whether b is a sub-slice of s.
func within(s, b []byte) bool {
	if len(b) == 0 {
		return true
	}
	for i := range len(s) - len(b) + 1 {
		if &s[i] == &b[0] {
			return true
		}
	}
	return false
}

func TestParseUnknownDialect(t *testing.T) {
	if _, err := Parse(gate.Plain, []byte(`{}`)); err == nil {
		t.Error("Parse(Plain) succeeded")
	}
	if _, err := NewStream(gate.Gemini); err == nil {
		t.Error("NewStream(Gemini) succeeded")
	}
}

// orderArgs are the arguments of the test tool get_order.
type orderArgs struct{ OrderID string }

// decodeOrder is a hand-written strict decoder for {"orderId": string},
// closed; a repeated member is invalid_json, as in generated decoders.
func decodeOrder(data []byte) (orderArgs, error) {
	var a orderArgs
	var r jsonread.Reader
	r.Reset(data, jsonread.DefaultLimits)
	if r.Peek() != jsonread.Object {
		return a, &toolerr.Error{Code: toolerr.InvalidJSON, Reason: "tool arguments must be a JSON object"}
	}
	var v []toolerr.Violation
	seen := false
	var names []string
	r.ObjectStart()
	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
		if slices.Contains(names, string(name)) {
			r.Fail(r.NameOffset(), jsonread.ErrDuplicateName, jsonread.DuplicateReason(name))
			break
		}
		names = append(names, string(name))
		switch {
		case string(name) == "orderId" && r.Peek() == jsonread.String:
			a.OrderID, seen = string(r.String()), true
		case string(name) == "orderId":
			r.Skip()
			v = append(v, toolerr.Violation{Keyword: "type", InstancePath: "/orderId", SchemaPath: "/properties/orderId/type", Message: "orderId must be a string"})
		default:
			v = append(v, toolerr.Violation{Keyword: "additionalProperties", InstancePath: "/" + string(name), SchemaPath: "/additionalProperties", Message: "unknown member"})
			r.Skip()
		}
	}
	r.Finish()
	if e := r.Err(); e != nil {
		return a, &toolerr.Error{Code: toolerr.InvalidJSON, Offset: e.Offset, Reason: e.Reason}
	}
	if !seen && len(v) == 0 {
		v = append(v, toolerr.Violation{Keyword: "required", SchemaPath: "/required", Message: "orderId is required"})
	}
	if len(v) > 0 {
		return a, (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations(v)
	}
	return a, nil
}

// decodeNone is the decoder of a tool without parameters: exactly {}
// (jsonread.Valid refuses a repeated member anywhere).
func decodeNone(data []byte) (struct{}, error) {
	if err := jsonread.Valid(data, jsonread.DefaultLimits); err != nil || strings.Join(strings.Fields(string(data)), "") != "{}" {
		return struct{}{}, &toolerr.Error{Code: toolerr.InvalidArguments, Reason: "list_orders takes no arguments"}
	}
	return struct{}{}, nil
}

// spyRegistry returns a registry of get_order and list_orders whose
// executors count their runs.
func spyRegistry(t testing.TB, runs *int) *gate.Registry {
	t.Helper()
	reg, err := gate.NewRegistry([]*gate.Tool{
		gate.Bind(gate.Spec[orderArgs]{Name: "get_order", Decode: decodeOrder}, gate.Binding[orderArgs]{
			Policy: gate.AllowAll[orderArgs],
			Execute: func(_ context.Context, a orderArgs) (any, error) {
				*runs++
				return map[string]string{"orderId": a.OrderID, "status": "shipped"}, nil
			},
		}),
		gate.Bind(gate.Spec[struct{}]{Name: "list_orders", Decode: decodeNone}, gate.Binding[struct{}]{
			Policy: gate.AllowAll[struct{}],
			Execute: func(context.Context, struct{}) (any, error) {
				*runs++
				return []string{"A-19", "B-7"}, nil
			},
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// runTurn dispatches a turn's calls as one batch and returns how many
// executors ran; an adapter error runs nothing.
func runTurn(t *testing.T, turn Turn, err error) (int, []gate.Result) {
	t.Helper()
	runs := 0
	if err != nil {
		return 0, nil
	}
	reg := spyRegistry(t, &runs)
	caller := gate.Caller{Principal: gate.Principal{ID: "u1"}, Scope: t.Name()}
	res := reg.DispatchBatch(context.Background(), caller, turn.Calls, gate.BatchOptions{})
	for _, c := range turn.Calls {
		if !c.Complete && runs != 0 {
			t.Fatalf("an incomplete call is in a batch that ran %d executors", runs)
		}
	}
	return runs, res
}

// TestEndToEnd runs every fixture through adapter → gate → spy executors.
func TestEndToEnd(t *testing.T) {
	for name, w := range fixtures {
		t.Run(name, func(t *testing.T) {
			turn, err := Parse(dialectOf(name), readFixture(t, name))
			runs, res := runTurn(t, turn, err)
			if runs != w.runs {
				t.Fatalf("%d executors ran, want %d; results %+v", runs, w.runs, res)
			}
			for _, r := range res {
				switch {
				case w.runs > 0 && (r.Err != nil || !r.Executed):
					t.Errorf("call %s: %v", r.CallID, r.Err)
				case w.runs == 0 && (r.Err == nil || r.Executed):
					t.Errorf("call %s was not refused", r.CallID)
				case !w.complete && r.Err != nil && r.Err.Code != toolerr.IncompleteCall && r.Err.Code != toolerr.BatchAborted && r.Err.Code != toolerr.UnknownTool:
					t.Errorf("incomplete call %s refused with %s, want incomplete_call", r.CallID, r.Err.Code)
				case w.refuse != "" && r.Err.Code != w.refuse:
					t.Errorf("call %s refused with %s, want %s", r.CallID, r.Err.Code, w.refuse)
				}
			}
		})
	}
}
