package principal

import (
	"context"

	"github.com/toolgate/toolgate/runtime/gate"
	"tools"
)

// A test may bind a policy that lets everyone in.
func open(context.Context, gate.Principal, tools.RefundOrderArgs) error { return nil }

var _ = gate.Binding[tools.RefundOrderArgs]{Policy: open, Execute: run}
