package method

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/mat"
)

// logistic implements the paper's feature-selection baselines: sparse
// logistic regression on all the standardised columns z = [zx, zh], with a
// bias feature of value 1 that is regularised like the weights (liblinear's
// -B 1 convention):
//
//	l1-logistic   min_w ||w||₁ + C Σ_i log(1 + exp(−y_i wᵀz_i))
//	              (linear.L1RLR: liblinear's -s 6, its default tolerance)
//	elastic-net   min_w ½||w||₁ + ¼||w||² + C Σ_i log(1 + exp(−y_i wᵀz_i))
//	              (linear.ElasticNetLR with L1Ratio = 0.5: scikit-learn's
//	              l1_ratio = 0.5, with the bias as a penalised column)
//
// C ∈ {1e-4, …, 1e4} is chosen by chooseByLOO on leave-one-out decision
// values obtained by refitting without each example: m refits per C, run in
// parallel over the examples on GOMAXPROCS workers, each C fitted from
// scratch (the linear package does not export its warm starts). Ties are
// broken by the class-balanced LOO log-loss, then by the smaller C. The
// classes are not reweighted in the loss (the paper does not; with 2
// positives against 10 negatives a small C predicts every example negative,
// which the class-balanced selection rule then rejects). When leaving
// example i out leaves one class only (a single positive), its LOO decision
// value is 0 at every C: no model of the two classes exists, and a constant
// does not favour any C.
//
// The model is a Linear model (source weights: the weights of the source
// columns); its hyperparameters are "C" and "l1_ratio" (1 for l1-logistic).
// Duplicated columns are harmless (the solvers converge; the L1 penalty
// picks any split of the weight), constant columns standardise to zeros and
// get weight zero; with no sources the model uses the features alone, with
// no features the sources alone.
type logistic struct {
	name    string
	solver  linear.Solver
	l1Ratio float64
}

func init() {
	Register(Registration{
		Name:        "l1-logistic",
		Description: "L1-regularised logistic regression on [X, H] (liblinear -s 6, -B 1), C by LOO",
		New:         func() Method { return logistic{name: "l1-logistic", solver: linear.L1RLR, l1Ratio: 1} },
		Decode:      decodeLinear,
	})
	Register(Registration{
		Name:        "elastic-net",
		Description: "elastic-net logistic regression on [X, H] (l1_ratio 0.5, bias penalised), C by LOO",
		New:         func() Method { return logistic{name: "elastic-net", solver: linear.ElasticNetLR, l1Ratio: 0.5} },
		Decode:      decodeLinear,
	})
}

// Name returns "l1-logistic" or "elastic-net".
func (l logistic) Name() string { return l.name }

// Needs reports that the logistic baselines need nothing beyond the
// labelled sample.
func (logistic) Needs() Needs { return Needs{} }

// params returns the solver's parameters at cost c.
func (l logistic) params(c float64) linear.Params {
	p := linear.Params{Solver: l.solver, C: c}
	if l.solver == linear.ElasticNetLR {
		p.L1Ratio = l.l1Ratio
	}
	return p
}

// Fit trains the model (see the type's comment). It returns an error for
// the inputs checkTrain rejects, when ctx is done and when a solver fails.
func (l logistic) Fit(ctx context.Context, train Data, _ Extra) (Model, error) {
	_, d, n, err := checkTrain(train)
	if err != nil {
		return nil, err
	}
	sx, sh := FitScaler(train.X), FitScaler(train.H)
	z, err := standardisedColumns(sx, sh, train)
	if err != nil {
		return nil, err
	}
	prob := &linear.Problem{X: sparse.FromDense(z), Y: train.Y, Bias: 1}
	pred, err := l.leaveOneOut(ctx, prob, z)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	cands := make([]looCandidate, len(cGrid))
	for g, c := range cGrid {
		cands[g] = looCandidate{Strength: 1 / c, Pred: pred[g]}
	}
	best, err := chooseByLOO(train.Y, cands, tieLogLoss)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	fit, err := linear.Train(prob, l.params(cGrid[best]))
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", l.name, err)
	}
	// Orient the weights towards +1 (Train lists the labels ±1 as [1 −1],
	// so the sign is +1; the check keeps this independent of that rule).
	sign := 1.0
	if fit.Labels[0] != 1 {
		sign = -1
	}
	model := &Linear{
		Name:  l.name,
		X:     sx,
		H:     sh,
		WX:    make([]float64, d),
		WH:    make([]float64, n),
		B:     sign * fit.W[d+n] * prob.Bias,
		Hyper: map[string]float64{"C": cGrid[best], "l1_ratio": l.l1Ratio},
	}
	for j := range d {
		model.WX[j] = sign * fit.W[j]
	}
	for j := range n {
		model.WH[j] = sign * fit.W[d+j]
	}
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

// leaveOneOut returns the LOO decision values pred[g][i] of example i at
// C = cGrid[g] (0 when the remaining examples hold one class only), fitting
// the folds in parallel on GOMAXPROCS workers.
func (l logistic) leaveOneOut(ctx context.Context, prob *linear.Problem, z *mat.Dense) ([][]float64, error) {
	m := len(prob.Y)
	pred := make([][]float64, len(cGrid))
	for g := range pred {
		pred[g] = make([]float64, m)
	}
	work := make(chan int)
	errs := make([]error, m)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), m) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				errs[i] = l.looFold(ctx, prob, z, i, pred)
			}
		}()
	}
	for i := range m {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pred, nil
}

// looFold fits the problem without example i at every C of the grid and
// stores the decision values of example i in pred[g][i].
func (l logistic) looFold(ctx context.Context, prob *linear.Problem, z *mat.Dense, i int, pred [][]float64) error {
	m := len(prob.Y)
	rows := make([]int, 0, m-1)
	var pos, neg int
	for k := range m {
		if k == i {
			continue
		}
		rows = append(rows, k)
		if prob.Y[k] > 0 {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return nil // one class left: the decision value stays 0
	}
	y := make([]float64, len(rows))
	for k, r := range rows {
		y[k] = prob.Y[r]
	}
	sub := &linear.Problem{X: prob.X.SelectRows(rows), Y: y, Bias: prob.Bias}
	xi := z.Slice(i, i+1, 0, z.RawMatrix().Cols)
	for g, c := range cGrid {
		if err := ctx.Err(); err != nil {
			return err
		}
		fit, err := linear.Train(sub, l.params(c))
		if err != nil {
			return err
		}
		pred[g][i] = fit.Scores(xi)[0]
	}
	return nil
}

// standardisedColumns returns [X.Transform(data.X), H.Transform(data.H)]
// (m × (d+n)), either part possibly empty.
func standardisedColumns(sx, sh Scaler, data Data) (*mat.Dense, error) {
	zx, err := sx.Transform(data.X)
	if err != nil {
		return nil, err
	}
	zh, err := sh.Transform(data.H)
	if err != nil {
		return nil, err
	}
	switch {
	case zx == nil:
		return zh, nil
	case zh == nil:
		return zx, nil
	}
	m, d := zx.Dims()
	_, n := zh.Dims()
	z := mat.NewDense(m, d+n, nil)
	z.Augment(zx, zh)
	return z, nil
}
