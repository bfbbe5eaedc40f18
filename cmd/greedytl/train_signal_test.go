//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/atomicfile"
)

// TestTrainStopsWhileWritingModel is issue 18's case: a model of 5·10⁷
// feature lines (accepted with --max-features) is being written when
// SIGTERM arrives, once or twice in a row. The writer must stop within
// seconds (it used to write the whole file, then exit 0), the exit status
// be 143, and neither the model nor a temporary file be left — also when
// the second signal ends the process at once (it used to leave the
// temporary file).
func TestTrainStopsWhileWritingModel(t *testing.T) {
	if testing.Short() {
		t.Skip("writes up to 150 MB: skipped with -short")
	}
	bin := buildGreedytl(t)
	const idx = 50000000
	for _, signals := range []int{1, 2} {
		t.Run(strconv.Itoa(signals)+" signals", func(t *testing.T) {
			dir := t.TempDir()
			data := writeText(t, dir, "f.svm", hugeIndexData(idx))
			out := filepath.Join(dir, "m.model")
			// Signal once the temporary model file holds 1 MB.
			writing := func() bool {
				tmps, _ := filepath.Glob(filepath.Join(dir, ".m.model.tmp-*"))
				for _, p := range tmps {
					if fi, err := os.Stat(p); err == nil && fi.Size() > 1<<20 {
						return true
					}
				}
				return false
			}
			sigs := slices.Repeat([]syscall.Signal{syscall.SIGTERM}, signals)
			code, stderr, took := signalWhen(t, exec.Command(bin, "train", "--max-features", strconv.Itoa(idx), "--data", data, "--out", out), writing, sigs...)
			if code != 143 {
				t.Errorf("exit %d, want 143\n%s", code, stderr)
			}
			if took > 10*time.Second {
				t.Errorf("stopped %v after SIGTERM, want within seconds", took)
			}
			if signals == 1 && !strings.Contains(stderr, "stopped by SIGTERM") {
				t.Errorf("stderr does not say it was stopped:\n%s", stderr)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "f.svm" {
					t.Errorf("left %s", e.Name())
				}
			}
			t.Logf("stopped in %v:\n%s", took.Round(time.Millisecond), stderr)
		})
	}
}

// TestSecondSignalRemovesTemporaryFiles runs secondSignalHelper in a child
// process: a command whose output writer does not heed its context (as
// the liblinear model writer did not) is stopped by two SIGTERMs. The
// second must end it with status 143 and no temporary file left beside the
// output (it used to take the default action, leaving the file).
func TestSecondSignalRemovesTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalHelper$")
	cmd.Env = append(os.Environ(), "GREEDYTL_SECOND_SIGNAL_DIR="+dir)
	writing := func() bool {
		tmps, _ := filepath.Glob(filepath.Join(dir, ".out.tmp-*"))
		return len(tmps) == 1
	}
	code, stderr, _ := signalUntilEnd(t, cmd, writing, syscall.SIGTERM)
	if code != 143 {
		t.Errorf("exit %d, want status 143\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

// TestSecondSignalHelper is the child of TestSecondSignalRemovesTemporaryFiles
// (it does nothing in an ordinary run): it writes dir/out atomically with a
// writer that blocks, ignoring the stop signals' context.
func TestSecondSignalHelper(t *testing.T) {
	dir := os.Getenv("GREEDYTL_SECOND_SIGNAL_DIR")
	if dir == "" {
		t.Skip("run by TestSecondSignalRemovesTemporaryFiles")
	}
	ctx, stop := signalContext(io.Discard)
	defer stop()
	heedSignals(ctx)
	_ = atomicfile.Write(filepath.Join(dir, "out"), func(w io.Writer) error {
		if _, err := io.WriteString(w, "partial"); err != nil {
			return err
		}
		select {} // a writer that never checks its context
	})
}
