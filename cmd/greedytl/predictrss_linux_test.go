//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
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

// TestPredictGzipFortranHoldBlocks checks that predict of a
// gzip-compressed .npy of features in Fortran order (NumPy's order of a
// transposed array, np.save of X.T.T, say) holds a block of them, not
// all: its peak resident memory (peakRSS) exceeds that of the same
// predict on 40 rows by less than half the matrix. It read such a file
// whole (and its transpose), as the stream gives its first row only at
// its end; it decompresses it into a temporary file, read in column
// strips. The scores are the same as of the file uncompressed.
func TestPredictGzipFortranHoldBlocks(t *testing.T) {
	const rows, cols = 250000, 20
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(25, 3))
	sample := func(r int) *mat.Dense {
		A := mat.NewDense(r, cols, nil)
		raw := A.RawMatrix().Data
		for k := range raw {
			raw[k] = rng.NormFloat64()
		}
		return A
	}
	labels := make([]string, 60)
	for i := range labels {
		labels[i] = strconv.Itoa(1 - 2*(i%2))
	}
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--features", writeNPY(t, dir, "X.npy", sample(60)),
		"--labels", writeText(t, dir, "y.txt", strings.Join(labels, "\n")+"\n"), "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	// A Fortran-order file: the bytes of Aᵀ in C order under a header of
	// A's shape.
	fortran := func(name string, A *mat.Dense, compress bool) string {
		r, c := A.Dims()
		var b bytes.Buffer
		if err := dataset.WriteNPY(&b, A.T()); err != nil {
			t.Fatal(err)
		}
		raw := b.Bytes()
		end := bytes.IndexByte(raw, '\n')
		head := strings.Replace(string(raw[:end]), "'fortran_order': False", "'fortran_order': True ", 1)
		head = strings.Replace(head, fmt.Sprintf("(%d, %d)", c, r), fmt.Sprintf("(%d, %d)", r, c), 1)
		copy(raw, head)
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := io.Writer(f)
		var zw *gzip.Writer
		if compress {
			zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
			w = zw
		}
		_, err = w.Write(raw)
		if zw != nil {
			err = errors.Join(err, zw.Close())
		}
		if err = errors.Join(err, f.Close()); err != nil {
			t.Fatal(err)
		}
		return path
	}
	A := sample(rows)
	big := fortran("Xbig.npy.gz", A, true)
	plain := fortran("Xbig.npy", A, false)
	small := fortran("Xsmall.npy.gz", sample(40), true)
	A = nil
	out, want := filepath.Join(dir, "scores.txt"), filepath.Join(dir, "want.txt")
	base := peakRSS(t, "predict", model, "--features", small, "--out", out)
	peak := peakRSS(t, "predict", model, "--features", big, "--out", out)
	peakRSS(t, "predict", model, "--features", plain, "--out", want)
	size := uint64(rows * cols * 8)
	if grew := peak - min(peak, base); grew > size/2 {
		t.Errorf("predict's peak resident memory grew by %d bytes (%d on 40 rows, %d on %d) for a %d-byte matrix, want at most half of it", grew, base, peak, rows, size)
	} else {
		t.Logf("peak resident memory %d bytes on 40 rows, %d on %d: grew by %d for a %d-byte matrix", base, peak, rows, grew, size)
	}
	got, err1 := os.ReadFile(out)
	wantScores, err2 := os.ReadFile(want)
	if err := errors.Join(err1, err2); err != nil || !bytes.Equal(got, wantScores) || bytes.Count(got, []byte("\n")) != rows {
		t.Errorf("scores of the compressed file: %d lines, the same as of the file uncompressed: %v (%v)", bytes.Count(got, []byte("\n")), bytes.Equal(got, wantScores), err)
	}
}
