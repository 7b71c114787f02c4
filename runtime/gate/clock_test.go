package gate

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Tests of the clock reads that time a call's steps.

// TestClockReads: with an auditor, a dispatch reads the registry's clock
// once at each step boundary: start, end of decode, end of policy, and the
// executor's return; with a call ID, also after the replay store's claim
// (its one round trip), which is not counted in the steps. Without an
// auditor it reads none. The steps' durations are those of the reads.
func TestClockReads(t *testing.T) {
	tests := []struct {
		name    string
		audited bool
		id      string
		reads   int
	}{
		{"audited, no ID", true, "", 4},
		{"audited, ID", true, "a", 5},
		{"not audited, no ID", false, "", 0},
		{"not audited, ID", false, "a", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c spyCounts
			var opts []Option
			rec := newRecorder()
			if tc.audited {
				opts = append(opts, WithAuditor(rec))
			}
			r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, opts...)
			// A store that is not the in-memory one, so that its own clock
			// is not counted.
			r.replay = &memoryOnly{ids: map[string]bool{}}
			reads := 0
			tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			r.now = func() time.Time { reads++; tick = tick.Add(time.Millisecond); return tick }
			res, err := r.Dispatch(context.Background(), caller, Call{ID: tc.id, Name: "pay", Args: []byte(goodPay), Complete: true})
			if err != nil || res.Value != "paid ACC-1" {
				t.Fatalf("dispatch: %+v, %v", res, err)
			}
			if reads != tc.reads {
				t.Errorf("%d clock reads, want %d", reads, tc.reads)
			}
			if !tc.audited {
				return
			}
			ms := time.Millisecond
			if e := rec.wait(1)[0]; e.Decode != ms || e.Policy != ms || e.Execute != ms || e.Duration != ms || e.Code != OK {
				t.Errorf("event = %+v, want each step 1ms", e)
			}
		})
	}
}

// memoryOnly is a minimal ReplayStore.
type memoryOnly struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *memoryOnly) Seen(_ context.Context, scope, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[scope+"\x00"+id], nil
}

func (s *memoryOnly) Claim(_ context.Context, scope, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := scope + "\x00" + id
	if s.ids[k] {
		return false, nil
	}
	s.ids[k] = true
	return true, nil
}

func (s *memoryOnly) Release(_ context.Context, scope, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ids, scope+"\x00"+id)
	return nil
}
