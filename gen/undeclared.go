package gen

// Open objects keep what they accept. An object that takes members it
// does not declare (additionalProperties: true, or absent under
// --open-objects) used to skip them: the decoder accepted them and the
// executor never saw them. keepUndeclared gives such a struct the
// AdditionalProperties field a map-typed additionalProperties has, each
// value kept as its raw JSON, so the value re-encodes whole. It leaves
// alone the structs that are only checked (the branches and subschemas of
// a composition and their variants by type, decoded by its trials, and the struct of a closed
// nullable copy), a struct whose site closes it (unevaluatedProperties),
// and one whose undeclared members patternProperties covers.
func keepUndeclared(roots []*node) {
	checked := map[*node]bool{}
	for _, root := range roots {
		walkNodes(root, func(n *node) {
			for _, c := range n.comp.nodes() {
				checked[c] = true
				for _, v := range c.variants {
					checked[v] = true // the same value, read by type
				}
			}
			if n.nullOf != nil {
				checked[n.nullOf] = true
			}
		})
	}
	for _, root := range roots {
		walkNodes(root, func(n *node) {
			c := n.comp
			if checked[n] || n.kind != kindObject || !n.hasStruct || n.addl != addlOpen || len(n.props) == 0 ||
				c != nil && (c.unevalProps != nil || len(c.patterns) > 0) {
				return
			}
			n.addl, n.addlNode = addlSchema, anyNode(n.ptr+"/additionalProperties", n.name+"Value")
		})
	}
}
