package method

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// logistic implements the paper's feature-selection baselines: sparse
// logistic regression on all the standardised columns z = [zx, zh], with a
// bias feature of value 1 that is regularised like the weights (liblinear's
// -B 1 convention):
//
//	l1-logistic   min_w ||w||₁ + C Σ_i log(1 + exp(−y_i wᵀz_i))
//	elastic-net   min_w ½||w||₁ + ¼||w||² + C Σ_i log(1 + exp(−y_i wᵀz_i))
//	              (scikit-learn's l1_ratio = 0.5, with the bias as a
//	              penalised column)
//
// l1-logistic is fitted as scikit-learn's standard use fits it,
// LogisticRegression(penalty="l1", solver="liblinear") with its defaults:
// liblinear's -s 6 (linear.L1RLR, newGLMNET) on every column, started from
// w = 0 at every C, stopped by liblinear's rule with scikit-learn's tol =
// 1e-4 as eps (the subgradient's 1-norm at most
// 1e-4·max(min(#pos, #neg), 1)/m times its value at w = 0) or after 100
// Newton steps, visiting the coordinates in a random order seeded by
// Extra.Seed (scikit-learn's random_state), the same seed for every fit so
// that a cell's result is reproducible. On these few-example, separable
// problems that rule stops far from the L1 optimum (on COIL-100 HOG with
// 79 sources and 10 positives the objectives were 1.07, 1.34 and 23 times
// the optimal value at C = 1, 10 and 10⁴), and the early stop acts as a
// regulariser of its own, which is what the practitioner's L1-logistic is:
// on 20 COIL-100 HOG problems (5 targets × 2 splits × 2 and 10 positives)
// it reaches 66.8 and 86.7 (mean over 4 seeds) where the exact L1 solution
// reaches 56.6 and 84.2 (docs/results, "L1-logistic against scikit-learn's
// standard use").
//
// "l1-logistic:exact=1" and elastic-net are solved by linear.ElasticNetLR
// (L1Ratio 1 and 0.5) to its certified relative duality gap (1e-4), so the
// model is the minimiser of the stated objective at every C: the estimator
// the paper names, solved exactly (L1's known weakness with many correlated
// columns, which the elastic net does not share, shows in its accuracy).
//
// C ∈ {1e-4, …, 1e4} is chosen by chooseByLOO (ties broken by the
// class-balanced LOO log-loss, then by the smaller C) on leave-one-out
// decision values obtained by refitting the whole procedure without each
// example i: the standardisation statistics too are those of the other
// m − 1 examples. Keeping the whole sample's statistics would make the
// left-out row minus the sum of the others (the columns are centred), and a
// nearly interpolating fit (large C, more columns than examples) would then
// "predict" it from the others' labels — on a balanced sample (10 positives,
// 10 negatives) with the right sign whatever the data, so that the largest
// C won by an artefact. Above logisticLOOMaxRows (200) examples the
// held-out decision values are those of stratified 5-fold
// cross-validation instead, each fold's model refitted alike on the other
// four folds, the rows read in content order so that their order does not
// matter (logisticFolds; the constant's comment argues the threshold). The
// folds are fitted in parallel on GOMAXPROCS workers. The classes are not
// reweighted in the loss (the paper does not; with 2 positives against 10
// negatives a small C predicts every example negative, which the
// class-balanced selection rule then rejects). When
// leaving example i out leaves one class only (a single positive), its LOO
// decision value is 0 at every C (as are a fold's when the other folds
// hold one class only): no model of the two classes exists, and
// a constant does not favour any C.
//
// The exact fits follow the C grid upwards and solve on a working set of
// columns: the previous C's non-zero weights (and, for a held-out fold,
// the whole sample's at the same C) plus the columns whose gradient most
// violates the optimality conditions there, enlarged until no column
// outside it violates them, |∂L/∂w_j| ≤ l1_ratio. A weight outside the set
// is then optimal at zero, and the solution — with the solver's
// certificate — is that of the whole problem; a C at which w = 0
// satisfies the conditions is not solved at all. Above logisticLOOMaxRows
// examples each solve starts from the weights at hand (warm): the first
// working set's from the previous C's weights, or from the whole sample's
// at the same C for a held-out fold, and each enlarged set's from the
// smaller set's solution; up to the threshold every solve starts from
// w = 0, as the published fits did. Both stop at the same certificate (a
// relative duality gap of 1e-4), so the start moves the weights only
// within it; with many examples it saves most of the work: C·Σ_i grows
// with m, the solutions move further from 0 and the solver needs 12–30
// Newton steps a C from 0 against 6–11 from the previous C (COIL-100 HOG,
// 80 sources, m = 1,000–5,000), and a fold started from the whole
// sample's weights a fifth of its coordinate updates from 0 (m = 2,000).
//
// The model is a Linear model (source weights: the weights of the source
// columns); its hyperparameters are "C" and "l1_ratio". Duplicated columns
// are harmless (the L1 penalty picks any split of the weight, the elastic
// net an even one), constant columns standardise to zeros and get weight
// zero; with no sources the model uses the features alone, with no
// features the sources alone.
type logistic struct {
	name    string
	l1Ratio float64
	eps     float64 // the exact solver's relative duality gap; 0 selects its default (1e-4)
	// standard selects scikit-learn's standard use for l1-logistic:
	// liblinear's -s 6 with scikit-learn's stopping rule (see
	// standardL1Params) on every column, from w = 0, at every C.
	standard bool
	seed     uint64 // the coordinate order's seed of the standard solver (Extra.Seed)
	// warm starts each exact solve from the weights at hand instead of
	// w = 0 (see the type's comment); Fit sets it above
	// logisticLOOMaxRows examples.
	warm bool
}

// Scikit-learn's LogisticRegression(penalty="l1", solver="liblinear") with
// its defaults passes tol = 1e-4 as liblinear's eps and max_iter = 100 as
// its cap on Newton steps (sklearn/svm/_base.py, _fit_liblinear), with the
// intercept as a bias feature of value 1 (intercept_scaling = 1),
// penalised like the weights.
const sklearnL1Tol = 1e-4

// Variables only so that a test can force the caps.
var (
	// sklearnL1MaxIter is scikit-learn's cap on Newton steps.
	sklearnL1MaxIter = 100
	// enetMaxIter caps the exact solver's outer steps (linear.ElasticNetLR's
	// default, given explicitly so that a NotConverged report names it).
	enetMaxIter = linear.ElasticNetLR.DefaultMaxIter()
)

// standardL1Params returns the parameters of scikit-learn's standard
// L1-logistic fit at cost c: liblinear's L1RLR (-s 6, newGLMNET) stopped
// when the minimum-norm subgradient's 1-norm falls to
// tol·max(min(#pos, #neg), 1)/m times its value at w = 0, or after 100
// Newton steps, visiting coordinates in an order drawn from seed.
func standardL1Params(c float64, seed uint64) linear.Params {
	return linear.Params{Solver: linear.L1RLR, C: c, Eps: sklearnL1Tol, MaxIter: sklearnL1MaxIter, Seed: seed}
}

func init() {
	Register(Registration{
		Name:            "l1-logistic",
		SelectsFeatures: true,
		Description:     "L1-regularised logistic regression on [X, H] (bias penalised, -B 1) as scikit-learn's liblinear solver fits it (tol " + HelpNumber(sklearnL1Tol) + ", seeded), C by LOO (" + HelpNumber(logisticFoldCount) + "-fold above " + HelpNumber(logisticLOOMaxRows) + " examples); exact=1 solves to a certified duality gap",
		New:             func() Method { return logistic{name: "l1-logistic", l1Ratio: 1, standard: true} },
		Decode:          decodeLinear,
		Configure:       configureL1Logistic,
	})
	Register(Registration{
		Name:            "elastic-net",
		SelectsFeatures: true,
		Description:     "elastic-net logistic regression on [X, H] (l1_ratio " + HelpNumber(linear.DefaultL1Ratio) + ", bias penalised), C by LOO (" + HelpNumber(logisticFoldCount) + "-fold above " + HelpNumber(logisticLOOMaxRows) + " examples)",
		New:             func() Method { return logistic{name: "elastic-net", l1Ratio: linear.DefaultL1Ratio} },
		Decode:          decodeLinear,
	})
}

// Name returns "l1-logistic" or "elastic-net".
func (l logistic) Name() string { return l.name }

// Needs reports that the logistic baselines need nothing beyond the
// labelled sample; l1-logistic's standard solver draws at random
// (Extra.Seed seeds its coordinate order), the exact one (exact=1,
// elastic-net) nothing.
func (l logistic) Needs() Needs { return Needs{Seed: l.standard} }

// params returns the solver's parameters at cost c.
func (l logistic) params(c float64) linear.Params {
	return linear.Params{Solver: linear.ElasticNetLR, C: c, L1Ratio: l.l1Ratio, Eps: l.eps, MaxIter: enetMaxIter}
}

// solverName names the solver of the fits and its stopping rule, for a
// NotConverged report.
func (l logistic) solverName() string {
	if l.standard {
		return fmt.Sprintf("%v (liblinear -s 6) with scikit-learn's stopping rule (tol %g, at most %d Newton steps)", linear.L1RLR, sklearnL1Tol, sklearnL1MaxIter)
	}
	return fmt.Sprintf("%v (to its relative duality gap, at most %d outer steps)", linear.ElasticNetLR, enetMaxIter)
}

// Fit trains the model (see the type's comment). It returns an error for
// the inputs checkTrain rejects, when ctx is done and when a solver fails.
// The model reports the solves that stopped at their cap (NotConverged): of
// the whole sample's path and of the leave-one-out folds', each C's final
// solve a run.
func (l logistic) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	l.seed = extra.Seed
	m, d, n, err := startFit(ctx, l, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, l, &result, &err)
	var order []int // the caller's row of each row of train; nil: the same
	if m > logisticLOOMaxRows {
		// Above the threshold every fit reads the rows in content order,
		// so that the folds, and the model, depend on the set of rows,
		// not on their order (see contentOrder).
		train, order = inContentOrder(train, train.Y)
		l.warm = true
	}
	sx, sh := standardize.Fit(train.X), standardize.Fit(train.H)
	z, err := standardisedColumns(sx, sh, train)
	if err != nil {
		return nil, err
	}
	runs := &solverRuns{solver: l.solverName()}
	path, converged, err := l.path(ctx, z, train.Y, nil)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	for _, c := range converged {
		runs.add(c)
	}
	fold, k := logisticFolds(train.Y)
	pred, err := l.heldOut(ctx, concatColumns(dense(train.X), dense(train.H)), train.Y, fold, k, path, runs)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, nameFoldError(err, d, order))
	}
	cands := make([]looCandidate, len(cGrid))
	for g, c := range cGrid {
		cands[g] = looCandidate{Strength: 1 / c, Pred: pred[g]}
	}
	best, err := chooseByLOO(train.Y, cands, tieLogLoss)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	w := path[best]
	model := &Linear{
		Name:  l.name,
		X:     sx,
		H:     sh,
		WX:    slices.Clone(w[:d]),
		WH:    slices.Clone(w[d : d+n]),
		B:     w[d+n],
		Hyper: map[string]float64{"C": cGrid[best], "l1_ratio": l.l1Ratio},
	}
	model.notConverged = runs.report(converged[best])
	if d == 0 {
		model.WX = nil
	}
	if n == 0 {
		model.WH = nil
	}
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	return model, nil
}

// logisticLOOMaxRows is the most examples on which C is chosen by
// leave-one-out; above it, by stratified logisticFolds-fold
// cross-validation (logisticFolds).
//
// Leave-one-out refits the whole C path once per example: m + 1 path fits,
// each at least O(m·p), so its cost grows as m² at least — 75 s of CPU
// without finishing at m = 1,000 with 1,100 columns, where 5 folds take 6
// path fits. Its value is on few examples, where a fold of a fifth would
// take a large share of the 2–10 positives out of every fit and choose C
// for a smaller problem than the one fitted; with more than 200 examples a
// fifth held out leaves at least 160 to fit on. 200 is the largest sample
// any published experiment fits these methods on (the N-way study's
// 20-way, 10-shot episodes one class against the rest; the binary
// protocol's are 12–20 examples: 2, 5 or 10 positives and 10 negatives),
// so every published result keeps its leave-one-out choice bit for bit.
const logisticLOOMaxRows = 200

// logisticFoldCount is the number of cross-validation folds above
// logisticLOOMaxRows (scikit-learn's default cv).
const logisticFoldCount = 5

// logisticFolds returns the fold (0 … k−1) of each example of the checked
// ±1 labels y, and k, for the choice of C: with at most
// logisticLOOMaxRows examples, one fold per example (leave-one-out: fold
// i is example i); with more, logisticFoldCount stratified folds,
// linear.DealFolds of the positives' and then the negatives' rows (nil
// rng: DealFolds' fixed generator, that of seed 0, not the fit's seed, so
// elastic-net stays seedless and the folds are a function of the rows). Fit gives the rows in content order above the
// threshold, so the folds depend on the set of rows, not on their order.
func logisticFolds(y []float64) ([]int, int) {
	m := len(y)
	if m <= logisticLOOMaxRows {
		fold := make([]int, m)
		for i := range fold {
			fold[i] = i
		}
		return fold, m
	}
	pos, neg := classRows(y)
	return linear.DealFolds([][]int{pos, neg}, logisticFoldCount, nil), logisticFoldCount
}

// heldOut returns the held-out decision values pred[g][i] of example i at
// C = cGrid[g], fold[i] being example i's fold (0 … k−1, logisticFolds):
// raw holds the unstandardised columns [X, H] of the sample with labels y,
// and each fold's model standardises the other folds' examples with their
// own statistics, fits them along the grid (with full[g], the whole
// sample's weights, as a working-set hint) and scores the fold's examples.
// The values are 0 when the other folds hold one class only. The folds run
// in parallel on GOMAXPROCS workers (parallel.ForLowest): the error is the
// lowest failing fold's, whichever fails first in time (Fit is
// deterministic, its error included), or ctx.Err() once ctx is done, and
// a failure stops the folds above it; runs counts their solves.
func (l logistic) heldOut(ctx context.Context, raw *mat.Dense, y []float64, fold []int, k int, full [][]float64, runs *solverRuns) ([][]float64, error) {
	m := len(y)
	pred := make([][]float64, len(cGrid))
	for g := range pred {
		pred[g] = make([]float64, m)
	}
	err := parallel.ForLowest(ctx, k, 0, func(ctx context.Context, f int) error {
		return foldFunc(l, ctx, raw, y, fold, f, full, pred, runs)
	})
	if err != nil {
		return nil, err
	}
	return pred, nil
}

// foldFunc is logistic.fitFold, a variable that tests replace to order
// the folds' failures in time.
var foldFunc = logistic.fitFold

// fitFold fits the procedure on the examples outside fold f of fold —
// standardisation included — at every C of the grid and stores the
// decision values of fold f's examples i in pred[g][i]; runs counts its
// solves.
func (l logistic) fitFold(ctx context.Context, raw *mat.Dense, y []float64, fold []int, f int, full [][]float64, pred [][]float64, runs *solverRuns) error {
	_, p := raw.Dims()
	in, out := linear.FoldRows(fold, f)
	rest := rowsOf(raw, in)
	yRest := make([]float64, len(in))
	var pos int
	for k, i := range in {
		yRest[k] = y[i]
		if y[i] > 0 {
			pos++
		}
	}
	if pos == 0 || pos == len(in) {
		return nil // one class left: the decision values stay 0
	}
	sc := standardize.Fit(rest)
	z, err := sc.TransformContext(ctx, rest)
	if err != nil {
		return newFoldError(err, sc, in)
	}
	zo, err := sc.TransformContext(ctx, rowsOf(raw, out))
	if err != nil {
		return newFoldError(err, sc, out)
	}
	path, converged, err := l.path(ctx, z, yRest, full)
	if err != nil {
		return err
	}
	for _, c := range converged {
		runs.add(c)
	}
	for k, i := range out {
		xi := zo.RawRowView(k)
		for g, w := range path {
			pred[g][i] = w[p] + blas64.Dot(blas64.Vector{N: p, Inc: 1, Data: xi}, blas64.Vector{N: p, Inc: 1, Data: w[:p]})
		}
	}
	return nil
}

// foldError is an error of standardising the rows of a cross-validation
// fold with the statistics of the rows outside it (the choice of C), in
// the rows and columns of the training block [X, H] the folds split:
// nameFoldError names the input, row and column as the caller counts them.
type foldError struct {
	// Overflow is the value whose standardised value overflows, its Row
	// and Col those of the block; nil when the rows outside the fold
	// cannot standardise column Col at all.
	Overflow *standardize.OverflowError
	// Col is the column of the block whose deviations from its mean, over
	// the rows outside the fold, overflow float64 (Overflow nil).
	Col int
	// Err is the standardiser's error.
	Err error
}

func (e *foldError) Error() string { return e.Err.Error() }

// Unwrap returns the standardiser's error.
func (e *foldError) Unwrap() error { return e.Err }

// newFoldError returns err, the error of standardising the rows rows of
// the block with the scaler sc of the rows outside a fold, as a
// *foldError in the block's rows, or err itself when it is neither an
// overflow nor a column sc cannot standardise (a context's error).
func newFoldError(err error, sc standardize.Scaler, rows []int) error {
	var o *standardize.OverflowError
	if errors.As(err, &o) {
		at := *o
		at.Row = rows[o.Row]
		return &foldError{Overflow: &at, Err: err}
	}
	for j := range sc.Mean {
		if math.IsNaN(sc.Mean[j]) { // standardize.Fit's mark
			return &foldError{Col: j, Err: err}
		}
	}
	return err
}

// nameFoldError returns err, an error of logistic.heldOut, naming a
// *foldError's value as the caller's input counts it: "X" or "H" (the
// first d columns of the block are X's), its column there and the
// caller's row (order[i], the caller's row of the block's row i, or i
// when order is nil), as the rest of the package names a value of the
// training sample; any other error is returned as it is.
func nameFoldError(err error, d int, order []int) error {
	var fe *foldError
	if !errors.As(err, &fe) {
		return err
	}
	input, col := "X", fe.Col
	if fe.Overflow != nil {
		col = fe.Overflow.Col
	}
	if col >= d {
		input, col = "H", col-d
	}
	if fe.Overflow == nil {
		return &foldColumnError{Input: input, Col: col, Err: fe.Err}
	}
	at := *fe.Overflow
	at.Col = col
	if order != nil {
		at.Row = order[at.Row]
	}
	return fmt.Errorf("choosing C by cross-validation, with the statistics of the rows outside its fold: %s %w", input, &at)
}

// foldColumnError is nameFoldError's error for a column that the rows
// outside a fold cannot standardise, named as the caller counts it.
type foldColumnError struct {
	// Input is "X" or "H", and Col the column there.
	Input string
	Col   int
	// Err is the standardiser's error, which counts the columns of the
	// block [X, H].
	Err error
}

func (e *foldColumnError) Error() string {
	return fmt.Sprintf("choosing C by cross-validation: %s column %d cannot be standardised on the rows outside a fold: their deviations from their mean overflow float64", e.Input, e.Col)
}

// Unwrap returns the standardiser's error.
func (e *foldColumnError) Unwrap() error { return e.Err }

// path returns the weights (one per column of z, then the bias) of the
// model at every C of cGrid, fitted on the standardised columns z with
// labels y (both classes present), and whether each C's solve converged.
// hint, when not nil, holds for every C weights of a similar problem whose
// non-zero columns seed the working set.
func (l logistic) path(ctx context.Context, z *mat.Dense, y []float64, hint [][]float64) ([][]float64, []bool, error) {
	if l.standard {
		return l.standardPath(ctx, z, y)
	}
	s := newWorkingSetSolver(z, y, l.l1Ratio)
	s.warm = l.warm
	out := make([][]float64, len(cGrid))
	converged := make([]bool, len(cGrid))
	prev := make([]float64, s.p+1) // the previous C's weights; 0 below the grid
	for g, c := range cGrid {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var seed []float64
		if hint != nil {
			seed = hint[g]
		}
		w, conv, err := s.solve(ctx, l.params(c), prev, seed)
		if err != nil {
			return nil, nil, fmt.Errorf("C = %g: %w", c, err)
		}
		out[g], prev, converged[g] = w, w, conv
	}
	return out, converged, nil
}

// standardPath returns, for every C of cGrid, the weights (one per column
// of z, then the bias) of scikit-learn's standard L1-logistic fit
// (standardL1Params) on all the columns of z with labels y, each started
// from w = 0 as scikit-learn's grid search fits them, and whether each
// converged; one linear.Trainer builds the solver's copy of the problem
// once for every C.
func (l logistic) standardPath(ctx context.Context, z *mat.Dense, y []float64) ([][]float64, []bool, error) {
	_, p := z.Dims()
	all := make([]int, p)
	for j := range all {
		all[j] = j
	}
	tr := linear.NewTrainer(&linear.Problem{X: denseColumnsCSR(z, all), Y: y, Bias: 1})
	out := make([][]float64, len(cGrid))
	converged := make([]bool, len(cGrid))
	for g, c := range cGrid {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		w := make([]float64, p+1)
		conv, _, err := trainFrom(ctx, tr, standardL1Params(c, l.seed), all, w, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("C = %g: %w", c, err)
		}
		out[g], converged[g] = w, conv
	}
	return out, converged, nil
}

// configureL1Logistic is l1-logistic's Configure: the key "exact" (0 or 1)
// selects, with 1, the exact L1 solution (linear.ElasticNetLR at L1Ratio 1
// solved to its certified duality gap on working sets, the minimiser of the
// stated objective) instead of scikit-learn's early-stopped liblinear fit.
func configureL1Logistic(s Spec) (Method, error) {
	exact, err := flagSetting(s, "exact")
	if err != nil {
		return nil, err
	}
	l := logistic{name: "l1-logistic", l1Ratio: 1, standard: true}
	if exact {
		l.standard = false
		l.name = "l1-logistic:exact=1"
	}
	return l, nil
}

// workingSetSolver minimises the elastic-net logistic objective
// ρ||w||₁ + (1−ρ)/2·||w||² + C Σ_i log(1 + exp(−y_i(wᵀz_i + w_b))) (the bias
// w_b penalised like the weights; ρ = l1Ratio > 0) on the rows z_i of a
// dense matrix by solving linear.ElasticNetLR on working sets of columns
// (see the logistic type's comment).
type workingSetSolver struct {
	z      *mat.Dense
	y      []float64
	m, p   int
	l1     float64
	zero   float64   // max_j |Σ_i y_i z̃_ij|/2 over the columns and the bias: w = 0 is optimal iff C·zero ≤ ρ
	margin []float64 // scratch: wᵀz_i
	coef   []float64 // scratch: the loss's derivative in f(z_i)
	grad   []float64 // scratch: the loss's gradient in w
	in     []bool    // scratch: membership of the working set
	warm   bool      // start each solve from the weights at hand, not from 0 (logistic.warm)
	sign   float64   // the orientation of the last fit's weights (trainFrom's), 0 before the first: that solve starts from 0
}

// workingSetGrowth is the least number of violating columns added to the
// working set at a time.
const workingSetGrowth = 16

func newWorkingSetSolver(z *mat.Dense, y []float64, l1Ratio float64) *workingSetSolver {
	m, p := z.Dims()
	s := &workingSetSolver{
		z: z, y: y, m: m, p: p, l1: l1Ratio,
		margin: make([]float64, m),
		coef:   make([]float64, m),
		grad:   make([]float64, p),
		in:     make([]bool, p),
	}
	blas64.Gemv(blas.Trans, 1, z.RawMatrix(), blas64.Vector{N: m, Inc: 1, Data: y}, 0, blas64.Vector{N: p, Inc: 1, Data: s.grad})
	var ysum float64
	for _, v := range y {
		ysum += v
	}
	s.zero = math.Abs(ysum) / 2
	for _, g := range s.grad {
		s.zero = math.Max(s.zero, math.Abs(g)/2)
	}
	return s
}

// solve returns the weights (p columns, then the bias) minimising the
// objective with parameters params (ElasticNetLR at C = params.C), starting
// the working set from the non-zero columns of prev (the solution at a
// smaller C, or zero) and of hint (may be nil), and the columns that
// violate the optimality conditions most at hint, or at prev without one.
// It reports whether the last solve, on the final working set, converged.
func (s *workingSetSolver) solve(ctx context.Context, params linear.Params, prev, hint []float64) ([]float64, bool, error) {
	w := make([]float64, s.p+1)
	if params.C*s.zero <= s.l1 {
		return w, true, nil // the optimality conditions hold at w = 0
	}
	if s.warm {
		// The start: the hint (the whole sample's weights at this C), else
		// the previous C's weights; every non-zero weight of both is in
		// the first working set.
		copy(w, prev)
		if hint != nil {
			copy(w, hint)
		}
	}
	clear(s.in)
	var set []int
	add := func(j int) {
		if !s.in[j] {
			s.in[j] = true
			set = append(set, j)
		}
	}
	for j := range s.p {
		if prev[j] != 0 || (hint != nil && hint[j] != 0) {
			add(j)
		}
	}
	if hint != nil {
		s.addViolators(params.C, hint, &set, add)
	} else {
		s.addViolators(params.C, prev, &set, add)
	}
	for {
		slices.Sort(set)
		converged, err := s.solveOn(ctx, params, set, w)
		if err != nil {
			return nil, false, err
		}
		if !s.addViolators(params.C, w, &set, add) {
			return w, converged, nil
		}
	}
}

// addViolators computes the loss gradient at w and adds to the working set
// the columns outside it whose gradient exceeds ρ in magnitude — the
// largest max(workingSetGrowth, len(*set)) of them. It reports whether it
// added any.
func (s *workingSetSolver) addViolators(c float64, w []float64, set *[]int, add func(int)) bool {
	zr := s.z.RawMatrix()
	blas64.Gemv(blas.NoTrans, 1, zr, blas64.Vector{N: s.p, Inc: 1, Data: w[:s.p]}, 0, blas64.Vector{N: s.m, Inc: 1, Data: s.margin})
	for i, yi := range s.y {
		f := s.margin[i] + w[s.p]
		// d/df of C·log(1 + exp(−y f)) = −C·y·σ(−y f).
		s.coef[i] = -c * yi * sigmoid(-yi*f)
	}
	blas64.Gemv(blas.Trans, 1, zr, blas64.Vector{N: s.m, Inc: 1, Data: s.coef}, 0, blas64.Vector{N: s.p, Inc: 1, Data: s.grad})
	var viol []int
	for j, g := range s.grad {
		if !s.in[j] && math.Abs(g) > s.l1 {
			viol = append(viol, j)
		}
	}
	if len(viol) == 0 {
		return false
	}
	if k := max(workingSetGrowth, len(*set)); len(viol) > k {
		slices.SortFunc(viol, func(a, b int) int {
			ga, gb := math.Abs(s.grad[a]), math.Abs(s.grad[b])
			switch {
			case ga > gb:
				return -1
			case ga < gb:
				return 1
			}
			return a - b
		})
		viol = viol[:k]
	}
	for _, j := range viol {
		add(j)
	}
	return true
}

// solveOn solves the problem restricted to the columns set (sorted) and the
// bias, from w's weights on the set when s.warm (else from 0), writes the
// solution into w (zero outside the set) and reports whether the solver
// converged.
func (s *workingSetSolver) solveOn(ctx context.Context, params linear.Params, set []int, w []float64) (bool, error) {
	var init []float64
	if s.warm && s.sign != 0 {
		init = make([]float64, len(set)+1)
		for k, j := range set {
			init[k] = s.sign * w[j]
		}
		init[len(set)] = s.sign * w[s.p]
	}
	tr := linear.NewTrainer(&linear.Problem{X: denseColumnsCSR(s.z, set), Y: s.y, Bias: 1})
	converged, sign, err := trainFrom(ctx, tr, params, set, w, init)
	s.sign = sign
	return converged, err
}

// denseColumnsCSR returns the columns set of z, in that order, as a sparse
// matrix (zeros left out).
func denseColumnsCSR(z *mat.Dense, set []int) *sparse.CSR {
	m, _ := z.Dims()
	x := &sparse.CSR{R: m, C: len(set), Ptr: make([]int, m+1)}
	x.Ind = make([]int, 0, m*len(set))
	x.Val = make([]float64, 0, m*len(set))
	for i := range m {
		row := z.RawRowView(i)
		for k, j := range set {
			if v := row[j]; v != 0 {
				x.Ind = append(x.Ind, k)
				x.Val = append(x.Val, v)
			}
		}
		x.Ptr[i+1] = len(x.Ind)
	}
	return x
}

// trainFrom trains tr's problem (labels ±1, the columns of a matrix whose
// columns set they are, and a bias feature) with params, the solver
// started from init (linear.Trainer.TrainFrom; nil: from 0), and writes
// the weights favouring +1 into w: column set[k]'s weight at set[k], the
// bias last (len(w)−1), zero elsewhere. It reports whether the solver
// converged (linear.Model.Converged) and returns the sign that turns the
// solver's weights into those favouring +1 (1 or −1), which orients the
// next start, and linear.Train's errors, ctx's included.
func trainFrom(ctx context.Context, tr *linear.Trainer, params linear.Params, set []int, w, init []float64) (bool, float64, error) {
	fit, err := tr.TrainFrom(ctx, params, init)
	if err != nil {
		return false, 0, err
	}
	// Train lists the labels ±1 as [1 −1], so the weights favour +1; the
	// check keeps this independent of that rule.
	sign := 1.0
	if fit.Labels[0] != 1 {
		sign = -1
	}
	clear(w)
	for k, j := range set {
		w[j] = sign * fit.W[k]
	}
	w[len(w)-1] = sign * fit.W[len(set)]
	return fit.Converged, sign, nil
}

// sigmoid returns 1/(1 + exp(−t)) without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// standardisedColumns returns [X.Transform(data.X), H.Transform(data.H)]
// (m × (d+n)), either part possibly empty. Its errors name the matrix,
// with this package's prefix (standardiseInput's); Transform checks each scaler (Scaler.Check)
// before its matrix.
func standardisedColumns(sx, sh standardize.Scaler, data Data) (*mat.Dense, error) {
	zx, err := standardiseInput("X", data.X, sx)
	if err != nil {
		return nil, err
	}
	zh, err := standardiseInput("H", data.H, sh)
	if err != nil {
		return nil, err
	}
	return concatColumns(zx, zh), nil
}

// checkScalers returns the error standardisedColumns returns for scalers
// fitted on the data they standardise (finite, as checkTrain requires,
// whose values their own means and deviations standardise to at most
// √m), without standardising: a column of X, then of H, that cannot be
// standardised (Scaler.Check), the matrix named with this package's
// prefix.
func checkScalers(sx, sh standardize.Scaler) error {
	if err := sx.Check(); err != nil {
		return fmt.Errorf("method: X: %w", err)
	}
	if err := sh.Check(); err != nil {
		return fmt.Errorf("method: H: %w", err)
	}
	return nil
}
