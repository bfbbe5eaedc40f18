package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
)

// TestFitNWayUsesTheSourcesStatistics checks that greedytl fit with
// --sources gives greedytl-nway the sources' own score statistics
// (source.Index.ScoreScales, in the directory's order), as the N-way
// protocol does: the scores predict prints for the model equal, bit for
// bit, those of a fit in Go given the same statistics, and differ from a
// fit from the same scores given as a matrix (--source-scores), which
// carries none. It failed when fit left method.Extra.SourceScales unset.
func TestFitNWayUsesTheSourcesStatistics(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if code, _, stderr := cli(t, "", "train-sources", "--data", blobDataset(t), "--out", src, "--negative-fraction", "0.25", "--seed", "3", "--quiet"); code != 0 {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	ix, err := source.ReadIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, len(ix.Sources))
	for j := range all {
		all[j] = j
	}
	scales := ix.ScoreScales(all)
	if scales == nil {
		t.Fatal("train-sources recorded no score statistics")
	}

	// Three classes, three examples each, in the sources' 8 dimensions.
	names := []string{"a", "b", "c"}
	rng := rand.New(rand.NewPCG(27, 3))
	X, Xt := mat.NewDense(9, 8, nil), mat.NewDense(12, 8, nil)
	y := make([]int, 9)
	var labels strings.Builder
	for _, m := range []*mat.Dense{X, Xt} {
		r, c := m.Dims()
		for i := range r {
			k := i % 3
			for j := range c {
				m.Set(i, j, rng.NormFloat64())
			}
			m.Set(i, k, m.At(i, k)+3)
			if m == X {
				y[i] = k
				labels.WriteString(names[k] + "\n")
			}
		}
	}
	H, Ht := sourceScores(t, src, X), sourceScores(t, src, Xt)
	xf, xtf := writeNPY(t, dir, "X.npy", X), writeNPY(t, dir, "Xt.npy", Xt)
	hf, htf := writeNPY(t, dir, "H.npy", H), writeNPY(t, dir, "Ht.npy", Ht)
	yf := writeText(t, dir, "y.txt", labels.String())

	predicted := func(in ...string) string {
		t.Helper()
		model := filepath.Join(dir, "m.json")
		args := append([]string{"fit", "--method", "greedytl-nway", "--seed", "5", "--features", xf, "--labels", yf, "--out", model, "--quiet"}, in...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("fit %v: exit %d: %s", in, code, stderr)
		}
		code, out, stderr := cli(t, "", "predict", "--model", model, "--features", xtf, "--source-scores", htf, "--scores")
		if code != 0 {
			t.Fatalf("predict: exit %d: %s", code, stderr)
		}
		return out
	}
	fromDir, fromMatrix := predicted("--sources", src), predicted("--source-scores", hf)

	mm, err := method.NewMulti("greedytl-nway")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), method.Data{X: X, H: H}, method.ClassLabels{Names: names, Y: y}, method.Extra{Seed: 5, SourceScales: scales})
	if err != nil {
		t.Fatal(err)
	}
	want, err := model.Scores(method.Data{X: Xt, H: Ht})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(fromDir, "\n"), "\n")
	rows, cols := want.Dims()
	if len(lines) != 1+rows || lines[0] != strings.Join(names, "\t") {
		t.Fatalf("predict --scores of the --sources model: %d lines, header %q:\n%s", len(lines), lines[0], fromDir)
	}
	for i := range rows {
		fields := strings.Split(lines[1+i], "\t")
		if len(fields) != cols {
			t.Fatalf("row %d: %d scores, want %d", i, len(fields), cols)
		}
		for k := range cols {
			w := want.At(i, k)
			if got, err := strconv.ParseFloat(fields[k], 64); err != nil || got != w {
				t.Errorf("row %d, class %s: the --sources model scores %s, a fit given the sources' statistics %v", i, names[k], fields[k], w)
			}
		}
	}
	if fromDir == fromMatrix {
		t.Error("greedytl-nway fitted from --sources scores as it does from the same scores given as a matrix: the sources' statistics were not used")
	}
}
