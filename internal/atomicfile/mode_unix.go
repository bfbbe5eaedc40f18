//go:build unix

package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// mayWrite returns an error when this process may not write the file
// target, whose information fi is: faccessat(2)'s answer for the
// effective user and groups (effectiveAccess), which weighs the mode bits,
// ACLs and a read-only file system as an open for writing would
// ("permission denied", "read-only file system"), or where that is unknown
// the mode bits' (writeAccess). access(2) asked for the real user's: a
// process whose effective user differs (set-user-ID, or root that changed
// it) was answered for the wrong one.
func mayWrite(target string, fi fs.FileInfo) error {
	if err := writeAccess(target, fi); err != nil {
		return err
	}
	return stickyOther(target, fi)
}

// mayWriteInPlace returns an error when this process may not open the
// device or FIFO target for writing: faccessat(2)'s answer, as for
// mayWrite (nil where it is unknown: the open will say).
func mayWriteInPlace(target string) error {
	return effectiveAccess(target, unix.W_OK)
}

// mayCreateIn returns an error when this process may not create a file in
// the directory dir: faccessat(2)'s answer for writing and searching it, for
// the effective user and groups, as for mayWrite ("permission denied",
// "read-only file system", "no such file or directory"). Where that answer
// is unknown (effectiveAccess) it returns nil: the creation will say.
func mayCreateIn(dir string) error {
	return effectiveAccess(dir, unix.W_OK|unix.X_OK)
}

// stickyOther returns an error, saying why, when target, whose information
// fi is, is another user's file in a sticky directory (/tmp) that is not
// this user's either: there only the file's owner, the directory's or a
// process with CAP_FOWNER (mayOverrideSticky) may replace it (rename(2)
// answers "operation not permitted"), whatever the file's mode lets this
// user write.
func stickyOther(target string, fi fs.FileInfo) error {
	_, dirOwner, dirMode, ok := stickyParent(target, fi)
	if !ok || dirMode&fs.ModeSticky == 0 || int(dirOwner) == os.Geteuid() || mayOverrideSticky() {
		return nil // where the directory cannot be seen, the rename will say
	}
	return fmt.Errorf("%w: it belongs to another user in a sticky directory", fs.ErrPermission)
}

// stickyParent returns, for the file x whose information fi is, its owner
// and its directory's owner and mode (os.Stat, links followed), which the
// rules of sticky directories weigh (stickyOther, mayFollow); ok is false
// where x is the effective user's, where either owner is unknown (no
// syscall.Stat_t) or the directory cannot be seen.
func stickyParent(x string, fi fs.FileInfo) (owner, dirOwner uint32, dirMode fs.FileMode, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() {
		return 0, 0, 0, false
	}
	di, err := os.Stat(filepath.Dir(x))
	if err != nil {
		return 0, 0, 0, false
	}
	ds, ok := di.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return st.Uid, ds.Uid, di.Mode(), true
}

// fchown changes f's owner and group: (*os.File).Chown, replaced by tests
// to fail as for a group this process's user is not in.
var fchown = (*os.File).Chown

// keepMode gives f, the temporary file that is to replace old, old's
// group where this process may give it (this user is in it; root), old's
// permission bits, then old's owner where this process may give it (root:
// a file root rewrites stays its user's, who may rewrite it again). In
// that order: f must be this process's to have its mode set (a process
// without CAP_FOWNER, root in a container that dropped it, may not once
// it gave f away), and it never has a group and mode together that let
// anyone read it whom old did not let. When the group cannot be given, f
// keeps its own, and its group and others may do what both old's group
// and others may (0o646 becomes 0o644, 0o640 0o600), so that no one may
// do more with the new file than with the old.
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
	now, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return f.Chmod(perm)
	}
	if now.Gid != was.Gid && fchown(f, -1, int(was.Gid)) != nil {
		g := perm >> 3 & perm & 0o7 // what both the group and others may do
		perm = perm&^0o077 | g<<3 | g
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if now.Uid != was.Uid {
		_ = fchown(f, int(was.Uid), -1) // only root may: the file stays this user's
	}
	return nil
}

// protectedSymlinks returns the value of the sysctl fs.protected_symlinks
// (0 where it cannot be read: not Linux). A package variable for tests.
var protectedSymlinks = func() int {
	b, err := os.ReadFile("/proc/sys/fs/protected_symlinks")
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return n
}

// mayFollow returns an error when the kernel would not follow the symbolic
// link link, whose information fi is, for this process (may_follow_link,
// with fs.protected_symlinks not 0): a link in a sticky directory that
// everyone may write, owned by neither the effective user nor the
// directory's owner. A shell's "> link" gets "permission denied" there;
// resolve, which follows links itself, must refuse as well.
func mayFollow(path, link string, fi fs.FileInfo) error {
	if protectedSymlinks() == 0 {
		return nil // the kernel follows every link: no need to look at the directory
	}
	owner, dirOwner, dirMode, ok := stickyParent(link, fi)
	const stickyOpen = fs.ModeSticky | 0o002
	if !ok || dirMode&stickyOpen != stickyOpen || dirOwner == owner {
		return nil // a directory that cannot be seen: the kernel's lookup will say
	}
	return fmt.Errorf("%s: a link of another user in a sticky directory: not followed (fs.protected_symlinks)", path)
}
