package gate

// The vocabulary of a call: who it acts for (Principal, Caller), what the
// model proposed (Call, in a Dialect) and what the gate answered (Result).

import (
	"context"
	"slices"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Principal is who a call acts for. The service fills it from its own
// authentication; nothing in it ever comes from the model. Tenant keeps
// tenants apart where the gate keeps state for a principal: an approver
// sees and decides only the pending calls of its own tenant.
type Principal struct {
	ID     string
	Tenant string
	Roles  []string
}

// clone returns a copy of p that shares nothing mutable with it.
func (p Principal) clone() Principal {
	p.Roles = slices.Clone(p.Roles)
	return p
}

// cloneFrom is clone with the roles copied into the front of spare when it
// has room (so that one allocation holds several copies); it returns the
// rest of spare. The copy's capacity is its length, so that an append to
// it cannot reach the copies after it.
func (p Principal) cloneFrom(spare []string) (Principal, []string) {
	n := len(p.Roles)
	if p.Roles == nil || n > len(spare) {
		return p.clone(), spare
	}
	p.Roles = spare[:copy(spare[:n:n], p.Roles):n]
	return p, spare[n:]
}

// principalKey is the context key of the principal an executor runs for.
type principalKey struct{}

// PrincipalFrom returns the principal of the call whose executor was given
// ctx. It is a fresh copy on every call: changing it changes nothing for
// the gate.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	if !ok {
		return Principal{}, false
	}
	return p.clone(), true
}

// Dialect names the provider wire format a call came from. Provider
// adapters set it; the gate uses it where a provider's projection of the
// schema changes meaning.
type Dialect string

// The dialects.
const (
	Plain           Dialect = ""
	OpenAIChat      Dialect = "openai-chat"
	OpenAIResponses Dialect = "openai-responses"
	Anthropic       Dialect = "anthropic"
	Gemini          Dialect = "gemini"
	MCP             Dialect = "mcp"
)

// Call is one tool call proposed by a model, normalized from a provider's
// envelope.
type Call struct {
	// ID is the provider's call ID (unique within a scope). A call with an
	// empty ID is not replay-checked: nothing stops it from running again.
	ID string
	// Name is the tool name exactly as the model wrote it.
	Name string
	// Args are the argument bytes exactly as received.
	Args []byte
	// Complete is false while a streamed call is unfinished, or when the
	// response was cut by a token limit.
	Complete bool
	// Dialect is the provider format the call came from.
	Dialect Dialect
}

// Caller is the trusted context of a dispatch.
type Caller struct {
	Principal Principal
	// Scope keys the replay store: the conversation or session the calls
	// belong to. A call ID runs at most once per scope.
	Scope string
	// RequestID is passed to the audit events.
	RequestID string
	// Model identifies the model that proposed the calls, when the service
	// knows it; it is passed to the audit events.
	Model string
}

// Result is the outcome of one call.
type Result struct {
	CallID string
	Tool   string
	// Value is what the executor returned, when it ran and succeeded; for a
	// tool with a result schema, the checked <Tool>Result.
	Value any
	// JSON is, for a tool with a result schema, the checked encoding of
	// Value: the bytes to send (see BindTyped). It is nil otherwise.
	JSON []byte
	// Err is the refusal or failure, nil on success.
	Err *toolerr.Error
	// Executed reports whether the executor was started.
	Executed bool
	// Approval describes the pending call: of a call stored to await
	// approval (Err's code is approval_required), or of a resumed one.
	Approval *Ticket
}
