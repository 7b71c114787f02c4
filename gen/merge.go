package gen

import (
	"fmt"
	"strings"
)

// An allOf of objects ({"type": "object", "allOf": [{"properties": {"a":
// …}, "required": ["a"]}, {"properties": {"b": …}}]}, Pydantic's and
// OpenAPI's composition of models) is one object with the members of every
// branch: mergeAllOf gives it one struct with a field per member, decoded
// in one pass like any object, instead of raw bytes checked per branch.
// The closure of the site (unevaluatedProperties: false) is then the
// struct's: a member no branch declares is refused, at its own path.
//
// It applies when the value must be an object (the site or a branch says
// "type": "object"), the branches only declare properties and required
// members (no additionalProperties, patternProperties or composition of
// their own), no member is declared twice, every required member is
// declared, and the site has nothing but the allOf, its own properties
// and its closure.
func (b *builder) mergeAllOf(n *node) {
	c := n.comp
	if c == nil || len(c.allOf) == 0 || c.matchOnly || c.ref != nil || len(c.anyOf)+len(c.oneOf) > 0 || c.not != nil || c.ifB != nil ||
		c.objectChecks() || c.contains != nil || c.unevalItems != nil || c.seen.allNames || c.seen.allItems || c.seen.prefix > 0 {
		return
	}
	if c.unevalProps != nil && c.unevalProps.n.kind != kindNever || n.nullable || n.enum != nil {
		return
	}
	object := n.kind == kindObject && n.addl == addlOpen
	if n.kind != kindObject && n.kind != kindAny {
		return
	}
	parts := []*node{}
	if n.kind == kindObject {
		parts = append(parts, n)
	}
	for _, br := range c.allOf {
		bn := br.n
		if bn == n || bn.nullable || bn.enum != nil {
			return
		}
		o := objectPart(bn)
		if o == nil || o.addl != addlOpen || o.enum != nil {
			return
		}
		if bc := bn.comp; bc != nil && (bc.checks() || len(bc.patterns) > 0 || bc.seen.allNames || len(bc.sameValue()) > 0) {
			return
		}
		object = object || bn.kind == kindObject
		parts = append(parts, o)
	}
	if !object {
		return
	}
	var props []*prop
	seen := map[string]bool{}
	taken := map[string]bool{}
	for _, o := range parts {
		for _, p := range o.props {
			if seen[p.name] || taken[p.goName] || strings.HasSuffix(p.node.ptr, "/required") && p.node.kind == kindAny {
				return
			}
			seen[p.name], taken[p.goName] = true, true
			cp := *p
			cp.bit = len(props)
			props = append(props, &cp)
		}
	}
	n.kind = kindObject
	n.props = props
	n.hasStruct = true
	if n.goName == "" {
		n.goName = n.name
	}
	n.addl, n.addlPtr = addlOpen, ""
	if c.unevalProps != nil {
		n.addl, n.addlPtr = addlClosed, c.unevalProps.sp
	}
	n.comp = nil
	why := fmt.Sprintf("one object with the members of the %d schemas of its allOf, merged, decoded in one pass.", len(c.allOf))
	if n.desc != "" {
		why = n.desc + "\n\nIt is " + why
	}
	n.desc = why
}
