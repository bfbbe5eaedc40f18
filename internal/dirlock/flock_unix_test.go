//go:build unix

package dirlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/otherusertest"
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
			"AcquirePart": func() (*Lock, error) { return AcquirePart(dir, "2-shards", "shard-0-of-2") },
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

// A lock file another user made (mode 0o644 under umask 022) in a
// directory a group shares: this user could replace the output (the
// directory is writable) but not open the lock file for writing, and was
// refused ("permission denied"). It is now locked through a read-only
// descriptor, still excluding a holder; a lock file this user cannot open
// at all is an error naming it, whose it is and that it may be deleted.
// As root (CI) the other user is a copy of this test binary run as uid
// 65534; otherwise the lock file loses its owner's write bit, which a
// non-root owner cannot write past either.
func TestLockFileOfAnotherUser(t *testing.T) {
	if path := os.Getenv("DIRLOCK_ACQUIRE_FILE"); path != "" {
		l, err := AcquireFile(path)
		fmt.Print(describeAcquire(err))
		l.Release()
		os.Exit(0)
	}
	dir := otherusertest.SharedDir(t, "dirlock-shared")
	out := filepath.Join(dir, "report-files.json")
	lockPath := filepath.Join(dir, FileLockName(out))
	first, err := AcquireFile(out)
	if err != nil {
		t.Fatal(err)
	}
	first.Release()
	other := acquireAsOtherUser(t, dir, out)
	if err := os.Chmod(lockPath, otherUserMode(0o644)); err != nil {
		t.Fatal(err)
	}
	if got := other(); got != "ok" {
		t.Errorf("AcquireFile of a lock file another user made with mode 0o644: %s; want it held", got)
	}
	held, err := AcquireFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := other(); !strings.HasPrefix(got, "locked: ") {
		t.Errorf("AcquireFile through a read-only lock file while another holds it: %s; want ErrLocked", got)
	}
	held.Release()
	if err := os.Chmod(lockPath, 0); err != nil {
		t.Fatal(err)
	}
	if got := other(); !strings.HasPrefix(got, "error: locking "+out+": ") || !strings.Contains(got, lockPath) ||
		!strings.Contains(got, "another user") || !strings.Contains(got, "safe to delete when no greedytl is running on "+dir) {
		t.Errorf("AcquireFile of a lock file this user cannot open: %s; want an error naming %s and %s, its owner, and that it may be deleted", got, out, lockPath)
	}
}

// acquireAsOtherUser returns a function that calls AcquireFile(out) as a
// user who does not own the lock files of dir and describes its result
// (describeAcquire).
func acquireAsOtherUser(t *testing.T, dir, out string) func() string {
	if os.Geteuid() != 0 {
		return func() string {
			l, err := AcquireFile(out)
			l.Release()
			return describeAcquire(err)
		}
	}
	return func() string {
		return otherusertest.Output(t, dir, "TestLockFileOfAnotherUser", "DIRLOCK_ACQUIRE_FILE="+out)
	}
}

// otherUserMode is the mode that makes a lock file of mode another
// user's for this one: mode itself as root, whose helper runs as another
// user; without its owner's write bit otherwise.
func otherUserMode(mode os.FileMode) os.FileMode {
	if os.Geteuid() == 0 {
		return mode
	}
	return mode &^ 0o200
}

func describeAcquire(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrLocked):
		return "locked: " + err.Error()
	}
	return "error: " + err.Error()
}

// Lock files are created with mode 0o666 less the umask, so that under the
// umask 002 of a shared group directory every member may write them.
// It sets the process's umask, which every goroutine shares: no test of
// this package may call t.Parallel, lest its files be made under this one.
func TestLockFileMode(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, acquire := range []func() (*Lock, error){
		func() (*Lock, error) { return Acquire(dir) },
		func() (*Lock, error) { return AcquirePart(dir, "2-shards", "shard-0-of-2") },
		func() (*Lock, error) { return AcquireFile(filepath.Join(dir, "merged.jsonl")) },
	} {
		l, err := acquire()
		if err != nil {
			t.Fatal(err)
		}
		l.Release()
	}
	for _, name := range []string{LockFile, LockFile + ".shard-0-of-2", FileLockName("merged.jsonl")} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o664 {
			t.Errorf("%s: mode %o under umask 002; want 664", name, got)
		}
	}
}

// A holder that opened another user's lock file read-only cannot record
// itself, so the file still names the last holder that could. When that
// one has exited, the refusal named its dead pid and said "stop it", and
// a user who then deleted the lock file (safe, the docs say, when no
// greedytl runs) let a second process lock a new inode beside the first:
// the refusal now says the holder could not record itself and that the
// recorded one has exited, advising neither. A recorded holder that is
// alive, or of another host, is named as before.
func TestRefusalWhenTheRecordedHolderExited(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("running true: %v", err)
	}
	dead := cmd.Process.Pid
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		pid    int
		host   string
		exited bool
	}{
		{"an exited holder of this host", dead, host, true},
		{"a running holder of this host", os.Getpid(), host, false},
		{"a holder of another host", dead, host + "-elsewhere", false},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "merged.jsonl")
		lockPath := filepath.Join(dir, FileLockName(out))
		record := fmt.Sprintf("pid %d on host %s since 2026-11-26T12:00:00Z", c.pid, c.host)
		if err := os.WriteFile(lockPath, []byte(record+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// The holder: a descriptor that holds the flock without recording.
		holder, err := os.Open(lockPath)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
		l, err := AcquireFile(out)
		holder.Close()
		if err == nil {
			l.Release()
			t.Errorf("%s: AcquireFile while the flock is held: no error", c.name)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, ErrLocked) || !strings.HasPrefix(msg, out+" is in use by ") || !strings.Contains(msg, lockPath) {
			t.Errorf("%s: %q; want ErrLocked naming %s and %s", c.name, msg, out, lockPath)
		}
		if c.exited {
			if !strings.Contains(msg, "has not recorded itself") || !strings.Contains(msg, fmt.Sprintf("pid %d on this host, has exited", dead)) ||
				strings.Contains(msg, "stop it") || strings.Contains(msg, "delete") || strings.Contains(msg, record) {
				t.Errorf("%s: %q; want it saying the holder has not recorded itself and pid %d has exited, advising neither stopping nor deleting", c.name, msg, dead)
			}
		} else if !strings.Contains(msg, "in use by "+record+" (lock file ") || !strings.Contains(msg, "wait for it or stop it") {
			t.Errorf("%s: %q; want it naming %q as the holder", c.name, msg, record)
		}
	}
}

// TestReleaseEmptiesTheRecord: Release empties the record of a holder that
// wrote one, so that a record beside a held lock is its holder's, or a
// crashed one's; Acquire refused while shards hold parts of a directory
// whose record names an exited process names the parts' group (they
// record nothing in the directory's lock file), as when the record is
// empty; and refused by a holder that records nothing, with no part held,
// it does not speak of parts.
func TestReleaseEmptiesTheRecord(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, LockFile)
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), fmt.Sprintf("pid %d on host ", os.Getpid())) {
		t.Fatalf("lock file while held: %q; want this process's record", b)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); len(b) != 0 {
		t.Errorf("lock file after Release: %q; want it empty", b)
	}

	// A crashed holder's record, then a shard's part.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no process to take a dead pid from: %v", err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	record := fmt.Sprintf("pid %d on host %s since 2026-11-26T12:00:00Z\n", cmd.Process.Pid, host)
	if err := os.WriteFile(path, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	part, err := AcquirePart(dir, "2-shards", "shard-1-of-2")
	if err != nil {
		t.Fatal(err)
	}
	defer part.Release()
	whole, err := Acquire(dir)
	if err == nil {
		whole.Release()
		t.Fatal("Acquire while a part is held: no error")
	}
	if msg := err.Error(); !errors.Is(err, ErrLocked) || !strings.Contains(msg, "in use by the parts of group 2-shards (lock file "+filepath.Join(dir, ".lock.group-2-shards")+")") ||
		!strings.Contains(msg, fmt.Sprintf("pid %d on this host, has exited", cmd.Process.Pid)) {
		t.Errorf("Acquire while a part is held beside a crashed holder's record: %q; want it naming the parts' group as the holder and the record's pid as exited", msg)
	}
	// The usual case, an empty record: the parts' group is the holder,
	// named once with its lock file, where the refusal added the
	// directory's lock file and asked to wait for "it or stop it".
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if whole, err = Acquire(dir); err == nil {
		whole.Release()
		t.Fatal("Acquire while a part is held: no error")
	}
	if msg, want := err.Error(), dir+" is in use by the parts of group 2-shards (lock file "+filepath.Join(dir, ".lock.group-2-shards")+"): one process per directory; wait for them or stop them: "; !errors.Is(err, ErrLocked) || !strings.HasPrefix(msg, want) {
		t.Errorf("Acquire while a part is held, the record empty: %q; want %q", msg, want+ErrLocked.Error())
	}
	part.Release()

	// A holder that records nothing (another user's greedytl, through a
	// read-only lock file) with no part held: not said to be parts.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	holder, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	whole, err = Acquire(dir)
	if err == nil {
		whole.Release()
		t.Fatal("Acquire while another descriptor holds the lock: no error")
	}
	if msg := err.Error(); !errors.Is(err, ErrLocked) || !strings.Contains(msg, "in use by a process that has not recorded itself") || strings.Contains(msg, "parts") {
		t.Errorf("Acquire while an unrecorded holder holds the lock, no part held: %q; want it naming an unrecorded holder, not parts", msg)
	}
}

// TestGateWaitIsBounded: AcquirePart waits for the gate only gateWait,
// then refuses naming it, where a gate's holder that never lets go (a
// stopped process, a dead node's lock on NFS) blocked every shard for
// ever without a word.
func TestGateWaitIsBounded(t *testing.T) {
	defer func(w time.Duration) { gateWait = w }(gateWait)
	gateWait = 50 * time.Millisecond
	dir := t.TempDir()
	gate, err := os.OpenFile(filepath.Join(dir, gateFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Close()
	if err := syscall.Flock(int(gate.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		l, err := AcquirePart(dir, "2-shards", "shard-0-of-2")
		if err == nil {
			l.Release()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(dir, gateFile)) {
			t.Errorf("AcquirePart while the gate is held: %v; want ErrLocked naming %s", err, gateFile)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AcquirePart still waiting for the gate after 10 s")
	}
}

// TestRefusalProbeSparesAStartingPart: Acquire refused while parts hold
// the directory probes the groups' lock files, with an exclusive lock
// released at once, to name the holders. A part takes its group's lock
// under the gate, and the probe took it without: a part of a group whose
// lock file stayed from an earlier run, starting at that instant, found
// its group's lock taken and was refused (the collision 329fd0f reverted
// HeldParts for). Here a part holds the gate and the directory's shared
// lock, about to take its group's, and takes it when the probe locks the
// group's file (the flock hook): it must not be refused.
func TestRefusalProbeSparesAStartingPart(t *testing.T) {
	dir := t.TempDir()
	earlier, err := AcquirePart(dir, "2-shards", "shard-0-of-2")
	if err != nil {
		t.Fatal(err)
	}
	earlier.Release() // its group's lock file stays
	defer func(w time.Duration) { probeWait = w }(probeWait)
	probeWait = 50 * time.Millisecond // the starting part keeps the gate
	gate := hold(t, filepath.Join(dir, gateFile), syscall.LOCK_EX)
	defer gate.Close()
	whole := hold(t, filepath.Join(dir, LockFile), syscall.LOCK_SH)
	defer whole.Close()

	group := filepath.Join(dir, groupPrefix+"2-shards")
	var partErr error
	probed := false
	flock = func(fd, how int) error {
		err := syscall.Flock(fd, how)
		if p, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); p == group && how&syscall.LOCK_EX != 0 && err == nil && !probed {
			probed = true
			var f *os.File
			if f, partErr = lockFile(dir, groupPrefix+"2-shards", true, dir); partErr == nil {
				f.Close()
			}
		}
		return err
	}
	defer func() { flock = syscall.Flock }()
	l, err := Acquire(dir)
	if err == nil {
		l.Release()
		t.Fatal("Acquire while a part holds the directory: no error")
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire while a part holds the directory: %v; want ErrLocked", err)
	}
	if partErr != nil {
		t.Errorf("a part taking its group's lock while Acquire's refusal probed it: %v; want no refusal", partErr)
	}
}

// hold opens path (creating it) and locks it with how (LOCK_EX, LOCK_SH)
// through a descriptor of its own, as another process would.
func hold(t *testing.T, path string, how int) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		t.Fatal(err)
	}
	return f
}

// Acquire's refusal waits for the gate a starting part holds before it
// looks for the group whose parts hold the directory, so that the refusal
// still names them (a *GroupError) rather than an unrecorded holder; and
// in a directory where no group ever took a part it does not look (nor
// create the gate's lock file).
func TestRefusalWaitsForTheGate(t *testing.T) {
	dir := t.TempDir()
	p, err := AcquirePart(dir, "2-shards", "shard-0-of-2")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	gate := hold(t, filepath.Join(dir, gateFile), syscall.LOCK_EX) // a starting part
	go func() { time.Sleep(50 * time.Millisecond); gate.Close() }()
	_, err = Acquire(dir)
	if ge, ok := errors.AsType[*GroupError](err); !ok || ge.Group != "2-shards" {
		t.Errorf("Acquire while a part holds the directory and another starts: %v; want a *GroupError naming group 2-shards", err)
	}

	plain := t.TempDir()
	whole := hold(t, filepath.Join(plain, LockFile), syscall.LOCK_EX) // no record
	defer whole.Close()
	if _, err := Acquire(plain); !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire while an unrecorded process holds the directory: %v; want ErrLocked", err)
	}
	if _, err := os.Stat(filepath.Join(plain, gateFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Acquire in a directory no part ever took: %s: %v; want no such file", gateFile, err)
	}
	zero := &GroupError{Group: "2-shards", LockFile: "D/.lock.group-2-shards"}
	if got := zero.Error(); !strings.Contains(got, "2-shards") || !errors.Is(zero, ErrLocked) {
		t.Errorf("a GroupError made without a refusal: %q, matching ErrLocked %v; want its group named, matching", got, errors.Is(zero, ErrLocked))
	}
}
