//go:build unix

package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// On a file system without flock (Lustre mounted without -o flock, NFS
// without its lock service) Acquire failed with "locking DIR: function
// not implemented" and no hint: the error says what is missing and what to
// do, names the directory, and keeps the system's error (not ErrLocked).
func TestAcquireWithoutFlock(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSYS, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.ENOLCK} {
		flock = func(int, int) error { return errno }
		dir := t.TempDir()
		for name, acquire := range map[string]func() (*Lock, error){
			"Acquire":     func() (*Lock, error) { return Acquire(dir) },
			"AcquirePart": func() (*Lock, error) { return AcquirePart(dir, "shard-0-of-2") },
		} {
			l, err := acquire()
			if err == nil {
				l.Release()
				t.Errorf("%s with flock failing with %v: no error", name, errno)
				continue
			}
			msg := err.Error()
			if !errors.Is(err, errno) || errors.Is(err, ErrLocked) || !strings.HasPrefix(msg, "locking "+dir+": ") ||
				!strings.Contains(msg, "does not support flock") || !strings.Contains(msg, "mount") || !strings.Contains(msg, "another file system") {
				t.Errorf("%s with flock failing with %v: %q; want it naming %s, saying flock is missing, how to mount it or to move, wrapping the errno", name, errno, msg, dir)
			}
		}
	}
	// Another failure is passed on as it is.
	flock = func(int, int) error { return syscall.EBADF }
	t.Cleanup(func() { flock = syscall.Flock })
	dir := t.TempDir()
	if _, err := Acquire(dir); !errors.Is(err, syscall.EBADF) || strings.Contains(err.Error(), "flock") {
		t.Errorf("Acquire with flock failing with EBADF: %v; want it, without the hint", err)
	}
}

// AcquireFile locks a file (an output, existing or not) through a lock
// file beside it: a second holder is refused naming the file and the
// holder, other files of the directory and the directory itself are not.
func TestAcquireFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "merged.jsonl")
	l, err := AcquireFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireFile(out)
	if msg := fmt.Sprint(err); !errors.Is(err, ErrLocked) || !strings.HasPrefix(msg, fmt.Sprintf("%s is in use by pid %d", out, os.Getpid())) || !strings.Contains(msg, "one process per file") {
		t.Errorf("a second AcquireFile: %v; want ErrLocked naming %s and pid %d", err, out, os.Getpid())
	}
	if _, err := os.Stat(filepath.Join(dir, ".merged.jsonl.lock")); err != nil {
		t.Errorf("the lock file beside %s: %v", out, err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("AcquireFile created %s (%v)", out, err)
	}
	other, err := AcquireFile(filepath.Join(dir, "other.jsonl"))
	if err != nil {
		t.Errorf("another file of the directory: %v", err)
	}
	whole, err := Acquire(dir)
	if err != nil {
		t.Errorf("the directory: %v", err)
	}
	other.Release()
	whole.Release()
	l.Release()
	if l, err = AcquireFile(out); err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l.Release()
}

// TryAcquireFile writes unlocked (a nil Lock, no error) only on a file
// system without flock. A lock file it cannot open — here a directory in
// its place, which root cannot open for writing either — is an error naming
// the output, not a licence to write it unlocked; a holder is ErrLocked.
func TestTryAcquireFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "merged.jsonl")
	flock = func(int, int) error { return syscall.ENOLCK }
	l, err := TryAcquireFile(out)
	flock = syscall.Flock
	if l != nil || err != nil {
		t.Errorf("TryAcquireFile without flock: %v, %v; want nil, nil", l, err)
	}
	held, err := AcquireFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryAcquireFile(out); !errors.Is(err, ErrLocked) {
		t.Errorf("TryAcquireFile of a held file: %v; want ErrLocked", err)
	}
	held.Release()

	blocked := filepath.Join(dir, "blocked.jsonl")
	if err := os.Mkdir(filepath.Join(dir, FileLockName(blocked)), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err = TryAcquireFile(blocked)
	if err == nil {
		l.Release()
		t.Fatalf("TryAcquireFile with a directory as its lock file: no error")
	}
	if msg := err.Error(); l != nil || errors.Is(err, ErrLocked) || !strings.HasPrefix(msg, "locking "+blocked+": ") || !strings.Contains(msg, FileLockName(blocked)) {
		t.Errorf("TryAcquireFile with a directory as its lock file: %v, %q; want an error naming %s and its lock file", l, msg, blocked)
	}
}
