package lint

import (
	"slices"
	"testing"
)

// TestTrustedIdentity has the names the rule must leave alone (each a
// false positive it used to report on real tools) and the ones it must
// keep catching, on the tool that has them.
func TestTrustedIdentity(t *testing.T) {
	str := `"type": "string", "maxLength": 40, "description": "x"`
	member := func(name, schema string) string { return `"` + name + `": {` + schema + `}` }
	readOnly := func(name, params string) string {
		return `{"name": "` + name + `", "description": "` + goodDesc + `", "parameters": ` + params + `, "annotations": {"readOnlyHint": true}}`
	}
	tests := []struct {
		name string
		file string
		want []string
	}{
		// The object of the verb is what the call acts on.
		{"okta add_user_to_group", tool("add_user_to_group", object(member("user_id", str)+", "+member("group_id", str), "user_id", "group_id")), nil},
		{"approve_account", tool("approve_account", object(member("accountId", str), "accountId")), nil},
		{"remove_members names members", tool("remove_members", object(member("member_id", str), "member_id")), nil},
		// Where a resource lives is not who acts.
		{"orgId, ownerId, organization_id", tool("create_project", object(member("orgId", str)+", "+member("ownerId", str)+", "+member("organization_id", str))), nil},
		// A filter on a read-only tool.
		{"vectra list_platform_users role", tool("list_platform_users", object(member("role", str))), nil},
		{"readOnlyHint", readOnly("platform_users", object(member("role", str)+", "+member("user_id", str)+", "+member("approval_status", str))), nil},
		{"namespaced reading verb", tool("github_search_users", object(member("permission", str))), nil},
		// A pagination skip, and skip_ words that name no check.
		{"pagination skip", tool("export_orders", object(member("skip", `"type": "integer", "description": "x"`)+", "+member("skip_empty", `"type": "boolean", "description": "x"`))), nil},
		// A chat message's role.
		{"chat role by enum", tool("create_completion", object(member("role", `"type": "string", "enum": ["user", "assistant", "system"], "description": "x"`))), nil},
		{"chat role beside content", tool("send_message", object(`"messages": {"type": "array", "description": "x", "items": `+object(member("role", str)+", "+member("content", str))+`}`)), nil},

		// Kept: the acting party on a tool that changes state.
		{"acting_user_id, caller_id, requester", tool("cancel_order", object(member("acting_user_id", str)+", "+member("caller_id", str)+", "+member("requester", str)+", "+member("created_by", str))),
			[]string{p + "acting_user_id", p + "caller_id", p + "created_by", p + "requester"}},
		{"a user the name does not act on", tool("cancel_order", object(member("user_id", str)+", "+member("tenant_id", str))), []string{p + "tenant_id", p + "user_id"}},
		// Kept: a role that grants authority.
		{"role admin", tool("update_user", object(member("role", `"type": "string", "enum": ["admin", "member"], "description": "x"`))), []string{p + "role"}},
		{"chat roles and admin", tool("create_completion", object(member("role", `"type": "string", "enum": ["user", "admin"], "description": "x"`))), []string{p + "role"}},
		{"scope on a mutating tool", tool("issue_token", object(member("scopes", `"type": "array", "items": {"type": "string", "maxLength": 9}, "description": "x"`))), []string{p + "scopes"}},
		// Kept on any tool: claims about the caller, checks switched off.
		{"is_admin on a read-only tool", readOnly("get_report", object(member("is_admin", `"type": "boolean", "description": "x"`))), []string{p + "is_admin"}},
		{"skip_approval, bypass_auth", tool("get_report", object(member("skip_approval", `"type": "boolean", "description": "x"`)+", "+member("bypass_auth", `"type": "boolean", "description": "x"`))),
			[]string{p + "bypass_auth", p + "skip_approval"}},
		// readOnlyHint does not outweigh destructive.
		{"destructive despite readOnlyHint", `{"name": "purge_orders", "description": "` + goodDesc + `", "parameters": ` + object(member("caller_id", str)) + `, "annotations": {"readOnlyHint": true}, "x-toolgate": {"destructive": true, "approval": "required", "approvers": ["admin"]}}`,
			[]string{p + "caller_id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lintFiles(t, Options{}, tt.file)
			if got := at(res, RuleTrustedIdentity); !slices.Equal(got, tt.want) {
				t.Errorf("trusted-identity at %q, want %q\n%v", got, tt.want, res.Findings)
			}
		})
	}
}
