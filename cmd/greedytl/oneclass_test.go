package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fitAndPredict fits method on x, h and y (h "" for none) with --json,
// and returns the report, fit's standard error and the classes predict
// gives the training rows.
func fitAndPredict(t *testing.T, dir, meth, x, h, y string) (fitReport, string, []string) {
	t.Helper()
	out := filepath.Join(dir, meth+".json")
	args := []string{"fit", "--method", meth, "--features", x, "--labels", y, "--out", out, "--json"}
	pargs := []string{"predict", out, "--features", x}
	if h != "" {
		args = append(args, "--source-scores", h)
		pargs = append(pargs, "--source-scores", h)
	}
	code, stdout, stderr := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", meth, code, stderr)
	}
	var rep fitReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%s: fit --json printed %q: %v", meth, stdout, err)
	}
	code, stdout, perr := cli(t, "", pargs...)
	if code != 0 {
		t.Fatalf("%s: predict: exit %d: %s", meth, code, perr)
	}
	return rep, stderr, strings.Fields(stdout)
}

// cloudCSV writes rows × cols standard normal values (seed) as a CSV file,
// then one row for each of offsets (none: the noise alone): the mean of
// those rows, plus the offset in the even columns and minus it in the odd
// ones, a row inside their cloud.
func cloudCSV(t *testing.T, dir, name string, rows, cols int, seed uint64, offsets ...float64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	mean := make([]float64, cols)
	row := func(v func(j int) float64) {
		for j := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%.6g", v(j))
		}
		b.WriteByte('\n')
	}
	for range rows {
		row(func(j int) float64 {
			v := rng.NormFloat64()
			mean[j] += v / float64(rows)
			return v
		})
	}
	for _, o := range offsets {
		row(func(j int) float64 { return mean[j] + o*float64(1-2*(j%2)) })
	}
	return writeText(t, dir, name, b.String())
}

// TestFitWarnsOneClass: a multi-class fit on a very unbalanced sample (28,
// 1 and 1 examples of three classes, on noise) that predicts the majority
// class for every training row warns so (code "one-class", naming that
// class, and in its classes that class and the others it counts), on
// standard error and in fit --json's report; a fit that predicts several
// classes for its training rows does not.
//
// The fit that gives every row the majority class is greedytl-auto (one
// class against the rest) with a source column, on data whose two
// minority rows sit inside the majority's cloud (at its mean, offset by
// at most a tenth of the noise's standard deviation): its source member's
// line is the unweighted least-squares fit, which keeps the classes'
// proportions in its offset (GreedyAuto's doc), and nothing in the
// minority rows, near the mean, lifts their classes' scores above the
// majority's. Without the source column the same rows got 2 a, 16 b and
// 12 c. Its models keep columns: no constant-classes warning
// (TestAverageKTConstantFeaturesWarns's case), which the test checks.
//
// greedytl-nway and multinomial-logistic gave every row the majority
// class without a word when their loss was unweighted (the case this test
// was written for). With class-balanced weights v_i and unpenalised
// intercepts, one class for every training row is impossible but for
// ties: at the fit's optimum (to the solver's tolerance) each intercept's
// gradient is zero, Σ_i v_i p_ik = m/K for every class k, and for
// greedytl-nway, the mean of two such fits' probabilities, the same
// holds; a class that won every row would have a larger weighted sum than
// the others. They stay here, on the same data, with nearest-neighbour
// (which predicts each training row's own class), as fits that predict
// several classes and do not warn.
func TestFitWarnsOneClass(t *testing.T) {
	dir := t.TempDir()
	x := cloudCSV(t, dir, "X.csv", 28, 2, 1, 0.1, -0.05)
	h := cloudCSV(t, dir, "H.csv", 28, 1, 2, 0.05, -0.1)
	y := writeText(t, dir, "y.txt", strings.Repeat("a\n", 28)+"b\nc\n")
	for _, tc := range []struct {
		method string
		warn   bool
	}{{"greedytl-auto", true}, {"greedytl-nway", false}, {"multinomial-logistic", false}, {"nearest-neighbour", false}} {
		rep, stderr, pred := fitAndPredict(t, dir, tc.method, x, h, y)
		one := len(slices.Compact(slices.Clone(pred))) == 1
		if one != tc.warn {
			t.Fatalf("%s: predict gives the training rows %q: the check needs one class iff a warning is expected (%v)", tc.method, pred, tc.warn)
		}
		var got []string
		for _, w := range rep.Warnings {
			got = append(got, w.Code)
			if w.Code != "one-class" {
				continue
			}
			want := fmt.Sprintf("model predicts %q for every one of the 30 training examples", pred[0])
			if !strings.Contains(w.Message, want) || !strings.Contains(w.Message, `("b": 1, "c": 1)`) || !slices.Equal(w.Classes, []string{pred[0], "b", "c"}) ||
				!strings.Contains(stderr, "greedytl: warning: "+w.Message+"\n") {
				t.Errorf("%s: warning %+v, want a message with %q and the other classes, the class %q, and the same on stderr:\n%s", tc.method, w, want, pred[0], stderr)
			}
		}
		if slices.Contains(got, "one-class") != tc.warn {
			t.Errorf("%s: warnings %q; a one-class warning expected: %v\n%s", tc.method, got, tc.warn, stderr)
		}
		if slices.Contains(got, "constant-classes") {
			t.Errorf("%s: warnings %q: a model that keeps no column is TestAverageKTConstantFeaturesWarns's case, not this one\n%s", tc.method, got, stderr)
		}
	}
}

// TestAverageKTConstantFeaturesWarns: average-kt on constant features (and
// informative-free source scores) fits every class's model on the sources'
// average alone, which every class shares, and gives every row one class:
// it warns constant-classes as the methods whose models keep no column do
// (it said nothing), naming the class predict gives the rows, and once
// (not also one-class).
func TestAverageKTConstantFeaturesWarns(t *testing.T) {
	dir := t.TempDir()
	x := writeText(t, dir, "X.csv", strings.Repeat("1,2,3\n", 30))
	h := cloudCSV(t, dir, "H.csv", 30, 3, 3)
	y := writeText(t, dir, "y.txt", strings.Repeat("a\nb\nc\n", 10))
	rep, stderr, pred := fitAndPredict(t, dir, "average-kt", x, h, y)
	if len(slices.Compact(slices.Clone(pred))) != 1 {
		t.Fatalf("predict gives the training rows %q, not one class: the check is too weak", pred)
	}
	want := fmt.Sprintf(`the average-kt models of 3 of the 3 classes ("a", "b", "c") keep no column of their own (no feature and no intercept, only the sources' average, which every class's model shares): their scores are identical, that average over its root mean square on the training examples, so the rows no other class scores higher go to %q;`, pred[0])
	if len(rep.Warnings) != 1 || rep.Warnings[0].Code != "constant-classes" || !strings.Contains(rep.Warnings[0].Message, want) ||
		strings.Count(stderr, "greedytl: warning: ") != 1 {
		t.Errorf("warnings %+v, stderr:\n%s\nwant one constant-classes warning with %q", rep.Warnings, stderr, want)
	}
}
