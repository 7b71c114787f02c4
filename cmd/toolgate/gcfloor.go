package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapFloor is the heap goal below which toolgate does not collect: a run
// allocates many times its live heap (the go/format pass over every
// generated file alone allocates several times the output), and with Go's
// default goal of twice the live heap it spends about a third of its CPU in
// the collector. A higher floor costs the kernel's first touch of every
// page up to it: on 1,000 synthetic tools (57 MB live at most) 128 MiB took
// 4 % less CPU than 256 MiB, at 180 MB peak instead of 320 MB; 64 and 96
// MiB collected more.
const heapFloor = 128 << 20

// keepHeapFloor makes the collector's heap goal max(floor, live heap × (1 +
// liveGoalPercent/100)), as cmd/compile does for its starting heap: after
// every collection it sets the GC percentage from the live heap just
// measured. A GOGC set in the environment is left alone.
func keepHeapFloor(floor uint64) {
	if os.Getenv("GOGC") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	adjust := func() {
		metrics.Read(sample)
		live := uint64(0)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = sample[0].Value.Uint64()
		}
		debug.SetGCPercent(gcPercent(floor, live))
	}
	adjust()
	// A finalizer runs after the collection that found its object
	// unreachable; re-armed each time, it runs after every collection.
	var rearm func(*gcSentinel)
	rearm = func(*gcSentinel) {
		adjust()
		runtime.SetFinalizer(&gcSentinel{}, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
}

// gcSentinel holds a pointer so that it is not batched by the tiny
// allocator, whose objects' finalizers may never run.
type gcSentinel struct{ _ *byte }

// liveGoalPercent is the GC percentage past the floor: a heap goal of 2.5
// times the live heap, not Go's default of twice. Past the floor the live
// heap is the tools' models and output (about 290 MB at 5,000 synthetic
// tools), and every collection walks it: on 5,000 synthetic tools 150 took
// 7 % less wall time than 100 (7.1-7.4 s against 7.7-7.9 s for generate,
// 7.1-7.3 s against 7.5-7.8 s for check, three alternated runs each) at
// 0.9 GB peak instead of 0.7 GB; at 1,000 the floor decides and nothing
// changed.
const liveGoalPercent = 150

// gcPercent is the GC percentage whose heap goal is max(floor, live × (1 +
// liveGoalPercent/100)). A live heap not yet measured counts as the
// runtime's minimum heap, 4 MiB.
func gcPercent(floor, live uint64) int {
	live = max(live, 4<<20)
	if floor <= live+live*liveGoalPercent/100 {
		return liveGoalPercent
	}
	return int((floor - live) * 100 / live)
}
