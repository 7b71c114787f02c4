package redispending

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/toolgate/toolgate/runtime/gate"
)

// maxRetire bounds how many expired open calls of the tenant one Create
// stops counting against the quotas.
const maxRetire = 1024

// Create implements gate.PendingStore: one script stores the calls, all
// or none, once the tenant's expired open calls are retired and the
// quotas checked. The calls must be of one tenant.
func (s *Store) Create(ctx context.Context, calls ...gate.PendingCall) error {
	if len(calls) == 0 {
		return nil
	}
	tenant := calls[0].Tenant
	open, quota, index := s.tenantKeys(tenant)
	keys := []string{open, quota, index}
	args := []any{s.now().UnixMilli(), s.quota.TenantCalls, s.quota.TenantBytes, s.quota.RequesterCalls, s.quota.RequesterBytes, s.grace.Milliseconds(), maxRetire}
	ids := map[string]bool{}
	for _, pc := range calls {
		switch {
		case pc.Tenant != tenant:
			return errors.New("redispending: the calls of one Create must be of one tenant")
		case ids[pc.PendingID]:
			return gate.ErrPendingExists
		}
		ids[pc.PendingID] = true
		rec, err := encode(pc)
		if err != nil {
			return fmt.Errorf("redispending: %w", err)
		}
		e, err := s.entryOf(pc)
		if err != nil {
			return fmt.Errorf("redispending: %w", err)
		}
		keys = append(keys, s.recordKey(pc.PendingID), s.toolIndexKey(pc.Tenant, pc.Tool))
		args = append(args, pc.PendingID, string(pc.State), rec, e)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := createScript.Run(ctx, s.client, keys, args...).Slice()
	if err != nil {
		return s.fail(ctx, "create", err)
	}
	return createAnswer(v)
}

// createAnswer reads the create script's answer.
func createAnswer(v []any) error {
	if len(v) == 1 && v[0] == int64(1) {
		return nil
	}
	if len(v) == 2 && v[0] == "exists" {
		return gate.ErrPendingExists
	}
	if len(v) == 5 && v[0] == "quota" {
		of, ofOK := v[1].(string)
		unit, unitOK := v[2].(string)
		limit, limitOK := v[3].(int64)
		held, heldOK := v[4].(int64)
		if ofOK && unitOK && limitOK && heldOK && (of == "tenant" || of == "requester") && (unit == "calls" || unit == "bytes") {
			return &gate.QuotaError{Of: of, Unit: unit, Limit: int(limit), Held: int(held)}
		}
	}
	return fmt.Errorf("%w: create answered %s", errGarbage, strconv.Quote(fmt.Sprint(v)))
}
