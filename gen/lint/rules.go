package lint

import "github.com/toolgate/toolgate/gen"

// Rule is one check.
type Rule struct {
	ID       string
	Severity Severity
	// Summary says what the rule wants, for --help, SARIF and gen/lint/RULES.md.
	Summary string
}

// The rule IDs.
const (
	RuleConfig           = "lint-config"
	RuleNameVerbNoun     = "name-verb-noun"
	RuleNameConfusable   = "name-confusable"
	RuleNameNear         = "name-near"
	RuleDescMissing      = "desc-missing"
	RuleDescRepeatsName  = "desc-repeats-name"
	RuleDescLength       = "desc-length"
	RuleDescContent      = "desc-content"
	RuleParamDesc        = "param-desc"
	RuleUnit             = "unit-name"
	RuleMoneyInteger     = "money-integer"
	RuleDateFormat       = "date-format"
	RuleObjectOpen       = "object-open"
	RuleImpliedClosed    = "object-implied-closed"
	RuleArrayItems       = "array-items"
	RuleObjectProperties = "object-properties"
	RuleLeafType         = "leaf-type"
	RuleRequiredUnknown  = "required-unknown"
	RuleNullMeaning      = "null-meaning"
	RuleOmitMeaning      = "omit-meaning"
	RuleDefaultAccessor  = "default-accessor"
	RuleEnumSpelling     = "enum-spelling"
	RuleBoundsInverted   = "bounds-inverted"
	RuleStringMaxLength  = "string-max-length"
	RuleBoundInclusive   = "bound-inclusivity"
	RuleTrustedIdentity  = "trusted-identity"
	RuleProviderFit      = "provider-fit"
	RuleProviderRefused  = "provider-refused"
	RuleApproval         = "destructive-approval"
	// The rules of the generator's own warnings (gen.Warning kinds).
	RuleDefaultInvalid = gen.WarnDefaultInvalid
	RuleFormatUnknown  = gen.WarnFormatUnknown
	RuleRootType       = gen.WarnRootType
	RuleNeverValid     = gen.WarnNeverValid
)

// Rules lists every rule, in the order gen/lint/RULES.md documents them.
var Rules = []Rule{
	{RuleNameVerbNoun, Warning, "A tool name is one operation, verb_noun in snake_case (handle_order: which action? get_and_cancel_order: two)."},
	{RuleNameConfusable, Error, "No two tool names, and no two members of one object, are the same after folding case, separators and homoglyphs."},
	{RuleNameNear, Warning, "No two tool names are one edit apart."},
	{RuleDescMissing, Warning, "A tool has a non-empty description."},
	{RuleDescRepeatsName, Warning, "A tool description is more than its name repeated."},
	{RuleDescLength, Warning, "A tool description fits the budget of 1024 characters."},
	{RuleDescContent, Warning, "A tool description says what it does, when to use it, what it excludes and what it returns."},
	{RuleParamDesc, Warning, "Every parameter has a description."},
	{RuleUnit, Warning, "A number that looks like money, a duration or a size names its unit (amount_pence, timeout_ms, size_bytes)."},
	{RuleMoneyInteger, Warning, "Money is an integer of minor units, not a number."},
	{RuleDateFormat, Warning, "A string named like a date or time has format date, date-time or time."},
	{RuleObjectOpen, Warning, "Every object is closed: additionalProperties is false at every level, array items included."},
	{RuleImpliedClosed, Hint, "Objects closed only by toolgate's default are noted once per tool: other JSON Schema tools read them as open."},
	{RuleArrayItems, Warning, "Every array has items."},
	{RuleObjectProperties, Warning, "Every object has properties."},
	{RuleLeafType, Warning, "Every leaf schema has a type (or an enum, a const or a $ref)."},
	{RuleRequiredUnknown, Error, "Every required member is declared in properties."},
	{RuleNullMeaning, Warning, "A nullable member's description says what null means."},
	{RuleOmitMeaning, Warning, "An optional member's description says what leaving it out means."},
	{RuleDefaultAccessor, Hint, "A default is not applied by the decoder: the generated …OrDefault accessor applies it, and the description should say so."},
	{RuleEnumSpelling, Error, "An enum has one spelling per value: no values that differ only in case or whitespace."},
	{RuleBoundsInverted, Error, "minimum ≤ maximum, minLength ≤ maxLength, minItems ≤ maxItems, minProperties ≤ maxProperties."},
	{RuleStringMaxLength, Warning, "A free-text string (no enum, const, pattern or format) has a maxLength."},
	{RuleBoundInclusive, Hint, "A description says whether a maximum (or a minimum other than 0 or 1) is inclusive; exclusiveMaximum and exclusiveMinimum say it themselves."},
	{RuleTrustedIdentity, Error, "A parameter that should come from the session is not taken from the model: a claim about the caller (is_admin), a check switched off (skip_approval, bypass_auth), and on a tool that changes state the acting party (acting_user_id, caller_id, requester), a grant (role, scope, approved) or a user, customer, account or tenant ID that the tool's name does not make the object of the call. A filter on a read-only tool, a chat message's role and a pagination skip are not flagged. Disable it with a reason in the tool file's x-toolgate-lint, or for files a team does not own in toolgate-lint.json."},
	{RuleProviderFit, Hint, "Rules a provider the tool is exported to cannot express are listed: the gate enforces them locally."},
	{RuleProviderRefused, Error, "Every provider the tool is exported to can carry it."},
	{RuleApproval, Hint, "A destructive tool says in x-toolgate approval whether its calls wait for a person's approval: destructive alone approves nothing."},
	{RuleConfig, Error, "A tool file's x-toolgate-lint entries are valid and carry a reason."},
	{RuleDefaultInvalid, Error, "A default satisfies its own schema. The generator accepts the tool with a warning and generates no …OrDefault accessor for it (the decoder never applies defaults)."},
	{RuleFormatUnknown, Warning, "A format is one toolgate asserts; any other is an annotation, as in JSON Schema 2020-12, that nobody enforces."},
	{RuleRootType, Warning, "A root schema with properties says \"type\": \"object\"; without it toolgate reads it as an object, as MCP clients do."},
	{RuleNeverValid, Warning, "Some value satisfies every member's schema (an enum's values are of its type); a member none satisfies can only be left out, and one that is required refuses the tool."},
}

// certain are the Error rules whose finding is certainly wrong: a schema no
// value satisfies, a chosen provider that cannot carry the tool, an invalid
// lint config. generate and check refuse a tool for them; every other rule
// is a heuristic, a warning there (lint --fail-on makes it fail CI).
var certain = map[string]bool{RuleBoundsInverted: true, RuleProviderRefused: true, RuleConfig: true}

// Certain reports whether generate and check refuse a tool for a finding
// of the rule: see certain.
func (r Rule) Certain() bool { return certain[r.ID] }

// RuleByID returns the rule with the ID, or nil.
func RuleByID(id string) *Rule {
	for i := range Rules {
		if Rules[i].ID == id {
			return &Rules[i]
		}
	}
	return nil
}

func severity(id string) Severity { return RuleByID(id).Severity }
