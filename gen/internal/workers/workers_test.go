package workers

import (
	"fmt"
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

// TestMapKeepsEachResultInItsSlot: Map's results and errors are in index
// order, whatever order the calls ran in.
func TestMapKeepsEachResultInItsSlot(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	const n = 1000
	out, errs := Map(n, func(i int) (int, error) {
		if i%7 == 0 {
			return 0, fmt.Errorf("e%d", i)
		}
		return i * i, nil
	})
	if len(out) != n || len(errs) != n {
		t.Fatalf("%d results, %d errors, want %d each", len(out), len(errs), n)
	}
	for i := range n {
		if i%7 == 0 {
			if errs[i] == nil || errs[i].Error() != fmt.Sprintf("e%d", i) || out[i] != 0 {
				t.Fatalf("index %d: %d, %v", i, out[i], errs[i])
			}
		} else if errs[i] != nil || out[i] != i*i {
			t.Fatalf("index %d: %d, %v", i, out[i], errs[i])
		}
	}
}
