package method

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/greedytl/greedytl/grid"
)

// The hyperparameter grids of the paper (package grid): λ and C ∈
// {1e-4, …, 1e4}, τ ∈ {1e-3, …, 1e3}. They are read-only.
var (
	lambdaGrid = grid.Regularization()
	cGrid      = grid.Regularization()
	tauGrid    = grid.Tau()
)

// looCandidate is one hyperparameter setting's leave-one-out result.
type looCandidate struct {
	// Strength orders the candidates by regularisation: larger means more
	// regularised, a simpler model (λ itself; 1/C for a C grid).
	Strength float64
	// Pred holds the leave-one-out decision values f₋ᵢ(x_i), one per
	// training example, f₋ᵢ being fitted without example i.
	Pred []float64
}

// looTieBreak names the secondary criterion of chooseByLOO.
type looTieBreak int

const (
	// tieSquared breaks ties by the class-balanced mean squared LOO
	// residual (y_i − f₋ᵢ(x_i))²: for least-squares models.
	tieSquared looTieBreak = iota
	// tieLogLoss breaks ties by the class-balanced mean LOO log-loss
	// log(1 + exp(−y_i f₋ᵢ(x_i))): for logistic models.
	tieLogLoss
)

// looTieTol is the relative tolerance under which two secondary losses
// count as tied (so that settings giving the same model up to rounding fall
// through to the regularisation rule).
const looTieTol = 1e-9

// chooseByLOO returns the index in cands of the setting with the best
// class-balanced leave-one-out error on the labels y (±1). This is the
// selection rule of every method:
//
//  1. the lowest class-balanced 0-1 error of the LOO predictions' signs,
//     (FNR + FPR)/2, a score of 0 counting as negative — so with 2
//     positives against 10 negatives an all-negative model scores 0.5, not
//     1/6, and cannot win by default;
//  2. among settings tied on it, the lowest class-balanced secondary loss
//     (the mean over the two classes of the per-class mean loss, the loss
//     given by tie), equal within a relative looTieTol;
//  3. then the largest Strength (the most regularised setting).
//
// A candidate whose predictions are not all finite is skipped. chooseByLOO
// returns an error when no candidate is usable, and panics (a programming
// error) when a candidate's Pred does not have len(y) values or y is not
// ±1 with both classes. It is deterministic: the result does not depend on
// the order of cands except between settings of equal Strength, where the
// first wins.
func chooseByLOO(y []float64, cands []looCandidate, tie looTieBreak) (int, error) {
	pos, neg, err := classCounts(y)
	if err != nil {
		panic("chooseByLOO: " + err.Error())
	}
	if pos == 0 || neg == 0 {
		panic("method: chooseByLOO: both classes are needed")
	}
	// Visit from the most regularised setting down, replacing the best only
	// on a strict improvement: near-ties go to the larger regularisation.
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cands[b].Strength, cands[a].Strength) })
	best := -1
	var bestErr, bestLoss float64
	for _, k := range order {
		c := cands[k]
		if len(c.Pred) != len(y) {
			panic(fmt.Sprintf("method: chooseByLOO: %d predictions for %d labels", len(c.Pred), len(y)))
		}
		e01, loss, ok := looLosses(y, c.Pred, pos, neg, tie)
		if !ok {
			continue
		}
		if best < 0 || e01 < bestErr || (e01 == bestErr && loss < bestLoss-looTieTol*math.Max(math.Abs(loss), math.Abs(bestLoss))) {
			best, bestErr, bestLoss = k, e01, loss
		}
	}
	if best < 0 {
		return 0, fmt.Errorf("method: no hyperparameter setting gave finite leave-one-out predictions")
	}
	return best, nil
}

// looLosses returns the class-balanced 0-1 error and secondary loss of the
// LOO predictions pred; ok is false when a prediction or the loss is not
// finite.
func looLosses(y, pred []float64, pos, neg int, tie looTieBreak) (e01, loss float64, ok bool) {
	var errPos, errNeg, lossPos, lossNeg float64
	for i, f := range pred {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, 0, false
		}
		var l float64
		switch tie {
		case tieSquared:
			r := y[i] - f
			l = r * r
		case tieLogLoss:
			l = logOnePlusExp(-y[i] * f)
		default:
			panic("method: chooseByLOO: unknown tie-break")
		}
		if y[i] > 0 {
			lossPos += l
			if f <= 0 {
				errPos++
			}
		} else {
			lossNeg += l
			if f > 0 {
				errNeg++
			}
		}
	}
	p, n := float64(pos), float64(neg)
	e01 = (errPos/p + errNeg/n) / 2
	loss = (lossPos/p + lossNeg/n) / 2
	return e01, loss, !math.IsInf(loss, 0) && !math.IsNaN(loss)
}

// logOnePlusExp returns log(1 + exp(t)) without overflow.
func logOnePlusExp(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}
