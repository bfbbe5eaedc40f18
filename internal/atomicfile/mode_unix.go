//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/greedytl/greedytl/internal/fileerr"
)

// replaceable returns the file at target (resolve's: a regular file or
// none) that Write is to replace, nil when there is none yet, or an error
// when this process may not write it (access(2): its mode bits, ACLs, a
// read-only file system). A rename needs only the directory's permission;
// refusing here keeps a read-only file, or another user's, as cp and the
// shell's "> file" would.
func replaceable(target string) (fs.FileInfo, error) {
	fi, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fileerr.Reason(err)
	}
	if err := unix.Access(target, unix.W_OK); err != nil {
		return nil, err
	}
	return fi, nil
}

// fchown changes f's owner and group: (*os.File).Chown, replaced by tests
// to fail as for a group this process's user is not in.
var fchown = (*os.File).Chown

// keepMode gives f, the temporary file that is to replace old, old's
// group and permission bits. When the group cannot be given (this user is
// not in it), f keeps its own and the group bits become the others' bits,
// so that no one may do more with the new file than with the old.
func keepMode(f *os.File, old fs.FileInfo) error {
	perm := old.Mode().Perm()
	was, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return f.Chmod(perm)
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if now, ok := fi.Sys().(*syscall.Stat_t); ok && now.Gid != was.Gid {
		if fchown(f, -1, int(was.Gid)) != nil {
			perm = perm&^0o070 | (perm&0o007)<<3
		}
	}
	return f.Chmod(perm)
}
