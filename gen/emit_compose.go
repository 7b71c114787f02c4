package gen

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// Emission of compositions (compose.go): per composed node a check
// function on the value's raw bytes, and per branch a trial function that
// decodes the bytes with a fresh Decoder and reports whether the branch
// accepts them, and, for a schema that patternProperties or propertyNames
// applies to one member, a report function that decodes a refused member
// again, reporting its violations at the member's own path. Each is
// written once per node, however many places use it. Trials and checks
// pass on the Decoder that read the bytes, so that one decode remembers
// its nested trials' verdicts and where skipped values end
// (runtime/internal/decode/trials.go): decoding stays linear in the input however
// the unions nest.

func checkFunc(n *node) string { return "check" + n.name }
func trialFunc(n *node) string { return "valid" + n.name }
func namesFunc(n *node) string { return "patternName" + n.name }
func patternPropVar(n *node, i int) string {
	return fmt.Sprintf("%sPatternProp%d", lowerIdent(n.name), i)
}

// withChecks runs n's composition checks on the bytes that code reads.
// A struct is checked by its decode method instead (emitDecodeMethod), so
// that the arguments' root is too; here it is checked only when it is null.
func (e *emitter) withChecks(n *node, set setter, code []jen.Code) []jen.Code {
	if taggedSite(n) != nil {
		return e.decodeTagged(n, set)
	}
	if !n.comp.checks() || n.kind == kindObject && n.hasStruct && !n.nullable {
		return code
	}
	call := jen.Id(checkFunc(n)).Call(d(), jen.Id("raw"))
	if n.kind == kindAny {
		// The bytes are kept once checked, without the members a branch
		// took as absent (tgimpl.Decoder.Kept).
		return []jen.Code{jen.Block(
			jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()),
			dr().Dot("Skip").Call(),
			jen.If(jen.Id("raw").Op(":=").Add(dr().Dot("Capture").Call(jen.Id("start"))), jen.Id("raw").Op("!=").Nil()).Block(
				call, set.value(d().Dot("Kept").Call(jen.Id("raw")))),
		)}
	}
	var run jen.Code = jen.If(jen.Id("raw").Op(":=").Add(dr().Dot("Capture").Call(jen.Id("start"))), jen.Id("raw").Op("!=").Nil()).Block(call)
	if n.kind == kindObject && n.hasStruct {
		run = jen.If(jen.Id("raw").Op(":=").Add(dr().Dot("Capture").Call(jen.Id("start"))), jen.Qual(pkgTgimpl, "KindOf").Call(jen.Id("raw")).Op("==").Add(readKind("Null"))).Block(call)
	}
	body := append([]jen.Code{jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call())}, code...)
	return []jen.Code{jen.Block(append(body, run)...)}
}

// structChecks wraps the member loop of a struct's decode method. A
// merged union (alternatives.go) is checked only when its members broke
// no rule of their own.
func (e *emitter) structChecks(n *node, body []jen.Code) []jen.Code {
	if !n.comp.checks() {
		return body
	}
	out := []jen.Code{jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call())}
	ok := jen.Id("raw").Op("!=").Nil()
	if n.merged {
		out = append(out, jen.Id("before").Op(":=").Add(d().Dot("Violations").Call()))
		ok = ok.Op("&&").Add(d().Dot("Violations").Call()).Op("==").Id("before")
	}
	out = append(out, body...)
	return append(out, jen.If(jen.Id("raw").Op(":=").Add(dr().Dot("Capture").Call(jen.Id("start"))), ok).Block(
		jen.Id(checkFunc(n)).Call(d(), jen.Id("raw"))))
}

// patternDefault lets the member loop of n accept the undeclared members
// that patternProperties covers: their values are checked by the
// composition, and they are not additional properties.
func (e *emitter) patternDefault(n *node, dflt []jen.Code) []jen.Code {
	if n.comp == nil || len(n.comp.patterns) == 0 {
		return dflt
	}
	return []jen.Code{jen.If(jen.Id(namesFunc(n.comp.owner)).Call(jen.Id("name"))).Block(
		jen.If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(dr().Dot("Skip").Call()),
	).Else().Block(dflt...)}
}

// declareComposition writes the checks of n and the trials of its branches,
// and declares the types the branches use.
func (e *emitter) declareComposition(n *node) {
	c := n.comp
	if c == nil {
		return
	}
	if t := taggedSite(n); t != nil {
		e.declareTagged(n, t)
		return
	}
	if len(c.patterns) > 0 && !c.matchOnly {
		e.declarePatternNames(n)
	}
	if !c.checks() {
		return
	}
	// Checking lets the decode tell that checks nest (a recursive object
	// checked at every level) and remember what they skip.
	body := []jen.Code{d().Dot("Checking").Call(jen.Id("raw"))}
	if c.ref != nil {
		body = append(body, jen.If(jen.Op("!").Add(e.trial(c.ref.n))).Block(d().Dot("Ref").Call(jen.Lit(c.ref.sp))))
	}
	for i, b := range c.allOf {
		body = append(body, jen.If(jen.Op("!").Add(e.trial(b.n))).Block(d().Dot("AllOf").Call(jen.Lit(b.sp), jen.Lit(i))))
	}
	// The unevaluated checks need the anyOf and oneOf branches tried, and
	// if: the outcomes are kept for them rather than tried twice. An anyOf
	// branch after one that holds and evaluates everything they look at
	// (evaluatesAll) is not tried: it would add nothing.
	var tried kept
	keep := func(i int, list []branch, tries []jen.Code) []jen.Code {
		if !c.unevaluatedChecks() {
			return tries
		}
		var covered []jen.Code
		for j, t := range tries {
			v := fmt.Sprintf("%s%d", []string{"anyOf", "oneOf"}[i], j)
			for _, g := range covered {
				t = jen.Op("!").Add(g).Op("&&").Add(t)
			}
			body = append(body, jen.Id(v).Op(":=").Add(t))
			tries[j] = jen.Id(v)
			if i == 0 && evaluatesAll(c, list[j].n) {
				covered = append(covered, jen.Id(v))
			}
		}
		tried.tries[i] = tries
		return tries
	}
	if len(c.anyOf) > 0 {
		mask, tries := e.tries(c.anyOf, "anyOfMask")
		body = append(body, mask...)
		tries = keep(0, c.anyOf, tries)
		var any jen.Code
		for i, t := range tries {
			if i == 0 {
				any = t
			} else {
				any = jen.Add(any).Op("||").Add(t)
			}
		}
		body = append(body, jen.If(jen.Op("!").Parens(any)).Block(d().Dot("AnyOf").Call(jen.Lit(n.ptr+"/anyOf"))))
	}
	if len(c.oneOf) > 0 {
		mask, args := e.tries(c.oneOf, "oneOfMask")
		body = append(body, mask...)
		args = keep(1, c.oneOf, args)
		body = append(body, jen.If(
			jen.List(jen.Id("first"), jen.Id("second")).Op(":=").Qual(pkgTgimpl, "FirstTwo").Call(args...),
			jen.Id("first").Op("<").Lit(0).Op("||").Id("second").Op(">=").Lit(0),
		).Block(d().Dot("OneOf").Call(jen.Lit(n.ptr+"/oneOf"), jen.Id("first"), jen.Id("second"))))
	}
	if c.not != nil {
		body = append(body, jen.If(e.trial(c.not.n)).Block(d().Dot("Not").Call(jen.Lit(c.not.sp))))
	}
	if c.ifB != nil && (c.thenB != nil || c.elseB != nil) {
		cond := e.trial(c.ifB.n)
		if c.unevaluatedChecks() {
			body = append(body, jen.Id("ifOK").Op(":=").Add(cond))
			cond = jen.Id("ifOK")
			tried.ifOK = cond
		}
		st := jen.If(cond)
		if c.thenB != nil {
			st.Block(jen.If(jen.Op("!").Add(e.trial(c.thenB.n))).Block(d().Dot("IfThenElse").Call(jen.Lit(c.thenB.sp), jen.Lit("then"))))
		} else {
			st.Block()
		}
		if c.elseB != nil {
			st.Else().If(jen.Op("!").Add(e.trial(c.elseB.n))).Block(d().Dot("IfThenElse").Call(jen.Lit(c.elseB.sp), jen.Lit("else")))
		}
		body = append(body, st)
	}
	if c.objectChecks() {
		body = append(body, jen.If(jen.Qual(pkgTgimpl, "KindOf").Call(jen.Id("raw")).Op("==").Add(readKind("Object"))).Block(e.objectChecks(n)...))
	}
	if c.contains != nil {
		body = append(body, jen.If(jen.Qual(pkgTgimpl, "KindOf").Call(jen.Id("raw")).Op("==").Add(readKind("Array"))).Block(e.containsCheck(n)...))
	}
	body = append(body, e.unevaluatedChecks(n, tried)...)
	name := checkFunc(n)
	e.claim(name, "the composition checks of "+e.where(n))
	e.doc(fmt.Sprintf("%s checks the keywords of %s that apply to the whole value on raw, the bytes just read.", name, e.where(n)))
	e.f.Func().Id(name).Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder"), jen.Id("raw").Index().Byte()).Block(body...)
	e.f.Line()
}

func (e *emitter) objectChecks(n *node) []jen.Code {
	c := n.comp
	var loop, out []jen.Code
	if c.minProps >= 0 || c.maxProps >= 0 {
		out = append(out, jen.Id("count").Op(":=").Lit(0))
		loop = append(loop, jen.Id("count").Op("++"))
	}
	if c.propNames != nil {
		loop = append(loop, jen.If(jen.Op("!").Add(e.tryOn(c.propNames.n, jen.Qual(pkgTgimpl, "NameJSON").Call(jen.Id("name"))))).Block(
			d().Dot("ReportPropertyName").Call(jen.Lit(c.propNames.sp), jen.Id("name"), jen.Id(e.reportName(c.propNames.n)))))
	}
	for i, p := range c.patterns {
		loop = append(loop, jen.If(jen.Id(patternPropVar(n, i)).Dot("Match").Call(jen.Index().Byte().Parens(jen.Id("name"))).Op("&&").Op("!").Add(e.tryOn(p.b.n, jen.Id("value")))).Block(
			d().Dot("ReportPatternProperty").Call(jen.Lit(p.sp), jen.Id("name"), jen.Lit(p.pattern), jen.Id("value"), jen.Id(e.reportName(p.b.n)))))
	}
	if len(loop) > 0 {
		members := jen.Range().Id("d").Dot("Members").Call(jen.Id("raw"))
		switch {
		case len(c.patterns) > 0:
			members = jen.List(jen.Id("name"), jen.Id("value")).Op(":=").Add(members)
		case c.propNames != nil:
			members = jen.Id("name").Op(":=").Add(members)
		}
		out = append(out, jen.For(members).Block(loop...))
	}
	if c.minProps >= 0 {
		out = append(out, jen.If(jen.Id("count").Op("<").Add(intLit(c.minProps))).Block(d().Dot("MinProperties").Call(jen.Lit(n.ptr+"/minProperties"), intLit(c.minProps), jen.Id("count"))))
	}
	if c.maxProps >= 0 {
		out = append(out, jen.If(jen.Id("count").Op(">").Add(intLit(c.maxProps))).Block(d().Dot("MaxProperties").Call(jen.Lit(n.ptr+"/maxProperties"), intLit(c.maxProps), jen.Id("count"))))
	}
	for _, dr := range c.depRequired {
		var checks []jen.Code
		for _, dep := range dr.deps {
			checks = append(checks, jen.If(jen.Op("!").Id("d").Dot("Has").Call(jen.Id("raw"), jen.Lit(dep))).Block(d().Dot("DependentRequired").Call(jen.Lit(dr.sp), jen.Lit(dr.name), jen.Lit(dep))))
		}
		if len(checks) > 0 {
			out = append(out, jen.If(d().Dot("Has").Call(jen.Id("raw"), jen.Lit(dr.name))).Block(checks...))
		}
	}
	for _, ds := range c.depSchemas {
		out = append(out, jen.If(d().Dot("Has").Call(jen.Id("raw"), jen.Lit(ds.name)).Op("&&").Op("!").Add(e.trial(ds.b.n))).Block(
			d().Dot("DependentSchema").Call(jen.Lit(ds.b.sp), jen.Lit(ds.name))))
	}
	return out
}

func (e *emitter) containsCheck(n *node) []jen.Code {
	c := n.comp
	return []jen.Code{
		jen.Id("count").Op(":=").Lit(0),
		jen.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Id("d").Dot("Items").Call(jen.Id("raw"))).Block(
			jen.If(e.tryOn(c.contains.n, jen.Id("item"))).Block(jen.Id("count").Op("++"))),
		jen.If(jen.Id("count").Op("<").Add(intLit(c.minContains)).Op("||").Lit(c.maxContains >= 0).Op("&&").Id("count").Op(">").Add(intLit(c.maxContains))).Block(
			d().Dot("Contains").Call(jen.Lit(c.contains.sp), intLit(c.minContains), intLit(c.maxContains), jen.Id("count"))),
	}
}

// declarePatternNames writes the patterns of patternProperties and the
// function that tells whether a member name matches one.
func (e *emitter) declarePatternNames(n *node) {
	var match jen.Code
	for i, p := range n.comp.patterns {
		v := patternPropVar(n, i)
		e.claim(v, "a pattern of the patternProperties of "+e.where(n))
		e.doc(fmt.Sprintf("%s is pattern %d of the patternProperties of %s.", v, i, e.where(n)))
		e.f.Var().Id(v).Op("=").Qual(pkgTgimpl, "MustPattern").Call(goString(p.goPattern))
		m := jen.Id(v).Dot("Match").Call(jen.Id("name"))
		if i == 0 {
			match = m
		} else {
			match = jen.Add(match).Op("||").Add(m)
		}
		e.declare(p.b.n)
	}
	fn := namesFunc(n)
	e.claim(fn, "the patternProperties names of "+e.where(n))
	e.doc(fmt.Sprintf("%s reports whether a member name of %s matches a pattern of its patternProperties.", fn, e.where(n)))
	e.f.Func().Id(fn).Params(jen.Id("name").Index().Byte()).Bool().Block(jen.Return(match))
	e.f.Line()
}

// trial is the call that tries n on raw.
func (e *emitter) trial(n *node) *jen.Statement { return e.tryOn(n, jen.Id("raw")) }

// tryOn is the call that tries n on the value x, which the Decoder d read:
// the trial takes d's NullAsAbsent and tells d what it took as absent.
func (e *emitter) tryOn(n *node, x jen.Code) *jen.Statement {
	return jen.Id(e.trialName(n)).Call(d(), x)
}

// trialName declares, once, the trial function of n and returns its name.
func (e *emitter) trialName(n *node) string {
	name := trialFunc(n)
	if e.trials == nil {
		e.trials = map[*node]bool{}
	}
	if e.trials[n] {
		return name
	}
	e.trials[n] = true
	if str, others, ok := stringTrial(n); ok {
		e.claim(name, "the trial of "+e.where(n))
		e.doc(fmt.Sprintf("%s reports whether raw, a JSON value already read, satisfies %s.", name, e.where(n)))
		e.f.Func().Id(name).Params(jen.Id("_").Op("*").Qual(pkgTgimpl, "Decoder"), jen.Id("raw").Index().Byte()).Bool().Block(
			jen.Return(jen.Qual(pkgTgimpl, "StringTrial").Call(jen.Id("raw"), jen.Id(e.tm.ruleVars[e.ruleOwner(str)]), jen.Lit(others))),
		)
		e.f.Line()
		e.declareRule(str)
		return name
	}
	e.declare(n)
	e.claim(name, "the trial of "+e.where(n))
	e.doc(fmt.Sprintf("%s reports whether raw, a JSON value that p read, satisfies %s. Inside another trial, its verdict on a value is remembered (tgimpl.Decoder.Tried).", name, e.where(n)))
	e.collectScalars(func() {
		body := []jen.Code{
			jen.If(jen.List(jen.Id("ok"), jen.Id("known")).Op(":=").Id("p").Dot("Tried").Call(jen.Lit(name), jen.Id("raw")), jen.Id("known")).Block(jen.Return(jen.Id("ok"))),
			jen.Var().Id("dec").Qual(pkgTgimpl, "Decoder"),
			jen.Id("d").Op(":=").Op("&").Id("dec"),
			d().Dot("TrialOf").Call(jen.Id("p"), jen.Id("raw")),
		}
		body = append(body, e.decodeValue(n, discard)...)
		body = append(body, jen.Return(jen.Id("p").Dot("Remember").Call(jen.Lit(name), jen.Id("raw"), d())))
		e.f.Func().Id(name).Params(jen.Id("p").Op("*").Qual(pkgTgimpl, "Decoder"), jen.Id("raw").Index().Byte()).Bool().Block(body...)
		e.f.Line()
	})
	return name
}

func reportFunc(n *node) string { return "report" + n.name }

// reportName declares, once, the report function of n and returns its
// name: it decodes a value as n does, recording its violations, for a
// member whose trial failed to be reported at its own path
// (tgimpl.Decoder.ReportPatternProperty, ReportPropertyName).
func (e *emitter) reportName(n *node) string {
	name := reportFunc(n)
	if e.reports == nil {
		e.reports = map[*node]bool{}
	}
	if e.reports[n] {
		return name
	}
	e.reports[n] = true
	e.declare(n)
	e.claim(name, "the report of "+e.where(n))
	e.doc(fmt.Sprintf("%s decodes a value already read as %s does, recording its violations in d.", name, e.where(n)))
	e.collectScalars(func() {
		e.f.Func().Id(name).Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")).Block(e.decodeValue(n, discard)...)
		e.f.Line()
	})
	return name
}

// stringTrial returns, for a branch n whose keywords apply to strings
// only, the string schema whose rule tries it (tgimpl.StringTrial) and
// whether a value of another type satisfies n; ok is false for any other
// branch, tried with a Decoder.
func stringTrial(n *node) (str *node, others, ok bool) {
	switch {
	case n.kind == kindString && plain(n) && n.enum == nil:
		return n, false, true
	case n.kind == kindUnion && n.onlyStrings && !n.nullable && !n.comp.checks() && taggedSite(n) == nil:
		for _, v := range n.variants {
			if v.kind == kindString && plain(v) && v.enum == nil {
				return v, true, true
			}
		}
	}
	return nil, false, false
}

func seenFunc(n *node) string { return "seen" + n.name }

// kept holds the outcomes of the trials that a check keeps for its
// unevaluated checks (see declareComposition): of its anyOf and oneOf
// branches, and of its if.
type kept struct {
	tries [2][]jen.Code
	ifOK  jen.Code
}

// evaluatesAll reports whether branch b, where it holds, evaluates every
// member and item that the unevaluated checks of c look at.
func evaluatesAll(c *composition, b *node) bool {
	bc := b.comp
	if !bc.evaluates() {
		return false
	}
	names := bc.unevalProps != nil || bc.seen.allNames || c.unevalProps == nil || c.unevalProps.n.kind == kindAny
	items := bc.unevalItems != nil || bc.seen.allItems || c.unevalItems == nil || c.unevalItems.n.kind == kindAny
	return names && items
}

// unevaluatedChecks checks unevaluatedProperties and unevaluatedItems of
// n: what n and the branches that hold evaluate is collected first (see
// seenName; with the outcomes the check kept, tried, seenBody inline),
// then every other member or item must match the schema.
func (e *emitter) unevaluatedChecks(n *node, tried kept) []jen.Code {
	c := n.comp
	var out []jen.Code
	collect := func() []jen.Code {
		if tried.tries[0] == nil && tried.tries[1] == nil && tried.ifOK == nil {
			return []jen.Code{jen.Id("s").Op(":=").Op("&").Qual(pkgTgimpl, "Seen").Values(), jen.Id(e.seenName(n)).Call(d(), jen.Id("raw"), jen.Id("s"))}
		}
		return append([]jen.Code{jen.Id("s").Op(":=").Op("&").Qual(pkgTgimpl, "Seen").Values()}, e.seenBody(n, tried)...)
	}
	// A member or item the collected branches leave unevaluated must match
	// the schema (never, for false: the check records it without a trial).
	unevaluated := func(u *branch, x jen.Code, record jen.Code) jen.Code {
		if u.n.kind == kindNever {
			return record
		}
		return jen.If(jen.Op("!").Add(e.tryOn(u.n, x))).Block(record)
	}
	if u := c.unevalProps; u != nil && u.n.kind != kindAny {
		vars := jen.List(jen.Id("name"), jen.Id("value"))
		if u.n.kind == kindNever {
			vars = jen.Id("name")
		}
		body := append(collect(), jen.For(vars.Op(":=").Range().Id("d").Dot("UnevaluatedMembers").Call(jen.Id("s"), jen.Id("raw"))).Block(
			unevaluated(u, jen.Id("value"), d().Dot("Unevaluated").Call(jen.Lit(u.sp), jen.Id("name")))))
		out = append(out, jen.If(jen.Qual(pkgTgimpl, "KindOf").Call(jen.Id("raw")).Op("==").Add(readKind("Object"))).Block(body...))
	}
	if u := c.unevalItems; u != nil && u.n.kind != kindAny {
		vars := jen.List(jen.Id("i"), jen.Id("item"))
		if u.n.kind == kindNever {
			vars = jen.Id("i")
		}
		body := append(collect(), jen.For(vars.Op(":=").Range().Id("d").Dot("UnevaluatedItems").Call(jen.Id("s"), jen.Id("raw"))).Block(
			unevaluated(u, jen.Id("item"), d().Dot("UnevaluatedItem").Call(jen.Lit(u.sp), jen.Id("i")))))
		out = append(out, jen.If(jen.Qual(pkgTgimpl, "KindOf").Call(jen.Id("raw")).Op("==").Add(readKind("Array"))).Block(body...))
	}
	return out
}

// seenName declares, once, the function that notes what n evaluates of
// raw, a value n holds for, and returns its name. n's own unevaluated
// keywords are left out: the caller adds them (seenCall).
func (e *emitter) seenName(n *node) string {
	name := seenFunc(n)
	if e.seens == nil {
		e.seens = map[*node]bool{}
	}
	if e.seens[n] {
		return name
	}
	e.seens[n] = true
	body := e.seenBody(n, kept{})
	e.claim(name, "the evaluated members and items of "+e.where(n))
	e.doc(fmt.Sprintf("%s notes in s the members and items of raw, a value d read, that %s evaluates, for unevaluatedProperties and unevaluatedItems.", name, e.where(n)))
	e.f.Func().Id(name).Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder"), jen.Id("raw").Index().Byte(), jen.Id("s").Op("*").Qual(pkgTgimpl, "Seen")).Block(body...)
	e.f.Line()
	return name
}

// seenBody is the code that notes in s, a *tgimpl.Seen, what n evaluates
// of raw. tried holds, when the caller has computed them, the outcomes of
// the trials of n's anyOf and oneOf branches and of its if (see
// declareComposition); otherwise they are tried here.
func (e *emitter) seenBody(n *node, tried kept) []jen.Code {
	c := n.comp
	var body []jen.Code
	// Everything evaluated makes the names and the prefix no matter.
	if len(c.seen.names) > 0 && !c.seen.allNames {
		var names []jen.Code
		for _, nm := range c.seen.names {
			names = append(names, jen.Lit(nm))
		}
		body = append(body, jen.Id("s").Dot("Names").Call(names...))
	}
	if c.seen.allNames {
		body = append(body, jen.Id("s").Dot("AllNames").Call())
	}
	if len(c.patterns) > 0 {
		body = append(body, jen.For(jen.Id("name").Op(":=").Range().Id("d").Dot("Members").Call(jen.Id("raw"))).Block(
			jen.If(jen.Id(namesFunc(n)).Call(jen.Index().Byte().Parens(jen.Id("name")))).Block(jen.Id("s").Dot("Name").Call(jen.Id("name")))))
	}
	if c.seen.prefix > 0 && !c.seen.allItems {
		body = append(body, jen.Id("s").Dot("Items").Call(jen.Lit(c.seen.prefix)))
	}
	if c.seen.allItems {
		body = append(body, jen.Id("s").Dot("AllItems").Call())
	}
	if c.contains != nil {
		body = append(body, jen.For(jen.List(jen.Id("i"), jen.Id("item")).Op(":=").Range().Id("d").Dot("Items").Call(jen.Id("raw"))).Block(
			jen.If(e.tryOn(c.contains.n, jen.Id("item"))).Block(jen.Id("s").Dot("Item").Call(jen.Id("i")))))
	}
	if c.ref != nil {
		body = append(body, e.seenCall(c.ref.n)...)
	}
	for _, b := range c.allOf {
		body = append(body, e.seenCall(b.n)...)
	}
	for i, list := range [][]branch{c.anyOf, c.oneOf} {
		mask, tries := []jen.Code(nil), tried.tries[i]
		if tries == nil {
			mask, tries = e.tries(list, []string{"anyOfMask", "oneOfMask"}[i])
		}
		var seen []jen.Code
		for j, b := range list {
			if call := e.seenCall(b.n); len(call) > 0 {
				seen = append(seen, jen.If(tries[j]).Block(call...))
			}
		}
		if len(seen) > 0 {
			body = append(body, mask...)
			body = append(body, seen...)
		}
	}
	if c.ifB != nil {
		cond := tried.ifOK
		if cond == nil {
			cond = e.trial(c.ifB.n)
		}
		st := jen.If(cond).Block(append(e.seenCall(c.ifB.n), e.seenCallOf(c.thenB)...)...)
		if c.elseB != nil {
			st.Else().Block(e.seenCall(c.elseB.n)...)
		}
		body = append(body, st)
	}
	for _, ds := range c.depSchemas {
		if call := e.seenCall(ds.b.n); len(call) > 0 {
			body = append(body, jen.If(d().Dot("Has").Call(jen.Id("raw"), jen.Lit(ds.name))).Block(call...))
		}
	}
	return body
}

func (e *emitter) seenCallOf(b *branch) []jen.Code {
	if b == nil {
		return nil
	}
	return e.seenCall(b.n)
}

// seenCall notes what branch n evaluates, its own unevaluated keywords
// included (where n holds, they evaluate everything else).
func (e *emitter) seenCall(n *node) []jen.Code {
	c := n.comp
	if !c.evaluates() {
		return nil
	}
	var out []jen.Code
	if c.unevalProps != nil {
		out = append(out, jen.Id("s").Dot("AllNames").Call())
	}
	if c.unevalItems != nil {
		out = append(out, jen.Id("s").Dot("AllItems").Call())
	}
	if c.unevalProps == nil || c.unevalItems == nil {
		out = append(out, jen.Id(e.seenName(n)).Call(d(), jen.Id("raw"), jen.Id("s")))
	}
	return out
}

// tries returns the trial of each branch of a oneOf or anyOf. When the
// branches are a tagged union (discriminator) the code first reads the tag
// into the variable mask, and each trial runs only for the branch the tag
// names: the others cannot match. Otherwise every branch is tried.
func (e *emitter) tries(branches []branch, mask string) (pre []jen.Code, tries []jen.Code) {
	name, values, ok := discriminator(branches)
	for i, b := range branches {
		t := e.trial(b.n)
		if ok {
			t = jen.Id(mask).Op("&").Id(fmt.Sprintf("(1 << %d)", i)).Op("!=").Lit(0).Op("&&").Add(t)
		}
		tries = append(tries, t)
	}
	if !ok {
		return nil, tries
	}
	args := []jen.Code{jen.Id("raw"), jen.Lit(name)}
	for _, v := range values {
		args = append(args, jen.Lit(v))
	}
	return []jen.Code{jen.Id(mask).Op(":=").Qual(pkgTgimpl, "Candidates").Call(args...)}, tries
}

// intLit is an untyped integer constant.
func intLit(v int64) jen.Code { return jen.Id(strconv.FormatInt(v, 10)) }
