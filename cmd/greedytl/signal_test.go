//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/internal/datasettest"
)

// terminate starts bin with args, waits until ready reports true (polled
// every 10 ms), sends it SIGTERM, checks that it exits with status 143 and
// says each of want on stderr, and returns its stderr.
func terminate(t *testing.T, bin string, ready func() bool, want []string, args ...string) string {
	t.Helper()
	code, stderr := stopWhen(t, bin, syscall.SIGTERM, ready, args...)
	if code != 143 {
		t.Fatalf("exit %d after SIGTERM, want 143\n%s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	t.Logf("stopped:\n%s", stderr)
	return stderr
}

// stopWhen starts bin with args, waits until ready reports true (polled
// every 10 ms), sends it sig, and returns its exit status and stderr. It
// fails the test when the process ends before ready, or does not end
// within a minute of the signal.
func stopWhen(t *testing.T, bin string, sig syscall.Signal, ready func() bool, args ...string) (int, string) {
	t.Helper()
	code, stderr, _ := signalWhen(t, exec.Command(bin, args...), ready, sig)
	return code, stderr
}

// stalledFIFO makes a FIFO at path and returns a ready function for
// signalWhen: it reports false until a command has opened the FIFO to read
// (opening it for writing fails with ENXIO before), then writes part and
// reports true. The writer stays open until the test ends, so that the
// input never ends: the command waits on it.
func stalledFIFO(t *testing.T, path, part string) (ready func() bool) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var w *os.File
	t.Cleanup(func() {
		if w != nil {
			w.Close()
		}
	})
	return func() bool {
		var err error
		if w, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); errors.Is(err, syscall.ENXIO) {
			return false
		} else if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, part); err != nil {
			t.Fatal(err)
		}
		return true
	}
}

// signalWhen starts cmd (which has at least one argument, naming it in
// messages), waits until ready reports true (polled every 10 ms), sends it
// each of sigs, in order, at once, and returns its exit status, its stderr
// and the time from the first signal to its end. It fails the test when
// the process ends before ready, or does not end within a minute of the
// signals.
//
// Distinct signals need no pause between them (there was a fixed 300 ms):
// none is lost, and the tests' outcome does not depend on the order in
// which the process takes them (an inherited-ignored SIGINT or SIGHUP
// followed by SIGTERM: had the first stopped the process, it would exit
// 130 or 129 whichever came first). A signal equal to the one before it
// merges with it while that one is still pending; for a second signal
// that must arrive, use signalUntilEnd.
func signalWhen(t *testing.T, cmd *exec.Cmd, ready func() bool, sigs ...syscall.Signal) (code int, stderr string, took time.Duration) {
	t.Helper()
	return signalProcess(t, cmd, ready, sigs, 0)
}

// resendEvery is how often signalUntilEnd sends its signal again.
const resendEvery = 50 * time.Millisecond

// signalUntilEnd is signalWhen for a process that a first sig cannot end
// (it ignores its context): it sends sig, then again every resendEvery
// until the process ends, so that a second one arrives. A second signal
// sent a fixed 50 ms after the first merged with it whenever the first was
// still pending, in the kernel or in the Go runtime's queue of the
// process, which a loaded machine makes likely; the process then never
// ended. (Not for a process the first signal may end: a signal that comes
// once it has released its signals ends it by the default action.)
func signalUntilEnd(t *testing.T, cmd *exec.Cmd, ready func() bool, sig syscall.Signal) (code int, stderr string, took time.Duration) {
	t.Helper()
	return signalProcess(t, cmd, ready, []syscall.Signal{sig}, sig)
}

// signalProcess is signalWhen, and signalUntilEnd when again is not 0.
func signalProcess(t *testing.T, cmd *exec.Cmd, ready func() bool, sigs []syscall.Signal, again syscall.Signal) (code int, stderr string, took time.Duration) {
	t.Helper()
	name := cmd.Args[1]
	var buf bytes.Buffer
	cmd.Stderr = &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for !ready() {
		select {
		case err := <-exited:
			t.Fatalf("%s ended (%v) before it could be stopped: make its work larger\n%s", name, err, buf.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	sent := time.Now()
	for _, sig := range sigs {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	var resend <-chan time.Time
	if again != 0 {
		tick := time.NewTicker(resendEvery)
		defer tick.Stop()
		resend = tick.C
	}
	deadline := time.After(time.Minute)
	for {
		select {
		case err := <-exited:
			took = time.Since(sent)
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode(), buf.String(), took
			}
			if err != nil {
				t.Fatal(err)
			}
			return 0, buf.String(), took
		case <-resend:
			// An error here is the process's end, which exited reports.
			_ = cmd.Process.Signal(again)
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("%s did not stop within a minute of %v\n%s", name, sigs, buf.String())
		}
	}
}

// countLines returns the number of newline-terminated lines of path (0 if
// it does not exist) and whether the file ends with a partial line.
func countLines(t *testing.T, path string) (n int, partial bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n")), len(b) > 0 && b[len(b)-1] != '\n'
}

// TestExperimentStopsOnSIGTERM sends SIGTERM, as a scheduler preempting
// the job does, to a real experiment process once a few cells are done:
// it must exit 143 saying so, keep every finished cell whole, and a rerun
// must resume from them and complete the grid.
func TestExperimentStopsOnSIGTERM(t *testing.T) {
	bin := buildGreedytl(t)
	data := experimentFolder(t)
	work := t.TempDir()
	src := filepath.Join(work, "sources")
	if code, out := runBinary(t, bin, nil, "train-sources", "--data", data, "--negative-classes", "n0,n1", "--out", src, "--quiet"); code != 0 {
		t.Fatalf("train-sources: exit %d\n%s", code, out)
	}
	run := filepath.Join(work, "run")
	results := filepath.Join(run, "results.jsonl")
	// 6 targets × 2 × 3 splits × 2 noise levels × 4 methods = 288 cells;
	// with -short one split, 96 cells.
	splits, total := 3, 288
	if testing.Short() {
		splits, total = 1, 96
	}
	args := []string{"experiment", "--data", data, "--sources", src, "--positives", "2,5", "--splits", strconv.Itoa(splits),
		"--noise", "0,200", "--methods", "greedytl,l1-logistic,elastic-net,no-transfer", "--workers", "1", "--out", run}

	stderr := terminate(t, bin, func() bool { n, _ := countLines(t, results); return n >= 3 },
		[]string{"stopped by SIGTERM", "rerun the same command to resume"}, args...)
	kept, partial := countLines(t, results)
	if partial || kept < 3 || kept >= total {
		t.Fatalf("after SIGTERM: %d whole cells (partial last line: %v), want at least 3 of %d and no partial line", kept, partial, total)
	}
	before := resultLines(t, results)
	m := regexp.MustCompile(`stopped after (\d+) new cells, kept`).FindStringSubmatch(stderr)
	if m == nil || m[1] != strconv.Itoa(kept) {
		t.Errorf("stderr reports %v new cells, the file holds %d:\n%s", m, kept, stderr)
	}

	code, out := runBinary(t, bin, nil, args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, out)
	}
	if want := "resuming: " + strconv.Itoa(kept) + " of " + strconv.Itoa(total) + " cells already done"; !strings.Contains(out, want) {
		t.Errorf("rerun does not say %q:\n%s", want, out)
	}
	after := resultLines(t, results)
	if len(after) != total {
		t.Errorf("after the rerun: %d cells, want %d", len(after), total)
	}
	for k, rec := range before {
		if after[k] != rec {
			t.Errorf("cell %v changed on resume:\n%s\n%s", k, rec, after[k])
		}
	}
}

// TestTrainSourcesStopsOnSIGTERM stops a real train-sources process with
// SIGTERM once a source is written: exit 143 saying so, the finished
// sources kept, and a rerun reuses them and trains only the rest.
func TestTrainSourcesStopsOnSIGTERM(t *testing.T) {
	bin := buildGreedytl(t)
	data := datasettest.WriteFolder(t, datasettest.Blobs(9, 40, 60, 40, 1)).Dir
	out := filepath.Join(t.TempDir(), "sources")
	args := []string{"train-sources", "--data", data, "--negative-fraction", "0.25", "--workers", "1", "--out", out}
	models := func() int { m, _ := filepath.Glob(filepath.Join(out, "models", "*.model")); return len(m) }

	terminate(t, bin, func() bool { return models() >= 1 }, []string{"stopped by SIGTERM", "the finished sources are kept"}, args...)
	kept := models()
	const sources = 30 // 40 classes, 10 held out as negatives
	if kept < 1 || kept >= sources {
		t.Fatalf("after SIGTERM: %d model files, want at least 1 of %d", kept, sources)
	}
	code, rerun := runBinary(t, bin, nil, args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, rerun)
	}
	if want := "(" + strconv.Itoa(sources-kept) + " trained, " + strconv.Itoa(kept) + " reused"; !strings.Contains(rerun, want) {
		t.Errorf("rerun does not say %q:\n%s", want, rerun)
	}
}

// TestSignalContext sends SIGINT to this process: the commands' context
// is cancelled with a cause that names the signal, matches
// context.Canceled, and maps to exit status 130.
func TestSignalContext(t *testing.T) {
	if signal.Ignored(syscall.SIGINT) {
		t.Skip("this test process inherited SIGINT ignored (started in the background by a non-interactive shell), which signalContext keeps: TestInheritedIgnoredSIGINT covers that case")
	}
	ctx, stop := signalContext(io.Discard)
	defer stop()
	heedSignals(ctx)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	var sig stoppedBy
	cause := context.Cause(ctx)
	if !errors.As(cause, &sig) || sig.sig != syscall.SIGINT || !errors.Is(cause, context.Canceled) || cause.Error() != "stopped by SIGINT" {
		t.Fatalf("cause %v", cause)
	}
	if code := exitSignal + int(sig.sig); code != 130 {
		t.Errorf("exit status %d for SIGINT, want 130", code)
	}
}

// TestExperimentStopsOnSIGTERMWhileTrainingSources stops an experiment
// that trains its own sources while it does: it says where the finished
// sources are, and the rerun reuses them.
func TestExperimentStopsOnSIGTERMWhileTrainingSources(t *testing.T) {
	bin := buildGreedytl(t)
	data := datasettest.WriteFolder(t, datasettest.Blobs(9, 40, 60, 40, 1)).Dir
	run := filepath.Join(t.TempDir(), "run")
	models := func() int { m, _ := filepath.Glob(filepath.Join(run, "sources", "models", "*.model")); return len(m) }
	args := []string{"experiment", "--data", data, "--negative-fraction", "0.25", "--positives", "2", "--splits", "1",
		"--methods", "no-transfer", "--workers", "1", "--out", run}
	terminate(t, bin, func() bool { return models() >= 1 },
		[]string{"stopped while training the sources; the finished ones are kept in " + filepath.Join(run, "sources"), "stopped by SIGTERM"}, args...)
	// The kept model files, with their modification times: a rerun that
	// reuses them does not rewrite them.
	kept := map[string]time.Time{}
	paths, _ := filepath.Glob(filepath.Join(run, "sources", "models", "*.model"))
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		kept[p] = fi.ModTime()
	}
	code, out := runBinary(t, bin, nil, args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, out)
	}
	if len(kept) < 1 || models() != 30 {
		t.Errorf("%d sources kept, %d after the rerun, want 30", len(kept), models())
	}
	for p, mt := range kept {
		if fi, err := os.Stat(p); err != nil || !fi.ModTime().Equal(mt) {
			t.Errorf("%s was rewritten by the rerun (%v)", p, err)
		}
	}
}

// TestInheritedIgnoredSIGINT starts train-sources with SIGINT ignored, as
// a shell script's background commands are: SIGINT must leave it running
// (Ctrl-C on the script spares its background jobs), and SIGTERM, sent
// after it, stop it (exit 143, saying so). Before, signal.Notify turned
// the inherited "ignore" back on and SIGINT stopped it.
func TestInheritedIgnoredSIGINT(t *testing.T) {
	bin := buildGreedytl(t)
	data := manySources(t)
	out := filepath.Join(t.TempDir(), "sources")
	models := func() int { m, _ := filepath.Glob(filepath.Join(out, "models", "*.model")); return len(m) }
	// sh ignores SIGINT, then becomes greedytl (same process), which
	// inherits the ignored disposition.
	cmd := exec.Command("sh", "-c", `trap "" INT; exec "$0" "$@"`, bin, "train-sources", "--data", data,
		"--negative-fraction", "0.25", "--workers", "1", "--out", out)
	code, stderr, _ := signalWhen(t, cmd, func() bool { return models() >= 1 }, syscall.SIGINT, syscall.SIGTERM)
	if code != 143 || !strings.Contains(stderr, "stopped by SIGTERM") || strings.Contains(stderr, "stopped by SIGINT") {
		t.Fatalf("exit %d, want 143 and \"stopped by SIGTERM\" (SIGINT ignored):\n%s", code, stderr)
	}
}

// TestFirstSignalEndsCommandsWithNothingToKeep stops predict and inspect,
// reading a FIFO that is open but not finished, with one SIGTERM: they
// do not look at their context while they read (predict heeds it only
// once it scores the rows), so the signal must end them at once with
// status 143, saying so, and leave no output. They used to catch the
// signal and go on, waiting for the rest of the input (once it came,
// predict wrote its scores and exited 0, as if no signal had come: Ctrl-C
// was ignored until a long predict was done).
func TestFirstSignalEndsCommandsWithNothingToKeep(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	rows := "1,0\n0,1\n2,0\n0,2\n3,1\n1,3\n"
	X := writeText(t, dir, "X.csv", rows)
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	model := filepath.Join(dir, "m.json")
	if code, out := runBinary(t, bin, nil, "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, out)
	}
	body, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args func(fifo, out string) []string
		part string // written into the FIFO before the signal
	}{
		{"predict", func(fifo, out string) []string { return []string{"predict", model, "--features", fifo, "--out", out} }, rows},
		{"inspect", func(fifo, _ string) []string { return []string{"inspect", fifo} }, string(body[:len(body)/2])},
		// Stoppable commands while they read their inputs (issue: fit and
		// train went on reading, the signal taking effect only once the
		// input was read).
		{"fit", func(fifo, out string) []string {
			return []string{"fit", "--method", "no-transfer", "--features", fifo, "--labels", y, "--out", out}
		}, rows},
		{"train", func(fifo, out string) []string { return []string{"train", "--data", fifo, "--out", out} }, "1 1:1\n-1 2:1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			fifo, out := filepath.Join(work, "in"), filepath.Join(work, "out.txt")
			ready := stalledFIFO(t, fifo, tc.part)
			code, stderr, _ := signalWhen(t, exec.Command(bin, tc.args(fifo, out)...), ready, syscall.SIGTERM)
			if code != 143 || !strings.Contains(stderr, "stopped by SIGTERM") {
				t.Errorf("exit %d, want 143 and \"stopped by SIGTERM\":\n%s", code, stderr)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 1 {
				t.Errorf("left %v beside the FIFO", entries)
			}
		})
	}
}

// TestSignalAsTheWorkFinishes sends SIGTERM to fit while it writes its
// model to standard output, a pipe not read until after the signal: the
// write finishes, the model is whole, and the status is 143, saying so —
// it was 0, as if no signal had come.
func TestSignalAsTheWorkFinishes(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	// 6 examples of 20,000 features: the model's weights (hundreds of KB)
	// overflow the pipe's buffer, so that fit blocks writing them.
	const d = 20000
	var b strings.Builder
	for i := range 6 {
		for j := range d {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa((i*7 + j*3) % 5))
		}
		b.WriteByte('\n')
	}
	X := writeText(t, dir, "X.csv", b.String())
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(bin, "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", "-")
	cmd.Stdout = w
	model := make(chan []byte, 1)
	ready := func() bool {
		w.Close() // the child's copy stays open
		first := make([]byte, 1)
		if _, err := io.ReadFull(r, first); err != nil {
			t.Fatalf("reading the model: %v", err)
		}
		// The rest once the signal has come (sent as ready returns).
		go func() {
			time.Sleep(time.Second)
			rest, _ := io.ReadAll(r)
			model <- append(first, rest...)
		}()
		return true
	}
	code, stderr, _ := signalWhen(t, cmd, ready, syscall.SIGTERM)
	if code != 143 || !strings.Contains(stderr, "stopped by SIGTERM as the work finished") {
		t.Errorf("exit %d, want 143 and \"stopped by SIGTERM as the work finished\":\n%s", code, stderr)
	}
	got := <-model
	if len(got) < 1<<16 {
		t.Fatalf("the model is %d bytes, not more than the pipe holds: the test does not block fit", len(got))
	}
	if !json.Valid(got) {
		t.Errorf("the model written (%d bytes) is not whole JSON: %.80q", len(got), got)
	}
}

// manySources writes a dataset folder of 120 classes of 20 examples in 120
// dimensions, from which train-sources --negative-fraction 0.25 trains 90
// sources, tens of milliseconds each, for the tests that stop it once its
// first model is written and expect it to be still at work when their
// signals come: seconds of work are left (the 30 sources of 40 classes
// left about 1.3 s, whatever a loaded machine delays the test's poll by),
// and the first model comes as soon.
func manySources(t *testing.T) string {
	t.Helper()
	return datasettest.WriteFolder(t, datasettest.Blobs(9, 120, 20, 120, 1)).Dir
}

// TestSIGHUP stops train-sources with SIGHUP, as a terminal closed under
// it sends: exit 129, saying so (it was not caught, and its default action
// killed the process, leaving its temporary files). Under nohup, which
// starts it with SIGHUP ignored, SIGHUP must leave it running, and
// SIGTERM, sent after it, stop it.
func TestSIGHUP(t *testing.T) {
	bin := buildGreedytl(t)
	data := manySources(t)
	for _, tc := range []struct {
		name   string
		prefix []string // the command line before greedytl's
		sigs   []syscall.Signal
		code   int
		said   string
	}{
		{"terminal", nil, []syscall.Signal{syscall.SIGHUP}, 129, "stopped by SIGHUP"},
		{"nohup", []string{"nohup"}, []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM}, 143, "stopped by SIGTERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.prefix) > 0 {
				if _, err := exec.LookPath(tc.prefix[0]); err != nil {
					t.Skip(err)
				}
			}
			out := filepath.Join(t.TempDir(), "sources")
			models := func() int { m, _ := filepath.Glob(filepath.Join(out, "models", "*.model")); return len(m) }
			args := append(append(slices.Clone(tc.prefix), bin), "train-sources", "--data", data,
				"--negative-fraction", "0.25", "--workers", "1", "--out", out)
			cmd := exec.Command(args[0], args[1:]...)
			code, stderr, _ := signalWhen(t, cmd, func() bool { return models() >= 1 }, tc.sigs...)
			if code != tc.code || !strings.Contains(stderr, tc.said) || (tc.said != "stopped by SIGHUP" && strings.Contains(stderr, "stopped by SIGHUP")) {
				t.Fatalf("exit %d, want %d and %q:\n%s", code, tc.code, tc.said, stderr)
			}
			if tmp, _ := filepath.Glob(filepath.Join(out, "models", ".*")); len(tmp) > 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		})
	}
}

// TestHelpGivesEveryStopStatus: a help text that gives the exit status of a
// command stopped by a signal gives it for every signal that stops a
// command (stopSignals): experiment's help gave 130 and 143 only, though
// SIGHUP stops an experiment with 129 as it stops every command.
func TestHelpGivesEveryStopStatus(t *testing.T) {
	var statuses []string
	for _, s := range stopSignals {
		statuses = append(statuses, strconv.Itoa(128+int(s.(syscall.Signal))))
	}
	root := newRootCmd(&streams{})
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		help := strings.Join(strings.Fields(c.Long), " ")
		var gives, lacks []string
		for _, st := range statuses {
			if regexp.MustCompile(`\b` + st + `\b`).MatchString(help) {
				gives = append(gives, st)
			} else {
				lacks = append(lacks, st)
			}
		}
		if len(gives) > 0 && len(lacks) > 0 {
			t.Errorf("greedytl help %s gives the stop status %v but not %v", c.Name(), gives, lacks)
		}
	}
}

// TestTrainCrossValidationInterruptMessage sends SIGINT to train -v 5 and
// train -C while they cross-validate (random labels at a large C and a
// tight -e, a second or more of work), once they have read the data
// (readAll): the message says what was interrupted, as plain training's
// does ("linear: training: fit interrupted"), where it read "stopped by
// SIGINT: context canceled" (the folds' bare ctx.Err()). A signal sent
// after a fixed 300 ms could come before the data were read (the signal
// not yet heeded) on a loaded machine. The line ends there, without the
// context's "context canceled" (printedError).
func TestTrainCrossValidationInterruptMessage(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	var b strings.Builder
	next := uniform(1)
	for range 3000 {
		if next() < 0 {
			b.WriteString("-1")
		} else {
			b.WriteString("1")
		}
		for j := range 30 {
			b.WriteString(" " + strconv.Itoa(j+1) + ":" + strconv.FormatFloat(next(), 'g', 5, 64))
		}
		b.WriteString("\n")
	}
	data := writeText(t, dir, "d.txt", b.String())
	for _, args := range [][]string{
		{"train", "-v", "5", "-c", "1e4", "-e", "1e-9", "--data", data},
		{"train", "-C", "-e", "1e-9", "--data", data, "--out", filepath.Join(dir, "m")},
	} {
		cmd := exec.Command(bin, args...)
		code, stderr, _ := signalWhen(t, cmd, readAll(cmd, data, 2), syscall.SIGINT)
		if want := "greedytl: stopped by SIGINT: linear: cross-validation: fit interrupted\n"; code != 130 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, want 130 and %q:\n%s", args, code, want, stderr)
		}
	}
}

// uniform returns a small LCG from seed: numbers uniform in [-1, 1), the
// same for the same seed, for data of a fit that takes a while.
func uniform(seed uint64) func() float64 {
	return func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11)/(1<<52) - 1
	}
}

// readAll returns signalWhen's ready for cmd, started: true once the
// process has read at least times as many bytes as the file at path holds
// (rchar of /proc/PID/io) and then, reading nothing more, used 100 ms of
// CPU time (utime + stime of /proc/PID/stat, 10 ticks of Linux's USER_HZ of
// 100), so that it has read its data and heeds its stop signals
// (heedSignals) and is at its work. times is how often the command reads
// the file: train reads it twice (countSVMLight counts its rows, then the
// decode reads it again), so one size is met halfway through the second
// read. The quiet window was 100 ms of wall-clock time, which a loaded
// machine's pause between the last read and heedSignals outlasted: the
// signal then ended fit at once ("stopped by SIGINT" and nothing more:
// TestFitJSONStoppedMessage failed so beside other helpers' test runs, at
// load 20-30); CPU time passes only while the process runs. Where /proc
// cannot be read (not Linux), it is true 300 ms after its first call.
func readAll(cmd *exec.Cmd, path string, times int64) func() bool {
	var size int64
	if fi, err := os.Stat(path); err == nil {
		size = fi.Size()
	}
	var first time.Time
	last, cpuSince := int64(-1), int64(0)
	return func() bool {
		if first.IsZero() {
			first = time.Now()
		}
		proc := "/proc/" + strconv.Itoa(cmd.Process.Pid)
		io, err := os.ReadFile(proc + "/io")
		stat, serr := os.ReadFile(proc + "/stat")
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if err != nil || serr != nil || len(f) < 13 {
			return time.Since(first) > 300*time.Millisecond
		}
		// utime and stime, the 14th and 15th fields, the 12th and 13th
		// after the command name.
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		cpu := utime + stime
		for _, line := range strings.Split(string(io), "\n") {
			if v, ok := strings.CutPrefix(line, "rchar: "); ok {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil && n != last {
					last, cpuSince = n, cpu
				}
			}
		}
		return last >= times*size && cpu-cpuSince >= 10
	}
}
