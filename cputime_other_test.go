//go:build !linux

package greedytl

import "testing"

// measureCPU runs f b.N times; CPU time is only reported on Linux.
func measureCPU(b *testing.B, f func()) {
	b.ResetTimer()
	for b.Loop() {
		f()
	}
}
