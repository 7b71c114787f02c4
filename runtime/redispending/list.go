package redispending

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate/runtime/gate"
)

// List implements gate.PendingStore: one read-only script pages through
// the tenant's (or the tool's) index of open calls in creation order. It
// reads at most 4 × Limit + 256 index members: when many calls in between
// expired, a page may hold fewer calls than asked and still have a Next.
func (s *Store) List(ctx context.Context, q gate.PendingQuery) (gate.PendingPage, error) {
	limit := q.PageLimit()
	open, _, index := s.tenantKeys(q.Tenant)
	if q.Tool != "" {
		index = s.toolIndexKey(q.Tenant, q.Tool)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := listScript.Run(ctx, s.client, []string{index, open}, q.After, limit, s.now().UnixMilli(), 4*limit+256).Slice()
	if err != nil {
		return gate.PendingPage{}, s.fail(ctx, "list", err)
	}
	if len(v) == 0 || len(v) > limit+1 {
		return gate.PendingPage{}, fmt.Errorf("%w: list answered %d values for a page of %d", errGarbage, len(v), limit)
	}
	next, ok := v[0].(string)
	if !ok {
		return gate.PendingPage{}, fmt.Errorf("%w: list answered no cursor", errGarbage)
	}
	page := gate.PendingPage{Next: next}
	for _, rec := range v[1:] {
		pc, err := decode("", "", rec)
		if err != nil {
			return gate.PendingPage{}, err
		}
		if pc.Tenant != q.Tenant || (q.Tool != "" && pc.Tool != q.Tool) {
			return gate.PendingPage{}, fmt.Errorf("%w: list answered another tenant's or tool's call", errGarbage)
		}
		page.Calls = append(page.Calls, pc)
	}
	return page, nil
}
