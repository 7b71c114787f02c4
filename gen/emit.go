package gen

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"

	"github.com/dave/jennifer/jen"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/tgimpl"
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
	// sensitive is set while the value of a member marked sensitive where
	// it is used (beside a $ref, say) is emitted: messages do not echo it.
	sensitive bool
	// done marks the named nodes whose declarations have been emitted.
	done map[*node]bool
	// trials marks the nodes whose trial function has been emitted (emit_compose.go).
	trials map[*node]bool
	// seens marks the nodes whose evaluated-members function has been emitted.
	seens map[*node]bool
	// closedDone marks the branch structs whose decodeClosed method has been emitted (tagged.go).
	closedDone map[*node]bool
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

// ---- declarations ----

// declare emits the named types reachable from n, once each.
func (e *emitter) declare(n *node) {
	if n == nil || e.done[n] {
		return
	}
	e.done[n] = true
	if n.nullOf != nil {
		e.declare(n.nullOf)
		if decodeMethod(n) != "decode" {
			e.declareClosedDecode(n.nullOf, n.addlPtr)
		}
		return
	}
	e.declareComposition(n)
	switch n.kind {
	case kindString:
		if n.goName != "" {
			e.declareEnum(n)
		}
		if n.pattern != "" {
			e.declarePattern(n)
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

func (e *emitter) declarePattern(n *node) {
	name := e.tm.patternVars[n]
	e.claim(name, "the pattern of "+e.where(n))
	e.doc(fmt.Sprintf("%s is the pattern of %s.", name, e.where(n)))
	e.f.Var().Id(name).Op("=").Qual(pkgTgimpl, "MustPattern").Call(goString(n.goPattern))
	e.f.Line()
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
	e.doc(fmt.Sprintf("The values of %s.", n.goName))
	e.f.Const().Defs(consts...)
	e.f.Line()
}

func (e *emitter) declareStruct(n *node) {
	e.claim(n.goName, "the object type of "+e.where(n))
	doc := n.desc
	if n == e.tm.root {
		doc = fmt.Sprintf("%s are the arguments of the %s tool.", n.goName, e.tm.t.Name)
		if d := e.tm.t.Description; d != "" {
			doc += "\n\n" + d
		}
	} else if n == e.tm.result {
		doc = e.resultDoc(n, n.goName)
	} else if doc == "" {
		doc = fmt.Sprintf("%s is the object at %s.", n.goName, e.where(n))
	} else {
		doc = n.goName + " is " + lowerFirst(doc)
	}
	e.doc(doc)
	// The struct's fields and methods share one set of names.
	seenField := map[string]string{"decode": "a method", "appendJSON": "a method", "MarshalJSON": "a method", "UnmarshalJSON": "a method"}
	if n.addl == addlSchema {
		seenField["AdditionalProperties"] = "the field of the undeclared members"
	}
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
	if n.addl == addlSchema {
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
	return setter{value: func(x jen.Code) jen.Code { return field.Clone().Op("=").Add(x) }}
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
	switch {
	case n.nullable:
		cases = append(cases, jen.Case(readKind("Null")).Block(e.decodeNull(n, set)...))
	case set.nullAbsent && n.kind != kindNull:
		cases = append(cases, jen.Case(readKind("Null")).Block(jen.If(d().Dot("NullAsAbsent")).Block(dr().Dot("Null").Call()).Else().Block(mismatch)))
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
	case kindInt:
		return e.decodeInt(n, set)
	case kindNumber:
		return e.decodeNumber(n, set)
	case kindString:
		return e.decodeString(n, set)
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
	return n.sens || e.sensitive || e.tm.t.Meta.Sensitive
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

func (e *emitter) decodeInt(n *node, set setter) []jen.Code {
	raw := jen.Id("raw")
	var checks, hugeChecks []jen.Code
	got := e.got(n, d().Dot("Text").Call(raw))
	x := jen.Id("x")
	bound := func(kw string, b *jsonval.Value, exclusive, lower bool) {
		if b == nil {
			return
		}
		sp := n.ptr + "/" + kw
		report := d().Dot(upperFirst(kw)).Call(jen.Lit(sp), jen.Lit(b.Str), got)
		hugeChecks = append(hugeChecks, jen.If(numCompare(raw, b.Str, exclusive, lower)).Block(report.Clone(), jen.Id("broken").Op("=").True()))
		limit, ok := intBound(b.Str, exclusive, lower)
		var cond jen.Code
		switch {
		case ok && lower:
			cond = x.Clone().Op("<").Add(intLit(limit))
		case ok:
			cond = x.Clone().Op(">").Add(intLit(limit))
		default:
			cond = numCompare(raw, b.Str, exclusive, lower)
		}
		checks = append(checks, jen.If(cond).Block(report))
	}
	bound("minimum", n.minimum, false, true)
	bound("exclusiveMinimum", n.exMin, true, true)
	bound("maximum", n.maximum, false, false)
	bound("exclusiveMaximum", n.exMax, true, false)
	if m := n.multipleOf; m != nil {
		var cond jen.Code
		if mi, ok := integerValue(m.Str); ok && mi.IsInt64() {
			cond = x.Clone().Op("%").Add(intLit(mi.Int64())).Op("!=").Lit(0)
		} else {
			cond = jen.Op("!").Qual(pkgJSONNum, "IsMultipleOf").Call(raw, jen.Index().Byte().Call(jen.Lit(m.Str)))
		}
		checks = append(checks, jen.If(cond).Block(d().Dot("MultipleOf").Call(jen.Lit(n.ptr+"/multipleOf"), jen.Lit(m.Str), got)))
	}
	if n.enum != nil {
		var lits []jen.Code
		for _, v := range n.enum {
			if iv, ok := integerValue(v.Str); ok && v.Kind == jsonval.Number && iv.IsInt64() {
				lits = append(lits, intLit(iv.Int64()))
			}
		}
		if len(lits) == 0 {
			checks = append(checks, e.enumViolation(n, got))
		} else {
			checks = append(checks, jen.Switch(x).Block(jen.Case(lits...), jen.Default().Block(e.enumViolation(n, got))))
		}
	}
	checks = append(checks, set.value(x))
	// An integer beyond int64 is still an integer: a bound it breaks is
	// reported as such; only one it keeps leaves the type's range to refuse.
	outOfRange := d().Dot("IntRange").Call(jen.Lit(typePtr(n)), got)
	if len(hugeChecks) > 0 {
		hugeChecks = append([]jen.Code{jen.Id("broken").Op(":=").False()}, hugeChecks...)
		outOfRange = jen.If(jen.Op("!").Id("broken")).Block(outOfRange)
	}
	hugeChecks = append(hugeChecks, outOfRange)
	return []jen.Code{
		raw.Clone().Op(":=").Add(dr().Dot("Number").Call()),
		jen.If(jen.List(x, jen.Id("ok"), jen.Id("huge")).Op(":=").Add(d().Dot("ParseInt").Call(raw, jen.Lit(typePtr(n)), jen.Lit(e.sensitiveNode(n)))), jen.Id("ok")).Block(checks...).
			Else().If(jen.Id("huge")).Block(hugeChecks...),
	}
}

// intBound turns a bound into the inclusive int64 limit an integer is
// compared with: x >= 1.5 is x >= 2, x > 3 is x >= 4. ok is false when the
// limit does not fit in int64.
func intBound(text string, exclusive, lower bool) (int64, bool) {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return 0, false
	}
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).DivMod(num, den, new(big.Int)) // floor division
	var lim *big.Int
	switch {
	case lower && m.Sign() != 0: // ceil of a fraction; exclusive or not
		lim = q.Add(q, big.NewInt(1))
	case lower && exclusive:
		lim = q.Add(q, big.NewInt(1))
	case lower:
		lim = q
	case m.Sign() != 0: // floor of a fraction
		lim = q
	case exclusive:
		lim = q.Sub(q, big.NewInt(1))
	default:
		lim = q
	}
	if !lim.IsInt64() {
		return 0, false
	}
	// The comparisons are x < lim (lower) and x > lim (upper).
	return lim.Int64(), true
}

// numCompare is the exact comparison of number text with a bound that
// fails the rule.
func numCompare(raw jen.Code, bound string, exclusive, lower bool) jen.Code {
	cmp := jen.Qual(pkgJSONNum, "Compare").Call(raw, jen.Index().Byte().Call(jen.Lit(bound)))
	switch {
	case lower && exclusive:
		return cmp.Op("<=").Lit(0)
	case lower:
		return cmp.Op("<").Lit(0)
	case exclusive:
		return cmp.Op(">=").Lit(0)
	}
	return cmp.Op(">").Lit(0)
}

func (e *emitter) decodeNumber(n *node, set setter) []jen.Code {
	raw := jen.Id("raw")
	got := e.got(n, d().Dot("Text").Call(raw))
	var checks, floatChecks []jen.Code
	bound := func(kw string, b *jsonval.Value, exclusive, lower bool) {
		if b == nil {
			return
		}
		sp := n.ptr + "/" + kw
		checks = append(checks, jen.If(numCompare(raw, b.Str, exclusive, lower)).Block(
			d().Dot(upperFirst(kw)).Call(jen.Lit(sp), jen.Lit(b.Str), got)))
		if cond := floatBreaks(jen.Id("x"), raw, b.Str, exclusive, lower); cond != nil {
			floatChecks = append(floatChecks, jen.If(cond).Block(
				d().Dot("FloatBound").Call(jen.Lit(kw), jen.Lit(sp), jen.Lit(b.Str), got, jen.Id("x"))))
		}
	}
	bound("minimum", n.minimum, false, true)
	bound("exclusiveMinimum", n.exMin, true, true)
	bound("maximum", n.maximum, false, false)
	bound("exclusiveMaximum", n.exMax, true, false)
	if m := n.multipleOf; m != nil {
		checks = append(checks, jen.If(jen.Op("!").Qual(pkgJSONNum, "IsMultipleOf").Call(raw, jen.Index().Byte().Call(jen.Lit(m.Str)))).Block(
			d().Dot("MultipleOf").Call(jen.Lit(n.ptr+"/multipleOf"), jen.Lit(m.Str), got)))
	}
	if n.enum != nil {
		lits := []jen.Code{raw}
		for _, v := range n.enum {
			if v.Kind == jsonval.Number {
				lits = append(lits, jen.Lit(v.Str))
			}
		}
		checks = append(checks, jen.If(jen.Op("!").Qual(pkgTgimpl, "NumberIn").Call(lits...)).Block(e.enumViolation(n, got)))
	}
	// The rules are checked on the exact text; the float64 conversion comes
	// last and fails beyond float64's range, or when the float64 the
	// executor would receive breaks a bound the text keeps (floatBreaks).
	out := append([]jen.Code{raw.Clone().Op(":=").Add(dr().Dot("Number").Call())}, checks...)
	floatChecks = append(floatChecks, set.value(jen.Id("x")))
	return append(out, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(d().Dot("ParseFloat").Call(raw, jen.Lit(typePtr(n)), jen.Lit(e.sensitiveNode(n)))), jen.Id("ok")).Block(floatChecks...))
}

func (e *emitter) decodeString(n *node, set setter) []jen.Code {
	s := jen.Id("s")
	out := []jen.Code{s.Clone().Op(":=").Add(dr().Dot("String").Call())}
	got := e.got(n, d().Dot("Quote").Call(s))
	if n.minLen >= 0 || n.maxLen >= 0 {
		out = append(out, jen.Id("length").Op(":=").Qual(pkgTgimpl, "RuneCount").Call(s))
		if n.minLen >= 0 {
			out = append(out, jen.If(jen.Id("length").Op("<").Lit(int(n.minLen))).Block(
				d().Dot("MinLength").Call(jen.Lit(n.ptr+"/minLength"), jen.Lit(int(n.minLen)), jen.Id("length"))))
		}
		if n.maxLen >= 0 {
			out = append(out, jen.If(jen.Id("length").Op(">").Lit(int(n.maxLen))).Block(
				d().Dot("MaxLength").Call(jen.Lit(n.ptr+"/maxLength"), jen.Lit(int(n.maxLen)), jen.Id("length"))))
		}
	}
	if n.pattern != "" {
		out = append(out, jen.If(jen.Op("!").Id(e.tm.patternVars[n]).Dot("Match").Call(s)).Block(
			d().Dot("Pattern").Call(jen.Lit(n.ptr+"/pattern"), jen.Lit(n.pattern), got)))
	}
	// The format is checked on a view of the bytes; the Go string is made
	// last, by Value, which does not copy a refused value.
	str := d().Dot("Value").Call(s)
	if n.format != "" {
		fn := formatFunc(n.format)
		out = append(out,
			jen.If(jen.Op("!").Qual(pkgFormat, fn).Call(jen.Qual(pkgTgimpl, "View").Call(s))).Block(
				d().Dot("Format").Call(jen.Lit(n.ptr+"/format"), jen.Lit(format.Description(n.format)), got)))
	}
	if n.enum == nil && set.discard && n.format == "" {
		return append(out, set.value(s))
	}
	if n.enum == nil {
		return append(out, set.value(str))
	}
	// An enum: a switch on the bytes, which the compiler does without
	// allocating; a named enum type stores its constant.
	var cases []jen.Code
	for _, v := range n.enum {
		if v.Kind != jsonval.String {
			continue
		}
		if n.goName != "" {
			cases = append(cases, jen.Case(jen.Lit(v.Str)).Block(set.value(jen.Id(n.enumConsts[v.Str]))))
		} else {
			cases = append(cases, jen.Case(jen.Lit(v.Str)).Block(set.value(str.Clone())))
		}
	}
	cases = append(cases, jen.Default().Block(e.enumViolation(n, got)))
	return append(out, jen.Switch(jen.String().Call(s)).Block(cases...))
}

func formatFunc(name string) string {
	switch name {
	case "date-time":
		return "DateTime"
	case "uuid":
		return "UUID"
	case "uri":
		return "URI"
	case "ipv4":
		return "IPv4"
	case "ipv6":
		return "IPv6"
	}
	return upperFirst(name)
}

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
		out = append(out, jen.Id("o").Dot(decodeMethod(n)).Call(d()))
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
		mask := jen.Parens(jen.Id(fmt.Sprintf("1 << %d", i%64)))
		if words == 1 {
			return jen.Id("seen"), mask
		}
		return jen.Id("seen").Index(jen.Lit(i / 64)), mask
	}
	var cases []jen.Code
	for _, p := range n.props {
		word, mask := bit(p.bit)
		body := []jen.Code{
			jen.If(word.Clone().Op("&").Add(mask.Clone()).Op("!=").Lit(0)).Block(d().Dot("DuplicateMember").Call(), jen.Break()),
			word.Clone().Op("|=").Id(fmt.Sprintf("1 << %d", p.bit%64)),
		}
		outer := e.sensitive
		e.sensitive = outer || p.sens
		if p.sens && !p.node.sens {
			body = append(body, sensitiveScope(p.node, e.decodeValue(p.node, e.fieldSetter(p)))...)
		} else {
			body = append(body, e.decodeValue(p.node, e.fieldSetter(p))...)
		}
		e.sensitive = outer
		cases = append(cases, jen.Case(jen.Lit(p.name)).Block(body...))
	}
	var dflt []jen.Code
	switch n.addl {
	case addlClosed:
		var known []string
		for _, p := range n.props {
			known = append(known, p.name)
		}
		dflt = []jen.Code{d().Dot("Additional").Call(jen.Lit(n.addlPtr), jen.Id("mark"), jen.Id("name"), jen.Lit(strings.Join(known, ", ")))}
	case addlOpen:
		dflt = []jen.Code{jen.If(d().Dot("Extra").Call(jen.Id("mark"), jen.Id("name"))).Block(dr().Dot("Skip").Call())}
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
	dflt = e.patternDefault(n, dflt)
	if len(cases) > 0 {
		loopBody = append(loopBody, jen.Switch(jen.String().Call(jen.Id("name"))).Block(append(cases, jen.Default().Block(dflt...))...))
	} else {
		loopBody = append(loopBody, dflt...)
	}
	loopBody = append(loopBody, d().Dot("Pop").Call())
	out = append(out, dr().Dot("ObjectStart").Call(), jen.For().Block(loopBody...))
	out = append(out, d().Dot("EndObject").Call(jen.Id("mark")))
	var reqMask uint64
	var reqChecks []jen.Code
	for _, p := range n.props {
		if !p.required {
			continue
		}
		word, mask := bit(p.bit)
		if words == 1 {
			reqMask |= 1 << uint(p.bit)
		}
		reqChecks = append(reqChecks, jen.If(word.Op("&").Add(mask).Op("==").Lit(0)).Block(
			d().Dot("Required").Call(jen.Lit(n.ptr+"/required"), jen.Lit(p.name))))
	}
	switch {
	case len(reqChecks) == 0:
	case words == 1:
		mask := jen.Id(fmt.Sprintf("%#x", reqMask))
		out = append(out, jen.If(jen.Id("seen").Op("&").Add(mask).Op("!=").Add(mask)).Block(reqChecks...))
	default:
		out = append(out, reqChecks...)
	}
	return out
}

// emitNestedUnmarshal gives a nested object type the same strict decoding
// as the tool's arguments, so that encoding/json never fills it loosely.
func (e *emitter) emitNestedUnmarshal(n *node) {
	e.doc(fmt.Sprintf("UnmarshalJSON decodes v with the strict, single-pass checks of the %s decoder.", e.tm.t.Name))
	e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Var().Id("x").Id(n.goName),
		jen.Var().Id("d").Qual(pkgTgimpl, "Decoder"),
		jen.Id("d").Dot("Reset").Call(jen.Id(e.tm.goName+"ToolName"), jen.Id("data")),
		e.beginSensitiveTool(n.sens),
		jen.If(jen.Id("d").Dot("Object").Call()).Block(jen.Id("x").Dot("decode").Call(jen.Op("&").Id("d"))),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id("x"),
		jen.Return(jen.Nil()),
	)
	e.f.Line()
}

func (e *emitter) emitDecodeMethod(n *node) {
	e.doc(fmt.Sprintf("decode reads a %s from d, which is at an object.", n.goName))
	body := e.structChecks(n, e.memberLoop(n, nil))
	e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("decode").Params(jen.Id("d").Op("*").Qual(pkgTgimpl, "Decoder")).Block(body...)
	e.f.Line()
}

func (e *emitter) decodeArray(n *node, set setter) []jen.Code {
	e.depth++
	defer func() { e.depth-- }()
	i := jen.Id(fmt.Sprintf("i%d", e.depth))
	items := jen.Id(fmt.Sprintf("items%d", e.depth))
	var out []jen.Code
	if n.tupled || n.enum != nil {
		out = append(out, jen.Id("start").Op(":=").Add(dr().Dot("Offset").Call()))
	}
	// The items are collected in a buffer on the stack and copied once
	// (tgimpl.Own); past maxItems they are still read and checked but no
	// longer kept, since the call is refused.
	buffered := 8
	if n.maxItems >= 1 && n.maxItems < int64(buffered) {
		buffered = int(n.maxItems)
	}
	if !n.tupled {
		elem := jen.Qual(pkgJSON, "RawMessage")
		if n.items != nil {
			elem = e.elemType(n.items)
		}
		buf := jen.Id(fmt.Sprintf("buf%d", e.depth))
		out = append(out,
			jen.Var().Add(buf).Index(jen.Lit(buffered)).Add(elem),
			items.Clone().Op(":=").Add(buf).Index(jen.Empty(), jen.Lit(0)))
	}
	if n.unique {
		out = append(out,
			jen.Var().Id("rawBuf").Index(jen.Lit(buffered)).Index().Byte(),
			jen.Id("raws").Op(":=").Id("rawBuf").Index(jen.Empty(), jen.Lit(0)))
	}
	keep := func(x jen.Code) jen.Code {
		add := items.Clone().Op("=").Append(items, x)
		if n.maxItems < 0 {
			return add
		}
		return jen.If(i.Clone().Op("<").Lit(int(n.maxItems))).Block(add)
	}
	var body []jen.Code
	body = append(body, d().Dot("PushIndex").Call(i))
	if n.maxItems >= 0 {
		body = append(body, jen.If(i.Clone().Op("==").Lit(int(n.maxItems))).Block(d().Dot("Drop").Call()))
	}
	if n.unique {
		body = append(body, jen.Id("from").Op(":=").Add(dr().Dot("Offset").Call()))
	}
	switch {
	case n.tupled:
		var cases []jen.Code
		for k, p := range n.prefix {
			cases = append(cases, jen.Case(jen.Lit(k)).Block(e.decodeValue(p, discard)...))
		}
		rest := []jen.Code{dr().Dot("Skip").Call()}
		if n.items != nil {
			rest = e.decodeValue(n.items, discard)
		}
		cases = append(cases, jen.Default().Block(rest...))
		body = append(body, jen.Switch(i).Block(cases...))
	case n.items == nil:
		body = append(body, keep(d().Dot("Raw").Call()))
	default:
		body = append(body, e.decodeValue(n.items, e.elemSetter(n.items, keep))...)
	}
	if n.unique {
		body = append(body, jen.Id("raws").Op("=").Append(jen.Id("raws"), dr().Dot("Capture").Call(jen.Id("from"))))
	}
	body = append(body, d().Dot("Pop").Call())
	out = append(out,
		dr().Dot("ArrayStart").Call(),
		i.Clone().Op(":=").Lit(0),
		jen.For(dr().Dot("NextItem").Call()).Block(append(body, i.Clone().Op("++"))...),
	)
	if n.minItems >= 0 {
		out = append(out, jen.If(i.Clone().Op("<").Lit(int(n.minItems))).Block(d().Dot("MinItems").Call(jen.Lit(n.ptr+"/minItems"), jen.Lit(int(n.minItems)), i)))
	}
	if n.maxItems >= 0 {
		out = append(out, jen.If(i.Clone().Op(">").Lit(int(n.maxItems))).Block(d().Dot("MaxItems").Call(jen.Lit(n.ptr+"/maxItems"), jen.Lit(int(n.maxItems)), i)))
	}
	if n.unique {
		out = append(out, d().Dot("UniqueItems").Call(jen.Lit(n.ptr+"/uniqueItems"), jen.Id("raws")))
	}
	out = append(out, e.rawEnumCheck(n)...)
	if n.tupled {
		return append(out, set.value(d().Dot("Capture").Call(jen.Id("start"))))
	}
	return append(out, set.value(jen.Qual(pkgTgimpl, "Own").Call(items)))
}

func (e *emitter) declareUnion(n *node) {
	name := e.tm.unionFuncs[n]
	e.claim(name, "the decoder of "+e.where(n))
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
}

// ---- encoding ----

func (e *emitter) emitAppendMethod(n *node) {
	var body []jen.Code
	if len(n.props) == 0 && n.addl != addlSchema {
		body = append(body, jen.Return(jen.Append(jen.Id("b"), jen.Lit("{}").Op("..."))))
		e.doc("appendJSON appends v to b as JSON: an object with no declared members.")
		e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
		e.f.Line()
		e.emitMarshal(n)
		return
	}
	body = append(body, jen.Id("start").Op(":=").Len(jen.Id("b")), jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')))
	for _, p := range n.props {
		member := jen.Id("b").Op("=").Qual(pkgTgimpl, "Member").Call(jen.Id("b"), jen.Id("start"), jen.Lit(p.name))
		field := jen.Id("v").Dot(p.goName)
		switch {
		case p.node.nullable:
			body = append(body, jen.Switch(field.Clone().Dot("State").Call()).Block(
				jen.Case(jen.Qual(pkgOpt, "Null")).Block(member, jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("..."))),
				jen.Case(jen.Qual(pkgOpt, "Present")).Block(append([]jen.Code{
					jen.List(jen.Id("x"), jen.Id("_")).Op(":=").Add(field.Clone().Dot("Get").Call()),
					member.Clone()}, e.appendValue(p.node, jen.Id("x"))...)...),
			))
		case !p.required && (p.node.kind == kindNull || p.node.kind == kindNever):
			body = append(body, jen.If(field.Clone().Dot("IsSet").Call()).Block(
				append([]jen.Code{member}, e.appendValue(p.node, jen.Id("x"))...)...))
		case !p.required:
			body = append(body, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(field.Clone().Dot("Get").Call()), jen.Id("ok")).Block(
				append([]jen.Code{member}, e.appendValue(p.node, jen.Id("x"))...)...))
		default:
			body = append(body, member)
			body = append(body, e.appendValue(p.node, field)...)
		}
	}
	if n.addl == addlSchema {
		body = append(body, jen.For(jen.List(jen.Id("key"), jen.Id("x")).Op(":=").Range().Qual(pkgTgimpl, "SortedKeys").Call(jen.Id("v").Dot("AdditionalProperties"))).Block(
			append([]jen.Code{jen.Id("b").Op("=").Qual(pkgTgimpl, "Member").Call(jen.Id("b"), jen.Id("start"), jen.Id("key"))}, e.appendElem(n.addlNode, jen.Id("x"))...)...))
	}
	body = append(body, jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}'))))
	e.doc("appendJSON appends v to b as JSON: exactly the members that are set, in schema order.")
	e.f.Func().Params(jen.Id("v").Op("*").Id(n.goName)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
	e.f.Line()
	e.emitMarshal(n)
}

func (e *emitter) emitMarshal(n *node) {
	e.doc("MarshalJSON writes v as JSON: a missing member stays missing and a null stays null.")
	e.f.Func().Params(jen.Id("v").Id(n.goName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("appendJSON").Call(jen.Nil()), jen.Nil()))
	e.f.Line()
}

// appendElem appends an array item or map value, which may be nullable.
func (e *emitter) appendElem(n *node, x *jen.Statement) []jen.Code {
	if !n.nullable {
		return e.appendValue(n, x)
	}
	e.depth++
	defer func() { e.depth-- }()
	y := jen.Id(fmt.Sprintf("y%d", e.depth))
	return []jen.Code{jen.If(jen.List(y, jen.Id("ok")).Op(":=").Add(x.Clone().Dot("Get").Call()), jen.Id("ok")).Block(
		e.appendValue(n, y)...).Else().Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("...")))}
}

// appendValue appends the value x of n.
func (e *emitter) appendValue(n *node, x *jen.Statement) []jen.Code {
	b := jen.Id("b")
	set := func(c jen.Code) []jen.Code { return []jen.Code{b.Clone().Op("=").Add(c)} }
	if taggedSite(n) != nil {
		return set(jen.Add(x).Dot("appendJSON").Call(b))
	}
	switch n.kind {
	case kindBool:
		return set(jen.Qual(pkgTgimpl, "AppendBool").Call(b, x))
	case kindInt:
		return set(jen.Qual(pkgTgimpl, "AppendInt").Call(b, x))
	case kindNumber:
		return set(jen.Qual(pkgTgimpl, "AppendFloat").Call(b, x))
	case kindString:
		if n.goName != "" {
			x = jen.String().Call(x)
		}
		return set(jen.Qual(pkgTgimpl, "AppendString").Call(b, x))
	case kindNull, kindNever:
		return set(jen.Append(b, jen.Lit("null").Op("...")))
	case kindObject:
		if n.hasStruct {
			return set(jen.Add(x).Dot("appendJSON").Call(b))
		}
		e.depth++
		defer func() { e.depth-- }()
		k, v := jen.Id(fmt.Sprintf("k%d", e.depth)), jen.Id(fmt.Sprintf("v%d", e.depth))
		start := jen.Id(fmt.Sprintf("start%d", e.depth))
		return []jen.Code{
			start.Clone().Op(":=").Len(b),
			b.Clone().Op("=").Append(b, jen.LitRune('{')),
			jen.For(jen.List(k, v).Op(":=").Range().Qual(pkgTgimpl, "SortedKeys").Call(x)).Block(
				append([]jen.Code{b.Clone().Op("=").Qual(pkgTgimpl, "Member").Call(b, start, k)}, e.appendElem(n.addlNode, v)...)...),
			b.Clone().Op("=").Append(b, jen.LitRune('}')),
		}
	case kindArray:
		if n.tupled {
			break
		}
		e.depth++
		defer func() { e.depth-- }()
		i, v := jen.Id(fmt.Sprintf("i%d", e.depth)), jen.Id(fmt.Sprintf("v%d", e.depth))
		var elem []jen.Code
		if n.items == nil {
			elem = set(jen.Qual(pkgTgimpl, "AppendRaw").Call(b, v))
		} else {
			elem = e.appendElem(n.items, v)
		}
		return []jen.Code{
			b.Clone().Op("=").Append(b, jen.LitRune('[')),
			jen.For(jen.List(i, v).Op(":=").Range().Add(x)).Block(
				append([]jen.Code{jen.If(i.Clone().Op(">").Lit(0)).Block(b.Clone().Op("=").Append(b, jen.LitRune(',')))}, elem...)...),
			b.Clone().Op("=").Append(b, jen.LitRune(']')),
		}
	}
	return set(jen.Qual(pkgTgimpl, "AppendRaw").Call(b, x))
}

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

// ---- helpers ----

// doc writes a doc comment, wrapped, one // line a line.
func (e *emitter) doc(text string) {
	for _, c := range comments(text) {
		e.f.Add(c)
	}
}

// comments renders text as wrapped // comment lines, inert whatever text
// holds (see commentText and commentLine).
func comments(text string) []jen.Code {
	if text == "" {
		return nil
	}
	var out []jen.Code
	for _, line := range strings.Split(wrap(commentText(text)), "\n") {
		out = append(out, jen.Comment(commentLine(line)))
	}
	return out
}

// intLit is an untyped integer constant.
func intLit(v int64) jen.Code { return jen.Id(strconv.FormatInt(v, 10)) }

func lowerFirst(s string) string {
	// "The order" → "the order"; "URL of the page" and "ISO 3166 code"
	// stay as written: a capital is lowered only when the next letter is
	// small.
	r := []rune(s)
	if len(r) >= 2 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// lowerIdent makes an exported identifier unexported, lowering a leading
// initialism whole: "RefundOrder" → "refundOrder", "URLPath" → "urlPath".
func lowerIdent(s string) string {
	r := []rune(s)
	for i := 0; i < len(r) && unicode.IsUpper(r[i]) && (i == 0 || i+1 >= len(r) || unicode.IsUpper(r[i+1])); i++ {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var spaces = regexp.MustCompile(`[ \t]+`)

// wrap folds a doc comment at about 76 columns, keeping paragraphs.
func wrap(s string) string {
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(s), "\n") {
		para = spaces.ReplaceAllString(strings.TrimSpace(para), " ")
		line := ""
		for _, w := range strings.Split(para, " ") {
			if line != "" && len(line)+1+len(w) > 76 {
				out = append(out, line)
				line = w
				continue
			}
			if line == "" {
				line = w
			} else {
				line += " " + w
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// goString is a string literal, raw (backquoted) when that is possible, so
// patterns and schemas read as written; quoted (every unsafeRune escaped)
// otherwise. A raw literal stays on one line: go generate reads directives
// line by line, inside raw strings too.
func goString(s string) jen.Code {
	if !strings.ContainsAny(s, "`\r\n") && !strings.ContainsFunc(s, unsafeRune) && strconv.CanBackquote(s) {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s)
}
