// Package cron calls an executor bound in a package it imports.
package cron

import (
	"context"

	"executor"
	"tools"
)

func nightly(ctx context.Context) {
	_, _ = executor.Refund(ctx, tools.RefundOrderArgs{}) // want `Refund is bound as a tool's Execute and called directly here`
	_, _ = executor.Unbound(ctx, tools.RefundOrderArgs{})
}
