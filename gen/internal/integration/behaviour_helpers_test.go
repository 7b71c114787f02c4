package integration_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// wantViolation is one expected violation. SchemaPath and Message are checked
// only when set.
type wantViolation struct {
	Keyword    string
	Pointer    string // RFC 6901 instance path
	SchemaPath string
	Message    string
}

// outcome is what decoding one input must give.
type outcome struct {
	// Code is "" for an accepted input, else the *toolerr.Error code.
	Code toolerr.Code
	// Violations are, for InvalidArguments, all the violations in order.
	Violations []wantViolation
	// Truncated is the expected toolerr.Error.Truncated.
	Truncated bool
	// Offset is, for InvalidJSON, the byte offset of the problem.
	Offset int
	// Check makes extra assertions on the decoded arguments of an accepted
	// input (the value is the tool's Args struct, not a pointer).
	Check func(t *testing.T, args any)
}

// behaviourCase is one row of the matrix.
type behaviourCase struct {
	Name  string
	Tool  string // exact tool name
	Input string
	Want  outcome
}

// ok is an accepted outcome.
func ok() outcome { return outcome{} }

// okThen is an accepted outcome with assertions on the decoded T.
func okThen[T any](f func(t *testing.T, a T)) outcome {
	return outcome{Check: func(t *testing.T, v any) {
		t.Helper()
		a, isT := v.(T)
		if !isT {
			t.Fatalf("decoded %T, want %T", v, a)
		}
		f(t, a)
	}}
}

// bad is an invalid_arguments outcome whose first (so far only) violation is
// (keyword, pointer).
func bad(keyword, pointer string) outcome {
	return outcome{Code: toolerr.InvalidArguments, Violations: []wantViolation{{Keyword: keyword, Pointer: pointer}}}
}

// and appends another expected violation.
func (o outcome) and(keyword, pointer string) outcome {
	o.Violations = append(o.Violations[:len(o.Violations):len(o.Violations)], wantViolation{Keyword: keyword, Pointer: pointer})
	return o
}

// sp sets the schema path of the last expected violation.
func (o outcome) sp(schemaPath string) outcome {
	o.Violations = append([]wantViolation(nil), o.Violations...)
	o.Violations[len(o.Violations)-1].SchemaPath = schemaPath
	return o
}

// msg sets the message of the last expected violation.
func (o outcome) msg(message string) outcome {
	o.Violations = append([]wantViolation(nil), o.Violations...)
	o.Violations[len(o.Violations)-1].Message = message
	return o
}

// caret marks, in the inputs of malformedCase, the byte where the reader must
// report the syntax problem; it is removed from the input.
const caret = "‸"

// malformed is an invalid_json row: input holds one caret at the offset the
// error must name.
func malformed(name, tool, input string) behaviourCase {
	off := strings.Index(input, caret)
	if off < 0 || strings.Count(input, caret) != 1 {
		panic("malformed: input must hold exactly one caret: " + name)
	}
	return behaviourCase{Name: name, Tool: tool, Input: strings.Replace(input, caret, "", 1),
		Want: outcome{Code: toolerr.InvalidJSON, Offset: off}}
}

// ---- input builders ----------------------------------------------------------

// omit, as a member value, removes the member from the defaults.
const omit = "\x00omit"

// object renders a JSON object from defaults (name, raw value pairs; a name is
// the raw contents of its JSON string, escapes included) with
// overrides kv (name, raw value pairs): an override replaces a default in
// place, omit removes it, and new names are appended in order.
func object(defaults []string, kv ...string) string {
	if len(defaults)%2 != 0 || len(kv)%2 != 0 {
		panic("object: odd name/value list")
	}
	names := []string{}
	vals := map[string]string{}
	add := func(n, v string) {
		if _, seen := vals[n]; !seen {
			names = append(names, n)
		}
		vals[n] = v
	}
	for i := 0; i < len(defaults); i += 2 {
		add(defaults[i], defaults[i+1])
	}
	for i := 0; i < len(kv); i += 2 {
		add(kv[i], kv[i+1])
	}
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, n := range names {
		if vals[n] == omit {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, `"%s":%s`, n, vals[n]) // names are raw JSON string contents
	}
	b.WriteByte('}')
	return b.String()
}

func str(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func refund(kv ...string) string {
	return object([]string{"orderId", `"A-19"`, "amountInCents", "2500", "reason", `"duplicate"`}, kv...)
}

func dispatch(kv ...string) string {
	return object([]string{"order_id", `"A-19"`, "dispatch_date", `"2026-03-02"`, "amount_pence", "450", "currency", `"GBP"`}, kv...)
}

func addr(kv ...string) string {
	return object([]string{"name", `"Ada Lovelace"`, "line1", `"12 St James's Square"`, "city", `"London"`, "postcode", `"SW1Y 4JH"`, "country", `"GB"`}, kv...)
}

func item(kv ...string) string {
	return object([]string{"sku", `"SKU1"`, "quantity", "1"}, kv...)
}

func arr(items ...string) string { return "[" + strings.Join(items, ",") + "]" }

// items is n valid, distinct line items.
func items(n int) string {
	it := make([]string, n)
	for i := range it {
		it[i] = item("sku", fmt.Sprintf(`"SKU%04d"`, i), "quantity", fmt.Sprint(i%99+1))
	}
	return arr(it...)
}

func ship(kv ...string) string {
	return object([]string{"order_id", `"A-19"`, "address", addr(), "line_items", arr(item(), item("sku", `"SKU2"`, "quantity", "2"), item("sku", `"SKU3"`, "quantity", "3"))}, kv...)
}

// manyUnknown is a refund_order call with n unknown members u00, u01, ...
func manyUnknown(n int) string {
	kv := []string{}
	for i := range n {
		kv = append(kv, fmt.Sprintf("u%02d", i), "1")
	}
	return refund(kv...)
}

// truncatedOutcome expects toolerr.MaxViolations additionalProperties
// violations at /u00, /u01, ... and Truncated.
func truncatedOutcome() outcome {
	o := outcome{Code: toolerr.InvalidArguments, Truncated: true}
	for i := range toolerr.MaxViolations {
		o.Violations = append(o.Violations, wantViolation{Keyword: "additionalProperties", Pointer: fmt.Sprintf("/u%02d", i)})
	}
	return o
}

// nested wraps v in depth arrays.
func nested(depth int, v string) string {
	return strings.Repeat("[", depth) + v + strings.Repeat("]", depth)
}

const (
	refundT   = generated.RefundOrderToolName
	shipT     = generated.CreateShipmentToolName
	dispatchT = generated.ScheduleOrderDispatchToolName
)
