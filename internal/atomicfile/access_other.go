//go:build unix && !linux

package atomicfile

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// effectiveAccess returns faccessat(2)'s answer for whether this process's
// effective user and groups may access path as mode asks (unix.W_OK …),
// which weighs mode bits, ACLs and a read-only file system as the open or
// the creation would.
func effectiveAccess(path string, mode uint32) error {
	return unix.Faccessat(unix.AT_FDCWD, path, mode, unix.AT_EACCESS)
}

// writeAccess returns an error when this process may not write the file
// target: effectiveAccess's answer, always known here.
func writeAccess(target string, _ fs.FileInfo) error {
	return effectiveAccess(target, unix.W_OK)
}
