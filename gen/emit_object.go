package gen

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"
)

// decodeObjectValue reads an object: a struct through its decode method, a
// map inline.
func (e *emitter) decodeObjectValue(n *node, set setter) []jen.Code {
	var out []jen.Code
	if n.enum != nil {
		out = append(out, jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()))
	}
	if n.hasStruct {
		if n.onCycle {
			out = append(out, jen.Id("o").Op(":=").New(jen.Id(n.goName)))
		} else {
			out = append(out, jen.Var().Id("o").Id(n.goName))
		}
		out = append(out, decodeCall(jen.Id("o"), closedBy(n)))
		out = append(out, e.rawEnumCheck(n)...)
		return append(out, set.value(jen.Id("o")))
	}
	e.depth++
	defer func() { e.depth-- }()
	m := jen.Id(fmt.Sprintf("m%d", e.depth))
	out = append(out, m.Clone().Op(":=").Map(jen.String()).Add(e.elemType(n.addlNode)).Values())
	out = append(out, e.memberLoop(n, m)...)
	out = append(out, e.rawEnumCheck(n)...)
	return append(out, set.value(m))
}

// rawEnumCheck compares the bytes of a composite value with the enum.
func (e *emitter) rawEnumCheck(n *node) []jen.Code {
	if n.enum == nil {
		return nil
	}
	args := []jen.Code{dr().Dot("Capture").Call(jen.Id("start"))}
	for _, v := range n.enum {
		if v.Kind == jsonval.Object || v.Kind == jsonval.Array {
			args = append(args, jen.Lit(string(v.Marshal())))
		}
	}
	return []jen.Code{jen.If(jen.Op("!").Qual(pkgTgimpl, "RawIn").Call(args...)).Block(e.enumViolation(n, jen.Lit("")))}
}

// knownMembers lists n's declared members for a message: "kind, lives".
func knownMembers(n *node) string {
	var known []string
	for _, p := range n.props {
		known = append(known, p.name)
	}
	return strings.Join(known, ", ")
}

// memberLoop reads the members of an object. For a struct the fields of v
// are set; for a map-only object (m non-nil) the members go into m.
func (e *emitter) memberLoop(n *node, m *jen.Statement) []jen.Code {
	var out []jen.Code
	out = append(out, jen.Id("mark").Op(":=").Add(d().Dot("ObjectNames").Call()))
	words := (len(n.props) + 63) / 64
	if len(n.props) > 0 {
		if words == 1 {
			out = append(out, jen.Var().Id("seen").Uint64())
		} else {
			out = append(out, jen.Var().Id("seen").Index(jen.Lit(words)).Uint64())
		}
	}
	bit := func(i int) (*jen.Statement, *jen.Statement) {
		mask := jen.Id(fmt.Sprintf("1<<%d", i%64))
		if words == 1 {
			return jen.Id("seen"), mask
		}
		return jen.Id("seen").Index(jen.Lit(i / 64)), mask
	}
	var cases []jen.Code
	for _, p := range n.props {
		word, mask := bit(p.bit)
		// A duplicate is recorded (Mark) and fails the reader, so its value
		// is not read. A null that means absent is taken here for a member
		// read with one call (readScalar); decodeValue's code takes it itself.
		// A member marked sensitive whose schema is not is read in a
		// sensitive scope, so that no message repeats its value.
		body := []jen.Code{word.Clone().Op("=").Add(d().Dot("Mark").Call(word.Clone(), mask))}
		var value []jen.Code
		if call := e.memberRead(p); call != nil {
			value = []jen.Code{call}
		} else {
			set := e.fieldSetter(p)
			read := set
			read.nullAbsent = false
			value = e.readScalar(p.node, read)
			switch {
			case value != nil && set.nullAbsent:
				body = append(body, jen.If(d().Dot("AbsentNull").Call()).Block(jen.Break()))
			case value == nil:
				value = e.decodeValue(p.node, set)
			}
		}
		if p.sens && !p.node.sens {
			value = append(append([]jen.Code{d().Dot("BeginSensitive").Call()}, value...), d().Dot("EndSensitive").Call())
		}
		body = append(body, value...)
		cases = append(cases, jen.Case(jen.Lit(p.name)).Block(body...))
	}
	var dflt []jen.Code
	switch n.addl {
	case addlClosed:
		dflt = []jen.Code{d().Dot("Additional").Call(jen.Lit(n.addlPtr), jen.Id("mark"), jen.Id("name"), jen.Lit(knownMembers(n)))}
	case addlOpen:
		dflt = []jen.Code{jen.If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(dr().Dot("Skip").Call())}
	case addlClosedAt:
		dflt = []jen.Code{jen.If(jen.Id("closedAt").Op("!=").Lit("")).Block(
			d().Dot("Additional").Call(jen.Id("closedAt"), jen.Id("mark"), jen.Id("name"), jen.Lit(knownMembers(n))),
		).Else().If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(dr().Dot("Skip").Call())}
	case addlSchema:
		target := m
		if target == nil {
			target = jen.Id("v").Dot("AdditionalProperties")
			dflt = append(dflt, jen.If(target.Clone().Op("==").Nil()).Block(
				target.Clone().Op("=").Map(jen.String()).Add(e.elemType(n.addlNode)).Values()))
		}
		assign := func(x jen.Code) jen.Code { return target.Clone().Index(jen.Id("key")).Op("=").Add(x) }
		dflt = append(dflt,
			jen.If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(append([]jen.Code{
				jen.Id("key").Op(":=").Add(d().Dot("String").Call(jen.Id("name"))),
			}, e.decodeValue(n.addlNode, e.elemSetter(n.addlNode, assign))...)...))
	}
	var loopBody []jen.Code
	loopBody = append(loopBody,
		jen.List(jen.Id("name"), jen.Id("ok")).Op(":=").Add(dr().Dot("NextMember").Call()),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		d().Dot("PushName").Call(),
	)
	if n.keepMatched || n.keepPatterned {
		dflt = e.keepMatchedDefault(n, dflt)
	} else {
		dflt = e.patternDefault(n, dflt)
	}
	if len(cases) > 0 {
		loopBody = append(loopBody, jen.Switch(jen.String().Call(jen.Id("name"))).Block(append(cases, jen.Default().Block(dflt...))...))
	} else {
		loopBody = append(loopBody, dflt...)
	}
	loopBody = append(loopBody, d().Dot("Pop").Call())
	out = append(out, dr().Dot("ObjectStart").Call(), jen.For().Block(loopBody...))
	out = append(out, d().Dot("EndObject").Call(jen.Id("mark")))
	var reqMask uint64
	var reqNames, reqChecks []jen.Code
	for _, p := range n.props {
		if !p.required {
			continue
		}
		word, mask := bit(p.bit)
		if words == 1 {
			reqMask |= 1 << uint(p.bit)
		}
		reqNames = append(reqNames, jen.Lit(p.name))
		reqChecks = append(reqChecks, jen.If(word.Op("&").Parens(mask).Op("==").Lit(0)).Block(
			d().Dot("Required").Call(jen.Lit(n.ptr+"/required"), jen.Lit(p.name))))
	}
	switch {
	case len(reqChecks) == 0:
	case words == 1:
		mask := jen.Id(fmt.Sprintf("%#x", reqMask))
		args := append([]jen.Code{jen.Lit(n.ptr + "/required"), jen.Id("seen"), mask.Clone()}, reqNames...)
		out = append(out, jen.If(jen.Id("seen").Op("&").Add(mask).Op("!=").Add(mask.Clone())).Block(d().Dot("RequiredMissing").Call(args...)))
	default:
		out = append(out, reqChecks...)
	}
	return out
}

// emitNestedUnmarshal gives a nested object type the same strict decoding
// as the tool's arguments, so that encoding/json never fills it loosely.
func (e *emitter) emitNestedUnmarshal(n *node) {
	e.doc(fmt.Sprintf("UnmarshalJSON decodes v as strictly as the %s decoder does.", e.tm.t.Name))
	helper := "DecodeObject"
	if n.sens || e.tm.t.Meta.Sensitive {
		helper = "DecodeSensitiveObject"
	}
	e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Qual(pkgTgimpl, helper).Call(jen.Id(e.tm.goName+"ToolName"), jen.Id("data"), jen.Id("v"), jen.Parens(jen.Op("*").Id(n.goName)).Dot("decode"))),
	)
	e.f.Line()
}

func (e *emitter) emitDecodeMethod(n *node) {
	recv := jen.Id("v").Op("*").Id(n.goName)
	dec := jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")
	if !e.closable[n] {
		e.collectScalars(func() {
			e.f.Func().Params(recv).Id("decode").Params(dec).Block(e.structChecks(n, e.memberLoop(n, nil))...)
			e.f.Line()
		})
		return
	}
	e.f.Func().Params(recv.Clone()).Id("decode").Params(dec.Clone()).Block(jen.Id("v").Dot("decodeIn").Call(d(), jen.Lit("")))
	e.f.Line()
	e.doc("decodeIn reads v from d, which is at an object. closedAt, when not empty, is the unevaluatedProperties of a composition that closes it: a member the struct does not declare then breaks that keyword.")
	loop := *n
	loop.addl = addlClosedAt
	e.collectScalars(func() {
		e.f.Func().Params(recv).Id("decodeIn").Params(dec, jen.Id("closedAt").String()).Block(e.structChecks(n, e.memberLoop(&loop, nil))...)
		e.f.Line()
	})
}

// decodeCall decodes the struct at target: closed by the keyword at
// closedAt (decodeIn), or as the struct's own schema says (decode).
func decodeCall(target *jen.Statement, closedAt string) jen.Code {
	if closedAt == "" {
		return target.Dot("decode").Call(d())
	}
	return target.Dot("decodeIn").Call(d(), jen.Lit(closedAt))
}
