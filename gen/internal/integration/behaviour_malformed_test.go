package integration_test

import (
	"strings"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
