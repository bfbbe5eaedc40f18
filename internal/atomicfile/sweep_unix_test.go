//go:build unix

package atomicfile

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSweepKeepsLiveRemovesKilled: a Write killed outright left its
// temporary file for ever (12 after 301 kills of train-sources). A later
// Write of the same file keeps the temporary file of a writer that is
// still at work in another process, and removes it once that process has
// been killed; it keeps the temporary files of other hosts, and names it
// did not make.
func TestSweepKeepsLiveRemovesKilled(t *testing.T) {
	if p := os.Getenv("ATOMICFILE_WRITE"); p != "" {
		Write(p, func(w io.Writer) error {
			io.WriteString(w, "child")
			os.Stdout.WriteString("writing\n")
			time.Sleep(time.Minute)
			return nil
		})
		os.Exit(0)
	}
	if thisHost() == "" {
		t.Skip("no usable host name")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	// Files no sweep of out.txt may remove, none of them locked: another
	// host's, one without host and pid, another destination's.
	keep := []string{".out.txt.tmp-otherhost.invalid-12-34", ".out.txt.tmp-1234", ".other.txt.tmp-" + thisHost() + "-12-34"}
	for _, name := range keep {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepKeepsLiveRemovesKilled$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_WRITE="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "writing\n" {
		t.Fatalf("helper: %q %v", line, err)
	}
	childs, _ := filepath.Glob(filepath.Join(dir, ".out.txt.tmp-"+thisHost()+"-"+strconv.Itoa(cmd.Process.Pid)+"-*"))
	if len(childs) != 1 {
		t.Fatalf("the writing helper's temporary files: %v, want one naming this host and its pid", childs)
	}
	child := childs[0]
	write := func(s string) {
		t.Helper()
		temps.Lock()
		delete(unswept, dir) // a later process, which reads dir again
		temps.Unlock()
		if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, s); return err }); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != s {
			t.Fatalf("%s holds %q, want %q", path, b, s)
		}
	}
	write("while the helper writes")
	if _, err := os.Stat(child); err != nil {
		t.Fatalf("a Write removed the temporary file of a writer at work: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	write("after the helper was killed")
	if _, err := os.Stat(child); err == nil {
		t.Errorf("the temporary file %s of a killed writer was kept", child)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := append([]string{"out.txt"}, keep...); len(left) != len(want) {
		t.Errorf("left %q, want %q", left, want)
	}
	for _, name := range keep {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("a sweep of out.txt removed %s: %v", name, err)
		}
	}
}

// TestClaimLosesToASweep: a sweep that locks a temporary file between its
// creation and its writer's lock removes it, and the writer, finding it
// locked or gone, does not write it (createTemp makes another); once the
// writer holds it, a sweep keeps it.
func TestClaimLosesToASweep(t *testing.T) {
	dir := t.TempDir()
	// The sweep comes first and removes the file: claim finds it gone.
	f, err := os.CreateTemp(dir, tempPattern("a"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !removeStale(f.Name()) {
		t.Fatal("an unlocked temporary file was kept")
	}
	if claim(f) {
		t.Error("claim took a file that a sweep removed")
	}
	// The sweep holds the lock when the writer tries it.
	g, err := os.CreateTemp(dir, tempPattern("b"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sweeper, err := os.OpenFile(g.Name(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !claim(sweeper) {
		t.Fatal("cannot lock a new file")
	}
	if claim(g) {
		t.Error("claim took a file that a sweep holds")
	}
	sweeper.Close()
	// The writer holds the lock: a sweep keeps the file.
	h, err := os.CreateTemp(dir, tempPattern("c"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if !claim(h) {
		t.Fatal("claim refused a new file")
	}
	if removeStale(h.Name()) {
		t.Error("a sweep removed a temporary file its writer holds")
	}
	if !strings.HasPrefix(filepath.Base(h.Name()), ".c.tmp-"+hostTag()+"-") && thisHost() != "" {
		t.Errorf("temporary file %s does not name this host and pid", h.Name())
	}
}
