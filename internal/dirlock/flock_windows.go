//go:build windows

package dirlock

import (
	"errors"
	"math"
	"os"

	"golang.org/x/sys/windows"
)

// Windows has no flock(2): the lock is LockFileEx's, with the same
// semantics (exclusive or shared, not waiting, released by the system when
// the holder exits however it exits). LockFileEx's locks are mandatory —
// no other process may read the bytes locked — so the lock covers one byte
// far beyond any record (lockOffset), leaving the holder's record
// readable to the process it refuses.
//
// This file is only compile-checked (GOOS=windows go vet ./..., in
// .ci/run): no test of the package has run on Windows.

// lockOffset is the offset of the one byte locked: 2⁶², far beyond any
// record.
const lockOffset = 1 << 62

// lockRange returns the Overlapped that places the locked byte.
func lockRange() *windows.Overlapped {
	return &windows.Overlapped{Offset: lockOffset & (1<<32 - 1), OffsetHigh: lockOffset >> 32}
}

// tryLock takes an exclusive (or, with shared, a shared) lock on f without
// waiting; held reports that another process holds a conflicting one.
func tryLock(f *os.File, shared bool) (held bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if !shared {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	err = windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, lockRange())
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	return false, err
}

func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, lockRange())
}

// noLocks reports whether err, of tryLock, says that the file system has
// no byte-range locks (a network share that refuses them).
func noLocks(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, windows.ERROR_NOT_SUPPORTED) || errors.Is(err, windows.ERROR_INVALID_FUNCTION)
}

// processExited reports whether no process pid exists: OpenProcess refuses
// an unknown pid (ERROR_INVALID_PARAMETER), and a process that has exited
// but whose handle another process still holds has an exit code other
// than STILL_ACTIVE. A process of another user (access denied) exists.
func processExited(pid int) bool {
	if pid <= 0 || uint64(pid) > math.MaxUint32 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return true
	}
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code != stillActive
}

// stillActive is GetExitCodeProcess's code of a running process
// (STILL_ACTIVE, which x/sys/windows does not define).
const stillActive = 259
