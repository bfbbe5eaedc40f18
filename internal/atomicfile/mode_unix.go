//go:build unix

package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// mayWrite returns an error when this process may not write the file
// target, whose information fi is: faccessat(2)'s answer for the
// effective user and groups (AT_EACCESS), which weighs the mode bits, ACLs
// and a read-only file system as an open for writing would ("permission
// denied", "read-only file system"). access(2) asked for the real user's:
// a process whose effective user differs (set-user-ID, or root that
// changed it) was answered for the wrong one. Where the kernel lacks
// faccessat2 (Linux before 5.8), x/sys answers from the mode bits alone.
func mayWrite(target string, fi fs.FileInfo) error {
	if err := unix.Faccessat(unix.AT_FDCWD, target, unix.W_OK, unix.AT_EACCESS); err != nil {
		return err
	}
	return stickyOther(target, fi)
}

// mayCreateIn returns an error when this process may not create a file in
// the directory dir: faccessat(2)'s answer for writing and searching it, for
// the effective user and groups, as for mayWrite ("permission denied",
// "read-only file system", "no such file or directory").
func mayCreateIn(dir string) error {
	return unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK|unix.X_OK, unix.AT_EACCESS)
}

// stickyOther returns an error, saying why, when target, whose information
// fi is, is another user's file in a sticky directory (/tmp) that is not
// this user's either: there only the file's owner, the directory's or a
// process with CAP_FOWNER (mayOverrideSticky) may replace it (rename(2)
// answers "operation not permitted"), whatever the file's mode lets this
// user write.
func stickyOther(target string, fi fs.FileInfo) error {
	euid := os.Geteuid()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == euid || mayOverrideSticky() {
		return nil
	}
	di, err := os.Stat(filepath.Dir(target))
	if err != nil || di.Mode()&fs.ModeSticky == 0 {
		return nil // a directory that cannot be seen: the rename will say
	}
	if ds, ok := di.Sys().(*syscall.Stat_t); ok && int(ds.Uid) == euid {
		return nil
	}
	return fmt.Errorf("%w: it belongs to another user in a sticky directory", fs.ErrPermission)
}

// fchown changes f's owner and group: (*os.File).Chown, replaced by tests
// to fail as for a group this process's user is not in.
var fchown = (*os.File).Chown

// keepMode gives f, the temporary file that is to replace old, old's
// owner where this process may give it (root: a file root rewrites stays
// its user's, who may rewrite it again), old's group where it may give
// that (this user is in it), and old's permission bits, in that order (a
// change of owner clears the setuid and setgid bits). When the group
// cannot be given, f keeps its own, and its group and others may do what
// both old's group and others may (0o646 becomes 0o644, 0o640 0o600), so
// that no one may do more with the new file than with the old.
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
	if now, ok := fi.Sys().(*syscall.Stat_t); ok && (now.Uid != was.Uid || now.Gid != was.Gid) {
		if fchown(f, int(was.Uid), int(was.Gid)) != nil && now.Gid != was.Gid && fchown(f, -1, int(was.Gid)) != nil {
			g := perm >> 3 & perm & 0o7 // what both the group and others may do
			perm = perm&^0o077 | g<<3 | g
		}
	}
	return f.Chmod(perm)
}
