package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// Import paths of the runtime packages generated code uses.
const (
	pkgTgimpl   = "github.com/toolgate/toolgate/runtime/tgimpl"
	pkgJSONRead = "github.com/toolgate/toolgate/runtime/jsonread"
	pkgJSONNum  = "github.com/toolgate/toolgate/runtime/jsonnum"
	pkgOpt      = "github.com/toolgate/toolgate/runtime/opt"
	pkgFormat   = "github.com/toolgate/toolgate/runtime/format"
	pkgGate     = "github.com/toolgate/toolgate/runtime/gate"
	pkgProvider = "github.com/toolgate/toolgate/runtime/provider"
	pkgJSON     = "encoding/json"
)

// emitter writes the Go code of one tool.
type emitter struct {
	f      *jen.File
	tm     *toolModel
	ns     *namespace // the names this tool declares
	claims []claimed  // the same, in order, for the check across tools
	errs   ErrorList
	depth  int
	// done marks the named nodes whose declarations have been emitted.
	done map[*node]bool
	// trials marks the nodes whose trial function has been emitted (emit_compose.go).
	trials map[*node]bool
	// seens marks the nodes whose evaluated-members function has been emitted.
	seens map[*node]bool
	// reports marks the nodes whose report function has been emitted
	// (emit_compose.go).
	reports map[*node]bool
	// closable marks the open structs that a composition also decodes closed
	// (tagged.go): their member loop is decodeIn, with the closing keyword
	// as an argument.
	closable map[*node]bool
	// scalars collects, while a decode method is emitted, the nodes whose
	// tgimpl.Scalar it reads (emit_scalar.go); ruleDone marks the nodes
	// whose Scalar has been declared.
	scalars  *[]*node
	ruleDone map[*node]bool
}

func d() *jen.Statement  { return jen.Id("d") }
func dr() *jen.Statement { return jen.Id("d").Dot("R") }

func readKind(k string) *jen.Statement { return jen.Qual(pkgJSONRead, k) }

// claim reserves a package-level name for a generated declaration: within
// the tool now, across tools when Generate merges the claims.
func (e *emitter) claim(name, what string) {
	e.claims = append(e.claims, claimed{name, what})
	if prev, ok := e.ns.claim(name, what); !ok {
		e.errs = append(e.errs, collision(e.tm, name, what, prev))
	}
}

// collision is the error for two declarations with one Go name.
func collision(tm *toolModel, name, what, prev string) error {
	return &Error{File: tm.t.File, Pointer: tm.t.Pointer, Message: fmt.Sprintf("Go name %s of %s collides with %s; set x-toolgate goName or goType to tell them apart", name, what, prev)}
}

func (e *emitter) where(n *node) string {
	return fmt.Sprintf("%s (schema %s)", e.tm.t.Name, pointerOrRoot(n.ptr))
}

// ---- Go types ----

// goType is the Go type of a value of n.
func (e *emitter) goType(n *node) *jen.Statement {
	if taggedSite(n) != nil {
		return jen.Id(unionType(n))
	}
	switch n.kind {
	case kindBool:
		return jen.Bool()
	case kindInt:
		return jen.Int64()
	case kindNumber:
		return jen.Float64()
	case kindString:
		if n.goName != "" {
			return jen.Id(n.goName)
		}
		return jen.String()
	case kindObject:
		if n.hasStruct {
			if n.onCycle {
				return jen.Op("*").Id(n.goName)
			}
			return jen.Id(n.goName)
		}
		return jen.Map(jen.String()).Add(e.elemType(n.addlNode))
	case kindArray:
		if n.tupled {
			return jen.Qual(pkgJSON, "RawMessage")
		}
		if n.items == nil {
			return jen.Index().Qual(pkgJSON, "RawMessage")
		}
		return jen.Index().Add(e.elemType(n.items))
	case kindNull, kindNever:
		return jen.Struct()
	}
	return jen.Qual(pkgJSON, "RawMessage")
}

// elemType is the Go type of an array item or map value of n.
func (e *emitter) elemType(n *node) *jen.Statement {
	if n.nullable {
		return jen.Qual(pkgOpt, "Nullable").Types(e.goType(n))
	}
	return e.goType(n)
}

// fieldType is the Go type of a struct field for p.
func (e *emitter) fieldType(p *prop) *jen.Statement {
	switch {
	case p.node.nullable:
		return jen.Qual(pkgOpt, "Nullable").Types(e.goType(p.node))
	case !p.required:
		return jen.Qual(pkgOpt, "Optional").Types(e.goType(p.node))
	}
	return e.goType(p.node)
}
