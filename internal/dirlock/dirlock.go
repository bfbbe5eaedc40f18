// Package dirlock gives one process at a time a directory (a run directory
// of greedytl experiment, a sources directory of greedytl train-sources):
// an exclusive flock(2) on the file LockFile inside it — or, for one part of
// a directory that several processes fill at once (the shards of
// train-sources), a shared flock on LockFile and an exclusive one on the
// part's own lock file (AcquirePart). The kernel releases
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
	f     *os.File
	whole *os.File // AcquirePart's shared lock on the whole directory
}

// Acquire locks dir, which must exist, for this process without waiting.
// When another process holds it, or a part of it (AcquirePart), Acquire
// returns an error matching ErrLocked that names the holder (pid, host and
// since when) as recorded in the lock file.
func Acquire(dir string) (*Lock, error) {
	whole, err := lockFile(dir, LockFile, false)
	if err != nil {
		return nil, err
	}
	return &Lock{f: whole}, nil
}

// AcquirePart locks the part named part of dir (a shard of a sources
// directory that several shards fill at once) without waiting: a shared
// lock on the whole directory, which excludes Acquire's holder but not the
// other parts, and an exclusive one on the part's own lock file
// (LockFile + "." + part), which excludes a second process for the same
// part. Its errors are Acquire's.
func AcquirePart(dir, part string) (*Lock, error) {
	whole, err := lockFile(dir, LockFile, true)
	if err != nil {
		return nil, err
	}
	own, err := lockFile(dir, LockFile+"."+part, false)
	if err != nil {
		unlock(whole)
		whole.Close()
		return nil, err
	}
	return &Lock{f: own, whole: whole}, nil
}

// lockFile locks dir/name, exclusive or shared, and records this process
// in it when exclusive.
func lockFile(dir, name string, shared bool) (*os.File, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	held, err := tryLock(f, shared)
	if noLocks(err) {
		f.Close()
		return nil, fmt.Errorf("locking %s: its file system does not support flock(2) locks (%w), which greedytl takes so that two processes never write one directory at once: mount it with flock support (Lustre: the mount option flock; NFS: with its lock service, lockd/NLM, running) or use a directory on another file system (a local disk)", dir, err)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if held {
		b, _ := os.ReadFile(path)
		f.Close()
		who := strings.TrimSpace(string(b))
		if who == "" {
			who = "another process"
			if name == LockFile && !shared {
				who = "processes working on parts of it (lock files " + LockFile + ".*)"
			}
		}
		return nil, fmt.Errorf("%s is in use by %s (lock file %s): one process per directory; wait for it or stop it: %w", dir, who, path, ErrLocked)
	}
	if !shared {
		host, _ := os.Hostname()
		if err := f.Truncate(0); err == nil {
			fmt.Fprintf(f, "pid %d on host %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
		}
	}
	return f, nil
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
	if l.whole != nil {
		if uerr := unlock(l.whole); err == nil {
			err = uerr
		}
		if cerr := l.whole.Close(); err == nil {
			err = cerr
		}
		l.whole = nil
	}
	return err
}
