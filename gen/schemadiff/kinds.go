// Package schemadiff compares two sets of tool definitions and classifies
// every change per tool: breaking (a call the old schema accepted is now
// refused, or means something else), widening (the gate accepts more: how a
// gate gets weaker, so it is reported) or compatible. Each change is
// classified twice: for callers (new calls written against the old
// definition) and for queued calls (calls already made against the old
// schema, executed after the change).
package schemadiff

// Class is how a change affects calls.
type Class uint8

// The classes, from harmless to breaking.
const (
	Compatible Class = iota
	Widening
	Breaking
)

func (c Class) String() string { return [...]string{"compatible", "widening", "breaking"}[c] }

// Kind is one kind of change.
type Kind struct {
	ID      string
	Callers Class
	Queued  Class
	Summary string
}

// The change kinds.
const (
	ToolRemoved        = "tool-removed"
	ToolAdded          = "tool-added"
	DescriptionChanged = "description-changed"
	PropertyRemoved    = "property-removed"
	PropertyAdded      = "property-added"
	RequiredAdded      = "required-added"
	RequiredRemoved    = "required-removed"
	TypeNarrowed       = "type-narrowed"
	TypeWidened        = "type-widened"
	EnumValueRemoved   = "enum-value-removed"
	EnumValueAdded     = "enum-value-added"
	EnumAdded          = "enum-added"
	EnumRemoved        = "enum-removed"
	BoundNarrowed      = "bound-narrowed"
	BoundWidened       = "bound-widened"
	PatternAdded       = "pattern-added"
	PatternChanged     = "pattern-changed"
	PatternRemoved     = "pattern-removed"
	FormatAdded        = "format-added"
	FormatChanged      = "format-changed"
	FormatRemoved      = "format-removed"
	ObjectClosed       = "object-closed"
	ObjectOpened       = "object-opened"
	DefaultChanged     = "default-changed"
	SchemaChanged      = "schema-changed"
	RolesNarrowed      = "roles-narrowed"
	RolesWidened       = "roles-widened"
	ResultChanged      = "result-changed"
)

// Kinds lists every change kind.
var Kinds = []Kind{
	{ToolRemoved, Breaking, Breaking, "A tool is removed: every call to it is refused."},
	{ToolAdded, Widening, Compatible, "A tool is added: the gate accepts calls it refused."},
	{DescriptionChanged, Compatible, Compatible, "A description changed: the model may call differently, the gate accepts the same."},
	{PropertyRemoved, Breaking, Breaking, "A member is removed: calls that send it are refused (closed objects) or lose it."},
	{PropertyAdded, Widening, Compatible, "An optional member is added."},
	{RequiredAdded, Breaking, Breaking, "A member becomes required, or a required member is added: calls without it are refused."},
	{RequiredRemoved, Widening, Compatible, "A member becomes optional."},
	{TypeNarrowed, Breaking, Breaking, "A type is narrowed (number to integer, a type removed)."},
	{TypeWidened, Widening, Compatible, "A type is widened (integer to number, a type or null added)."},
	{EnumValueRemoved, Breaking, Breaking, "An enum value is removed."},
	{EnumValueAdded, Widening, Compatible, "An enum value is added."},
	{EnumAdded, Breaking, Breaking, "An enum (or const) is added to a schema that had none."},
	{EnumRemoved, Widening, Compatible, "An enum (or const) is removed."},
	{BoundNarrowed, Breaking, Breaking, "A bound is added or tightened (minimum, maximum, lengths, item and member counts, multipleOf, exclusivity)."},
	{BoundWidened, Widening, Compatible, "A bound is removed or relaxed."},
	{PatternAdded, Breaking, Breaking, "A pattern is added."},
	{PatternChanged, Breaking, Breaking, "A pattern is changed: toolgate cannot prove the new one accepts what the old did."},
	{PatternRemoved, Widening, Compatible, "A pattern is removed."},
	{FormatAdded, Breaking, Breaking, "A format is added."},
	{FormatChanged, Breaking, Breaking, "A format is changed."},
	{FormatRemoved, Widening, Compatible, "A format is removed."},
	{ObjectClosed, Breaking, Breaking, "An object is closed: calls with undeclared members are refused."},
	{ObjectOpened, Widening, Compatible, "An object is opened: the gate accepts members nobody declared."},
	{DefaultChanged, Breaking, Breaking, "A default is added, changed or removed: an omitted member now means something else."},
	{RolesNarrowed, Breaking, Breaking, "x-toolgate roles lose a role, or a tool open to every principal gets roles: principals that could call it are refused."},
	{RolesWidened, Widening, Compatible, "x-toolgate roles gain a role, or lose them all: more principals may call the tool."},
	{SchemaChanged, Breaking, Breaking, "A subschema changed in a way toolgate does not classify (an applicator such as anyOf): reviewed as breaking."},
	{ResultChanged, Breaking, Breaking, "The result schema (outputSchema) is added, removed or changed: clients that read results, and executors built against the old one, are reviewed as broken."},
}

// KindByID returns the kind with the ID, or nil.
func KindByID(id string) *Kind {
	for i := range Kinds {
		if Kinds[i].ID == id {
			return &Kinds[i]
		}
	}
	return nil
}
