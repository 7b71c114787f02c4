// Package executor binds executors and calls some of them around the gate.
package executor

import (
	"context"

	"github.com/toolgate/toolgate/runtime/gate"
	"tools"
)

func Refund(ctx context.Context, a tools.RefundOrderArgs) (any, error) { return nil, nil } // want Refund:"bound as Execute"

type Service struct{}

func (s *Service) Cancel(ctx context.Context, a tools.RefundOrderArgs) (any, error) { return nil, nil } // want Cancel:"bound as Execute"

func (s *Service) Status(ctx context.Context, a tools.RefundOrderArgs) (string, error) { // want Status:"bound as Execute"
	return "", nil
}

func wrapped(ctx context.Context, a tools.RefundOrderArgs) (any, error) { return nil, nil } // want wrapped:"bound as Execute"

func lookup(ctx context.Context, id string) (any, error) { return nil, nil }

// Unbound is never bound: calling it is no bypass.
func Unbound(ctx context.Context, a tools.RefundOrderArgs) (any, error) { return nil, nil }

func Bindings(s *Service) tools.Bindings {
	return tools.Bindings{
		RefundOrder: gate.Binding[tools.RefundOrderArgs]{Policy: gate.AllowAll[tools.RefundOrderArgs], Execute: Refund},
	}
}

func more(s *Service) []any {
	return []any{
		gate.Binding[tools.RefundOrderArgs]{Execute: s.Cancel},
		gate.TypedBinding[tools.RefundOrderArgs, string]{Execute: s.Status},
		gate.Binding[tools.RefundOrderArgs]{Execute: func(ctx context.Context, a tools.RefundOrderArgs) (any, error) {
			return wrapped(ctx, a)
		}},
		// A literal that calls a function with a part of the arguments does
		// not bind it: lookup stays callable.
		gate.Binding[tools.RefundOrderArgs]{Execute: func(ctx context.Context, a tools.RefundOrderArgs) (any, error) {
			return lookup(ctx, a.OrderID)
		}},
	}
}

func cron(ctx context.Context, s *Service) {
	_, _ = Refund(ctx, tools.RefundOrderArgs{OrderID: "A-1"}) // want `Refund is bound as a tool's Execute and called directly here`
	_, _ = s.Cancel(ctx, tools.RefundOrderArgs{})             // want `Cancel is bound as a tool's Execute`
	_, _ = s.Status(ctx, tools.RefundOrderArgs{})             // want `Status is bound as a tool's Execute`
	_, _ = wrapped(ctx, tools.RefundOrderArgs{})              // want `wrapped is bound as a tool's Execute`
	_, _ = (*Service).Cancel(s, ctx, tools.RefundOrderArgs{}) // want `Cancel is bound as a tool's Execute`
	_, _ = Unbound(ctx, tools.RefundOrderArgs{})
	_, _ = lookup(ctx, "A-1")
}
