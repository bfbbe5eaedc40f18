package lssvm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/mat"
)

// BalanceWeights returns the class-balancing weights ζ_i: m/(2m₊) for
// the positives (y_i > 0), m/(2m₋) for the others. Both classes should be
// present: with one class only, every weight is 1/2.
func BalanceWeights(y []float64) []float64 {
	var pos float64
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	m := float64(len(y))
	zeta := make([]float64, len(y))
	for i, v := range y {
		if v > 0 {
			zeta[i] = m / (2 * pos)
		} else {
			zeta[i] = m / (2 * (m - pos))
		}
	}
	return zeta
}

// checkWeights returns an error unless w holds m positive, finite row
// weights; name is the argument's.
func checkWeights(name string, w []float64, m int) error {
	if len(w) != m {
		return fmt.Errorf("LS-SVM: %d weights %s for %d rows", len(w), name, m)
	}
	for i, v := range w {
		if !inputcheck.PositiveFinite(v) {
			return fmt.Errorf("LS-SVM: weight %s[%d] is %g: want a positive, finite weight", name, i, v)
		}
	}
	return nil
}

// Gram returns ZZᵀ (m × m), the zero matrix when Z is nil. It panics (a
// programmer error) when m < 1 or Z does not have m rows.
func Gram(z *mat.Dense, m int) *mat.SymDense {
	g := mat.NewSymDense(m, nil)
	if z != nil {
		g.SymOuterK(1, z)
	}
	return g
}

// DualToPrimal returns Zᵀα, nil when Z is nil. It panics (a programmer
// error) when α does not hold one element per row of Z.
func DualToPrimal(z *mat.Dense, alpha []float64) []float64 {
	if z == nil {
		return nil
	}
	_, d := z.Dims()
	w := make([]float64, d)
	mat.NewVecDense(d, w).MulVec(z.T(), mat.NewVecDense(len(alpha), alpha))
	return w
}

// System is the inverse of the LS-SVM system matrix
// M = [[K + diag(1/(Cζ)), 1], [1ᵀ, 0]] in blocks: with P = (K + diag(1/(Cζ)))⁻¹,
// u = P1 and s = 1ᵀu, M⁻¹ = [[P − uuᵀ/s, u/s], [uᵀ/s, −1/s]].
type System struct {
	a *mat.SymDense // A = P − uuᵀ/s, the top-left block
	p []float64     // u/s, the last column without its last entry
}

// NewSystem factorises the system of the class-weighted LS-SVM with kernel
// gram, weights zeta and cost c. It returns an error when gram is nil or
// has no rows, when zeta does not hold one positive, finite weight per row
// of gram, when c is not positive and finite, when gram holds a NaN or ±Inf
// value, and when the system is numerically singular (a single row's
// leave-one-out denominator is 0). It checks ctx before and between its
// dense steps (the factorisation, the inversion, the rank-one update), every
// fitctx.Rows rows of its O(m²) loops and at its end, and returns ctx's error
// (see fitctx.Err), not a System, when ctx is done; it panics when ctx is
// nil.
func NewSystem(ctx context.Context, gram *mat.SymDense, zeta []float64, c float64) (*System, error) {
	if err := fitctx.Start(ctx, "lssvm"); err != nil {
		return nil, err
	}
	if gram == nil {
		return nil, errors.New("LS-SVM: no Gram matrix (nil)")
	}
	m := gram.SymmetricDim()
	if m == 0 {
		return nil, errors.New("LS-SVM: no rows (an empty Gram matrix)")
	}
	if err := checkWeights("zeta", zeta, m); err != nil {
		return nil, err
	}
	if err := inputcheck.CheckFinite("Gram matrix", gram); err != nil {
		return nil, fmt.Errorf("LS-SVM: %w", err)
	}
	if !inputcheck.PositiveFinite(c) {
		return nil, fmt.Errorf("LS-SVM cost C = %g: want a positive, finite C", c)
	}
	q := mat.NewSymDense(m, nil)
	q.CopySym(gram)
	for i := range m {
		q.SetSym(i, i, q.At(i, i)+1/(c*zeta[i]))
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	var ch mat.Cholesky
	if !ch.Factorize(q) {
		return nil, fmt.Errorf("LS-SVM system with C = %g is not positive definite", c)
	}
	if cond := ch.Cond(); cond > 1e14 || math.IsNaN(cond) {
		return nil, fmt.Errorf("LS-SVM system with C = %g is ill-conditioned (condition number %.3g)", c, cond)
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	var p mat.SymDense
	if err := ch.InverseTo(&p); err != nil {
		return nil, fmt.Errorf("LS-SVM system with C = %g: %w", c, err)
	}
	// u = P1 from P's stored upper triangle, row by row: row i adds
	// P_ii, …, P_i,m−1 to u_i, which rows 0, …, i−1 have given P_0i, …,
	// P_i−1,i, and P_ij to every later u_j. Each u_i sums P_i0, …, P_i,m−1
	// in that order, as Σ_j P.At(i, j) would, reading P once in memory
	// order.
	u := make([]float64, m)
	var s float64
	raw := p.RawSymmetric()
	for i := range m {
		if err := checkRow(ctx, i); err != nil {
			return nil, err
		}
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+m]
		for _, v := range row {
			u[i] += v
		}
		for k, v := range row[1:] {
			u[i+1+k] += v
		}
		s += u[i]
	}
	if !(s > 0) {
		return nil, fmt.Errorf("LS-SVM system with C = %g: 1ᵀP1 = %g", c, s)
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	a := mat.NewSymDense(m, nil)
	a.CopySym(&p)
	a.SymRankOne(a, -1/s, mat.NewVecDense(m, u))
	pv := make([]float64, m)
	for i := range u {
		pv[i] = u[i] / s
	}
	for i := range m {
		if !(a.At(i, i) > 0) {
			return nil, fmt.Errorf("LS-SVM system with C = %g: leave-one-out denominator %d is %g", c, i, a.At(i, i))
		}
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	return &System{a: a, p: pv}, nil
}

// built returns an error for a nil or zero System, which NewSystem never
// returns.
func (s *System) built() error {
	if s == nil || s.a == nil {
		return errors.New("LS-SVM: a System not built by NewSystem")
	}
	return nil
}

// Solve returns the LS-SVM solution [α; b] = M⁻¹[r; 0] for the targets r,
// one per row of the system (it panics otherwise, and on a nil or zero
// System: a programmer error).
func (s *System) Solve(r []float64) (alpha []float64, b float64) {
	if err := s.built(); err != nil {
		panic(err.Error())
	}
	m := len(r)
	alpha = make([]float64, m)
	mat.NewVecDense(m, alpha).MulVec(s.a, mat.NewVecDense(m, r))
	for i, v := range r {
		b += s.p[i] * v
	}
	return alpha, b
}

// LOO returns the affine map β ↦ c + Gβ of the leave-one-out predictions
// of the LS-SVM with targets y − Hβ: c = y − D⁻¹Ay and G = D⁻¹AH, A the
// top-left block of M⁻¹ and D its diagonal (G is nil when H is nil). The
// prediction of example i without it is y_i − α_i/A_ii (Cawley and
// Talbot's closed form), whatever the example's weight.
//
// G is computed looBlock columns at a time, with ctx checked before each
// block (each column's values do not depend on the blocking). LOO returns
// an error when y or H does not have one row per row of the system or
// holds a NaN or ±Inf value, and for a nil or zero System (one not built
// by NewSystem), ctx's error when ctx is done, and panics when ctx is nil.
func (s *System) LOO(ctx context.Context, y []float64, h *mat.Dense) (c []float64, g *mat.Dense, err error) {
	if err := fitctx.Start(ctx, "lssvm"); err != nil {
		return nil, nil, err
	}
	if err := s.built(); err != nil {
		return nil, nil, err
	}
	m := len(y)
	if n := len(s.p); m != n {
		return nil, nil, fmt.Errorf("LS-SVM: %d targets for a system of %d rows", m, n)
	}
	if h != nil {
		if r, _ := h.Dims(); r != m {
			return nil, nil, fmt.Errorf("LS-SVM: H has %d rows for a system of %d", r, m)
		}
	}
	if err := inputcheck.CheckFiniteVector("y", y); err != nil {
		return nil, nil, fmt.Errorf("LS-SVM: %w", err)
	}
	if err := inputcheck.CheckFinite("H", h); err != nil {
		return nil, nil, fmt.Errorf("LS-SVM: %w", err)
	}
	ay := make([]float64, m)
	mat.NewVecDense(m, ay).MulVec(s.a, mat.NewVecDense(m, y))
	c = make([]float64, m)
	for i := range c {
		c[i] = y[i] - ay[i]/s.a.At(i, i)
	}
	if h != nil {
		_, n := h.Dims()
		g = mat.NewDense(m, n, nil)
		for j0 := 0; j0 < n; j0 += looBlock {
			if err := fitctx.Err(ctx, "lssvm"); err != nil {
				return nil, nil, err
			}
			j1 := min(j0+looBlock, n)
			g.Slice(0, m, j0, j1).(*mat.Dense).Mul(s.a, h.Slice(0, m, j0, j1))
		}
		for i := range m {
			row := g.RawRowView(i)
			inv := 1 / s.a.At(i, i)
			for j := range row {
				row[j] *= inv
			}
		}
	}
	return c, g, nil
}

// looBlock is the number of columns of G that LOO computes between two
// checks of its context: about m²·looBlock multiply–adds, a few
// milliseconds for m ≤ 100.
const looBlock = 1024
