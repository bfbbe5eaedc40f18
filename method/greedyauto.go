package method

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/greedytl/greedytl"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register(Registration{
		Name:            "greedytl-auto",
		Label:           "GreedyTL-auto",
		Color:           rgb(0xff, 0x98, 0x96),
		SelectsFeatures: true,
		Description:     "Recommended: the mean of GreedyTL (γ = 1), GreedyTL preferring sources (γ = 0.5), the LogME-chosen source and ridge on every column, all fitted to the labels by least squares",
		New:             func() Method { return newGreedyAuto() },
		Decode:          decodeAuto,
	})
}

// autoGammas are the feature factors of greedytl-auto's GreedyTL members:
// the paper's γ = 1 and greedytl-sp's default γ = 0.5.
var autoGammas = []float64{1, 0.5}

// GreedyAuto is the method "greedytl-auto", the recommended method: the
// mean of the decision values of a small committee fitted on the same
// training examples,
//
//	f = (f_γ=1 + f_γ=0.5 + f_LogME + f_ridge) / 4,
//
// where f_γ is exact GreedyTL (the paper's λ = 1, δ = 1e-4) with feature
// factor γ — γ = 1 treats features and sources alike, γ = 0.5 prefers
// sources (greedytl-sp); f_LogME = a·z + b is the single source with the
// highest LogME evidence on the training examples (the source of the
// method logme-source), z its standardised score, with a and b its
// ordinary least-squares line to the ±1 labels; and f_ridge is ridge
// regression on every standardised column with λ by leave-one-out (the
// method rls-srcfeat: GreedyTL with every column selected). The members
// span the two axes on which the data decide: how much to trust the
// features against the sources (γ = 1, γ = 0.5, one source) and how much
// to select (one column, a greedy few, all).
//
// (logme-source itself uses the class-balanced line, as best-source does;
// inside the committee the unweighted fit keeps the training classes'
// proportions in the member's offset, which puts its threshold higher —
// fewer false positives — when there are fewer positives than negatives.
// With m₊ = m₋ the two lines are the same. Both this and the ridge member
// were chosen on development runs that share no split, source or negative
// pool with the published results: docs/results/README.md.)
//
// Why a committee and not a choice. Which member is best depends on the
// data (docs/results): with image descriptors, whose single features are
// weak, the sources carry the information and a well-chosen source is
// hard to beat with 2 positives; with bag-of-words text single features
// are strong evidence and GreedyTL over all columns, or a dense model with
// more positives, wins. Choosing between them from 2 + 10 examples, by a
// nested leave-one-out, was measured to be noisy (its earlier design,
// docs/results/gamma): the choice is right on average but wrong often
// enough to lose 1–4 points to the best fixed member. The mean needs no
// choice: every member is a least-squares fit of the ±1 labels, so their
// decision values share a scale, and where one member errs on an example
// the others, built on other columns, usually do not. Equal weights are
// the committee's only setting; they were not tuned
// (docs/results/README.md, "How greedytl-auto was found").
//
// Members are dropped when they cannot exist: without sources there is no
// LogME member and γ only rescales λ (one GreedyTL member, γ = 1); without
// features there is one GreedyTL member (sources only); the ridge member
// is always there (on the features alone without sources, on the sources
// alone without features). Fit returns an error for invalid training data (see the package
// doc) and when a member's fit fails.
//
// The model is a Linear model — the mean of the members' linear functions
// of the standardised columns — so it predicts, saves and inspects like
// the other baselines. Its hyperparameters are "lambda" and "delta" (the
// GreedyTL members'), "ridge_lambda" (the ridge member's), "members"
// (their number) and, with sources, "source" (the LogME member's index).
type GreedyAuto struct {
	// Gammas are the feature factors of the GreedyTL members (≥ 0, at
	// least one).
	Gammas []float64
	// Options holds the GreedyTL members' other options (λ, δ, max_k); its
	// FeatureFactor is replaced by each member's, and Sample and
	// AutoLambda must be unset.
	Options greedytl.Options
}

func newGreedyAuto() *GreedyAuto {
	return &GreedyAuto{Gammas: autoGammas, Options: greedytl.DefaultOptions()}
}

// Name returns "greedytl-auto".
func (a *GreedyAuto) Name() string { return "greedytl-auto" }

// Needs reports that greedytl-auto needs nothing beyond the labelled
// sample.
func (a *GreedyAuto) Needs() Needs { return Needs{} }

// Fit fits the members and returns their mean (see GreedyAuto).
func (a *GreedyAuto) Fit(ctx context.Context, train Data, _ Extra) (Model, error) {
	_, d, n, err := checkTrain(train)
	if err != nil {
		return nil, err
	}
	if err := a.check(); err != nil {
		return nil, err
	}
	gammas := a.Gammas
	if d == 0 || n == 0 {
		gammas = []float64{1}
	}
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	sum := st.linear(a.Name(), make([]float64, d), make([]float64, n), a.Options.Lambda)
	if n == 0 {
		sum.WH = nil
	}
	if d == 0 {
		sum.WX = nil
	}
	members := 0
	for _, g := range gammas {
		o := a.Options
		o.FeatureFactor = g
		gm, err := greedytl.Fit(ctx, matrixOrNil(train.X), matrixOrNil(train.H), train.Y, o)
		if err != nil {
			return nil, fmt.Errorf("method: greedytl-auto: GreedyTL γ = %v: %w", g, err)
		}
		addGreedy(sum, gm)
		members++
	}
	if n > 0 {
		best, _, err := logmeChoose(ctx, st.zh, train.Y)
		if err != nil {
			return nil, fmt.Errorf("method: greedytl-auto: %w", err)
		}
		// The LogME member is fitted to the labels by ordinary least
		// squares (not logme-source's class-balanced line).
		col := mat.Col(nil, best, st.zh)
		a, b := leastSquaresLine(col, train.Y)
		sum.WH[best] += a
		sum.B += b
		sum.Hyper["source"] = float64(best)
		members++
	}
	// The ridge member: every column, λ by leave-one-out (rls-srcfeat).
	lambda, w, err := ridgeByLOO(concatColumns(st.zx, st.zh), train.Y, nil)
	if err != nil {
		return nil, fmt.Errorf("method: greedytl-auto: ridge: %w", err)
	}
	for j := range sum.WX {
		sum.WX[j] += w[j]
	}
	for j := range sum.WH {
		sum.WH[j] += w[d+j]
	}
	sum.Hyper["ridge_lambda"] = lambda
	members++
	scale := 1 / float64(members)
	for j := range sum.WX {
		sum.WX[j] *= scale
	}
	for j := range sum.WH {
		sum.WH[j] *= scale
	}
	sum.B *= scale
	sum.Hyper["delta"] = a.Options.Delta
	sum.Hyper["members"] = float64(members)
	if err := sum.check(); err != nil {
		return nil, fmt.Errorf("method: greedytl-auto: %w", err)
	}
	return sum, nil
}

// addGreedy adds GreedyTL's predictor gm to the linear model l, whose
// scalers are those of the same training sample: a selected column c with
// weight w, centre μ and scale s contributes w·(v − μ)/s =
// w·(σ_c/s)·(v − μ_c)/σ_c + w·(μ_c − μ)/s, (μ_c, σ_c) being l's statistics
// (μ = μ_c up to rounding; s = σ_c/γ for a feature).
func addGreedy(l *Linear, gm *greedytl.Model) {
	for j, c := range gm.Selected {
		w, mu, s := gm.Weights[j], gm.Mean[j], gm.Scale[j]
		sc, ws := l.H, l.WH
		if c.Kind == greedytl.Feature {
			sc, ws = l.X, l.WX
		}
		ws[c.Index] += w * sc.Scale[c.Index] / s
		l.B += w * (sc.Mean[c.Index] - mu) / s
	}
}

// check validates the members' settings.
func (a *GreedyAuto) check() error {
	if len(a.Gammas) == 0 {
		return fmt.Errorf("method: greedytl-auto: no GreedyTL member (empty Gammas)")
	}
	for _, g := range a.Gammas {
		if !(g >= 0 && !math.IsInf(g, 1)) {
			return fmt.Errorf("method: greedytl-auto: γ = %v, want ≥ 0 and finite", g)
		}
	}
	if a.Options.Sample != 0 || a.Options.AutoLambda {
		return fmt.Errorf("method: greedytl-auto: Options.Sample and Options.AutoLambda must be unset")
	}
	return nil
}

// decodeAuto decodes a greedytl-auto model file: a Linear model's file
// (see Linear).
func decodeAuto(doc json.RawMessage) (Model, error) {
	m, err := decodeLinear(doc)
	if err != nil {
		return nil, fmt.Errorf("greedytl-auto: %w", err)
	}
	return m, nil
}
