//go:build !unix

package dirlock

import "os"

// tryLock does not lock where flock(2) is missing: one process per
// directory is then the user's responsibility.
func tryLock(*os.File, bool) (bool, error) { return false, nil }

func unlock(*os.File) error { return nil }

// noLocks is false: tryLock never fails here.
func noLocks(error) bool { return false }

// processExited is false: without kill(2) a recorded holder is taken to
// be running.
func processExited(int) bool { return false }
