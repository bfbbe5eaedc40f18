package dirlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A second Acquire of a held directory fails naming the holder; after
// Release it succeeds. flock locks belong to open file descriptions, so two
// Acquires in one process exclude each other like two processes do.
func TestAcquireExcludes(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second Acquire: %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()
}

// A lock held by a process that was killed (SIGKILL) does not block: the
// kernel released it. The helper process is this test binary.
func TestLockOfKilledProcessIsReleased(t *testing.T) {
	if os.Getenv("DIRLOCK_HOLD") != "" {
		if _, err := Acquire(os.Getenv("DIRLOCK_HOLD")); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("held")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockOfKilledProcessIsReleased$")
	cmd.Env = append(os.Environ(), "DIRLOCK_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("helper: %q %v", buf, err)
	}
	_, err = Acquire(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Fatalf("while the helper holds it: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()
}

// Parts of one directory coexist; a second holder of the same part, and a
// holder of the whole directory, are refused while a part is held, and a
// part is refused while the whole is held.
func TestAcquirePart(t *testing.T) {
	dir := t.TempDir()
	a, b := twoParts(t, dir)
	if _, err := AcquirePart(dir, "2-shards", "shard-0-of-2"); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("the same part again: %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	if _, err := Acquire(dir); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "parts") {
		t.Errorf("the whole while parts are held: %v, want ErrLocked naming the parts", err)
	}
	a.Release()
	b.Release()
	w, err := Acquire(dir)
	if err != nil {
		t.Fatalf("the whole after the parts' release: %v", err)
	}
	excludes(t, "a part", "the whole", w, func() (*Lock, error) { return AcquirePart(dir, "2-shards", "shard-0-of-2") })
}

// twoParts acquires the parts shard-0-of-2 and shard-1-of-2, of group
// 2-shards, of dir.
func twoParts(t *testing.T, dir string) (a, b *Lock) {
	t.Helper()
	a, err := AcquirePart(dir, "2-shards", "shard-0-of-2")
	if err != nil {
		t.Fatal(err)
	}
	b, err = AcquirePart(dir, "2-shards", "shard-1-of-2")
	if err != nil {
		t.Fatalf("a second part of the group: %v", err)
	}
	return a, b
}

// excludes checks that acquire (of what) is refused with ErrLocked, its
// message holding each of want, while held (of holder) is held, and
// succeeds once held is released.
func excludes(t *testing.T, what, holder string, held *Lock, acquire func() (*Lock, error), want ...string) {
	t.Helper()
	if _, err := acquire(); !errors.Is(err, ErrLocked) || !containsAll(err.Error(), want) {
		t.Errorf("%s while %s is held: %v; want ErrLocked naming %q", what, holder, err, want)
	}
	held.Release()
	if l, err := acquire(); err != nil {
		t.Errorf("%s after %s's release: %v", what, holder, err)
	} else {
		l.Release()
	}
}

// containsAll reports whether s contains each of subs.
func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// Parts of two groups (shards of 2 and shards of 3) split a directory's
// work two ways, so that both holding it at once did the work twice: a
// part of another group is refused, naming that group and its lock file,
// while any part of a group is held, and allowed once they are all
// released (their lock files, which stay, block no one).
func TestAcquirePartGroups(t *testing.T) {
	dir := t.TempDir()
	a, b := twoParts(t, dir)
	want := filepath.Join(dir, LockFile+".group-2-shards")
	for _, held := range []*Lock{a, b} {
		_, err := AcquirePart(dir, "3-shards", "shard-0-of-3")
		if !errors.Is(err, ErrLocked) || !containsAll(err.Error(), []string{"group 2-shards", want}) {
			t.Errorf("a part of another group: %v; want ErrLocked naming group 2-shards and %s", err, want)
		}
		held.Release()
	}
	c, err := AcquirePart(dir, "3-shards", "shard-0-of-3")
	if err != nil {
		t.Fatalf("a part of another group after the first group's release: %v", err)
	}
	excludes(t, "the first group again", "a part of the second", c, func() (*Lock, error) { return AcquirePart(dir, "2-shards", "shard-1-of-2") },
		"group 3-shards", filepath.Join(dir, LockFile+".group-3-shards"))
}

// Parts of two groups that start at the same moment never both hold the
// directory: at any time the parts held are of one group. (Each checking
// the other groups' lock files and then taking its own, without the gate,
// let two that checked before either took its lock both pass.)
func TestAcquirePartGroupsAtOnce(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	for range rounds {
		dir := t.TempDir()
		var mu sync.Mutex
		holders := map[string]int{} // group → parts held
		var wg sync.WaitGroup
		for k := range 6 {
			group := fmt.Sprintf("%d-shards", 2+k%2)
			wg.Go(func() {
				l, err := AcquirePart(dir, group, fmt.Sprintf("shard-%d-of-%s", k/2, group))
				if err != nil {
					if !errors.Is(err, ErrLocked) {
						t.Error(err)
					}
					return
				}
				mu.Lock()
				holders[group]++
				if len(holders) > 1 {
					t.Errorf("parts of groups %v held at once", holders)
				}
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				if holders[group]--; holders[group] == 0 {
					delete(holders, group)
				}
				mu.Unlock()
				l.Release()
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
	}
}

// A refusal because the parts of a group hold the directory is a
// *GroupError naming that group and its lock file, for a part of another
// group (AcquirePart) and for the whole directory (Acquire), so that a
// caller can word it in its own terms without reading the message.
func TestGroupError(t *testing.T) {
	dir := t.TempDir()
	a, b := twoParts(t, dir)
	defer a.Release()
	defer b.Release()
	want := GroupError{Group: "2-shards", LockFile: filepath.Join(dir, LockFile+".group-2-shards")}
	for name, acquire := range map[string]func() (*Lock, error){
		"AcquirePart": func() (*Lock, error) { return AcquirePart(dir, "3-shards", "shard-0-of-3") },
		"Acquire":     func() (*Lock, error) { return Acquire(dir) },
	} {
		_, err := acquire()
		ge, ok := errors.AsType[*GroupError](err)
		if !ok || !errors.Is(err, ErrLocked) || ge.Group != want.Group || ge.LockFile != want.LockFile || ge.Error() != err.Error() {
			t.Errorf("%s while the parts of group 2-shards hold the directory: %#v (%v); want a *GroupError matching ErrLocked, group %q, lock file %s", name, err, err, want.Group, want.LockFile)
		}
	}
	// A part of its own group is refused for holding the same part, not by
	// a group.
	if _, err := AcquirePart(dir, "2-shards", "shard-0-of-2"); !errors.Is(err, ErrLocked) {
		t.Errorf("the same part again: %v; want ErrLocked", err)
	} else if _, ok := errors.AsType[*GroupError](err); ok {
		t.Errorf("the same part again: %v is a *GroupError", err)
	}
}
