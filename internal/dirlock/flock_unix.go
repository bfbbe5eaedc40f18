//go:build unix

package dirlock

import (
	"errors"
	"os"
	"syscall"
)

// flock is syscall.Flock, replaced by tests to fail as a file system
// without locks does.
var flock = syscall.Flock

// tryLock takes an exclusive (or, with shared, a shared) flock on f without
// waiting; held reports that another process holds a conflicting one.
func tryLock(f *os.File, shared bool) (held bool, err error) {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	for {
		err = flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

func unlock(f *os.File) error { return flock(int(f.Fd()), syscall.LOCK_UN) }

// noLocks reports whether err, of tryLock, says that the file system has
// no flock locks: ENOSYS, ENOTSUP or EOPNOTSUPP (errors.ErrUnsupported:
// Lustre mounted without -o flock, FUSE file systems) or ENOLCK (NFS
// without its lock service).
func noLocks(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.ENOLCK)
}

// processExited reports whether no process pid exists (kill(pid, 0) fails
// with ESRCH); a process of another user (EPERM) exists.
func processExited(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
