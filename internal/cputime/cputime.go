// Package cputime reads the CPU time the process has used, for tests and
// benchmarks that must not depend on how busy the machine is: unlike the
// wall clock, CPU time does not grow while other processes hold the cores.
package cputime

import "time"

// Process returns the CPU time (user and system) the process has used so
// far, and false when it cannot be read (on systems other than Unix).
func Process() (time.Duration, bool) { return process() }

// Thread returns the CPU time (user and system) the calling OS thread has
// used so far, and false when it cannot be read (on systems other than
// Linux). The caller locks itself to its thread (runtime.LockOSThread) for
// two readings to be comparable.
func Thread() (time.Duration, bool) { return thread() }
