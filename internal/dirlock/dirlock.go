// Package dirlock gives one process at a time a directory (a run directory
// of greedytl experiment, a sources directory of greedytl train-sources):
// an exclusive flock(2) on the file LockFile inside it. The kernel releases
// the lock when the holder exits, however it exits (kill -9 included), so
// a lock left by a dead process never blocks the next one. The file holds
// the holder's pid, host and start time, which the refusal reports.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockFile is the name of the lock file inside a locked directory.
const LockFile = ".lock"

// ErrLocked is matched (errors.Is) by the error of Acquire when another
// process holds the directory.
var ErrLocked = errors.New("directory in use by another process")

// Lock is a held directory lock.
type Lock struct {
	f *os.File
}

// Acquire locks dir, which must exist, for this process without waiting.
// When another process holds it, Acquire returns an error matching
// ErrLocked that names the holder (pid, host and since when) as recorded
// in the lock file.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if held {
		b, _ := os.ReadFile(path)
		f.Close()
		who := strings.TrimSpace(string(b))
		if who == "" {
			who = "a process that has not yet said who it is"
		}
		return nil, fmt.Errorf("%s is in use by %s (lock file %s): one process per directory; wait for it or stop it: %w", dir, who, path, ErrLocked)
	}
	host, _ := os.Hostname()
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d on host %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	}
	return &Lock{f: f}, nil
}

// Release unlocks the directory. The lock file stays (removing it would
// race with a process opening it).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
