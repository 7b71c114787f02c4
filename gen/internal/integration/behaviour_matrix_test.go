package integration_test

import (
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
