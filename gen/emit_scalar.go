package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// ---- scalar members read with one call ----

// A struct's decode method reads a boolean, integer, number or string
// member with one call of the runtime (ReadBool, ReadInt, ReadNumber,
// ReadString, ReadEnum), which checks the type and every keyword of the
// schema; the keywords are a package variable, a tgimpl.Scalar made from
// the schema once (declared after the decode method). An object or array
// is read after one call that checks its type (AtObject, AtArray).
// Everything else — a nullable or composed value, an integer or number
// enum, a value whose messages must hide it where the schema does not say
// so — is decoded by the code decodeValue pastes.

// hasScalarRule reports whether n is read with a tgimpl.Scalar: an
// integer or number without enum, or a string, that is neither nullable nor
// composed.
func hasScalarRule(n *node) bool {
	switch {
	case n.nullable || n.nullOf != nil || n.comp.checks() || taggedSite(n) != nil:
		return false
	case n.kind == kindString:
		return true
	case n.kind == kindInt, n.kind == kindNumber:
		return n.enum == nil
	}
	return false
}

// readScalar returns the code that reads n with one runtime call into set
// (for an object or array: that checks its type before it is read),
// or nil when n is not read that way here: outside a struct's decode
// method, for a value only checked, for a member that takes null as
// absent (memberLoop checks that first) or for a value that is sensitive
// only where it is used.
func (e *emitter) readScalar(n *node, set setter) []jen.Code {
	if e.scalars == nil || set.discard || set.nullAbsent || e.sensitive && !e.ruleSensitive(n) {
		return nil
	}
	plain := !n.nullable && !n.comp.checks() && taggedSite(n) == nil
	if scalarItems(n) && !n.sens && !e.sensitive {
		return e.readScalarArray(n, set)
	}
	if (n.kind == kindObject || n.kind == kindArray) && plain && !n.sens && !e.sensitive {
		at := map[kind]string{kindObject: "AtObject", kindArray: "AtArray"}[n.kind]
		return []jen.Code{jen.If(d().Dot(at).Call(jen.Lit(typePtr(n)))).Block(e.decodeKind(n, set)...)}
	}
	method, arg := e.scalarCall(n)
	switch {
	case method == "":
		return nil
	case method == "ReadStringBytes":
		return []jen.Code{jen.If(jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Add(d().Dot(method).Call(arg)), jen.Id("ok")).Block(e.stringEnum(n, set))}
	}
	x := jen.Id("x")
	if method == "ReadEnum" && n.goName != "" {
		x = jen.Id(n.goName).Call(jen.Id("x"))
	}
	return []jen.Code{jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(d().Dot(method).Call(arg)), jen.Id("ok")).Block(set.value(x))}
}

// scalarCall names the Decoder method that reads the boolean, integer,
// number or string n with one call (ReadBool, ReadInt, ReadNumber,
// ReadEnum, ReadString, or ReadStringBytes for an enum the caller checks)
// and its argument: the type keyword's pointer for a boolean, otherwise
// the rule, declared after the decode method. method is "" when n is not
// read so.
func (e *emitter) scalarCall(n *node) (method string, arg jen.Code) {
	if plainBool(n) {
		return "ReadBool", jen.Lit(typePtr(n))
	}
	if !hasScalarRule(n) {
		return "", nil
	}
	rule := e.rule(n)
	switch {
	case n.kind == kindInt:
		return "ReadInt", rule
	case n.kind == kindNumber:
		return "ReadNumber", rule
	case ruleEnum(n):
		return "ReadEnum", rule
	case n.enum != nil:
		return "ReadStringBytes", rule
	}
	return "ReadString", rule
}

// memberRead returns the one call that reads the scalar member p into its
// field (tgimpl.RequiredString, tgimpl.OptionalEnum, ...), a null that
// means absent included, or nil when p is not read so.
func (e *emitter) memberRead(p *prop) jen.Code {
	if e.scalars == nil || p.node.nullable || e.sensitive && !e.ruleSensitive(p.node) {
		return nil
	}
	helper := "Required"
	if !p.required {
		helper = "Optional"
	}
	field := jen.Op("&").Id("v").Dot(p.goName)
	if scalarItems(p.node) {
		if p.node.sens || e.sensitive {
			return nil
		}
		rule := e.rule(p.node)
		method, arg := e.scalarCall(p.node.items)
		return jen.Qual(pkgTgimpl, helper+strings.TrimPrefix(method, "Read")+"s").Call(d(), field, rule, arg)
	}
	method, arg := e.scalarCall(p.node)
	if method == "" || method == "ReadStringBytes" {
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
	switch {
	case it.kind == kindBool:
		return plainBool(it)
	case it.kind == kindString && it.enum != nil:
		return hasScalarRule(it) && ruleEnum(it)
	}
	return hasScalarRule(it)
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

// ruleEnum reports whether the string n's enum is checked by its rule
// (ReadEnum): an enum keyword, not empty, of strings only. Any other enum
// or const is a switch on the bytes (stringEnum).
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

// ruleSensitive reports whether the messages of n's rule hide its value:
// n, or the whole tool, is sensitive.
func (e *emitter) ruleSensitive(n *node) bool { return n.sens || e.tm.t.Meta.Sensitive }

// collectScalars emits the code of body (a decode method) and then the
// package variables of the scalar rules it uses that no earlier method
// declared, in one block named after the struct.
func (e *emitter) collectScalars(n *node, body func()) {
	var used []*node
	e.scalars = &used
	body()
	e.scalars = nil
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
	}
	if e.ruleSensitive(n) {
		args = append(args, jen.Qual(pkgTgimpl, "Sensitive"))
	}
	ctor := map[kind]string{kindInt: "NewInt", kindNumber: "NewNumber", kindString: "NewString"}[n.kind]
	return jen.Qual(pkgTgimpl, ctor).Call(args...)
}

// plainBool reports whether n is a boolean read with Decoder.ReadBool: not
// nullable, composed, tagged or an enum.
func plainBool(n *node) bool {
	return n.kind == kindBool && !n.nullable && !n.comp.checks() && taggedSite(n) == nil && n.enum == nil
}

// rule is the rule variable of n, declared after the decode method that
// first uses it.
func (e *emitter) rule(n *node) jen.Code {
	if !e.ruleDone[n] {
		e.ruleDone[n] = true
		*e.scalars = append(*e.scalars, n)
	}
	return jen.Id(e.tm.ruleVars[n])
}
