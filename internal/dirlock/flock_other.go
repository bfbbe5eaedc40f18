//go:build !unix && !windows

package dirlock

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// tryLock does not lock where neither flock(2) nor LockFileEx exists
// (plan9, js, wasip1): one process per directory is then the user's
// responsibility, which warnUnlocked says once.
func tryLock(f *os.File, _ bool) (bool, error) {
	warnOnce.Do(func() { warnUnlocked(filepath.Dir(f.Name())) })
	return false, nil
}

// warnOnce makes tryLock warn once a process.
var warnOnce sync.Once

// warnUnlocked tells the user that dir, and any directory after it, is not
// locked: on standard error, as the command's warnings.
var warnUnlocked = func(dir string) {
	fmt.Fprintf(os.Stderr, "warning: %s is not locked: greedytl cannot lock files on %s, so two processes given one directory (an experiment's run, a sources directory) would both write there; run one at a time\n", dir, runtime.GOOS)
}

func unlock(*os.File) error { return nil }

// noLocks is false: tryLock never fails here.
func noLocks(error) bool { return false }

// processExited is false: without kill(2) a recorded holder is taken to
// be running.
func processExited(int) bool { return false }
