package method

import (
	"time"

	"github.com/greedytl/greedytl/internal/cputime"
)

// processCPU returns the CPU time the process has used so far, or 0 where
// it cannot be read (see internal/cputime).
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}
