package redispending

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Get implements gate.PendingStore: one HMGET of the call's state and
// record.
func (s *Store) Get(ctx context.Context, id string) (gate.PendingCall, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := s.client.HMGet(ctx, s.recordKey(id), "s", "d").Result()
	if err != nil {
		return gate.PendingCall{}, s.fail(ctx, "get", err)
	}
	if len(v) != 2 {
		return gate.PendingCall{}, fmt.Errorf("%w: get answered %d values", errGarbage, len(v))
	}
	if v[0] == nil && v[1] == nil {
		return gate.PendingCall{}, gate.ErrPendingNotFound
	}
	state, ok := v[0].(string)
	if !ok {
		return gate.PendingCall{}, fmt.Errorf("%w: a call without its state", errGarbage)
	}
	return decode(id, state, v[1])
}

// CompareAndSwap implements gate.PendingStore: one script compares the
// call's state with from and, when equal, stores next (which keeps the
// call's ID) and, when next leaves the open states, stops counting it
// against the quotas. next must keep the call's tenant and tool.
func (s *Store) CompareAndSwap(ctx context.Context, id string, from gate.PendingState, next gate.PendingCall) (bool, error) {
	next.PendingID = id
	rec, err := encode(next)
	if err != nil {
		return false, fmt.Errorf("redispending: %w", err)
	}
	open, quota, index := s.tenantKeys(next.Tenant)
	keys := []string{s.recordKey(id), open, quota, index, s.toolIndexKey(next.Tenant, next.Tool)}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	token := rand.Text()
	n, err := swapScript.Run(cctx, s.client, keys, id, string(from), string(next.State), rec, gate.PendingSize(next), token).Int64()
	if err != nil {
		if s.landed(ctx, id, token, err) {
			return true, nil
		}
		return false, s.fail(cctx, "compare-and-swap", err)
	}
	switch n {
	case 1:
		return true, nil
	case 0:
		return false, nil
	case -1:
		return false, gate.ErrPendingNotFound
	}
	return false, fmt.Errorf("%w: compare-and-swap answered %d", errGarbage, n)
}

// landed reports whether a swap whose answer was lost (err is not an
// answer of Redis: a timeout, a broken connection) was done all the same:
// one more read, under a timeout of its own, finds the swap's token (128
// random bits) on the call. A Resume whose move landed then runs the call,
// once, instead of leaving it resumed without running it.
func (s *Store) landed(ctx context.Context, id, token string, err error) bool {
	var answer redis.Error
	if errors.As(err, &answer) || ctx.Err() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	got, gerr := s.client.HGet(ctx, s.recordKey(id), "w").Result()
	return gerr == nil && got == token
}
