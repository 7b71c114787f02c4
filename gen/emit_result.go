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
	g, r := tm.goName, tm.resultType()
	what := "tool " + tm.t.Name
	for _, name := range []string{g + "ResultSchema", "Decode" + r, g + "ResultSpec"} {
		e.claim(name, what)
	}
	e.doc(fmt.Sprintf("%sResultSchema is the effective JSON Schema of the %s tool's result (its outputSchema, every implied closure written out): what the gate checks every result against before it leaves, and what MCP clients are sent.", g, tm.t.Name))
	e.f.Const().Id(g + "ResultSchema").Op("=").Add(goString(tm.resultSchema))
	e.f.Line()
	fn := "Decode" + r
	if root := tm.result; !root.hasStruct && !declaresType(root) {
		e.claim(r, what)
		e.doc(e.resultDoc(root, r))
		e.f.Type().Id(r).Add(e.goType(root))
		e.f.Line()
	}
	e.doc(fmt.Sprintf("%s reads a result of the %s tool from data in one pass, checking every rule of %sResultSchema as it goes: the gate checks each result with it, and a client of the tool gets the same typed value back. errors.As gives its error's *toolerr.Error, with code invalid_json or invalid_arguments (every violation, in document order, up to toolerr.MaxViolations).", fn, tm.t.Name, g))
	if tm.result.hasStruct {
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
	} else {
		e.emitValueResult(r, fn)
	}
	e.doc(fmt.Sprintf("%sResultSpec describes the %s tool's result to a gate registry (gate.BindTyped): its schema, encoder and decoder.", g, tm.t.Name))
	e.f.Var().Id(g+"ResultSpec").Op("=").Qual(pkgGate, "ResultSpec").Types(jen.Id(r)).Add(literal([]jen.Code{
		field("Schema", jen.Id(g+"ResultSchema")),
		field("Encode", jen.Id(r).Dot("MarshalJSON")),
		field("Decode", jen.Id(fn)),
	}))
	e.f.Line()
	e.declare(tm.result)
}

// emitValueResult writes, for a result whose root is not an object (an
// array, a scalar, a string enum, a type union kept raw), its decoder,
// which reads one JSON value, and the MarshalJSON and UnmarshalJSON of its
// type.
func (e *emitter) emitValueResult(r, fn string) {
	tm, root := e.tm, e.tm.result
	body := []jen.Code{
		jen.Var().Id("v").Id(r),
		jen.Var().Id("dec").Qual(pkgTgimpl, "Decoder"),
		jen.Id("d").Op(":=").Op("&").Id("dec"),
		jen.Id("d").Dot("Reset").Call(jen.Id(tm.goName+"ToolName"), jen.Id("data")),
		e.beginSensitiveTool(false),
	}
	body = append(body, e.decodeValue(root, setter{value: func(x jen.Code) jen.Code { return jen.Id("v").Op("=").Id(r).Call(x) }})...)
	body = append(body,
		jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Op("*").New(jen.Id(r)), jen.Err())),
		jen.Return(jen.Id("v"), jen.Nil()))
	e.f.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Params(jen.Id(r), jen.Error()).Block(body...)
	e.f.Line()
	e.doc("MarshalJSON writes v as JSON.")
	enc := []jen.Code{jen.Var().Id("b").Index().Byte()}
	enc = append(enc, e.appendValue(root, jen.Add(e.goType(root)).Call(jen.Id("v")))...)
	enc = append(enc, jen.Return(jen.Id("b"), jen.Nil()))
	e.f.Func().Params(jen.Id("v").Id(r)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(enc...)
	e.f.Line()
	e.doc(fmt.Sprintf("UnmarshalJSON decodes v with %s: the same strict, single-pass checks.", fn))
	e.f.Func().Params(jen.Id("v").Op("*").Id(r)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("x"), jen.Err()).Op(":=").Id(fn).Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id("x"),
		jen.Return(jen.Nil()),
	)
	e.f.Line()
}

// resultDoc is the doc comment of a tool's <Tool>Result type.
func (e *emitter) resultDoc(n *node, name string) string {
	doc := fmt.Sprintf("%s is the result of the %s tool: what its executor returns. The gate encodes it (MarshalJSON: exactly the members set) and checks the bytes with Decode%s before they leave; a result that breaks %sResultSchema is withheld (invalid_result).", name, e.tm.t.Name, name, e.tm.goName)
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
		return jen.Qual(pkgGate, "Binding").Types(jen.Id(tm.argsType))
	}
	return jen.Qual(pkgGate, "TypedBinding").Types(jen.Id(tm.argsType), jen.Id(tm.resultType()))
}

func bindCall(tm *toolModel) jen.Code {
	b := jen.Id("b").Dot(tm.goName)
	if tm.result == nil {
		return jen.Qual(pkgGate, "Bind").Call(jen.Id(tm.goName+"Spec"), b)
	}
	return jen.Qual(pkgGate, "BindTyped").Call(jen.Id(tm.goName+"Spec"), jen.Id(tm.goName+"ResultSpec"), b)
}
