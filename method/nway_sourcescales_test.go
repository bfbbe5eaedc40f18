package method

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// TestNWaySourceScales: given the sources' own statistics
// (Extra.SourceScales), greedytl-nway standardises H with them, not with
// statistics of its training rows: a model fitted on H with column j
// mapped to a_j·H_j + b_j and the statistics mapped alike (mean a_j·μ_j +
// b_j, scale a_j·σ_j) scores test rows mapped alike as the first model
// scores the original ones. Without them the moderated scales, which
// shrink the columns' log variances toward their mean, are not invariant
// so (checked: the property is not trivial). A scaler with the wrong
// number of columns is refused, and the caller's is not modified.
func TestNWaySourceScales(t *testing.T) {
	const d, n = 25, 30
	train, y := lineProblem(1, 4, 3, d, n)
	test, _ := lineProblem(2, 4, 5, d, n)
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := make([]float64, n), make([]float64, n)
	own := standardize.Scaler{Mean: make([]float64, n), Scale: make([]float64, n)}
	for j := range n {
		a[j], b[j] = math.Exp(2*rng.NormFloat64()), 5*rng.NormFloat64()
		own.Mean[j], own.Scale[j] = rng.NormFloat64(), math.Exp(rng.NormFloat64())
	}
	mapped := func(data Data) Data {
		H := mat.DenseCopyOf(data.H)
		for i := range H.RawMatrix().Rows {
			for j := range n {
				H.Set(i, j, a[j]*H.At(i, j)+b[j])
			}
		}
		return Data{X: data.X, H: H}
	}
	ownMapped := standardize.Scaler{Mean: make([]float64, n), Scale: make([]float64, n)}
	for j := range n {
		ownMapped.Mean[j], ownMapped.Scale[j] = a[j]*own.Mean[j]+b[j], a[j]*own.Scale[j]
	}
	scores := func(train, test Data, sc *standardize.Scaler) *mat.Dense {
		t.Helper()
		model, err := greedyNWay{}.FitMulti(context.Background(), train, y, Extra{Seed: 7, SourceScales: sc})
		if err != nil {
			t.Fatal(err)
		}
		s, err := model.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	maxDiff := func(p, q *mat.Dense) float64 {
		var diff mat.Dense
		diff.Sub(p, q)
		return mat.Norm(&diff, math.Inf(1))
	}
	before := standardize.Scaler{Mean: slices.Clone(own.Mean), Scale: slices.Clone(own.Scale)}
	if dv := maxDiff(scores(train, test, &own), scores(mapped(train), mapped(test), &ownMapped)); dv > 1e-9 {
		t.Errorf("with the sources' statistics, the scores moved by %g when H and the statistics were mapped alike", dv)
	}
	if !slices.Equal(own.Mean, before.Mean) || !slices.Equal(own.Scale, before.Scale) {
		t.Error("the caller's SourceScales were modified")
	}
	if dv := maxDiff(scores(train, test, nil), scores(mapped(train), mapped(test), nil)); dv < 1e-6 {
		t.Errorf("without the sources' statistics the scores moved by only %g: the test cannot tell them apart", dv)
	}
	short := standardize.Scaler{Mean: own.Mean[1:], Scale: own.Scale[1:]}
	if _, err := (greedyNWay{}).FitMulti(context.Background(), train, y, Extra{SourceScales: &short}); err == nil || !strings.Contains(err.Error(), "SourceScales") {
		t.Errorf("a scaler of %d columns for H's %d: error %v", n-1, n, err)
	}
	negative := standardize.Scaler{Mean: own.Mean, Scale: slices.Clone(own.Scale)}
	negative.Scale[3] = -1
	if _, err := (greedyNWay{}).FitMulti(context.Background(), train, y, Extra{SourceScales: &negative}); err == nil || !strings.Contains(err.Error(), "SourceScales") {
		t.Errorf("a negative scale: error %v", err)
	}
}
