package gen

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Branch names. The branches of an anyOf or oneOf are named after what
// tells them apart, so that a contact by email is ContactEmail, not
// ContactAnyOf0: the value of their tag, when every branch requires one
// member with a distinct constant (a tagged union); otherwise each
// branch's title, its single required member, its format or its type,
// the first of these it has. A branch with none of them, or whose name a
// sibling shares or that reads like an index name, is named by its index
// (ContactAnyOf1), as every branch was before: the names depend only on
// the schema, and two siblings never share one.

// branchNames returns the name suffixes of the branches items of the
// keyword kw ("anyOf" or "oneOf"), and for each branch named by its index
// though it has a name, a note that says why.
func branchNames(kw string, items []*jsonval.Value) (names, notes []string) {
	names = tagNames(items)
	if names == nil {
		names = make([]string, len(items))
		for i, it := range items {
			names[i] = shapeName(it)
		}
	}
	prefix := upperFirst(kw)
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	notes = make([]string, len(names))
	for i, n := range names {
		if count[n] > 1 && n != "" {
			notes[i] = fmt.Sprintf("It is named by its index: %s would name more than one branch of the %s.", n, kw)
		}
		if n == "" || count[n] > 1 || !isGoIdentifier(n) || strings.HasPrefix(n, prefix) {
			names[i] = fmt.Sprintf("%s%d", prefix, i)
		}
	}
	return names, notes
}

// tagNames names each branch after the value of its tag: the first member
// of the first branch that every branch requires with one string constant
// (const, or an enum of one value), the values pairwise different. It is
// nil when there is no such member.
func tagNames(items []*jsonval.Value) []string {
	if len(items) < 2 || items[0].Kind != jsonval.Object {
		return nil
	}
	props := items[0].Get("properties")
	if props == nil || props.Kind != jsonval.Object {
		return nil
	}
candidates:
	for _, m := range props.Members {
		names := make([]string, len(items))
		seen := map[string]bool{}
		for i, it := range items {
			v, ok := tagConst(it, m.Key)
			if !ok || seen[v] {
				continue candidates
			}
			seen[v] = true
			names[i] = goIdent(v)
		}
		return names
	}
	return nil
}

// tagConst is the string constant that the object schema s requires its
// member name to hold.
func tagConst(s *jsonval.Value, name string) (string, bool) {
	if s.Kind != jsonval.Object || !requires(s, name) {
		return "", false
	}
	props := s.Get("properties")
	if props == nil || props.Kind != jsonval.Object {
		return "", false
	}
	p := props.Get(name)
	if p == nil || p.Kind != jsonval.Object {
		return "", false
	}
	if c := p.Get("const"); c != nil && c.Kind == jsonval.String {
		return c.Str, true
	}
	if e := p.Get("enum"); e != nil && e.Kind == jsonval.Array && len(e.Items) == 1 && e.Items[0].Kind == jsonval.String {
		return e.Items[0].Str, true
	}
	return "", false
}

// requires reports whether the object schema s lists name in required.
func requires(s *jsonval.Value, name string) bool {
	r := s.Get("required")
	if r == nil || r.Kind != jsonval.Array {
		return false
	}
	for _, it := range r.Items {
		if it.Kind == jsonval.String && it.Str == name {
			return true
		}
	}
	return false
}

// shapeName names a branch by its title, its single required member, its
// format or its type, the first it has; "" when it has none.
func shapeName(s *jsonval.Value) string {
	if s.Kind != jsonval.Object {
		return ""
	}
	if t := s.Get("title"); t != nil && t.Kind == jsonval.String && strings.TrimSpace(t.Str) != "" {
		return goIdent(t.Str)
	}
	if r := s.Get("required"); r != nil && r.Kind == jsonval.Array && len(r.Items) == 1 && r.Items[0].Kind == jsonval.String {
		return goIdent(r.Items[0].Str)
	}
	if f := s.Get("format"); f != nil && f.Kind == jsonval.String && f.Str != "" {
		return formatFunc(f.Str)
	}
	if t := s.Get("type"); t != nil && t.Kind == jsonval.String && t.Str != "" {
		return goIdent(t.Str)
	}
	return ""
}

// formatFunc names a format as Go names it: date-time → DateTime, uuid →
// UUID.
func formatFunc(name string) string {
	switch name {
	case "date-time":
		return "DateTime"
	case "uuid":
		return "UUID"
	case "uri":
		return "URI"
	case "ipv4":
		return "IPv4"
	case "ipv6":
		return "IPv6"
	}
	return upperFirst(name)
}
