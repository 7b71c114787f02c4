package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitResult writes, for a tool with an outputSchema, the result's
// effective schema (<Tool>ResultSchema), its strict decoder
// (Decode<Tool>Result), its gate.ResultSpec (<Tool>ResultSpec) and the
// named types reachable from it, <Tool>Result first.
func (e *emitter) emitResult() {
	tm := e.tm
	if tm.result == nil {
		return
	}
	g, r := tm.goName, tm.result.goName
	what := "tool " + tm.t.Name
	for _, name := range []string{g + "ResultSchema", "Decode" + r, g + "ResultSpec"} {
		e.claim(name, what)
	}
	e.doc(fmt.Sprintf("%sResultSchema is the effective JSON Schema of the %s tool's result (its outputSchema, every implied closure written out): what the gate checks every result against before it leaves, and what MCP clients are sent.", g, tm.t.Name))
	e.f.Const().Id(g + "ResultSchema").Op("=").Add(goString(tm.resultSchema))
	e.f.Line()
	fn := "Decode" + r
	e.doc(fmt.Sprintf("%s reads a result of the %s tool from data in one pass, checking every rule of %sResultSchema as it goes: the gate checks each result with it, and a client of the tool gets the same typed value back. It returns a *toolerr.Error with code invalid_json or invalid_arguments (every violation, in document order, up to toolerr.MaxViolations).", fn, tm.t.Name, g))
	e.f.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Params(jen.Id(r), jen.Error()).Block(
		jen.Var().Id("v").Id(r),
		jen.Var().Id("d").Qual(pkgTgimpl, "Decoder"),
		jen.Id("d").Dot("Reset").Call(jen.Id(g+"ToolName"), jen.Id("data")),
		e.beginSensitiveTool(tm.result.sens),
		jen.If(jen.Id("d").Dot("Object").Call()).Block(jen.Id("v").Dot("decode").Call(jen.Op("&").Id("d"))),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(r).Values(), jen.Err())),
		jen.Return(jen.Id("v"), jen.Nil()),
	)
	e.f.Line()
	e.doc(fmt.Sprintf("%sResultSpec describes the %s tool's result to a gate registry (gate.BindTyped): its schema, encoder and decoder.", g, tm.t.Name))
	e.f.Var().Id(g+"ResultSpec").Op("=").Qual(pkgGate, "ResultSpec").Types(jen.Id(r)).Add(literal([]jen.Code{
		field("Schema", jen.Id(g+"ResultSchema")),
		field("Encode", jen.Id(r).Dot("MarshalJSON")),
		field("Decode", jen.Id(fn)),
	}))
	e.f.Line()
	e.declare(tm.result)
}

// resultDoc is the doc comment of a tool's <Tool>Result type.
func (e *emitter) resultDoc(n *node) string {
	doc := fmt.Sprintf("%s is the result of the %s tool: what its executor returns. The gate encodes it (MarshalJSON: exactly the members set) and checks the bytes with Decode%s before they leave; a result that breaks %sResultSchema is withheld (invalid_result).", n.goName, e.tm.t.Name, n.goName, e.tm.goName)
	if n.desc != "" {
		doc += "\n\n" + n.desc
	}
	return doc
}

// bindingType and bindCall are a tool's field type in Bindings and its
// entry in NewRegistry: gate.Binding and gate.Bind, or, for a tool with a
// result schema, gate.TypedBinding and gate.BindTyped, whose executor
// returns the typed result.
func bindingType(tm *toolModel) jen.Code {
	if tm.result == nil {
		return jen.Qual(pkgGate, "Binding").Types(jen.Id(tm.root.goName))
	}
	return jen.Qual(pkgGate, "TypedBinding").Types(jen.Id(tm.root.goName), jen.Id(tm.result.goName))
}

func bindCall(tm *toolModel) jen.Code {
	b := jen.Id("b").Dot(tm.goName)
	if tm.result == nil {
		return jen.Qual(pkgGate, "Bind").Call(jen.Id(tm.goName+"Spec"), b)
	}
	return jen.Qual(pkgGate, "BindTyped").Call(jen.Id(tm.goName+"Spec"), jen.Id(tm.goName+"ResultSpec"), b)
}
