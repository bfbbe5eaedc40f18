package method

import (
	"math"
	"slices"
	"testing"
)

// y2of12 is 2 positives against 10 negatives, the protocol's smallest case.
var y2of12 = []float64{1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}

// scaled returns c·y.
func scaled(y []float64, c float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = c * v
	}
	return out
}

// with returns a copy of p with p[i] = v.
func with(p []float64, i int, v float64) []float64 {
	q := slices.Clone(p)
	q[i] = v
	return q
}

func TestChooseByLOO(t *testing.T) {
	allNeg := scaled(slices.Repeat([]float64{1}, 12), -0.5)
	// Both positives right, three negatives wrong: plain error 3/12 = 0.25
	// (worse than all-negative's 2/12), balanced error 0.15 (better than 0.5).
	threeFP := slices.Clone(scaled(y2of12, 0.5))
	for _, i := range []int{2, 3, 4} {
		threeFP[i] = 0.1
	}
	good := scaled(y2of12, 0.9)
	tests := []struct {
		name  string
		y     []float64
		cands []looCandidate
		tie   looTieBreak
		want  int
	}{
		{"balanced 0-1 error beats the all-negative model", y2of12,
			[]looCandidate{{1e4, allNeg}, {1, threeFP}}, tieSquared, 1},
		{"a score of 0 is negative", y2of12,
			[]looCandidate{{1e4, with(good, 0, 0)}, {1, with(good, 2, 1e-9)}}, tieSquared, 1},
		{"0-1 error before the secondary loss", y2of12,
			[]looCandidate{{1, with(good, 0, -0.01)}, {2, scaled(y2of12, 50)}}, tieSquared, 1},
		{"equal 0-1 error: lower squared residual wins over regularisation", y2of12,
			[]looCandidate{{1e4, scaled(y2of12, 0.2)}, {1e-4, good}}, tieSquared, 1},
		{"equal errors and losses: larger regularisation wins", y2of12,
			[]looCandidate{{0.1, good}, {10, good}, {1, good}}, tieSquared, 1},
		{"losses equal within tolerance count as tied", y2of12,
			[]looCandidate{{0.1, good}, {10, with(good, 5, -0.9*(1+1e-13))}}, tieSquared, 1},
		{"a loss lower beyond tolerance wins", y2of12,
			[]looCandidate{{0.1, good}, {10, with(good, 5, -0.9*(1-1e-6))}}, tieSquared, 0},
		{"equal strengths: the first listed wins", y2of12,
			[]looCandidate{{1, good}, {1, good}}, tieSquared, 0},
		{"log-loss rewards confident right answers", y2of12,
			[]looCandidate{{10, good}, {1, scaled(y2of12, 5)}}, tieLogLoss, 1},
		{"squared loss penalises overshooting", y2of12,
			[]looCandidate{{10, good}, {1, scaled(y2of12, 5)}}, tieSquared, 0},
		{"a non-finite candidate is skipped", y2of12,
			[]looCandidate{{1, with(good, 3, math.NaN())}, {1e-4, allNeg}}, tieSquared, 1},
		{"class balance in the secondary loss", []float64{1, -1, -1, -1},
			// Same 0-1 error (0). A misses the positive's target by 0.8 and
			// fits the negatives, B fits the positive and misses every
			// negative by 0.6: balanced losses 0.64/2 > 0.36/2 choose B,
			// where plain means, 0.64/4 < 3·0.36/4, would choose A.
			[]looCandidate{{1, []float64{0.2, -1, -1, -1}}, {0.5, []float64{1, -0.4, -0.4, -0.4}}}, tieSquared, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chooseByLOO(tc.y, tc.cands, tc.tie)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("chose %d, want %d", got, tc.want)
			}
		})
	}
}

func TestChooseByLOOErrors(t *testing.T) {
	if _, err := chooseByLOO(y2of12, []looCandidate{{1, scaled(y2of12, math.Inf(1))}}, tieSquared); err == nil {
		t.Error("no error when every candidate is non-finite")
	}
	if _, err := chooseByLOO(y2of12, nil, tieSquared); err == nil {
		t.Error("no error without candidates")
	}
	for _, tc := range []struct {
		name  string
		y     []float64
		cands []looCandidate
	}{
		{"length mismatch", y2of12, []looCandidate{{1, []float64{1}}}},
		{"one class", []float64{1, 1}, []looCandidate{{1, []float64{1, 1}}}},
		{"label 0", []float64{1, 0}, []looCandidate{{1, []float64{1, 1}}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			chooseByLOO(tc.y, tc.cands, tieSquared)
		}()
	}
}

func TestLooLosses(t *testing.T) {
	y := []float64{1, -1, -1}
	pred := []float64{-1, 0.5, -1}
	e01, sq, ok := looLosses(y, pred, 1, 2, tieSquared)
	// Positive wrong (1/1), one of two negatives wrong (1/2).
	if !ok || e01 != 0.75 {
		t.Errorf("0-1 error %v (ok %v), want 0.75", e01, ok)
	}
	// Squared: positive (1−(−1))² = 4; negatives 2.25 and 0, mean 1.125.
	if want := (4 + 1.125) / 2; math.Abs(sq-want) > 1e-15 {
		t.Errorf("squared loss %v, want %v", sq, want)
	}
	_, ll, _ := looLosses(y, pred, 1, 2, tieLogLoss)
	want := (math.Log(1+math.E) + (math.Log(1+math.Exp(0.5))+math.Log(1+math.Exp(-1)))/2) / 2
	if math.Abs(ll-want) > 1e-15 {
		t.Errorf("log-loss %v, want %v", ll, want)
	}
	// log(1+e^t) must not overflow.
	if v := logOnePlusExp(1000); v != 1000 {
		t.Errorf("logOnePlusExp(1000) = %v", v)
	}
	if v := logOnePlusExp(-1000); v != 0 {
		t.Errorf("logOnePlusExp(-1000) = %v", v)
	}
}

func TestGrids(t *testing.T) {
	want := []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3, 1e4}
	if !slices.Equal(lambdaGrid, want) || !slices.Equal(cGrid, want) {
		t.Errorf("λ grid %v, C grid %v", lambdaGrid, cGrid)
	}
	if !slices.Equal(tauGrid, want[1:8]) {
		t.Errorf("τ grid %v", tauGrid)
	}
}
