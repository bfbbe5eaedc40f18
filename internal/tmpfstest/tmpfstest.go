// Package tmpfstest gives tests a file system of their own that fails as
// real ones do — full, or read-only — by mounting a tmpfs, which needs
// root: without it (or without the mount command) the test is skipped.
package tmpfstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Mount mounts a new tmpfs of size bytes (at least a page: tmpfs counts
// whole pages, one at least per non-empty file) on a new directory, read-only
// when ro, and returns the directory; the file system is unmounted when the
// test ends. It skips the test when this process cannot mount (not root,
// no mount command, a container that forbids it).
func Mount(t testing.TB, size int, ro bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := fmt.Sprintf("size=%d", size)
	if ro {
		opts += ",ro"
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s): the test needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		// A file the test left open keeps the file system busy: detach it
		// then (umount -l), and say so.
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s (a file left open?)", dir, err, strings.TrimSpace(string(out)))
			exec.Command("umount", "-l", dir).Run()
		}
	})
	return dir
}

// Unwritable returns a directory that this process cannot write in: a
// read-only tmpfs as root (who may write anywhere else), a directory of
// mode 0555 otherwise.
func Unwritable(t testing.TB) string {
	t.Helper()
	if os.Geteuid() == 0 {
		return Mount(t, 1<<20, true)
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	return dir
}
