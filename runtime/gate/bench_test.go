package gate

import (
	"context"
	"testing"
	"time"
)

// BenchmarkDispatchExecution compares, in one run, the two ways the gate
// runs an executor: "inline", in the dispatching goroutine, when the
// context can never end and the tool has no timeout (the gate could never
// stop waiting); "goroutine", in a goroutine of its own, when the tool has
// a timeout or the context can end. The ratio between the two is the cost
// of being able to stop waiting for an executor that ignores its context.
// The call has no ID, so the replay store is not measured.
func BenchmarkDispatchExecution(b *testing.B) {
	cases := []struct {
		name    string
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
	}{
		{"inline", 0, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }},
		{"goroutine/tool-timeout", time.Hour, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }},
		{"goroutine/cancellable-context", 0, func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var c spyCounts
			spec := paySpec(&c)
			spec.Timeout = tc.timeout
			r := mustRegistry(b, []*Tool{Bind(spec, payBinding(&c, nil, nil))})
			ctx, cancel := tc.ctx()
			defer cancel()
			call := Call{Name: "pay", Args: []byte(goodPay), Complete: true}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Dispatch(ctx, caller, call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
