// Package cputime reads the CPU time the process has used, for tests and
// benchmarks that must not depend on how busy the machine is: unlike the
// wall clock, CPU time does not grow while other processes hold the cores.
package cputime

import "time"

// Process returns the CPU time (user and system) the process has used so
// far, and false when it cannot be read (on systems other than Unix).
func Process() (time.Duration, bool) { return process() }
