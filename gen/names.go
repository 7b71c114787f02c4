package gen

import (
	"fmt"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// initialisms are written in capitals in Go names, as Go style wants.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "uri": "URI", "http": "HTTP", "https": "HTTPS",
	"json": "JSON", "api": "API", "uuid": "UUID", "ip": "IP", "sku": "SKU", "html": "HTML",
	"sql": "SQL", "ttl": "TTL", "utc": "UTC", "tls": "TLS", "ssh": "SSH", "cpu": "CPU",
	"eta": "ETA", "mcp": "MCP", "xml": "XML", "css": "CSS", "dns": "DNS", "tcp": "TCP", "udp": "UDP",
}

// goIdent turns a tool or member name into an exported Go identifier:
// split on anything that is not a letter or digit and at lower-to-upper case
// changes, capitalise each part, write initialisms in capitals.
// "refund_order" → "RefundOrder", "orderId" → "OrderID", "Content-Type" →
// "ContentType". A name that starts with a digit gets an "N" in front, one
// that starts with a letter without case an "X"; a name with no letters or
// digits is "Empty".
func goIdent(name string) string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])):
			flush()
			cur = append(cur, r)
		case unicode.IsUpper(r) && i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, p := range parts {
		if up, ok := initialisms[strings.ToLower(p)]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(p)
		b.WriteRune(unicode.ToUpper(r[0]))
		b.WriteString(string(r[1:]))
	}
	s := b.String()
	switch {
	case s == "":
		return "Empty"
	case !unicode.IsLetter([]rune(s)[0]):
		return "N" + s
	case !unicode.IsUpper([]rune(s)[0]):
		return "X" + s // a letter without case (名前) cannot export a name
	}
	return s
}

// isGoIdentifier reports whether s is an exported Go identifier.
func isGoIdentifier(s string) bool {
	return token.IsIdentifier(s) && token.IsExported(s)
}

// namespace hands out package-level Go names and reports collisions,
// naming both sources.
type namespace struct {
	owner map[string]string
}

func newNamespace() *namespace { return &namespace{owner: map[string]string{}} }

// claim reserves name for what; it returns the earlier owner on collision.
func (ns *namespace) claim(name, what string) (string, bool) {
	if prev, ok := ns.owner[name]; ok {
		return prev, false
	}
	ns.owner[name] = what
	return "", true
}

// goName is the Go name of the tool: its x-toolgate goName or the name
// derived from its tool name.
func (t *Tool) goName() string {
	if t.Meta.GoName != "" {
		return t.Meta.GoName
	}
	return goIdent(t.Name)
}

// Naming. toolgate's own declarations have fixed names, documented and
// used by callers: per tool <Tool>ToolName, <Tool>Description,
// <Tool>Schema, <Tool>Source, <Tool>SourceSHA256, <Tool>Args,
// Decode<Tool>Args, <Tool>Definitions and <Tool>Spec (and so on), and
// Bindings, NewRegistry and allProviders for the package. Names chosen in
// a tool file (x-toolgate goName, goType) are fixed too. Every other name
// is derived from a schema — <Tool><Member> for a named type,
// <Type><Value> for an enum constant, unexported pattern variables and
// union decoders — and is handed out by assignNames after all fixed names
// are reserved, so it never takes one of them, nor another derived name: a
// derived type whose name is
// taken gets the suffix Enum or Object (FetchPageSource, the source path
// constant, leaves the enum type of a member "source" FetchPageSourceEnum),
// and then a number; a taken constant or helper name gets a number. Tools
// are named in name order, each in schema order, so the names depend only
// on the tools.

// ownNames are the package-level names toolgate declares for the tool.
func (tm *toolModel) ownNames(opts Options) []string {
	g, args := tm.goName, tm.root.goName
	names := []string{g + "ToolName", g + "Description", g + "Schema", g + "Source", g + "SourceSHA256", args}
	if opts.ValueRoots {
		return append(names, "Validate"+g)
	}
	names = append(names, "Decode"+args, g+"Definitions", g+"Spec")
	names = append(names, tm.resultNames()...)
	if tm.nullAsAbsent() {
		names = append(names, "Decode"+args+"NullAsAbsent", "decode"+args)
	}
	return names
}

// assignNames names the schema-derived declarations of every tool (models
// in name order): named types, enum constants, pattern variables and union
// decoders.
func assignNames(models []*toolModel, opts Options) {
	taken := map[string]bool{}
	if !opts.ValueRoots {
		taken["Bindings"], taken["NewRegistry"], taken[allProviders] = true, true, true
	}
	for _, tm := range models {
		for _, name := range tm.ownNames(opts) {
			taken[name] = true
		}
		for _, root := range tm.roots() {
			walkNodes(root, func(n *node) {
				if n.fixed && declaresType(n) {
					taken[n.goName] = true
				}
			})
		}
	}
	uniqueNodeNames(models)
	owners := map[string]*node{}
	for _, tm := range models {
		tm.unionFuncs, tm.ruleVars = map[*node]string{}, map[*node]string{}
		for _, root := range tm.roots() {
			walkNodes(root, func(n *node) {
				if n.nullOf != nil {
					return // named after the node it makes nullable, below
				}
				if taggedSite(n) != nil {
					n.goName = n.name // the result's root keeps its fixed name
					if n != root {
						n.goName = pickName(n.name, "Union", taken)
					}
				}
				shared := shareNames(tm, n, root, owners)
				if declaresType(n) && !n.fixed && n != root && !shared {
					suffix := "Object"
					if n.kind == kindString {
						suffix = "Enum"
					}
					n.goName = pickName(n.goName, suffix, taken)
				}
				if n.kind == kindObject && n.hasStruct {
					nameFields(n)
				}
				if n.kind == kindString && n.goName != "" && !shared {
					n.enumConsts = enumConstNames(n.goName, n.enum, taken)
				}
				if n.kind == kindUnion {
					tm.unionFuncs[n] = pickName("decode"+n.name, "", taken)
				}
				if ruleKind(n) || scalarItems(n) {
					tm.ruleVars[n] = pickName(lowerIdent(n.name)+"Rule", "", taken)
				}
			})
			// A nullable copy (anyOf [T, null]) has T's Go type: its names,
			// and T's rule when its messages are T's (no enum lists null,
			// and it hides its value where T does).
			walkNodes(root, func(n *node) {
				t := n.nullOf
				if t == nil {
					return
				}
				n.goName, n.enumConsts = t.goName, t.enumConsts
				if !ruleKind(n) {
					return
				}
				if v, ok := tm.ruleVars[t]; ok && t.enum == nil && n.sens == t.sens {
					tm.ruleVars[n] = v
				} else {
					tm.ruleVars[n] = pickName(lowerIdent(n.name)+"Rule", "", taken)
				}
			})
		}
	}
}

// uniqueNodeNames gives every node that a composition names its
// unexported helpers after (check<Name>, valid<Name>, patternName<Name>:
// the composed nodes and their subschemas) a name no other such node has,
// in the models' order, each in schema order. Two nodes derive one name
// when a member and a definition it refers to do (Pydantic's
// Optional[Model] whose Model has a oneOf: member "model" and $defs
// Model), or the arguments and the result do (a member "result" and the
// result's root); the later gets a number.
func uniqueNodeNames(models []*toolModel) {
	used := map[string]bool{}
	for _, tm := range models {
		named := map[*node]bool{}
		for _, root := range tm.roots() {
			walkNodes(root, func(n *node) {
				if n.comp == nil {
					return
				}
				for _, c := range append([]*node{n}, n.comp.nodes()...) {
					if !named[c] {
						named[c] = true
						c.name = uniqueName(c.name, used)
					}
				}
			})
		}
	}
}

// reservedFields are the names toolgate's own methods and fields take in
// the struct of n, and what each is: no member's field may have them.
func reservedFields(n *node) map[string]string {
	out := map[string]string{"decode": "a method", "appendJSON": "a method", "MarshalJSON": "a method", "UnmarshalJSON": "a method"}
	if n.keepsUndeclared() {
		out["AdditionalProperties"] = "the field of the undeclared members"
	}
	if n.keepPatterned {
		out["PatternProperties"] = "the field of the members patternProperties covers"
	}
	return out
}

// nameFields names the fields of a struct. The methods toolgate gives
// every struct, the AdditionalProperties field and the names chosen in the
// tool file (with their …OrDefault accessors) come first, then the members
// with an accessor, then the others, each in member order; a derived field
// name that is taken, or whose accessor name is, gets a number: members
// "order_id" and "orderId" are OrderID and OrderID2.
func nameFields(n *node) {
	taken := map[string]bool{}
	for name := range reservedFields(n) {
		taken[name] = true
	}
	// A member with a default may get an accessor; its name is kept free
	// whether or not the default's type gets one.
	accessor := func(p *prop) bool { return p.node.def != nil && !p.required && !p.node.nullable }
	for _, p := range n.props {
		if p.fixed {
			taken[p.goName] = true
			if accessor(p) {
				taken[p.goName+"OrDefault"] = true
			}
		}
	}
	// Members with an accessor are named before the others, so that a
	// member "notifyOrDefault" yields to the accessor of "notify".
	for _, withAccessor := range []bool{true, false} {
		for _, p := range n.props {
			if p.fixed || accessor(p) != withAccessor {
				continue
			}
			name := p.goName
			for i := 2; taken[name] || withAccessor && taken[name+"OrDefault"]; i++ {
				name = fmt.Sprintf("%s%d", p.goName, i)
			}
			p.goName = name
			taken[name] = true
			if withAccessor {
				taken[name+"OrDefault"] = true
			}
		}
	}
}

// declaresType reports whether n is emitted as a named Go type.
func declaresType(n *node) bool {
	return n.kind == kindString && n.goName != "" || n.kind == kindObject && n.hasStruct
}

// walkNodes calls f once for each node reachable from root, parents first,
// children in schema order.
func walkNodes(root *node, f func(*node)) {
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		f(n)
		for _, c := range children(n) {
			walk(c)
		}
	}
	walk(root)
}

// pickName returns name, else name+suffix, else that with the smallest
// number 2, 3, … that is not taken, and marks it taken.
func pickName(name, suffix string, taken map[string]bool) string {
	if !taken[name] {
		taken[name] = true
		return name
	}
	return uniqueName(name+suffix, taken)
}

// signs spells out the signs that make enum values differ ("+1", "-1",
// "reactions--1").
var signs = strings.NewReplacer("+", " Plus ", "--", " Minus", "-0", " Minus0", "-1", " Minus1", "-2", " Minus2", "-3", " Minus3", "-4", " Minus4", "-5", " Minus5", "-6", " Minus6", "-7", " Minus7", "-8", " Minus8", "-9", " Minus9")

// enumConstNames names the constants of a string enum: the type name and
// the value as an identifier; a name already taken (values that read the
// same as an identifier, "foo\nbar" and "foo\rbar", or another
// declaration) gets a numeric suffix, in enum order.
func enumConstNames(typeName string, vals []*jsonval.Value, taken map[string]bool) map[string]string {
	names := map[string]string{}
	for _, v := range vals {
		if v.Kind != jsonval.String {
			continue
		}
		id := v.Str
		if strings.ContainsAny(id, "+-") {
			id = signs.Replace(id)
		}
		names[v.Str] = uniqueName(typeName+goIdent(id), taken)
	}
	return names
}

func lowerFirst(s string) string {
	// "The order" → "the order", "A contact" → "a contact"; "URL of the
	// page" and "ISO 3166 code" stay as written: a capital is lowered only
	// when the next letter is small, or when it is the article "A".
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each invalid byte becomes U+FFFD
	}
	r0, n0 := utf8.DecodeRuneInString(s)
	r1, n1 := utf8.DecodeRuneInString(s[n0:])
	if n1 > 0 && unicode.IsUpper(r0) && (unicode.IsLower(r1) || r0 == 'A' && r1 == ' ') {
		return string(unicode.ToLower(r0)) + s[n0:]
	}
	return s
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

// fileName is the output file of a tool: its Go name in snake case, with a
// "_tool.go" suffix that no GOOS or GOARCH build constraint can match.
// RefundOrder → refund_order_tool.go, MCPEcho → mcp_echo_tool.go.
func fileName(goName string) string {
	var b strings.Builder
	rs := []rune(goName)
	for i, r := range rs {
		upper := unicode.IsUpper(r)
		if upper && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String() + "_tool.go"
}
