package gen

import (
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"
)

// ---- defaults ----

// emitDefaults writes an accessor per optional scalar member with a default:
// the value when present, else the default. Decoding never fills it in.
func (e *emitter) emitDefaults(n *node) {
	for _, p := range n.props {
		lit, ok := e.defaultLiteral(p)
		if !ok {
			continue
		}
		name := p.goName + "OrDefault"
		e.doc(fmt.Sprintf("%s returns %s when it is set, else its default %s.", name, p.goName, p.node.def.Marshal()))
		e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id(name).Params().Add(e.goType(p.node)).Block(
			jen.Return(jen.Id("v").Dot(p.goName).Dot("Or").Call(lit)))
		e.f.Line()
	}
}

// defaultLiteral is the Go literal of an optional, non-nullable scalar
// member's default: the members that get an OrDefault accessor.
func (e *emitter) defaultLiteral(p *prop) (jen.Code, bool) {
	n, def := p.node, p.node.def
	if def == nil || p.required || n.nullable {
		return nil, false
	}
	switch {
	case n.kind == kindBool && def.Kind == jsonval.Bool:
		return jen.Lit(def.Bool), true
	case n.kind == kindInt && def.Kind == jsonval.Number:
		if iv, ok := integerValue(def.Str); ok && iv.IsInt64() {
			return jen.Lit(iv.Int64()), true
		}
	case n.kind == kindNumber && def.Kind == jsonval.Number:
		if f, err := strconv.ParseFloat(def.Str, 64); err == nil {
			return jen.Lit(f), true
		}
	case n.kind == kindString && def.Kind == jsonval.String:
		if n.goName != "" {
			if c, ok := n.enumConsts[def.Str]; ok {
				return jen.Id(c), true
			}
			return nil, false
		}
		return jen.Lit(def.Str), true
	}
	return nil, false
}
