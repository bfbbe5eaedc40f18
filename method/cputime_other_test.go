//go:build !unix

package method

import "time"

// processCPU returns 0: CPU time is read on Unix only.
func processCPU() time.Duration { return 0 }
