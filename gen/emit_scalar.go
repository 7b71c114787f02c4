package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// ---- scalars, read with their rule ----

// Every integer, number and string is read with one call of the runtime
// (ReadInt, ReadNumber, ReadString, ReadEnum), which checks its type and
// every keyword of its schema, enum and const included: the keywords are a
// package variable, a tgimpl.Scalar made from the schema once (declared
// after the decode method that first reads it), so that a keyword has one
// check, in the runtime, and generated code names its rule rather than
// pasting its checks. A boolean is read with ReadBool unless it has an
// enum, an object or array after one call that checks its type (AtObject,
// AtArray). A struct's decode method reads such a member straight into its
// field (tgimpl.RequiredString, tgimpl.OptionalInt, ...); a nullable or
// composed value is read with the same calls once its token is known.

// ruleKind reports whether n is read with a tgimpl.Scalar: an integer,
// number or string.
func ruleKind(n *node) bool {
	return n.kind == kindString || n.kind == kindInt || n.kind == kindNumber
}

// oneCall reports whether the value n is read with one call of the
// runtime (scalarCall): a boolean without enum, or what ruleKind holds.
func oneCall(n *node) bool {
	return n.kind == kindBool && n.enum == nil || ruleKind(n)
}

// plain reports whether n is read as its type alone: not nullable,
// composed or a tagged union.
func plain(n *node) bool {
	return !n.nullable && n.nullOf == nil && !n.comp.checks() && taggedSite(n) == nil
}

// readScalar returns the code that reads the plain n with one runtime call
// into set (for an object or array: that checks its type before it is
// read), or nil when n is not read that way: for a value only checked, for
// a member that takes null as absent (memberLoop checks that first) or for
// a value that is not plain.
func (e *emitter) readScalar(n *node, set setter) []jen.Code {
	if set.discard || set.nullAbsent {
		return nil
	}
	if scalarItems(n) && !n.sens {
		return e.readScalarArray(n, set)
	}
	if !plain(n) {
		return nil
	}
	if (n.kind == kindObject || n.kind == kindArray) && !n.sens {
		at := map[kind]string{kindObject: "AtObject", kindArray: "AtArray"}[n.kind]
		return []jen.Code{jen.If(d().Dot(at).Call(jen.Lit(typePtr(n)))).Block(e.decodeKind(n, set)...)}
	}
	if oneCall(n) {
		return e.readRule(n, set)
	}
	return nil
}

// readRule reads the boolean, integer, number or string n with one call
// into set: after the reader's Peek, for a nullable or composed n, or as
// the whole read of a plain one.
func (e *emitter) readRule(n *node, set setter) []jen.Code {
	method, arg := e.scalarCall(n)
	call := d().Dot(method).Call(arg)
	if set.discard {
		return []jen.Code{call}
	}
	x := jen.Id("x")
	if method == "ReadEnum" && n.goName != "" {
		x = jen.Id(n.goName).Call(jen.Id("x"))
	}
	return []jen.Code{jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(call), jen.Id("ok")).Block(set.value(x))}
}

// scalarCall names the Decoder method that reads the boolean, integer,
// number or string n with one call (ReadBool, ReadInt, ReadNumber,
// ReadEnum, ReadString) and its argument: the type keyword's pointer for a
// boolean, otherwise the rule. method is "" when n is not read so.
func (e *emitter) scalarCall(n *node) (method string, arg jen.Code) {
	switch {
	case n.kind == kindBool && n.enum == nil:
		return "ReadBool", jen.Lit(typePtr(n))
	case !ruleKind(n):
		return "", nil
	case n.kind == kindInt:
		return "ReadInt", e.rule(n)
	case n.kind == kindNumber:
		return "ReadNumber", e.rule(n)
	case n.enum != nil:
		return "ReadEnum", e.rule(n)
	}
	return "ReadString", e.rule(n)
}

// memberRead returns the one call that reads the scalar member p into its
// field (tgimpl.RequiredString, tgimpl.OptionalEnum, ...), a null that
// means absent included, or nil when p is not read so.
func (e *emitter) memberRead(p *prop) jen.Code {
	if !plain(p.node) {
		return nil
	}
	helper := "Required"
	if !p.required {
		helper = "Optional"
	}
	field := jen.Op("&").Id("v").Dot(p.goName)
	if scalarItems(p.node) {
		if p.node.sens {
			return nil
		}
		rule := e.rule(p.node)
		method, arg := e.scalarCall(p.node.items)
		return jen.Qual(pkgTgimpl, helper+strings.TrimPrefix(method, "Read")+"s").Call(d(), field, rule, arg)
	}
	method, arg := e.scalarCall(p.node)
	if method == "" {
		return nil
	}
	return jen.Qual(pkgTgimpl, helper+strings.TrimPrefix(method, "Read")).Call(d(), field, arg)
}

// scalarItems reports whether the array n is read with one call
// (tgimpl.ReadStrings and the like): its items are read with one call
// each, and it has no keyword but items, minItems and maxItems.
func scalarItems(n *node) bool {
	if n.kind != kindArray || n.nullable || n.nullOf != nil || n.comp.checks() || taggedSite(n) != nil ||
		n.tupled || n.unique || n.enum != nil || n.items == nil {
		return false
	}
	it := n.items
	return plain(it) && oneCall(it)
}

// readScalarArray reads the array n, of which scalarItems holds, into set.
func (e *emitter) readScalarArray(n *node, set setter) []jen.Code {
	rule := e.rule(n)
	method, arg := e.scalarCall(n.items)
	fn := jen.Qual(pkgTgimpl, method+"s")
	if method == "ReadEnum" {
		fn = fn.Types(e.goType(n.items))
	}
	return []jen.Code{jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(fn.Call(d(), rule, arg)), jen.Id("ok")).Block(set.value(jen.Id("x")))}
}

// ruleEnum reports whether the string n's enum is an enum keyword, not
// empty, of strings only: tgimpl.Enum, which lists the values as messages
// do. Any other enum or const is tgimpl.EnumOf, with its phrase.
func ruleEnum(n *node) bool {
	if n.enum == nil || n.enumKw != "enum" || len(n.enum) == 0 || len(n.enumAll) != len(n.enum) {
		return false
	}
	for _, v := range n.enumAll {
		if v.Kind != jsonval.String {
			return false
		}
	}
	return true
}

// collectScalars emits the code of body (a decode method or another
// function that reads values) and then, in one block, the package
// variables of the rules it uses that no earlier function declared.
func (e *emitter) collectScalars(body func()) {
	var used []*node
	outer := e.scalars
	e.scalars = &used
	body()
	e.scalars = outer
	if len(used) == 0 {
		return
	}
	var defs []jen.Code
	for _, s := range used {
		name := e.tm.ruleVars[s]
		e.claim(name, "the rules of "+e.where(s))
		defs = append(defs, jen.Id(name).Op("=").Add(e.scalarRule(s)))
	}
	e.f.Var().Defs(defs...)
	e.f.Line()
}

// declareRule declares the package variable holding n's rule, unless a
// decode method has (collectScalars).
func (e *emitter) declareRule(n *node) {
	n = e.ruleOwner(n)
	if e.ruleDone[n] {
		return
	}
	e.ruleDone[n] = true
	name := e.tm.ruleVars[n]
	e.claim(name, "the rules of "+e.where(n))
	e.f.Var().Id(name).Op("=").Add(e.scalarRule(n))
	e.f.Line()
}

// scalarRule is the tgimpl.Scalar of n.
func (e *emitter) scalarRule(n *node) jen.Code {
	args := []jen.Code{jen.Lit(n.ptr)}
	switch n.kind {
	case kindArray:
		if n.minItems > 0 {
			args = append(args, jen.Qual(pkgTgimpl, "MinItems").Call(jen.Lit(int(n.minItems))))
		}
		if n.maxItems >= 0 {
			args = append(args, jen.Qual(pkgTgimpl, "MaxItems").Call(jen.Lit(int(n.maxItems))))
		}
		return jen.Qual(pkgTgimpl, "NewArray").Call(args...)
	case kindString:
		if n.minLen > 0 {
			args = append(args, jen.Qual(pkgTgimpl, "MinLength").Call(jen.Lit(int(n.minLen))))
		}
		if n.maxLen >= 0 {
			args = append(args, jen.Qual(pkgTgimpl, "MaxLength").Call(jen.Lit(int(n.maxLen))))
		}
		if n.pattern != "" {
			if n.goPattern == n.pattern {
				args = append(args, jen.Qual(pkgTgimpl, "Pattern").Call(goString(n.pattern)))
			} else {
				args = append(args, jen.Qual(pkgTgimpl, "TranslatedPattern").Call(jen.Lit(n.pattern), goString(n.goPattern)))
			}
		}
		if n.format != "" {
			args = append(args, jen.Qual(pkgTgimpl, "Format").Call(jen.Lit(n.format)))
		}
		if ruleEnum(n) {
			var vals []jen.Code
			for _, v := range n.enum {
				vals = append(vals, jen.Lit(v.Str))
			}
			args = append(args, jen.Qual(pkgTgimpl, "Enum").Call(vals...))
		} else if n.enumKw == "const" && n.enum[0].Kind == jsonval.String {
			args = append(args, jen.Qual(pkgTgimpl, "Const").Call(jen.Lit(n.enum[0].Str)))
		} else if n.enum != nil {
			args = append(args, enumOf(n))
		}
	default:
		bound := func(kw string, b *jsonval.Value) {
			if b != nil {
				args = append(args, jen.Qual(pkgTgimpl, upperFirst(kw)).Call(jen.Lit(b.Str)))
			}
		}
		bound("minimum", n.minimum)
		bound("exclusiveMinimum", n.exMin)
		bound("maximum", n.maximum)
		bound("exclusiveMaximum", n.exMax)
		bound("multipleOf", n.multipleOf)
		if n.enum != nil {
			args = append(args, enumOf(n))
		}
	}
	if e.sensitiveNode(n) {
		args = append(args, jen.Qual(pkgTgimpl, "Sensitive"))
	}
	ctor := map[kind]string{kindInt: "NewInt", kindNumber: "NewNumber", kindString: "NewString"}[n.kind]
	return jen.Qual(pkgTgimpl, ctor).Call(args...)
}

// enumOf is the tgimpl.EnumOf of the enum or const of n: the values of
// n's type (an integer's in int64's range) and the phrase messages list
// them with.
func enumOf(n *node) jen.Code {
	phrase := enumPhrase(n.enumAll)
	if n.enumKw == "const" {
		phrase = showValue(n.enum[0])
	}
	args := []jen.Code{jen.Lit(n.enumKw), jen.Lit(phrase)}
	for _, v := range n.enum {
		switch {
		case n.kind == kindString && v.Kind == jsonval.String:
			args = append(args, jen.Lit(v.Str))
		case n.kind == kindNumber && v.Kind == jsonval.Number:
			args = append(args, jen.Lit(v.Str))
		case n.kind == kindInt && v.Kind == jsonval.Number:
			if iv, ok := integerValue(v.Str); ok && iv.IsInt64() {
				args = append(args, jen.Lit(iv.String()))
			}
		}
	}
	return jen.Qual(pkgTgimpl, "EnumOf").Call(args...)
}

// rule is the rule variable of n, declared after the decode method that
// first uses it, or before the code that uses it outside one.
func (e *emitter) rule(n *node) jen.Code {
	n = e.ruleOwner(n)
	switch {
	case e.scalars == nil:
		e.declareRule(n)
	case !e.ruleDone[n]:
		e.ruleDone[n] = true
		*e.scalars = append(*e.scalars, n)
	}
	return jen.Id(e.tm.ruleVars[n])
}

// ruleOwner is the node whose rule n reads: the node a nullable copy
// makes nullable when they share one (assignNames), else n.
func (e *emitter) ruleOwner(n *node) *node {
	if t := n.nullOf; t != nil && e.tm.ruleVars[t] == e.tm.ruleVars[n] {
		return t
	}
	return n
}
