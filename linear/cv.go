package linear

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/parallel"
	"gonum.org/v1/gonum/floats"
)

// warmStart carries a solution from one C to the next along an ascending C
// grid: the weights and, for the dual solvers, the dual variables, and why
// the solver stopped.
type warmStart struct {
	c     float64
	w     []float64
	alpha []float64
	why   stop
}

// warmFunc trains one binary (±1) problem continuing from prev (nil: cold
// start). p has its defaults applied. It records why the solver stopped
// (warmStart.why), which CrossValidateStops reports fold by fold.
type warmFunc func(prob *Problem, p Params, prev *warmStart) *warmStart

// warmSolvers holds the solvers with a warm start better than the primal
// one of solveFunc (the dual solvers restart from their dual variables).
// Solvers not listed here are warm-started through solveFunc's init.
var warmSolvers = map[Solver]warmFunc{}

// primalStart reports whether solver s is warm-started from primal
// weights: a registered solver without a warm start of its own
// (warmSolvers), whose solveFunc takes the previous weights as init —
// trainWarm's start, and the only solvers TrainFrom gives a start to.
func primalStart(s Solver) bool {
	_, known := solvers[s]
	_, warm := warmSolvers[s]
	return known && !warm
}

// dualSolver is a dual coordinate-descent solver (-s 1, -s 3, -s 7): it
// runs from the dual point alpha0 (nil: the solver's own start), visiting
// the coordinates in orders drawn from rng, and returns w, the final α and
// why it stopped.
type dualSolver func(prob *Problem, p Params, alpha0 []float64, rng shuffler) (w, alpha []float64, why stop)

// solve is the solveFunc of a dual solver. A primal warm start cannot be
// turned into dual variables, so init is ignored; cross-validation
// warm-starts through warm instead.
func (s dualSolver) solve(prob *Problem, p Params, _ []float64) ([]float64, stop, error) {
	w, _, why := s(prob, p, nil, newShuffler(p.Seed))
	return w, why, nil
}

// warm is the warmFunc of a dual solver: it continues from the dual
// variables of the previous C on a path scaled by the ratio of the C
// values, which keeps them feasible (strictly inside (0, C_i) for the
// logistic dual) and keeps coordinates at the bound C at the new bound.
func (s dualSolver) warm(prob *Problem, p Params, prev *warmStart) *warmStart {
	var alpha []float64
	if prev != nil && prev.alpha != nil {
		alpha = make([]float64, len(prev.alpha))
		r := p.C / prev.c
		for i, a := range prev.alpha {
			alpha[i] = a * r
		}
	}
	w, alpha, why := s(prob, p, alpha, newShuffler(p.Seed))
	return &warmStart{c: p.C, w: w, alpha: alpha, why: why}
}

// trainWarm trains the ±1 problem prob (a fold's own copy, whose context
// it sets) continuing from prev. It returns ctx's error when ctx is done
// before the solver has finished.
func trainWarm(ctx context.Context, prob *Problem, p Params, prev *warmStart) (*warmStart, error) {
	prob.ctx = ctx
	var (
		next *warmStart
		err  error
	)
	if f, ok := warmSolvers[p.Solver]; ok {
		next = f(prob, p, prev)
	} else {
		var init []float64
		if prev != nil {
			init = prev.w
		}
		var (
			w   []float64
			why stop
		)
		w, why, err = solvers[p.Solver](prob, p, init)
		next = &warmStart{c: p.C, w: w, why: why}
	}
	if err := fitctx.Stopped(ctx, err, trainCaller); err != nil {
		return nil, err // the solver's, or it stopped early (errStopped, or weights)
	}
	if err := checkWeights(next.w, prob); err != nil {
		return nil, fmt.Errorf("linear: %v: %w", p.Solver, err)
	}
	return next, nil
}

// cvCaller names cross-validation in the error of an interrupted run
// ("linear: cross-validation: fit interrupted: context canceled"), as
// trainCaller names training.
const cvCaller = "linear: cross-validation"

// trainFoldFunc trains cross-validation fold k's problem (trainWarm): a
// variable that tests replace to order the folds' failures in time.
var trainFoldFunc = func(ctx context.Context, _ int, prob *Problem, p Params, prev *warmStart) (*warmStart, error) {
	return trainWarm(ctx, prob, p, prev)
}

// Metric measures how well scores (positive: predict +1) match labels y
// (+1 or −1); higher is better. metric.BalancedAccuracy is one.
type Metric func(scores, y []float64) (float64, error)

// Accuracy is the Metric of the fraction of examples whose score has the
// sign of the label; a score of exactly 0 predicts −1, and so does a NaN
// score (it is not > 0), as metric.BalancedAccuracy counts it. It returns an error
// when the lengths differ or there are no examples.
func Accuracy(scores, y []float64) (float64, error) {
	if len(scores) != len(y) {
		return 0, fmt.Errorf("linear: %d scores for %d labels", len(scores), len(y))
	}
	if len(y) == 0 {
		return 0, errors.New("linear: no examples")
	}
	var right int
	for i, s := range scores {
		if (s > 0) == (y[i] > 0) {
			right++
		}
	}
	return float64(right) / float64(len(y)), nil
}

// cvSetup is the validated input of the cross-validation functions.
type cvSetup struct {
	prob   *Problem  // the solvers' copy, labels mapped to ±1 (Labels[0] → +1)
	p      Params    // with defaults applied
	sign   float64   // orients decision values towards the greater label
	target []float64 // ±1 labels, +1 for the greater label
	fold   []int     // fold of each row
}

// values returns the size of the problem, rows × columns, which decides
// whether its folds are trained in parallel (parallel.Workers).
func (s *cvSetup) values() int {
	r, c := s.prob.dims()
	return r * c
}

// newCVSetup validates the arguments of a cross-validation and splits the
// rows into folds. The fold count, a caller's mistake, is checked against
// the labels before the solvers' copy of prob is made (which may convert
// Dense rows and stop there when ctx is done).
func newCVSetup(ctx context.Context, prob *Problem, p Params, folds int, seed uint64) (*cvSetup, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if prob != nil && (folds < 2 || folds > len(prob.Y)) {
		return nil, fmt.Errorf("linear: %d folds for %d examples, want 2 ≤ folds ≤ examples", folds, len(prob.Y))
	}
	labels, bin, err := solverProblem(ctx, prob, p.Solver)
	if err != nil {
		return nil, err
	}
	y := bin.Y
	s := &cvSetup{
		prob: bin,
		p:    p.withDefaults(),
		sign: 1,
		fold: stratifiedFolds(y, folds, seed),
	}
	if labels[0] < labels[1] {
		s.sign = -1
	}
	s.target = make([]float64, len(y))
	for i, v := range y {
		s.target[i] = s.sign * v
	}
	return s, nil
}

// StratifiedFolds returns the fold (0 … k−1) of each example of the binary
// labels y, each class spread over the folds as evenly as possible: the
// examples labelled as y[0] and then the others, each class in a random
// order drawn from PCG(seed, seed), dealt to the folds in turn (DealFolds).
// The folds depend only on which examples share a label, not on the label
// values. CrossValidate uses these folds; callers that cross-validate a
// procedure of their own (standardisation included) use them to fold
// alike. It panics when k < 1, as DealFolds does.
func StratifiedFolds(y []float64, k int, seed uint64) []int { return stratifiedFolds(y, k, seed) }

// stratifiedFolds assigns each example to one of k folds so that each class
// is spread as evenly as possible: DealFolds with the class of the first
// example first and the other second, rng PCG(seed, seed). The folds depend
// only on which examples share a class, not on the label values.
func stratifiedFolds(y []float64, k int, seed uint64) []int {
	var first, other []int
	for i, v := range y {
		if v == y[0] {
			first = append(first, i)
		} else {
			other = append(other, i)
		}
	}
	return DealFolds([][]int{first, other}, k, foldRNG(seed))
}

// foldRNG is the generator StratifiedFolds deals its folds with for seed.
func foldRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// DealFolds returns the fold (0 … k−1) of each of the n rows that classes
// partition, n being the classes' total length: the rows of classes[0],
// then of classes[1], …, each class's in a random order drawn from rng, are
// dealt to folds 0, 1, …, k−1, 0, 1, … in turn, each class continuing
// where the one before stopped. So each class's counts in the folds differ
// by at most one, and so do the folds' sizes. It draws from rng only by one
// rng.Shuffle per class, in order (none for a class of fewer than two
// rows), so the same rng state and classes give the same folds; it shuffles
// copies and leaves classes unchanged. StratifiedFolds and the multi-class
// methods' cross-validation fold with it. A nil rng stands for
// rand.New(rand.NewPCG(0, 0)), the generator StratifiedFolds draws from
// with seed 0, so a nil rng gives reproducible folds too.
//
// It panics when k < 1 or when classes do not partition 0 … n−1 (a row
// outside it, or one listed twice).
func DealFolds(classes [][]int, k int, rng *rand.Rand) []int {
	if k < 1 {
		panic(fmt.Sprintf("linear: DealFolds into %d folds, want at least 1", k))
	}
	n := 0
	for _, rows := range classes {
		n += len(rows)
	}
	if rng == nil {
		rng = foldRNG(0)
	}
	fold := make([]int, n)
	for i := range fold {
		fold[i] = -1
	}
	next := 0
	for c, rows := range classes {
		rows = slices.Clone(rows)
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for _, i := range rows {
			if i < 0 || i >= n || fold[i] >= 0 {
				panic(fmt.Sprintf("linear: DealFolds: class %d lists row %d, which is outside 0 … %d or listed before", c, i, n-1))
			}
			fold[i] = next
			next = (next + 1) % k
		}
	}
	return fold
}

// FoldRows returns, in order, the rows outside fold f (in) and those in it
// (out), given each row's fold (as StratifiedFolds and DealFolds give it).
func FoldRows(fold []int, f int) (in, out []int) {
	for i, fi := range fold {
		if fi == f {
			out = append(out, i)
		} else {
			in = append(in, i)
		}
	}
	return in, out
}

// split returns the problem of the rows outside fold k and the rows in it.
func (s *cvSetup) split(k int) (train *Problem, test []int) {
	rows, test := FoldRows(s.fold, k)
	y := make([]float64, len(rows))
	for t, i := range rows {
		y[t] = s.prob.Y[i]
	}
	return s.prob.withRows(rows, y), test
}

// HeldOutError is the error of a cross-validation (CrossValidate,
// CrossValidateStops, SelectC, SelectCBy) whose decision value of a
// held-out example is not finite: the finite weights of the other folds
// times the example's features overflow float64 (a row of 1e300 beside
// rows of 1e-9: +Inf − +Inf, NaN), which Accuracy and
// metric.BalancedAccuracy would count as a −1. A caller that knows what
// the problem's rows are names the example by setting Row on the error
// it got (package source: a dataset's row).
type HeldOutError struct {
	// Example is the example's row of the Problem, from 0.
	Example int
	// Row names the example in the message in place of "example N
	// (counting from 1)", when set.
	Row string
	// Value is its decision value, NaN or ±Inf.
	Value float64
	// MaxWeight is the largest |w| of the fold's weights.
	MaxWeight float64
	// C is the cost of the fold's fit when the cross-validation tried a
	// grid of them (SelectC, SelectCBy); 0 otherwise.
	C float64
}

// Error says which example's decision value overflowed, and what to do.
func (e *HeldOutError) Error() string {
	what := fmt.Sprintf("example %d (counting from 1)", e.Example+1)
	if e.Row != "" {
		what = e.Row
	}
	msg := fmt.Sprintf("linear: cross-validation: the decision value of held-out %s is %v: the weights of the other folds (largest |w| %.3g) times its features overflow float64; rescale the features", what, e.Value, e.MaxWeight)
	if e.C != 0 {
		msg += fmt.Sprintf(" (C = %v)", e.C)
	}
	return msg
}

// heldOut writes into dec the decision values of a fold's held-out rows
// test under the fold's weights w, fitted at c (0: the one C of the
// cross-validation), oriented by s.sign, or returns a *HeldOutError for
// the first that is not finite: checkWeights checks the training rows'
// values only.
func (s *cvSetup) heldOut(d *design, test []int, w, dec []float64, c float64) error {
	for _, i := range test {
		v := d.dot(i, w)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &HeldOutError{Example: i, Value: v, MaxWeight: floats.Norm(w, math.Inf(1)), C: c}
		}
		dec[i] = s.sign * v
	}
	return nil
}

// oneClass reports whether train, the rows outside a fold, hold a single
// class, and if so the decision value of the fold's rows: as liblinear's
// train() makes of one class a model (nr_class 1) that predicts that class
// for every row, such a fold predicts its class, +1 when it is the
// greater label and −1 when the smaller (a ±1 model trained on one class
// would instead predict from the sign of its decision value, at 0 the
// smaller label). With stratified folds this happens only to a class of
// one row.
func (s *cvSetup) oneClass(train *Problem) (float64, bool) {
	y := train.Y
	for _, v := range y {
		if v != y[0] {
			return 0, false
		}
	}
	return s.sign * y[0], len(y) > 0
}

// CrossValidate returns the decision values of a stratified k-fold
// cross-validation of the learner p on prob: each example's value comes from
// the model trained on the other folds. The values are oriented like
// Model.Scores: positive favours the greater of the two labels. The folds
// are drawn from seed (a fold's training uses p.Seed), so the result does
// not depend on scheduling; the folds are trained in parallel on GOMAXPROCS
// workers when the problem has at least parallel.MinWork values (rows ×
// columns), one by one below.
//
// It returns an error for the inputs Train rejects, for folds outside
// [2, number of examples], when ctx is done before all folds are trained
// (fitctx.Err's: ctx's error wrapped as "linear: …: fit interrupted: …",
// which errors.Is matches to it), and when a solver fails or a held-out row's decision
// value overflows (NaN or ±Inf): the lowest failing fold's error,
// whichever fails first in time (parallel.ForLowest), so that the error,
// like the values, does not depend on scheduling. It panics when ctx is
// nil.
//
// A fold whose training rows hold one class (a class of a single row) is
// not trained: as liblinear's model of one class, it predicts that class,
// its rows' value +1 when it is the greater label, −1 when the smaller.
func CrossValidate(ctx context.Context, prob *Problem, p Params, folds int, seed uint64) ([]float64, error) {
	fitctx.Require(ctx, "linear: CrossValidate")
	dec, _, err := crossValidate(ctx, prob, p, folds, seed)
	return dec, err
}

// FoldStop says how one cross-validation fold's solver stopped, as
// Model.Converged, Model.Stuck and Model.Precision say it of a fit:
// Converged when its stopping rule held, or, with Precision, machine
// precision stopped it short of the rule; otherwise at the iteration cap
// (Params.MaxIter), or, with Stuck, short of it unable to progress. A fold
// trained on one class runs no solver (see CrossValidate) and is
// Converged.
type FoldStop struct {
	Converged, Stuck, Precision bool
}

// CrossValidateStops is CrossValidate that also says how each fold's
// solver stopped (stops[k] is fold k's), for a caller that warns of folds
// stopped short, as liblinear-train -v does once per fold at the cap or
// at machine precision (FoldStop.Precision). The decision values are
// CrossValidate's.
func CrossValidateStops(ctx context.Context, prob *Problem, p Params, folds int, seed uint64) (dec []float64, stops []FoldStop, err error) {
	fitctx.Require(ctx, "linear: CrossValidateStops")
	return crossValidate(ctx, prob, p, folds, seed)
}

// crossValidate is CrossValidateStops for a non-nil ctx.
func crossValidate(ctx context.Context, prob *Problem, p Params, folds int, seed uint64) ([]float64, []FoldStop, error) {
	s, err := newCVSetup(ctx, prob, p, folds, seed)
	if err != nil {
		return nil, nil, err
	}
	d := newDesign(s.prob)
	dec := make([]float64, len(s.fold))
	stops := make([]FoldStop, folds)
	err = parallel.ForLowest(ctx, folds, parallel.Workers(s.values(), 0), func(ctx context.Context, k int) error {
		train, test := s.split(k)
		if v, ok := s.oneClass(train); ok {
			for _, i := range test {
				dec[i] = v
			}
			stops[k].Converged = true
			return nil
		}
		ws, err := trainFoldFunc(ctx, k, train, s.p, nil)
		if err != nil {
			return err
		}
		if err := s.heldOut(d, test, ws.w, dec, 0); err != nil {
			return err
		}
		stops[k].Converged, stops[k].Stuck, stops[k].Precision = ws.why.flags()
		return nil
	})
	if err := fitctx.Stopped(ctx, err, cvCaller); err != nil {
		return nil, nil, err // whichever fold noticed first, an interrupted run's is ctx's
	}
	return dec, stops, nil
}

// LeaveOneOut returns the leave-one-out decision values of the learner p on
// prob: CrossValidate with one fold per example (for small problems).
func LeaveOneOut(ctx context.Context, prob *Problem, p Params) ([]float64, error) {
	if prob == nil {
		return nil, errors.New("linear: nil problem")
	}
	return CrossValidate(ctx, prob, p, len(prob.Y), 0)
}

// SelectC returns the C of grid with the best stratified k-fold
// cross-validation accuracy of the learner p on prob, and the accuracy of
// every C (scores[i] is grid[i]'s); it is SelectCBy with Accuracy.
func SelectC(ctx context.Context, prob *Problem, p Params, grid []float64, folds int, seed uint64) (best float64, scores []float64, err error) {
	return SelectCBy(ctx, prob, p, grid, folds, seed, Accuracy)
}

// SelectCBy returns the C of grid whose cross-validation decision values
// score best by metric (for imbalanced classes, metric.BalancedAccuracy),
// and every C's score (scores[i] is grid[i]'s). Ties go to the smaller C,
// the simpler model. The folds are those of CrossValidate with the same
// seed, and with folds equal to the number of examples this is
// leave-one-out selection. Within a fold the grid is swept in ascending
// order, each C warm-starting from the previous solution (the dual
// solvers from their dual variables), with p.C ignored. A fold trained on
// one class predicts it at every C, as in CrossValidate.
//
// It returns an error for the inputs CrossValidate rejects, an empty grid
// or a grid value that is not finite and positive or whose product with a
// class weight overflows (Params.Check's rule), when a held-out row's
// decision value overflows at a C of the grid (the error names the C), and
// when the metric fails; of folds that fail, the lowest one's error, as
// CrossValidate's. It
// panics when ctx is nil.
func SelectCBy(ctx context.Context, prob *Problem, p Params, grid []float64, folds int, seed uint64, metric Metric) (best float64, scores []float64, err error) {
	fitctx.Require(ctx, "linear: SelectCBy")
	if len(grid) == 0 {
		return 0, nil, errors.New("linear: empty C grid")
	}
	for _, c := range grid {
		if !inputcheck.PositiveFinite(c) {
			return 0, nil, fmt.Errorf("linear: C = %v in the grid, want finite values > 0", c)
		}
		if err := p.checkCosts(c); err != nil {
			return 0, nil, fmt.Errorf("%w (a C of the grid)", err)
		}
	}
	if metric == nil {
		return 0, nil, errors.New("linear: nil metric")
	}
	s, err := newCVSetup(ctx, prob, p, folds, seed)
	if err != nil {
		return 0, nil, err
	}
	order := make([]int, len(grid))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(grid[a], grid[b]) })

	d := newDesign(s.prob)
	dec := make([][]float64, len(grid)) // dec[g][i]: decision of row i for grid[g]
	for g := range dec {
		dec[g] = make([]float64, len(s.fold))
	}
	err = parallel.ForLowest(ctx, folds, parallel.Workers(s.values(), 0), func(ctx context.Context, k int) error {
		train, test := s.split(k)
		if v, ok := s.oneClass(train); ok {
			for g := range dec {
				for _, i := range test {
					dec[g][i] = v
				}
			}
			return nil
		}
		var ws *warmStart
		for _, g := range order {
			if err := ctx.Err(); err != nil {
				return err
			}
			q := s.p
			q.C = grid[g]
			var err error
			if ws, err = trainFoldFunc(ctx, k, train, q, ws); err != nil {
				return err
			}
			if err := s.heldOut(d, test, ws.w, dec[g], q.C); err != nil {
				return err
			}
		}
		return nil
	})
	if err := fitctx.Stopped(ctx, err, cvCaller); err != nil {
		return 0, nil, err // whichever fold noticed first, an interrupted run's is ctx's
	}
	scores = make([]float64, len(grid))
	for g := range grid {
		if scores[g], err = metric(dec[g], s.target); err != nil {
			return 0, nil, err
		}
		if math.IsNaN(scores[g]) {
			return 0, nil, fmt.Errorf("linear: metric returned NaN for C = %v", grid[g])
		}
	}
	bestG := order[0]
	for _, g := range order[1:] {
		if scores[g] > scores[bestG] {
			bestG = g
		}
	}
	return grid[bestG], scores, nil
}
