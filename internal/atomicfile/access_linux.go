package atomicfile

import (
	"io/fs"
	"os"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// effectiveAccess returns faccessat(2)'s answer for whether this process's
// effective user and groups may access path as mode asks (unix.W_OK …),
// which weighs mode bits, ACLs, capabilities and a read-only file system
// as the open or the creation would. Where faccessat2 is missing (Linux
// before 5.8, RHEL 8's 4.18) or refused (a seccomp filter: ENOSYS, EPERM),
// the answer comes from faccessat without flags, the kernel's for the real
// user, when it is the effective one (as glibc does), and this process
// holds no capability the kernel would drop for it (a user other than
// root with CAP_DAC_OVERRIDE); otherwise the check is unknown and nil is
// returned, for the write itself to find out. x/sys's Faccessat answered
// from the mode bits then, refusing what an ACL lets this user write.
func effectiveAccess(path string, mode uint32) error {
	_, err := accessKnown(path, mode)
	return err
}

// accessKnown is effectiveAccess, with known false where the answer is
// unknown (err nil then: every error comes with known true). It reads this
// process's capabilities only where its answer depends on them: a user
// other than root, neither set-ID, where faccessat2 gave no answer.
func accessKnown(path string, mode uint32) (known bool, err error) {
	err = unix.Faccessat2(unix.AT_FDCWD, path, mode, unix.AT_EACCESS)
	if err != unix.ENOSYS && err != unix.EPERM {
		return true, err
	}
	if os.Geteuid() != os.Getuid() || os.Getegid() != os.Getgid() {
		return false, nil
	}
	if os.Geteuid() != 0 {
		if override, capsKnown := effectiveCap(unix.CAP_DAC_OVERRIDE); override || !capsKnown {
			return false, nil
		}
	}
	return true, unix.Faccessat(unix.AT_FDCWD, path, mode, 0)
}

// writeAccess returns an error when this process may not write the file
// target, whose information fi is: effectiveAccess's answer or, where
// that is unknown, the mode bits' for the effective user and groups
// (CAP_DAC_OVERRIDE allowing all), which refuse what only an ACL would
// allow. Unlike a creation or an open, the rename that replaces target
// never asks whether it may be written: nil here would replace a 0444 file
// or another user's.
func writeAccess(target string, fi fs.FileInfo) error {
	if known, err := accessKnown(target, unix.W_OK); known {
		return err
	}
	if override, _ := effectiveCap(unix.CAP_DAC_OVERRIDE); override {
		return nil // false when the capabilities could not be read
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	bit := fs.FileMode(0o002)
	switch groups, _ := os.Getgroups(); {
	case int(st.Uid) == os.Geteuid():
		bit = 0o200
	case int(st.Gid) == os.Getegid() || slices.Contains(groups, int(st.Gid)):
		bit = 0o020
	}
	if fi.Mode().Perm()&bit == 0 {
		return unix.EACCES
	}
	return nil
}

// effectiveCap reports whether the capability c is in this thread's
// effective set, and whether the set could be read.
func effectiveCap(c int) (has, known bool) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false, false
	}
	return data[c/32].Effective&(1<<(c%32)) != 0, true
}
