package method

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLogMEReference compares logme with the reference implementation of
// LogME (You et al. 2021, github.com/thuml/LogME, LogME.py, numpy), run on
// the same features F_ik = (k+1)·sin(1.3i + 0.7k + 0.2) (+1 on the last of
// several columns) and labels 1 for i ≡ 0 (mod 3) and i = 1, else 0.
func TestLogMEReference(t *testing.T) {
	for _, tc := range []struct {
		m, D int
		want float64
	}{
		{12, 2, -1.031794860696988},
		{20, 3, -1.0369976709029038},
		{7, 1, -1.0675946681954906},
	} {
		F := mat.NewDense(tc.m, tc.D, nil)
		targets := [][]float64{make([]float64, tc.m), make([]float64, tc.m)}
		for i := range tc.m {
			for k := range tc.D {
				v := float64(k+1) * math.Sin(1.3*float64(i)+0.7*float64(k)+0.2)
				if k == tc.D-1 && tc.D > 1 {
					v++
				}
				F.Set(i, k, v)
			}
			if i%3 == 0 || i == 1 {
				targets[1][i] = 1
			} else {
				targets[0][i] = 1
			}
		}
		got, err := logme(F, targets)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > 1e-9*math.Abs(tc.want) {
			t.Errorf("m = %d, D = %d: LogME %.15g, reference %.15g", tc.m, tc.D, got, tc.want)
		}
	}
}

// TestLogMESourcePicksTheInformativeSource checks that the source most
// correlated with the labels has the highest evidence and is the one
// logme-source keeps, with best-source's rescaling.
func TestLogMESourcePicksTheInformativeSource(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 20 {
		c := newConformanceCase(uint64(100+trial), 12, 2, 3, 30)
		// Source 7 becomes the label plus a little noise: informative even
		// with 2 positives.
		for i, y := range c.train.Y {
			dense(c.train.H).Set(i, 7, 5*y+0.1*rng.NormFloat64())
		}
		model := mustFit(t, "logme-source", c)
		if got := model.Hyperparameters()["source"]; got != 7 {
			t.Fatalf("trial %d: kept source %v, want 7", trial, got)
		}
		for j, w := range model.SourceWeights() {
			if (j == 7) != (w != 0) {
				t.Fatalf("trial %d: source weight %d is %v", trial, j, w)
			}
		}
	}
}
