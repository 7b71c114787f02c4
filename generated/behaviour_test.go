package generated_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/opt"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// This file holds the seed failure matrix of the generated decoders as data:
// behaviourCases is one row per input, each with the outcome the gate must
// reach on it (accepted, or refused with a code, and for invalid_arguments
// every violation in document order). The table is package-level so that the
// gate tests of a later issue can feed the same rows through the registry and
// assert that no refused row reaches an executor.

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

// ---- the matrix -------------------------------------------------------------

var behaviourCases = []behaviourCase{
	// Valid representatives of each tool.
	{"valid/refund", refundT, refund(), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.OrderID != "A-19" || a.AmountInCents != 2500 || a.Reason != generated.RefundOrderReasonDuplicate {
			t.Errorf("decoded %+v", a)
		}
	})},
	{"valid/refund-whitespace", refundT, " \t\r\n{ \"orderId\" : \"A-19\" ,\n \"amountInCents\" : 2500 , \"reason\" : \"duplicate\" }\n", ok()},
	{"valid/refund-reordered", refundT, `{"reason":"fraudulent","notifyCustomer":false,"amountInCents":1,"orderId":"ZZ9"}`, ok()},
	{"valid/ship", shipT, ship(), okThen(func(t *testing.T, a generated.CreateShipmentArgs) {
		if a.Address.Country != "GB" || len(a.LineItems) != 3 || a.LineItems[2].Quantity != 3 || a.Address.Line2.IsSet() || a.Service.IsSet() || a.ServiceOrDefault() != generated.CreateShipmentServiceStandard {
			t.Errorf("decoded %+v", a)
		}
	})},
	{"valid/ship-all-members", shipT, ship("address", addr("line2", `"Flat 2 \u00e9"`), "service", `"next_day"`, "insured_value", "19.99"), okThen(func(t *testing.T, a generated.CreateShipmentArgs) {
		if l2, _ := a.Address.Line2.Get(); l2 != "Flat 2 é" || a.Service.Or("") != generated.CreateShipmentServiceNextDay || a.InsuredValue.Or(0) != 19.99 {
			t.Errorf("decoded %+v", a)
		}
	})},
	{"valid/dispatch", dispatchT, dispatch(), ok()},

	// Required members: missing, explicit null, empty object, nested.
	{"required/missing", refundT, refund("orderId", omit), bad("required", "").sp("/required").msg("orderId is required")},
	{"required/missing-two", refundT, refund("orderId", omit, "reason", omit), bad("required", "").and("required", "")},
	{"required/null", refundT, refund("orderId", "null"), bad("type", "/orderId").sp("/properties/orderId/type").msg("orderId must be a string; received null")},
	{"required/null-integer", refundT, refund("amountInCents", "null"), bad("type", "/amountInCents")},
	{"required/empty-object", refundT, `{}`, bad("required", "").msg("orderId is required").and("required", "").msg("amountInCents is required").and("required", "").msg("reason is required")},
	{"required/nested-address", shipT, ship("address", addr("country", omit)), bad("required", "/address").sp("/$defs/address/required").msg("address.country is required")},
	{"required/nested-address-empty", shipT, ship("address", `{}`), bad("required", "/address").and("required", "/address").and("required", "/address").and("required", "/address").and("required", "/address")},
	{"required/nested-item", shipT, ship("line_items", arr(item(), item("quantity", omit))), bad("required", "/line_items/1").sp("/properties/line_items/items/required").msg("line_items[1].quantity is required")},
	{"required/optional-absent", shipT, ship("address", addr("line2", omit)), ok()},
	{"required/dispatch-missing", dispatchT, dispatch("currency", omit), bad("required", "").msg("currency is required")},

	// Integers: exact, no coercion, 1.0 is an integer.
	{"integer/fraction", refundT, refund("amountInCents", "25.5"), bad("type", "/amountInCents").sp("/properties/amountInCents/type").msg("amountInCents must be an integer; received 25.5")},
	{"integer/string", refundT, refund("amountInCents", `"2500"`), bad("type", "/amountInCents").msg("amountInCents must be an integer; received a string")},
	{"integer/bool", refundT, refund("amountInCents", `true`), bad("type", "/amountInCents")},
	{"integer/point-zero", refundT, refund("amountInCents", "2500.0"), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.AmountInCents != 2500 {
			t.Errorf("AmountInCents = %d, want 2500", a.AmountInCents)
		}
	})},
	{"integer/exponent", refundT, refund("amountInCents", "2.5e3"), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.AmountInCents != 2500 {
			t.Errorf("AmountInCents = %d, want 2500", a.AmountInCents)
		}
	})},
	{"integer/upper-exponent", refundT, refund("amountInCents", "25E+2"), ok()},
	{"integer/negative-exponent", refundT, refund("amountInCents", "250000e-2"), ok()},
	{"integer/fraction-exponent", refundT, refund("amountInCents", "2.5e-1"), bad("type", "/amountInCents")},
	// An integer beyond int64 is an integer: it breaks the bound, not the type.
	{"integer/huge", refundT, refund("amountInCents", "1e30"), bad("maximum", "/amountInCents").sp("/properties/amountInCents/maximum").msg("amountInCents must be at most 100000; received 1e30")},
	{"integer/int64-overflow", refundT, refund("amountInCents", "9223372036854775808"), bad("maximum", "/amountInCents")},
	{"integer/uint64-overflow", refundT, refund("amountInCents", "18446744073709551616"), bad("maximum", "/amountInCents").sp("/properties/amountInCents/maximum").msg("amountInCents must be at most 100000; received 18446744073709551616")},
	{"integer/huge-negative", refundT, refund("amountInCents", "-1e30"), bad("minimum", "/amountInCents").sp("/properties/amountInCents/minimum").msg("amountInCents must be at least 1; received -1e30")},
	{"integer/int64-max", refundT, refund("amountInCents", "9223372036854775807"), bad("maximum", "/amountInCents")},
	{"integer/beyond-float-precision", refundT, refund("amountInCents", "9007199254740993"), bad("maximum", "/amountInCents").msg("amountInCents must be at most 100000; received 9007199254740993")},

	// Bounds.
	{"bounds/zero", refundT, refund("amountInCents", "0"), bad("minimum", "/amountInCents").sp("/properties/amountInCents/minimum").msg("amountInCents must be at least 1; received 0")},
	{"bounds/negative", refundT, refund("amountInCents", "-1"), bad("minimum", "/amountInCents")},
	{"bounds/negative-zero", refundT, refund("amountInCents", "-0"), bad("minimum", "/amountInCents")},
	{"bounds/above-max", refundT, refund("amountInCents", "100001"), bad("maximum", "/amountInCents").sp("/properties/amountInCents/maximum").msg("amountInCents must be at most 100000; received 100001")},
	{"bounds/above-max-exponent", refundT, refund("amountInCents", "1.00001e5"), bad("maximum", "/amountInCents")},
	{"bounds/min", refundT, refund("amountInCents", "1"), ok()},
	{"bounds/max", refundT, refund("amountInCents", "100000"), ok()},
	{"bounds/max-exponent", refundT, refund("amountInCents", "1e5"), ok()},
	{"bounds/item-quantity", shipT, ship("line_items", arr(item(), item("sku", `"SKU2"`, "quantity", "100"))), bad("maximum", "/line_items/1/quantity").sp("/properties/line_items/items/properties/quantity/maximum").msg("line_items[1].quantity must be at most 99; received 100")},
	{"bounds/dispatch-zero-ok", dispatchT, dispatch("amount_pence", "0"), ok()},
	{"bounds/dispatch-negative", dispatchT, dispatch("amount_pence", "-1"), bad("minimum", "/amount_pence")},

	// Enums: exact bytes, no case folding or trimming.
	{"enum/wrong", refundT, refund("reason", `"other"`), bad("enum", "/reason").sp("/properties/reason/enum").msg("reason must be one of duplicate, fraudulent or requested_by_customer; received other")},
	{"enum/other-case", refundT, refund("reason", `"Duplicate"`), bad("enum", "/reason").msg("reason must be one of duplicate, fraudulent or requested_by_customer; received Duplicate")},
	{"enum/leading-space", refundT, refund("reason", `" duplicate"`), bad("enum", "/reason").msg(`reason must be one of duplicate, fraudulent or requested_by_customer; received " duplicate"`)},
	{"enum/escaped-equal-ok", refundT, refund("reason", `"dupl\u0069cate"`), ok()},
	{"enum/not-string", refundT, refund("reason", `1`), bad("type", "/reason")},
	{"enum/reason-fraudulent", refundT, refund("reason", `"fraudulent"`), ok()},
	{"enum/reason-requested", refundT, refund("reason", `"requested_by_customer"`), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.Reason != generated.RefundOrderReasonRequestedByCustomer {
			t.Errorf("Reason = %q", a.Reason)
		}
	})},
	{"enum/currency-wrong", dispatchT, dispatch("currency", `"USD"`), bad("enum", "/currency").sp("/properties/currency/enum").msg("currency must be one of GBP or EUR; received USD")},
	{"enum/currency-case", dispatchT, dispatch("currency", `"gbp"`), bad("enum", "/currency").msg("currency must be one of GBP or EUR; received gbp")},
	{"enum/currency-leading-space", dispatchT, dispatch("currency", `" GBP"`), bad("enum", "/currency").msg(`currency must be one of GBP or EUR; received " GBP"`)},
	{"enum/currency-trailing-space", dispatchT, dispatch("currency", `"GBP "`), bad("enum", "/currency")},
	{"enum/currency-eur", dispatchT, dispatch("currency", `"EUR"`), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if a.Currency != generated.ScheduleOrderDispatchCurrencyEUR {
			t.Errorf("Currency = %q", a.Currency)
		}
	})},
	{"enum/service-case", shipT, ship("service", `"Express"`), bad("enum", "/service").msg("service must be one of standard, express or next_day; received Express")},
	{"enum/service-ok", shipT, ship("service", `"express"`), ok()},

	// Patterns: RE2 anchors, no multiline, length bounds inside the pattern.
	{"pattern/empty", refundT, refund("orderId", `""`), bad("pattern", "/orderId").sp("/properties/orderId/pattern").msg(`orderId must match the pattern ^[A-Z][A-Z0-9-]{2,31}$; received ""`)},
	{"pattern/lowercase", refundT, refund("orderId", `"a-19"`), bad("pattern", "/orderId").msg("orderId must match the pattern ^[A-Z][A-Z0-9-]{2,31}$; received a-19")},
	{"pattern/trailing-newline", refundT, refund("orderId", `"A-19\n"`), bad("pattern", "/orderId").msg(`orderId must match the pattern ^[A-Z][A-Z0-9-]{2,31}$; received "A-19\n"`)},
	{"pattern/leading-space", refundT, refund("orderId", `" A-19"`), bad("pattern", "/orderId")},
	{"pattern/too-short", refundT, refund("orderId", `"A1"`), bad("pattern", "/orderId")},
	{"pattern/overlength-33", refundT, refund("orderId", str("A"+strings.Repeat("B", 32))), bad("pattern", "/orderId")},
	{"pattern/max-length-32", refundT, refund("orderId", str("A"+strings.Repeat("B", 31))), ok()},
	{"pattern/min-length-3", refundT, refund("orderId", `"ZZ9"`), ok()},
	{"pattern/escaped-valid", refundT, refund("orderId", `"\u0041-19"`), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.OrderID != "A-19" {
			t.Errorf("OrderID = %q", a.OrderID)
		}
	})},
	{"pattern/fullwidth", refundT, refund("orderId", `"Ａ-19"`), bad("pattern", "/orderId")},
	{"pattern/country", shipT, ship("address", addr("country", `"gb"`)), bad("pattern", "/address/country").sp("/$defs/address/properties/country/pattern")},
	{"pattern/sku-in-item", shipT, ship("line_items", arr(item("sku", `"sku1"`))), bad("pattern", "/line_items/0/sku").sp("/properties/line_items/items/properties/sku/pattern").msg("line_items[0].sku must match the pattern ^[A-Z0-9]{4,12}$; received sku1")},

	// Optional boolean with a default: no coercion, absent stays absent.
	{"bool/string-false", refundT, refund("notifyCustomer", `"false"`), bad("type", "/notifyCustomer").sp("/properties/notifyCustomer/type").msg("notifyCustomer must be a boolean; received a string")},
	{"bool/zero", refundT, refund("notifyCustomer", `0`), bad("type", "/notifyCustomer").msg("notifyCustomer must be a boolean; received a number")},
	{"bool/object", refundT, refund("notifyCustomer", `{}`), bad("type", "/notifyCustomer").msg("notifyCustomer must be a boolean; received an object")},
	{"bool/null", refundT, refund("notifyCustomer", `null`), bad("type", "/notifyCustomer")},
	{"bool/true", refundT, refund("notifyCustomer", `true`), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if v, set := a.NotifyCustomer.Get(); !set || !v {
			t.Errorf("NotifyCustomer = %v, %v; want true, set", v, set)
		}
	})},
	{"bool/false", refundT, refund("notifyCustomer", `false`), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if v, set := a.NotifyCustomer.Get(); !set || v || a.NotifyCustomerOrDefault() {
			t.Errorf("NotifyCustomer = %v, %v; want false, set (and OrDefault false)", v, set)
		}
	})},
	{"bool/absent", refundT, refund(), okThen(func(t *testing.T, a generated.RefundOrderArgs) {
		if a.NotifyCustomer.IsSet() || !a.NotifyCustomerOrDefault() {
			t.Errorf("NotifyCustomer.IsSet() = %v, OrDefault = %v; want false, true", a.NotifyCustomer.IsSet(), a.NotifyCustomerOrDefault())
		}
	})},

	// Closed objects at every level.
	{"closure/root-approvedBy", refundT, refund("approvedBy", `"manager"`), bad("additionalProperties", "/approvedBy").sp("/additionalProperties").msg("approvedBy is not a known field; the fields are orderId, amountInCents, reason, notifyCustomer")},
	{"closure/root-skipApproval", refundT, refund("skipApproval", `true`), bad("additionalProperties", "/skipApproval")},
	{"closure/root-role", refundT, refund("role", `"admin"`), bad("additionalProperties", "/role")},
	{"closure/root-all-three", refundT, refund("approvedBy", `"x"`, "skipApproval", `true`, "role", `{"admin":[1,2]}`), bad("additionalProperties", "/approvedBy").and("additionalProperties", "/skipApproval").and("additionalProperties", "/role")},
	{"closure/root-case-variant", refundT, refund("OrderId", `"A-19"`), bad("additionalProperties", "/OrderId")},
	{"closure/pointer-escaping", refundT, refund("a/b~c", `1`), bad("additionalProperties", "/a~1b~0c")},
	{"closure/escaped-name", refundT, refund("r\\u006fle", `1`), bad("additionalProperties", "/role").msg("role is not a known field; the fields are orderId, amountInCents, reason, notifyCustomer")},
	// A name that is not a plain word is quoted, its invisible characters
	// escaped, so that it reads as itself.
	{"closure/invisible-name", refundT, refund("orderId\\u200b", `"A-19"`), bad("additionalProperties", "/orderId\u200b").msg(`"orderId\u200b" is not a known field; the fields are orderId, amountInCents, reason, notifyCustomer`)},
	{"closure/empty-name", refundT, refund("", `1`), bad("additionalProperties", "/").msg(`"" is not a known field; the fields are orderId, amountInCents, reason, notifyCustomer`)},
	{"closure/dotted-name", shipT, ship("address", addr("a.b", `1`)), bad("additionalProperties", "/address/a.b").msg(`address."a.b" is not a known field; the fields are name, line1, line2, city, postcode, country`)},
	{"closure/nested-role", shipT, ship("address", addr("role", `"admin"`)), bad("additionalProperties", "/address/role").sp("/$defs/address/additionalProperties").msg("address.role is not a known field; the fields are name, line1, line2, city, postcode, country")},
	{"closure/nested-approvedBy", shipT, ship("address", addr("approvedBy", `null`)), bad("additionalProperties", "/address/approvedBy")},
	{"closure/item-skipApproval", shipT, ship("line_items", arr(item("skipApproval", `true`))), bad("additionalProperties", "/line_items/0/skipApproval").sp("/properties/line_items/items/additionalProperties").msg("line_items[0].skipApproval is not a known field; the fields are sku, quantity")},
	{"closure/item-role-second", shipT, ship("line_items", arr(item(), item("sku", `"SKU2"`, "role", `"admin"`))), bad("additionalProperties", "/line_items/1/role")},
	{"closure/ship-root-approvedBy", shipT, ship("approvedBy", `"x"`), bad("additionalProperties", "/approvedBy").sp("/additionalProperties")},
	{"closure/dispatch-root", dispatchT, dispatch("skipApproval", `true`), bad("additionalProperties", "/skipApproval")},

	// Nesting and double encoding: a string is a string, never re-parsed.
	{"nesting/payload-wrapper", refundT, `{"payload":` + refund() + `}`, bad("additionalProperties", "/payload").and("required", "").and("required", "").and("required", "")},
	{"nesting/arguments-wrapper", refundT, `{"arguments":` + refund() + `}`, bad("additionalProperties", "/arguments").and("required", "").and("required", "").and("required", "")},
	{"nesting/address-double-encoded", shipT, ship("address", str(addr())), bad("type", "/address").sp("/$defs/address/type").msg("address must be an object; received a string")},
	{"nesting/line-items-double-encoded", shipT, ship("line_items", str(arr(item()))), bad("type", "/line_items").sp("/properties/line_items/type").msg("line_items must be an array; received a string")},
	{"nesting/item-double-encoded", shipT, ship("line_items", arr(str(item()))), bad("type", "/line_items/0").sp("/properties/line_items/items/type")},
	{"nesting/address-array", shipT, ship("address", arr(addr())), bad("type", "/address")},

	// Nullable: missing, null and a value are three states.
	{"nullable/missing", dispatchT, dispatch(), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if a.Note.State() != opt.Missing {
			t.Errorf("Note.State() = %v, want missing", a.Note.State())
		}
	})},
	{"nullable/null", dispatchT, dispatch("note", "null"), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if a.Note.State() != opt.Null || !a.Note.IsNull() {
			t.Errorf("Note.State() = %v, want null", a.Note.State())
		}
	})},
	{"nullable/value", dispatchT, dispatch("note", `"x"`), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if v, present := a.Note.Get(); a.Note.State() != opt.Present || !present || v != "x" {
			t.Errorf("Note = %q (%v), want present x", v, a.Note.State())
		}
	})},
	{"nullable/empty-string", dispatchT, dispatch("note", `""`), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if v, present := a.Note.Get(); !present || v != "" {
			t.Errorf("Note = %q (%v), want present empty", v, a.Note.State())
		}
	})},
	{"nullable/wrong-type", dispatchT, dispatch("note", `5`), bad("type", "/note").sp("/properties/note/type").msg("note must be a string or null; received a number")},
	{"nullable/maxLength-280-e-acute", dispatchT, dispatch("note", str(strings.Repeat("é", 280))), ok()},
	{"nullable/maxLength-281-e-acute", dispatchT, dispatch("note", str(strings.Repeat("é", 281))), bad("maxLength", "/note").sp("/properties/note/maxLength").msg("note must be at most 280 characters long; received 281 characters")},
	{"nullable/maxLength-280-escaped-astral", dispatchT, dispatch("note", `"`+strings.Repeat(`\ud83d\ude00`, 280)+`"`), ok()},
	{"nullable/maxLength-281-escaped-astral", dispatchT, dispatch("note", `"`+strings.Repeat(`\ud83d\ude00`, 281)+`"`), bad("maxLength", "/note")},
	{"nullable/minLength-address-name", shipT, ship("address", addr("name", `""`)), bad("minLength", "/address/name").msg("address.name must be at least 1 character long; received 0 characters")},

	// format: date.
	{"date/not-leap", dispatchT, dispatch("dispatch_date", `"2026-02-29"`), bad("format", "/dispatch_date").sp("/properties/dispatch_date/format").msg("dispatch_date must be a valid date (RFC 3339 full-date, YYYY-MM-DD); received 2026-02-29")},
	{"date/leap", dispatchT, dispatch("dispatch_date", `"2028-02-29"`), okThen(func(t *testing.T, a generated.ScheduleOrderDispatchArgs) {
		if a.DispatchDate != "2028-02-29" {
			t.Errorf("DispatchDate = %q", a.DispatchDate)
		}
	})},
	{"date/short-month", dispatchT, dispatch("dispatch_date", `"2026-1-01"`), bad("format", "/dispatch_date")},
	{"date/month-13", dispatchT, dispatch("dispatch_date", `"2026-13-01"`), bad("format", "/dispatch_date")},
	{"date/date-time", dispatchT, dispatch("dispatch_date", `"2026-03-02T10:00:00Z"`), bad("format", "/dispatch_date")},
	{"date/not-string", dispatchT, dispatch("dispatch_date", `20260302`), bad("type", "/dispatch_date")},

	// multipleOf in exact decimal, exclusiveMinimum, maximum.
	{"multipleOf/two-decimals", shipT, ship("insured_value", "19.99"), ok()},
	{"multipleOf/three-decimals", shipT, ship("insured_value", "19.999"), bad("multipleOf", "/insured_value").sp("/properties/insured_value/multipleOf").msg("insured_value must be a multiple of 0.01; received 19.999")},
	{"multipleOf/zero", shipT, ship("insured_value", "0"), bad("exclusiveMinimum", "/insured_value").sp("/properties/insured_value/exclusiveMinimum").msg("insured_value must be greater than 0; received 0")},
	{"multipleOf/negative", shipT, ship("insured_value", "-0.01"), bad("exclusiveMinimum", "/insured_value")},
	{"multipleOf/max", shipT, ship("insured_value", "10000"), ok()},
	{"multipleOf/above-max", shipT, ship("insured_value", "10000.01"), bad("maximum", "/insured_value").sp("/properties/insured_value/maximum").msg("insured_value must be at most 10000; received 10000.01")},
	{"multipleOf/smallest", shipT, ship("insured_value", "0.01"), ok()},
	{"multipleOf/exponent", shipT, ship("insured_value", "1999e-2"), ok()},
	{"multipleOf/float-trap", shipT, ship("insured_value", "0.3"), ok()},
	{"multipleOf/float-trap-2", shipT, ship("insured_value", "1.13"), ok()},
	{"multipleOf/trailing-zeros", shipT, ship("insured_value", "19.990000"), ok()},
	// The float64 the executor receives keeps the bounds too: 1e-400 is above
	// 0 but becomes 0 (and is no multiple of 0.01).
	{"multipleOf/tiny", shipT, ship("insured_value", "1e-400"), bad("multipleOf", "/insured_value").and("exclusiveMinimum", "/insured_value").sp("/properties/insured_value/exclusiveMinimum").msg("insured_value must be greater than 0 also as a 64-bit floating-point number; received 1e-400, which is 0 as a 64-bit float")},
	{"multipleOf/string", shipT, ship("insured_value", `"19.99"`), bad("type", "/insured_value").msg("insured_value must be a number; received a string")},

	// minItems, maxItems.
	{"items/empty", shipT, ship("line_items", "[]"), bad("minItems", "/line_items").sp("/properties/line_items/minItems").msg("line_items must have at least 1 item; received 0")},
	{"items/one", shipT, ship("line_items", items(1)), ok()},
	{"items/50", shipT, ship("line_items", items(50)), ok()},
	{"items/51", shipT, ship("line_items", items(51)), bad("maxItems", "/line_items").sp("/properties/line_items/maxItems").msg("line_items must have at most 50 items; received 51")},
	{"items/not-object", shipT, ship("line_items", arr(item(), "3")), bad("type", "/line_items/1").msg("line_items[1] must be an object; received a number")},

	// Several violations: all of them, in document order.
	{"many/refund", refundT, `{"orderId":"a","amountInCents":0,"reason":"x","extra":1}`, bad("pattern", "/orderId").and("minimum", "/amountInCents").and("enum", "/reason").and("additionalProperties", "/extra")},
	{"many/refund-reordered", refundT, `{"extra":1,"reason":"x","amountInCents":0,"orderId":"a"}`, bad("additionalProperties", "/extra").and("enum", "/reason").and("minimum", "/amountInCents").and("pattern", "/orderId")},
	{"many/missing-after-present", refundT, `{"reason":"x"}`, bad("enum", "/reason").and("required", "").and("required", "")},
	{"many/ship-nested", shipT, `{"order_id":"A-19","address":{"name":"","line1":"x","city":"y","postcode":"?","country":"gb","role":1},"line_items":[{"sku":"s","quantity":0,"x":1},{"quantity":100}],"service":"fast","insured_value":0.001}`,
		bad("minLength", "/address/name").and("pattern", "/address/postcode").and("pattern", "/address/country").and("additionalProperties", "/address/role").
			and("pattern", "/line_items/0/sku").and("minimum", "/line_items/0/quantity").and("additionalProperties", "/line_items/0/x").
			and("maximum", "/line_items/1/quantity").and("required", "/line_items/1").
			and("enum", "/service").and("multipleOf", "/insured_value")},
	{"many/truncated", refundT, manyUnknown(toolerr.MaxViolations + 8), truncatedOutcome()},
	{"many/exactly-cap", refundT, manyUnknown(toolerr.MaxViolations), func() outcome { o := truncatedOutcome(); o.Truncated = false; return o }()},
}

// malformedCases are the invalid_json rows; the caret marks the offset.
var malformedCases = []behaviourCase{
	malformed("json/duplicate-top", refundT, `{"orderId":"A-19","amountInCents":2500,‸"orderId":"B-20","reason":"duplicate"}`),
	malformed("json/duplicate-top-same-value", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate",‸"reason":"duplicate"}`),
	malformed("json/duplicate-escaped-equal", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate",‸"order\u0049d":"B-20"}`),
	malformed("json/duplicate-escaped-first", refundT, `{"order\u0049d":"B-20","amountInCents":2500,"reason":"duplicate",‸"orderId":"A-19"}`),
	malformed("json/duplicate-unknown", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","role":"a",‸"role":"b"}`),
	malformed("json/duplicate-unknown-escaped", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","role":"a",‸"r\u006fle":"b"}`),
	malformed("json/duplicate-nested-address", shipT, `{"order_id":"A-19","address":{"name":"Ada","line1":"1 Main St","city":"London","postcode":"N1 9GU","country":"GB",‸"name":"Eve"},"line_items":[{"sku":"SKU1","quantity":1}]}`),
	malformed("json/duplicate-nested-item", shipT, `{"order_id":"A-19","address":{"name":"Ada","line1":"1 Main St","city":"London","postcode":"N1 9GU","country":"GB"},"line_items":[{"sku":"SKU1","quantity":1,‸"quantity":2}]}`),
	malformed("json/duplicate-inside-unknown", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","meta":{"a":1,‸"a":2}}`),
	malformed("json/duplicate-after-violation", refundT, `{"orderId":"a","amountInCents":2500,"reason":"duplicate",‸"orderId":"A-19"}`),
	malformed("json/trailing-data", refundT, refund()+" ‸x"),
	malformed("json/trailing-object", refundT, refund()+"‸{}"),
	malformed("json/trailing-comma", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate",‸}`),
	malformed("json/invalid-utf8-value", refundT, "{\"orderId\":\"A-19\",\"amountInCents\":2500,\"reason\":\"dup‸\xfflicate\"}"),
	malformed("json/invalid-utf8-name", refundT, "{\"orderId\":\"A-19\",\"amountInCents\":2500,\"reason\":\"duplicate\",\"r‸\xc3\"}"),
	malformed("json/invalid-utf8-unknown-value", refundT, "{\"orderId\":\"A-19\",\"amountInCents\":2500,\"reason\":\"duplicate\",\"x\":\"‸\xed\xa0\x80\"}"),
	malformed("json/lone-surrogate", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"‸\ud800"}`),
	malformed("json/lone-surrogate-note", dispatchT, `{"order_id":"A-19","dispatch_date":"2026-03-02","amount_pence":450,"currency":"GBP","note":"ok ‸\udc00"}`),
	malformed("json/lone-surrogate-unknown", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","x":["‸\ud800"]}`),
	malformed("json/truncated", refundT, `{"orderId":"A-19","amountInCents":25‸`),
	malformed("json/truncated-string", refundT, `{"orderId":"A-1‸`),
	malformed("json/truncated-nested", shipT, `{"order_id":"A-19","address":{"name":"Ada"‸`),
	malformed("json/empty", refundT, `‸`),
	malformed("json/whitespace-only", refundT, "  ‸"),
	malformed("json/top-array", refundT, `‸[{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}]`),
	malformed("json/top-number", refundT, ` ‸2500`),
	malformed("json/top-null", refundT, `‸null`),
	malformed("json/top-string-double-encoded", refundT, "‸"+str(refund())),
	malformed("json/top-true", refundT, `‸true`),
	malformed("json/single-quotes", refundT, `{‸'orderId':"A-19"}`),
	malformed("json/control-char", refundT, "{\"orderId\":\"A-19‸\n\",\"amountInCents\":2500,\"reason\":\"duplicate\"}"),
	malformed("json/bom", refundT, "‸\ufeff"+refund()),
	malformed("json/nan", shipT, `{"order_id":"A-19","insured_value":‸NaN}`),
	malformed("json/plus-sign", refundT, `{"orderId":"A-19","amountInCents":‸+2500,"reason":"duplicate"}`),
	malformed("json/depth-limit", refundT, `{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","x":`+strings.Repeat("[", 63)+"‸["+strings.Repeat("]", 64)+`}`),
	malformed("json/syntax-after-violations", refundT, `{"orderId":"a","amountInCents":0,"reason":"x"‸;`),
	malformed("json/syntax-after-cap", refundT, strings.TrimSuffix(manyUnknown(toolerr.MaxViolations+3), "}")+"‸]"),
	malformed("json/missing-value", refundT, `{"orderId":‸}`),
	malformed("json/bare-word", refundT, `{"orderId":‸x}`),
	malformed("json/missing-colon", refundT, `{"orderId" ‸"A"}`),
	malformed("json/double-comma", refundT, `{"orderId":"A-19",‸,"reason":"x"}`),
	malformed("json/bad-literal", refundT, `{"notifyCustomer":tru‸}`),
	malformed("json/bad-number", refundT, `{"amountInCents":1.‸}`),
	malformed("json/bad-escape", refundT, `{"orderId":"\‸x"}`),
	malformed("json/short-unicode-escape", refundT, `{"orderId":"\u12‸"}`),
	malformed("json/extra-brace", refundT, `{"orderId":"A-19","reason":"x"}‸}`),
	malformed("json/leading-zero", refundT, `{"orderId":"A-19","amountInCents":0‸2500,"reason":"duplicate"}`),
	{"json/over-size-limit", refundT, refund("note", str(strings.Repeat("x", 1<<20))), outcome{Code: toolerr.InvalidJSON, Offset: 0}},
}

// withinDepth is the deepest nesting that the default limit allows (64
// levels, the root object included), which must be accepted as far as the
// reader is concerned (here it is an unknown member, so the verdict is
// additionalProperties, not invalid_json).
var depthCases = []behaviourCase{
	{"json/depth-64-ok", refundT, refund("x", nested(63, "1")), bad("additionalProperties", "/x")},
}

func init() {
	behaviourCases = append(append(behaviourCases, malformedCases...), depthCases...)
}

// ---- decoding by tool name ---------------------------------------------------

// toolCodec decodes and round-trips the arguments of one tool, with the
// concrete Args type hidden behind any.
type toolCodec struct {
	decode    func([]byte) (any, error)
	unmarshal func([]byte) (any, error) // through encoding/json and UnmarshalJSON
	roundTrip func(t *testing.T, v any)
}

func codecFor[T any](decode func([]byte) (T, error)) toolCodec {
	return toolCodec{
		decode: func(b []byte) (any, error) {
			v, err := decode(b)
			return v, err
		},
		unmarshal: func(b []byte) (any, error) {
			var v T
			err := json.Unmarshal(b, &v)
			return v, err
		},
		roundTrip: func(t *testing.T, v any) {
			t.Helper()
			b, err := json.Marshal(v.(T))
			if err != nil {
				t.Fatalf("json.Marshal: %v", err)
			}
			w, err := decode(b)
			if err != nil {
				t.Fatalf("decoding the marshalled %s: %v", b, err)
			}
			if !reflect.DeepEqual(v, w) {
				t.Fatalf("round trip changed the value:\n got %+v\nwant %+v\n via %s", w, v, b)
			}
			b2, err := json.Marshal(w)
			if err != nil || !bytes.Equal(b, b2) {
				t.Fatalf("second marshal: %s, %v; want %s", b2, err, b)
			}
		},
	}
}

var codecs = map[string]toolCodec{
	generated.RefundOrderToolName:           codecFor(generated.DecodeRefundOrderArgs),
	generated.CreateShipmentToolName:        codecFor(generated.DecodeCreateShipmentArgs),
	generated.ScheduleOrderDispatchToolName: codecFor(generated.DecodeScheduleOrderDispatchArgs),
	generated.CancelOrderToolName:           codecFor(generated.DecodeCancelOrderArgs),
	generated.GetOrderStatusToolName:        codecFor(generated.DecodeGetOrderStatusArgs),
}

// ---- assertions ----------------------------------------------------------------

// asToolErr returns err as a *toolerr.Error with the given code, failing the
// test otherwise.
func asToolErr(t *testing.T, err error, code toolerr.Code) *toolerr.Error {
	t.Helper()
	var e *toolerr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want a *toolerr.Error with code %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code = %s, want %s (error: %v)", e.Code, code, e)
	}
	return e
}

// assertViolation checks that err is a *toolerr.Error of code whose first
// violation is (keyword, pointer), and returns it.
func assertViolation(t *testing.T, err error, code toolerr.Code, keyword, pointer string) *toolerr.Error {
	t.Helper()
	e := asToolErr(t, err, code)
	if len(e.Violations) == 0 {
		t.Fatalf("no violations in %v", e)
	}
	if v := e.Violations[0]; v.Keyword != keyword || v.InstancePath != pointer {
		t.Fatalf("violation = (%s, %q), want (%s, %q): %+v", v.Keyword, v.InstancePath, keyword, pointer, v)
	}
	return e
}

// checkOutcome asserts that (v, err), the result of decoding c.Input, is
// c.Want.
func checkOutcome(t *testing.T, c behaviourCase, v any, err error) {
	t.Helper()
	checkOutcomeOffset(t, c, v, err, true)
}

// checkOutcomeOffset is checkOutcome, checking the invalid_json offset only
// when exactOffset is set (encoding/json hands UnmarshalJSON the value with
// surrounding whitespace trimmed, which shifts offsets).
func checkOutcomeOffset(t *testing.T, c behaviourCase, v any, err error, exactOffset bool) {
	t.Helper()
	w := c.Want
	if w.Code == "" {
		if err != nil {
			t.Fatalf("rejected a valid input: %v\ninput: %.300s", err, c.Input)
		}
		if w.Check != nil {
			w.Check(t, v)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted, want %s\ninput: %.300s", w.Code, c.Input)
	}
	e := asToolErr(t, err, w.Code)
	if e.Tool != c.Tool {
		t.Errorf("Tool = %q, want %q", e.Tool, c.Tool)
	}
	if w.Code == toolerr.InvalidJSON {
		if (exactOffset && e.Offset != w.Offset) || e.Reason == "" || len(e.Violations) != 0 {
			t.Errorf("invalid_json at %d (%q), want offset %d and a reason, no violations; input %.120q", e.Offset, e.Reason, w.Offset, c.Input)
		}
		return
	}
	if e.Truncated != w.Truncated {
		t.Errorf("Truncated = %v, want %v", e.Truncated, w.Truncated)
	}
	n := max(len(e.Violations), len(w.Violations))
	for i := range n {
		switch {
		case i >= len(e.Violations):
			t.Errorf("violation %d missing, want (%s, %q)", i, w.Violations[i].Keyword, w.Violations[i].Pointer)
			continue
		case i >= len(w.Violations):
			t.Errorf("unexpected violation %d: %+v", i, e.Violations[i])
			continue
		}
		got, want := e.Violations[i], w.Violations[i]
		if got.Keyword != want.Keyword || got.InstancePath != want.Pointer {
			t.Errorf("violation %d = (%s, %q), want (%s, %q): %s", i, got.Keyword, got.InstancePath, want.Keyword, want.Pointer, got.Message)
		}
		if want.SchemaPath != "" && got.SchemaPath != want.SchemaPath {
			t.Errorf("violation %d schema path = %q, want %q", i, got.SchemaPath, want.SchemaPath)
		}
		if want.Message != "" && got.Message != want.Message {
			t.Errorf("violation %d message = %q,\n want %q", i, got.Message, want.Message)
		}
		if got.SchemaPath == "" || got.Message == "" {
			t.Errorf("violation %d has an empty schema path or message: %+v", i, got)
		}
	}
}

// ---- tests -----------------------------------------------------------------------

func TestBehaviourTable(t *testing.T) {
	names := map[string]bool{}
	for _, c := range behaviourCases {
		if names[c.Name] {
			t.Errorf("duplicate row name %s", c.Name)
		}
		names[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			codec, found := codecs[c.Tool]
			if !found {
				t.Fatalf("no codec for tool %q", c.Tool)
			}
			v, err := codec.decode([]byte(c.Input))
			checkOutcome(t, c, v, err)
		})
	}
}

// TestMarshalRoundTrip: for every accepted row, Marshal(decoded) decodes to
// an equal value and marshals to the same bytes.
func TestMarshalRoundTrip(t *testing.T) {
	for _, c := range behaviourCases {
		if c.Want.Code != "" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			codec := codecs[c.Tool]
			v, err := codec.decode([]byte(c.Input))
			if err != nil {
				t.Skipf("row rejected (reported by TestBehaviourTable): %v", err)
			}
			codec.roundTrip(t, v)
		})
	}
}

// TestMarshalPresence: an absent optional stays absent and a null stays
// null in the marshalled form.
func TestMarshalPresence(t *testing.T) {
	tests := []struct {
		tool, input string
		contains    string // "" means: nothing below
		absent      string
	}{
		{refundT, refund(), "", `"notifyCustomer"`},
		{refundT, refund("notifyCustomer", "false"), `"notifyCustomer":false`, ""},
		{dispatchT, dispatch(), "", `"note"`},
		{dispatchT, dispatch("note", "null"), `"note":null`, ""},
		{dispatchT, dispatch("note", `""`), `"note":""`, ""},
		{shipT, ship(), "", `"line2"`},
		{shipT, ship(), "", `"insured_value"`},
		{shipT, ship(), "", `"service"`},
	}
	for _, tt := range tests {
		v, err := codecs[tt.tool].decode([]byte(tt.input))
		if err != nil {
			t.Fatalf("decode %s: %v", tt.input, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if tt.contains != "" && !bytes.Contains(b, []byte(tt.contains)) {
			t.Errorf("Marshal(%s) = %s, want it to contain %s", tt.input, b, tt.contains)
		}
		if tt.absent != "" && bytes.Contains(b, []byte(tt.absent)) {
			t.Errorf("Marshal(%s) = %s, want no %s", tt.input, b, tt.absent)
		}
	}
}

// TestUnmarshalJSONStrict: json.Unmarshal into the Args types goes through
// the same strict decoder and surfaces its *toolerr.Error.
func TestUnmarshalJSONStrict(t *testing.T) {
	var a generated.RefundOrderArgs
	err := json.Unmarshal([]byte(refund("approvedBy", `"manager"`)), &a)
	e := assertViolation(t, err, toolerr.InvalidArguments, "additionalProperties", "/approvedBy")
	if e.Tool != refundT {
		t.Errorf("Tool = %q", e.Tool)
	}

	// Rows that encoding/json's own scanner lets through must still be
	// refused by the strict path (duplicates, invalid UTF-8, closure, ...).
	for _, c := range behaviourCases {
		if !json.Valid([]byte(c.Input)) {
			continue // encoding/json refuses these itself, with its own error
		}
		t.Run(c.Name, func(t *testing.T) {
			v, err := codecs[c.Tool].unmarshal([]byte(c.Input))
			checkOutcomeOffset(t, c, v, err, false)
		})
	}

	// Embedded in a larger document, the field still decodes strictly.
	var envelope struct {
		Args generated.RefundOrderArgs `json:"args"`
	}
	err = json.Unmarshal([]byte(`{"args":`+refund("role", `"admin"`)+`}`), &envelope)
	assertViolation(t, err, toolerr.InvalidArguments, "additionalProperties", "/role")
	if err := json.Unmarshal([]byte(`{"args":`+refund()+`}`), &envelope); err != nil || envelope.Args.AmountInCents != 2500 {
		t.Errorf("envelope: %+v, %v", envelope, err)
	}
}

// TestErrorJSON: a refusal marshals to the JSON sent back to the model.
func TestErrorJSON(t *testing.T) {
	_, err := generated.DecodeScheduleOrderDispatchArgs([]byte(dispatch("currency", `"USD"`)))
	e := assertViolation(t, err, toolerr.InvalidArguments, "enum", "/currency")
	b, jerr := json.Marshal(err)
	if jerr != nil {
		t.Fatal(jerr)
	}
	var got struct {
		Code       string `json:"code"`
		Tool       string `json:"tool"`
		Violations []struct {
			Keyword      string `json:"keyword"`
			InstancePath string `json:"instancePath"`
			SchemaPath   string `json:"schemaPath"`
			Message      string `json:"message"`
		} `json:"violations"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if got.Code != "invalid_arguments" || got.Tool != dispatchT || len(got.Violations) != 1 {
		t.Fatalf("marshalled error = %s", b)
	}
	v := got.Violations[0]
	if v.Keyword != "enum" || v.InstancePath != "/currency" || v.SchemaPath != "/properties/currency/enum" || v.Message != "currency must be one of GBP or EUR; received USD" {
		t.Errorf("marshalled violation = %+v", v)
	}
	if e.Error() == "" || !strings.Contains(e.Error(), "currency must be one of GBP or EUR; received USD") {
		t.Errorf("Error() = %q", e.Error())
	}

	// invalid_json carries an offset and a reason, no violations.
	_, err = generated.DecodeRefundOrderArgs([]byte(refund() + " x"))
	je := asToolErr(t, err, toolerr.InvalidJSON)
	b, _ = json.Marshal(je)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["code"] != "invalid_json" || m["tool"] != refundT || m["offset"] != float64(len(refund())+1) || m["reason"] == nil || m["violations"] != nil {
		t.Errorf("marshalled invalid_json error = %s", b)
	}
}

// TestRejectedReturnsZero: a rejected call returns the zero Args, so nothing
// half-decoded can leak to a caller that ignores the error.
func TestRejectedReturnsZero(t *testing.T) {
	v, err := generated.DecodeRefundOrderArgs([]byte(refund("amountInCents", "0")))
	if err == nil || !reflect.DeepEqual(v, generated.RefundOrderArgs{}) {
		t.Errorf("got %+v, %v; want zero value and an error", v, err)
	}
	var a generated.RefundOrderArgs
	a.OrderID = "keep"
	if err := a.UnmarshalJSON([]byte(refund("reason", `"x"`))); err == nil || a.OrderID != "keep" {
		t.Errorf("UnmarshalJSON on error changed the receiver: %+v, %v", a, err)
	}
}

// TestDecodedStringsOwnTheirBytes: decoded strings do not alias the caller's
// buffer, which the caller (or encoding/json's Decoder) may reuse.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	buf := []byte(ship("address", addr("line2", `"Flat \"3\""`)))
	a, err := generated.DecodeCreateShipmentArgs(buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'X'
	}
	l2, _ := a.Address.Line2.Get()
	if a.OrderID != "A-19" || a.Address.City != "London" || l2 != `Flat "3"` || a.LineItems[1].SKU != "SKU2" {
		t.Errorf("decoded strings changed with the input buffer: %+v", a)
	}
}
