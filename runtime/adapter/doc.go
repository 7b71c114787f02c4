// Package adapter turns model providers' tool-call envelopes — whole
// responses and streams — into the gate's normalized calls, and the gate's
// results back into each provider's tool-result message.
//
// A service reads a response body, hands the calls of the turn to the gate
// as one batch, and sends the results back:
//
//	turn, err := adapter.ParseAnthropic(body)
//	if err != nil {
//		return err // *adapter.Error: a stable code, nothing runs
//	}
//	results := reg.DispatchBatch(ctx, caller, turn.Calls, gate.BatchOptions{})
//	msg, err := adapter.AnthropicResults(results) // the next user message
//
// Streams are assembled from the JSON payload of each server-sent event:
//
//	var s adapter.AnthropicStream
//	for ev := range events {
//		if err := s.Push(ev.Data); err != nil {
//			return err
//		}
//	}
//	turn, err := s.Turn() // calls are Complete only if the stream completed them
//
// The adapters are ParseOpenAIChat, ParseOpenAIResponses, ParseAnthropic,
// ParseGemini and ParseMCP (Parse picks one by gate.Dialect); the stream
// assemblers are OpenAIChatStream, OpenAIResponsesStream and AnthropicStream
// (NewStream picks one). The result builders are OpenAIChatResults,
// OpenAIResponsesResults, AnthropicResults, GeminiResults and MCPResult.
//
// # Reading envelopes
//
// Every body and event is read with the strict reader of package jsonread:
// duplicate member names (anywhere but inside argument values: a second
// "name" or "arguments" could smuggle another call), invalid UTF-8, lone
// surrogates and trailing data are invalid_envelope. So is a member whose
// name encoding/json would match to one the adapter reads ("Name" or
// "NAME" beside or instead of "name", "ſtatus" for "status": the
// bytes.EqualFold matching of encoding/json, Unicode folding included), at
// every level the adapter reads: a layer that reads the same body with
// encoding/json (an SDK, a logger, a policy check) would see that value,
// and the adapter another (the CVE-2026-27896 shape). Members a provider
// adds are skipped (and still validated), whatever their case, when no
// read member folds to them; an item, content block, part or delta type
// the adapter does not know fails with unknown_type instead of becoming
// "no tool selected", and so does a body without the member that holds
// the calls.
// Argument bytes are kept exactly as received: a string-typed arguments
// (OpenAI) is unquoted once and its contents are the arguments; an embedded
// object (Anthropic input, Gemini args, MCP params.arguments) is sliced out
// of the body with its original bytes. Whole-response arguments alias the
// body (do not modify it while the calls are in use); stream arguments are
// copies. Inside an argument value the adapter checks only the syntax: a
// repeated member there is the tool decoder's to refuse (invalid_json), for
// that call alone.
//
// Every adapter runs in time linear in its input: text is gathered as
// bytes and converted once, streamed calls are kept by key and sorted once
// per Turn. A stream buffers at most MaxCallBytes per call (the argument
// decoders' input limit), MaxStreamCalls calls and MaxStreamBytes in all;
// past a cap it fails with limit_exceeded and buffers nothing more.
//
// # Decisions
//
// Every awkward shape has one outcome. "Incomplete" means Complete is false,
// so the gate refuses the call with incomplete_call and, in a batch, runs
// none of the turn.
//
//	case                                         outcome
//	-------------------------------------------  ---------------------------------------------------
//	several tool calls in one turn               all returned, in the provider's order (streams:
//	                                             by tool_calls index / output_index / block index)
//	text or refusal alongside calls              Text and Refusal set; the calls are unaffected
//	calls present, finish reason "stop"          calls returned, complete: the content decides
//	  (a named tool_choice), "end_turn"            whether calls exist, not the finish reason
//	tool-use finish reason, no call found        error missing_calls ("tool_calls", "tool_use")
//	  (OpenAI Chat "tool_calls", Anthropic
//	  "tool_use")
//	token limit: Chat "length", Responses        every call incomplete, Truncated set
//	  status "incomplete" (max_output_tokens),
//	  Anthropic "max_tokens" or
//	  "model_context_window_exceeded",
//	  Gemini "MAX_TOKENS"
//	other or unknown finish reason, or none      every call incomplete (fail closed): Chat
//	  (content_filter, refusal, pause_turn,        content_filter; Anthropic refusal, pause_turn;
//	  SAFETY, null, a value added later)           Gemini SAFETY, RECITATION, ...; Responses
//	                                             status other than "completed"
//	Gemini finish reason that says the call      error failed_call: MALFORMED_FUNCTION_CALL,
//	  failed                                       UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS (no
//	                                             call to run, and the text is no answer)
//	no member holding the calls, or renamed      invalid_envelope: Chat choices, Responses
//	  ("outputs", "Output")                        output, Anthropic content; Gemini candidates
//	                                             unless promptFeedback.blockReason says the
//	                                             prompt was blocked (then no calls). An empty
//	                                             list is a turn without calls
//	a case variant of a member the adapter       invalid_envelope, beside the member or alone,
//	  reads: "Name" beside "name", "ARGUMENTS",    at every level it reads (envelope, choice,
//	  "Input", "ſtop_reason", "bloc\u212aReason"   message, tool call, function, item, block,
//	  (any spelling bytes.EqualFold matches)       part, functionCall, params, events, deltas)
//	a case variant of a member it does not read  skipped: no member the adapter reads folds to
//	  ("Usage", "ID" where no id is read)          it, so no encoding/json layer maps it onto one
//	complete finish reasons                      Chat stop, tool_calls; Anthropic end_turn,
//	                                             tool_use, stop_sequence; Gemini STOP; Responses
//	                                             status completed (and every function_call item
//	                                             completed, or without status)
//	Responses item status in_progress or         every call of the turn incomplete
//	  incomplete
//	empty arguments string (""), or a stream     {} when the call is complete (a tool without
//	  whose argument deltas are all empty          parameters; a tool with required parameters
//	                                             refuses {} as invalid_arguments); left empty
//	                                             when incomplete
//	{} for a tool without parameters             passed through; the tool's decoder accepts it
//	Gemini functionCall without args,            {}: both members are optional in those formats
//	  MCP tools/call without arguments
//	Anthropic tool_use without input             invalid_envelope: input is required
//	empty function name ("name": "")             invalid_envelope, as an absent name (every
//	                                             dialect; streams at the end of the stream)
//	a repeated member inside the arguments       the call is returned with its exact bytes; the
//	  ({"orderId":"A","orderId":"Z"}, at any       tool's decoder refuses it (invalid_json), the
//	  depth)                                       envelope is not refused. MCP: MCPResult
//	                                             answers with an isError result the model can
//	                                             correct (SEP-1303), not a JSON-RPC error
//	arguments string holding a JSON string       passed through unquoted once; the decoder
//	  ("\"{...}\"")                                refuses it (not an object): never parsed twice
//	embedded args not an object (input: "x")     passed through; the decoder refuses it
//	missing or empty call ID                     error missing_call_id (OpenAI, Responses,
//	                                             Anthropic, MCP): without an ID the result cannot
//	                                             be matched and the replay guard cannot work;
//	                                             streams check it at the end of the stream
//	Gemini call without id                       synthesized: GeminiIDPrefix+responseId (or body
//	                                             hash)+":0:"+part index; deterministic
//	MCP id                                       the JSON-RPC id in JSON form: 7, "req-7" (a
//	                                             string re-encoded by encoding/json), so 7 and
//	                                             "7" differ and MCPResult echoes it
//	the same call ID twice in one response       error duplicate_call (toolerr's code)
//	more than one choice / candidate             invalid_envelope: request n=1 / candidateCount 1
//	unknown item / block / part type             error unknown_type; Responses items the provider
//	                                             runs itself (reasoning, web_search_call,
//	                                             file_search_call, code_interpreter_call,
//	                                             image_generation_call, mcp_call, mcp_list_tools)
//	                                             and Anthropic thinking and server-tool blocks
//	                                             are skipped; client items that are not function
//	                                             calls (computer_call, custom_tool_call,
//	                                             local_shell_call, ...) are unknown_type
//	OpenAI legacy function_call                  unknown_type (it has no call ID)
//	Gemini partialArgs / willContinue            unknown_type (streamed arguments unsupported)
//	a body that is an error report               error provider_error
//	MCP method other than tools/call             unknown_type; a notification (no id) is
//	                                             missing_call_id; jsonrpc must be "2.0"
//
// Streams:
//
//	case                                         outcome
//	-------------------------------------------  ---------------------------------------------------
//	fragment ends mid-string or splits an        fragments are concatenated as bytes; only the
//	  escape (\u00e9, \") of the arguments         whole is decoded, by the gate
//	Turn before the end of the stream            calls returned, all incomplete
//	stream stops before completion               the same: Turn reports incomplete calls
//	interleaved parallel calls                   assembled by key (index, item id), never by
//	                                             "the last call seen"
//	an index below one already seen (Chat,       allowed: deltas append to the call with that
//	  Anthropic)                                   index; calls are reported in index order
//	                                             (sorted once: any order costs the same)
//	a call ID or name that changes               error invalid_stream (the first value stays)
//	a delta for a call never started, or         error invalid_stream
//	  after its end (Responses, Anthropic)
//	a Chat choice after its finish_reason        error invalid_stream (usage-only chunks are fine)
//	a Responses .done whose arguments, call_id   error invalid_stream
//	  or name differ from the assembled ones
//	a Responses .done (arguments.done or         its arguments are the call's: a provider may
//	  output_item.done) after no delta, the        send them whole (a later .done must agree)
//	  added item's arguments empty
//	a call's arguments past MaxCallBytes (1      error limit_exceeded; the stream stops
//	  MiB), more than MaxStreamCalls (4096)        buffering (the decoder would refuse such
//	  calls, more than MaxStreamBytes (64 MiB)     arguments anyway). Each Anthropic content
//	  buffered                                     block counts 64 bytes, so empty blocks are
//	                                             bounded too
//	a final Responses event whose output lists   error invalid_stream (an empty output list is
//	  other calls than the stream assembled        not compared)
//	Anthropic content_block_start input other    error invalid_stream: it is a placeholder, never
//	  than {}                                      data
//	Anthropic empty partial_json only            {} (a tool without parameters)
//	an event after message_stop / the final      error invalid_stream
//	  Responses event
//	unknown event types, ping, "[DONE]"          ignored (providers add event types; a call
//	                                             cannot start without a known start event)
//	an error event                               error provider_error
//
// Errors are *Error values with a stable Code (InvalidEnvelope, UnknownType,
// MissingCalls, MissingCallID, InvalidStream, ProviderError, FailedCall,
// LimitExceeded, or toolerr.DuplicateCall), the byte offset in the body or
// event, and a reason.
// A stream's errors are sticky.
//
// # Results
//
// The builders render each gate.Result as the provider's tool-result
// message. A success carries the executor's value as JSON — for a tool
// with a result schema, the bytes the gate checked against it
// (gate.Result.JSON), never a second encoding; MCP also gets them as
// structuredContent. An invalid_result carries no violation and no value
// of the withheld result. A refusal or
// failure carries the *toolerr.Error JSON (code, category, message,
// violations) and the provider's error flag where it has one (Anthropic
// is_error, MCP isError, Gemini's "error" response key). OpenAI Chat and
// Responses have no flag: the content is the toolerr JSON.
//
// A call that awaits approval (approval_required) is no failure to retry:
// its toolerr JSON (category approval, the pending call's ID, digest and
// expiry, and a reason telling the model to relay it to the user and not
// send the call again) goes without the error flag — Anthropic's tool_result
// has no is_error, Gemini's response holds it under "output" — except in
// MCP, whose result is isError with the JSON also as structuredContent.
package adapter
