// Package identity binds policies and executors that compare identity
// arguments with the principal, and some that compare them with nothing
// from it.
package identity

import (
	"context"
	"errors"

	"github.com/toolgate/toolgate/runtime/gate"
	"tools"
)

var errDenied = errors.New("denied")

// constant lets the model claim to be alice.
func constant(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	if p.Tenant == "" {
		return errDenied
	}
	if a.UserID == "alice" { // want `warning: the tool's argument UserID names an identity and is compared with nothing from the principal`
		return nil
	}
	return errDenied
}

// byRole lets the model name its own role.
func byRole(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	switch a.Role { // want `argument Role names an identity`
	case "admin":
		return nil
	}
	return requireID(p)
}

// claimed trusts the model's claim to be an admin.
func claimed(ctx context.Context, a tools.RefundOrderArgs) (any, error) { // want claimed:"bound as Execute"
	if !a.IsAdmin { // want `argument IsAdmin names an identity`
		return nil, errDenied
	}
	return "refunded", nil
}

// given only asks whether the member was given: no report.
func given(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	if a.UserID == "" {
		return errDenied
	}
	return requireID(p)
}

// matches compares with the principal: no report.
func matches(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	if a.UserID != p.ID {
		return errDenied
	}
	return nil
}

// through compares with a value read from the principal: no report.
func through(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	id := p.ID
	var tenant = p.Tenant
	if id != a.UserID || a.Tenant != tenant {
		return errDenied
	}
	return nil
}

// fromContext compares, in an executor, with the principal of the call: no
// report.
func fromContext(ctx context.Context, a tools.RefundOrderArgs) (any, error) { // want fromContext:"bound as Execute"
	caller, ok := gate.PrincipalFrom(ctx)
	if !ok || a.UserID != caller.ID {
		return nil, errDenied
	}
	return "refunded", nil
}

// orderOnly compares a member that names no identity: no report.
func orderOnly(ctx context.Context, a tools.RefundOrderArgs) (any, error) { // want orderOnly:"bound as Execute"
	if a.OrderID == "A-1" {
		return nil, errDenied
	}
	return "refunded", nil
}

// allowed says why a constant is right here.
func allowed(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error {
	//toolgate:allow identity-from-args the demo account is open to every caller
	if a.UserID == "demo" {
		return requireID(p)
	}
	return nil
}

func requireID(p gate.Principal) error {
	if p.ID == "" {
		return errDenied
	}
	return nil
}

func run(context.Context, tools.RefundOrderArgs) (any, error) { return nil, nil } // want run:"bound as Execute"

func bindings() []gate.Binding[tools.RefundOrderArgs] {
	return []gate.Binding[tools.RefundOrderArgs]{
		{Policy: constant, Execute: claimed},
		{Policy: byRole, Execute: fromContext},
		{Policy: matches, Execute: orderOnly},
		{Policy: through, Execute: run},
		{Policy: allowed, Execute: run},
		{Policy: given, Execute: run},
	}
}
