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

// ParseGemini reads a Gemini generateContent response body: the
// functionCall parts of candidates[0].content.parts[], the text parts
// (thought parts excluded), and the candidate's finishReason. A body with
// more than one candidate is refused (request candidateCount 1). Each
// call's arguments are the raw bytes of its args value, a slice of body;
// a functionCall without args (a function without parameters) gets {}.
// A functionCall without id gets a synthesized one (see GeminiIDPrefix).
func ParseGemini(body []byte) (Turn, error) {
	p := newParser(gate.Gemini, body)
	t := Turn{Dialect: gate.Gemini}
	responseID := ""
	var synth []int // indexes in t.Calls of calls without a provider ID
	var parts []int // part index of each call
	p.object("the response", func(name string) {
		switch name {
		case "candidates":
			p.array("candidates", func(i int) {
				if i > 0 {
					p.failf(InvalidEnvelope, p.r.Offset(), "the response has more than one candidate; request candidateCount 1 (one turn per response)")
					return
				}
				p.object("a candidate", func(name string) {
					switch name {
					case "content":
						p.object("content", func(name string) {
							if name != "parts" {
								p.r.Skip()
								return
							}
							p.array("parts", func(j int) {
								n := len(t.Calls)
								if p.geminiPart(&t) {
									synth = append(synth, n)
								}
								for range len(t.Calls) - n {
									parts = append(parts, j)
								}
							})
						})
					case "finishReason":
						t.StopReason = p.optStr("finishReason")
					default:
						p.r.Skip()
					}
				})
			})
		case "responseId":
			responseID = p.optStr("responseId")
		case "error":
			p.providerError(name)
		default:
			p.r.Skip()
		}
	})
	if err := p.finish(); err != nil {
		return done(t, err)
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

// geminiPart reads one part. A functionCall is appended to t.Calls; the
// result reports whether its ID must be synthesized.
func (p *parser) geminiPart(t *Turn) (synthesize bool) {
	at := p.r.Offset()
	m := p.fields("a part")
	if !p.ok() {
		return false
	}
	known := false
	for _, k := range geminiData {
		_, ok := m[k]
		known = known || ok
	}
	if !known {
		p.failf(UnknownType, at, "the part has none of the known data members (%s)", strings.Join(geminiData, ", "))
		return false
	}
	if f, ok := m["text"]; ok {
		var text string
		thought := false
		p.sub(f, func(q *parser) { text = q.str("text") })
		if f, ok := m["thought"]; ok {
			p.sub(f, func(q *parser) {
				if q.expect(jsonread.Bool, "thought") {
					thought = q.r.Bool()
				}
			})
		}
		if !thought {
			t.Text += text
		}
	}
	f, ok := m["functionCall"]
	if !ok {
		return false
	}
	var c gate.Call
	p.sub(f, func(q *parser) {
		hasName := false
		q.object("functionCall", func(name string) {
			switch name {
			case "id":
				c.ID = q.optStr("functionCall.id")
			case "name":
				c.Name, hasName = q.str("functionCall.name"), true
			case "args":
				c.Args = q.raw()
			case "partialArgs", "willContinue":
				q.failf(UnknownType, q.r.NameOffset(), "functionCall.%s (streamed function call arguments) is not supported", name)
			default:
				q.r.Skip()
			}
		})
		if q.ok() && !hasName {
			q.failf(InvalidEnvelope, 0, "functionCall has no \"name\" member")
		}
	})
	if len(c.Args) == 0 {
		c.Args = []byte("{}")
	}
	t.Calls = append(t.Calls, c)
	return c.ID == ""
}
