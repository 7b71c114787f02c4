// Package workers runs independent pieces of work on GOMAXPROCS goroutines.
// Callers write each result into its own slot of a slice, so what they do
// with the results afterwards, in index order, does not depend on the
// scheduling.
package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Run calls f(0) … f(n-1), each once, on up to GOMAXPROCS goroutines, and
// returns when every call has returned.
func Run(n int, f func(i int)) {
	w := min(n, runtime.GOMAXPROCS(0))
	if w <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// Map calls f(0) … f(n-1) as Run does and returns their results and
// errors, each in the slot of its index.
func Map[T any](n int, f func(i int) (T, error)) ([]T, []error) {
	out := make([]T, n)
	errs := make([]error, n)
	Run(n, func(i int) { out[i], errs[i] = f(i) })
	return out, errs
}
