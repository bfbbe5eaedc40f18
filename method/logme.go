package method

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

func init() {
	Register(Registration{
		Name:        "logme-source",
		Description: "LogME source: the single source with the highest LogME evidence on the training examples, rescaled on them",
		New:         func() Method { return logmeSource{} },
		Decode:      decodeLinear,
	})
}

// logmeSource is the method "logme-source": what a practitioner does today
// to pick one model from a zoo without looking at test labels. Every source
// j is scored by its LogME evidence (You et al., "LogME: Practical
// Assessment of Pre-trained Models for Transfer Learning", ICML 2021) on the
// training examples, with the source's standardised score and a constant as
// its features f_i = (z_ij, 1) and the one-hot labels as the targets: the
// log marginal likelihood, per example and averaged over the two classes, of
// Bayesian linear regression of each class's indicator on f with the prior
// precision α and the noise precision β maximised by LogME's fixed-point
// iteration (logmeEvidence). The source with the highest evidence (the
// lowest index on ties) is then rescaled on the training examples as
// best-source does (class-balanced least squares, balancedLine), so that
// the two methods differ only in how the source is chosen: by the training
// labels here, by the held-out labels there.
//
// Fit returns an error when there are no sources and for the inputs
// checkTrain rejects. The model is a Linear model on the chosen source
// alone; its hyperparameters are "source" (its index) and "evidence" (its
// LogME value). A source constant on the training set has the evidence of
// the constant alone; if it wins, it predicts 0 (the negative class).
type logmeSource struct{}

// Name returns "logme-source".
func (logmeSource) Name() string { return "logme-source" }

// Needs reports that logme-source needs nothing beyond the labelled sample.
func (logmeSource) Needs() Needs { return Needs{} }

// Fit chooses and rescales the source (see logmeSource).
func (logmeSource) Fit(ctx context.Context, train Data, _ Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, logmeSource{}, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, logmeSource{}, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	d, n := st.sx.Len(), st.sh.Len()
	if n == 0 {
		return nil, errors.New("method: logme-source needs source scores H")
	}
	best, bestEv, err := logmeChoose(ctx, st.zh, train.Y, nil)
	if err != nil {
		return nil, err
	}
	col := mat.Col(nil, best, st.zh)
	a, b := balancedLine(col, train.Y)
	wh := make([]float64, n)
	wh[best] = a
	l := st.linear("logme-source", make([]float64, d), wh, 0)
	l.B = b
	l.Hyper = map[string]float64{"source": float64(best), "evidence": bestEv}
	return l, nil
}

// logmeChoose returns the index of the standardised source column of zh
// (m × n, n > 0) with the highest LogME evidence for the labels y (the
// first in the order of the candidates on ties), and that evidence (see
// logmeSource). The candidates are the columns listed in cols, or every
// column when cols is nil.
func logmeChoose(ctx context.Context, zh *mat.Dense, y []float64, cols []int) (best int, bestEv float64, err error) {
	m, n := zh.Dims()
	if cols == nil {
		cols = make([]int, n)
		for j := range cols {
			cols[j] = j
		}
	}
	targets := make([][]float64, 2) // the one-hot labels: y = +1, y = −1
	for k := range targets {
		targets[k] = make([]float64, m)
	}
	for i, v := range y {
		if v > 0 {
			targets[0][i] = 1
		} else {
			targets[1][i] = 1
		}
	}
	F := mat.NewDense(m, 2, nil)
	col := make([]float64, m)
	best, bestEv = -1, math.Inf(-1)
	for _, j := range cols {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		mat.Col(col, j, zh)
		for i, v := range col {
			F.Set(i, 0, v)
			F.Set(i, 1, 1)
		}
		ev, err := logme(F, targets)
		if err != nil {
			return 0, 0, fmt.Errorf("method: logme-source: source %d: %w", j, err)
		}
		if ev > bestEv {
			best, bestEv = j, ev
		}
	}
	return best, bestEv, nil
}

// logme returns the LogME score of the features F (m × D) for the targets
// (each of length m): the mean over the targets of logmeEvidence.
func logme(F *mat.Dense, targets [][]float64) (float64, error) {
	m, D := F.Dims()
	var ftf mat.SymDense
	ftf.SymOuterK(1, F.T())
	var eig mat.EigenSym
	if !eig.Factorize(&ftf, true) {
		return 0, errors.New("LogME: eigendecomposition of FᵀF failed")
	}
	s := eig.Values(nil)
	for k, v := range s {
		s[k] = math.Max(v, 0) // FᵀF is positive semi-definite; clip rounding
	}
	var V mat.Dense
	eig.VectorsTo(&V)
	var sum float64
	for _, t := range targets {
		var ft, proj mat.VecDense
		ft.MulVec(F.T(), mat.NewVecDense(m, t))
		proj.MulVec(V.T(), &ft)
		sum += logmeEvidence(F, &V, s, proj.RawVector().Data, t, D)
	}
	return sum / float64(len(targets)), nil
}

// logmeEvidence is LogME's per-target evidence (You et al. 2021, Algorithm
// 1, as in its reference implementation): for y = Fw + ε with w ~ N(0, α⁻¹I)
// and ε ~ N(0, β⁻¹I), α and β start at 1 and follow the fixed point
//
//	γ = Σ_k βs_k/(α + βs_k), m = V·diag(β/(α + βs_k))·VᵀFᵀy,
//	α ← γ/mᵀm, β ← (n − γ)/||y − Fm||²
//
// (s_k, the columns of V: the eigenpairs of FᵀF; proj = VᵀFᵀy) until α/β
// changes by less than a relative 1e-2 (at most 11 steps), and
// the log evidence per example
//
//	[D/2·log α + n/2·log β − ½Σ_k log(α + βs_k) − β/2·||y − Fm||² − α/2·mᵀm − n/2·log 2π] / n
//
// is returned. The stopping rule is the reference implementation's, so
// the scores are LogME's (TestLogMEReference checks them against it).
func logmeEvidence(F *mat.Dense, V *mat.Dense, s, proj, y []float64, D int) float64 {
	const eps = 1e-5 // the reference implementation's guard against 0/0
	n := float64(len(y))
	alpha, beta := 1.0, 1.0
	lam := alpha / beta
	mw := make([]float64, D)
	coef := make([]float64, D)
	fm := make([]float64, len(y))
	var alphaDe, betaDe float64
	for range logmeMaxIter {
		var gamma float64
		for k, sk := range s {
			gamma += sk / (sk + lam)
			coef[k] = proj[k] * beta / (alpha + beta*sk)
		}
		// m = V·coef
		for r := range D {
			mw[r] = 0
			for k := range D {
				mw[r] += V.At(r, k) * coef[k]
			}
		}
		alphaDe = 0
		for _, v := range mw {
			alphaDe += v * v
		}
		alpha = gamma / (alphaDe + eps)
		betaDe = 0
		for i := range y {
			fm[i] = 0
			for r := range D {
				fm[i] += F.At(i, r) * mw[r]
			}
			e := y[i] - fm[i]
			betaDe += e * e
		}
		beta = (n - gamma) / (betaDe + eps)
		newLam := alpha / beta
		done := math.Abs(newLam-lam)/lam < 1e-2
		lam = newLam
		if done {
			break
		}
	}
	ev := float64(D)/2*math.Log(alpha) + n/2*math.Log(beta) - beta/2*betaDe - alpha/2*alphaDe - n/2*math.Log(2*math.Pi)
	for _, sk := range s {
		ev -= 0.5 * math.Log(alpha+beta*sk)
	}
	return ev / n
}

// logmeMaxIter caps LogME's fixed-point iteration (the reference
// implementation's 11 steps).
const logmeMaxIter = 11
