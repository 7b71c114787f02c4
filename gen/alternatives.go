package gen

import (
	"fmt"
	"strings"
)

// Untagged unions of objects: a oneOf or anyOf whose branches are plain
// structs and that no tag tells apart (GitHub's projects_write: an item is
// {"node_id": …}, {"item_id": …} or {"item_owner", "item_repo",
// "issue_number"}). mergeAlternatives gives the site one struct with an
// optional field per member of any branch, beside the site's own
// properties, decoded in one pass; the union itself is still checked on
// the value's bytes by the branch trials, as before. A value the decoder
// accepts thus reaches the executor whole, whichever branch it matched.
// The site says "type": "object", or has no type while every branch says
// it (Pydantic's Union[A, B]; such a site reports a value of another type
// as its union's violation, not as a type it does not declare).
//
// A member gets the Go type of its schema when every value the union
// accepts holds it valid against that schema: every branch that declares
// it declares it with the same schema, and every other branch refuses it
// (it is closed by its own additionalProperties: false, or the site is
// closed by unevaluatedProperties: false, so that the member must be
// evaluated by a branch that matched). Otherwise the member is kept as its
// validated raw bytes (json.RawMessage). A site whose branches cannot be
// merged (a branch that is not a plain struct, or two members with one Go
// name) and that declares no members of its own keeps the whole value raw.

// mergeAlternatives merges the branches of n's oneOf or anyOf into n's
// struct, or keeps n raw when they cannot be merged.
func (b *builder) mergeAlternatives(n *node) {
	c := n.comp
	if c == nil || c.matchOnly || n.nullable || n.enum != nil || taggedSite(n) != nil {
		return
	}
	// A site without a type whose branches all say "type": "object" takes
	// objects only (Pydantic's Union[A, B]): merged, it is an object that
	// reports any other value as its union's violation.
	untyped := n.kind == kindAny && n.ptr != "" && objectBranches(c)
	if !untyped && (n.kind != kindObject || !n.hasStruct) {
		return
	}
	branches := c.oneOf
	if len(c.anyOf) > 0 {
		branches = c.anyOf
	}
	if len(branches) == 0 {
		return
	}
	props, ok := mergedProps(n, branches, len(c.oneOf) > 0 && len(c.anyOf) > 0, c.unevalProps != nil && c.unevalProps.n.kind == kindNever)
	switch {
	case ok && len(props) > len(n.props):
		n.props, n.merged = props, true
		if untyped {
			n.kind, n.hasStruct, n.goName, n.addl, n.untyped = kindObject, true, n.name, addlOpen, true
		}
		why := fmt.Sprintf("one of the object shapes of its %s, with the members of every branch: the branch the value matches is checked, not recorded.", unionKeyword(c))
		if n.desc == "" {
			n.desc = why
		} else {
			n.desc += "\n\nIt is " + why
		}
	case !ok && !untyped && len(n.props) == 0:
		// Kept raw: a union of one variant, an object read as a map of raw
		// values, whose bytes the composition then checks.
		v := anyNode(n.ptr, n.name+"Object")
		v.kind, v.sens, v.freeForm = kindObject, n.sens, true
		v.addl, v.addlNode = addlSchema, anyNode(n.ptr, n.name+"Value")
		n.kind, n.hasStruct, n.goName, n.variants = kindUnion, false, "", []*node{v}
	}
}

// objectBranches reports whether every branch of c's oneOf and anyOf
// decodes objects only.
func objectBranches(c *composition) bool {
	for _, br := range append(append([]branch(nil), c.oneOf...), c.anyOf...) {
		if br.n.kind != kindObject || br.n.nullable {
			return false
		}
	}
	return len(c.oneOf)+len(c.anyOf) > 0
}

func unionKeyword(c *composition) string {
	if len(c.anyOf) > 0 {
		return "anyOf"
	}
	return "oneOf"
}

// mergedProps returns n's properties followed by the members the branches
// add, each optional, or false when the branches cannot be merged. both
// says the site has oneOf and anyOf (not merged); closed that the site is
// closed by unevaluatedProperties: false.
func mergedProps(n *node, branches []branch, both, closed bool) ([]*prop, bool) {
	if both || len(branches) > 64 {
		return nil, false
	}
	props := append([]*prop(nil), n.props...)
	byName := map[string]*prop{}
	taken := map[string]bool{}
	for _, p := range props {
		byName[p.name], taken[p.goName] = p, true
	}
	declaredBy := map[string]int{} // how many branches declare a member the site does not
	for _, br := range branches {
		o := objectPart(br.n)
		if o == nil || !plainStruct(o) || o.enum != nil || br.n != o && (br.n.comp.checks() || br.n.enum != nil) {
			return nil, false
		}
		for _, p := range o.props {
			if strings.HasSuffix(p.node.ptr, "/required") && p.node.kind == kindAny {
				continue // required, not declared: no branch evaluates it
			}
			if q, ok := byName[p.name]; ok {
				if declaredBy[p.name] > 0 {
					declaredBy[p.name]++
					if q.node != p.node {
						q.node = rawMember(n, p.name)
					}
				}
				continue
			}
			if taken[p.goName] {
				return nil, false
			}
			cp := *p
			cp.required, cp.bit = false, len(props)
			props = append(props, &cp)
			byName[p.name], taken[p.goName] = &cp, true
			declaredBy[p.name] = 1
		}
	}
	for _, p := range props {
		if declaredBy[p.name] == 0 || declaredBy[p.name] == len(branches) || closed {
			continue
		}
		for _, br := range branches {
			if objectPart(br.n).addl != addlClosed {
				p.node = rawMember(n, p.name) // a branch that does not declare it may take it as it is
				break
			}
		}
	}
	return props, true
}

// rawMember is the node of a merged member kept as its raw bytes.
func rawMember(n *node, name string) *node {
	return anyNode(n.ptr+"/properties/"+escapePointer(name), "")
}
