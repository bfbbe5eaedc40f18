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
// (A binary model; a multi-class model's labels, read before its rows are
// scored, are not read by the count yet.)
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
