package greedytl

import (
	"github.com/greedytl/greedytl/grid"
)

// Options are GreedyTL's hyperparameters. Start from DefaultOptions: the
// zero Options is not the default (its λ = 0 is rejected by Fit, and its
// FeatureFactor = 0 is meaningful: it excludes every feature).
type Options struct {
	// Lambda is the ridge parameter λ > 0 (the paper uses 1). Ignored when
	// AutoLambda is set.
	Lambda float64 `json:"lambda"`

	// AutoLambda chooses λ from the grid 1e-4, 1e-3, …, 1e4 by the
	// leave-one-out error of the fitted path (the final step's, or the
	// lowest along the path when StopAtMinLOO is set); ties go to the
	// larger λ. The model's Options.Lambda records the λ chosen.
	AutoLambda bool `json:"auto_lambda"`

	// Delta stops the greedy loop when the best candidate would lower the
	// mean regularised error e(S)/m by less than Delta: that candidate is
	// not added. Delta = 0 never stops by gain. Default 1e-4 (the paper's).
	Delta float64 `json:"delta"`

	// MaxK caps the number of selected columns; 0 means no cap.
	MaxK int `json:"max_k"`

	// Sample = 0 searches all candidates at every step (exact GreedyTL).
	// Sample = r > 0 scores only r candidates drawn uniformly without
	// replacement from the unselected ones at every step (GreedyTL-59 for
	// r = 59, the paper's choice: the best of 59 draws is in the top 5%
	// with probability 0.95).
	Sample int `json:"sample"`

	// Seed seeds the randomised search (Sample > 0): the same seed and
	// data give the same model.
	Seed uint64 `json:"seed"`

	// FeatureFactor γ ≥ 0 multiplies every standardised feature column
	// (sources are left at unit variance). 1 treats features and sources
	// alike, as the paper does; γ > 1 favours features, γ < 1 favours
	// sources, and γ = 0 uses sources only.
	FeatureFactor float64 `json:"gamma"`

	// StopAtMinLOO truncates the path at the step with the lowest
	// leave-one-out error (the earliest such step on ties) and refits the
	// weights of that prefix.
	StopAtMinLOO bool `json:"stop_at_min_loo"`
}

// DefaultOptions returns the paper's settings: λ = 1, δ = 1e-4, γ = 1, exact
// search, no cap on the number of columns.
func DefaultOptions() Options {
	return Options{Lambda: 1, Delta: 1e-4, FeatureFactor: 1}
}

// DrawsAtRandom reports whether a fit with these options on d feature and
// n source columns may draw at random (so that Seed matters): Sample > 0
// below the candidates the randomised search draws from — the sources
// alone when FeatureFactor is 0 (newSample) —; with Sample at least that
// many, every step scores every candidate (pick's pickAll) and Seed
// changes nothing.
func (o Options) DrawsAtRandom(d, n int) bool {
	candidates := d + n
	if o.FeatureFactor == 0 {
		candidates = n
	}
	return o.Sample > 0 && o.Sample < candidates
}

// lambdaGrid is the grid searched by AutoLambda.
var lambdaGrid = grid.Regularization()
