package atomicfile

import (
	"os"

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
	err := unix.Faccessat2(unix.AT_FDCWD, path, mode, unix.AT_EACCESS)
	if err != unix.ENOSYS && err != unix.EPERM {
		return err
	}
	if os.Geteuid() != os.Getuid() || os.Getegid() != os.Getgid() {
		return nil
	}
	if os.Geteuid() != 0 {
		if has, known := effectiveCap(unix.CAP_DAC_OVERRIDE); has || !known {
			return nil
		}
	}
	return unix.Faccessat(unix.AT_FDCWD, path, mode, 0)
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
