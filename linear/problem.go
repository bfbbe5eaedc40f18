package linear

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/greedytl/greedytl/sparse"
)

// Solver names a classifier that Train fits. Where liblinear has the same
// learner it carries liblinear's number (the -s flag) and liblinear's name
// (the model file's solver_type line); learners liblinear lacks are
// numbered from 100. Ridge regression, a regressor with its own API
// (FitRidge, RidgeLOOPath), is not a Solver.
type Solver int

// The solvers. Objectives are written out in doc.go.
const (
	L2RLR             Solver = 0   // L2-regularised logistic regression (primal)
	L2RL2LossSVCDual  Solver = 1   // L2-regularised squared-hinge SVM (dual coordinate descent)
	L2RL2LossSVC      Solver = 2   // L2-regularised squared-hinge SVM (primal)
	L2RL1LossSVCDual  Solver = 3   // L2-regularised hinge SVM (dual coordinate descent)
	L1RL2LossSVC      Solver = 5   // L1-regularised squared-hinge SVM
	L1RLR             Solver = 6   // L1-regularised logistic regression (newGLMNET)
	L2RLRDual         Solver = 7   // L2-regularised logistic regression (dual)
	ElasticNetLR      Solver = 100 // elastic-net logistic regression (glmnet-style coordinate descent)
	unknownSolverName        = "unknown"
)

var solverNames = map[Solver]string{
	L2RLR:            "L2R_LR",
	L2RL2LossSVCDual: "L2R_L2LOSS_SVC_DUAL",
	L2RL2LossSVC:     "L2R_L2LOSS_SVC",
	L2RL1LossSVCDual: "L2R_L1LOSS_SVC_DUAL",
	L1RL2LossSVC:     "L1R_L2LOSS_SVC",
	L1RLR:            "L1R_LR",
	L2RLRDual:        "L2R_LR_DUAL",
	ElasticNetLR:     "ELASTICNET_LR",
}

// liblinearOnly lists liblinear's solvers that linear does not implement,
// by number: liblinear's name, what it fits and why linear lacks it, for
// the errors that refuse them (Params.Check, ParseSolver).
var liblinearOnly = map[Solver]struct{ name, what, why string }{
	4:  {"MCSVM_CS", "Crammer and Singer's multi-class SVM", "linear's classifiers are binary (train one per class)"},
	11: {"L2R_L2LOSS_SVR", "a support vector regression", "linear's solvers are classifiers"},
	12: {"L2R_L2LOSS_SVR_DUAL", "a support vector regression", "linear's solvers are classifiers"},
	13: {"L2R_L1LOSS_SVR_DUAL", "a support vector regression", "linear's solvers are classifiers"},
	21: {"ONECLASS_SVM", "a one-class SVM", "linear's classifiers are binary"},
}

// ErrNotImplemented is matched (errors.Is) by the errors of Params.Check
// and ParseSolver that refuse one of liblinear's solvers that linear does
// not implement, such as -s 4 (MCSVM_CS).
var ErrNotImplemented = errors.New("linear: solver not implemented")

// notImplemented is the error of a solver of liblinear's that linear
// lacks: it matches ErrNotImplemented.
type notImplemented struct{ s Solver }

func (e notImplemented) Error() string {
	o := liblinearOnly[e.s]
	return fmt.Sprintf("linear: solver %d is liblinear's %s, %s, which linear does not implement: %s", int(e.s), o.name, o.what, o.why)
}

func (e notImplemented) Is(target error) bool { return target == ErrNotImplemented }

// unsupported returns the error of a solver of liblinear's that linear
// lacks (liblinearOnly), or nil when s is not one.
func unsupported(s Solver) error {
	if _, ok := liblinearOnly[s]; !ok {
		return nil
	}
	return notImplemented{s}
}

// Solvers returns the solvers Train fits, by number: liblinear's that
// linear implements, then its own (from 100).
func Solvers() []Solver {
	return slices.Sorted(maps.Keys(solverNames))
}

// String returns liblinear's name for s (the solver_type of a model file).
func (s Solver) String() string {
	if n, ok := solverNames[s]; ok {
		return n
	}
	return fmt.Sprintf("%s(%d)", unknownSolverName, int(s))
}

// DefaultMaxIter returns the cap on s's outer iterations when
// Params.MaxIter is 0 (liblinear's for liblinear's solvers): 1000 (TRON's
// iterations, the dual solvers' and L1R_L2LOSS_SVC's sweeps), 100 (the
// Newton steps of L1R_LR and ELASTICNET_LR), 0 for a solver linear does not
// implement. Every solver stops there; a caller that reports the cap of a
// fit that did not converge asks here for it.
func (s Solver) DefaultMaxIter() int {
	switch s {
	case L2RLR, L2RL2LossSVC:
		return tronDefaultMaxIter
	case L2RLRDual:
		return lrDualDefaultMaxIter
	case L2RL2LossSVCDual, L2RL1LossSVCDual:
		return dualDefaultMaxIter
	case L1RL2LossSVC:
		return l1svcMaxIter
	case L1RLR, ElasticNetLR:
		return lrDefaultMaxNewton
	}
	return 0
}

// ParseSolver returns the solver whose liblinear name is name; the error
// of one of liblinear's that linear lacks says so.
func ParseSolver(name string) (Solver, error) {
	for s, n := range solverNames {
		if n == name {
			return s, nil
		}
	}
	for s, o := range liblinearOnly {
		if o.name == name {
			return 0, unsupported(s)
		}
	}
	return 0, fmt.Errorf("linear: unknown solver %q", name)
}

// Problem is a training set: sparse rows X, or dense rows Dense when X is
// nil (dense data trained on as stored; see Dense), labels Y (+1/−1 for
// classifiers, real values for regression), and
// liblinear's bias convention: when Bias > 0 every row gets an extra constant
// feature of value Bias, whose weight is regularised like the others (-B).
// Bias <= 0, 0 included, means no bias feature, and Train's model records
// Bias −1 (liblinear-train -B 0 instead appends a feature of zeros, whose
// weight is 0).
type Problem struct {
	X     *sparse.CSR
	Dense *Dense
	Y     []float64
	Bias  float64
	// ctx is set on the solvers' own copy of a problem (by Train and the
	// cross-validations) and checked between their outer iterations: a
	// solver stops early once it is done, and its caller returns ctx's
	// error. nil never stops.
	ctx context.Context
	// rowL1 is set on the solvers' copy too (by solverProblem; withRows
	// and forSolver copy it): a bound on the ℓ1 norms of its rows'
	// features, checkProblem's of the caller's problem, which holds for a
	// selection of its rows (a fold) as well. checkWeights relies on it;
	// unset (a problem built without it), it bounds nothing (+Inf), so
	// that checkWeights computes every decision value.
	rowL1 l1Bound
	// kept is set on the solvers' own copies (by solverProblem and
	// withRows): what a solve built of the problem that does not depend on
	// the parameters, kept for the next solve of the same copy (the next C
	// of a path). nil keeps nothing.
	kept *solverKept
}

// solverKept is what the solves of one solvers' copy of a problem share
// (Problem.kept): the primal L1 solvers' column form (newLRData), built by
// the first.
type solverKept struct {
	lr *lrColumns
}

// stopped reports whether prob's context is done (see Problem.ctx).
func (prob *Problem) stopped() bool { return prob.ctx != nil && prob.ctx.Err() != nil }

// DefaultL1Ratio is the elastic-net mixing (Params.L1Ratio of
// ElasticNetLR) of an equal L1 and L2 penalty: the train command's
// --l1-ratio default and the elastic-net method's (package method), as
// scikit-learn's ElasticNet defaults its l1_ratio. Params.L1Ratio has no
// default of its own (0 is a valid mixing: L2 alone).
const DefaultL1Ratio = 0.5

// Params are a learner's hyperparameters, validated by Params.Check before
// training (liblinear's check_parameter).
type Params struct {
	Solver Solver
	// C is the cost of the loss term (liblinear -c); the regulariser has
	// weight 1. Default 1.
	C float64
	// Eps is the stopping tolerance (liblinear -e); 0 selects the solver's
	// default, which is liblinear's for liblinear's solvers.
	Eps float64
	// L1Ratio mixes the penalties of ElasticNetLR:
	// L1Ratio·||w||₁ + (1−L1Ratio)/2·||w||², in [0, 1] (DefaultL1Ratio is
	// an equal mixing; the zero value is L2 alone).
	L1Ratio float64
	// MaxIter caps the outer iterations; 0 selects the solver's default.
	// Reaching it is not an error: the model says so (Model.Converged).
	MaxIter int
	// WeightPos and WeightNeg multiply C for the +1 and −1 class
	// (liblinear -w1, -w-1); 0 means 1.
	WeightPos, WeightNeg float64
	// Seed seeds the solvers that visit coordinates in random order.
	Seed uint64
}

// solveFunc trains one binary problem (labels ±1) and returns the weight
// vector: length X.C, plus one for the bias feature when prob.Bias > 0.
// init is a warm start of the same length, or nil. The returned stop says
// why the solver stopped: converged, at MaxIter, or numerically stuck.
type solveFunc func(prob *Problem, p Params, init []float64) (w []float64, why stop, err error)

// stop says why a solver stopped (Model.Converged, Model.Stuck,
// Model.Precision).
type stop int

const (
	// stopConverged: its stopping rule held.
	stopConverged stop = iota
	// stopMaxIter: it reached its cap on iterations (Params.MaxIter), or
	// its context was done (which Train and CrossValidate return instead).
	stopMaxIter
	// stopStuck: short of its cap, it could make no further progress —
	// no decrease of its model possible, its model or objective NaN, a
	// line search that found no decrease above the rounding floor.
	stopStuck
	// stopPrecision: converged to machine precision short of its
	// stopping rule: TRON's actual and predicted decreases of the
	// objective both at most 1e-12 of it (liblinear's "actred and prered
	// too small", which liblinear-train prints as a warning).
	stopPrecision
)

// flags returns how a model or a fold reports the stop: converged (the
// stopping rule held, or machine precision stopped it: precision), stuck
// (no further progress possible), or neither (the iteration cap).
func (s stop) flags() (converged, stuck, precision bool) {
	return s == stopConverged || s == stopPrecision, s == stopStuck, s == stopPrecision
}

// String names why the solver stopped, for messages.
func (s stop) String() string {
	switch s {
	case stopConverged:
		return "converged"
	case stopMaxIter:
		return "at the iteration cap"
	case stopStuck:
		return "numerically stuck"
	case stopPrecision:
		return "converged to machine precision"
	}
	return fmt.Sprintf("stop(%d)", int(s))
}

// solvers maps each implemented solver to its training function; each
// solver's file registers itself in an init function.
var solvers = map[Solver]solveFunc{}

func register(s Solver, f solveFunc) {
	if _, dup := solvers[s]; dup {
		panic("linear: solver registered twice: " + s.String())
	}
	solvers[s] = f
}
