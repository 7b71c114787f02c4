package gen

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/tgimpl"
)

// ---- decoding ----

// setter says how a decoded value is stored.
type setter struct {
	value   func(x jen.Code) jen.Code // store a present value
	null    func() jen.Code           // store null (nullable nodes)
	discard bool                      // the value is only checked, not kept
	// nullAbsent: an optional, non-nullable member, which takes null as
	// "absent" when the decoder maps null to absent (calls from the OpenAI
	// strict dialect, whose definitions make such members nullable).
	nullAbsent bool
	// target is the variable a present value is stored in as it is, when
	// set.value(x) is target = x: a union's decodeJSON decodes into it.
	target *jen.Statement
}

var discard = setter{
	value:   func(x jen.Code) jen.Code { return jen.Id("_").Op("=").Add(x) },
	null:    func() jen.Code { return jen.Null() },
	discard: true,
}

// fieldSetter stores into the struct field of p.
func (e *emitter) fieldSetter(p *prop) setter {
	field := jen.Id("v").Dot(p.goName)
	switch {
	case p.node.nullable:
		return setter{
			value: func(x jen.Code) jen.Code { return field.Clone().Op("=").Qual(pkgOpt, "Value").Call(x) },
			null: func() jen.Code {
				return field.Clone().Op("=").Qual(pkgOpt, "NullOf").Types(e.goType(p.node)).Call()
			},
		}
	case !p.required:
		return setter{value: func(x jen.Code) jen.Code { return field.Clone().Op("=").Qual(pkgOpt, "Some").Call(x) }, nullAbsent: e.tm.nullAsAbsent()}
	}
	return setter{value: func(x jen.Code) jen.Code { return field.Clone().Op("=").Add(x) }, target: field}
}

// elemSetter stores with assign(x), wrapping x for a nullable n.
func (e *emitter) elemSetter(n *node, assign func(x jen.Code) jen.Code) setter {
	if !n.nullable {
		return setter{value: assign}
	}
	return setter{
		value: func(x jen.Code) jen.Code { return assign(jen.Qual(pkgOpt, "Value").Call(x)) },
		null:  func() jen.Code { return assign(jen.Qual(pkgOpt, "NullOf").Types(e.goType(n)).Call()) },
	}
}

// decodeValue reads the value that follows into set, checking every rule
// of n. A sensitive n that can hold values below it is read between
// BeginSensitive and EndSensitive, so that nothing below it is echoed,
// however deep and through whatever named type; a sensitive scalar's
// messages leave its value out where they are generated (sensitiveNode).
func (e *emitter) decodeValue(n *node, set setter) []jen.Code {
	if code := e.readScalar(n, set); code != nil {
		return code
	}
	if n.sens {
		return sensitiveScope(n, e.withChecks(n, set, e.decodeRules(n, set)))
	}
	return e.withChecks(n, set, e.decodeRules(n, set))
}

// sensitiveScope wraps the reading of a sensitive value of n, unless n is
// a scalar.
func sensitiveScope(n *node, code []jen.Code) []jen.Code {
	switch n.kind {
	case kindNull, kindBool, kindInt, kindNumber, kindString, kindNever:
		return code
	}
	out := append([]jen.Code{d().Dot("BeginSensitive").Call()}, code...)
	return append(out, d().Dot("EndSensitive").Call())
}

// decodeRules is decodeValue without the sensitive scope.
func (e *emitter) decodeRules(n *node, set setter) []jen.Code {
	switch n.kind {
	case kindAny:
		return []jen.Code{set.value(d().Dot("Raw").Call())}
	case kindNever:
		return []jen.Code{d().Dot("False").Call(jen.Lit(n.ptr))}
	case kindUnion:
		return []jen.Code{set.value(jen.Id(e.tm.unionFuncs[n]).Call(d()))}
	}
	cases := []jen.Code{jen.Case(readKind(tokenKind(n.kind))).Block(e.decodeKind(n, set)...)}
	mismatch := d().Dot("TypeMismatch").Call(jen.Lit(typePtr(n)), jen.Lit(typePhrase(n)))
	if n.untyped {
		mismatch = jen.Block(dr().Dot("Skip").Call(), jen.If(dr().Dot("Err").Call().Op("==").Nil()).Block(noBranch(n.ptr, unionKeyword(n.comp))))
	}
	switch {
	case n.nullable:
		cases = append(cases, jen.Case(readKind("Null")).Block(e.decodeNull(n, set)...))
	case set.nullAbsent && n.kind != kindNull:
		cases = append(cases, jen.Case(readKind("Null")).Block(jen.If(jen.Op("!").Add(d().Dot("AbsentNull").Call())).Block(mismatch)))
	}
	cases = append(cases, jen.Default().Block(mismatch.Clone()))
	return []jen.Code{jen.Switch(dr().Dot("Peek").Call()).Block(cases...)}
}

func typePtr(n *node) string { return n.ptr + "/type" }

// decodeNull reads a null for a nullable n.
func (e *emitter) decodeNull(n *node, set setter) []jen.Code {
	out := []jen.Code{dr().Dot("Null").Call()}
	if n.enum != nil && !hasNull(n.enum) {
		return append(out, e.enumViolation(n, jen.Lit("null")))
	}
	return append(out, set.null())
}

func hasNull(vals []*jsonval.Value) bool {
	for _, v := range vals {
		if v.Kind == jsonval.Null {
			return true
		}
	}
	return false
}

func tokenKind(k kind) string {
	switch k {
	case kindNull:
		return "Null"
	case kindBool:
		return "Bool"
	case kindInt, kindNumber:
		return "Number"
	case kindString:
		return "String"
	case kindArray:
		return "Array"
	}
	return "Object"
}

// typePhrase names what a node accepts, for type violations.
func typePhrase(n *node) string {
	var names []string
	add := func(k kind) {
		switch k {
		case kindNull:
			names = append(names, "null")
		case kindBool:
			names = append(names, "boolean")
		case kindInt:
			names = append(names, "integer")
		case kindNumber:
			names = append(names, "number")
		case kindString:
			names = append(names, "string")
		case kindArray:
			names = append(names, "array")
		case kindObject:
			names = append(names, "object")
		}
	}
	if n.kind == kindUnion {
		for _, v := range n.variants {
			add(v.kind)
		}
	} else {
		add(n.kind)
		if n.nullable {
			add(kindNull)
		}
	}
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " or " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// decodeKind reads a value whose token kind is known to match n.kind.
func (e *emitter) decodeKind(n *node, set setter) []jen.Code {
	switch n.kind {
	case kindNull:
		out := []jen.Code{dr().Dot("Null").Call()}
		if n.enum != nil && !hasNull(n.enum) {
			return append(out, e.enumViolation(n, jen.Lit("null")))
		}
		return append(out, set.value(jen.Struct().Values()))
	case kindBool:
		return e.decodeBool(n, set)
	case kindInt, kindNumber, kindString:
		return e.readRule(n, set)
	case kindObject:
		return e.decodeObjectValue(n, set)
	case kindArray:
		return e.decodeArray(n, set)
	}
	panic(fmt.Sprintf("toolgate: decodeKind of kind %d", n.kind))
}

func (e *emitter) decodeBool(n *node, set setter) []jen.Code {
	out := []jen.Code{jen.Id("x").Op(":=").Add(dr().Dot("Bool").Call())}
	if n.enum != nil {
		var allowT, allowF bool
		for _, v := range n.enum {
			if v.Kind == jsonval.Bool {
				allowT = allowT || v.Bool
				allowF = allowF || !v.Bool
			}
		}
		var bad jen.Code
		switch {
		case allowT && allowF:
		case allowT:
			bad = jen.Op("!").Id("x")
		case allowF:
			bad = jen.Id("x")
		default:
			bad = jen.True()
		}
		if bad != nil {
			out = append(out, jen.If(bad).Block(e.enumViolation(n, jen.Qual("strconv", "FormatBool").Call(jen.Id("x")))))
		}
	}
	return append(out, set.value(jen.Id("x")))
}

// beginSensitiveTool starts a sensitive scope for a whole decode when the
// tool is marked sensitive or sens is set (the decoded schema itself is),
// and is empty code otherwise.
func (e *emitter) beginSensitiveTool(sens bool) jen.Code {
	if sens || e.tm.t.Meta.Sensitive {
		return jen.Id("d").Dot("BeginSensitive").Call()
	}
	return jen.Null()
}

// sensitiveNode reports whether messages about n's value must not echo it.
func (e *emitter) sensitiveNode(n *node) bool {
	return n.sens || e.tm.t.Meta.Sensitive
}

// got renders the received value for a message, or "" for sensitive nodes.
func (e *emitter) got(n *node, x jen.Code) jen.Code {
	if e.sensitiveNode(n) {
		return jen.Lit("")
	}
	return x
}

func (e *emitter) enumViolation(n *node, got jen.Code) jen.Code {
	if n.enumKw == "const" {
		return d().Dot("Const").Call(jen.Lit(n.ptr+"/const"), jen.Lit(showValue(n.enum[0])), e.got(n, got))
	}
	return d().Dot("Enum").Call(jen.Lit(n.ptr+"/enum"), jen.Lit(enumPhrase(n.enumAll)), e.got(n, got))
}

func enumPhrase(vals []*jsonval.Value) string {
	if len(vals) == 0 {
		return "nothing (the enum is empty)"
	}
	shown := make([]string, len(vals))
	for i, v := range vals {
		shown[i] = showValue(v)
	}
	if len(shown) == 1 {
		return shown[0]
	}
	return strings.Join(shown[:len(shown)-1], ", ") + " or " + shown[len(shown)-1]
}

// showValue renders an enum or const value the way messages show values.
func showValue(v *jsonval.Value) string {
	if v.Kind == jsonval.String {
		return tgimpl.Show(v.Str)
	}
	return string(v.Marshal())
}

func (e *emitter) declareUnion(n *node) {
	name := e.tm.unionFuncs[n]
	e.claim(name, "the decoder of "+e.where(n))
	e.collectScalars(func() {
		var cases []jen.Code
		for _, v := range n.variants {
			cases = append(cases, jen.Case(readKind(tokenKind(v.kind))).Block(e.decodeKind(v, discard)...))
		}
		cases = append(cases, jen.Default().Block(d().Dot("TypeMismatch").Call(jen.Lit(typePtr(n)), jen.Lit(typePhrase(n)))))
		e.doc(fmt.Sprintf("%s reads the value of %s, which may be %s, and returns its bytes.", name, e.where(n), tgimpl.Article(typePhrase(n))))
		e.f.Func().Id(name).Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")).Qual(pkgJSON, "RawMessage").Block(
			jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()),
			jen.Switch(dr().Dot("Peek").Call()).Block(cases...),
			jen.Return(d().Dot("Capture").Call(jen.Id("start"))),
		)
		e.f.Line()
	})
}
