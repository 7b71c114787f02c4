package gate

import (
	"context"
	"errors"
	"fmt"
)

// PendingStore holds the calls that await approval. Implementations must
// be safe for concurrent use; a store shared by several replicas (a
// networked store, such as the Redis one in runtime/redispending) lets any
// replica decide and resume any pending call.
//
// The gate fails closed on the store: any error from it (a full store, a
// lost connection, a cancelled context, an answer it cannot read), and a
// panic, refuses the step with the code approval_unavailable, and nothing
// runs; a full quota (an error wrapping ErrPendingQuota) refuses it with
// approval_quota. Every change of a pending call is a compare-and-set on
// its state, so two replicas that approve, reject, expire or resume one
// call at the same moment cannot both succeed. A store must not forget an
// open call (pending or approved) before its ExpiresAt to make room: when
// full, it refuses the new calls instead.
type PendingStore interface {
	// Create stores new pending calls (each in StatePending), all or none:
	// when one cannot be stored (its ID is taken, a quota or the store is
	// full, the store fails), none is, and none is left behind. The calls
	// of one Create are of one tenant (one dispatched batch).
	Create(ctx context.Context, calls ...PendingCall) error
	// Get returns the pending call with the ID, or an error wrapping
	// ErrPendingNotFound.
	Get(ctx context.Context, id string) (PendingCall, error)
	// CompareAndSwap replaces the pending call with the ID by next if, and
	// only if, its state is from, atomically: it returns false (and no
	// error) when the state is another, and an error wrapping
	// ErrPendingNotFound when there is no such call.
	CompareAndSwap(ctx context.Context, id string, from PendingState, next PendingCall) (bool, error)
	// List returns a page of the open calls (pending or approved, and not
	// past their ExpiresAt) of q.Tenant, oldest first (by CreatedAt, then
	// PendingID), with their argument bytes: the gate's ListPending decides
	// what a viewer sees of them.
	List(ctx context.Context, q PendingQuery) (PendingPage, error)
}

// The errors of pending stores.
var (
	// ErrPendingNotFound: no pending call has the ID (or it was dropped
	// after its expiry).
	ErrPendingNotFound = errors.New("gate: no such pending call")
	// ErrPendingStoreFull: the store cannot hold a new call while every
	// call it must keep is unexpired (a capacity of MemoryPendingStore, or
	// a Redis at its maxmemory).
	ErrPendingStoreFull = errors.New("gate: the pending store is full")
	// ErrPendingExists: Create was given an ID already stored.
	ErrPendingExists = errors.New("gate: a pending call with that ID exists")
	// ErrPendingQuota: a new call would exceed its tenant's or its
	// requester's quota (PendingQuota). Stores return a *QuotaError.
	ErrPendingQuota = errors.New("gate: a pending quota is full")
)

// PendingQuota bounds the open calls (pending or approved, and unexpired)
// that one tenant, and one requester within a tenant, may hold in a store,
// so that a tenant that floods the store refuses only its own new calls.
// A field at zero or below takes its default.
type PendingQuota struct {
	// TenantCalls and TenantBytes bound the calls of one tenant and their
	// size (as the store's Bytes counts it).
	TenantCalls, TenantBytes int
	// RequesterCalls and RequesterBytes bound those of one requester.
	RequesterCalls, RequesterBytes int
}

// The defaults of PendingQuota.
const (
	DefaultTenantPendingCalls    = 1_000
	DefaultTenantPendingBytes    = 16 << 20
	DefaultRequesterPendingCalls = 100
	DefaultRequesterPendingBytes = 4 << 20
)

// WithDefaults returns q with every field at zero or below set to its
// default.
func (q PendingQuota) WithDefaults() PendingQuota {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&q.TenantCalls, DefaultTenantPendingCalls)
	def(&q.TenantBytes, DefaultTenantPendingBytes)
	def(&q.RequesterCalls, DefaultRequesterPendingCalls)
	def(&q.RequesterBytes, DefaultRequesterPendingBytes)
	return q
}

// QuotaError says which quota a new call would exceed. It names neither
// the tenant nor the requester: the refusal goes to the model.
type QuotaError struct {
	// Of is "tenant" or "requester"; Unit is "calls" or "bytes".
	Of, Unit string
	// Limit is the quota; Held is what the tenant or requester holds.
	Limit, Held int
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("gate: the %s's quota of pending approvals is full (%d %s held, quota %d)", e.Of, e.Held, e.Unit, e.Limit)
}

// Is makes a *QuotaError match ErrPendingQuota.
func (e *QuotaError) Is(target error) bool { return target == ErrPendingQuota }

// PendingUse is what a tenant or a requester holds in a store, or adds
// to it.
type PendingUse struct{ Calls, Bytes int }

// Check returns the *QuotaError for a tenant that holds tenant and would
// add tenantNew, whose requester holds requester and would add
// requesterNew; nil when the quotas have room.
func (q PendingQuota) Check(tenant, tenantNew, requester, requesterNew PendingUse) *QuotaError {
	switch {
	case tenant.Calls+tenantNew.Calls > q.TenantCalls:
		return &QuotaError{Of: "tenant", Unit: "calls", Limit: q.TenantCalls, Held: tenant.Calls}
	case tenant.Bytes+tenantNew.Bytes > q.TenantBytes:
		return &QuotaError{Of: "tenant", Unit: "bytes", Limit: q.TenantBytes, Held: tenant.Bytes}
	case requester.Calls+requesterNew.Calls > q.RequesterCalls:
		return &QuotaError{Of: "requester", Unit: "calls", Limit: q.RequesterCalls, Held: requester.Calls}
	case requester.Bytes+requesterNew.Bytes > q.RequesterBytes:
		return &QuotaError{Of: "requester", Unit: "bytes", Limit: q.RequesterBytes, Held: requester.Bytes}
	}
	return nil
}

// PendingQuery asks a store for a page of a tenant's open calls.
type PendingQuery struct {
	// Tenant is whose calls (the gate sets it to the viewer's tenant).
	Tenant string
	// Tool, when not empty, keeps the calls of that tool only.
	Tool string
	// After is the Next of the previous page; empty for the first.
	After string
	// Limit is the most calls of the page: at most MaxPendingPage, and
	// DefaultPendingPage when zero or below.
	Limit int
}

// The sizes of a page of pending calls.
const (
	DefaultPendingPage = 50
	MaxPendingPage     = 500
)

// PageLimit returns q's Limit bounded as PendingQuery says.
func (q PendingQuery) PageLimit() int {
	switch {
	case q.Limit <= 0:
		return DefaultPendingPage
	case q.Limit > MaxPendingPage:
		return MaxPendingPage
	}
	return q.Limit
}

// PendingPage is one page of open calls.
type PendingPage struct {
	Calls []PendingCall
	// Next is the After of the next page; empty on the last page.
	Next string
}

// Open reports whether a call in state s still holds its place in a
// store's quota: pending or approved.
func (s PendingState) Open() bool { return s == StatePending || s == StateApproved }

// PendingSize is what a call counts against a store's Bytes and quotas:
// its argument bytes and strings, and a fixed share for the rest.
func PendingSize(pc PendingCall) int {
	n := 256 + len(pc.Args) + len(pc.PendingID) + len(pc.Tool) + len(pc.Version) + len(pc.ArgsDigest) +
		len(pc.CallID) + len(pc.Principal) + len(pc.Tenant) + len(pc.Scope) + len(pc.RequestID) +
		len(pc.Reason) + len(pc.DecidedBy) + len(pc.Note) + len(pc.Dialect)
	for _, r := range pc.Roles {
		n += 16 + len(r)
	}
	return n
}
