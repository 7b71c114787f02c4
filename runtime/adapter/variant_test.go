package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// member is one member of a JSON text: its name and the spans of its name
// (quotes included) and value.
type member struct {
	name                             string
	nameOff, nameEnd, valOff, valEnd int
}

// members lists every member of data outside argument values (input,
// args, arguments: the decoder's business, not the adapter's).
func members(data []byte) []member {
	var r jsonread.Reader
	r.Reset(data, limits)
	var out []member
	var walk func(record bool)
	walk = func(record bool) {
		switch r.Peek() {
		case jsonread.Object:
			r.ObjectStart()
			for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
				m := member{name: string(name), nameOff: r.NameOffset()}
				m.nameEnd = m.nameOff + 2 + bytes.IndexByte(data[m.nameOff+1:], '"')
				r.Peek()
				m.valOff = r.Offset()
				walk(record && !slices.Contains([]string{"input", "args", "arguments"}, m.name))
				m.valEnd = r.Offset()
				if record && !bytes.ContainsRune(data[m.nameOff:m.nameEnd], '\\') {
					out = append(out, m)
				}
			}
		case jsonread.Array:
			r.ArrayStart()
			for r.NextItem() {
				walk(record)
			}
		case jsonread.String:
			r.String()
		case jsonread.Number:
			r.Number()
		case jsonread.Bool:
			r.Bool()
		case jsonread.Null:
			r.Null()
		}
	}
	walk(true)
	if r.Err() != nil {
		panic(r.Err())
	}
	return out
}

// variant changes the case of the first ASCII letter of name; names with a
// k or an s also get the Kelvin sign or the long s, which encoding/json
// folds to k and s.
func variants(name string) []string {
	var out []string
	if i := strings.IndexFunc(name, func(r rune) bool { return r < 128 && (r|0x20) >= 'a' && (r|0x20) <= 'z' }); i >= 0 {
		out = append(out, name[:i]+string(name[i]^0x20)+name[i+1:])
	}
	if i := strings.IndexAny(name, "kK"); i >= 0 {
		out = append(out, name[:i]+"\u212a"+name[i+1:])
	}
	if i := strings.IndexAny(name, "sS"); i >= 0 {
		out = append(out, name[:i]+"\u017f"+name[i+1:])
	}
	return out
}

func splice(data []byte, off, end int, with string) []byte {
	return slices.Concat(data[:off], []byte(with), data[end:])
}

// outcome renders what the adapter made of a body or stream: the turn, or
// the error code.
func outcome(turn Turn, err error) string {
	var e *Error
	if errors.As(err, &e) {
		return "error " + string(e.Code)
	}
	s := fmt.Sprintf("%s %q %q %q %t", turn.Dialect, turn.Text, turn.Refusal, turn.StopReason, turn.Truncated)
	for _, c := range turn.Calls {
		s += fmt.Sprintf(" {%q %q %s %t}", c.ID, c.Name, c.Args, c.Complete)
	}
	return s
}

// TestCaseVariants adds, beside every member of every accepted fixture
// (whole responses and each event of the streams), a member whose name
// encoding/json matches to it (another case, the Kelvin sign for k, the
// long s for s), and replaces the member by such a variant. When the
// adapter reads the member (renaming it to x-name changes the outcome),
// both must be invalid_envelope: a layer reading the body with
// encoding/json would see the variant's value. When the adapter does not
// read it, the outcome is the original one or invalid_envelope.
func TestCaseVariants(t *testing.T) {
	type body struct {
		name   string
		d      gate.Dialect
		events [][]byte // one element for a whole response
	}
	var bodies []body
	for name, w := range fixtures {
		// Without a responseId, Gemini's call IDs hash the whole body, so
		// every change looks read.
		if w.code == "" && name != "gemini/no_response_id.json" {
			bodies = append(bodies, body{name, dialectOf(name), [][]byte{readFixture(t, name)}})
		}
	}
	for name, tc := range streamFixtures {
		if tc.code == "" {
			bodies = append(bodies, body{"streams/" + name, dialectOf(name), lines(readFixture(t, "streams/"+name))})
		}
	}
	slices.SortFunc(bodies, func(a, b body) int { return strings.Compare(a.name, b.name) })
	run := func(b body, events [][]byte) string {
		if len(events) == 1 && !strings.HasPrefix(b.name, "streams/") {
			return outcome(Parse(b.d, events[0]))
		}
		s, _ := NewStream(b.d)
		for _, ev := range events {
			if err := s.Push(ev); err != nil {
				return outcome(Turn{}, err)
			}
		}
		return outcome(s.Turn())
	}
	read, checked := 0, 0
	for _, b := range bodies {
		orig := run(b, b.events)
		for i, ev := range b.events {
			if !bytes.HasPrefix(bytes.TrimSpace(ev), []byte("{")) {
				continue // "[DONE]"
			}
			with := func(mutated []byte) string {
				evs := slices.Clone(b.events)
				evs[i] = mutated
				return run(b, evs)
			}
			for _, m := range members(ev) {
				isRead := with(splice(ev, m.nameOff, m.nameEnd, js("x-"+m.name))) != orig
				if isRead {
					read++
				}
				for _, v := range variants(m.name) {
					checked++
					beside := splice(ev, m.nameOff, m.nameOff, js(v)+":"+string(ev[m.valOff:m.valEnd])+",")
					alone := splice(ev, m.nameOff, m.nameEnd, js(v))
					for how, mutated := range map[string][]byte{"beside": beside, "alone": alone} {
						got := with(mutated)
						if got != "error "+string(InvalidEnvelope) && (isRead || got != orig) {
							t.Errorf("%s event %d: %q %s %q: %s; want invalid_envelope (read %t)", b.name, i, v, how, m.name, got, isRead)
						}
					}
				}
			}
		}
	}
	if read == 0 || checked == 0 {
		t.Fatalf("no member checked (%d variants, %d read)", checked, read)
	}
	t.Logf("%d variants checked, %d members read", checked, read)
}
