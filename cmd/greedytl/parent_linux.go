package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ancestorPoll is how often greedytl looks again at its ancestors when
// it watches a process that is not its parent and cannot open a pidfd
// (kernels before 5.3, seccomp filters that refuse pidfd_open).
const ancestorPoll = time.Second

// followParent asks Linux to send SIGTERM to greedytl when its parent dies
// and then checks the process v names (parentEnv's value) as parentEnv's
// comment says: the parent itself needs nothing more; a further ancestor
// (greedytl started through a wrapper that did not exec it) is watched
// through a pidfd, greedytl sending itself SIGTERM when it ends; anything
// else (a process that died before the request, greedytl having been
// handed to another parent, or one that never was an ancestor) stops
// greedytl at once. The parent-death setting is the calling thread's, and
// the kernel looks at every thread of a process whose parent died; Go
// never ends a thread that no locked goroutine ended on, so the setting
// lasts. It returns the exit status and the error that end greedytl, or 0
// and nil.
func followParent(v string) (int, error) {
	pid, err := parentPID(v)
	if err != nil {
		return exitInput, err
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return exitFailure, fmt.Errorf("asking for a signal when the parent process ends (%s): %v", parentEnv, err)
	}
	ppid := os.Getppid()
	if ppid == pid {
		return 0, nil
	}
	// The pidfd is opened before the ancestors are read: a process found
	// among them existed before greedytl, so the pidfd, opened while it
	// lived, is that process's.
	fd, ferr := unix.PidfdOpen(pid, 0)
	if !hasAncestor(ppid, pid) {
		if ferr == nil {
			unix.Close(fd)
		}
		return exitSignal + int(syscall.SIGTERM), fmt.Errorf("%s=%d: greedytl's parent is process %d, and process %d is none of its ancestors (the process that started greedytl has ended, or it never started greedytl): stopping", parentEnv, pid, ppid, pid)
	}
	if ferr == nil {
		go watchPidfd(fd, termSelf)
	} else {
		// No pidfd: a kernel before 5.3 (ENOSYS), or a seccomp filter that
		// refuses the call (EPERM in older container runtimes).
		go pollAncestor(ppid, pid, ancestorPoll, termSelf)
	}
	return 0, nil
}

// termSelf stops greedytl as SIGTERM does, by sending it that signal.
func termSelf() {
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
}

// hasAncestor reports whether process pid is process p or one of its
// ancestors (its parent, its parent's parent, and so on up to process 1).
func hasAncestor(p, pid int) bool {
	for range 4096 { // a bound against a chain changing under the walk
		if p == pid {
			return true
		}
		if p <= 1 {
			return false
		}
		var ok bool
		if p, ok = parentOf(p); !ok {
			return false
		}
	}
	return false
}

// parentOf reads process pid's parent from /proc/PID/stat, whose second
// field, the command name in parentheses, may itself hold spaces and
// parentheses: the fields after the last ")" are the state and the parent.
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// watchPidfd waits until the process behind pidfd fd ends (the pidfd
// becomes readable), or the wait fails, and then calls stop.
func watchPidfd(fd int, stop func()) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, -1)
		if err == nil && n > 0 {
			break
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			break // cannot watch: stop rather than outlive the process
		}
	}
	stop()
}

// pollAncestor looks every interval whether process pid is still process
// p or one of its ancestors (hasAncestor), and calls stop once it is not.
func pollAncestor(p, pid int, every time.Duration, stop func()) {
	for hasAncestor(p, pid) {
		time.Sleep(every)
	}
	stop()
}
