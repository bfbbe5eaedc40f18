package main

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// followParent asks Linux to send SIGTERM to greedytl when its parent dies
// and checks that the parent is still the process v names (parentEnv's
// value): a parent that died before the request sends no signal, greedytl
// having been handed to another process, so the check after it closes
// that gap. The setting is the calling thread's, and the kernel looks at
// every thread of a process whose parent died; Go never ends a thread that
// no locked goroutine ended on, so the setting lasts. It returns the exit
// status and the error that end greedytl, or 0 and nil.
func followParent(v string) (int, error) {
	pid, err := parentPID(v)
	if err != nil {
		return exitInput, err
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return exitFailure, fmt.Errorf("asking for a signal when the parent process ends (%s): %v", parentEnv, err)
	}
	if ppid := os.Getppid(); ppid != pid {
		return exitSignal + int(syscall.SIGTERM), fmt.Errorf("%s=%d: greedytl's parent is process %d, not that one (the process that started greedytl has ended, or PID never was its parent): stopping", parentEnv, pid, ppid)
	}
	return 0, nil
}
