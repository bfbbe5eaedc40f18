package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictOverflowNamesFileRowFeature checks that a score that
// overflows on the third row of the features (the value 1e308 in column
// b, whose training values are ±0.001) is refused as other input errors
// are (exit status 2), naming the file, its line, the row and the column
// from 1 and the column's name in a CSV, the row and column from 0 in a
// .npy file — for the GreedyTL model (greedytl.Model.Predict) and a linear
// one (method.Linear) alike, neither with the Go API's prefix and 0-based
// row ("greedytl.Model.Predict: the score of row 2 …"); so too a
// dictionary model and multi-class models (multinomial-logistic,
// greedytl-nway, nearest-neighbour, one-vs-rest models of linear and of
// dictionary models), whose standardised value of b overflows. A score that
// overflows though each standardised value is finite (b = 1e305), blaming
// no one column, names the file, its line and the row alike (a
// one-vs-rest model's score over its scale, nearest-neighbour's refusal of
// a far row). No case leaves a partial --out file. A source score
// that overflows names --source-scores' file and column likewise.
func TestPredictOverflowNamesFileRowFeature(t *testing.T) {
	dir := t.TempDir()
	train := "a,b\n1,0.001\n-1,-0.001\n2,0.001\n-2,-0.001\n0.5,0.001\n-0.5,-0.001\n"
	X := writeText(t, dir, "X.csv", train)
	H := writeText(t, dir, "H.csv", strings.ReplaceAll(strings.ReplaceAll(train, "a,b", "s1,s2"), "0.001", "0.002"))
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	Xt := writeText(t, dir, "Xt.csv", "a,b\n# a comment line\n1,0.001\n2,-0.001\n1,1e308\n1,1e308\n")
	Ht := writeText(t, dir, "Ht.csv", "s1,s2\n1,0.001\n2,-0.001\n1,1e308\n1,1e308\n")
	Xnpy := writeNPY(t, dir, "Xt.npy", mat.NewDense(4, 2, []float64{1, 0.001, 2, -0.001, 1, 1e308, 1, 1e308}))
	// Row 3 of Xu standardises to finite values (1e305 / 0.001 ≈ 1e308)
	// whose sums overflow: no one column is to blame.
	Xu := writeText(t, dir, "Xu.csv", "a,b\n# a comment line\n1,0.001\n2,-0.001\n1,1e305\n1,0.001\n")
	y3 := writeText(t, dir, "y3.txt", "a\nb\nc\na\nb\nc\n")
	for _, fm := range []struct {
		method, labels string
		unblamed       bool // Xu too: its row 3 overflows, blaming no column
	}{
		{"greedytl", y, false},
		{"no-transfer", y, false},
		{"dictionary", y, false},
		{"multinomial-logistic", y3, false},
		{"greedytl-nway", y3, false},
		{"no-transfer", y3, true}, // one-vs-rest: a linear model's score over its scale
		{"dictionary", y3, false}, // one-vs-rest of dictionary models
		{"nearest-neighbour", y3, true},
	} {
		m := fm.method
		model := filepath.Join(dir, m+"-"+filepath.Base(fm.labels)+".json")
		if code, _, stderr := cli(t, "", "fit", "--method", m, "--features", X, "--labels", fm.labels, "--out", model); code != 0 {
			t.Fatal(stderr)
		}
		cases := []struct{ features, want string }{
			{Xt, "model " + model + " on " + Xt + ":5 (row 3): the row's score overflows float64 at column 2 (\"b\") = 1e+308, too far outside the training range (mean 0, standard deviation "},
			{Xnpy, "model " + model + " on " + Xnpy + " row 2 (rows and columns from 0, as NumPy counts them): the row's score overflows float64 at column 1 (\"b\") = 1e+308, too far outside the training range (mean 0, standard deviation "},
		}
		if fm.unblamed {
			cases = append(cases, struct{ features, want string }{Xu, "model " + model + " on " + Xu + ":5 (row 3): the row's score overflows float64, an input of the row too far outside the training range\n"})
		}
		for _, tc := range cases {
			out := filepath.Join(dir, "scores.txt")
			code, stdout, stderr := cli(t, "", "predict", model, "--features", tc.features, "--out", out)
			if code != exitInput || stdout != "" || !strings.Contains(stderr, "greedytl: "+tc.want) || strings.Contains(stderr, "Model.Predict") || strings.Contains(stderr, "method: predict") {
				t.Errorf("%s (labels %s) on %s: exit %d, stdout %q, stderr %q; want %d and %q", m, fm.labels, tc.features, code, stdout, stderr, exitInput, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s (labels %s) on %s: --out %s exists (%v), want no file", m, fm.labels, tc.features, out, err)
			}
		}
	}
	model := filepath.Join(dir, "h.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--source-scores", H, "--labels", y, "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	want := "model " + model + " on " + Ht + ":4 (row 3): the row's score overflows float64 at column 2 (\"s2\") = 1e+308"
	if code, _, stderr := cli(t, "", "predict", model, "--source-scores", Ht); code != exitInput || !strings.HasPrefix(stderr, "greedytl: "+want) {
		t.Errorf("source scores: exit %d, stderr %q; want %d and %q", code, stderr, exitInput, want)
	}
}
