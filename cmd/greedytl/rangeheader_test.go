package main

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// A first data row reading 0,1,…,n−1 is read as pandas' column names by
// --features-header auto (documented): predict printed one score fewer
// than the rows, exit 0, saying nothing. It now notes it on standard
// error, once per file, naming the file, the line and --features-header
// no; fit's row count error says it too. --features-header no reads the
// line as a row, without a note.
func TestRangeHeaderNoted(t *testing.T) {
	dir := t.TempDir()
	model, y := rangeTestModel(t, dir)
	te := writeText(t, dir, "te.csv", "0,1,2\n1,0,1\n2,2,2\n")
	note := "greedytl: note: " + te + ": line 1 (0,1,2) was read as pandas' column names, not as a row; --features-header no reads it as data\n"
	code, stdout, stderr := cli(t, "", "predict", model, "--features", te)
	if code != exitOK || strings.Count(stdout, "\n") != 2 || stderr != note {
		t.Errorf("predict: exit %d, stdout %q, stderr %q; want 2 scores and the note %q", code, stdout, stderr, note)
	}
	code, stdout, stderr = cli(t, "", "predict", model, "--features", te, "--features-header", "no")
	if code != exitOK || strings.Count(stdout, "\n") != 3 || stderr != "" {
		t.Errorf("predict --features-header no: exit %d, stdout %q, stderr %q; want 3 scores and nothing", code, stdout, stderr)
	}
	// Standard input, read once: its reader tells the line it dropped.
	code, stdout, stderr = cli(t, "0,1,2\n1,0,1\n2,2,2\n", "predict", model, "--features", "-")
	if want := strings.Replace(note, te, "<stdin>", 1); code != exitOK || strings.Count(stdout, "\n") != 2 || stderr != want {
		t.Errorf("predict --features -: exit %d, stdout %q, stderr %q; want 2 scores and the note %q", code, stdout, stderr, want)
	}
	// A liblinear model reads --features whole.
	lib := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 3\nbias -1\nw\n1\n-1\n0.5\n")
	code, stdout, stderr = cli(t, "", "predict", lib, "--features", te)
	if code != exitOK || strings.Count(stdout, "\n") != 2 || stderr != note {
		t.Errorf("predict with a liblinear model: exit %d, stdout %q, stderr %q; want 2 scores and the note %q", code, stdout, stderr, note)
	}
	// fit: once, though both samples name the file; none for another.
	code, _, stderr = cli(t, "", "fit", "--features", te, "--labels", writeText(t, dir, "y2.txt", "1\n-1\n"), "--oracle-features", te, "--oracle-labels", writeText(t, dir, "y3.txt", "-1\n1\n"),
		"--method", "best-source", "--source-scores", writeNPY(t, dir, "H.npy", mat.NewDense(2, 2, []float64{1, 2, 3, 4})),
		"--oracle-source-scores", writeNPY(t, dir, "Ho.npy", mat.NewDense(2, 2, []float64{1, 2, 3, 4})), "--out", model, "-q")
	if code != exitOK || strings.Count(stderr, "pandas' column names") != 1 || !strings.Contains(stderr, note) {
		t.Errorf("fit naming %s twice: exit %d, stderr %q; want the note %q once", te, code, stderr, note)
	}
	H := writeNPY(t, dir, "H3.npy", mat.NewDense(3, 2, nil))
	wantInputError(t, te+" has 2 rows but "+H+" has 3: both need one row per example (line 1 of "+te+", 0,1,2, was read as pandas' column names, not as a row: --features-header no reads it as data)",
		"fit", "--features", te, "--source-scores", H, "--labels", y, "--out", model)
}

// rangeTestModel fits a binary model on six rows of three features in dir
// and returns its file, the model of the range-header tests, and its
// label file.
func rangeTestModel(t *testing.T, dir string) (model, labels string) {
	t.Helper()
	X := writeText(t, dir, "tr.csv", "1,2,3\n3,4,1\n5,7,2\n1,1,1\n2,2,2\n3,1,0\n")
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	model = writeText(t, dir, "m.json", "")
	if code, _, stderr := cli(t, "", "fit", "--features", X, "--labels", y, "--out", model, "-q"); code != exitOK {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	return model, y
}
