package gate

import (
	"context"
)

// typed is what the gate needs of a tool's argument type A: the steps of
// its calls that read or pass the typed arguments, with the arguments as an
// any holding a *A. Only Bind and the closures of typedOf are compiled for
// each tool; everything else a call goes through is compiled once for all
// of them (a catalog's build time is mostly per function compiled).
type typed struct {
	// name is the spec's name, which the refusals of decode, authorize and
	// approve name in their reasons.
	name string
	// approval is the spec's Approval; asks is whether NeedsApproval is
	// asked for each call (ApprovalPolicy).
	approval Approval
	asks     bool
	// nullAsAbsent is whether the tool has a decoder for the OpenAI
	// dialects (Spec.DecodeNullAsAbsent).
	nullAsAbsent bool
	// decode reads data with Spec.Decode, or Spec.DecodeNullAsAbsent when
	// nullAsAbsent: the arguments and the call's executor state, in one
	// allocation (see decoded), or the decoder's error, and then nothing
	// is allocated.
	decode func(data []byte, nullAsAbsent bool) (args any, st *executorState, err error)
	// authorize is the binding's Policy.
	authorize func(ctx context.Context, p Principal, args any) error
	// needsApproval is the binding's NeedsApproval, asked only when asks.
	needsApproval func(ctx context.Context, p Principal, args any) (needed bool, reason string)
	// execute is the binding's Execute.
	execute func(ctx context.Context, args any) (any, error)
}

// typedOf returns the typed steps of spec and b. It is not inlined into
// Bind, where the compiler would build its closures a second time for
// every tool.
//
//go:noinline
func typedOf[A any](spec Spec[A], b Binding[A]) *typed {
	return &typed{
		name: spec.Name, approval: spec.Approval, asks: spec.Approval == ApprovalPolicy,
		nullAsAbsent: spec.DecodeNullAsAbsent != nil,
		decode: func(data []byte, nullAsAbsent bool) (any, *executorState, error) {
			dec := spec.Decode
			if nullAsAbsent {
				dec = spec.DecodeNullAsAbsent
			}
			a, err := dec(data)
			if err != nil {
				return nil, nil, err
			}
			d := &decoded[A]{args: a}
			return &d.args, &d.st, nil
		},
		authorize: func(ctx context.Context, p Principal, args any) error {
			return b.Policy(ctx, p, *args.(*A))
		},
		needsApproval: func(ctx context.Context, p Principal, args any) (bool, string) {
			return b.NeedsApproval(ctx, p, *args.(*A))
		},
		execute: func(ctx context.Context, args any) (any, error) {
			return b.Execute(ctx, *args.(*A))
		},
	}
}

// decoded is a call's typed arguments with its executor's state, in one
// allocation.
type decoded[A any] struct {
	st   executorState
	args A
}
