package greedytl

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time used so far by the calling OS thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureCPU runs f b.N times on one locked OS thread and reports the
// thread's CPU time per run as "cpu-ns/op", which, unlike ns/op, does not
// grow when other processes compete for the cores.
func measureCPU(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(n), "cpu-ns/op")
}
