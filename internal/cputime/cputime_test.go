package cputime

import (
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
	x := 0.0
	for time.Since(start) < 30*time.Millisecond {
		for i := range 1000 {
			x += float64(i)
		}
	}
	after, _ := Process()
	if used := after - before; used <= 0 || used > 10*time.Since(start) {
		t.Errorf("30 ms of busy work used %v of CPU time (x = %v)", used, x)
	}
}
