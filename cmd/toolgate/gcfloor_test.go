package main

import "testing"

// TestGCPercent: the heap goal live × (1 + percent/100) is the floor while
// 2.5 times the live heap is below it, and 2.5 times the live heap above.
func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		floor, live uint64
		want        int
	}{
		{512 * mib, 0, 12700},        // not measured yet: the 4 MiB minimum heap
		{512 * mib, 4 * mib, 12700},  // goal 4 × 128 = 512 MiB
		{512 * mib, 64 * mib, 700},   // goal 64 × 8 = 512 MiB
		{512 * mib, 200 * mib, 156},  // goal ≈ 512 MiB
		{500 * mib, 200 * mib, 150},  // 2.5 times the live heap is the floor
		{512 * mib, 256 * mib, 150},  // above the floor: 2.5 times the live heap
		{512 * mib, 1024 * mib, 150}, // far above it
	} {
		if got := gcPercent(tc.floor, tc.live); got != tc.want {
			t.Errorf("gcPercent(%d MiB, %d MiB) = %d, want %d", tc.floor/mib, tc.live/mib, got, tc.want)
		}
	}
}
