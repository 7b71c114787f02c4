// Package tools stands for a generated package.
package tools

import "github.com/toolgate/toolgate/runtime/gate"

type RefundOrderArgs struct {
	OrderID string
	UserID  string
	Role    string
	IsAdmin bool
	Tenant  string
}

func DecodeRefundOrderArgs(data []byte) (RefundOrderArgs, error) { return RefundOrderArgs{}, nil }

type Bindings struct {
	RefundOrder gate.Binding[RefundOrderArgs]
}

func NewRegistry(b Bindings) (*gate.Registry, error) { return &gate.Registry{}, nil }
