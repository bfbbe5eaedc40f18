//go:build linux

package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// peakRSS runs the built command (buildGreedytl) with args, a process of
// its own, and returns its peak resident memory: predict's own memory,
// which no work of other tests adds to, as it does to the live heap
// sampled in the test process (liveHeapGrowth). A failed run fails the
// test. The command is started by this test binary run anew
// (TestPeakRSSHelper), which reports the command's ru_maxrss: a process
// started by the test process itself would report the test process's
// resident memory when it is larger (os/exec starts it sharing the
// parent's memory, whose peak the kernel carries over to it at exec).
// The command runs with GOGC=25: a collector's headroom of a quarter of
// the live heap, not gc.go's floor of 16 MB of garbage, so that the peak
// follows the data predict holds.
func peakRSS(t *testing.T, args ...string) uint64 {
	t.Helper()
	helper := exec.Command(os.Args[0], append([]string{"-test.run=^TestPeakRSSHelper$", "--", buildGreedytl(t)}, args...)...)
	helper.Env = append(os.Environ(), "GREEDYTL_PEAK_RSS=1", "GOGC=25")
	out, err := helper.CombinedOutput()
	if err != nil {
		t.Fatalf("greedytl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	_, after, ok := strings.Cut(string(out), "maxrss ")
	if !ok {
		t.Fatalf("greedytl %s: no maxrss reported:\n%s", strings.Join(args, " "), out)
	}
	kb, err := strconv.ParseUint(strings.Fields(after)[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return kb * 1024 // Linux's ru_maxrss is in kilobytes
}

// TestPeakRSSHelper is peakRSS's helper, which does nothing unless run by
// it (GREEDYTL_PEAK_RSS=1): it runs the command its arguments after "--"
// name and prints "maxrss" and its peak resident memory in kilobytes, or
// fails with its output.
func TestPeakRSSHelper(t *testing.T) {
	parts := flag.Args()
	if os.Getenv("GREEDYTL_PEAK_RSS") != "1" || len(parts) == 0 {
		return
	}
	cmd := exec.Command(parts[0], parts[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fmt.Printf("maxrss %d\n", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}

// TestPredictSourcesHoldBlocks checks that predict --sources of a .npy of
// features holds a block of them and of their source scores, not all: its
// peak resident memory exceeds that of the same predict on 40 rows by
// less than half the features and scores (reading the features whole
// held them and the scores of every row, computed at once). The memory is
// the predict process's own (peakRSS), with the default blocks.
func TestPredictSourcesHoldBlocks(t *testing.T) {
	if !sourcesRowByRow() {
		t.Skip("not gonum's BLAS: predict reads --features with --sources whole")
	}
	st := newSourcesToy(t)
	model := filepath.Join(st.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", st.X, "--sources", st.A, "--labels", st.y, "--positive", "cat", "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	const rows, d, n = 500000, 8, 6 // newSourcesToy's features and sources
	rng := rand.New(rand.NewPCG(25, 2))
	X := mat.NewDense(rows, d, nil)
	raw := X.RawMatrix().Data
	for k := range raw {
		raw[k] = 1.5 * rng.NormFloat64()
	}
	big := writeNPY(t, st.dir, "Xbig.npy", X)
	X = nil
	out := filepath.Join(st.dir, "scores.txt")
	base := peakRSS(t, "predict", model, "--features", st.Xt, "--sources", st.A, "--out", out)
	peak := peakRSS(t, "predict", model, "--features", big, "--sources", st.A, "--out", out)
	size := uint64(rows * (d + n) * 8)
	if grew := peak - min(peak, base); grew > size/2 {
		t.Errorf("predict's peak resident memory grew by %d bytes (%d on 40 rows, %d on %d) for %d bytes of features and source scores, want at most half of it", grew, base, peak, rows, size)
	} else {
		t.Logf("peak resident memory %d bytes on 40 rows, %d on %d: grew by %d for %d bytes of features and source scores", base, peak, rows, grew, size)
	}
}
