package gate

import (
	"context"
	"errors"
	"net"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maxCauseBytes bounds an event's Cause: a policy's error text beyond it
// is cut (at a rune boundary) and marked with "…".
const maxCauseBytes = 512

// The classes of a store failure (Event.Cause of replay_unavailable and
// approval_unavailable), from the store's error, never its text.
const (
	// CauseStoreFull: the store refused to hold more (ErrReplayStoreFull).
	CauseStoreFull = "store_full"
	// CauseStoreDeadline: the request's deadline passed (or the store's
	// own timeout, as context.DeadlineExceeded).
	CauseStoreDeadline = "deadline_exceeded"
	// CauseStoreCanceled: the request was cancelled.
	CauseStoreCanceled = "canceled"
	// CauseStorePanic: the store panicked.
	CauseStorePanic = "panic"
	// CauseStoreNetwork: a network error (a net.Error) reaching the store.
	CauseStoreNetwork = "network"
	// CauseStoreOther: any other error of a store that does not name its
	// class (see ErrorClass).
	CauseStoreOther = "other"
)

// ErrorClass is implemented by a store's error that names its class (for
// example "oom" or "protocol"), which then is the event's Cause. The class
// must be a fixed word of the store's, never a value it read or was given.
type ErrorClass interface {
	ErrorClass() string
}

// errStorePanicked wraps the value of a store's panic.
var errStorePanicked = errors.New("the store panicked")

// cause returns the Cause of an event for refusal e: a denial's policy
// error text, as the service wrote it, or a store failure's class; ""
// otherwise. An argument value reaches neither: the gate's own refusal
// text is not used, and a store's error is reduced to its class.
func cause(e *toolerr.Error) string {
	if e == nil || e.Err == nil {
		return ""
	}
	switch e.Code {
	case toolerr.Unauthorized:
		return cut(e.Err.Error())
	case toolerr.ReplayUnavailable, toolerr.ApprovalUnavailable:
		return storeClass(e.Err)
	}
	return ""
}

// storeClass returns the class of a store's error.
func storeClass(err error) string {
	var named ErrorClass
	var netErr net.Error
	switch {
	case errors.Is(err, ErrReplayStoreFull):
		return CauseStoreFull
	case errors.Is(err, errStorePanicked):
		return CauseStorePanic
	case errors.Is(err, context.DeadlineExceeded):
		return CauseStoreDeadline
	case errors.Is(err, context.Canceled):
		return CauseStoreCanceled
	case errors.As(err, &named) && named.ErrorClass() != "":
		return cut(named.ErrorClass())
	case errors.As(err, &netErr):
		return CauseStoreNetwork
	}
	return CauseStoreOther
}

// cut bounds s to maxCauseBytes.
func cut(s string) string {
	if len(s) <= maxCauseBytes {
		return s
	}
	i := maxCauseBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
