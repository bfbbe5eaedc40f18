package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows: busy work adds CPU time, and about as much as it took
// on the wall clock at most (one goroutine).
func TestProcessGrows(t *testing.T) {
	before, ok := Process()
	if !ok {
		t.Skip("no CPU time on this system")
	}
	start := time.Now()
	x := busy(30 * time.Millisecond)
	after, _ := Process()
	if used := after - before; used <= 0 || used > 10*time.Since(start) {
		t.Errorf("30 ms of busy work used %v of CPU time (x = %v)", used, x)
	}
}

// TestThreadGrows: busy work on a locked thread adds to that thread's CPU
// time, and no more than the process's CPU time grew meanwhile.
func TestThreadGrows(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pBefore, _ := Process()
	before, ok := Thread()
	if !ok {
		t.Skip("no thread CPU time on this system")
	}
	start := time.Now()
	x := busy(30 * time.Millisecond)
	after, _ := Thread()
	pAfter, pOK := Process()
	used := after - before
	if used <= 0 || used > 10*time.Since(start) {
		t.Errorf("30 ms of busy work used %v of thread CPU time (x = %v)", used, x)
	}
	// Both clocks tick in the kernel's accounting units; allow one tick.
	if pOK && used > pAfter-pBefore+10*time.Millisecond {
		t.Errorf("thread CPU time %v exceeds the process's %v", used, pAfter-pBefore)
	}
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
