package main

import (
	"fmt"
	"math"
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

// TestScoresConstant: scoresConstant's bound is n·ε times the larger of 1
// and the largest |score|: spreads at the bound are constant, twice it
// not; a score scale above 1 raises the bound with it; and scores a
// genuine model's small spread apart (1e-10 on labels of ±1) are not.
func TestScoresConstant(t *testing.T) {
	eps := math.Nextafter(1, 2) - 1
	for _, tc := range []struct {
		scores []float64
		want   bool
	}{
		{[]float64{0, 0, 0, 0}, true},
		{[]float64{1e-20, -3e-20, 2e-20, 0}, true},
		{[]float64{0, 4 * eps, 0, 0}, true},
		{[]float64{0, 8 * eps, 0, 0}, false},
		{[]float64{0.3, 0.3 + 2*eps, 0.3, 0.3}, true},
		{[]float64{1024, 1024 + 4*1024*eps, 1024, 1024}, true},
		{[]float64{1024, 1024 + 8*1024*eps, 1024, 1024}, false},
		{[]float64{1e-10, -1e-10, 0, 0}, false},
		{[]float64{0.5, -0.5}, false},
	} {
		spread, bound, got := scoresConstant(tc.scores)
		if got != tc.want {
			t.Errorf("scoresConstant(%v) = %v (spread %g, bound %g), want %v", tc.scores, got, spread, bound, tc.want)
		}
	}
}
