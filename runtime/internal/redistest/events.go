package redistest

import (
	"context"
	"sync"

	"github.com/toolgate/toolgate/runtime/gate"
)

// Events is a gate.Auditor that records the gate's audit events.
type Events struct {
	mu  sync.Mutex
	all []gate.Event
}

// Audit implements gate.Auditor.
func (e *Events) Audit(_ context.Context, ev gate.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

// Last returns the event recorded last.
func (e *Events) Last() gate.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.all[len(e.all)-1]
}
