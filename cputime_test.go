package greedytl

import (
	"runtime"
	"testing"

	"github.com/greedytl/greedytl/internal/cputime"
)

// measureCPU runs f b.N times on one locked OS thread and reports the
// thread's CPU time per run as "cpu-ns/op", which, unlike ns/op, does not
// grow when other processes compete for the cores (Linux only; elsewhere
// only ns/op is reported).
func measureCPU(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start, ok := cputime.Thread()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end, _ := cputime.Thread(); ok {
		b.ReportMetric(float64(end-start)/float64(n), "cpu-ns/op")
	}
}
