package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/source"
)

// TestSourceScoresSameInBlocks checks what predict's blocks of --sources
// rest on (source.Set.Scores, in any build): the source scores of a
// block of rows are, bit for bit, those rows of the scores of all rows,
// for blocks of every size from 1 row (the last block's) to past a
// chunk of rows (the whole input's scored on several workers, the
// blocks' in one chunk), with more features and sources than a
// tile (the sums over the features in several tiles, the sources in
// two), and values of mixed magnitudes, whose sums round at every term.
func TestSourceScoresSameInBlocks(t *testing.T) {
	const rows, d, n = 700, 150, 70
	rng := rand.New(rand.NewPCG(25, 1))
	mixed := func() float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6)) }
	names := make([]string, n)
	models := make([]*linear.Model, n)
	for j := range n {
		w := make([]float64, d+1)
		for k := range w {
			w[k] = mixed()
		}
		names[j] = "s" + strconv.Itoa(j)
		models[j] = &linear.Model{Labels: []int{1 - 2*(j%2), 2*(j%2) - 1}, NrFeature: d, Bias: 1, W: w, NrW: 1}
	}
	set, err := source.NewSet(names, models)
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(rows, d, nil)
	for i := range rows {
		for k := range d {
			X.Set(i, k, mixed())
		}
	}
	whole, err := set.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []int{1, 2, 3, 63, 64, 65, 193, 256, 699} {
		for lo := 0; lo < rows; lo += block {
			hi := min(lo+block, rows)
			// A copy of the rows, as the reader gives a block.
			H, err := set.Scores(mat.DenseCopyOf(X.Slice(lo, hi, 0, d)))
			if err != nil {
				t.Fatal(err)
			}
			for i := lo; i < hi; i++ {
				for j := range n {
					if got, want := H.At(i-lo, j), whole.At(i, j); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("blocks of %d: row %d source %d: %v, the whole product's %v", block, i, j, got, want)
					}
				}
			}
		}
	}
}

// TestPredictSourcesInBlocks checks that predict --sources scoring
// --features in blocks (of 3 rows, the last of 1) prints what it prints
// reading them whole (blocks larger than the file), for binary and
// multi-class models, with --labels and --scores, from .npy and CSV
// features, and that an error of the sources on a later block (the
// features of another column count, in a CSV) is the error reading them
// whole gives.
func TestPredictSourcesInBlocks(t *testing.T) {
	st := newSourcesToy(t)
	Xt, err := dataset.ReadMatrix(st.Xt)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	r, c := Xt.Dims()
	for i := range r {
		for j := range c {
			if j > 0 {
				text.WriteByte(',')
			}
			text.WriteString(strconv.FormatFloat(Xt.At(i, j), 'g', -1, 64))
		}
		text.WriteByte('\n')
	}
	csv := writeText(t, st.dir, "Xt.csv", text.String())
	X, err := dataset.ReadMatrix(st.X)
	if err != nil {
		t.Fatal(err)
	}
	var y3 strings.Builder
	for i := range X.RawMatrix().Rows {
		y3.WriteString([]string{"a", "b", "c"}[int(math.Abs(X.At(i, 2)*2))%3] + "\n")
	}
	three := writeText(t, st.dir, "y3.txt", y3.String())
	for _, tc := range []struct {
		method, labels string
		extra          []string
	}{
		{"greedytl", st.y, []string{"--labels", st.yt}},
		{"no-transfer", st.y, nil},
		{"greedytl-nway", three, []string{"--scores"}},
		{"multinomial-logistic", three, nil},
	} {
		model := filepath.Join(st.dir, tc.method+".json")
		args := []string{"fit", "--method", tc.method, "--features", st.X, "--sources", st.A, "--labels", tc.labels, "--seed", "2", "--out", model}
		if tc.labels == st.y {
			args = append(args, "--positive", "cat")
		}
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%s: %s", tc.method, stderr)
		}
		for _, features := range []string{st.Xt, csv} {
			run := func(block int) string {
				smallBlocks(t, block)
				code, stdout, stderr := cli(t, "", append([]string{"predict", model, "--features", features, "--sources", st.A}, tc.extra...)...)
				if code != 0 {
					t.Fatalf("%s on %s: exit %d: %s", tc.method, features, code, stderr)
				}
				return stdout + "\n--\n" + stderr
			}
			if blocks, whole := run(3), run(1<<20); blocks != whole {
				t.Errorf("%s on %s: in blocks\n%s\nwant, read whole,\n%s", tc.method, features, blocks, whole)
			}
		}
	}
}

// TestPredictSourcesErrorInLaterBlock checks that a score of the sources
// that overflows on a row of --features after the first block (the 21st
// of 40, of magnitude 1.7e308) fails predict --sources with the error reading the
// features whole gives, naming the file's row, not the block's.
func TestPredictSourcesErrorInLaterBlock(t *testing.T) {
	st := newSourcesToy(t)
	model := filepath.Join(st.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", st.X, "--sources", st.A, "--labels", st.y, "--positive", "cat", "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	Xt, err := dataset.ReadMatrix(st.Xt)
	if err != nil {
		t.Fatal(err)
	}
	// Each feature 1.7e308 of the sign of the first source's weight on
	// it (its score's change from the origin to the feature's unit
	// vector): that source's score overflows.
	ix, err := source.ReadIndex(st.A)
	if err != nil {
		t.Fatal(err)
	}
	set, err := ix.Load(st.A)
	if err != nil {
		t.Fatal(err)
	}
	d := Xt.RawMatrix().Cols
	unit := mat.NewDense(d+1, d, nil)
	for k := range d {
		unit.Set(k+1, k, 1)
	}
	H, err := set.Scores(unit)
	if err != nil {
		t.Fatal(err)
	}
	for k := range d {
		Xt.Set(20, k, math.Copysign(1.7e308, H.At(k+1, 0)-H.At(0, 0)))
	}
	bad := writeNPY(t, st.dir, "bad.npy", Xt)
	run := func(block int) (int, string, string) {
		smallBlocks(t, block)
		return cli(t, "", "predict", model, "--features", bad, "--sources", st.A)
	}
	code, stdout, whole := run(1 << 20)
	if code != exitInput || stdout != "" || !strings.Contains(whole, "row 20") {
		t.Fatalf("read whole: exit %d, stdout %q, stderr %q; want %d, nothing, the 21st row's error", code, stdout, whole, exitInput)
	}
	if code, stdout, stderr := run(4); code != exitInput || stdout != "" || stderr != whole {
		t.Errorf("in blocks of 4: exit %d, stdout %q, stderr %q; want %d, nothing, %q", code, stdout, stderr, exitInput, whole)
	}
}
