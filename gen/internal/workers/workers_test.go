package workers

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestRunCallsEachIndexOnce: every index from 0 to n-1 is run exactly once,
// on one worker and on several.
func TestRunCallsEachIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 3, 4, 5, 1000} {
			calls := make([]atomic.Int32, n)
			Run(n, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if got := calls[i].Load(); got != 1 {
					t.Errorf("GOMAXPROCS %d, n %d: index %d ran %d times", procs, n, i, got)
				}
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}
