package method

import (
	"context"
	"fmt"
	"slices"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register(Registration{
		Name:        "stacked-logistic",
		Description: "Stacked logistic: L2 logistic regression on every feature and every source score [X, H], classes balanced, C by stratified cross-validation",
		New:         func() Method { return stackedLogistic{} },
		Decode:      decodeLinear,
	})
}

// stackedLogistic is the method "stacked-logistic": the "stack every
// model's output" reuse of model-market libraries, as a practitioner sets it
// up with scikit-learn — LogisticRegressionCV(Cs = 1e-4 … 1e4,
// class_weight = "balanced", scoring = "balanced_accuracy",
// solver = "liblinear") on the standardised features and source scores:
//
//	min_w ½||w||² + C Σ_i ζ_i log(1 + exp(−y_i(wᵀz_i + b)))
//
// with ζ_i = m/(2m_class) (each class carries half the loss) and the bias b
// a feature of value 1 regularised like the weights (liblinear -s 0 -B 1),
// solved by linear.L2RLR to a relative gradient norm of 1e-4.
//
// C ∈ {1e-4, …, 1e4} is chosen by stratified k-fold cross-validation,
// k = min(5, m₊, m₋) (5 folds when both classes have 5 examples, one
// positive per fold with 2 positives), the folds drawn with Extra.Seed by
// linear.StratifiedFolds from the rows in content order (contentOrder), so
// that a permutation of the training rows gives the same model bit for bit:
// each fold's model is fitted — standardisation included — on the other
// folds, and its decision values on the fold are scored by chooseByLOO's
// rule (class-balanced 0-1 error, then class-balanced log-loss, then the
// smaller C). With a single example in a class no fold split exists and C
// is scikit-learn's default, 1.
//
// The model is a Linear model (source weights: the weights of the source
// columns); its hyperparameter is "C". With no sources it uses the features
// alone, with no features the sources alone.
type stackedLogistic struct{}

// stackedFolds is the largest number of cross-validation folds.
const stackedFolds = 5

// stackedMaxIter caps the solver's iterations (linear.L2RLR's default, given
// explicitly so that a NotConverged report names it); a variable only so
// that a test can force the cap.
var stackedMaxIter = linear.L2RLR.DefaultMaxIter()

// Name returns "stacked-logistic".
func (stackedLogistic) Name() string { return "stacked-logistic" }

// Needs reports that stacked-logistic needs nothing beyond the labelled
// sample and draws at random (Extra.Seed deals the folds).
func (stackedLogistic) Needs() Needs { return Needs{Seed: true} }

// Fit trains the model (see stackedLogistic). The model reports the fits
// that stopped at the solver's cap (NotConverged).
func (s stackedLogistic) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	m, d, n, err := startFit(ctx, s, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, s, &result, &err)
	// Every fit reads the rows in content order, so that the folds, and the
	// model, depend on the set of training rows, not on their order (see
	// contentOrder).
	train, order := inContentOrder(train, train.Y)
	// The model's standardisation, fitted first so that a column that
	// cannot be standardised is named by its matrix and index (the folds
	// standardise the columns of [X, H], whose indices run on into H's).
	sx, sh := standardize.Fit(train.X), standardize.Fit(train.H)
	if err := checkScalers(sx, sh); err != nil {
		return nil, err
	}
	raw := concatColumns(dense(train.X), dense(train.H))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pos, neg, _ := classCounts(train.Y)
	runs := &solverRuns{solver: fmt.Sprintf("%v (liblinear -s 0, at most %d iterations)", linear.L2RLR, stackedMaxIter)}
	c := 1.0
	if k := min(stackedFolds, pos, neg); k >= 2 {
		fold := linear.StratifiedFolds(train.Y, k, extra.Seed)
		cands := make([]looCandidate, len(cGrid))
		for g, cg := range cGrid {
			cands[g] = looCandidate{Strength: 1 / cg, Pred: make([]float64, m)}
		}
		for f := range k {
			in, out := linear.FoldRows(fold, f)
			sc, model, err := s.fitRows(ctx, raw, train.Y, in)
			if err != nil {
				return nil, fmt.Errorf("method: stacked-logistic: %w", nameFoldError(newFoldError(err, sc, in), d, order))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			zo, err := sc.TransformContext(ctx, rowsOf(raw, out))
			if err != nil {
				return nil, fmt.Errorf("method: stacked-logistic: %w", nameFoldError(newFoldError(err, sc, out), d, order))
			}
			for g, cg := range cGrid {
				w, converged, err := model(cg)
				if err != nil {
					return nil, err
				}
				runs.add(converged)
				for k, i := range out {
					cands[g].Pred[i] = decision(zo.RawRowView(k), w)
				}
			}
		}
		best, err := chooseByLOO(train.Y, cands, tieLogLoss)
		if err != nil {
			return nil, fmt.Errorf("method: stacked-logistic: %w", err)
		}
		c = cGrid[best]
	}
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	_, model, err := s.fitRows(ctx, raw, train.Y, all)
	if err != nil {
		return nil, fmt.Errorf("method: stacked-logistic: %w", err)
	}
	w, converged, err := model(c)
	if err != nil {
		return nil, err
	}
	runs.add(converged)
	lin := &Linear{
		Name:  "stacked-logistic",
		X:     sx,
		H:     sh,
		WX:    slices.Clone(w[:d]),
		WH:    slices.Clone(w[d : d+n]),
		B:     w[d+n],
		Hyper: map[string]float64{"C": c},
	}
	lin.notConverged = runs.report(converged)
	if d == 0 {
		lin.WX = nil
	}
	if n == 0 {
		lin.WH = nil
	}
	if err := lin.check(); err != nil {
		return nil, fmt.Errorf("method: stacked-logistic: %w", err)
	}
	return lin, nil
}

// fitRows standardises the rows of raw (the columns [X, H]) on their own
// statistics and returns the scaler and a function that returns the weights (one per column, then the bias) fitted at a
// given C, and whether the solver converged. The rows must hold both classes.
// Its error is the context's or the standardiser's, unwrapped, with the
// scaler it fitted, for the caller to name (newFoldError for a fold's rows).
func (stackedLogistic) fitRows(ctx context.Context, raw *mat.Dense, y []float64, rows []int) (standardize.Scaler, func(c float64) ([]float64, bool, error), error) {
	sub := rowsOf(raw, rows)
	if err := ctx.Err(); err != nil {
		return standardize.Scaler{}, nil, err
	}
	sc := standardize.Fit(sub)
	if err := ctx.Err(); err != nil {
		return standardize.Scaler{}, nil, err
	}
	z, err := sc.TransformContext(ctx, sub)
	if err != nil {
		return sc, nil, err
	}
	if err := ctx.Err(); err != nil {
		return standardize.Scaler{}, nil, err
	}
	ys := make([]float64, len(rows))
	var pos float64
	for k, i := range rows {
		ys[k] = y[i]
		if y[i] > 0 {
			pos++
		}
	}
	neg := float64(len(rows)) - pos
	prob := &linear.Problem{X: sparse.FromDense(z), Y: ys, Bias: 1}
	_, p := z.Dims()
	fit := func(c float64) ([]float64, bool, error) {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		mdl, err := linear.Train(ctx, prob, linear.Params{
			Solver: linear.L2RLR, C: c, Eps: 1e-4, MaxIter: stackedMaxIter,
			WeightPos: float64(len(rows)) / (2 * pos), WeightNeg: float64(len(rows)) / (2 * neg),
		})
		if err != nil {
			return nil, false, fmt.Errorf("method: stacked-logistic: C = %g: %w", c, err)
		}
		sign := 1.0 // Train lists the labels as they come; the weights favour Labels[0]
		if mdl.Labels[0] != 1 {
			sign = -1
		}
		w := make([]float64, p+1)
		for j := range w {
			w[j] = sign * mdl.W[j]
		}
		return w, mdl.Converged, nil
	}
	return sc, fit, nil
}

// decision returns wᵀz + w_b for weights w (the columns of z, then the
// bias).
func decision(z, w []float64) float64 {
	f := w[len(z)]
	for j, v := range z {
		f += w[j] * v
	}
	return f
}

// rowsOf returns the rows of a listed in rows, as a new matrix.
func rowsOf(a *mat.Dense, rows []int) *mat.Dense {
	_, c := a.Dims()
	out := mat.NewDense(len(rows), c, nil)
	for k, i := range rows {
		out.SetRow(k, a.RawRowView(i))
	}
	return out
}
