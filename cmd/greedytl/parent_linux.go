package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

// procDir is where greedytl reads processes' parents (procDir/PID/stat);
// tests point it elsewhere to see what greedytl does without /proc.
var procDir = "/proc"

// pidfdOpen opens a pidfd (unix.PidfdOpen); tests replace it with a
// failing one to run the polling route where no pidfd can be opened.
var pidfdOpen = unix.PidfdOpen

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
// and nil (watchAncestor).
func followParent(v string) (int, error) {
	pid, err := parentPID(v)
	if err != nil {
		return exitInput, err
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return exitFailure, fmt.Errorf("asking for a signal when the parent process ends (%s): %v", parentEnv, err)
	}
	return watchAncestor(pid, os.Getppid(), termSelf)
}

// watchAncestor is followParent's check of process pid against greedytl's
// parent ppid: nothing to do when they are the same; when pid is a further
// ancestor, it starts watching it (a pidfd, else pollAncestor every
// ancestorPoll), calling stop once it ends, and returns 0 and nil;
// otherwise, or when the ancestors cannot be read (no /proc, or one
// mounted with hidepid), it returns status 143 and an error saying which.
func watchAncestor(pid, ppid int, stop func()) (int, error) {
	if ppid == pid {
		return 0, nil
	}
	// The pidfd is opened before the ancestors are read: a process found
	// among them existed before greedytl, so the pidfd, opened while it
	// lived, is that process's.
	fd, ferr := pidfdOpen(pid, 0)
	found, err := hasAncestor(ppid, pid)
	if !found {
		if ferr == nil {
			unix.Close(fd)
		}
		if err != nil {
			return exitSignal + int(syscall.SIGTERM), fmt.Errorf("%s=%d: greedytl's parent is process %d, and whether process %d is one of its ancestors cannot be told (%v): stopping", parentEnv, pid, ppid, pid, err)
		}
		return exitSignal + int(syscall.SIGTERM), fmt.Errorf("%s=%d: greedytl's parent is process %d, and process %d is none of its ancestors (the process that started greedytl has ended, or it never started greedytl): stopping", parentEnv, pid, ppid, pid)
	}
	if ferr == nil {
		go watchPidfd(fd, stop)
	} else {
		// No pidfd: a kernel before 5.3 (ENOSYS), or a seccomp filter that
		// refuses the call (EPERM in older container runtimes).
		go pollAncestor(ppid, pid, ancestorPoll, stop)
	}
	return 0, nil
}

// termSelf stops greedytl as SIGTERM does, by sending it that signal.
func termSelf() {
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
}

// hasAncestor reports whether process pid is process p or one of its
// ancestors (its parent, its parent's parent, and so on up to process 1),
// and, when it is not found because an ancestor's parent could not be
// read (parentOf), why.
func hasAncestor(p, pid int) (bool, error) {
	for range 4096 { // a bound against a chain changing under the walk
		if p == pid {
			return true, nil
		}
		if p <= 1 {
			return false, nil
		}
		var err error
		if p, err = parentOf(p); err != nil {
			return false, err
		}
	}
	return false, nil
}

// parentOf reads process pid's parent from procDir/PID/stat, whose second
// field, the command name in parentheses, may itself hold spaces and
// parentheses: the fields after the last ")" are the state and the parent.
// The error names the file and what is wrong with it.
func parentOf(pid int) (int, error) {
	path := procDir + "/" + strconv.Itoa(pid) + "/stat"
	stat, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return 0, fmt.Errorf("could not read %s: %v", path, err)
	}
	bad := func() (int, error) {
		return 0, fmt.Errorf("%s: no parent process id after the command name", path)
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return bad()
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return bad()
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return bad()
	}
	return ppid, nil
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
// p or one of its ancestors (hasAncestor), and calls stop once it is not
// or the ancestors cannot be read.
func pollAncestor(p, pid int, every time.Duration, stop func()) {
	for {
		if found, _ := hasAncestor(p, pid); !found {
			break
		}
		time.Sleep(every)
	}
	stop()
}
