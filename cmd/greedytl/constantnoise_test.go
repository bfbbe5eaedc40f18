package main

import (
	"fmt"
	"strings"
	"testing"
)

// noiseProblem writes, in dir, four rows of features X (3 columns) and
// source scores H (2 columns) twice over, the first copy labelled 1 and
// the second −1, X's values multiplied by xScale: no model tells the copies
// apart, so that a least-squares fit's exact weights are 0, and what it
// computes is rounding (these rows leave weights of ~1e-20, where others
// cancel exactly). With flip, the second copy's rows are negated instead,
// so that the labels follow X's and H's signs (a genuine model).
func noiseProblem(t *testing.T, dir string, xScale float64, flip bool) (X, H, y string) {
	t.Helper()
	xr := [4][3]float64{{0.345584192064786, 0.8216181435011584, 0.33043707618338714}, {-1.303157231604361, 0.9053558666731177, 0.4463745723640113}, {-0.5369532353602852, 0.5811181041963531, 0.36457239618607573}, {0.294132496655526, 0.02842224131579679, 0.5467129866124469}}
	hr := [4][2]float64{{-0.7364540870016669, -0.16290994799305278}, {-0.48211931267997826, 0.5988462126346276}, {0.03972210748165899, -0.2924567509650886}, {-0.7819084623568421, -0.2571922406188707}}
	var xs, hs, ys strings.Builder
	for c, label := range []int{1, -1} {
		sign := 1.0
		if flip && c == 1 {
			sign = -1
		}
		for i := range 4 {
			fmt.Fprintf(&xs, "%v,%v,%v\n", sign*xScale*xr[i][0], sign*xScale*xr[i][1], sign*xScale*xr[i][2])
			fmt.Fprintf(&hs, "%v,%v\n", sign*hr[i][0], sign*hr[i][1])
			fmt.Fprintf(&ys, "%d\n", label)
		}
	}
	return writeText(t, dir, "X.csv", xs.String()), writeText(t, dir, "H.csv", hs.String()), writeText(t, dir, "y.txt", ys.String())
}

// TestConstantModelOfRoundingNoise: on rows that appear once with each
// label, no-transfer and rls-srcfeat (ridge on the labels) keep columns of
// weight ~1e-20, rounding where the exact fit has 0, so that their
// training scores differ by rounding alone: the constant-model warning,
// as l1-logistic's model of no column draws it. A genuine model on the
// same rows with the labels following their signs, and the features
// multiplied by 1e200 (so that a weight in the features' own units is
// ~1e-200), draws none.
func TestConstantModelOfRoundingNoise(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xScale float64
		flip   bool
		warn   bool
		// rounding: the weights are not all 0, so that the warning is of
		// scores that differ by rounding (the scaled rows may cancel
		// exactly, leaving no column).
		rounding bool
	}{
		{"noise", 1, false, true, true},
		{"noise, huge features", 1e200, false, true, false},
		{"genuine, huge features", 1e200, true, false, false},
		{"genuine, tiny features", 1e-200, true, false, false},
	} {
		dir := t.TempDir()
		X, H, y := noiseProblem(t, dir, tc.xScale, tc.flip)
		for _, m := range []string{"no-transfer", "rls-srcfeat"} {
			code, _, stderr := cli(t, "", "fit", "--method", m, "--features", X, "--source-scores", H, "--labels", y, "--out", dir+"/"+m+".json")
			if code != 0 {
				t.Fatalf("%s, %s: exit %d: %s", tc.name, m, code, stderr)
			}
			got := strings.Contains(stderr, "greedytl: warning: the "+m+" model ")
			if got != tc.warn {
				t.Errorf("%s, %s: constant-model warning %v, want %v:\n%s", tc.name, m, got, tc.warn, stderr)
			}
			if tc.rounding && !strings.Contains(stderr, "is constant to working precision: its scores on the 8 training examples differ by at most") {
				t.Errorf("%s, %s: the warning does not say the scores are rounding:\n%s", tc.name, m, stderr)
			}
		}
	}
}

// TestConstantClassesOfRoundingNoise: the constant-model rule per class of
// a model fitted one class against the rest. Four rows appear with labels
// a and b, four others with a and c, so that a's indicator is ½ on every
// distinct row and its least-squares model's exact weights are 0 (what
// no-transfer and rls-srcfeat compute is rounding of ~1e-20), while b's
// and c's tell the two sets of rows apart: the constant-classes warning
// names a alone, as constant to working precision, as the binary fit's
// constant-model warning does.
func TestConstantClassesOfRoundingNoise(t *testing.T) {
	dir := t.TempDir()
	X, y := roundingNoiseClasses(t, dir)
	for _, m := range []string{"no-transfer", "rls-srcfeat"} {
		code, _, stderr := cli(t, "", "fit", "--method", m, "--features", X, "--labels", y, "--out", dir+"/"+m+".json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", m, code, stderr)
		}
		want := "greedytl: warning: the " + m + ` models of 1 of the 3 classes ("a") are constant to working precision: their scores on the 16 training examples differ by at most`
		if !strings.Contains(stderr, want) {
			t.Errorf("%s: no constant-classes warning of a's rounding noise:\n%s", m, stderr)
		}
	}
}

// roundingNoiseClasses writes to dir the rows and labels of
// TestConstantClassesOfRoundingNoise: three classes, a's rows repeating
// those of b and of c, so that a's least-squares weights are 0 exactly and
// what the solvers compute for it is rounding.
func roundingNoiseClasses(t *testing.T, dir string) (X, y string) {
	R := [4][3]float64{{0.345584192064786, 0.8216181435011584, 0.33043707618338714}, {-1.303157231604361, 0.9053558666731177, 0.4463745723640113}, {-0.5369532353602852, 0.5811181041963531, 0.36457239618607573}, {0.294132496655526, 0.02842224131579679, 0.5467129866124469}}
	S := [4][3]float64{{1.1, -0.4, 0.9}, {0.7, -1.2, 1.5}, {1.6, -0.2, 0.3}, {0.2, -0.9, 1.1}}
	var xs, ys strings.Builder
	for _, part := range []struct {
		rows   [4][3]float64
		labels []string
	}{{R, []string{"a", "b"}}, {S, []string{"a", "c"}}} {
		for _, l := range part.labels {
			for _, r := range part.rows {
				fmt.Fprintf(&xs, "%v,%v,%v\n", r[0], r[1], r[2])
				fmt.Fprintln(&ys, l)
			}
		}
	}
	return writeText(t, dir, "X.csv", xs.String()), writeText(t, dir, "y.txt", ys.String())
}
