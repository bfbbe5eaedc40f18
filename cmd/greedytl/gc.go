package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector's policy when GOGC is not set: after each collection the
// heap may grow by max(gcPercent % of the live heap, gcMinHeadroom) before
// the next one.
//
// gcPercent is the growth for large heaps. Go's default, 100, lets the heap
// grow to twice the live data before a collection; greedytl's live data is
// mostly large arrays without pointers (feature rows, score matrices),
// which the collector does not scan, so a smaller margin costs no
// measurable CPU and keeps a process's peak memory near its data: on an
// experiment shard of the 2.1 GB synthetic data set (docs/cluster/README.md,
// "Memory and cost") the peak fell from 1,016 MB to 687 MB for the same CPU
// time (1,049 MB with GOGC=100 against 659 MB, measured again on 26
// November 2026 in MB of 10⁶ bytes).
//
// gcMinHeadroom is the growth for small heaps. 25 % of a small live heap is
// a tiny margin (Go's floor is 4 MB × GOGC/100, 1 MB at 25): a fit of
// greedytl-auto on 200 rows, whose live heap is about 5 MB, collected 110
// times in a second, and reading a 30 MB svmlight file 34 times, each
// collection stopping every goroutine — on a loaded machine, where a stop
// waits for descheduled threads, that made a second core slow a fit down
// (issue 16). With 16 MB the same fit collects a handful of times, and a
// process's peak grows by at most 16 MB − 25 % of its live heap (nothing
// once the live heap exceeds 64 MB).
const (
	gcPercent     = 25
	gcMinHeadroom = 16 << 20
)

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercentFor(0))
		go tuneGC(nil)
	}
}

// gcPercentFor returns the GOGC value that gives a live heap of live bytes
// the headroom max(gcPercent %, gcMinHeadroom): gcPercent from 64 MB on,
// 100 · gcMinHeadroom / live below (at most 400).
func gcPercentFor(live uint64) int {
	if live >= 100*gcMinHeadroom/gcPercent {
		return gcPercent
	}
	// Below 4 MB the runtime's floor, 4 MB × GOGC/100, gives the headroom.
	return int(100 * gcMinHeadroom / max(live, 4<<20))
}

// gcSentinel is an object whose finalizer runs once a collection has
// found it unreachable: after every collection, since each finalizer
// allocates the next one.
type gcSentinel struct{ _ *int }

// tuneGC sets GOGC to gcPercentFor(the live heap) after every collection,
// when the value changes by more than a quarter (each change briefly stops
// the world). The live heap is sent on cycles, if not nil (for tests).
func tuneGC(cycles chan uint64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	current := gcPercentFor(0)
	done := make(chan struct{}, 1)
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
			select {
			case done <- struct{}{}:
			default:
			}
			arm()
		})
	}
	arm()
	for range done {
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		if p := gcPercentFor(live); 4*p < 3*current || 4*p > 5*current {
			debug.SetGCPercent(p)
			current = p
		}
		select {
		case cycles <- live:
		default:
		}
	}
}
