package executor

import (
	"context"
	"testing"

	"tools"
)

// A test calls the executor directly: no report.
func TestRefund(t *testing.T) {
	if _, err := Refund(context.Background(), tools.RefundOrderArgs{OrderID: "A-1"}); err != nil {
		t.Fatal(err)
	}
}
