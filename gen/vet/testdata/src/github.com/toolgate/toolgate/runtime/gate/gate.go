// Package gate stubs the toolgate gate.
package gate

import "context"

type Principal struct {
	ID     string
	Tenant string
	Roles  []string
}

type Policy[A any] func(ctx context.Context, p Principal, args A) error

type Executor[A any] func(ctx context.Context, args A) (any, error)

type TypedExecutor[A, R any] func(ctx context.Context, args A) (R, error)

type Binding[A any] struct {
	Policy  Policy[A]
	Execute Executor[A]
}

type TypedBinding[A, R any] struct {
	Policy  Policy[A]
	Execute TypedExecutor[A, R]
}

func AllowAll[A any](context.Context, Principal, A) error { return nil }

type Call struct {
	ID   string
	Name string
	Args []byte
}

type Registry struct{}

func (r *Registry) Dispatch(ctx context.Context, p Principal, c Call) (any, error) { return nil, nil }

func PrincipalFrom(ctx context.Context) (Principal, bool) { return Principal{}, false }
