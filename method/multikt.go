package method

import (
	"context"
	"fmt"

	"github.com/greedytl/greedytl/hinge"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/lssvm"
	"gonum.org/v1/gonum/mat"
)

// multiKT is MultiKT (Tommasi, Orabona and Caputo, "Learning categories from
// few examples with multi model knowledge transfer", TPAMI 2014) with a
// linear kernel, as docs/design.md §5 specifies it. On the standardised columns zx (features)
// and zh (sources) of the m training examples it fits the class-balanced
// least-squares SVM
//
//	min_{w,b} ½||w||² + (C/2) Σ_i ζ_i (y_i − wᵀzx_i − b − βᵀzh_i)²,
//
// ζ_i = m/(2m₊) for the positives and m/(2m₋) for the negatives (so that
// each class carries half the loss). For fixed β the solution is linear in
// β: [α; b] = M⁻¹[y − Hβ; 0] with M = [[K + diag(1/(Cζ)), 1], [1ᵀ, 0]],
// K = ZxZxᵀ and w = Σ_i α_i zx_i, and the leave-one-out prediction of example
// i is ỹ_i(β) = y_i − α_i/(M⁻¹)_ii (the closed form keeps the weights ζ of the
// whole sample when example i is left out). ỹ is affine in β:
// ỹ(β) = c + Gβ with c = y − D⁻¹Ay and G = D⁻¹AH, A the top-left m × m block
// of M⁻¹ and D its diagonal, so M⁻¹ and G are computed once per C and an
// optimisation step costs at most O(m·n) (see hinge.Loss.Minimise: O(m²) for
// the L2 ball, about O(m + n) for the L1 ball).
//
// β minimises the class-balanced LOO hinge loss
//
//	L(β) = (1/m) Σ_i ζ_i max(0, 1 − y_i ỹ_i(β))
//
// subject to ||β||₂ ≤ τ (multikt-l2) or ||β||₁ ≤ τ (multikt-l1) by projected
// subgradient descent with normalised steps of decreasing length
// r/√(t+1), t = 0, 1, …, exact projections (ball.ProjectL2, ball.ProjectL1)
// and the best iterate kept. The initial step r is min(τ, 3/s), s the root
// mean square norm of G's rows: moving β by 1/s along a row direction moves
// that example's LOO prediction by about 1, the scale of the hinge. The τ
// grid is swept in increasing order, each τ starting from the previous one's
// solution (which lies in the larger ball), so L at the chosen β never
// increases with τ. The descent stops after a fixed number of steps (1000)
// or as soon as it meets a zero subgradient (an optimum). A ball so small
// that no LOO prediction can cross its margin needs no descent: L is linear
// on it, and its exact minimiser, a point of the sphere, is taken.
//
// C ∈ {1e-4, …, 1e4} and τ ∈ {1e-3, …, 1e3} are chosen by chooseByLOO on the
// LOO predictions ỹ(β) of each pair's β (a larger regularisation being a
// smaller C, then a smaller τ). Note that β was fitted to those same LOO
// predictions, as in MultiKT. The model predicts wᵀzx + b + βᵀzh: a Linear
// model whose source weights are β; its hyperparameters are "C" and "tau".
//
// Edge cases: with a single positive the weights ζ still balance the classes
// and the fit is defined. Duplicated columns are harmless (the LS-SVM is
// solved in the dual); constant columns standardise to zeros and get weight
// zero. With no sources (H absent or without columns) MultiKT is the
// class-balanced LS-SVM on X with C chosen by LOO, and "tau" is not reported;
// with no features (X absent) it is the LS-SVM on a bias plus the weighted
// sources.
type multiKT struct {
	name  string
	l1    bool // the L1 ball; the L2 ball otherwise
	steps int  // subgradient steps per (C, τ)
}

const (
	// multiKTSteps is the number of projected subgradient steps per (C, τ).
	multiKTSteps = 1000
)

func init() {
	Register(Registration{
		Name:        "multikt-l2",
		Description: "MultiKT: class-balanced LS-SVM with source weights β minimising the LOO hinge loss, ||β||₂ ≤ τ",
		New:         func() Method { return multiKT{name: "multikt-l2", steps: multiKTSteps} },
		Decode:      decodeLinear,
	})
	Register(Registration{
		Name:        "multikt-l1",
		Description: "MultiKT: class-balanced LS-SVM with source weights β minimising the LOO hinge loss, ||β||₁ ≤ τ",
		New:         func() Method { return multiKT{name: "multikt-l1", l1: true, steps: multiKTSteps} },
		Decode:      decodeLinear,
	})
}

// Name returns "multikt-l2" or "multikt-l1".
func (k multiKT) Name() string { return k.name }

// Needs reports that MultiKT needs nothing beyond the labelled sample.
func (multiKT) Needs() Needs { return Needs{} }

// Fit trains MultiKT on train (see the type's comment). It returns an error
// for the inputs checkTrain rejects, when ctx is done, and when the LS-SVM
// system is numerically singular at every C (a C at which it is singular is
// skipped).
func (k multiKT) Fit(ctx context.Context, train Data, _ Extra) (result Model, err error) {
	m, _, n, err := startFit(ctx, k, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, k, &result, &err)
	st, err := standardizeData(train)
	if err != nil {
		return nil, err
	}
	sx, sh, zx, zh := st.sx, st.sh, st.zx, st.zh
	y := train.Y
	zeta := lssvm.BalanceWeights(y)
	gram := lssvm.Gram(zx, m)

	type setting struct {
		c, tau float64
		beta   []float64
	}
	var (
		settings []setting
		cands    []looCandidate
		lastErr  error
	)
	for _, c := range cGrid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sys, err := lssvm.NewSystem(ctx, gram, zeta, c)
		// Stopped, not singular: a failure once ctx is done is the
		// interruption's (endFit keeps a non-context error as it is).
		if err != nil && ctx.Err() != nil {
			return nil, fitctx.Stopped(ctx, err, fitCaller(k))
		}
		if err != nil {
			lastErr = err
			continue // numerically singular at this C: not a candidate
		}
		loo, err := newLOOHinge(ctx, sys, y, zeta, zh)
		if err != nil {
			return nil, fmt.Errorf("method: %s: %w", k.name, err)
		}
		if n == 0 {
			settings = append(settings, setting{c: c})
			cands = append(cands, looCandidate{Strength: 1 / c, Pred: loo.Predict(nil, nil)})
			continue
		}
		beta := make([]float64, n)
		for _, tau := range tauGrid { // increasing: each τ warm-starts the next
			if beta, _, _, err = loo.Minimise(ctx, beta, tau, k.l1, k.steps); err != nil {
				return nil, fmt.Errorf("method: %s: %w", k.name, err)
			}
			settings = append(settings, setting{c: c, tau: tau, beta: beta})
			cands = append(cands, looCandidate{Strength: 1 / c, Pred: loo.Predict(nil, beta)})
		}
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("method: %s: %w", k.name, lastErr)
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	s := settings[best]
	sys, err := lssvm.NewSystem(ctx, gram, zeta, s.c)
	if err != nil && ctx.Err() != nil { // stopped: as in the loop over C
		return nil, fitctx.Stopped(ctx, err, fitCaller(k))
	}
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	r := make([]float64, m)
	copy(r, y)
	if n > 0 {
		mat.NewVecDense(m, r).MulVec(zh, mat.NewVecDense(n, s.beta))
		for i := range r {
			r[i] = y[i] - r[i]
		}
	}
	alpha, b := sys.Solve(r)
	model := &Linear{
		Name:  k.name,
		X:     sx,
		H:     sh,
		WX:    lssvm.DualToPrimal(zx, alpha),
		WH:    s.beta,
		B:     b,
		Hyper: map[string]float64{"C": s.c},
	}
	if n > 0 {
		model.Hyper["tau"] = s.tau
	} else {
		model.WH = nil
	}
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	return model, nil
}

// newLOOHinge returns MultiKT's objective on the leave-one-out predictions
// of the LS-SVM sys: ỹ(β) = c + Gβ (see lssvm.System.LOO), H = zh (nil
// when there are no sources).
func newLOOHinge(ctx context.Context, sys *lssvm.System, y, zeta []float64, zh *mat.Dense) (*hinge.Loss, error) {
	c, g, err := sys.LOO(ctx, y, zh)
	if err != nil {
		return nil, err
	}
	return hinge.New(y, zeta, c, g), nil
}
