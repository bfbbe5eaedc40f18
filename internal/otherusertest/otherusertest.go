//go:build unix

// Package otherusertest runs part of a test as another user, for the tests
// of what a process may do with files it does not own: as root (CI), a copy
// of the test binary runs as uid 65534 in a directory everyone may write.
package otherusertest

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// SharedDir returns a new directory, named after pattern as os.MkdirTemp
// names it, that everyone may enter and write (mode 0o777, as a group's
// scratch space), removed when the test ends. t.TempDir's would not do:
// its parent is 0o700.
func SharedDir(t testing.TB, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Output runs the test named test of this test binary as uid 65534, with
// env added to its environment, and returns its standard output. The
// binary is copied into dir (SharedDir's) first, where that user may run
// it. It skips t when this process may not run a process as that user
// (root without CAP_SETUID) or that user may not reach dir.
func Output(t testing.TB, dir, test string, env ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(exe))
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) {
		if err := copyExecutable(exe, bin); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$")
	cmd.Dir = "/"
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	got, err := cmd.Output()
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("running a process as uid 65534: %v (root without CAP_SETUID)", err)
	}
	if errors.Is(err, syscall.EACCES) {
		t.Skipf("running a process as uid 65534: %v (uid 65534 may not reach %s: a TMPDIR under a directory only root may enter, such as /root)", err, bin)
	}
	if err != nil {
		t.Fatalf("the process as uid 65534: %v: %s", err, got)
	}
	return string(got)
}

// copyExecutable copies the executable exe to path, mode 0o755.
func copyExecutable(exe, path string) error {
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if err := dst.Chmod(0o755); err != nil { // whatever the umask
		dst.Close()
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
