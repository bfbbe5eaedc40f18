package method

import (
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/cputime"
)

// processCPU returns the CPU time the process has used so far, or 0 where
// it cannot be read (see internal/cputime).
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

// reportCPU reports the process's CPU time per iteration since start as
// cpu-ms/op: unlike ns/op, a loaded machine does not inflate it.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
}
