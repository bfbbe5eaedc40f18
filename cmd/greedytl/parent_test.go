//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestParentPIDChecked runs greedytl version with GREEDYTL_PARENT_PID set:
// to its parent's id (this test) or its grandparent's (the process that
// runs this test) it runs; to a live process that is none of its
// ancestors, or to one that has ended (as when the process that started
// it died before it asked for the parent-death signal, greedytl's parent
// then being another process) it exits at once with status 143, printing
// no version; to what is no process id it exits with status 2 naming the
// variable.
func TestParentPIDChecked(t *testing.T) {
	bin := buildGreedytl(t)
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Wait()
	defer other.Process.Kill()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	notAncestor := func(pid int) string {
		return "GREEDYTL_PARENT_PID=" + strconv.Itoa(pid) + ": greedytl's parent is process " + strconv.Itoa(os.Getpid()) +
			", and process " + strconv.Itoa(pid) + " is none of its ancestors"
	}
	for _, c := range []struct {
		value string
		code  int
		out   string
		err   string
	}{
		{strconv.Itoa(os.Getpid()), 0, "greedytl ", ""},
		{strconv.Itoa(os.Getppid()), 0, "greedytl ", ""},
		{strconv.Itoa(other.Process.Pid), 143, "", notAncestor(other.Process.Pid)},
		{strconv.Itoa(gone.Process.Pid), 143, "", notAncestor(gone.Process.Pid)},
		{"abc", 2, "", `GREEDYTL_PARENT_PID="abc": not a process id`},
		{"0", 2, "", `GREEDYTL_PARENT_PID="0": not a process id`},
		{"", 2, "", `GREEDYTL_PARENT_PID="": not a process id`},
	} {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), parentEnv+"="+c.value)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.HasPrefix(stdout.String(), c.out) || (c.out == "") != (stdout.Len() == 0) ||
			!strings.Contains(stderr.String(), c.err) {
			t.Errorf("%s=%q: exit %d, stdout %q, stderr %q; want exit %d, stdout starting %q, stderr saying %q",
				parentEnv, c.value, code, stdout.String(), stderr.String(), c.code, c.out, c.err)
		}
	}
}

// TestParentDeathStopsGreedytl starts greedytl demo from a shell that
// names itself in GREEDYTL_PARENT_PID, waits until the demo works (its run
// directory exists), kills the shell with SIGKILL and checks that greedytl
// ends without finishing its demo (killShellStopsDemo).
func TestParentDeathStopsGreedytl(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	sh, child := startPrintingPID(t, "greedytl's", parentEnv+`=$$ "$0" demo --quiet --out "$1" >/dev/null & echo $!; wait`, bin, dir)
	killShellStopsDemo(t, sh, dir, func() int { return child }, "parent")
}

// stopDeadline is how long the parent-death tests wait for what takes a
// second or less on an idle machine (the demo to start its run, greedytl to
// end once its parent or ancestor is killed): an overall deadline,
// generous for a machine loaded many times over (the 10 s these tests gave
// greedytl to end assumed an idle one). What they check does not depend
// on it: the demo, stopped, writes no report, which it writes once it has
// run to its end (in about a minute on an idle machine). Its standard
// output is /dev/null, not the pipe the test reads the shell's from: a
// greedytl left running wrote its table to that pipe, closed with the
// shell, and died of SIGPIPE just before its report, passing for one that
// stopped.
const stopDeadline = 5 * time.Minute

// killShellStopsDemo waits until the greedytl demo writing to dir works
// (its run directory exists and greedytl(), its process id, is known, not
// 0), kills the shell sh with SIGKILL and checks that greedytl ends
// (within stopDeadline) without having written the demo's report, failing
// the test otherwise; role names the shell in the messages.
func killShellStopsDemo(t *testing.T, sh *exec.Cmd, dir string, greedytl func() int, role string) {
	t.Helper()
	child := 0
	for end := time.Now().Add(stopDeadline); ; time.Sleep(10 * time.Millisecond) {
		if child == 0 {
			child = greedytl()
		}
		if _, err := os.Stat(filepath.Join(dir, "run")); err == nil && child != 0 {
			break
		}
		if time.Now().After(end) || (child != 0 && ended(child, 0)) {
			sh.Process.Kill()
			sh.Wait()
			if child != 0 {
				syscall.Kill(child, syscall.SIGKILL)
			}
			t.Fatal("greedytl demo did not start its run")
		}
	}
	sh.Process.Kill()
	sh.Wait()
	killed := time.Now()
	if !ended(child, stopDeadline) {
		syscall.Kill(child, syscall.SIGKILL) // still running: no other process has its id
		t.Fatalf("greedytl still runs %v after its %s was killed", stopDeadline, role)
	}
	if _, err := os.Stat(filepath.Join(dir, "report")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("greedytl wrote the demo's report (%v): its %s's death did not stop it", err, role)
	}
	t.Logf("greedytl ended %v after its %s was killed", time.Since(killed).Round(time.Millisecond), role)
}

// startPrintingPID starts sh -c script with args, which prints the
// process id of what it starts (named by what) on its first line, and
// returns the shell and that id, failing the test when the line is no id.
func startPrintingPID(t *testing.T, what, script string, args ...string) (*exec.Cmd, int) {
	t.Helper()
	sh := exec.Command("sh", append([]string{"-c", script}, args...)...)
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		sh.Process.Kill()
		sh.Wait()
		t.Fatalf("the shell printed %q (%v), not %s process id", line, err, what)
	}
	return sh, pid
}

// ended reports whether process pid has ended (or is a zombie) within
// timeout, polling /proc every 10 ms.
func ended(pid int, timeout time.Duration) bool {
	for end := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
		if !time.Now().Before(end) {
			return false
		}
	}
}

// writeWrapper writes a shell script that runs its arguments as a child
// (no exec, as HPC module wrappers, timeout and shell shims do) and exits
// with its status, named with spaces and parentheses so that its
// /proc/PID/stat command field holds them, and returns its path.
func writeWrapper(t *testing.T) string {
	t.Helper()
	wrap := filepath.Join(t.TempDir(), "w) (x y")
	if err := os.WriteFile(wrap, []byte("#!/bin/sh\n\"$@\"\nexit $?\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrap
}

// TestParentPIDThroughWrapper runs greedytl version through writeWrapper's
// script with GREEDYTL_PARENT_PID naming this test, greedytl's
// grandparent: it runs, as it does when started directly.
func TestParentPIDThroughWrapper(t *testing.T) {
	bin := buildGreedytl(t)
	cmd := exec.Command(writeWrapper(t), bin, "version")
	cmd.Env = append(os.Environ(), parentEnv+"="+strconv.Itoa(os.Getpid()))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || !strings.HasPrefix(stdout.String(), "greedytl ") {
		t.Errorf("through a wrapper: %v, stdout %q, stderr %q; want greedytl's version", err, stdout.String(), stderr.String())
	}
}

// TestAncestorDeathStopsGreedytl starts greedytl demo through
// writeWrapper's script from a shell that names itself in
// GREEDYTL_PARENT_PID, waits until the demo works (its run directory
// exists), kills the shell with SIGKILL, which leaves the wrapper running,
// and checks that greedytl ends without finishing its demo
// (killShellStopsDemo).
func TestAncestorDeathStopsGreedytl(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	sh, wrapper := startPrintingPID(t, "the wrapper's", parentEnv+`=$$ "$0" "$1" demo --quiet --out "$2" >/dev/null & echo $!; wait`,
		writeWrapper(t), bin, dir)
	defer syscall.Kill(wrapper, syscall.SIGKILL)
	killShellStopsDemo(t, sh, dir, func() int { return childOf(wrapper) }, "grandparent")
}

// childOf returns the id of a child of process pid, or 0 if it has none.
func childOf(pid int) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			if pp, err := parentOf(p); err == nil && pp == pid {
				return p
			}
		}
	}
	return 0
}

// TestAncestorWatchers checks the two ways greedytl watches an ancestor,
// in this process, on a shell whose child sleeps: hasAncestor finds the
// shell and this process above the child, and no unrelated process;
// watchPidfd (a pidfd of the shell) and pollAncestor (the fallback where
// no pidfd can be opened, which looks at the child's ancestors) call
// their stop only once the shell, killed with SIGKILL, has ended, the
// child still running.
func TestAncestorWatchers(t *testing.T) {
	sh, child := startPrintingPID(t, "its child's", "sleep 60 & echo $!; wait")
	defer syscall.Kill(child, syscall.SIGKILL)
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Wait()
	defer other.Process.Kill()
	for _, c := range []struct {
		pid  int
		want bool
	}{{sh.Process.Pid, true}, {os.Getpid(), true}, {child, true}, {other.Process.Pid, false}} {
		if got, err := hasAncestor(child, c.pid); got != c.want || err != nil {
			t.Errorf("hasAncestor(%d, %d) = %v, %v; want %v, nil", child, c.pid, got, err, c.want)
		}
	}
	fd, err := unix.PidfdOpen(sh.Process.Pid, 0)
	if err != nil {
		sh.Process.Kill()
		sh.Wait()
		t.Skipf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	byPidfd, byPoll := make(chan struct{}), make(chan struct{})
	go watchPidfd(fd, func() { close(byPidfd) })
	go pollAncestor(child, sh.Process.Pid, 10*time.Millisecond, func() { close(byPoll) })
	select {
	case <-byPidfd:
		t.Error("watchPidfd stopped while the shell ran")
	case <-byPoll:
		t.Error("pollAncestor stopped while the shell ran")
	case <-time.After(300 * time.Millisecond):
	}
	sh.Process.Kill()
	sh.Wait()
	for name, c := range map[string]chan struct{}{"watchPidfd": byPidfd, "pollAncestor": byPoll} {
		select {
		case <-c:
		case <-time.After(10 * time.Second):
			t.Errorf("%s did not stop within 10 s of the shell's end", name)
		}
	}
	if ended(child, 0) {
		t.Error("the shell's child ended with it: the watchers were not tested on a live descendant")
	}
}

// TestAncestorsUnreadable points procDir at a directory without the
// process's stat file, then at one whose stat file has no parent field, as
// where /proc is not mounted or hides other users' processes (hidepid=2):
// watchAncestor, asked about this test's parent as the ancestor of this
// test, still stops greedytl (status 143), but its error names the file it
// could not read and why, not a process that has ended or never started
// greedytl.
func TestAncestorsUnreadable(t *testing.T) {
	defer func(d string) { procDir = d }(procDir)
	me, parent := os.Getpid(), os.Getppid()
	procDir = t.TempDir()
	stat := filepath.Join(procDir, strconv.Itoa(me), "stat")
	badStat := filepath.Join(t.TempDir(), strconv.Itoa(me), "stat")
	if err := os.MkdirAll(filepath.Dir(badStat), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badStat, []byte(strconv.Itoa(me)+" (go test) S"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{procDir, "could not read " + stat + ": no such file or directory"},
		{filepath.Dir(filepath.Dir(badStat)), badStat + ": no parent process id after the command name"},
	} {
		procDir = c.dir
		code, err := watchAncestor(parent, me, func() { t.Error("stop called") })
		want := "GREEDYTL_PARENT_PID=" + strconv.Itoa(parent) + ": greedytl's parent is process " + strconv.Itoa(me) +
			", and whether process " + strconv.Itoa(parent) + " is one of its ancestors cannot be told (" + c.want + "): stopping"
		if code != 143 || err == nil || err.Error() != want {
			t.Errorf("procDir %s: status %d, error %v; want 143, %q", c.dir, code, err, want)
		}
	}
}

// TestWatchAncestorRoutes runs watchAncestor, followParent's watch of an
// ancestor, on a shell whose child sleeps (the child standing for
// greedytl, the shell for the process named), once with pidfds and once
// with pidfdOpen failing as on kernels before 5.3 (the polling route,
// every ancestorPoll): neither stops while the shell runs, and each stops
// within 3 s once the shell, killed with SIGKILL, has ended: ancestorPoll's
// second and 2 s to spare (the bound is written out, not computed from
// ancestorPoll, so that a slower poll fails it).
func TestWatchAncestorRoutes(t *testing.T) {
	defer func(f func(int, int) (int, error)) { pidfdOpen = f }(pidfdOpen)
	for _, route := range []string{"pidfd", "poll"} {
		polled := false
		if route == "poll" {
			pidfdOpen = func(int, int) (int, error) { polled = true; return -1, unix.ENOSYS }
		}
		sh, child := startPrintingPID(t, "its child's", "sleep 60 & echo $!; wait")
		stopped := make(chan struct{})
		code, err := watchAncestor(sh.Process.Pid, child, func() { close(stopped) })
		if code != 0 || err != nil {
			t.Errorf("%s: watchAncestor(the shell, its child) = %d, %v; want 0, nil", route, code, err)
		}
		if route == "poll" && !polled {
			t.Error("poll: watchAncestor did not call pidfdOpen")
		}
		select {
		case <-stopped:
			t.Errorf("%s: stopped while the shell ran", route)
		case <-time.After(300 * time.Millisecond):
		}
		sh.Process.Kill()
		sh.Wait()
		const bound = 3 * time.Second
		select {
		case <-stopped:
		case <-time.After(bound):
			t.Errorf("%s: not stopped within %v of the shell's end (ancestorPoll %v)", route, bound, ancestorPoll)
		}
		syscall.Kill(child, syscall.SIGKILL)
	}
}

// TestRootHelpParentRule checks that the root help's environment section
// gives parentEnv's rule: an ancestor may be named, not only the parent
// (it said any other process stopped greedytl at once), and unreadable
// ancestors stop it too.
func TestRootHelpParentRule(t *testing.T) {
	help := strings.Join(strings.Fields(newRootCmd(&streams{}).Long), " ")
	for _, want := range []string{"PID may be its parent", "or a further ancestor when a wrapper runs greedytl as a child",
		"a PID that is neither, or ancestors that cannot be read from /proc, stop it at once with status 143"} {
		if !strings.Contains(help, want) {
			t.Errorf("greedytl --help does not say %q", want)
		}
	}
	if strings.Contains(help, "not greedytl's parent stops it at once") {
		t.Error("greedytl --help still says a PID that is not greedytl's parent stops it at once")
	}
}
