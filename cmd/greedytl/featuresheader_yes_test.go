package main

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFeaturesHeaderYesDecimals: --features-header yes refuses a features
// file whose first line is a row of decimals (fit, predict in blocks and
// from standard input), naming the file, the line and the flag; it read
// that row as column names and dropped it silently. Integers stay a
// header under yes, and a label count error then says yes read the line.
func TestFeaturesHeaderYesDecimals(t *testing.T) {
	dir := t.TempDir()
	const decimals = "0.125730,-0.132105\n0.5,1.5\n1.25,0.5\n0.25,1.5\n"
	X := writeText(t, dir, "x.csv", decimals)
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n")
	model := dir + "/m.json"
	const problem = ":1: a row of decimals read as a header: every value is a number written with a point or an exponent, as data is, not as column names are (--features-header yes reads the first line of every text matrix file as a header: --features-header auto or no reads this one as a row of data)\n"
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model, "--features-header", "yes"); code != exitInput || stderr != "greedytl: "+X+problem {
		t.Errorf("fit --features-header yes: exit %d, %q; want %d and %q", code, stderr, exitInput, X+problem)
	}
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	for _, in := range []struct{ features, stdin, name string }{{X, "", X}, {"-", decimals, "<stdin>"}} {
		code, out, stderr := cli(t, in.stdin, "predict", "--model", model, "--features", in.features, "--features-header", "yes")
		if code != exitInput || out != "" || stderr != "greedytl: "+in.name+problem {
			t.Errorf("predict --features %s --features-header yes: exit %d, %d scores, %q; want %d and %q", in.features, code, len(strings.Fields(out)), stderr, exitInput, in.name+problem)
		}
	}
	ints := writeText(t, dir, "ints.csv", "3,7\n"+decimals)
	y5 := writeText(t, dir, "y5.txt", "1\n-1\n1\n-1\n1\n")
	want := "greedytl: " + y5 + " has 5 labels but the inputs have 4 rows (--features-header yes read the first line of " + ints + " as column names, not as an example)\n"
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", ints, "--labels", y5, "--out", model, "--features-header", "yes"); code != exitInput || stderr != want {
		t.Errorf("fit, integers above 4 rows, 5 labels, --features-header yes: exit %d, %q; want %q", code, stderr, want)
	}
}

// TestFeaturesHeaderExtraSamples: --features-header applies to fit's extra
// samples' matrix files too (--unlabelled-features), and yes is refused
// only when every matrix file of the command is a .npy array, the extra
// samples' included.
func TestFeaturesHeaderExtraSamples(t *testing.T) {
	dir := t.TempDir()
	// Under auto the first line of these files is ambiguous, and
	// refused; yes reads it as a header.
	const ambiguous = "3,7\n0.5,1.5\n1.5,0.25\n0.75,1.5\n2.5,0.5\n"
	X := writeText(t, dir, "x.csv", ambiguous)
	Xnpy := writeNPY(t, dir, "x.npy", mat.NewDense(4, 2, []float64{0.5, 1, 1, 0.25, 2, 1.5, 0.75, 3}))
	U := writeText(t, dir, "u.csv", ambiguous)
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n")
	out := dir + "/m.json"
	for _, features := range []string{X, Xnpy} {
		args := []string{"fit", "--method", "dam", "--features", features, "--unlabelled-features", U, "--labels", y, "--out", out}
		if code, _, stderr := cli(t, "", args...); code != exitInput || !strings.Contains(stderr, ":1: integers 3, 7 above rows of decimals") {
			t.Errorf("%q: exit %d, %q; want %d and the ambiguous first line refused", args, code, stderr, exitInput)
		}
		if code, _, stderr := cli(t, "", append(args, "--features-header", "yes")...); code != 0 {
			t.Errorf("%q --features-header yes: exit %d, %q; want 0", args, code, stderr)
		}
	}
}
