package gen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"
)

// ---- declarations ----

// declare emits the named types reachable from n, once each.
func (e *emitter) declare(n *node) {
	if n == nil || e.done[n] {
		return
	}
	e.done[n] = true
	if e.tm.foreign[n] {
		return // another tool's file declares it, and what it holds
	}
	if n.nullOf != nil {
		e.declare(n.nullOf)
		return
	}
	e.declareComposition(n)
	switch n.kind {
	case kindString:
		if n.goName != "" {
			e.declareEnum(n)
		}
	case kindObject:
		if n.hasStruct {
			e.declareStruct(n)
		}
		for _, p := range n.props {
			e.declare(p.node)
		}
		e.declare(n.addlNode)
	case kindArray:
		for _, p := range n.prefix {
			e.declare(p)
		}
		e.declare(n.items)
	case kindUnion:
		e.declareUnion(n)
		for _, v := range n.variants {
			e.declare(v)
		}
	}
}

func (e *emitter) declareEnum(n *node) {
	e.claim(n.goName, "the enum type of "+e.where(n))
	doc := fmt.Sprintf("%s is one of the values %s allows.", n.goName, e.where(n))
	if n.desc != "" {
		doc = fmt.Sprintf("%s is %s", n.goName, lowerFirst(n.desc))
	}
	e.doc(doc)
	e.f.Type().Id(n.goName).String()
	e.f.Line()
	var consts []jen.Code
	for _, v := range n.enum {
		if v.Kind != jsonval.String {
			continue
		}
		c := n.enumConsts[v.Str]
		e.claim(c, fmt.Sprintf("the enum value %q of %s", v.Str, e.where(n)))
		consts = append(consts, jen.Id(c).Id(n.goName).Op("=").Lit(v.Str))
	}
	e.f.Const().Defs(consts...)
	e.f.Line()
}

func (e *emitter) declareStruct(n *node) {
	e.claim(n.goName, "the object type of "+e.where(n))
	doc := n.desc
	if n == e.tm.root {
		doc = fmt.Sprintf("%s are the arguments of the %s tool.", n.goName, e.tm.t.Name)
		if e.tm.t.Description != "" {
			doc = fmt.Sprintf("%s are the arguments of the %s tool, which %sDescription describes.", n.goName, e.tm.t.Name, e.tm.goName)
		}
	} else if n == e.tm.result {
		doc = e.resultDoc(n, n.goName)
	} else if doc == "" {
		doc = fmt.Sprintf("%s is the object at %s.", n.goName, e.where(n))
	} else {
		doc = n.goName + " is " + lowerFirst(doc)
	}
	if n.indexNote != "" {
		doc += "\n\n" + n.indexNote
	}
	e.doc(doc)
	// The struct's fields and methods share one set of names.
	seenField := reservedFields(n)
	for _, p := range n.props {
		if _, ok := e.defaultLiteral(p); ok {
			seenField[p.goName+"OrDefault"] = "the default accessor of member " + strconv.Quote(p.name)
		}
	}
	var fields []jen.Code
	for _, p := range n.props {
		if prev, dup := seenField[p.goName]; dup {
			e.errs = append(e.errs, &Error{File: e.tm.t.File, Pointer: e.tm.t.Pointer, Keyword: "properties", Message: fmt.Sprintf("member %q of %s maps to the Go name %s, which %s already has; set x-toolgate goName on it", p.name, e.where(n), p.goName, describeOwner(prev))})
			continue
		}
		seenField[p.goName] = "member " + strconv.Quote(p.name)
		var comment string
		if p.node.desc != "" {
			comment = p.goName + " is " + lowerFirst(p.node.desc)
		}
		if p.node.kind == kindNever {
			comment = strings.TrimSpace(comment + "\n\nNo value is accepted: no value satisfies the member's schema, so it can only be left out.")
		}
		if _, ok := e.defaultLiteral(p); ok {
			comment = strings.TrimSpace(comment + fmt.Sprintf("\n\nDefault %s (see %sOrDefault); nothing is filled in by decoding.", p.node.def.Marshal(), p.goName))
		}
		field := jen.Id(p.goName).Add(e.fieldType(p))
		if tagSafe(p.name) {
			field.Tag(map[string]string{"json": p.name})
		}
		fields = append(fields, comments(comment)...)
		fields = append(fields, field)
	}
	switch {
	case n.keepPatterned:
		fields = append(fields, jen.Comment("AdditionalProperties holds the members neither declared in properties nor covered by patternProperties."))
		fields = append(fields, jen.Id("AdditionalProperties").Map(jen.String()).Add(e.elemType(n.addlNode)).Tag(map[string]string{"json": "-"}))
		fields = append(fields, jen.Comment("PatternProperties holds the members patternProperties covers that properties does not declare, each as its validated JSON."))
		fields = append(fields, jen.Id("PatternProperties").Map(jen.String()).Qual(pkgJSON, "RawMessage").Tag(map[string]string{"json": "-"}))
	case n.keepsUndeclared():
		fields = append(fields, jen.Comment("AdditionalProperties holds the members not declared in properties."))
		fields = append(fields, jen.Id("AdditionalProperties").Map(jen.String()).Add(e.elemType(n.addlNode)).Tag(map[string]string{"json": "-"}))
	}
	e.f.Type().Id(n.goName).Struct(fields...)
	e.f.Line()
	if n != e.tm.root {
		e.emitNestedUnmarshal(n)
	}
	e.emitDecodeMethod(n)
	e.emitAppendMethod(n)
	e.emitDefaults(n)
}

// describeOwner phrases who holds a Go name for a collision message.
func describeOwner(owner string) string {
	if strings.HasPrefix(owner, "member ") {
		return owner
	}
	return owner + " of the struct"
}

// tagSafe reports whether a member name can stand in a json struct tag.
func tagSafe(s string) bool {
	for _, r := range s {
		if r < 0x20 || unsafeRune(r) || r == '"' || r == '\\' || r == '`' || r == ',' || r == utf8.RuneError {
			return false
		}
	}
	return true
}
