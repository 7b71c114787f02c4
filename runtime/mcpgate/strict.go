package mcpgate

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// MetaRequestID is the params._meta member under which the server's strict
// reader hands a tools/call's JSON-RPC request ID to its handler: the ID's
// JSON text as a JSON string (7 as "7", "req-7" as "\"req-7\""), so that a
// number and a string never collide. A client that sends the member itself
// is refused.
const MetaRequestID = "toolgate/requestId"

const methodCall = "tools/call"

// messageDepth allows the gate's 64 levels of arguments plus the
// envelope's own.
const messageDepth = 64 + 16

// refusal is a message the strict reader refuses; params tells whether
// the params were at fault (the envelope was read whole).
type refusal struct {
	reason string
	params bool
}

func (e *refusal) Error() string { return e.reason }

// checkMessage reads one JSON-RPC message strictly: no member name twice
// in any object, except within a tools/call's arguments, which the gate's
// decoder refuses itself (an isError result the model can repair). It
// returns the message with a tools/call request stamped (see stamp), its
// id (raw JSON, nil for none) and the refusal.
func checkMessage(msg []byte, maxBytes int) ([]byte, []byte, error) {
	var r jsonread.Reader
	r.Reset(msg, jsonread.Limits{MaxBytes: maxBytes, MaxDepth: messageDepth})
	if r.Peek() != jsonread.Object {
		r.Skip()
		r.Finish()
		return msg, nil, syntax(&r)
	}
	var method string
	var id []byte
	pStart, pEnd := -1, -1
	var seen names
	r.ObjectStart()
	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
		if seen.add(name) {
			return nil, nil, &refusal{reason: jsonread.DuplicateReason(name) + " in the message"}
		}
		switch string(name) {
		case "method":
			if s, ok := r.TryString(); ok {
				method = string(s)
			} else {
				r.Skip()
			}
		case "id":
			r.Peek()
			start := r.Offset()
			r.Skip()
			id = r.Capture(start)
		case "params":
			r.Peek()
			start := r.Offset()
			walk(&r)
			raw := r.Capture(start)
			pEnd = r.Offset()
			pStart = pEnd - len(raw)
		default:
			r.Skip()
		}
	}
	r.Finish()
	if err := syntax(&r); err != nil {
		return nil, nil, err
	}
	if pStart < 0 {
		return msg, id, nil
	}
	params, err := checkParams(method, msg[pStart:pEnd], string(id))
	if err != nil {
		return nil, id, err
	}
	if len(params) == pEnd-pStart {
		return msg, id, nil
	}
	out := make([]byte, 0, len(msg)+len(params)-(pEnd-pStart))
	out = append(append(append(out, msg[:pStart]...), params...), msg[pEnd:]...)
	return out, id, nil
}

// checkParams reads the params of a message strictly, as checkMessage
// says, and returns them, stamped when the message is a tools/call request
// with id (its JSON text; "" for none).
func checkParams(method string, params []byte, id string) ([]byte, error) {
	var r jsonread.Reader
	r.Reset(params, jsonread.Limits{MaxBytes: len(params), MaxDepth: messageDepth})
	if r.Peek() != jsonread.Object {
		r.Skip()
		r.Finish()
		return params, paramsSyntax(&r)
	}
	call := method == methodCall
	r.ObjectStart()
	open, members := r.Offset(), 0
	metaOpen, metaMembers := -1, 0
	var seen names
	for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
		members++
		if seen.add(name) {
			return nil, &refusal{reason: jsonread.DuplicateReason(name) + " in params", params: true}
		}
		switch {
		case call && string(name) == "arguments":
			walk(&r)
		case string(name) == "_meta" && r.Peek() == jsonread.Object:
			r.ObjectStart()
			metaOpen = r.Offset()
			var meta names
			for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
				metaMembers++
				if meta.add(name) {
					return nil, &refusal{reason: jsonread.DuplicateReason(name) + " in params._meta", params: true}
				}
				if string(name) == MetaRequestID {
					return nil, &refusal{reason: "params._meta." + MetaRequestID + " is the server's to set", params: true}
				}
				r.Skip()
			}
		default:
			r.Skip()
		}
	}
	r.Finish()
	if err := paramsSyntax(&r); err != nil {
		return nil, err
	}
	if !call || id == "" {
		return params, nil
	}
	return stamp(params, id, open, members, metaOpen, metaMembers), nil
}

// stamp inserts MetaRequestID into params' _meta (opened at metaOpen,
// just after its '{', or -1 when params has none; params opened at open).
func stamp(params []byte, id string, open, members, metaOpen, metaMembers int) []byte {
	member := strconv.Quote(MetaRequestID) + ":" + jsonString(id)
	at := metaOpen
	switch {
	case metaOpen < 0:
		at = open
		member = `"_meta":{` + member + "}"
		if members > 0 {
			member += ","
		}
	case metaMembers > 0:
		member += ","
	}
	out := make([]byte, 0, len(params)+len(member))
	return append(append(append(out, params[:at]...), member...), params[at:]...)
}

// jsonString returns s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// walk consumes one value, checking its syntax but not its member names
// (the gate's decoder checks the arguments). Its recursion is bounded by
// the reader's depth limit.
func walk(r *jsonread.Reader) {
	switch r.Peek() {
	case jsonread.Object:
		r.ObjectStart()
		for _, ok := r.NextMember(); ok; _, ok = r.NextMember() {
			walk(r)
		}
	case jsonread.Array:
		r.ArrayStart()
		for r.NextItem() {
			walk(r)
		}
	default:
		r.Skip()
	}
}

func syntax(r *jsonread.Reader) error {
	if e := r.Err(); e != nil {
		return &refusal{reason: e.Reason}
	}
	return nil
}

func paramsSyntax(r *jsonread.Reader) error {
	if e := r.Err(); e != nil {
		return &refusal{reason: "params: " + e.Reason, params: true}
	}
	return nil
}

// names is the set of member names read from one object: a slice while it
// is short, a map beyond, so that an object of many members is read in
// linear time.
type names struct {
	few  []string
	many map[string]bool
}

// add adds name and reports whether it was there already.
func (s *names) add(name []byte) bool {
	if s.many != nil {
		if s.many[string(name)] {
			return true
		}
		s.many[string(name)] = true
		return false
	}
	for _, n := range s.few {
		if n == string(name) {
			return true
		}
	}
	s.few = append(s.few, string(name))
	if len(s.few) > 16 {
		s.many = make(map[string]bool, 32)
		for _, n := range s.few {
			s.many[n] = true
		}
	}
	return false
}
