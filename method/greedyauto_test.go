package method

import (
	"context"
	"math"
	"testing"

	"github.com/greedytl/greedytl"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// TestGreedyAutoIsTheMeanOfItsMembers checks greedytl-auto against its
// definition: its scores are the mean of the scores of the methods
// greedytl (γ = 1), greedytl-sp (γ = 0.5) and rls-srcfeat fitted on the
// same sample and of the ordinary least-squares line (gonum's
// stat.LinearRegression) of the training labels on the score of the source
// logme-source chooses — with only the members that exist without sources
// or without features.
func TestGreedyAutoIsTheMeanOfItsMembers(t *testing.T) {
	base := newConformanceCase(21, 20, 5, 12, 9)
	noFeatures := base.mapColumns(func(*mat.Dense) *mat.Dense { return nil }, identity)
	const logmeLine = "OLS on logme-source's source"
	for _, tc := range []struct {
		what    string
		c       conformanceCase
		members []string
	}{
		{"features and sources", base, []string{"greedytl", "greedytl-sp", logmeLine, "rls-srcfeat"}},
		{"two positives", newConformanceCase(22, 12, 2, 30, 40), []string{"greedytl", "greedytl-sp", logmeLine, "rls-srcfeat"}},
		{"a single positive", newConformanceCase(23, 11, 1, 8, 6), []string{"greedytl", "greedytl-sp", logmeLine, "rls-srcfeat"}},
		{"no sources", base.withoutSources(), []string{"greedytl", "rls-srcfeat"}},
		{"no features", noFeatures, []string{"greedytl", logmeLine, "rls-srcfeat"}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			auto := mustFit(t, "greedytl-auto", tc.c)
			got := mustPredict(t, auto, tc.c.test)
			want := make([]float64, len(got))
			for _, name := range tc.members {
				var f []float64
				if name == logmeLine {
					j := int(mustFit(t, "logme-source", tc.c).Hyperparameters()["source"])
					h := mat.Col(nil, j, tc.c.train.H)
					b, a := stat.LinearRegression(h, tc.c.train.Y, nil, false)
					f = mat.Col(nil, j, tc.c.test.H)
					for i, v := range f {
						f[i] = a*v + b
					}
					if hp := auto.Hyperparameters(); hp["source"] != float64(j) {
						t.Errorf("source = %v, logme-source chooses %d", hp["source"], j)
					}
				} else {
					f = mustPredict(t, mustFit(t, name, tc.c), tc.c.test)
				}
				for i, v := range f {
					want[i] += v / float64(len(tc.members))
				}
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-10*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("score %d: %v, the mean of %v gives %v", i, got[i], tc.members, want[i])
				}
			}
			if hp := auto.Hyperparameters(); hp["members"] != float64(len(tc.members)) {
				t.Errorf("members = %v, want %d", hp["members"], len(tc.members))
			}
		})
	}
}

// TestGreedyAutoChecksSettings checks that invalid member settings are
// errors, not panics or silent defaults.
func TestGreedyAutoChecksSettings(t *testing.T) {
	c := newConformanceCase(5, 16, 4, 4, 4)
	for _, tc := range []struct {
		what string
		a    *GreedyAuto
	}{
		{"no γ", &GreedyAuto{Options: greedytl.DefaultOptions()}},
		{"negative γ", &GreedyAuto{Gammas: []float64{-1}, Options: greedytl.DefaultOptions()}},
		{"NaN γ", &GreedyAuto{Gammas: []float64{math.NaN()}, Options: greedytl.DefaultOptions()}},
		{"sampled search", &GreedyAuto{Gammas: []float64{1}, Options: func() greedytl.Options {
			o := greedytl.DefaultOptions()
			o.Sample = 59
			return o
		}()}},
		{"λ = 0", &GreedyAuto{Gammas: []float64{1}, Options: greedytl.Options{Delta: 1e-4, FeatureFactor: 1}}},
	} {
		if _, err := tc.a.Fit(context.Background(), c.train, c.extra); err == nil {
			t.Errorf("%s: no error", tc.what)
		}
	}
}
