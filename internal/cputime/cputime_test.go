package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows: busy work adds CPU time, and about as much as it took
// on the wall clock at most (one goroutine).
func TestProcessGrows(t *testing.T) {
	timeBusy(t, Process, "CPU time")
}

// TestThreadGrows: busy work on a locked thread adds to that thread's CPU
// time, and no more than the process's CPU time grew meanwhile.
func TestThreadGrows(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pBefore, _ := Process()
	used := timeBusy(t, Thread, "thread CPU time")
	pAfter, pOK := Process()
	// Both clocks tick in the kernel's accounting units; allow one tick.
	if pOK && used > pAfter-pBefore+10*time.Millisecond {
		t.Errorf("thread CPU time %v exceeds the process's %v", used, pAfter-pBefore)
	}
}

// timeBusy returns the time that clock (what) counts during 30 ms of busy
// work, checking that it grew, and by at most 10 times the wall time; it
// skips the test when the system has no such clock.
func timeBusy(t *testing.T, clock func() (time.Duration, bool), what string) time.Duration {
	t.Helper()
	before, ok := clock()
	if !ok {
		t.Skipf("no %s on this system", what)
	}
	start := time.Now()
	x := busy(30 * time.Millisecond)
	after, _ := clock()
	used := after - before
	if used <= 0 || used > 10*time.Since(start) {
		t.Errorf("30 ms of busy work used %v of %s (x = %v)", used, what, x)
	}
	return used
}

// busy keeps one core busy for d of wall-clock time and returns a sum the
// compiler cannot drop.
func busy(d time.Duration) float64 {
	start := time.Now()
	x := 0.0
	for time.Since(start) < d {
		for i := range 1000 {
			x += float64(i)
		}
	}
	return x
}
