package main

import (
	"strings"
	"testing"
)

// Three tools, two of which use the shared definition defs/money.json.
var sharedTools = map[string]string{
	"schemas/order.json":       `{"name": "create_order", "description": "d", "parameters": {"type": "object", "properties": {"total": {"$ref": "defs/money.json"}, "ship_to": {"$ref": "defs/common.json#/$defs/Address"}}}}`,
	"schemas/refund.json":      `{"name": "issue_refund", "description": "d", "parameters": {"type": "object", "properties": {"amount": {"$ref": "defs/money.json"}}}}`,
	"schemas/delivery.json":    `{"name": "schedule_delivery", "description": "d", "parameters": {"type": "object", "properties": {"to": {"$ref": "defs/common.json#/$defs/Address"}}}}`,
	"schemas/defs/money.json":  moneyV1,
	"schemas/defs/common.json": `{"$defs": {"Address": {"type": "object", "properties": {"line1": {"type": "string"}}}}}`,
}

const moneyV1 = `{"type": "object", "properties": {"currency": {"enum": ["GBP", "EUR", "USD"]}}}`

var moneyV2 = strings.Replace(moneyV1, `, "USD"`, "", 1)

// TestDiffShared: a change to a shared definition is reported on every
// tool that uses it and on no other, between two folders and against a
// git revision (whose definitions files are checked out with the tools).
func TestDiffShared(t *testing.T) {
	needGit(t)
	files := map[string]string{}
	for name, body := range sharedTools {
		files[name] = body
		files["old/"+strings.TrimPrefix(name, "schemas/")] = body
	}
	dir := workspace(t, files)
	commitAll(t, dir)
	writeFile(t, dir, "schemas/defs/money.json", moneyV2)
	for _, args := range [][]string{
		{"diff", "old", "schemas"},
		{"diff", "--base", "HEAD", "--schemas", "schemas"},
	} {
		code, out, errOut := runIn(t, dir, args...)
		if code != exitDrift {
			t.Errorf("%v: exit %d, want %d\n%s%s", args, code, exitDrift, out, errOut)
		}
		for _, want := range []string{
			"create_order (",
			`breaking   enum-value-removed at /properties/total/properties/currency/enum: "USD"`,
			"issue_refund (",
			`breaking   enum-value-removed at /properties/amount/properties/currency/enum: "USD"`,
			"2 breaking (0 allowed), 0 widening, 0 compatible",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s%s", args, want, out, errOut)
			}
		}
		if strings.Contains(out, "schedule_delivery") {
			t.Errorf("%v: schedule_delivery uses no changed definition:\n%s", args, out)
		}
	}
}
