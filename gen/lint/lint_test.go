package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// goodDesc says what, when, what not and what comes back.
const goodDesc = "Cancel an open order. Use when the customer asks to cancel; not for shipped orders. Returns the cancelled order."

// tool is a tool file with the given name and parameters.
func tool(name, params string) string {
	return fmt.Sprintf(`{"name": %q, "description": %q, "parameters": %s}`, name, goodDesc, params)
}

// object wraps properties in a closed object schema.
func object(props string, required ...string) string {
	req := ""
	if len(required) > 0 {
		req = `, "required": ["` + strings.Join(required, `", "`) + `"]`
	}
	return `{"type": "object", "additionalProperties": false, "properties": {` + props + `}` + req + `}`
}

// lintFiles writes files into a folder, loads and lints them.
func lintFiles(t *testing.T, opts Options, files ...string) *Result {
	t.Helper()
	dir := t.TempDir()
	for i, body := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tools, err := gen.Load(dir)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	res, err := Run(gen.Analyze(tools, gen.Options{}), opts)
	if err != nil {
		t.Fatalf("lint: %v", err)
	}
	return res
}

// at lists "pointer" of each finding of rule.
func at(res *Result, rule string) []string {
	var out []string
	for _, f := range res.Findings {
		if f.Rule == rule {
			out = append(out, f.Pointer)
		}
	}
	sort.Strings(out)
	return out
}

const p = "/parameters/properties/"

// TestRules has, per rule, files the rule flags (at the pointers given) and
// files it leaves alone.
func TestRules(t *testing.T) {
	str := `"type": "string", "maxLength": 10`
	tests := []struct {
		rule  string
		name  string
		files []string
		want  []string
	}{
		{RuleNameVerbNoun, "vague verb", []string{tool("handle_order", object(""))}, []string{"/name"}},
		{RuleNameVerbNoun, "two operations", []string{tool("get_and_cancel_order", object(""))}, []string{"/name"}},
		{RuleNameVerbNoun, "camelCase", []string{tool("cancelOrder", object(""))}, []string{"/name"}},
		{RuleNameVerbNoun, "one word", []string{tool("cancel", object(""))}, []string{"/name"}},
		{RuleNameVerbNoun, "no verb", []string{tool("order_thing", object(""))}, []string{"/name"}},
		{RuleNameVerbNoun, "verb_noun", []string{tool("cancel_order", object("")), tool("github_create_issue", object(""))}, nil},
		{RuleNameConfusable, "case and separators", []string{tool("get_order", object("")), tool("get-Order", object(""))}, []string{"/name"}},
		{RuleNameConfusable, "homoglyph digit", []string{tool("get_order", object("")), tool("get_0rder", object(""))}, []string{"/name"}},
		{RuleNameConfusable, "members", []string{tool("get_order", object(`"order_id": {`+str+`, "description": "x"}, "orderId": {`+str+`, "description": "x"}`, "order_id", "orderId"))}, []string{p + "orderId"}},
		{RuleNameConfusable, "distinct", []string{tool("get_order", object("")), tool("list_orders", object(""))}, nil},
		{RuleNameNear, "edit distance 1", []string{tool("get_order", object("")), tool("get_orders", object(""))}, []string{"/name"}},
		{RuleDescMissing, "empty", []string{`{"name": "get_order", "description": " ", "parameters": {"type": "object", "properties": {}}}`}, []string{"/description"}},
		{RuleDescRepeatsName, "name again", []string{`{"name": "get_order", "description": "Get the order.", "parameters": {"type": "object", "properties": {}}}`}, []string{"/description"}},
		{RuleDescLength, "over budget", []string{`{"name": "get_order", "description": "` + goodDesc + strings.Repeat(" More.", 200) + `", "parameters": {"type": "object", "properties": {}}}`}, []string{"/description"}},
		{RuleDescContent, "what only", []string{`{"name": "get_order", "description": "Looks an order up by its number.", "parameters": {"type": "object", "properties": {}}}`}, []string{"/description"}},
		{RuleDescContent, "complete", []string{tool("get_order", object(""))}, nil},
		{RuleDescContent, "a reading verb says what comes back", []string{`{"name": "get_order", "description": "Get an order by its number. Use when the customer quotes one; not for drafts.", "parameters": {"type": "object", "properties": {}}}`}, nil},
		{RuleParamDesc, "missing", []string{tool("get_order", object(`"a": {`+str+`}`, "a"))}, []string{p + "a"}},
		{RuleParamDesc, "on the $ref target", []string{tool("get_order", `{"type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "#/$defs/a"}}, "required": ["a"], "$defs": {"a": {`+str+`, "description": "A."}}}`)}, nil},
		{RuleUnit, "money, duration, size", []string{tool("get_order", object(`"amount": {"type": "integer", "description": "x"}, "timeout": {"type": "integer", "description": "x"}, "fileSize": {"type": "integer", "description": "x"}`, "amount", "timeout", "fileSize"))}, []string{p + "amount", p + "fileSize", p + "timeout"}},
		{RuleUnit, "named units", []string{tool("get_order", object(`"amount_pence": {"type": "integer", "description": "x"}, "timeoutMs": {"type": "integer", "description": "x"}, "size_bytes": {"type": "integer", "description": "x"}`, "amount_pence", "timeoutMs", "size_bytes"))}, nil},
		{RuleMoneyInteger, "number", []string{tool("get_order", object(`"price_cents": {"type": "number", "description": "x"}`, "price_cents"))}, []string{p + "price_cents/type"}},
		{RuleMoneyInteger, "integer", []string{tool("get_order", object(`"price_cents": {"type": "integer", "description": "x"}`, "price_cents"))}, nil},
		{RuleDateFormat, "no format", []string{tool("get_order", object(`"due_date": {`+str+`, "description": "x"}, "createdAt": {`+str+`, "description": "x"}`, "due_date", "createdAt"))}, []string{p + "createdAt", p + "due_date"}},
		{RuleDateFormat, "formatted", []string{tool("get_order", object(`"due_date": {"type": "string", "format": "date", "description": "x"}`, "due_date"))}, nil},
		{RuleObjectOpen, "true and schema", []string{tool("get_order", `{"type": "object", "additionalProperties": true, "properties": {"a": {"type": "object", "description": "x", "properties": {}, "additionalProperties": {"type": "integer"}}}, "required": ["a"]}`)}, []string{"/parameters/additionalProperties", p + "a/additionalProperties"}},
		{RuleImpliedClosed, "once per tool", []string{tool("get_order", `{"type": "object", "properties": {"a": {"type": "object", "description": "x", "properties": {}}}, "required": ["a"]}`)}, []string{"/parameters"}},
		{RuleImpliedClosed, "closed", []string{tool("get_order", object(""))}, nil},
		{RuleArrayItems, "no items", []string{tool("get_order", object(`"a": {"type": "array", "description": "x"}`, "a"))}, []string{p + "a"}},
		{RuleObjectFreeForm, "no members, below the root", []string{tool("get_order", object(`"a": {"type": "object", "description": "x"}, "b": {"type": "array", "description": "x", "items": {"type": "object", "properties": {}}}, "c": {"type": "object", "description": "x", "required": ["k"]}, "d": {"type": "object", "description": "x", "additionalProperties": false}`, "a", "b"))}, []string{p + "a", p + "b/items"}},
		{RuleObjectFreeForm, "the root takes no arguments", []string{tool("get_order", `{"type": "object", "properties": {}}`)}, nil},
		{RuleObjectProperties, "no properties", []string{tool("get_order", object(`"a": {"type": "object", "additionalProperties": false, "description": "x"}`, "a"))}, []string{p + "a"}},
		{RuleLeafType, "property and items", []string{tool("get_order", object(`"a": {"description": "x"}, "b": {"type": "array", "description": "x", "items": {}}`, "a", "b"))}, []string{p + "a", p + "b/items"}},
		{RuleRequiredUnknown, "undeclared", []string{tool("get_order", `{"type": "object", "additionalProperties": true, "properties": {}, "required": ["ghost"]}`)}, []string{"/parameters/required/0"}},
		{RuleNullMeaning, "silent null", []string{tool("get_order", object(`"a": {"type": ["string", "null"], "maxLength": 3, "description": "The code."}, "b": {"type": ["string", "null"], "maxLength": 3, "description": "The code, or null for none."}`, "a", "b"))}, []string{p + "a"}},
		{RuleOmitMeaning, "silent omission", []string{tool("get_order", object(`"a": {`+str+`, "description": "The code."}, "b": {`+str+`, "description": "The code; omit for all."}`))}, []string{p + "a"}},
		{RuleDefaultAccessor, "default not described", []string{tool("get_order", object(`"a": {"type": "boolean", "default": true, "description": "Whether to."}, "b": {"type": "boolean", "default": true, "description": "Whether to; true by default."}`))}, []string{p + "a/default"}},
		{RuleDefaultAccessor, "an invalid default has no accessor", []string{tool("get_order", object(`"a": {"type": "boolean", "default": "dontcare", "description": "Whether to."}`))}, nil},
		{RuleEnumSpelling, "case and space", []string{tool("get_order", object(`"a": {"type": "string", "enum": ["GBP", "gbp", "EUR", " EUR"], "description": "x"}`, "a"))}, []string{p + "a/enum/1", p + "a/enum/3"}},
		{RuleBoundsInverted, "each pair", []string{tool("get_order", object(`"a": {"type": "integer", "minimum": 5, "maximum": 4, "description": "at most"}, "b": {"type": "integer", "exclusiveMinimum": 4, "maximum": 4, "description": "at most"}, "c": {"type": "string", "minLength": 3, "maxLength": 2, "description": "x"}, "d": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 1, "description": "x"}`, "a", "b", "c", "d"))}, []string{p + "a/minimum", p + "b/exclusiveMinimum", p + "c/minLength", p + "d/minItems"}},
		{RuleBoundsInverted, "equal inclusive", []string{tool("get_order", object(`"a": {"type": "integer", "minimum": 4, "maximum": 4, "description": "at most"}`, "a"))}, nil},
		{RuleStringMaxLength, "free text", []string{tool("get_order", object(`"a": {"type": "string", "description": "x"}, "b": {"type": "string", "pattern": "^a$", "description": "x"}, "c": {"type": "string", "enum": ["x"], "description": "x"}`, "a", "b", "c"))}, []string{p + "a"}},
		{RuleBoundInclusive, "silent maximum", []string{tool("get_order", object(`"n": {"type": "integer", "maximum": 100000, "description": "How many."}, "m": {"type": "integer", "maximum": 100000, "description": "How many, at most 100000."}, "e": {"type": "integer", "exclusiveMaximum": 100000, "minimum": 1, "description": "How many."}`, "n", "m", "e"))}, []string{p + "n/maximum"}},
		{RuleTrustedIdentity, "mutating and authority", []string{tool("cancel_order", object(`"user_id": {`+str+`, "description": "x"}, "isAdmin": {"type": "boolean", "description": "x"}, "skip_approval": {"type": "boolean", "description": "x"}`, "user_id", "isAdmin", "skip_approval"))}, []string{p + "isAdmin", p + "skip_approval", p + "user_id"}},
		{RuleTrustedIdentity, "reading tool may name the user", []string{tool("get_order", object(`"user_id": {`+str+`, "description": "x"}`, "user_id"))}, nil},
		{RuleDefaultInvalid, "a default its schema rejects", []string{tool("get_order", object(`"a": {"type": "boolean", "default": "dontcare", "description": "x; default true"}, "b": {"type": "boolean", "default": true, "description": "x; default true"}`))}, []string{p + "a/default"}},
		{RuleFormatUnknown, "json is no format toolgate asserts", []string{tool("get_order", object(`"a": {"type": "string", "format": "json", "description": "x"}, "b": {"type": "string", "format": "uuid", "description": "x"}`, "a", "b"))}, []string{p + "a/format"}},
		{RuleNeverValid, "an enum of another type", []string{tool("get_order", object(`"a": {"type": "boolean", "enum": ["True", "False"], "description": "x"}, "b": false, "c": {"type": "boolean", "description": "x"}`))}, []string{p + "a"}},
		{RuleRootType, "properties without a type", []string{tool("get_order", `{"additionalProperties": false, "properties": {"a": {`+str+`, "description": "x"}}, "required": ["a"]}`), tool("list_orders", object(""))}, []string{"/parameters"}},
		{RuleProviderFit, "pattern for gemini", []string{tool("get_order", object(`"a": {"type": "string", "pattern": "^a+$", "description": "x"}`, "a"))}, []string{"/parameters/additionalProperties", p + "a/pattern"}},
		{RuleProviderFit, "only to mcp", []string{`{"name": "get_order", "description": "` + goodDesc + `", "parameters": ` + object(`"a": {"type": "string", "pattern": "^a+$", "description": "x"}`, "a") + `, "x-toolgate": {"providers": ["mcp"]}}`}, nil},
		{RuleProviderFit, "name too long, nothing chosen", []string{tool("get_order_"+strings.Repeat("x", 60), object(""))}, []string{"/name", "/name", "/name", "/name", "/name"}},
		{RuleProviderRefused, "name too long for a chosen provider", []string{`{"name": "get_order_` + strings.Repeat("x", 60) + `", "description": "` + goodDesc + `", "parameters": ` + object("") + `, "x-toolgate": {"providers": ["mcp", "openai-chat"]}}`}, []string{"/name"}},
		{RuleApproval, "destructive without approval", []string{`{"name": "cancel_order", "description": "` + goodDesc + `", "parameters": ` + object("") + `, "x-toolgate": {"destructive": true}}`}, []string{"/x-toolgate/destructive"}},
		{RuleApproval, "destructive with approval", []string{`{"name": "cancel_order", "description": "` + goodDesc + `", "parameters": ` + object("") + `, "x-toolgate": {"destructive": true, "approval": "required", "approvers": ["admin"]}}`}, nil},
		{RuleApproval, "MCP destructiveHint without approval", []string{`{"name": "delete_file", "description": "` + goodDesc + `", "inputSchema": ` + object("") + `, "annotations": {"destructiveHint": true}}`}, []string{"/annotations/destructiveHint"}},
		{RuleApproval, "not destructive", []string{`{"name": "cancel_order", "description": "` + goodDesc + `", "parameters": ` + object("") + `, "x-toolgate": {"destructive": false}}`}, nil},
		{RuleProviderRefused, "left out", []string{`{"name": "get_order_` + strings.Repeat("x", 60) + `", "description": "` + goodDesc + `", "parameters": ` + object("") + `, "x-toolgate": {"providers": ["mcp"]}}`}, nil},
	}
	covered := map[string]bool{RuleConfig: true}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.name, func(t *testing.T) {
			covered[tt.rule] = true
			res := lintFiles(t, Options{}, tt.files...)
			if got := at(res, tt.rule); !slices.Equal(got, tt.want) {
				t.Errorf("%s at %q, want %q\n%v", tt.rule, got, tt.want, res.Findings)
			}
			for _, f := range res.Findings {
				if f.Pos.Line < 1 || f.Pos.Column < 1 || f.Severity != RuleByID(f.Rule).Severity {
					t.Errorf("finding %v has no position or the wrong severity", f)
				}
			}
		})
	}
	for _, r := range Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s has no table test", r.ID)
		}
	}
}
