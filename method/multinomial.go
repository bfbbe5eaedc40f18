package method

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/greedytl/greedytl/grid"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// multinomialLogistic is the method "multinomial-logistic": L2-regularised
// multinomial (softmax) logistic regression on the standardised [X, H],
// class-balanced,
//
//	min_{W,b} ½‖W‖²_F + C Σ_i v_i [log Σ_k exp(w_kᵀz_i + b_k) − (w_{y_i}ᵀz_i + b_{y_i})],
//
// the intercepts b unpenalised, v_i = m / (K · n_{y_i}) the weight that
// gives every class the same total weight (classBalancedWeights; scikit-learn's
// LogisticRegression(multi_class="multinomial", solver="lbfgs",
// class_weight="balanced"); b is reported with Σ_k b_k = 0, which leaves
// the scores' differences unchanged). With every class of the same number
// of examples every v_i is 1, and the fit is the unweighted one, bit for
// bit. With uneven counts the unweighted loss lets the class frequencies
// speak through the intercepts, the more the harder C regularises W: with
// a class of one example beside classes of ten, C = 1 (below) on rows of
// unit norm (greedytl-nway's) predicted the larger classes for every test
// row of the smaller (docs/results/README.md, "Several classes at once",
// uneven shots). The weights make the fit aim at the balanced error, the
// measure its C is chosen by; with training counts that follow the rows
// to be classified, they shift predictions toward the smaller classes.
//
// It is solved by L-BFGS (lbfgs) to a gradient of infinity norm
// multinomialTol on the objective divided by C·m.
//
// C ∈ grid.Regularization() (1e-4 … 1e4) is chosen by stratified k-fold
// cross-validation on the training examples, k = min(5, the smallest class's
// count), when every class has at least two examples: the lowest
// class-balanced held-out error (1 − balanced accuracy), ties broken by the
// lower mean held-out log-loss, then by the smaller C. That log-loss is
// not class-balanced: every held-out example counts alike
// (balancedErrorLogLoss), so among the C of equal balanced error the
// larger classes' examples weigh more in the tie-break, while the fits and
// the error weigh the classes alike; weighting it too would be a change of
// the published choice, to be measured first. With a class of one
// example no fold split exists and C is scikit-learn's default, 1. The
// folds are dealt with Extra.Seed from each class's rows in content order
// (contentOrder, in which every native multi-class fit reads its rows:
// fitMultiScaled), so that the fit depends on the set of training rows,
// not on their order: any permutation of them gives the same model, bit
// for bit. The columns are standardised once, on all training examples
// (unsupervised: no label is used).
//
// With more than 20 examples of a class (multinomialCVPerClass), C is
// chosen on 20 of that class's examples, drawn with Extra.Seed from its
// rows in content order, and all of the others' (cvSubsample); the final
// fit uses every example. The
// cross-validation's cost then stops growing with the rows (an L-BFGS step
// costs O(rows·min(rows, p)·K)), while C, the weight of the summed loss as
// in scikit-learn, keeps its meaning on more rows: the penalty's share
// falls as the rows grow, as it does between a fold and the whole sample.
// The few-shot fits this method is made for (up to 20 examples a class)
// are not affected.
//
// The cross-validation's fits stop at a gradient of multinomialCVTol = 1e-4
// (on the objective divided by C·m), each warm-started from the previous
// C's fit of its fold. That is a convention of the search, not an
// approximation of an exact one: at large C, where a fold's examples are
// nearly separable and the minimiser lies far from the previous C's, these
// fits stop short of it, their held-out predictions differ from the
// minimiser's, and the C chosen can differ from the one an exact search
// (scikit-learn's, on the same folds) would choose — on a 4-class, 3-shot
// problem of TestMultinomialCVAgainstScikitLearn, C = 100 where exact fits
// choose 0.1. The published results were made with this search.
//
// With more columns than examples (p > m) the fit is done in the span of
// the training rows: Z = U S Vᵀ, and W = B Vᵀ leaves the loss of every fold
// unchanged while ‖W‖ = ‖B‖, so the problem is the same on the m × r
// matrix U S (r the numerical rank). Its hyperparameter is "C".
type multinomialLogistic struct {
	// hOnly fits on the source columns alone (X's weights 0).
	hOnly bool
}

const (
	// multinomialTol is the final fit's gradient tolerance.
	multinomialTol = 1e-7
	// multinomialCVTol is the cross-validation fits' tolerance, coarser
	// than the final fit's for speed; at large C it moves the held-out
	// predictions, and can move the choice (see multinomialLogistic).
	multinomialCVTol = 1e-4
	// multinomialFolds is the largest number of folds.
	multinomialFolds = 5
	// multinomialDefaultC is C when cross-validation is impossible.
	multinomialDefaultC = 1.0
	// multinomialCVPerClass caps the examples of a class that the
	// cross-validation of C uses (cvSubsample).
	multinomialCVPerClass = 20
)

// multinomialIters caps the L-BFGS iterations of one fit; a variable only
// so that a test can force the cap.
var multinomialIters = 1000

// Name returns "multinomial-logistic".
func (multinomialLogistic) Name() string { return "multinomial-logistic" }

// Needs reports that multinomial-logistic needs nothing beyond the
// labelled sample and draws at random (Extra.Seed deals the folds of C's
// choice).
func (multinomialLogistic) Needs() Needs { return Needs{Seed: true} }

// FitMulti fits the model (see multinomialLogistic).
func (ml multinomialLogistic) FitMulti(ctx context.Context, train Data, y ClassLabels, extra Extra) (MultiModel, error) {
	return fitMultiScaled(ctx, ml.Name(), train, y, standardize.Fit, func(s blockScaler, Z *mat.Dense, y ClassLabels) (MultiModel, error) {
		l, err := fitMultinomialModel(ctx, ml.Name(), s, Z, y, extra.Seed, 0, nil)
		if err != nil {
			return nil, err // not l: a nil *LinearMulti in a MultiModel is not nil
		}
		return l, nil
	})
}

// fitMultinomialModel fits the multinomial logistic model on the columns
// of Z from column first on (the earlier ones get weight 0), standardised
// by s, C chosen as multinomialLogistic says, each example's loss
// weighted so that every class has the same total weight
// (classBalancedWeights: of the cross-validation's sample in its fits, of
// all the examples in the final fit). The model reports the L-BFGS runs,
// of the cross-validation and of the final fit, that stopped before their
// tolerance (NotConverged). It reports its progress to done (nil: none),
// multinomialUnits(y, p − first) units: one for each fold of the
// cross-validation, then the final fit's.
func fitMultinomialModel(ctx context.Context, name string, s blockScaler, Z *mat.Dense, y ClassLabels, seed uint64, first int, done *fitProgress) (*LinearMulti, error) {
	m, p := Z.Dims()
	K := len(y.Names)
	sub := Z
	if first > 0 {
		sub = Z.Slice(0, m, first, p).(*mat.Dense)
	}
	F, back, err := reduceRows(ctx, sub)
	if err != nil {
		return nil, err
	}
	weights := classBalancedWeights(y)
	Fcv, ycv, wcv := F, y, weights
	if rows := cvSubsample(y, seed); rows != nil {
		// In the span of the subsample's rows, as F is in all the rows':
		// the same held-out losses, at the subsample's cost.
		if Fcv, _, err = reduceRows(ctx, rowsOf(sub, rows)); err != nil {
			return nil, err
		}
		ycv = y.rows(rows)
		wcv = classBalancedWeights(ycv)
	}
	runs := &solverRuns{solver: fmt.Sprintf("L-BFGS (to a gradient tolerance, at most %d iterations)", multinomialIters)}
	c, err := chooseMultinomialC(ctx, Fcv, ycv, wcv, seed, runs, done)
	if err != nil {
		return nil, err
	}
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	x, converged, err := fitMultinomial(ctx, F, y.Y, weights, K, all, c, nil, multinomialTol)
	if err != nil {
		return nil, err
	}
	runs.add(converged)
	_, final := multinomialUnits(y, p-first)
	done.addUnits(ctx, final)
	r := F.RawMatrix().Cols
	beta := mat.NewDense(K, r, x[:K*r])
	w := mat.NewDense(K, p, nil)
	wsub := w.Slice(0, K, first, p).(*mat.Dense)
	if back != nil {
		wsub.Mul(beta, back)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	} else {
		wsub.Copy(beta)
	}
	b := slices.Clone(x[K*r:])
	var mean float64
	for _, v := range b {
		mean += v
	}
	mean /= float64(K)
	for k := range b {
		b[k] -= mean
	}
	l := &LinearMulti{multiBase: multiBase{name, slices.Clone(y.Names), map[string]float64{"C": c}}, s: s, w: w, b: b}
	l.notConverged = runs.report(converged)
	if err := checkFiniteScores(w); err != nil {
		return nil, fmt.Errorf("method: %s: the weights are not finite", name)
	}
	return l, nil
}

// reduceRows returns F and back with F·back = Z's row space map: when Z
// (m × p) has more columns than rows, F = U S (m × r) and back = S⁻¹UᵀZ =
// Vᵀ (r × p), r the numerical rank, so that Z = F·back and a weight matrix
// B on F's columns is W = B·back on Z's, of the same norm. Otherwise F = Z
// and back is nil. It checks ctx after each of its matrix steps (the Gram
// matrix, its eigendecomposition, back) and returns ctx.Err() once ctx is
// done.
func reduceRows(ctx context.Context, Z *mat.Dense) (F, back *mat.Dense, err error) {
	m, p := Z.Dims()
	if p <= m {
		return Z, nil, nil
	}
	var G mat.SymDense
	G.SymOuterK(1, Z)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	vals, U, ok, err := eigenSymChecked(ctx, &G)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return Z, nil, nil
	}
	top := slices.Max(vals)
	var keep []int
	for j, v := range vals {
		if v > top*1e-12 && v > 0 {
			keep = append(keep, j)
		}
	}
	if len(keep) == 0 {
		return Z, nil, nil
	}
	r := len(keep)
	F = mat.NewDense(m, r, nil)
	Us := mat.NewDense(m, r, nil) // U S⁻¹
	for t, j := range keep {
		sv := math.Sqrt(vals[j])
		for i := 0; i < m; i++ {
			u := U.At(i, j)
			F.Set(i, t, u*sv)
			Us.Set(i, t, u/sv)
		}
	}
	back = mat.NewDense(r, p, nil)
	back.Mul(Us.T(), Z)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return F, back, nil
}

// multinomialFoldsOf returns a stratified assignment of the examples to k
// folds: linear.DealFolds of the classes' rows in the order given (the
// fits give them in content order: fitMultiScaled), rng PCG(seed,
// 0x6e776179).
func multinomialFoldsOf(y ClassLabels, k int, seed uint64) []int {
	return linear.DealFolds(classRowsOf(y), k, rand.New(rand.NewPCG(seed, 0x6e776179)))
}

// cvSubsample returns the rows on which C is chosen when a class has more
// than multinomialCVPerClass examples: that many of each such class, drawn
// with seed from its rows in the order given (the fits give them in
// content order: fitMultiScaled), and every example of the others, in
// increasing order. It returns nil when no class has more (C is chosen on
// all the rows).
func cvSubsample(y ClassLabels, seed uint64) []int {
	classes := classRowsOf(y)
	if slices.IndexFunc(classes, func(r []int) bool { return len(r) > multinomialCVPerClass }) < 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x63767375)) // "cvsu"
	var rows []int
	for _, r := range classes {
		if len(r) > multinomialCVPerClass {
			r = slices.Clone(r)
			rng.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
			r = r[:multinomialCVPerClass]
		}
		rows = append(rows, r...)
	}
	slices.Sort(rows)
	return rows
}

// multinomialCVFolds returns the number of folds of the cross-validation
// of C on examples of the class counts given: min(multinomialFolds, the
// smallest count), 0 (no cross-validation) when that is less than 2.
func multinomialCVFolds(counts []int) int {
	if k := min(multinomialFolds, slices.Min(counts)); k >= 2 {
		return k
	}
	return 0
}

// multinomialUnits returns the units of work that fitMultinomialModel
// reports for the labels y and p columns: total, one for each fold of the
// cross-validation of C (on cvSubsample's rows, multinomialCVPerClass at
// most of a class), and final for the final fit, which it reports at
// once. A fold is the fits of every C on its other folds' rows, the final
// fit one fit on all the rows: an L-BFGS step costs O(rows·min(rows, p)·K)
// (the problem in the rows' span, reduceRows), so the final fit counts as
// many folds as its rows·min(rows, p) holds a fold's, at least one (16
// with 100 examples of 20 classes and 1,000 columns, where it took 18
// folds' time, 3 to 5 s; 1 with 10 of 20, 1.1 folds' time).
func multinomialUnits(y ClassLabels, p int) (total, final int) {
	counts := y.Counts()
	m, mcv := 0, 0
	for c, n := range counts {
		counts[c] = min(n, multinomialCVPerClass)
		m, mcv = m+n, mcv+counts[c]
	}
	k := multinomialCVFolds(counts)
	final = 1
	if k > 0 {
		fold := float64(mcv) * float64(k-1) / float64(k) // a fold's fitted rows
		final = max(1, int(math.Round(float64(m)*float64(min(m, p))/(fold*float64(min(mcv, p))))))
	}
	return k + final, final
}

// multinomialCGrid returns the values of C among which chooseMultinomialC
// chooses (a fresh slice).
func multinomialCGrid() []float64 { return grid.Regularization() }

// chooseMultinomialC chooses C by stratified cross-validation (see
// multinomialLogistic), the fits' losses weighted by weights (nil: all 1);
// runs counts its fits, done its folds (nil: not counted).
func chooseMultinomialC(ctx context.Context, F *mat.Dense, y ClassLabels, weights []float64, seed uint64, runs *solverRuns, done *fitProgress) (float64, error) {
	counts := y.Counts()
	k := multinomialCVFolds(counts)
	if k == 0 {
		return multinomialDefaultC, nil
	}
	cs := multinomialCGrid()
	held, err := heldOutProbabilities(ctx, F, y, weights, multinomialFoldsOf(y, k, seed), k, cs, multinomialCVTol, runs, done)
	if err != nil {
		return 0, err
	}
	errs, losses := make([]float64, len(cs)), make([]float64, len(cs))
	for g := range cs {
		errs[g], losses[g] = held[g].balancedErrorLogLoss(y, counts)
	}
	return cs[bestHeldOut(errs, losses)], nil
}

// bestHeldOut returns the index of the lowest held-out balanced error
// errs[g] (equal within 1e-12), ties broken by the lower log-loss
// losses[g] (lower by more than a relative 1e-9), then by the lower index.
func bestHeldOut(errs, losses []float64) int {
	best, bestErr, bestLoss := 0, math.Inf(1), math.Inf(1)
	for g, e := range errs {
		if l := losses[g]; e < bestErr-1e-12 || (math.Abs(e-bestErr) <= 1e-12 && l < bestLoss*(1-1e-9)) {
			best, bestErr, bestLoss = g, e, l
		}
	}
	return best
}

// heldOut is what the cross-validation of C keeps of one candidate's
// held-out class probabilities, per example i: whether their argmax
// (the lowest class winning a tie) is its class, and log(max(p_i,y_i,
// 1e-300)). It holds m values, not the m × K probabilities (9 × m × K
// float64 for the grid: 14.4 GB at 20,000 examples of 10,000 classes).
type heldOut struct {
	right   []bool
	logProb []float64
}

// heldOutProbabilities returns, for every C of cs, what chooseMultinomialC
// needs of the held-out class probabilities of the rows of F at C = cs[g]
// (heldOut) from the fits on the other folds of fold (k folds), each to a
// gradient of tol, warm-started from the previous C's fit of the same
// fold, the examples' losses weighted by weights (nil: all 1; the same
// weights in every fold, as scikit-learn's LogisticRegressionCV weighs
// them); runs counts the fits, done the folds (nil: not counted), each
// once its every C is fitted and scored. It scores one held-out row at a
// time into a K-vector, and checks ctx every fitctx.Rows rows
// (fitctx.RowErr; at 10,000 classes a fold's scoring is m/k × K products
// of the candidate's weights).
func heldOutProbabilities(ctx context.Context, F *mat.Dense, y ClassLabels, weights []float64, fold []int, k int, cs []float64, tol float64, runs *solverRuns, done *fitProgress) ([]heldOut, error) {
	K := len(y.Names)
	m := len(y.Y)
	held := make([]heldOut, len(cs))
	for g := range held {
		held[g] = heldOut{right: make([]bool, m), logProb: make([]float64, m)}
	}
	p := make([]float64, K)
	r := F.RawMatrix().Cols
	for f := range k {
		in, out := linear.FoldRows(fold, f)
		var x []float64
		for g, c := range cs {
			var err error
			var converged bool
			if x, converged, err = fitMultinomial(ctx, F, y.Y, weights, K, in, c, x, tol); err != nil {
				return nil, err
			}
			runs.add(converged)
			// Raw rows, not mat.Dot of RowViews, which allocate two
			// vectors a product (m·K a candidate C: a sixth of the CPU of
			// 1,000 classes); blas64.Dot is what mat.Dot calls on them.
			for t, i := range out {
				if err := fitctx.RowErr(ctx, t); err != nil {
					return nil, err
				}
				fi := blas64.Vector{N: r, Inc: 1, Data: F.RawRowView(i)}
				for c := range K {
					p[c] = blas64.Dot(blas64.Vector{N: r, Inc: 1, Data: x[c*r : (c+1)*r]}, fi) + x[K*r+c]
				}
				softmaxInPlace(p)
				yi := y.Y[i]
				held[g].right[i] = argmax(p) == yi
				held[g].logProb[i] = math.Log(max(p[yi], 1e-300))
			}
		}
		done.add(ctx)
	}
	return held, nil
}

// argmax returns the index of the largest value of p, the lowest index
// winning a tie.
func argmax(p []float64) int {
	best := 0
	for k, v := range p {
		if v > p[best] {
			best = k
		}
	}
	return best
}

// classBalancedWeights returns the weight of each example of y that gives
// every class the same total weight, m / (K · n_c) for an example of a
// class of n_c of the m examples in K classes (scikit-learn's
// class_weight="balanced"): the weights sum to m, so that C keeps its
// meaning. With every class of the same count they are all exactly 1, and
// it returns nil (no weights: the same fit, bit for bit).
func classBalancedWeights(y ClassLabels) []float64 {
	counts := y.Counts()
	if slices.Min(counts) == slices.Max(counts) {
		return nil
	}
	m, K := len(y.Y), len(counts)
	w := make([]float64, m)
	for i, c := range y.Y {
		w[i] = float64(m) / float64(K*counts[c])
	}
	return w
}

// balancedErrorLogLoss returns the class-balanced 0-1 error of the held-out
// argmaxes and the mean log-loss, summed over the examples in row order,
// every example counted alike (not class-balanced; see multinomialLogistic).
func (h heldOut) balancedErrorLogLoss(y ClassLabels, counts []int) (errRate, logLoss float64) {
	K := len(y.Names)
	wrong := make([]int, K)
	for i, c := range y.Y {
		if !h.right[i] {
			wrong[c]++
		}
		logLoss -= h.logProb[i]
	}
	for k, w := range wrong {
		errRate += float64(w) / float64(counts[k])
	}
	return errRate / float64(K), logLoss / float64(len(y.Y))
}

// softmaxInPlace replaces p by its softmax.
func softmaxInPlace(p []float64) {
	mx := slices.Max(p)
	var s float64
	for k, v := range p {
		p[k] = math.Exp(v - mx)
		s += p[k]
	}
	for k := range p {
		p[k] /= s
	}
}

// errNotFinite reports an objective that stopped being finite.
var errNotFinite = errors.New("method: multinomial-logistic: the objective is not finite")

// fitMultinomial minimises the objective of multinomialLogistic divided by
// C·|rows| over the rows of F listed, each example's loss multiplied by its
// weight weights[i] (nil: all 1; classBalancedWeights), from x0 (nil:
// zero), to a gradient of infinity norm tol, and returns the parameters — B (K × r, row-major),
// then b (K) — and whether L-BFGS reached tol (lbfgs).
func fitMultinomial(ctx context.Context, F *mat.Dense, y []int, weights []float64, K int, rows []int, C float64, x0 []float64, tol float64) ([]float64, bool, error) {
	_, r := F.Dims()
	Fs := rowsOf(F, rows)
	m := len(rows)
	yy := make([]int, m)
	ww := make([]float64, m) // the rows' weights
	for t, i := range rows {
		yy[t] = y[i]
		ww[t] = 1
		if weights != nil {
			ww[t] = weights[i]
		}
	}
	logits := mat.NewDense(m, K, nil)
	inv := 1 / float64(m)
	reg := 1 / (C * float64(m))
	var lastErr error
	fg := func(grad, x []float64) float64 {
		beta := mat.NewDense(K, r, x[:K*r])
		logits.Mul(Fs, beta.T())
		var f float64
		for i := 0; i < m; i++ {
			row := logits.RawRowView(i)
			for k := range row {
				row[k] += x[K*r+k]
			}
			mx := slices.Max(row)
			var s float64
			for _, v := range row {
				s += math.Exp(v - mx)
			}
			lse := mx + math.Log(s)
			// A weight of 1 leaves every value as it was unweighted,
			// bit for bit: 1·v = v.
			f += ww[i] * (lse - row[yy[i]])
			if grad != nil {
				wi := ww[i] * inv
				for k, v := range row {
					row[k] = math.Exp(v-lse) * wi // residual P − Y, weighted and scaled
				}
				row[yy[i]] -= wi
			}
		}
		f *= inv
		var sq float64
		for _, v := range x[:K*r] {
			sq += v * v
		}
		f += 0.5 * reg * sq
		if grad != nil {
			g := mat.NewDense(K, r, grad[:K*r])
			g.Mul(logits.T(), Fs)
			for j, v := range x[:K*r] {
				grad[j] += reg * v
			}
			gb := grad[K*r:]
			clear(gb)
			for i := 0; i < m; i++ {
				for k, v := range logits.RawRowView(i) {
					gb[k] += v
				}
			}
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			lastErr = errNotFinite
		}
		return f
	}
	n := K*r + K
	x := make([]float64, n)
	if x0 != nil {
		copy(x, x0)
	}
	_, _, converged, err := lbfgs(ctx, func(x, grad []float64) float64 { return fg(grad, x) }, x, tol, multinomialIters)
	if err != nil {
		return nil, false, err
	}
	if lastErr != nil {
		return nil, false, lastErr
	}
	return x, converged, nil
}
