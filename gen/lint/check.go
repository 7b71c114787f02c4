package lint

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// checker lints one tool.
type checker struct {
	ti *toolInfo
	// min is Options.MinSeverity: rules below it are not run.
	min Severity
	out []Finding
	// implied are the objects closed only by toolgate's default.
	implied []string
}

func (c *checker) add(rule, ptr, format string, args ...any) {
	if !c.runs(rule) {
		return
	}
	c.out = append(c.out, Finding{Rule: rule, Severity: severity(rule), Tool: c.ti.t.Name, File: c.ti.t.File, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// runs reports whether any of rules is at or above the minimum severity.
func (c *checker) runs(rules ...string) bool {
	return slices.ContainsFunc(rules, func(r string) bool { return severity(r) >= c.min })
}

// descBudget is the most runes a tool description should take.
const descBudget = 1024

func (c *checker) tool() {
	if c.runs(RuleNameVerbNoun) {
		c.toolName()
	}
	if c.runs(RuleDescMissing, RuleDescRepeatsName, RuleDescLength, RuleDescContent) {
		c.description()
	}
	c.approval()
	if c.ti.params == nil {
		return
	}
	c.schema(c.ti.params, c.ti.base)
	if len(c.implied) > 0 {
		c.add(RuleImpliedClosed, c.implied[0], "%d object schema(s) here and below have no additionalProperties: toolgate closes them by default, other JSON Schema tools read them as open; write additionalProperties: false to say so in the file", len(c.implied))
	}
}

var (
	whenRE    = regexp.MustCompile(`(?i)\b(use|call|invoke|when|whenever|if|after|before)\b`)
	excludeRE = regexp.MustCompile(`(?i)\b(not|never|only|except|excluding|excludes|instead|cannot|can't|don't|doesn't|without|unless|rather than)\b`)
	// A description that starts with a reading verb ("Get the order's
	// status") says what comes back.
	returnRE = regexp.MustCompile(`(?i)\b(returns?|returning|responds?|outputs?|yields?|gives back|result|results|reports?)\b|^\s*(gets?|lists?|fetch(es)?|retrieves?|search(es)?|finds?|reads?|looks? up|shows?|describes?)\b`)
)

func (c *checker) description() {
	t := c.ti.t
	at := t.Pointer + "/description"
	d := strings.TrimSpace(t.Description)
	if d == "" {
		c.add(RuleDescMissing, at, "tool %s has no description: the model chooses tools by it", t.Name)
		return
	}
	if slices.Equal(significant(words(d)), words(t.Name)) {
		c.add(RuleDescRepeatsName, at, "the description %q repeats the name: say what the tool does, when to use it and what it returns", d)
	}
	if n := utf8.RuneCountInString(d); n > descBudget {
		c.add(RuleDescLength, at, "the description is %d characters, over the budget of %d: every call pays for it", n, descBudget)
	}
	var missing []string
	for _, part := range []struct {
		re   *regexp.Regexp
		what string
	}{{whenRE, "when to use it"}, {excludeRE, "what it excludes"}, {returnRE, "what it returns"}} {
		if !part.re.MatchString(d) {
			missing = append(missing, part.what)
		}
	}
	if len(missing) > 0 {
		c.add(RuleDescContent, at, "the description does not say %s", strings.Join(missing, ", nor "))
	}
}

// significant drops the articles and a trailing full stop's emptiness.
func significant(ws []string) []string {
	var out []string
	for _, w := range ws {
		switch w {
		case "a", "an", "the", "this", "tool":
			continue
		}
		out = append(out, w)
	}
	return out
}

func has(s *jsonval.Value, keys ...string) bool {
	for _, k := range keys {
		if s.Has(k) {
			return true
		}
	}
	return false
}

// schema checks the schema s at ptr and everything below it.
func (c *checker) schema(s *jsonval.Value, ptr string) {
	if s.Kind != jsonval.Object {
		return
	}
	ts := schema.TypeNames(s)
	isObject := slices.Contains(ts, "object") || (ts == nil && has(s, "properties"))
	if isObject {
		c.object(s, ptr)
	}
	if slices.Contains(ts, "array") && !has(s, "items", "prefixItems") {
		c.add(RuleArrayItems, ptr, "an array without items accepts any values in it")
	}
	if slices.Contains(ts, "string") && !has(s, "enum", "const", "pattern", "format", "maxLength") {
		c.add(RuleStringMaxLength, ptr, "free text without maxLength: bound it")
	}
	c.enum(s, ptr)
	c.bounds(s, ptr)
	sub := func(key string, v *jsonval.Value) {
		switch v.Kind {
		case jsonval.Object:
			if key == "items" || key == "additionalProperties" {
				c.leafType(v, ptr+"/"+key)
			}
			c.schema(v, ptr+"/"+key)
		case jsonval.Array:
			for i, it := range v.Items {
				c.schema(it, fmt.Sprintf("%s/%s/%d", ptr, key, i))
			}
		}
	}
	for _, m := range s.Members {
		switch m.Key {
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "prefixItems", "anyOf", "oneOf", "allOf":
			sub(m.Key, m.Value)
		case "$defs", "definitions", "patternProperties":
			for _, d := range m.Value.Members {
				c.schema(d.Value, ptr+"/"+m.Key+"/"+jsonval.EscapeToken(d.Key))
			}
		}
	}
}

func (c *checker) object(s *jsonval.Value, ptr string) {
	ap := s.Get("additionalProperties")
	switch {
	case c.freeForm(s, ptr):
	case ap == nil && !s.Has("unevaluatedProperties"):
		c.implied = append(c.implied, ptr)
	case ap != nil && ap.Kind == jsonval.Bool && ap.Bool:
		c.add(RuleObjectOpen, ptr+"/additionalProperties", "the object is open: the gate accepts members nobody declared")
	case ap != nil && ap.Kind == jsonval.Object:
		c.add(RuleObjectOpen, ptr+"/additionalProperties", "the object takes any member name whose value fits additionalProperties: declare the members, or bound the names with propertyNames")
	}
	props := s.Get("properties")
	if props == nil || props.Kind != jsonval.Object {
		if !has(s, "patternProperties") && (ap == nil || ap.Kind != jsonval.Object) {
			c.add(RuleObjectProperties, ptr, "an object without properties")
		}
	}
	required := map[string]bool{}
	if r := s.Get("required"); r != nil && r.Kind == jsonval.Array {
		for i, it := range r.Items {
			required[it.Str] = true
			if props == nil || !props.Has(it.Str) {
				c.add(RuleRequiredUnknown, fmt.Sprintf("%s/required/%d", ptr, i), "%q is required but not in properties", it.Str)
			}
		}
	}
	if props == nil || props.Kind != jsonval.Object {
		return
	}
	seen := map[string]string{}
	for _, m := range props.Members {
		at := ptr + "/properties/" + jsonval.EscapeToken(m.Key)
		if prev, dup := seen[skeleton(m.Key)]; dup {
			c.add(RuleNameConfusable, at, "member %q is confusable with %q in the same object", m.Key, prev)
		} else {
			seen[skeleton(m.Key)] = m.Key
		}
		c.property(m.Key, m.Value, at, required[m.Key], props)
		c.schema(m.Value, at)
	}
}

// deref follows a local $ref of s, once.
func (c *checker) deref(s *jsonval.Value) *jsonval.Value {
	ref := s.Get("$ref")
	if ref == nil || ref.Kind != jsonval.String {
		return s
	}
	if t, _, ok := jsonval.ResolveRef(c.ti.params, ref.Str); ok && t.Kind == jsonval.Object {
		return t
	}
	return s
}

func describe(s *jsonval.Value) string {
	if d := s.Get("description"); d != nil && d.Kind == jsonval.String {
		return strings.TrimSpace(d.Str)
	}
	return ""
}

func (c *checker) leafType(s *jsonval.Value, ptr string) {
	if !has(s, "type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not", "properties", "items") {
		c.add(RuleLeafType, ptr, "the schema has no type: any JSON value passes")
	}
}

var (
	nullRE      = regexp.MustCompile(`(?i)\bnull\b`)
	omitRE      = regexp.MustCompile(`(?i)\b(omit|omitted|omitting|absent|missing|unset|optional|optionally|default|defaults|by default|if any|if given|if set|unless|leave out|left out|not given|not set|not provided|otherwise|when empty|if empty|filter|filters|filtered)\b`)
	defaultRE   = regexp.MustCompile(`(?i)\b(default|defaults|when omitted|if omitted|unless)\b`)
	inclusiveRE = regexp.MustCompile(`(?i)\b(at most|at least|up to|inclusive|exclusive|inclusively|or more|or less|or fewer|no more than|no less than|no fewer than|less than|more than|greater than|fewer than|between|under|below|above|over|maximum|minimum|max|min)\b`)
)

// property checks one declared member of the properties props: its name,
// its description and what they say about units, dates, null, omission,
// bounds and identity.
func (c *checker) property(name string, ps *jsonval.Value, ptr string, required bool, props *jsonval.Value) {
	if ps.Kind != jsonval.Object {
		return
	}
	target := c.deref(ps)
	c.leafType(target, ptr)
	desc := describe(ps)
	if desc == "" {
		desc = describe(target)
	}
	if desc == "" {
		c.add(RuleParamDesc, ptr, "parameter %q has no description", name)
	}
	ts := schema.TypeNames(target)
	ws := words(name)
	numeric := slices.Contains(ts, "number") || slices.Contains(ts, "integer")
	if numeric {
		if kind, unit := measure(ws); kind != "" && !unit {
			c.add(RuleUnit, ptr, "%q looks like %s but its name does not say the unit (%s)", name, kind, unitExamples[kind])
		}
		if isMoney(ws) && !slices.Contains(ts, "integer") {
			c.add(RuleMoneyInteger, ptr+"/type", "%q looks like money but is a number: use an integer of minor units (%s_pence, %s_cents)", name, snake(ws), snake(ws))
		}
		if desc != "" && c.runs(RuleBoundInclusive) && !inclusiveRE.MatchString(desc) {
			// exclusiveMinimum and exclusiveMaximum say it in the keyword.
			for _, kw := range []string{"maximum", "minimum"} {
				if v := target.Get(kw); v != nil && v.Kind == jsonval.Number && !(kw == "minimum" && (v.Str == "0" || v.Str == "1")) {
					c.add(RuleBoundInclusive, ptr+"/"+kw, "%s %s: the description does not say whether the bound is inclusive (\"at most\", \"less than\")", kw, v.Str)
				}
			}
		}
	}
	if c.runs(RuleDateFormat) && slices.Contains(ts, "string") && looksLikeDate(ws) {
		if f := target.Get("format"); f == nil || (f.Str != "date" && f.Str != "date-time" && f.Str != "time") {
			c.add(RuleDateFormat, ptr, "%q is named like a date or time: give it format date, date-time or time", name)
		}
	}
	if why := c.trusted(ws, target, props); why != "" {
		c.add(RuleTrustedIdentity, ptr, "%q %s; take it from the session, not from the model, or disable the rule with a reason (the tool file's x-toolgate-lint, or toolgate-lint.json for files you do not own)", name, why)
	}
	if c.runs(RuleNullMeaning) && nullable(target) && desc != "" && !nullRE.MatchString(desc) {
		c.add(RuleNullMeaning, ptr, "%q may be null but its description does not say what null means", name)
	}
	if !c.runs(RuleDefaultAccessor, RuleOmitMeaning) {
		return
	}
	def := ps.Get("default")
	if def == nil {
		def = target.Get("default")
	}
	switch {
	case def != nil && !defaultRE.MatchString(desc):
		c.add(RuleDefaultAccessor, ptr+"/default", "the decoder leaves %q absent when it is omitted; the generated …OrDefault accessor applies the default %s, and the description should say so", name, def.Marshal())
	case !required && def == nil && desc != "" && !omitRE.MatchString(desc):
		c.add(RuleOmitMeaning, ptr, "%q is optional but its description does not say what leaving it out means", name)
	}
}

func nullable(s *jsonval.Value) bool {
	if slices.Contains(schema.TypeNames(s), "null") {
		return true
	}
	if e := s.Get("enum"); e != nil {
		for _, it := range e.Items {
			if it.Kind == jsonval.Null {
				return true
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if list := s.Get(k); list != nil {
			for _, it := range list.Items {
				if slices.Equal(schema.TypeNames(it), []string{"null"}) {
					return true
				}
			}
		}
	}
	return false
}

// enum flags values that differ only in case or whitespace.
func (c *checker) enum(s *jsonval.Value, ptr string) {
	e := s.Get("enum")
	if e == nil || e.Kind != jsonval.Array {
		return
	}
	seen := map[string]string{}
	for i, it := range e.Items {
		if it.Kind != jsonval.String {
			continue
		}
		k := strings.ToLower(strings.Join(strings.Fields(it.Str), " "))
		if prev, dup := seen[k]; dup {
			c.add(RuleEnumSpelling, fmt.Sprintf("%s/enum/%d", ptr, i), "enum value %q is %q spelled another way: keep one spelling", it.Str, prev)
			continue
		}
		seen[k] = it.Str
	}
}

// bounds flags a lower bound above its upper bound.
func (c *checker) bounds(s *jsonval.Value, ptr string) {
	type bound struct {
		kw        string
		v         *big.Rat
		exclusive bool
	}
	pick := func(incl, excl string) (b bound) {
		if r := s.Get(excl).Rat(); r != nil {
			b = bound{excl, r, true}
		}
		if r := s.Get(incl).Rat(); r != nil && b.v == nil {
			b = bound{incl, r, false}
		}
		return b
	}
	lo, hi := pick("minimum", "exclusiveMinimum"), pick("maximum", "exclusiveMaximum")
	if lo.v != nil && hi.v != nil {
		if cmp := lo.v.Cmp(hi.v); cmp > 0 || (cmp == 0 && (lo.exclusive || hi.exclusive)) {
			c.add(RuleBoundsInverted, ptr+"/"+lo.kw, "%s %s and %s %s leave no value", lo.kw, s.Get(lo.kw).Str, hi.kw, s.Get(hi.kw).Str)
		}
	}
	for _, p := range sizeBounds {
		a, b := s.Get(p[0]).Rat(), s.Get(p[1]).Rat()
		if a != nil && b != nil && a.Cmp(b) > 0 {
			c.add(RuleBoundsInverted, ptr+"/"+p[0], "%s %s is above %s %s", p[0], s.Get(p[0]).Str, p[1], s.Get(p[1]).Str)
		}
	}
}

// sizeBounds are the [lower, upper] bounds of a string's length, an
// array's items and an object's members. The bounds of contains count the
// items that match it, which these rules leave alone.
var sizeBounds = schema.CountPairs(func(k schema.Keyword) bool { return k.Name != "minContains" })
