//go:build linux || darwin || freebsd

package synth

import "syscall"

// freeBytes returns the bytes an unprivileged user may still write on the
// file system of dir, and whether the system told.
func freeBytes(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
