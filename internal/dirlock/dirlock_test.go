package dirlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	a, err := AcquirePart(dir, "shard-0-of-2")
	if err != nil {
		t.Fatal(err)
	}
	b, err := AcquirePart(dir, "shard-1-of-2")
	if err != nil {
		t.Fatalf("a second part: %v", err)
	}
	if _, err := AcquirePart(dir, "shard-0-of-2"); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
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
	if _, err := AcquirePart(dir, "shard-0-of-2"); !errors.Is(err, ErrLocked) {
		t.Errorf("a part while the whole is held: %v, want ErrLocked", err)
	}
	w.Release()
	if l, err := AcquirePart(dir, "shard-0-of-2"); err != nil {
		t.Errorf("a part after the whole's release: %v", err)
	} else {
		l.Release()
	}
}
