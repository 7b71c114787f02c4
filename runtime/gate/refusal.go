package gate

import (
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The gate's own refusals: each a *toolerr.Error of its own for the call,
// naming the tool, whatever error of the tool's code it was made from.

// checkPanicked is the refusal of a call whose decoder, policy or
// NeedsApproval panicked: a system error, and nothing ran.
func checkPanicked(tool, callID string, v any) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.ExecutionFailed, Tool: tool, CallID: callID, Reason: "the call could not be checked; nothing was run", Err: fmt.Errorf("decoder or policy panicked: %v", v)}
}

func duplicate(tool, id, what string) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.DuplicateCall, Tool: tool, CallID: id, Reason: fmt.Sprintf("call ID %s %s; it does not run again", quoteName(id), what)}
}

// replayUnavailable is the refusal of a call whose ID the replay store
// could not check or claim; err (kept for the logs) says why.
func replayUnavailable(tool, id string, err error) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.ReplayUnavailable, Tool: tool, CallID: id, Reason: "the call ID could not be checked against replays (the replay store is full or unavailable); nothing was run", Err: err}
}

// asToolErr returns err as a *toolerr.Error for the named tool and call.
func asToolErr(err error, tool, callID string) *toolerr.Error {
	return ownToolErr(err, toolerr.ExecutionFailed, "the tool failed", tool, callID)
}

// ownToolErr returns the gate's own copy, for tool and callID, of the
// *toolerr.Error in err; an error without one becomes a code error with
// reason, err kept for the logs.
func ownToolErr(err error, code toolerr.Code, reason, tool, callID string) *toolerr.Error {
	c := new(toolErrCopy)
	if !c.find(err) {
		c.err = toolerr.Error{Code: code, Reason: reason, Err: err}
	}
	c.err.Tool, c.err.CallID = tool, callID
	return &c.err
}

// toolErrCopy is room for a copy of the *toolerr.Error of an error and
// for the target errors.As finds it with, in one allocation: the target
// escapes to the heap.
type toolErrCopy struct {
	err    toolerr.Error
	target *toolerr.Error
}

// find copies into c.err the *toolerr.Error that errors.As finds in err,
// and reports whether there was one. The error found may be shared (a
// generated decoder's refusal gives the same one to every errors.As, from
// any goroutine): it is copied, never changed, and c keeps no pointer to
// it.
func (c *toolErrCopy) find(err error) bool {
	if !errors.As(err, &c.target) {
		return false
	}
	c.err, c.target = *c.target, nil
	return true
}
