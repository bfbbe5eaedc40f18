package main

import (
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictLabelsFirstLineByRows: predict reads a label file's first
// line by the inputs' rows as fit does (dataset.Classes.ReadForRows), so
// that the file fit read evaluates the model it wrote: pandas' "0" above
// labels 0 and 1, one line more than the rows, is a header at both (with
// the same note), though "0" is one of the model's classes. predict read it
// as a label, a class of the model, and refused the file one label over
// ("has 5 labels but the inputs have 4 rows"). Where the count does not
// decide (a file of one label a row either way is not read again), a first
// line that is a class of the model stays a label: "0 1 0 1" over 4 rows.
// (A binary model; TestPredictMultiLabelsFirstLineByRows, a multi-class
// one.)
func TestPredictLabelsFirstLineByRows(t *testing.T) {
	dir := t.TempDir()
	x4 := writeNPY(t, dir, "X4.npy", mat.NewDense(4, 2, []float64{1, 2, 2, 1, 0.5, 3, 3, 0.2}))
	note := `its first line, "0", was read as a header, not a label: the file has one label per row of the inputs (4 rows) below it; --labels-header no reads it as a label`
	for _, labels := range []string{"0\n0\n1\n0\n1\n", "0\n1\n0\n1\n"} {
		y := writeText(t, dir, "y.txt", labels)
		model := filepath.Join(dir, "b.json")
		wantNote := strings.Count(labels, "\n") == 5
		if code, _, stderr := cli(t, "", "fit", "--features", x4, "--labels", y, "--out", model); code != 0 || strings.Contains(stderr, note) != wantNote {
			t.Fatalf("%q: fit exit %d, stderr %q", labels, code, stderr)
		}
		code, out, stderr := cli(t, "", "predict", "--model", model, "--features", x4, "--labels", y)
		if code != 0 || strings.Count(out, "\n") != 4 || !strings.Contains(stderr, "(4 examples") || strings.Contains(stderr, note) != wantNote {
			t.Errorf("%q: predict exit %d, stdout %q, stderr %q; want 0, 4 scores, 4 examples evaluated (note %v)", labels, code, out, stderr, wantNote)
		}
	}
}

// TestPredictMultiLabelsFirstLineByRows: predict with a multi-class model
// reads a labels file's first line as fit does, by the inputs' rows: a
// header ("species", none of the model's classes, or pandas' "0" above
// labels of classes 0 and 1) above one label a row is a header, with a
// note, and with one label a row the same line is a label (refused when it
// is no class of the model's). It refused the header as an unknown label
// and counted pandas' "0" as a fifth label of four rows.
func TestPredictMultiLabelsFirstLineByRows(t *testing.T) {
	dir := t.TempDir()
	x3 := writeNPY(t, dir, "X3.npy", mat.NewDense(3, 2, []float64{0, 1, 5, 5, 9, 0}))
	x4 := writeNPY(t, dir, "X4.npy", mat.NewDense(4, 2, []float64{0, 1, 5, 5, 9, 0, 9, 0.1}))
	animals := writeText(t, dir, "animals.txt", "cat\ndog\nfish\ncat\ndog\nfish\n")
	x6 := writeNPY(t, dir, "X6.npy", mat.NewDense(6, 2, []float64{0, 1, 5, 5, 9, 0, 0.2, 0.9, 5.1, 4.9, 9.1, 0.2}))
	threeClass := filepath.Join(dir, "three.json")
	if code, _, stderr := cli(t, "", "fit", "--features", x6, "--labels", animals, "--method", "nearest-mean", "--out", threeClass); code != 0 {
		t.Fatalf("fit: exit %d, %s", code, stderr)
	}
	twoClass := filepath.Join(dir, "two.json")
	zeroOne := writeText(t, dir, "zeroone.txt", "0\n1\n0\n1\n0\n1\n")
	if code, _, stderr := cli(t, "", "fit", "--features", x6, "--labels", zeroOne, "--method", "nearest-mean", "--out", twoClass); code != 0 {
		t.Fatalf("fit: exit %d, %s", code, stderr)
	}
	species := writeText(t, dir, "species.txt", "species\ncat\ndog\nfish\n")
	pandas := writeText(t, dir, "pandas.txt", "0\n0\n1\n1\n")
	for _, tc := range []struct {
		name, model, features, labels, stderr string
		code                                  int
	}{
		{"header above 3 rows", threeClass, x3, species, `its first line, "species", was read as a header, not a label: the file has one label per row of the inputs (3 rows) below it`, 0},
		{"a label of 4 rows", threeClass, x4, species, `species.txt:1: label "species" is not one of the model's classes ("cat", "dog", "fish")`, 2},
		{"pandas' 0 above 3 rows", twoClass, x3, pandas, `its first line, "0", was read as a header, not a label: the file has one label per row of the inputs (3 rows) below it`, 0},
		{"pandas' 0 a label of 4 rows", twoClass, x4, pandas, "accuracy", 0},
	} {
		code, out, stderr := cli(t, "", "predict", "--model", tc.model, "--features", tc.features, "--labels", tc.labels)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: predict exit %d, stdout %q, stderr %q; want %d and %q", tc.name, code, out, stderr, tc.code, tc.stderr)
		}
		if tc.code == 0 && strings.Contains(tc.name, "above") && !strings.Contains(stderr, "(3 examples") {
			t.Errorf("%s: stderr %q, want 3 examples evaluated", tc.name, stderr)
		}
	}
}

// TestPredictMultiLabelsUndecidedFirstLineRefusedFirst: a first line that
// is none of the model's classes is refused before any row is written
// (predict --scores to standard output prints nothing) wherever the count
// of rows cannot make it a header: under --labels-header no, and in a
// file with a blank line (dataset.Classes.RowsMayDecide). It waited for
// the count there too, and printed the scores before the error.
func TestPredictMultiLabelsUndecidedFirstLineRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	x3 := writeNPY(t, dir, "X3.npy", mat.NewDense(3, 2, []float64{0, 1, 5, 5, 9, 0}))
	x6 := writeNPY(t, dir, "X6.npy", mat.NewDense(6, 2, []float64{0, 1, 5, 5, 9, 0, 0.2, 0.9, 5.1, 4.9, 9.1, 0.2}))
	animals := writeText(t, dir, "animals.txt", "cat\ndog\nfish\ncat\ndog\nfish\n")
	model := filepath.Join(dir, "three.json")
	if code, _, stderr := cli(t, "", "fit", "--features", x6, "--labels", animals, "--method", "nearest-mean", "--out", model); code != 0 {
		t.Fatalf("fit: exit %d, %s", code, stderr)
	}
	species := writeText(t, dir, "species.txt", "species\ncat\ndog\nfish\n")
	gap := writeText(t, dir, "gap.txt", "species\ncat\n\ndog\nfish\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"--labels-header no", []string{"--labels", species, "--labels-header", "no"}},
		{"a blank line", []string{"--labels", gap}},
	} {
		code, out, stderr := cli(t, "", append([]string{"predict", "--model", model, "--features", x3, "--scores"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, `label "species" is not one of the model's classes`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2, nothing out, the label refused", tc.name, code, out, stderr)
		}
	}
}
