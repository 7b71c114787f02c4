// Package callrecord turns the gate's refused calls (and, opt-in, its
// accepted ones) into fixture records that toolgate replays against schemas:
// `toolgate test --calls DIR` asserts the recorded outcomes against the
// current schemas and `toolgate diff --calls DIR OLD NEW` reports every call
// whose outcome a schema change flips.
//
// A record holds the tool, the schema version the call was decided
// against, the outcome (code, and the keyword and instance path of each
// violation) and the arguments, masked (see Mask): what a pattern, a
// format, an enum or a bound needs is kept, the text is not.
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
	// Args are the masked arguments.
	Args *jsonval.Value
	// Exact is false when masking may have changed the outcome: a sensitive
	// number or boolean was replaced by null, or a masked string no longer
	// matches a pattern the original matched (or the reverse).
	Exact bool
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
		{Key: "exact", Value: &jsonval.Value{Kind: jsonval.Bool, Bool: r.Exact}},
		{Key: "args", Value: r.Args},
	}}
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
		case "tool", "version", "code":
			if m.Value.Kind != jsonval.String {
				return nil, fmt.Errorf("%s must be a string", m.Key)
			}
			switch m.Key {
			case "tool":
				r.Tool = m.Value.Str
			case "version":
				r.Version = m.Value.Str
			default:
				r.Code = m.Value.Str
			}
		case "exact":
			if m.Value.Kind != jsonval.Bool {
				return nil, fmt.Errorf("exact must be a boolean")
			}
			r.Exact = m.Value.Bool
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
			return nil, fmt.Errorf("unknown member %q (want tool, version, code, violations, exact, args)", m.Key)
		}
	}
	var missing []string
	for _, k := range []string{"tool", "version", "code", "violations", "exact", "args"} {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	return r, nil
}
