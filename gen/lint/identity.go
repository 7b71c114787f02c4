package lint

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// The trusted-identity rule looks for arguments that should come from the
// session (who is calling, what they may do, which checks apply) rather
// than from the model. It is a heuristic on names, so it stays quiet where
// the name is about something else:
//
//   - an ID that names the object of the tool's verb is what the call acts
//     on, not who acts (add_user_to_group's user_id, approve_account's
//     accountId); org, organization and owner IDs name where a resource
//     lives, not the actor;
//   - on a read-only tool (MCP annotations.readOnlyHint, or a reading verb:
//     get_, list_, search_…) a role, scope, approval state or user ID is a
//     filter;
//   - a chat message's role (its values are user, assistant, system…, or it
//     sits beside the message's content) is not the caller's;
//   - skip alone is a pagination offset; skip_, bypass_, override_… switch a
//     check off only when a check is named (skip_approval, bypass_auth).
//
// What it keeps catching: claims about the caller on any tool (is_admin,
// is_superuser, authenticated…), a check switched off on any tool, and on a
// tool that changes state the acting party (acting_user_id, caller_id,
// requester, created_by…), a grant (role, permissions, scope, approved…) and
// an ID of a user, customer, account or tenant the tool's name does not
// make the object of the call.

var (
	// callerClaims assert something about the caller, whatever the tool.
	callerClaims = set(`is_admin admin is_superuser superuser is_root sudo as_admin is_staff elevated authorized
		is_authorized authenticated is_authenticated trusted is_trusted is_internal`)
	// grants give authority on a tool that changes state; on a read-only
	// tool they filter.
	grants = set(`role roles permission permissions scope scopes privilege privileges access_level approved
		is_approved approval approval_status verified is_verified`)
	// actorWords name the acting party wherever they are in a name;
	// actorNames do as whole names (a principal alone may be money, an
	// operator a comparison).
	actorWords = set(`actor caller requester requestor acting impersonate impersonated impersonating behalf`)
	actorNames = set(`principal_id principal_user operator_id operator_user_id current_user current_user_id my_user_id`)
	// byWords, before a final "by", name the acting party too
	// (created_by, approved_by).
	byWords = set(`created updated modified approved submitted requested performed initiated authorized reviewed`)
	// subjectIDs name a party by ID: whose data a state-changing call
	// touches, which the session should decide, unless the tool's name
	// makes that party the object of the call. The value is the party.
	subjectIDs = map[string]string{"user_id": "user", "userid": "user", "customer_id": "customer", "customerid": "customer",
		"account_id": "account", "accountid": "account", "tenant_id": "tenant", "tenantid": "tenant", "member_id": "member",
		"employee_id": "employee", "agent_id": "agent"}
	// switchVerbs start a name that turns something off.
	switchVerbs = set(`skip bypass override disable ignore no without`)
	// checkWords name a check.
	checkWords = set(`approval approvals approve auth authn authz authentication authorization authorisation
		verification verify validation validate validations check checks confirmation confirm permission permissions
		review security policy policies audit guard guards guardrails mfa 2fa otp captcha signature acl acls rbac
		safety moderation ratelimit rate limits quota sandbox`)
	// chatRoles are the roles of a chat message's author.
	chatRoles = set(`user assistant system tool function model developer human ai bot`)
)

// trusted says why the parameter name (words ws, schema s, a member of the
// object whose properties are props) should come from the session, or "".
func (c *checker) trusted(ws []string, s, props *jsonval.Value) string {
	n := snake(ws)
	switch {
	case callerClaims[n]:
		return "claims authority for the caller"
	case switchesCheck(ws):
		return "switches a check off"
	case !c.changesState():
		return ""
	case grants[n] && !chatRole(ws, s, props):
		return "grants authority on a tool that changes state"
	case actor(ws):
		return "names who is acting on a tool that changes state"
	case subjectIDs[n] != "" && !c.actsOn(subjectIDs[n]):
		return "names whose data a tool that changes state touches, and the tool's name does not make it the object of the call"
	}
	return ""
}

// switchesCheck reports names such as skip_approval and bypass_auth (not
// skip alone, a pagination offset, nor skip_empty).
func switchesCheck(ws []string) bool {
	return len(ws) > 1 && switchVerbs[ws[0]] && slices.ContainsFunc(ws[1:], func(w string) bool { return checkWords[w] })
}

// actor reports names of the acting party: acting_user_id, caller_id,
// requester, on_behalf_of, created_by.
func actor(ws []string) bool {
	if actorNames[snake(ws)] || slices.ContainsFunc(ws, func(w string) bool { return actorWords[w] }) {
		return true
	}
	return len(ws) == 2 && ws[1] == "by" && byWords[ws[0]]
}

// chatRole reports a role that is a chat message's author's: its enum (or
// const) holds only chat roles, or the object it is in has a content
// member.
func chatRole(ws []string, s, props *jsonval.Value) bool {
	if len(ws) != 1 || (ws[0] != "role" && ws[0] != "roles") {
		return false
	}
	if props.Has("content") || props.Has("message") || props.Has("text") {
		return true
	}
	if s.Get("items") != nil {
		s = s.Get("items")
	}
	var vals []*jsonval.Value
	if e := s.Get("enum"); e != nil {
		vals = e.Items
	} else if k := s.Get("const"); k != nil {
		vals = []*jsonval.Value{k}
	}
	return len(vals) > 0 && !slices.ContainsFunc(vals, func(v *jsonval.Value) bool { return v.Kind != jsonval.String || !chatRoles[v.Str] })
}

// changesState reports whether the tool may change state: it is
// destructive, or neither its MCP annotations (readOnlyHint) nor its verb
// say it only reads. The verb is the first word that is one in the name's
// last dotted part (api.UserApi.get_users, Alarm_1_GetAlarms, github_list_issues):
// get, list, search… read; a name without a verb may change state.
func (c *checker) changesState() bool {
	if c.ti.t.Meta.Destructive {
		return true
	}
	if c.ti.readOnly {
		return false
	}
	name := c.ti.t.Name
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	for _, w := range words(name) {
		if verbs[w] {
			return !readVerbs[w]
		}
	}
	return true
}

// actsOn reports whether the tool's name names party (or its plural) as
// the object of the call: add_user_to_group acts on a user.
func (c *checker) actsOn(party string) bool {
	return slices.ContainsFunc(words(c.ti.t.Name), func(w string) bool { return w == party || w == party+"s" })
}
