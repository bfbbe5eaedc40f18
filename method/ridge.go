package method

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/internal/validate"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register(Registration{
		Name:        "no-transfer",
		Description: "No transfer: ridge regression on the target features alone, λ by leave-one-out",
		New:         func() Method { return noTransfer{} },
		Decode:      decodeLinear,
	})
	Register(Registration{
		Name:            "rls-srcfeat",
		SelectsFeatures: true,
		Description:     "RLS src+feat: ridge regression on the features and source scores [X, H], λ by leave-one-out",
		New:             func() Method { return rlsSrcFeat{} },
		Decode:          decodeLinear,
	})
	Register(Registration{
		Name:        "average-kt",
		Description: "AverageKT: ridge regression on X biased towards the average standardised source, λ by leave-one-out",
		New:         func() Method { return averageKT{} },
		Decode:      decodeLinear,
	})
	Register(Registration{
		Name:        "best-source",
		Description: "Best source (ORACLE, reference only): the single rescaled source with the best balanced accuracy on held-out labels",
		New:         func() Method { return bestSource{} },
		Decode:      decodeLinear,
	})
}

// The ridge baselines (no-transfer, rls-srcfeat, average-kt) share
// GreedyTL's predictor form: ridge regression on standardised columns with
// no intercept, so the decision threshold 0 sits at the training mean, as
// GreedyTL's does (an unpenalised intercept would add ȳ, −2/3 with 2
// positives against 10 negatives, and push every prediction towards the
// majority class). rls-srcfeat is thus exactly GreedyTL with every column
// selected, and the comparison isolates the selection. λ is chosen from
// {1e-4, …, 1e4} by chooseByLOO on the closed-form leave-one-out residuals
// (linear.RidgeLOOPath); like GreedyTL's path, the leave-one-out fits keep
// the standardisation of the whole training sample.
//
// Constant columns standardise to zeros and get weight 0; duplicated columns
// share their weight (ridge is well-defined on any design). With only
// constant columns the model predicts 0 (the negative class) everywhere. A
// single positive is an ordinary input.

// noTransfer is ridge regression on the target features X alone (RLS, the
// paper's "No transfer"). Fit returns an error when X is absent. Source
// scores, when given, are not used, but their column count is recorded and
// checked at prediction (their weights are 0), like every method's.
type noTransfer struct{}

func (noTransfer) Name() string { return "no-transfer" }
func (noTransfer) Needs() Needs { return Needs{} }

func (noTransfer) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, noTransfer{}, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, noTransfer{}, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	if st.sx.Len() == 0 {
		return nil, errors.New("method: no-transfer needs target features X")
	}
	lambda, w, err := ridgeByLOO(ctx, st.zx, train.Y, nil)
	if err != nil {
		return nil, fmt.Errorf("method: no-transfer: %w", err)
	}
	return st.linear("no-transfer", w, make([]float64, st.sh.Len()), lambda), nil
}

// rlsSrcFeat is ridge regression on all the standardised columns
// Z = [X, H] (the paper's "RLS src+feat"): GreedyTL with every column
// selected and λ chosen by leave-one-out. With no sources it is no-transfer,
// with no features ridge on the sources alone.
type rlsSrcFeat struct{}

func (rlsSrcFeat) Name() string { return "rls-srcfeat" }
func (rlsSrcFeat) Needs() Needs { return Needs{} }

func (rlsSrcFeat) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, rlsSrcFeat{}, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, rlsSrcFeat{}, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	d, n := st.sx.Len(), st.sh.Len()
	lambda, w, err := ridgeByLOO(ctx, concatColumns(st.zx, st.zh), train.Y, nil)
	if err != nil {
		return nil, fmt.Errorf("method: rls-srcfeat: %w", err)
	}
	return st.linear("rls-srcfeat", w[:d:d], w[d:d+n], lambda), nil
}

// averageKT is the paper's AverageKT as docs/design.md §5 specifies it: the
// biased-regularisation least-squares model whose prior is the uniform
// average of the standardised sources,
//
//	min_w ‖Z_X w + h̄ − y‖² + λ‖w‖²,  h̄ = (1/n) Σ_j z_{h_j},
//
// i.e. ridge regression of y − h̄ on the standardised features, predicting
// Z_X w + h̄. Its leave-one-out prediction for example i is h̄_i plus the
// ridge model's, so the closed form carries over and λ is chosen by
// chooseByLOO. Every source counts in the average, constant ones (zeros
// after standardisation) included, and the source weights are 1/n.
//
// With no sources (n = 0) h̄ = 0 and it falls back to no-transfer (the model
// still reports method "average-kt"). With no features it predicts h̄
// itself and has no hyperparameter.
type averageKT struct{}

func (averageKT) Name() string { return "average-kt" }
func (averageKT) Needs() Needs { return Needs{} }

func (averageKT) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, averageKT{}, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, averageKT{}, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	d, n := st.sx.Len(), st.sh.Len()
	m := len(train.Y)
	hbar := make([]float64, m)
	wh := make([]float64, n)
	for j := range wh {
		wh[j] = 1 / float64(n)
	}
	for i := range hbar {
		if n > 0 {
			hbar[i] = mat.Sum(st.zh.RowView(i)) / float64(n)
		}
	}
	if d == 0 {
		l := st.linear("average-kt", nil, wh, 0)
		l.Hyper = map[string]float64{}
		return l, nil
	}
	lambda, w, err := ridgeByLOO(ctx, st.zx, train.Y, hbar)
	if err != nil {
		return nil, fmt.Errorf("method: average-kt: %w", err)
	}
	return st.linear("average-kt", w, wh, lambda), nil
}

// bestSource is the paper's "Best source", an ORACLE kept for reference: it
// reads the held-out labels (Extra.Oracle, in the protocol the test set),
// which no real method may. Each source j is rescaled on the training set by
// class-balanced least squares, y ≈ a_j·z_j + b_j with each class given
// half the total weight, so that (for a_j > 0) the threshold sits midway
// between the two classes' mean scores rather than being pulled towards the
// majority class; every rescaled source is then scored on Extra.Oracle by
// balanced accuracy and the best is kept (the lowest index on ties). Its
// hyperparameter "source" is the index of the source kept.
//
// Fit returns an error when Extra.Oracle is absent or invalid (column
// counts, non-finite values, labels other than ±1 or of one class only: the
// balanced accuracy of one class is that class's rate alone, which a source
// predicting it everywhere maximises) and when there are no sources. A source constant on the training set gets a_j = 0, b_j = 0:
// it predicts the negative class everywhere (balanced accuracy 1/2).
type bestSource struct{}

func (bestSource) Name() string { return "best-source" }
func (bestSource) Needs() Needs { return Needs{Oracle: true} }

func (bestSource) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, bestSource{}, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, bestSource{}, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	d, n := st.sx.Len(), st.sh.Len()
	if n == 0 {
		return nil, errors.New("method: best-source needs source scores H")
	}
	if extra.Oracle == nil {
		return nil, errors.New("method: best-source is an oracle and needs Extra.Oracle (labelled held-out data)")
	}
	if _, err := checkInputs(*extra.Oracle, d, n); err != nil {
		return nil, fmt.Errorf("method: best-source: oracle data: %w", err)
	}
	orows, _ := dims(extra.Oracle.H)
	if len(extra.Oracle.Y) != orows {
		return nil, fmt.Errorf("method: best-source: oracle data has %d labels for %d rows", len(extra.Oracle.Y), orows)
	}
	if _, _, err := validate.Binary(extra.Oracle.Y); err != nil {
		return nil, fmt.Errorf("method: best-source: oracle data: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	zo, err := st.sh.TransformContext(ctx, extra.Oracle.H)
	if err != nil {
		return nil, fmt.Errorf("method: best-source: oracle H: %w", err)
	}
	best, bestAcc := -1, math.Inf(-1)
	var bestA, bestB float64
	col := make([]float64, len(train.Y))
	pred := make([]float64, orows)
	for j := 0; j < n; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mat.Col(col, j, st.zh)
		a, b := balancedLine(col, train.Y)
		for i := range pred {
			pred[i] = a*zo.At(i, j) + b
		}
		acc, err := metric.BalancedAccuracy(pred, extra.Oracle.Y)
		if err != nil {
			return nil, fmt.Errorf("method: best-source: %w", err)
		}
		if acc > bestAcc {
			best, bestAcc, bestA, bestB = j, acc, a, b
		}
	}
	wh := make([]float64, n)
	wh[best] = bestA
	l := st.linear("best-source", make([]float64, d), wh, 0)
	l.B = bestB
	l.Hyper = map[string]float64{"source": float64(best)}
	return l, nil
}

// balancedLine returns the class-balanced least-squares line y ≈ a·z + b:
// example i has weight 1/(2m₊) or 1/(2m₋) by its class (see weightedLine;
// the weighted mean of y is 0).
func balancedLine(z, y []float64) (a, b float64) {
	var pos, neg float64
	for _, v := range y {
		if v > 0 {
			pos++
		} else {
			neg++
		}
	}
	return weightedLine(z, y, func(v float64) float64 {
		if v > 0 {
			return 1 / (2 * pos)
		}
		return 1 / (2 * neg)
	})
}

// leastSquaresLine returns the ordinary least-squares line y ≈ a·z + b,
// every example weighted 1/m (see weightedLine).
func leastSquaresLine(z, y []float64) (a, b float64) {
	m := float64(len(y))
	return weightedLine(z, y, func(float64) float64 { return 1 / m })
}

// weightedLine returns the weighted least-squares line y ≈ a·z + b, example
// i weighted weight(y[i]) (the weights sum to 1). A constant z (weighted
// variance below 1e-12; z is standardised) gives a = 0 and b the weighted
// mean of y.
func weightedLine(z, y []float64, weight func(float64) float64) (a, b float64) {
	var zbar, ybar float64 // weighted means
	for i, v := range z {
		zbar += weight(y[i]) * v
		ybar += weight(y[i]) * y[i]
	}
	var szz, szy float64
	for i, v := range z {
		dz := v - zbar
		szz += weight(y[i]) * dz * dz
		szy += weight(y[i]) * dz * y[i]
	}
	// On standardised columns szz ≥ 1/2 unless z is constant (all zeros, or
	// rounding-level values for a column constant within standardize.ConstTol).
	if szz < standardize.StandardisedConstTol {
		return 0, ybar
	}
	a = szy / szz
	return a, ybar - a*zbar
}

// standardized is a training sample's scalers and standardised matrices
// (nil when absent).
type standardized struct {
	sx, sh standardize.Scaler
	zx, zh *mat.Dense
}

func standardizeData(train Data) (standardized, error) {
	st := standardized{sx: standardize.Fit(train.X), sh: standardize.Fit(train.H)}
	var err error
	if st.zx, err = st.sx.Transform(train.X); err != nil {
		return st, fmt.Errorf("method: X: %w", err)
	}
	if st.zh, err = st.sh.Transform(train.H); err != nil {
		return st, fmt.Errorf("method: H: %w", err)
	}
	return st, nil
}

// linear returns the Linear model with the sample's scalers, weights wx and
// wh and hyperparameter "lambda" = lambda.
func (st standardized) linear(name string, wx, wh []float64, lambda float64) *Linear {
	if wx == nil {
		wx = make([]float64, st.sx.Len())
	}
	return &Linear{Name: name, X: st.sx, H: st.sh, WX: wx, WH: wh,
		Hyper: map[string]float64{"lambda": lambda}}
}

// concatColumns returns [A, B]; either may be nil (not both).
func concatColumns(A, B *mat.Dense) *mat.Dense {
	ra, ca := dims(A)
	rb, cb := dims(B)
	switch {
	case cb == 0:
		return A
	case ca == 0:
		return B
	}
	if ra != rb {
		panic("method: concatColumns: row counts differ")
	}
	Z := mat.NewDense(ra, ca+cb, nil)
	Z.Slice(0, ra, 0, ca).(*mat.Dense).Copy(A)
	Z.Slice(0, ra, ca, ca+cb).(*mat.Dense).Copy(B)
	return Z
}

// ridgeByLOO fits ridge regression without intercept of t = y − offset on
// the centred columns Z (offset nil means 0) for every λ of lambdaGrid,
// chooses λ by chooseByLOO on leave-one-out predictions (ridgeLambdaByLOO),
// and returns λ and the weights fitted on all examples.
func ridgeByLOO(ctx context.Context, Z *mat.Dense, y, offset []float64) (lambda float64, w []float64, err error) {
	_, lambda, target, err := ridgeLambdaByLOO(ctx, Z, y, offset)
	if err != nil {
		return 0, nil, err
	}
	w, _, err = linear.FitRidgeWeights(ctx, Z, target, lambda, false)
	if err != nil {
		return 0, nil, err
	}
	if err := checkFiniteSlice("weight", w); err != nil {
		return 0, nil, err
	}
	return lambda, w, nil
}

// ridgeLambdaByLOO chooses ridgeByLOO's λ: it reduces the ridge problem of
// t = y − offset on the centred columns Z once (linear.RidgeLOO, with an
// unpenalised intercept), computes the leave-one-out predictions of every
// λ of lambdaGrid and chooses by chooseByLOO. It returns the reduction (for
// the weights at λ: its Weights are those of ridge without intercept, Z
// being centred), λ and t. A λ for which the closed form is numerically
// unreliable (linear.RidgeLOOPath's errors) is skipped; ridgeLambdaByLOO
// returns an error when every λ is.
//
// The leave-one-out prediction re-centres the columns without example i:
// Z was centred with every example, so the left-out row equals minus the
// sum of the others, and a nearly interpolating fit (small λ, d ≥ m) would
// "predict" it as y_i − Σ_{j≠i} y_j — on a balanced sample, exactly y_i —
// making the smallest λ win by an artefact. Fitting without example i on
// columns centred without it gives f₋ᵢ(z_i) = w₋ᵢ·(z_i − z̄₋ᵢ), which is the
// leave-one-out prediction of ridge with an unpenalised intercept minus
// t̄₋ᵢ (the intercept absorbs the centring; the weights are the same). So
// the prediction used is offset_i + (t_i − r_i) − t̄₋ᵢ, with r_i the
// intercept model's closed-form leave-one-out residual. (The columns'
// scaling by their standard deviation is not redone without i.)
func ridgeLambdaByLOO(ctx context.Context, Z *mat.Dense, y, offset []float64) (rl *linear.RidgeLOO, lambda float64, target []float64, err error) {
	target = y
	if offset != nil {
		target = make([]float64, len(y))
		for i := range y {
			target[i] = y[i] - offset[i]
		}
	}
	rl, err = linear.NewRidgeLOO(ctx, Z, target, true)
	if err != nil {
		return nil, 0, nil, err
	}
	path, err := rl.Path(ctx, lambdaGrid)
	if err != nil {
		// Some λ is too small for these data: take the others one by one.
		path = path[:0]
		for _, l := range lambdaGrid {
			if err := ctx.Err(); err != nil {
				return nil, 0, nil, err
			}
			p, err1 := rl.Path(ctx, []float64{l})
			if err1 == nil {
				path = append(path, p[0])
			}
		}
		if len(path) == 0 {
			return nil, 0, nil, err
		}
	}
	m := len(y)
	var sum float64
	for _, v := range target {
		sum += v
	}
	// constantWithout[i]: the targets other than t_i are all equal, so the
	// re-centred fit without i has w = 0 exactly and predicts offset_i (for
	// example when i is the only positive); the closed form would give that
	// up to rounding, whose sign must not decide a classification.
	constantWithout := make([]bool, m)
	for i := range m {
		constantWithout[i] = true
		first := -1
		for j := range m {
			if j == i {
				continue
			}
			if first < 0 {
				first = j
			} else if target[j] != target[first] {
				constantWithout[i] = false
				break
			}
		}
	}
	cands := make([]looCandidate, len(path))
	for k, p := range path {
		pred := make([]float64, m)
		for i, r := range p.LOO {
			if constantWithout[i] {
				pred[i] = y[i] - target[i]
				continue
			}
			meanOthers := (sum - target[i]) / float64(m-1)
			pred[i] = y[i] - r - meanOthers
		}
		cands[k] = looCandidate{Strength: p.Lambda, Pred: pred}
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		return nil, 0, nil, err
	}
	return rl, path[best].Lambda, target, nil
}
