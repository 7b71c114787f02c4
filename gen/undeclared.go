package gen

import "github.com/dave/jennifer/jen"

// Open objects keep what they accept. An object that takes members it
// does not declare (additionalProperties: true, or absent under
// --open-objects) used to skip them: the decoder accepted them and the
// executor never saw them. keepUndeclared gives such a struct the
// AdditionalProperties field a map-typed additionalProperties has, each
// value kept as its raw JSON, so the value re-encodes whole. It leaves
// alone the structs that are only checked (the branches and subschemas of
// a composition and their variants by type, decoded by its trials), the
// structs that a composition also decodes closed (decodeIn: the struct of a
// nullable copy, the branches of a tagged union that
// unevaluatedProperties: false closes) and a struct whose own
// unevaluatedProperties closes it. A struct that is also a value keeps
// them wherever it is read (its trials fill the map and drop it): a
// definition that a member, an item or a map value refers to and a
// composition names as a branch, and a branch of an open tagged union,
// which holds the branch it decoded; kept open, it is still a plain struct
// (keptOpen), so the union stays tagged.
//
// A struct with patternProperties keeps the members its patterns cover the
// same way (keepMatched), closed or open; their values are checked by the
// composition, on the bytes read. Beside a typed additionalProperties,
// whose map stays typed, they are kept raw in a field of their own,
// PatternProperties (keepPatterned): an object that would be that map alone
// becomes a struct with the two maps, so that neither holds less than it
// accepts.
func keepUndeclared(roots []*node) {
	checked, valued, closable := map[*node]bool{}, map[*node]bool{}, map[*node]bool{}
	for _, root := range roots {
		walkNodes(root, func(n *node) {
			for _, c := range n.comp.nodes() {
				checked[c] = true
				for _, v := range c.variants {
					checked[v] = true // the same value, read by type
				}
			}
			if n.nullOf != nil {
				closable[n.nullOf] = true // decoded closed by the copy
			}
			for _, p := range n.props {
				valued[p.node] = true
			}
			for _, v := range append([]*node{n.items, n.addlNode}, n.prefix...) {
				valued[v] = true
			}
			if t := taggedSite(n); t != nil {
				for _, br := range t.branches {
					valued[br.n] = true // the union holds the branch it decoded
					closable[br.n] = closable[br.n] || t.closedBy != ""
				}
			}
		})
	}
	for _, root := range roots {
		walkNodes(root, func(n *node) {
			c := n.comp
			if checked[n] && !valued[n] || closable[n] || n.kind != kindObject || c != nil && c.unevalProps != nil {
				return
			}
			patterned := c != nil && !c.matchOnly && len(c.patterns) > 0
			switch {
			case patterned && n.addl == addlSchema && !n.freeForm:
				n.keepPatterned, n.hasStruct = true, true
				return
			case !n.hasStruct:
				return
			case patterned && (n.addl == addlOpen || n.addl == addlClosed):
				n.keepMatched = true
			case n.addl != addlOpen || len(n.props) == 0:
				return
			}
			n.addlNode = anyNode(n.ptr+"/additionalProperties", n.name+"Value")
			if n.addl == addlOpen {
				n.addl, n.keptOpen = addlSchema, true
			}
		})
	}
}

// keepsUndeclared reports whether the struct of n has an
// AdditionalProperties field.
func (n *node) keepsUndeclared() bool { return n.addl == addlSchema || n.keepMatched }

// matchedField is the field of n's struct that holds the members its
// patternProperties covers.
func (n *node) matchedField() string {
	if n.keepPatterned {
		return "PatternProperties"
	}
	return "AdditionalProperties"
}

// keepMatchedDefault is the default case of n's member loop when n keeps
// the members its patternProperties covers: such a member goes into its
// matchedField as its raw bytes, any other to dflt.
func (e *emitter) keepMatchedDefault(n *node, dflt []jen.Code) []jen.Code {
	target := jen.Id("v").Dot(n.matchedField())
	return []jen.Code{jen.If(jen.Id(namesFunc(n.comp.owner)).Call(jen.Id("name"))).Block(
		jen.If(target.Clone().Op("==").Nil()).Block(target.Clone().Op("=").Map(jen.String()).Qual(pkgJSON, "RawMessage").Values()),
		jen.If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(
			target.Clone().Index(d().Dot("String").Call(jen.Id("name"))).Op("=").Add(d().Dot("Raw").Call())),
	).Else().Block(dflt...)}
}
