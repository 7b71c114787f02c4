package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ListPending returns a page of the open calls (pending or approved, and
// not past their expiry) of the viewer's tenant, oldest first, for an
// approval screen: of one tool when q.Tool is set, after the page q.After
// ended (its Next), at most q.Limit (DefaultPendingPage when zero, at
// most MaxPendingPage). q.Tenant is ignored: a viewer sees its own
// tenant's calls only.
//
// The viewer must be identified (approval_forbidden). A call is listed
// when the viewer requested it, holds one of its tool's approver roles, or
// may see its tool; its argument bytes only when the viewer may Inspect it
// (requester or approver): otherwise Args is nil. Calls of tools no longer
// bound are left out. A store that fails is approval_unavailable.
func (r *Registry) ListPending(ctx context.Context, viewer Principal, q PendingQuery) (PendingPage, error) {
	if viewer.ID == "" {
		return PendingPage{}, approvalErr(toolerr.ApprovalForbidden, q.Tool, "", "a viewer of pending calls must be identified", nil)
	}
	q.Tenant, q.Limit = viewer.Tenant, q.PageLimit()
	page, err := r.listPending(ctx, q)
	if err != nil {
		return PendingPage{}, pendingUnavailable(q.Tool, "", err)
	}
	now := r.wall()
	shown := PendingPage{Next: page.Next}
	for _, pc := range page.Calls {
		t := r.tools[pc.Tool]
		switch {
		case pc.Tenant != viewer.Tenant || (q.Tool != "" && pc.Tool != q.Tool) || !pc.State.Open():
			return PendingPage{}, pendingUnavailable(q.Tool, "", errors.New("the pending store listed a call that the query excludes"))
		case t == nil || !now.Before(pc.ExpiresAt):
			continue
		}
		inspect := viewer.ID == pc.Principal || holdsRole(viewer, t.Approvers)
		if !inspect && !t.VisibleTo(viewer) {
			continue
		}
		pc = pc.clone()
		if !inspect {
			pc.Args = nil
		}
		shown.Calls = append(shown.Calls, pc)
	}
	return shown, nil
}

// listPending asks the store for a page, turning a panic into an error and
// checking the page's size.
func (r *Registry) listPending(ctx context.Context, q PendingQuery) (page PendingPage, err error) {
	defer func() {
		if v := recover(); v != nil {
			page, err = PendingPage{}, fmt.Errorf("the pending store panicked: %v", v)
		}
	}()
	page, err = r.pending.List(ctx, q)
	if err == nil && len(page.Calls) > q.Limit {
		return PendingPage{}, fmt.Errorf("the pending store listed %d calls for a page of %d", len(page.Calls), q.Limit)
	}
	return page, err
}
