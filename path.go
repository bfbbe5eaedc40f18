package greedytl

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// refreshEvery is the number of greedy steps between recomputations of
// G = (K_S + λI)⁻¹ and a = G y from a Cholesky factorisation of K_S + λI.
// This is a safeguard: the Sherman–Morrison downdates are well behaved
// (their pivot c = 1 + zᵀGz is at least 1), and the tests see no drift
// without it even over 150 steps at λ = 1e-6.
const refreshEvery = 16

// engine is a search strategy over the candidate columns: exact (every
// candidate scored from O(N) running quantities) or sampled (a few
// candidates scored directly). Slots are the engine's own numbering of the
// non-constant candidates.
type engine interface {
	// reset starts a new path with ridge parameter lambda.
	reset(lambda float64) error
	// pick returns the slot of the best candidate given the path's state
	// (G, a and the selected slots), or -1 when no candidate is left.
	pick(p *path) (int, error)
	// added updates the engine after slot s joined the path. g = G z and
	// c = 1 + zᵀg were computed with the G before the step, tc = (aᵀz)/c;
	// the path's G and a are already updated, and refreshed reports whether
	// they were just recomputed from a factorisation.
	added(p *path, s int, g []float64, c, tc float64, refreshed bool)
	// col returns the standardised values of slot s (length m; read only).
	col(s int) []float64
	// global returns the candidate index of slot s (features first).
	global(s int) int
	// stats returns the training statistics of slot s.
	stats(s int) colStats
}

// path is the state of one greedy run: the selected columns and the dual
// quantities G = (K_S + λI)⁻¹ and a = G y, where K_S = Z_S Z_Sᵀ.
type path struct {
	m      int
	lambda float64
	y      []float64
	pos    []bool // y_i = +1
	npos   int

	G    []float64 // m×m, row-major, symmetric
	a    []float64 // G y
	kl   []float64 // K_S + λI, m×m, row-major, symmetric
	selZ []float64 // selected columns, k×m row-major
	sel  []int     // selected slots
	loo  []float64 // LOO error after each step
	reg  []float64 // e(S)/m after each step

	g   []float64 // scratch, length m
	sym *mat.SymDense
	ch  mat.Cholesky
	av  *mat.VecDense
	yv  *mat.VecDense
}

func newPath(y []float64, lambda float64, maxK int) *path {
	m := len(y)
	if maxK == 0 || maxK > 256 {
		maxK = 64 // an initial capacity; the path grows beyond it
	}
	p := &path{
		selZ:   make([]float64, 0, maxK*m),
		sel:    make([]int, 0, maxK),
		loo:    make([]float64, 0, maxK),
		reg:    make([]float64, 0, maxK),
		m:      m,
		lambda: lambda,
		y:      y,
		pos:    make([]bool, m),
		G:      make([]float64, m*m),
		a:      make([]float64, m),
		kl:     make([]float64, m*m),
		g:      make([]float64, m),
		sym:    mat.NewSymDense(m, nil),
		yv:     mat.NewVecDense(m, y),
	}
	p.av = mat.NewVecDense(m, p.a)
	for i, v := range y {
		p.pos[i] = v > 0
		if v > 0 {
			p.npos++
		}
		p.G[i*m+i] = 1 / lambda
		p.kl[i*m+i] = lambda
		p.a[i] = v / lambda
	}
	return p
}

// gemv sets dst = A x for the row-major r×c matrix A.
func gemv(dst, A []float64, r, c int, x []float64) {
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: r, Cols: c, Stride: c, Data: A},
		blas64.Vector{N: c, Inc: 1, Data: x}, 0, blas64.Vector{N: r, Inc: 1, Data: dst})
}

// ger sets A += alpha·x yᵀ for the row-major m×m matrix A.
func ger(A []float64, m int, alpha float64, x, y []float64) {
	blas64.Ger(alpha, blas64.Vector{N: m, Inc: 1, Data: x}, blas64.Vector{N: m, Inc: 1, Data: y},
		blas64.General{Rows: m, Cols: m, Stride: m, Data: A})
}

// dot returns aᵀb (b at least as long as a).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
	}
	if i < len(a) {
		s0 += a[i] * b[i]
	}
	return s0 + s1
}

// score sets p.g = G z and returns c = 1 + zᵀG z and t = aᵀz, so that adding
// z would raise the score s(S) by λ t²/c. It returns an error when c or t is
// not a usable number (c ≥ 1 in exact arithmetic).
func (p *path) score(z []float64) (c, t float64, err error) {
	gemv(p.g, p.G, p.m, p.m, z)
	c = 1 + dot(z, p.g)
	t = dot(z, p.a)
	if !(c > 0) || math.IsInf(c, 0) || math.IsNaN(t) || math.IsInf(t, 0) || math.IsInf(t*t, 0) {
		return 0, 0, fmt.Errorf("greedytl: numerical breakdown at step %d (pivot %v, aᵀz = %v): λ = %g is too small for these data", len(p.sel)+1, c, t, p.lambda)
	}
	return c, t, nil
}

// add appends column z (slot s), scored by the last call of score, to the
// path: the Sherman–Morrison update G ← G − g gᵀ/c and a ← a − g t/c with
// g = p.g, and every refreshEvery steps a recomputation of G and a from
// K_S + λI. It reports whether it refreshed.
func (p *path) add(s int, z []float64, c, t float64) (refreshed bool, err error) {
	m := p.m
	g := p.g
	tc := t / c
	ger(p.G, m, -1/c, g, g)
	ger(p.kl, m, 1, z, z)
	for i, gi := range g {
		p.a[i] -= gi * tc
	}
	p.sel = append(p.sel, s)
	p.selZ = append(p.selZ, z...)
	if len(p.sel)%refreshEvery == 0 {
		if err := p.refresh(); err != nil {
			return false, err
		}
		return true, nil
	}
	return false, nil
}

// refresh recomputes G = (K_S + λI)⁻¹ and a = G y from a Cholesky
// factorisation of K_S + λI.
func (p *path) refresh() error {
	m := p.m
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			p.sym.SetSym(i, j, p.kl[i*m+j])
		}
	}
	if ok := p.ch.Factorize(p.sym); !ok {
		return fmt.Errorf("greedytl: K_S + λI is not numerically positive definite at step %d: λ = %g is too small for these data", len(p.sel), p.lambda)
	}
	if err := p.ch.InverseTo(p.sym); err != nil {
		return fmt.Errorf("greedytl: K_S + λI is singular at step %d: λ = %g is too small for these data: %v", len(p.sel), p.lambda, err)
	}
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			v := p.sym.At(i, j)
			p.G[i*m+j], p.G[j*m+i] = v, v
		}
	}
	if err := p.ch.SolveVecTo(p.av, p.yv); err != nil {
		return fmt.Errorf("greedytl: K_S + λI is singular at step %d: λ = %g is too small for these data: %v", len(p.sel), p.lambda, err)
	}
	for i := range p.a {
		if math.IsNaN(p.a[i]) || math.IsInf(p.a[i], 0) {
			return fmt.Errorf("greedytl: non-finite dual solution at step %d: λ = %g is too small for these data", len(p.sel), p.lambda)
		}
	}
	return nil
}

// record appends the regularised and LOO errors of the current state.
func (p *path) record() {
	m := p.m
	var ya float64
	for i, v := range p.y {
		ya += v * p.a[i]
	}
	p.reg = append(p.reg, p.lambda*ya/float64(m))
	p.loo = append(p.loo, p.looError())
}

// looError returns the class-balanced mean squared leave-one-out residual
// of ridge regression on the current columns: the residual of example i is
// r_i = a_i / G_ii (a standard identity for ridge with fixed features), and
// the error is the mean over the two classes of the per-class mean of r_i².
func (p *path) looError() float64 {
	var sp, sn float64
	for i, ai := range p.a {
		r := ai / p.G[i*p.m+i]
		if p.pos[i] {
			sp += r * r
		} else {
			sn += r * r
		}
	}
	return (sp/float64(p.npos) + sn/float64(p.m-p.npos)) / 2
}

// weights returns the ridge weights of the first k selected columns,
// w = Z_Sᵀ (K_S + λI)⁻¹ y, solving with a fresh Cholesky factorisation, and
// the regularised and LOO errors of that prefix.
func (p *path) weights(k int) (w []float64, reg, loo float64, err error) {
	m := p.m
	q := newPath(p.y, p.lambda, 1)
	for j := 0; j < k; j++ {
		z := p.selZ[j*m : j*m+m]
		ger(q.kl, m, 1, z, z)
	}
	q.sel = p.sel[:k:k]
	if err := q.refresh(); err != nil {
		return nil, 0, 0, err
	}
	w = make([]float64, k)
	gemv(w, p.selZ[:k*m], k, m, q.a)
	q.record()
	return w, q.reg[0], q.loo[0], nil
}

// run performs the greedy selection with engine e until the stopping rule
// of opts holds, and returns the finished path.
func run(ctx context.Context, e engine, y []float64, lambda float64, opts *Options) (*path, error) {
	if err := e.reset(lambda); err != nil {
		return nil, err
	}
	p := newPath(y, lambda, opts.MaxK)
	m := float64(p.m)
	for opts.MaxK == 0 || len(p.sel) < opts.MaxK {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("greedytl: fit interrupted after %d steps: %w", len(p.sel), err)
		}
		s, err := e.pick(p)
		if err != nil {
			return nil, err
		}
		if s < 0 {
			break
		}
		z := e.col(s)
		// The gain s(S ∪ {i}) − s(S) = λ t²/c is recomputed here from G
		// and a rather than taken from the engine's running values.
		c, t, err := p.score(z)
		if err != nil {
			return nil, err
		}
		if lambda*t*t/c/m < opts.Delta {
			break
		}
		refreshed, err := p.add(s, z, c, t)
		if err != nil {
			return nil, err
		}
		e.added(p, s, p.g, c, t/c, refreshed)
		p.record()
	}
	return p, nil
}
