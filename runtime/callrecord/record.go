// Package callrecord turns the gate's refused calls (and, opt-in, its
// accepted ones) into fixture records that toolgate replays against schemas:
// `toolgate test --calls DIR` asserts the recorded outcomes against the
// current schemas and `toolgate diff --calls DIR OLD NEW` reports every call
// whose outcome a schema change flips.
//
// A record holds the tool, the schema version the call was decided
// against, the outcome (code, and the keyword and instance path of each
// violation) and the arguments, masked (see Masker): what a pattern, a
// format, an enum or a bound needs is kept, the text is not, and no
// sensitive value at all. A call that cannot be masked into arguments the
// schema decides exactly as it decided the original ones is recorded as
// not replayable, with no arguments: the replay counts and reports it.
//
// The gate's audit events never carry argument values, so a Recorder is
// two things: an Auditor (gate.WithAuditor) that learns each call's outcome,
// and a Dispatch wrapper (or Remember, called before the gate's Dispatch)
// that shows it the arguments. Calls are paired by scope and call ID; a call
// without an ID cannot be paired and is not recorded.
package callrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Accepted is the Code of a record whose arguments the gate accepted.
const Accepted = "ok"

// Violation locates one violation, as gate.ViolationRef does.
type Violation struct {
	Keyword      string
	InstancePath string
}

// Record is one recorded call.
type Record struct {
	Tool    string
	Version string
	// Code is Accepted or the refusal's code (invalid_arguments).
	Code       string
	Violations []Violation
	// Args are the masked arguments; nil when the call is not replayable.
	Args *jsonval.Value
	// Replayable is false when no masking of the arguments keeps both the
	// outcome and every secret; Reason then says why.
	Replayable bool
	Reason     string
}

// Marshal renders r as indented JSON, the fixture file format.
func (r *Record) Marshal() []byte {
	str := func(s string) *jsonval.Value { return &jsonval.Value{Kind: jsonval.String, Str: s} }
	viols := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{}}
	for _, v := range r.Violations {
		viols.Items = append(viols.Items, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: "keyword", Value: str(v.Keyword)}, {Key: "instancePath", Value: str(v.InstancePath)}}})
	}
	doc := &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{
		{Key: "tool", Value: str(r.Tool)},
		{Key: "version", Value: str(r.Version)},
		{Key: "code", Value: str(r.Code)},
		{Key: "violations", Value: viols},
		{Key: "replayable", Value: &jsonval.Value{Kind: jsonval.Bool, Bool: r.Replayable}},
	}}
	if r.Replayable {
		doc.Members = append(doc.Members, jsonval.Member{Key: "args", Value: r.Args})
	} else {
		doc.Members = append(doc.Members, jsonval.Member{Key: "reason", Value: str(r.Reason)})
	}
	return append(doc.MarshalIndent(), '\n')
}

// FileName is the record's file name: the tool and a hash of the content,
// so that the same masked call recorded twice is one file.
func (r *Record) FileName() string {
	sum := sha256.Sum256(r.Marshal())
	return r.Tool + "-" + hex.EncodeToString(sum[:8]) + ".json"
}

// Parse reads a fixture file.
func Parse(data []byte) (*Record, error) {
	doc, err := jsonval.Parse(data)
	if err != nil {
		return nil, err
	}
	if doc.Kind != jsonval.Object {
		return nil, fmt.Errorf("a call record is a JSON object")
	}
	r := &Record{}
	seen := map[string]bool{}
	for _, m := range doc.Members {
		seen[m.Key] = true
		switch m.Key {
		case "tool", "version", "code", "reason":
			if m.Value.Kind != jsonval.String {
				return nil, fmt.Errorf("%s must be a string", m.Key)
			}
			switch m.Key {
			case "tool":
				r.Tool = m.Value.Str
			case "version":
				r.Version = m.Value.Str
			case "reason":
				r.Reason = m.Value.Str
			default:
				r.Code = m.Value.Str
			}
		case "replayable":
			if m.Value.Kind != jsonval.Bool {
				return nil, fmt.Errorf("replayable must be a boolean")
			}
			r.Replayable = m.Value.Bool
		case "exact":
			return nil, fmt.Errorf("a record with \"exact\" was written by an earlier toolgate, whose masking kept sensitive values and broke patterns; delete it and record the call again")
		case "args":
			r.Args = m.Value
		case "violations":
			if m.Value.Kind != jsonval.Array {
				return nil, fmt.Errorf("violations must be an array")
			}
			for _, it := range m.Value.Items {
				kw, path := it.Get("keyword"), it.Get("instancePath")
				if it.Kind != jsonval.Object || kw == nil || path == nil || kw.Kind != jsonval.String || path.Kind != jsonval.String || len(it.Members) != 2 {
					return nil, fmt.Errorf("a violation is {\"keyword\": string, \"instancePath\": string}")
				}
				r.Violations = append(r.Violations, Violation{kw.Str, path.Str})
			}
		default:
			return nil, fmt.Errorf("unknown member %q (want tool, version, code, violations, replayable, and args or reason)", m.Key)
		}
	}
	want := []string{"tool", "version", "code", "violations", "replayable", "reason"}
	if r.Replayable {
		want[len(want)-1] = "args"
	}
	var missing []string
	for _, k := range want {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	if r.Replayable == seen["reason"] || !r.Replayable && seen["args"] {
		return nil, fmt.Errorf("a replayable record has args and no reason; one that is not has a reason and no args")
	}
	return r, nil
}
