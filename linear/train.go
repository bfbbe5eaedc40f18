package linear

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
)

// defaultEps holds liblinear's default stopping tolerance of each of its
// solvers (train.c). Solvers missing here choose their own default.
var defaultEps = map[Solver]float64{
	L2RLR:            0.01,
	L2RL2LossSVCDual: 0.1,
	L2RL2LossSVC:     0.01,
	L2RL1LossSVCDual: 0.1,
	L1RL2LossSVC:     0.01,
	L1RLR:            0.01,
	L2RLRDual:        0.1,
}

// Check reports the first invalid hyperparameter, as liblinear's
// check_parameter does: the solver must be known and implemented, C finite
// and ≥ 0 (0 selects 1), Eps finite and ≥ 0 (0 selects the solver's
// default), L1Ratio in [0, 1], MaxIter ≥ 0, the class weights finite and
// ≥ 0 (0 selects 1), and C times each class weight finite (a row's cost;
// liblinear takes an overflow to +Inf for a cost).
func (p Params) Check() error {
	if err := unsupported(p.Solver); err != nil {
		return err
	}
	if _, ok := solverNames[p.Solver]; !ok {
		return fmt.Errorf("linear: unknown solver %d", int(p.Solver))
	}
	if _, ok := solvers[p.Solver]; !ok {
		return fmt.Errorf("linear: solver %v is not implemented", p.Solver)
	}
	if !(p.C >= 0) || math.IsInf(p.C, 0) {
		return fmt.Errorf("linear: C = %v, want a finite C > 0 (0 selects 1)", p.C)
	}
	if !(p.Eps >= 0) || math.IsInf(p.Eps, 0) {
		return fmt.Errorf("linear: Eps = %v, want a finite Eps ≥ 0 (0 selects the solver's default)", p.Eps)
	}
	if !(p.L1Ratio >= 0 && p.L1Ratio <= 1) {
		return fmt.Errorf("linear: L1Ratio = %v, want a value in [0, 1]", p.L1Ratio)
	}
	if p.MaxIter < 0 {
		return fmt.Errorf("linear: MaxIter = %d, want ≥ 0 (0 selects the solver's default)", p.MaxIter)
	}
	for _, w := range []float64{p.WeightPos, p.WeightNeg} {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("linear: class weight %v, want a finite weight > 0 (0 selects 1)", w)
		}
	}
	return p.checkCosts(p.C)
}

// checkCosts returns an error when C (p's, or a grid's: 0 selects 1)
// times one of p's class weights overflows: each is finite, but a row's
// cost C·weight (classCosts) would be +Inf, which the solvers would take
// for a cost.
func (p Params) checkCosts(C float64) error {
	q := p
	q.C = C
	q = q.withDefaults()
	for _, w := range []float64{q.WeightPos, q.WeightNeg} {
		if math.IsInf(q.C*w, 0) {
			return fmt.Errorf("linear: C = %v times the class weight %v overflows float64 (C·weight is a row's cost): lower C or the weight", q.C, w)
		}
	}
	return nil
}

// WithLabelWeights returns p with its class weights set from weights,
// which maps class labels of y to the factor of their C (liblinear
// -wLABEL WEIGHT): the label Train makes the positive class
// (Model.Labels[0]) sets WeightPos, the other WeightNeg, and a class
// weights does not name keeps p's weight. It returns an error when y does
// not hold two integer labels (as Train does), when weights names a label
// y lacks (liblinear ignores it, with a warning), or a weight that is not
// finite and > 0.
func (p Params) WithLabelWeights(y []float64, weights map[int]float64) (Params, error) {
	labels, _, err := binaryLabels(y)
	if err != nil {
		return p, err
	}
	keys := slices.Sorted(maps.Keys(weights))
	for _, l := range keys {
		w := weights[l]
		if !inputcheck.PositiveFinite(w) {
			return p, fmt.Errorf("linear: weight %v for class %d, want a finite weight > 0", w, l)
		}
		switch l {
		case labels[0]:
			p.WeightPos = w
		case labels[1]:
			p.WeightNeg = w
		default:
			return p, fmt.Errorf("linear: a weight for class %d, which the data lack (their labels are %d and %d)", l, labels[0], labels[1])
		}
	}
	return p, nil
}

// withDefaults returns p with zero C, Eps and class weights replaced by
// their defaults. MaxIter is left to the solver.
func (p Params) withDefaults() Params {
	if p.C == 0 {
		p.C = 1
	}
	if p.Eps == 0 {
		p.Eps = defaultEps[p.Solver]
	}
	if p.WeightPos == 0 {
		p.WeightPos = 1
	}
	if p.WeightNeg == 0 {
		p.WeightNeg = 1
	}
	return p
}

// maxIter returns p.MaxIter, or its solver's default
// (Solver.DefaultMaxIter) when it is 0.
func (p Params) maxIter() int {
	if p.MaxIter == 0 {
		return p.Solver.DefaultMaxIter()
	}
	return p.MaxIter
}

// dualStart returns what the dual coordinate-descent solvers start from:
// p with its defaults, the iteration bound (Params.maxIter), the design of
// prob and the rows' costs C_i.
func dualStart(prob *Problem, p Params) (Params, int, *design, []float64) {
	p = p.withDefaults()
	return p, p.maxIter(), newDesign(prob), classCosts(prob.Y, p)
}

// Train fits a binary linear classifier to prob with the learner p.
//
// The labels may be any two integer values, as in liblinear: Model.Labels
// lists them in order of first appearance, except that −1/+1 labels always
// give [1 -1] (liblinear ≥ 2.0 does the same), and the weights are those of
// the binary problem in which Labels[0] is the positive class. Use
// Model.Scores for scores that always favour the greater label.
//
// Train returns an error for invalid parameters (see Params.Check), for an
// empty or malformed problem, non-finite or non-integer labels, labels
// that do not form exactly two classes, non-finite feature values or bias,
// when the solver fails or returns weights whose decision value of a
// training row overflows float64 (features near 1e300), and with ctx's error when ctx is done before
// training ends (the solvers check it between their outer iterations, and
// the solvers that work on columns while they convert the problem to
// column form, every block of about 65,536 values). Reaching the
// iteration cap, or stopping short of it numerically stuck, is not an
// error: the model reports it with Converged = false (and Stuck = true
// for the latter). Train does not modify prob. It panics when ctx is nil.
func Train(ctx context.Context, prob *Problem, p Params) (*Model, error) {
	return NewTrainer(prob).Train(ctx, p)
}

// A Trainer trains one problem at one set of parameters after another (the
// C values of a path), each model Train's, bitwise, with the solvers' copy
// of the problem — its labels mapped to ±1, its column form — built by the
// first Train and kept for the next. The problem must not change while
// the Trainer is used; a Trainer is not safe for concurrent use.
type Trainer struct {
	prob   *Problem
	solver Solver   // the solver of labels and bin
	labels []int    // solverProblem's, for solver
	bin    *Problem // solverProblem's, for solver; nil until built
}

// NewTrainer returns a Trainer of prob.
func NewTrainer(prob *Problem) *Trainer { return &Trainer{prob: prob} }

// Train trains the problem with p as the package's Train does, with its
// errors.
func (t *Trainer) Train(ctx context.Context, p Params) (*Model, error) {
	return t.TrainFrom(ctx, p, nil)
}

// TrainFrom trains the problem with p as Train does, the solver started
// from the weights init instead of w = 0: one weight per column, then the
// bias's when Problem.Bias > 0, oriented as the Model's (favouring
// Labels[0]); nil is Train's start. Only the solvers that start from
// primal weights (primalStart: L1R_LR, L1R_L2LOSS_SVC, ElasticNetLR) take
// a start; with another solver, a start of the wrong length or with a NaN
// or ±Inf weight it is an error. The model is the solver's from that start: a
// solver stopped by a tolerance stops at another point within it than
// from w = 0.
func (t *Trainer) TrainFrom(ctx context.Context, p Params, init []float64) (*Model, error) {
	if init != nil && !primalStart(p.Solver) {
		return nil, fmt.Errorf("linear: %v takes no warm start", p.Solver)
	}
	if err := fitctx.Start(ctx, trainCaller); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	p = p.withDefaults()
	if t.bin == nil || t.solver != p.Solver {
		labels, bin, err := solverProblem(ctx, t.prob, p.Solver)
		if err != nil {
			return nil, err
		}
		t.solver, t.labels, t.bin = p.Solver, labels, bin
	}
	prob, labels, bin := t.prob, t.labels, t.bin
	bin.ctx = ctx
	w, why, err := solvers[p.Solver](bin, p, init)
	if err := fitctx.Stopped(ctx, err, trainCaller); err != nil {
		return nil, err // the solver's, or it stopped early (errStopped, or weights)
	}
	if err := checkWeights(w, bin); err != nil {
		return nil, fmt.Errorf("linear: %v: %w", p.Solver, err)
	}
	bias := -1.0
	if prob.Bias > 0 {
		bias = prob.Bias
	}
	_, cols := prob.dims()
	converged, stuck, precision := why.flags()
	return &Model{
		Solver:    p.Solver,
		Labels:    slices.Clone(labels),
		NrFeature: cols,
		Bias:      bias,
		W:         w,
		NrW:       1,
		Converged: converged,
		Stuck:     stuck,
		Precision: precision,
	}, nil
}

// trainCaller names training in context errors.
const trainCaller = "linear: training"

// solverProblem checks prob (checkProblem) and its labels (binaryLabels)
// and returns its two labels, in binaryLabels's order, and the solvers'
// copy of it for solver s: its rows with the labels mapped to ±1, in the
// form s reads (forSolver), with ctx and checkProblem's bound on its rows'
// ℓ1 norms (Problem.rowL1) set, a solvers' own copy (Problem.kept). It
// returns ctx's error when ctx is done during the conversion.
func solverProblem(ctx context.Context, prob *Problem, s Solver) (labels []int, bin *Problem, err error) {
	rowL1, err := checkProblem(prob)
	if err != nil {
		return nil, nil, err
	}
	labels, y, err := binaryLabels(prob.Y)
	if err != nil {
		return nil, nil, err
	}
	bin = &Problem{X: prob.X, Dense: prob.Dense, Y: y, Bias: prob.Bias, rowL1: knownL1(rowL1)}
	if bin = bin.forSolver(ctx, s); bin == nil {
		return nil, nil, fitctx.Err(ctx, trainCaller) // stopped in the conversion
	}
	bin.kept = &solverKept{}
	return labels, bin, nil
}

// checkProblem validates the structure of prob and the finiteness of its
// values; it does not look at the label values beyond finiteness. It
// returns a bound on the ℓ1 norms of the rows' features (the bias feature
// aside), which may be +Inf: the largest, or for Dense rows the largest of
// its storage rows (NewDense32, NewDense64).
func checkProblem(prob *Problem) (rowL1 float64, err error) {
	if prob == nil || prob.X == nil && prob.Dense == nil {
		return 0, errNoRows
	}
	if prob.X == nil {
		// Dense values were checked by NewDense32/NewDense64, which
		// recorded the norm.
		return prob.Dense.rowL1, checkRowsAndLabels(prob, prob.Dense.Rows())
	}
	x := prob.X
	if x.R < 0 || x.C < 0 || len(x.Ptr) != x.R+1 || x.Ptr[0] != 0 || x.Ptr[x.R] != len(x.Ind) || len(x.Ind) != len(x.Val) {
		// Let sparse describe the broken header.
		return 0, fmt.Errorf("linear: feature matrix: %w", x.Check())
	}
	if err := checkRowsAndLabels(prob, x.R); err != nil {
		return 0, err
	}
	// One pass over the entries checks both the index order of the rows
	// and the values (the solvers' cost is a few such passes), and sums
	// the rows' |values|.
	for i := 0; i < x.R; i++ {
		lo, hi := x.Ptr[i], x.Ptr[i+1]
		if lo > hi {
			return 0, fmt.Errorf("linear: feature matrix: row %d has negative length", i)
		}
		prev := -1
		val := x.Val[lo:hi]
		var l1 float64
		for k, j := range x.Ind[lo:hi] {
			if j <= prev || j >= x.C {
				return 0, fmt.Errorf("linear: feature matrix: row %d has column index %d out of order or range", i, j)
			}
			prev = j
			v := val[k]
			if v-v != 0 {
				return 0, fmt.Errorf("linear: %w", &inputcheck.NonFiniteError{Name: "X", Row: i, Col: j, Value: v})
			}
			l1 += math.Abs(v)
		}
		rowL1 = max(rowL1, l1)
	}
	return rowL1, nil
}

// checkRowsAndLabels checks that prob has rows rows, one finite label per
// row, and a finite bias.
func checkRowsAndLabels(prob *Problem, rows int) error {
	if rows == 0 {
		return errors.New("linear: problem has no rows")
	}
	if len(prob.Y) != rows {
		return fmt.Errorf("linear: %d labels for %d rows", len(prob.Y), rows)
	}
	if math.IsNaN(prob.Bias) || math.IsInf(prob.Bias, 0) {
		return fmt.Errorf("linear: bias %v is not finite", prob.Bias)
	}
	for i, v := range prob.Y {
		if v-v != 0 {
			return fmt.Errorf("linear: label of row %d is %v", i, v)
		}
	}
	return nil
}

// CheckLabel returns an error when v cannot be a class label of Train,
// CrossValidate or SelectC: labels are 32-bit integers, as liblinear's (C
// ints). A reader of labels (dataset.ReadSVMLightChecked) may call it to
// name the line of such a label, giving text, the label as the file
// writes it, which the message then quotes: 1234567890123456789 reads as
// 1.2345678901234568e+18, which the file does not hold. With text "" the
// message gives v.
func CheckLabel(v float64, text string) error {
	if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
		if text == "" {
			text = fmt.Sprint(v)
		}
		return fmt.Errorf("label %s is not a 32-bit integer", text)
	}
	return nil
}

// LabelSet gathers the class labels of a two-class problem, one example
// at a time, refusing what Train, CrossValidate and SelectC refuse: a label
// that is not a 32-bit integer (CheckLabel) and the first label of a third
// class. A reader of labels may call Add on each (as the check of
// dataset.ReadSVMLightChecked), so that its error names the line. The
// zero value holds no label.
type LabelSet struct {
	seen []int // the labels in the order first met: at most two
}

// Add adds the label v of the next example, text being the label as the
// file writes it, which the message then quotes ("" for v's own form),
// and returns an error, without the package's prefix, when v is not a
// 32-bit integer or is a third class.
func (s *LabelSet) Add(v float64, text string) error {
	if err := CheckLabel(v, text); err != nil {
		return err
	}
	l := int(v)
	if slices.Contains(s.seen, l) {
		return nil
	}
	if len(s.seen) == 2 {
		if text == "" {
			text = fmt.Sprint(l)
		}
		return fmt.Errorf("label %s is a third class (the first two: %d and %d): the problem must have two: make one binary problem per class (that class against the others)",
			text, s.seen[0], s.seen[1])
	}
	s.seen = append(s.seen, l)
	return nil
}

// binaryLabels maps labels y to ±1 the way liblinear does for two classes:
// the label seen first is the positive class, unless the labels are −1 and
// +1, in which case +1 is. It returns the two labels in that order and the
// ±1 labels. Labels must be integers (liblinear's are C ints): LabelSet's
// checks, the error naming the row.
func binaryLabels(y []float64) (labels []int, signed []float64, err error) {
	var set LabelSet
	for i, v := range y {
		if err := set.Add(v, ""); err != nil {
			return nil, nil, fmt.Errorf("linear: row %d: %w", i, err)
		}
	}
	labels = set.seen
	switch len(labels) {
	case 0:
		return nil, nil, errors.New("linear: no labels; need two classes")
	case 1:
		return nil, nil, fmt.Errorf("linear: all %d labels are %d; need two classes", len(y), labels[0])
	}
	if labels[0] == -1 && labels[1] == 1 {
		labels[0], labels[1] = 1, -1
	}
	signed = make([]float64, len(y))
	for i, v := range y {
		signed[i] = -1
		if int(v) == labels[0] {
			signed[i] = 1
		}
	}
	return labels, signed, nil
}

// checkWeights verifies that a solver returned a finite weight vector of the
// right length for prob, whose decision values on prob's own rows are
// finite: finite weights (1e293 on features near 1e300) whose products with
// the features overflow would score every row, the training rows first,
// ±Inf or NaN. prob.rowL1 bounds the ℓ1 norms of prob's rows
// (checkProblem's bound, of prob or of a problem whose rows include prob's;
// +Inf when none is known, unset included). It computes the decision values only when
// cannotOverflow does not rule the overflow out.
func checkWeights(w []float64, prob *Problem) error {
	if want := weightLen(prob); len(w) != want {
		return fmt.Errorf("returned %d weights, want %d", len(w), want)
	}
	var wMax float64
	for j, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("weight %d is %v; rescale the features or lower C", j, v)
		}
		wMax = max(wMax, math.Abs(v))
	}
	if cannotOverflow(wMax, prob.Bias, prob.rowL1.value()) {
		return nil
	}
	d := newDesign(prob)
	for i := range d.rows {
		if v := d.dot(i, w); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("the decision value of training example %d (counting from 1) is %v: the weights (largest |w| %.3g) times its features overflow float64; rescale the features", i+1, v, wMax)
		}
	}
	return nil
}

// l1Bound is Problem.rowL1: a bound on the ℓ1 norms of rows, known only
// when made by knownL1, so that its zero value bounds nothing.
type l1Bound struct {
	v     float64
	known bool
}

// knownL1 returns the bound v.
func knownL1(v float64) l1Bound { return l1Bound{v: v, known: true} }

// value returns the bound, +Inf when it is not known.
func (b l1Bound) value() float64 {
	if !b.known {
		return math.Inf(1)
	}
	return b.v
}

// cannotOverflow reports whether no decision value of a problem's rows can
// overflow with weights of largest magnitude wMax: |x_iᵀw + b·w_b| ≤
// wMax·(‖x_i‖₁ + b) ≤ wMax·(rowL1 + b), b the bias feature's value (the
// problem's bias when positive), rowL1 a bound on the rows' ℓ1 norms
// (checkProblem's). The computed sums of n terms exceed their exact bound
// by a relative n·2⁻⁵³ at most, far below the factor 2 this bound keeps
// from MaxFloat64. A bound that fails (+Inf norms included) says nothing:
// the caller computes the values.
func cannotOverflow(wMax, bias, rowL1 float64) bool {
	b := 0.0
	if bias > 0 {
		b = bias
	}
	return wMax*(rowL1+b) <= math.MaxFloat64/2
}

// weightLen is the number of weights of a model of prob: one per column,
// plus one for the bias feature.
func weightLen(prob *Problem) int {
	_, cols := prob.dims()
	if prob.Bias > 0 {
		return cols + 1
	}
	return cols
}

// classCosts returns C_i for each row of a ±1 problem: C·WeightPos for
// y_i > 0 and C·WeightNeg otherwise (p has its defaults applied).
func classCosts(y []float64, p Params) []float64 {
	c := make([]float64, len(y))
	for i, v := range y {
		if v > 0 {
			c[i] = p.C * p.WeightPos
		} else {
			c[i] = p.C * p.WeightNeg
		}
	}
	return c
}

// design gives the solvers tight access to the rows of a problem with
// liblinear's bias feature appended: row i is x_i extended by the constant
// bias, and weight vectors have n = cols (+1) entries, the bias weight
// last.
type design struct {
	ptr  []int
	ind  []int
	val  []float64
	rows int
	cols int     // number of feature columns; index of the bias weight
	bias float64 // value of the bias feature, 0 when there is none
	n    int     // length of a weight vector
	// dense holds the rows instead of ptr, ind and val when not nil.
	dense *Dense
}

// newDesign builds the solver view of prob; it shares prob's storage.
func newDesign(prob *Problem) *design {
	var d *design
	if x := prob.X; x != nil {
		d = &design{ptr: x.Ptr, ind: x.Ind, val: x.Val, rows: x.R, cols: x.C, n: x.C}
	} else {
		d = &design{dense: prob.Dense, rows: prob.Dense.Rows(), cols: prob.Dense.cols, n: prob.Dense.cols}
	}
	if prob.Bias > 0 {
		d.bias = prob.Bias
		d.n++
	}
	return d
}

// dot returns x_iᵀw. Four partial sums break the dependency chain of the
// additions, which otherwise bounds the loop's speed.
func (d *design) dot(i int, w []float64) float64 {
	if d.dense != nil {
		s := d.dense.dot(i, w)
		if d.bias != 0 {
			s += d.bias * w[d.cols]
		}
		return s
	}
	lo, hi := d.ptr[i], d.ptr[i+1]
	s := sparseDot(d.ind[lo:hi], d.val[lo:hi], w)
	if d.bias != 0 {
		s += d.bias * w[d.cols]
	}
	return s
}

// sparseDot returns Σ_k val[k]·w[ind[k]]. Four partial sums break the
// dependency chain of the additions, which otherwise bounds the loop's
// speed.
func sparseDot[I int | int32, V float32 | float64](ind []I, val []V, w []float64) float64 {
	var s0, s1, s2, s3 float64
	for len(ind) >= 4 && len(val) >= 4 {
		s0 += float64(val[0]) * w[ind[0]]
		s1 += float64(val[1]) * w[ind[1]]
		s2 += float64(val[2]) * w[ind[2]]
		s3 += float64(val[3]) * w[ind[3]]
		ind, val = ind[4:], val[4:]
	}
	val = val[:len(ind)]
	for k, j := range ind {
		s0 += float64(val[k]) * w[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds a·x_i to w.
func (d *design) axpy(i int, a float64, w []float64) {
	if d.dense != nil {
		d.dense.axpy(i, a, w)
		if d.bias != 0 {
			w[d.cols] += a * d.bias
		}
		return
	}
	lo, hi := d.ptr[i], d.ptr[i+1]
	sparseAxpy(d.ind[lo:hi], d.val[lo:hi], a, w)
	if d.bias != 0 {
		w[d.cols] += a * d.bias
	}
}

// sparseAxpy adds a·val[k] to w[ind[k]] for every k.
func sparseAxpy[I int | int32, V float32 | float64](ind []I, val []V, a float64, w []float64) {
	for len(ind) >= 4 && len(val) >= 4 {
		w[ind[0]] += a * float64(val[0])
		w[ind[1]] += a * float64(val[1])
		w[ind[2]] += a * float64(val[2])
		w[ind[3]] += a * float64(val[3])
		ind, val = ind[4:], val[4:]
	}
	val = val[:len(ind)]
	for k, j := range ind {
		w[j] += a * float64(val[k])
	}
}

// sparseAddSquares adds h·val[k]² to m[ind[k]] for every k.
func sparseAddSquares[I int | int32, V float32 | float64](ind []I, val []V, h float64, m []float64) {
	for k, j := range ind {
		v := float64(val[k])
		m[j] += h * v * v
	}
}

// sparseNorm2 returns s + Σ_k val[k]².
func sparseNorm2[V float32 | float64](val []V, s float64) float64 {
	for _, v := range val {
		s += float64(v) * float64(v)
	}
	return s
}

// norm2 returns ||x_i||².
func (d *design) norm2(i int) float64 {
	s := d.bias * d.bias
	if d.dense != nil {
		return d.dense.norm2(i, s)
	}
	return sparseNorm2(d.val[d.ptr[i]:d.ptr[i+1]], s)
}

// addSquares adds h·x_ij² to m_j for every column j of row i, the bias
// feature included.
func (d *design) addSquares(i int, h float64, m []float64) {
	if d.dense != nil {
		d.dense.addSquares(i, h, m)
	} else {
		lo, up := d.ptr[i], d.ptr[i+1]
		sparseAddSquares(d.ind[lo:up], d.val[lo:up], h, m)
	}
	if d.bias != 0 {
		m[d.cols] += h * d.bias * d.bias
	}
}

// PrimalObjective returns the objective that learner p minimises, at the
// weights w, on the problem prob with labels ±1 (y > 0 counts as +1):
//
//	L2RLR, L2RLRDual:                 ½||w||² + Σ C_i log(1 + exp(−y_i wᵀx_i))
//	L2RL2LossSVC, L2RL2LossSVCDual:   ½||w||² + Σ C_i max(0, 1 − y_i wᵀx_i)²
//	L2RL1LossSVCDual:                 ½||w||² + Σ C_i max(0, 1 − y_i wᵀx_i)
//	L1RL2LossSVC:                     ||w||₁ + Σ C_i max(0, 1 − y_i wᵀx_i)²
//	L1RLR:                            ||w||₁ + Σ C_i log(1 + exp(−y_i wᵀx_i))
//	ElasticNetLR:                     r||w||₁ + (1−r)/2·||w||² + Σ C_i log(1 + exp(−y_i wᵀx_i))
//
// with C_i = C·WeightPos for y_i = +1 and C·WeightNeg otherwise, r =
// L1Ratio, and x_i extended by the bias feature when prob.Bias > 0 (its
// weight, the last, is regularised). Comparing it across solvers and tools
// is how the parity tests judge solutions. It has no error result: like
// Model.Scores it panics, with a message naming it, on a caller's mistake —
// when prob is nil or fails Train's checks of a problem (no rows, labels
// that do not match the rows, a NaN or ±Inf value, a malformed matrix),
// when len(w) is not prob.X.C (+1 with a bias) or when the solver is not a
// classifier.
func PrimalObjective(prob *Problem, p Params, w []float64) float64 {
	if _, err := checkProblem(prob); err != nil {
		panic("linear: PrimalObjective: " + strings.TrimPrefix(err.Error(), "linear: "))
	}
	if len(w) != weightLen(prob) {
		panic(fmt.Sprintf("linear: PrimalObjective: %d weights for %d features", len(w), weightLen(prob)))
	}
	p = p.withDefaults()
	var l1, l2 float64
	logistic, squared := false, false
	switch p.Solver {
	case L2RLR, L2RLRDual:
		l2, logistic = 1, true
	case L2RL2LossSVC, L2RL2LossSVCDual:
		l2, squared = 1, true
	case L2RL1LossSVCDual:
		l2 = 1
	case L1RL2LossSVC:
		l1, squared = 1, true
	case L1RLR:
		l1, logistic = 1, true
	case ElasticNetLR:
		l1, l2, logistic = p.L1Ratio, 1-p.L1Ratio, true
	default:
		panic("linear: PrimalObjective: not a classifier: " + p.Solver.String())
	}
	var f float64
	for _, v := range w {
		f += l1*math.Abs(v) + l2/2*v*v
	}
	d := newDesign(prob)
	cost := classCosts(prob.Y, p)
	for i, c := range cost {
		yz := d.dot(i, w)
		if prob.Y[i] <= 0 {
			yz = -yz
		}
		switch {
		case logistic:
			f += c * logOnePlusExpNeg(yz)
		case yz >= 1:
		case squared:
			f += c * (1 - yz) * (1 - yz)
		default:
			f += c * (1 - yz)
		}
	}
	return f
}

// shuffler draws the random visiting orders of the coordinate descent
// solvers; *rand.Rand is one. (The parity tests substitute the C library's
// rand() to replay liblinear's runs exactly.)
type shuffler interface {
	// IntN returns a uniform integer in [0, n).
	IntN(n int) int
}

// newShuffler returns the solvers' random source for seed.
func newShuffler(seed uint64) shuffler { return rand.New(rand.NewPCG(seed, seed)) }

// shuffle permutes index uniformly at random the way liblinear does: for
// each position s from the front, swap in an element drawn from s onwards
// (one draw per position, the last one included).
func shuffle(rng shuffler, index []int) {
	for s := range index {
		j := s + rng.IntN(len(index)-s)
		index[s], index[j] = index[j], index[s]
	}
}
