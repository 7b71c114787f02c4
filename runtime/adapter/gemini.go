package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// GeminiIDPrefix starts every call ID the Gemini adapter synthesizes. The
// full form is GeminiIDPrefix + key + ":" + candidate + ":" + part, where
// key is the response's responseId, or, when it has none, the first 16 hex
// digits of the SHA-256 of the body, and candidate and part are indexes in
// candidates[] and content.parts[]. The same body always yields the same
// IDs (a replayed response is refused by the gate's replay guard), and two
// responses of one conversation do not share IDs. GeminiResults leaves
// synthesized IDs out of functionResponse.
const GeminiIDPrefix = "toolgate-gemini:"

// geminiData are the members that make a Gemini part what it is; a part
// with none of them is of an unknown type. Other members (thought,
// thoughtSignature, videoMetadata, ...) are metadata and skipped.
var geminiData = []string{"text", "functionCall", "inlineData", "fileData", "executableCode", "codeExecutionResult", "functionResponse"}

// The members the Gemini adapter reads, level by level (see object).
var (
	geminiResponseMembers  = []string{"candidates", "responseId", "error", "promptFeedback"}
	geminiFeedbackMembers  = []string{"blockReason"}
	geminiCandidateMembers = []string{"content", "finishReason"}
	geminiContentMembers   = []string{"parts"}
	geminiPartMembers      = append([]string{"thought"}, geminiData...)
	geminiCallMembers      = []string{"id", "name", "args", "partialArgs", "willContinue"}
)

// geminiFailed are the finish reasons that say the model's function call
// failed: the candidate carries no call to run, and its text is not the
// model's answer.
var geminiFailed = map[string]bool{
	"MALFORMED_FUNCTION_CALL": true, "UNEXPECTED_TOOL_CALL": true, "TOO_MANY_TOOL_CALLS": true,
}

// ParseGemini reads a Gemini generateContent response body: the
// functionCall parts of candidates[0].content.parts[], the text parts
// (thought parts excluded), and the candidate's finishReason. A body with
// more than one candidate is refused (request candidateCount 1), and so is
// one without candidates unless promptFeedback.blockReason says the prompt
// was blocked. A finish reason that says the call failed
// (MALFORMED_FUNCTION_CALL, ...) is failed_call. Each call's arguments are
// the raw bytes of its args value, a slice of body; a functionCall without
// args (a function without parameters) gets {}. A functionCall without id
// gets a synthesized one (see GeminiIDPrefix).
func ParseGemini(body []byte) (Turn, error) {
	p := newParser(gate.Gemini, body)
	b := build{Turn: Turn{Dialect: gate.Gemini}}
	responseID, blocked := "", ""
	hasCandidates := false
	var synth []int // indexes in b.Calls of calls without a provider ID
	var parts []int // part index of each call
	p.object("the response", geminiResponseMembers, func(name string) {
		switch name {
		case "candidates":
			hasCandidates = true
			p.array("candidates", func(i int) {
				if i > 0 {
					p.failf(InvalidEnvelope, p.r.Offset(), "the response has more than one candidate; request candidateCount 1 (one turn per response)")
					return
				}
				p.object("a candidate", geminiCandidateMembers, func(name string) {
					switch name {
					case "content":
						p.object("content", geminiContentMembers, func(name string) {
							if name != "parts" {
								p.r.Skip()
								return
							}
							p.array("parts", func(j int) {
								n := len(b.Calls)
								if p.geminiPart(&b) {
									synth = append(synth, n)
								}
								for range len(b.Calls) - n {
									parts = append(parts, j)
								}
							})
						})
					case "finishReason":
						b.StopReason = p.optStr("finishReason")
					default:
						p.r.Skip()
					}
				})
			})
		case "responseId":
			responseID = p.optStr("responseId")
		case "promptFeedback":
			p.object("promptFeedback", geminiFeedbackMembers, func(name string) {
				if name != "blockReason" {
					p.r.Skip()
					return
				}
				blocked = p.optStr("promptFeedback.blockReason")
			})
		case "error":
			p.providerError(name)
		default:
			p.r.Skip()
		}
	})
	t := b.turn()
	if err := p.finish(); err != nil {
		return done(t, err)
	}
	switch {
	case !hasCandidates && blocked == "":
		return done(t, &Error{Code: InvalidEnvelope, Dialect: gate.Gemini, Offset: 0, Reason: "the response has no \"candidates\" member and no promptFeedback.blockReason"})
	case geminiFailed[t.StopReason]:
		return done(t, &Error{Code: FailedCall, Dialect: gate.Gemini, Offset: -1, Reason: "finish reason " + quote(t.StopReason) + " says the model's function call failed"})
	}
	key := responseID
	if key == "" {
		sum := sha256.Sum256(body)
		key = hex.EncodeToString(sum[:8])
	}
	for _, i := range synth {
		t.Calls[i].ID = GeminiIDPrefix + key + ":0:" + strconv.Itoa(parts[i])
	}
	class := classify(gate.Gemini, t.StopReason)
	t.Truncated = class == stopTruncated
	return done(t, seal(&t, class == stopDone, false))
}

// geminiPart reads one part. A functionCall is appended to b.Calls; the
// result reports whether its ID must be synthesized.
func (p *parser) geminiPart(b *build) (synthesize bool) {
	at := p.r.Offset()
	// functionCall is captured as argument bytes: its own members are
	// checked below, and its args may hold a duplicate member.
	m := p.fields("a part", geminiPartMembers, "functionCall")
	if !p.ok() {
		return false
	}
	known := false
	for _, k := range geminiData {
		_, ok := m.get(k)
		known = known || ok
	}
	if !known {
		p.failf(UnknownType, at, "the part has none of the known data members (%s)", strings.Join(geminiData, ", "))
		return false
	}
	if f, ok := m.get("text"); ok {
		var text []byte
		thought := false
		p.sub(f, func(q *parser) { text = q.bytes("text") })
		if f, ok := m.get("thought"); ok {
			p.sub(f, func(q *parser) {
				if q.expect(jsonread.Bool, "thought") {
					thought = q.r.Bool()
				}
			})
		}
		if !thought {
			b.text = append(b.text, text...)
		}
	}
	f, ok := m.get("functionCall")
	if !ok {
		return false
	}
	var c gate.Call
	p.sub(f, func(q *parser) {
		hasName := false
		q.object("functionCall", geminiCallMembers, func(name string) {
			switch name {
			case "id":
				c.ID = q.optStr("functionCall.id")
			case "name":
				c.Name, hasName = q.str("functionCall.name"), true
			case "args":
				c.Args = q.args()
			case "partialArgs", "willContinue":
				q.failf(UnknownType, q.r.NameOffset(), "functionCall.%s (streamed function call arguments) is not supported", name)
			default:
				q.r.Skip()
			}
		})
		if q.ok() && !hasName {
			q.failf(InvalidEnvelope, 0, "functionCall has no \"name\" member")
		}
		q.requireName(c.Name, "functionCall", 0)
	})
	if len(c.Args) == 0 {
		c.Args = []byte("{}")
	}
	b.Calls = append(b.Calls, c)
	return c.ID == ""
}
