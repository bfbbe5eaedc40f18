//go:build !unix

package experiment

import "time"

// processCPU returns 0: CPU time is read on Unix only.
func processCPU() time.Duration { return 0 }
