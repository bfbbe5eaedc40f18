//go:build linux

package main

import (
	"bufio"
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
// its own, and returns its peak resident memory, its exit status and its
// output (standard output and error): predict's own memory, which no work
// of other tests adds to, as it did to the live heap sampled in the test
// process, which the work of earlier tests still winding down grew by
// 7 MB (CI). The command is started by this test binary run anew
// (TestPeakRSSHelper), which reports the command's ru_maxrss: a process
// started by the test process itself would report the test process's
// resident memory when it is larger (os/exec starts it sharing the
// parent's memory, whose peak the kernel carries over to it at exec).
// The command runs with GOGC=25: a collector's headroom of a quarter of
// the live heap, not gc.go's floor of 16 MB of garbage, so that the peak
// follows the data predict holds.
func peakRSS(t *testing.T, args ...string) (rss uint64, code int, output string) {
	t.Helper()
	return peakRSSIn(t, "", args...)
}

// peakRSSIn is peakRSS of the command with the file stdin (none: "") piped
// to its standard input.
func peakRSSIn(t *testing.T, stdin string, args ...string) (rss uint64, code int, output string) {
	t.Helper()
	helper := exec.Command(os.Args[0], append([]string{"-test.run=^TestPeakRSSHelper$", "--", buildGreedytl(t)}, args...)...)
	helper.Env = append(os.Environ(), "GREEDYTL_PEAK_RSS=1", "GOGC=25", "GREEDYTL_PEAK_RSS_STDIN="+stdin)
	out, err := helper.CombinedOutput()
	k := strings.LastIndex(string(out), rssMarker)
	if err != nil || k < 0 {
		t.Fatalf("greedytl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var kb uint64
	if _, err := fmt.Sscanf(string(out[k+len(rssMarker):]), "%d %d", &code, &kb); err != nil {
		t.Fatalf("greedytl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return kb * 1024, code, string(out[:k]) // Linux's ru_maxrss is in kilobytes
}

// rssMarker starts the line on which TestPeakRSSHelper reports the exit
// status and the peak resident memory of the command it ran.
const rssMarker = "\ngreedytl-peak-rss "

// TestPeakRSSHelper is peakRSS's helper, which does nothing unless run by
// it (GREEDYTL_PEAK_RSS=1): it runs the command its arguments after "--"
// name, prints its output and then rssMarker, its exit status and its
// peak resident memory in kilobytes. GREEDYTL_PEAK_RSS_STDIN names a file
// it copies to the command's standard input through a pipe.
func TestPeakRSSHelper(t *testing.T) {
	parts := flag.Args()
	if os.Getenv("GREEDYTL_PEAK_RSS") != "1" || len(parts) == 0 {
		return
	}
	cmd := exec.Command(parts[0], parts[1:]...)
	if in := os.Getenv("GREEDYTL_PEAK_RSS_STDIN"); in != "" {
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = struct{ io.Reader }{f} // not an *os.File: through a pipe
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	fmt.Printf("%s%s%d %d\n", out, rssMarker, cmd.ProcessState.ExitCode(), cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}

// peakGrowth returns by how much the peak resident memory of predict
// with args (peakRSS) exceeds that of the same predict with small: each
// of args equal to a key of small replaced by its value (a file of a few
// rows); it fails the test when either run fails.
func peakGrowth(t *testing.T, small map[string]string, args ...string) (grew, base, peak uint64) {
	t.Helper()
	run := func(args []string) uint64 {
		rss, code, out := peakRSS(t, args...)
		if code != 0 {
			t.Fatalf("greedytl %s: exit %d: %s", strings.Join(args, " "), code, out)
		}
		return rss
	}
	smallArgs := make([]string, len(args))
	for i, a := range args {
		smallArgs[i] = a
		if v, ok := small[a]; ok {
			smallArgs[i] = v
		}
	}
	base, peak = run(smallArgs), run(args)
	return peak - min(peak, base), base, peak
}

// TestPredictSourcesHoldBlocks checks that predict --sources of a .npy of
// features holds a block of them and of their source scores, not all: its
// peak resident memory exceeds that of the same predict on 40 rows by
// less than half the features and scores (reading the features whole
// held them and the scores of every row, computed at once). The memory is
// the predict process's own (peakRSS), with the default blocks.
func TestPredictSourcesHoldBlocks(t *testing.T) {
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
	grew, base, peak := peakGrowth(t, map[string]string{big: st.Xt}, "predict", model, "--features", big, "--sources", st.A, "--out", out)
	size := uint64(rows * (d + n) * 8)
	if grew > size/2 {
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
	grew, base, peak := peakGrowth(t, map[string]string{big: small}, "predict", model, "--features", big, "--out", out)
	if _, code, output := peakRSS(t, "predict", model, "--features", plain, "--out", want); code != 0 {
		t.Fatalf("the file uncompressed: exit %d: %s", code, output)
	}
	size := uint64(rows * cols * 8)
	if grew > size/2 {
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

// TestPredictHoldsABlock checks that predict of a CSV of features holds a
// block of them, not all: its peak resident memory (peakGrowth) exceeds
// that of the same predict on 40 rows by less than half the matrix
// (reading it whole held all of it, and more while its slice grew), and
// so does predict --features - of the same rows piped to its standard
// input, which it read whole. So
// too when a bad last line fails it: the reader's error is the one
// reading the file whole gives, which is not read again.
func TestPredictHoldsABlock(t *testing.T) {
	const rows, cols = 150000, 40
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	train := mat.NewDense(60, cols, nil)
	labels := make([]string, 60)
	for i := range 60 {
		for j := range cols {
			train.Set(i, j, rng.NormFloat64())
		}
		labels[i] = strconv.Itoa(1 - 2*(i%2))
	}
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--features", writeNPY(t, dir, "X.npy", train),
		"--labels", writeText(t, dir, "y.txt", strings.Join(labels, "\n")+"\n"), "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	csv := func(name string, rows int) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		line := make([]byte, 0, 1024)
		for i := range rows {
			line = line[:0]
			for j := range cols {
				if j > 0 {
					line = append(line, ',')
				}
				line = strconv.AppendFloat(line, float64((i*7+j)%1000)/8, 'g', -1, 64)
			}
			w.Write(append(line, '\n'))
		}
		if err := errors.Join(w.Flush(), f.Close()); err != nil {
			t.Fatal(err)
		}
		return path
	}
	features, small := csv("Xt.csv", rows), csv("small.csv", 40)
	out := filepath.Join(dir, "scores.txt")
	matrix := uint64(rows * cols * 8)
	grew, base, peak := peakGrowth(t, map[string]string{features: small}, "predict", model, "--features", features, "--out", out)
	scores, err := os.ReadFile(out)
	if err != nil || bytes.Count(scores, []byte("\n")) != rows {
		t.Fatalf("%d lines of scores (%v), want %d", bytes.Count(scores, []byte("\n")), err, rows)
	}
	if grew > matrix/2 {
		t.Errorf("predict's peak resident memory grew by %d bytes (%d on 40 rows, %d on %d) while it read a %d-byte matrix, want at most half of it", grew, base, peak, rows, matrix)
	} else {
		t.Logf("peak resident memory %d bytes on 40 rows, %d on %d: grew by %d for a %d-byte matrix", base, peak, rows, grew, matrix)
	}
	// The same rows piped to the standard input (--features -): read in
	// blocks too, the same scores; it was read whole.
	stdinRun := func(in string) uint64 {
		rss, code, output := peakRSSIn(t, in, "predict", model, "--features", "-", "--out", out)
		if code != 0 {
			t.Fatalf("predict --features - < %s: exit %d: %s", in, code, output)
		}
		return rss
	}
	base, peak = stdinRun(small), stdinRun(features)
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, scores) {
		t.Fatalf("from the standard input: %d lines of scores (%v), not the file's", bytes.Count(got, []byte("\n")), err)
	}
	if grew := peak - min(peak, base); grew > matrix/2 {
		t.Errorf("from the standard input: predict's peak resident memory grew by %d bytes (%d on 40 rows, %d on %d) while it read a %d-byte matrix, want at most half of it", grew, base, peak, rows, matrix)
	} else {
		t.Logf("from the standard input: peak resident memory %d bytes on 40 rows, %d on %d: grew by %d for a %d-byte matrix", base, peak, rows, grew, matrix)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(features, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString("1,x\n")
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	_, want := dataset.ReadMatrix(features)
	if want == nil {
		t.Fatal("the reader takes a bad last line")
	}
	peak, code, output := peakRSS(t, "predict", model, "--features", features, "--out", out)
	if _, err := os.Stat(out); code != exitInput || output != "greedytl: "+want.Error()+"\n" || !os.IsNotExist(err) {
		t.Fatalf("a bad last line: exit %d, output %q, --out %v; want %d, %q, no file", code, output, err, exitInput, want)
	}
	if grew := peak - min(peak, base); grew > matrix/2 {
		t.Errorf("a bad last line: predict's peak resident memory grew by %d bytes (%d on 40 rows, %d) while it read a %d-byte matrix, want at most half of it", grew, base, peak, matrix)
	}
}

// TestPredictSourceScoresHoldBlocks checks that predict of .npy features
// and source scores holds a block of them, not all: its peak resident
// memory (peakGrowth) exceeds that of the same predict on 40 rows by less
// than half the two matrices (a .npy file was read whole, and with
// --source-scores both files were). It measured the live heap of the
// test process, which work of earlier tests still winding down once grew
// by 7 MB beside predict's 2 MB (CI).
func TestPredictSourceScoresHoldBlocks(t *testing.T) {
	const rows, cx, ch = 200000, 40, 10
	dir := t.TempDir()
	matrix := func(name string, r, c int, seed uint64) string {
		rng := rand.New(rand.NewPCG(seed, 9))
		A := mat.NewDense(r, c, nil)
		raw := A.RawMatrix().Data
		for k := range raw {
			raw[k] = rng.NormFloat64()
		}
		return writeNPY(t, dir, name, A)
	}
	labels := make([]string, 60)
	for i := range labels {
		labels[i] = strconv.Itoa(1 - 2*(i%2))
	}
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--features", matrix("X.npy", 60, cx, 1), "--source-scores", matrix("H.npy", 60, ch, 2),
		"--labels", writeText(t, dir, "y.txt", strings.Join(labels, "\n")+"\n"), "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	X, H := matrix("Xbig.npy", rows, cx, 3), matrix("Hbig.npy", rows, ch, 4)
	small := map[string]string{X: matrix("Xsmall.npy", 40, cx, 5), H: matrix("Hsmall.npy", 40, ch, 6)}
	out := filepath.Join(dir, "scores.txt")
	grew, base, peak := peakGrowth(t, small, "predict", model, "--features", X, "--source-scores", H, "--out", out)
	if text, err := os.ReadFile(out); err != nil || bytes.Count(text, []byte("\n")) != rows {
		t.Fatalf("%d lines of scores (%v), want %d", bytes.Count(text, []byte("\n")), err, rows)
	}
	if size := uint64(rows * (cx + ch) * 8); grew > size/2 {
		t.Errorf("predict's peak resident memory grew by %d bytes (%d on 40 rows, %d on %d) while it read %d bytes of matrices, want at most half of it", grew, base, peak, rows, size)
	} else {
		t.Logf("peak resident memory %d bytes on 40 rows, %d on %d: grew by %d", base, peak, rows, grew)
	}
}
