package main

import (
	"fmt"
	"os"
	"strconv"
)

// parentEnv names the environment variable through which a program that
// starts greedytl asks to have it stopped when that program dies, even by
// SIGKILL: its value is the program's process id. The Python package sets
// it, so that a killed Python process leaves no greedytl running, without
// doing anything in the child between fork and exec (Python's preexec_fn,
// unsafe when the parent runs threads). On Linux the rule is:
//   - greedytl always asks the kernel for SIGTERM when its parent dies
//     (PR_SET_PDEATHSIG: a first SIGTERM, stopping the command as kill
//     would);
//   - if the process named is its parent, that is all;
//   - if it is a further ancestor (greedytl started through a wrapper that
//     runs it as a child instead of exec'ing it: HPC module wrappers,
//     timeout, strace, shell shims), greedytl watches that process (a
//     pidfd, or where it cannot open one a look at its ancestors every
//     ancestorPoll) and sends itself SIGTERM when it ends;
//   - otherwise (the process has ended, greedytl having been handed to
//     another parent, or it never was an ancestor), or when its ancestors
//     cannot be read (no /proc, or /proc mounted with hidepid=2: the error
//     names the file and why), greedytl exits at once with status 143, as
//     the signal would have made it.
//
// Elsewhere there is no such signal: the value is checked and otherwise
// ignored. The variable is removed from greedytl's environment, so it is
// not passed on.
const parentEnv = "GREEDYTL_PARENT_PID"

// stopWithParent is main's first step: it applies parentEnv when set,
// exiting the process (with a message on stderr) when the value is not a
// process id (status 2) or the parent it names is gone (status 143).
func stopWithParent() {
	v, ok := os.LookupEnv(parentEnv)
	if !ok {
		return
	}
	os.Unsetenv(parentEnv)
	if code, err := followParent(v); err != nil {
		diagf(os.Stderr, "%v", err)
		os.Exit(code)
	}
}

// parentPID reads parentEnv's value v: a positive process id.
func parentPID(v string) (int, error) {
	pid, err := strconv.Atoi(v)
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("%s=%q: not a process id (the process that started greedytl sets it to its own)", parentEnv, v)
	}
	return pid, nil
}
