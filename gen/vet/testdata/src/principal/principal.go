// Package principal binds policies that read the principal and some that
// do not.
package principal

import (
	"context"
	"errors"
	"slices"

	"github.com/toolgate/toolgate/runtime/gate"
	"tools"
)

func run(context.Context, tools.RefundOrderArgs) (any, error) { return nil, nil } // want run:"bound as Execute"

// ignores decides on the arguments alone.
func ignores(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error { // want `warning: this policy never reads its Principal`
	if a.UserID == "" {
		return errors.New("no user")
	}
	return nil
}

func unnamed(context.Context, gate.Principal, tools.RefundOrderArgs) error { return nil } // want `this policy never reads its Principal`

// reads compares the principal with the arguments.
func reads(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	if p.ID != a.UserID {
		return errors.New("not yours")
	}
	return nil
}

// viaHelper reads the principal through a helper.
func viaHelper(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	return requireRole(p, "refunds")
}

func requireRole(p gate.Principal, role string) error {
	if !slices.Contains(p.Roles, role) {
		return errors.New("forbidden")
	}
	return nil
}

//toolgate:allow principal-unread every caller may see an order's status
func allowedPublic(ctx context.Context, _ gate.Principal, a tools.RefundOrderArgs) error { return nil }

//toolgate:allow principal-unread
func allowedNoReason(ctx context.Context, _ gate.Principal, a tools.RefundOrderArgs) error { // want `needs a reason`
	return nil
}

func bindings() []gate.Binding[tools.RefundOrderArgs] {
	return []gate.Binding[tools.RefundOrderArgs]{
		{Policy: ignores, Execute: run},
		{Policy: ignores, Execute: run},
		{Policy: unnamed, Execute: run},
		{Policy: reads, Execute: run},
		{Policy: viaHelper, Execute: run},
		{Policy: allowedPublic, Execute: run},
		{Policy: allowedNoReason, Execute: run},
		{Policy: gate.AllowAll[tools.RefundOrderArgs], Execute: run},
		{Policy: func(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error { return nil }, Execute: run}, // want `this policy never reads its Principal`
		{Policy: func(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error { return requireRole(p, "x") }, Execute: run},
	}
}
