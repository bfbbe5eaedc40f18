package greedytl

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// refreshEvery is the number of greedy steps between recomputations of
// G = (K_S + λI)⁻¹ and a = G y from a Cholesky factorisation of K_S + λI.
// This is a safeguard: the Sherman–Morrison downdates are well behaved
// (their pivot c = 1 + zᵀGz is at least 1), and the tests see no drift
// without it even over 150 steps at λ = 1e-6.
const refreshEvery = 16

// path is the state of one greedy run: the selected columns and the dual
// quantities Ĝ = (K_S + λI + β11ᵀ)⁻¹ and a = Ĝy, where K_S = Z_S Z_Sᵀ.
//
// The term β11ᵀ is there for accuracy. The columns are centred, so
// K_S1 = 0 and G = (K_S + λI)⁻¹ = P + 11ᵀ/(mλ), where P (with P1 = 0) is
// the part of G orthogonal to 1; adding β11ᵀ only moves the eigenvalue
// along 1 from λ to s = λ + mβ, so Ĝ = P + 11ᵀ/(ms). For a centred column
// z, Ĝz = Gz = Pz: scores, gains and weights are those of G. But the
// leave-one-out error needs P itself, and reading it off G would cancel
// 1/(mλ) — for small λ far larger than P — against G's entries, losing
// digits to the error of G along 1 (a relative error of 1e-6 at λ = 1e-4
// on paths longer than m). With β = max(1, γ²), the squared norm of a
// column per example, 1/(ms) is at most about |S|/m times P's diagonal.
type path struct {
	m            int
	lambda       float64
	featureScale         // γ, for tooSmall, and the β of Ĝ
	s            float64 // λ + mβ, Ĝ's eigenvalue⁻¹ along 1
	y            []float64
	pos          []bool  // y_i = +1
	npos         int     // number of positives
	ysum         float64 // Σ_i y_i

	// primal says which form the path keeps Ĝ in (see pathForm): the
	// primal form keeps U and dg, the dual one G and kl.
	primal bool
	auto   bool // the form follows dualCheaper (else it stays as it is)
	r      int  // candidates scored directly per step (0: exact search)

	G    []float64 // dual: Ĝ, m×m, row-major, symmetric
	kl   []float64 // dual: K_S + λI + β11ᵀ, m×m, row-major, symmetric
	U    []float64 // primal: (k+1)×m row-major, Ĝ = I/λ − UᵀU
	dg   []float64 // primal: the diagonal of Ĝ
	a    []float64 // Ĝ y
	selZ []float64 // selected columns, k×m row-major
	sel  []int     // selected slots
	loo  []float64 // LOO error after each step
	reg  []float64 // e(S)/m after each step

	g []float64 // scratch, length m
	// bufs, when not nil, are recycled buffers that selZ, U (primal) and
	// G, kl and fac (dual) start from (newPathFor, release).
	bufs *pathBuffers
	v    []float64 // primal scratch: U z, length k+1
	fac  []float64 // scratch for refresh: m×m (dual), (k+1)×(k+1) (primal)
	gm   []float64 // primal scratch for refresh: M = BBᵀ + λI, (k+1)×(k+1)
}

// The forms of a path. Both represent the same Ĝ = (K_S + λI + β11ᵀ)⁻¹
// and a = Ĝy (docs/design.md §3, "Primal and dual"):
//
//   - dual: Ĝ itself, m×m, updated by Sherman–Morrison (O(m²) a step) and
//     refreshed from a Cholesky factorisation of the m×m K_S + λI + β11ᵀ
//     (O(m³));
//   - primal: Ĝ = I/λ − UᵀU, where the rows of U are u_0 = √(β/(λs))·1 and
//     u_j = g_j/√c_j, the scaled vectors G z of each step (O(k·m) a step),
//     refreshed from a Cholesky factorisation of the (k+1)×(k+1)
//     M = BBᵀ + λI, B = [√β·1ᵀ; Z_Sᵀ] (O(k²·m)).
//
// A path starts in the primal form and, unless the form is forced, moves
// once to the dual form when a step would cost less there (dualCheaper).
const (
	formAuto   = iota // the cheaper form for the shape (the default)
	formPrimal        // always primal (tests)
	formDual          // always dual, as before the primal form existed (tests)
)

// pathForm forces the form of every path that run starts; tests set it to
// run the references on each form.
var pathForm = formAuto

// dualCheaper reports whether a step costs fewer multiply–adds in the dual
// form than in the primal form for m examples, k selected columns and r
// candidates scored directly per step (0 for the exact search, whose
// per-candidate work is the same in both forms). Per step, in the dual:
// r·m²/2 for the scores (packed Ĝ), 3m² for Ĝz and the updates of Ĝ and
// K_S, and m³/refreshEvery for the refresh; in the primal: r·(k+1)·m for
// the scores, 2(k+1)·m for Ĝz, and ((k+1)²·m + (k+1)³)/refreshEvery for
// the refresh.
func dualCheaper(m, k, r int) bool {
	fm, fk, fr := float64(m), float64(k+1), float64(r)
	dual := fr*fm*fm/2 + 3*fm*fm + fm*fm*fm/refreshEvery
	primal := fr*fk*fm + 2*fk*fm + (fk*fk*fm+fk*fk*fk)/refreshEvery
	return dual < primal
}

// newPathFor returns the path of the empty set that run starts: for labels
// y, ridge parameter lambda, the feature factor and β of Ĝ (fs), room for maxK steps (0: a
// default) and r candidates scored directly per step (0: exact search),
// in the form pathForm asks for.
// Its largest buffers come from pathPool; release hands them back.
func newPathFor(y []float64, lambda float64, fs featureScale, maxK, r int) *path {
	b := pathPool.get()
	if b == nil {
		b = new(pathBuffers)
	}
	if pathForm == formDual {
		return newPathBufs(y, lambda, fs, maxK, b)
	}
	p := newPathPrimalBufs(y, lambda, fs, maxK, b)
	p.auto, p.r = pathForm == formAuto, r
	return p
}

// pathBuffers are the largest buffers of the paths that run starts,
// recycled across fits through pathPool rather than allocated (and
// zeroed) afresh: selZ and U, O(k·m) each, and the dual form's G, kl and
// fac, O(m²) each.
type pathBuffers struct {
	selZ, U, G, kl, fac []float64
	final               *pathBuffers // the buffers of the path's final solve (weights)
}

var pathPool recycler[pathBuffers]

// recycler recycles buffers of type T across fits: one set in spare,
// which garbage collections leave alone, and the rest in pool, which each
// collection ages and the second one empties. A fit whose buffers were
// emptied allocates and zeroes them again (and refills the caches with
// them): at m = 20, N = 4,995, GreedyTL-59 with its 800 KB of standardised
// columns then took twice the time (docs/design.md §8). sync.Pool alone
// loses them even without a collection when the goroutine that fits runs
// on another processor (P) than the one that put them, whose private slot
// the others do not see. Only a set whose buffers hold at most maxSpare
// floats, counted by capacity (sampleBuffers.floats, exactBuffers.floats,
// path.giveBack), goes to spare, so that once its fits are done and two
// collections have emptied pool a process holds at most that much per
// recycler.
type recycler[T any] struct {
	spare atomic.Pointer[T]
	pool  sync.Pool
}

// maxSpare is the most floats (of 8 bytes) a recycler's spare holds: 4 MB,
// every buffer of the set counted by its capacity.
const maxSpare = 1 << 19

// get returns a recycled *T, or nil when there is none.
func (r *recycler[T]) get() *T {
	if x := r.spare.Swap(nil); x != nil {
		return x
	}
	x, _ := r.pool.Get().(*T)
	return x
}

// put hands x back: to spare when small (x holds at most maxSpare floats)
// and spare is empty, else to pool.
func (r *recycler[T]) put(x *T, small bool) {
	if small && r.spare.CompareAndSwap(nil, x) {
		return
	}
	r.pool.Put(x)
}

// pathFloats returns a slice of length n and capacity at least c (c ≥ n) from
// *buf, growing *buf when it is short; its contents are arbitrary. With
// buf nil it allocates.
func pathFloats(buf *[]float64, n, c int) []float64 {
	if buf == nil {
		return make([]float64, n, c)
	}
	if cap(*buf) < c {
		*buf = make([]float64, c)
	}
	return (*buf)[:n]
}

// release hands p's recycled buffers back to pathPool (the larger of each
// buffer and what p grew it into), unless they are too large to keep; p
// must not be used afterwards. The model finish made from p shares none
// of them.
func (p *path) release() {
	if b, total := p.giveBack(); b != nil && total <= maxPooled {
		pathPool.put(b, total <= maxSpare)
	}
}

// giveBack stores p's recycled buffers back into p.bufs (the larger of
// each buffer and what p grew it into) and returns it with the floats it
// holds (its final solve's buffers included), or nil when p has none; p
// must not be used afterwards.
func (p *path) giveBack() (*pathBuffers, int) {
	b := p.bufs
	if b == nil {
		return nil, 0
	}
	p.bufs = nil
	total := 0
	for _, x := range []struct {
		dst *[]float64
		s   []float64
	}{{&b.selZ, p.selZ}, {&b.U, p.U}, {&b.G, p.G}, {&b.kl, p.kl}, {&b.fac, p.fac}} {
		if cap(x.s) > cap(*x.dst) {
			*x.dst = x.s[:cap(x.s)]
		}
		total += cap(*x.dst)
		if poisonReleased {
			fillNaN(x.s[:cap(x.s)])
			fillNaN((*x.dst)[:cap(*x.dst)])
		}
	}
	if f := b.final; f != nil {
		total += cap(f.selZ) + cap(f.U) + cap(f.G) + cap(f.kl) + cap(f.fac)
	}
	return b, total
}

// poisonReleased, set only by tests, makes release fill every buffer it
// hands back with NaN: a path read after its release (finish reading the
// selected columns of buffers already handed back) then makes NaN weights
// in any fit, where without it only a concurrent fit taking the buffers in
// that window would change them (TestPathUnusedAfterRelease).
var poisonReleased bool

// fillNaN sets every value of s to NaN (poisonReleased).
func fillNaN(s []float64) {
	for i := range s {
		s[i] = math.NaN()
	}
}

// newPathPrimal returns the path of the empty set in the primal form.
func newPathPrimal(y []float64, lambda float64, fs featureScale, maxK int) *path {
	return newPathPrimalBufs(y, lambda, fs, maxK, nil)
}

// newPathPrimalBufs is newPathPrimal with its largest buffers from b (nil:
// allocated).
func newPathPrimalBufs(y []float64, lambda float64, fs featureScale, maxK int, b *pathBuffers) *path {
	m := len(y)
	p := newPathCommon(y, lambda, fs, maxK, b)
	beta := fs.beta
	p.primal = true
	var ub *[]float64
	if b != nil {
		ub = &b.U
	}
	p.U = pathFloats(ub, m, (cap(p.sel)+1)*m)
	p.dg = make([]float64, m)
	u0 := math.Sqrt(beta / (lambda * p.s))
	for i := range m {
		p.U[i] = u0
		p.dg[i] = (1 - beta/p.s) / lambda
	}
	return p
}

// newPathCommon returns the path of the empty set without its form: the
// labels, γ and β (fs), a = Ĝy and room for maxK steps.
// Its selZ comes from b when b is not nil.
func newPathCommon(y []float64, lambda float64, fs featureScale, maxK int, b *pathBuffers) *path {
	m, beta := len(y), fs.beta
	if maxK == 0 || maxK > 256 {
		maxK = 64 // an initial capacity; the path grows beyond it
	}
	var zb *[]float64
	if b != nil {
		zb = &b.selZ
	}
	p := &path{
		bufs:         b,
		selZ:         pathFloats(zb, 0, maxK*m),
		sel:          make([]int, 0, maxK),
		loo:          make([]float64, 0, maxK),
		reg:          make([]float64, 0, maxK),
		m:            m,
		lambda:       lambda,
		featureScale: fs,
		s:            lambda + float64(m)*beta,
		y:            y,
		pos:          make([]bool, m),
		a:            make([]float64, m),
		g:            make([]float64, m),
	}
	for i, v := range y {
		p.pos[i] = v > 0
		if v > 0 {
			p.npos++
		}
		p.ysum += v
	}
	// (λI + β11ᵀ)⁻¹ = (I − β11ᵀ/s)/λ.
	for i := range m {
		p.a[i] = (y[i] - beta*p.ysum/p.s) / lambda
	}
	return p
}

// newPath returns the path of the empty set in the dual form, for labels
// y, ridge parameter lambda and the feature factor and β of Ĝ (fs), with
// room for maxK steps (0: a default).
func newPath(y []float64, lambda float64, fs featureScale, maxK int) *path {
	return newPathBufs(y, lambda, fs, maxK, nil)
}

// newPathBufs is newPath with its largest buffers from b (nil: allocated).
func newPathBufs(y []float64, lambda float64, fs featureScale, maxK int, b *pathBuffers) *path {
	m, beta := len(y), fs.beta
	p := newPathCommon(y, lambda, fs, maxK, b)
	p.dualBuffers()
	off := -beta / p.s / lambda
	for i := range m {
		for j := range m {
			p.G[i*m+j] = off
			p.kl[i*m+j] = beta
		}
		p.G[i*m+i] = (1 - beta/p.s) / lambda
		p.kl[i*m+i] = lambda + beta
	}
	return p
}

// gerGo is ger's definition: gonum's pure-Go Dger, whatever BLAS blas64
// uses (gerVec repeats it bit for bit where there is a vector kernel).
func gerGo(A []float64, m int, alpha float64, x, y []float64) {
	gonum.Implementation{}.Dger(m, m, alpha, x[:m], 1, y[:m], 1, A[:m*m], m)
}

// gemv sets dst = A x for the row-major r×c matrix A. Like gerGo, it calls
// gonum's pure-Go BLAS whatever BLAS blas64 uses: at these sizes (m×m, k×m)
// a cgo call to OpenBLAS costs more than the arithmetic.
func gemv(dst, A []float64, r, c int, x []float64) {
	gonum.Implementation{}.Dgemv(blas.NoTrans, r, c, 1, A[:r*c], c, x[:c], 1, 0, dst[:r], 1)
}

// ger sets A += alpha·x yᵀ for the row-major m×m matrix A: what gonum's
// Dger computes, bit for bit (nothing when alpha = 0), by a vector kernel
// where there is one (gerVec, TestGer), whose loop costs a third of Dger's
// instructions at m = 20.
func ger(A []float64, m int, alpha float64, x, y []float64) {
	if m == 0 || alpha == 0 {
		return
	}
	gerVec(A, m, alpha, x, y)
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
	if p.primal {
		p.gPrimal(z)
	} else {
		gemv(p.g, p.G, p.m, p.m, z)
	}
	c = 1 + dot(z, p.g)
	t = dot(z, p.a)
	if err := p.usable(c, t); err != nil {
		return 0, 0, err
	}
	return c, t, nil
}

// usable returns greedytl.Fit's numerical-breakdown error when a
// candidate's pivot c or aᵀz t (see score) is not a usable number, and nil
// otherwise. score and the float32 screen's exact rescoring share it, so
// their check and message cannot drift apart.
func (p *path) usable(c, t float64) error {
	if !inputcheck.PositiveFinite(c) || math.IsNaN(t) || math.IsInf(t, 0) || math.IsInf(t*t, 0) {
		return fmt.Errorf("greedytl.Fit: numerical breakdown at step %d (pivot %v, aᵀz = %v): %s", len(p.sel)+1, c, t, p.tooSmall())
	}
	return nil
}

// gPrimal sets p.g = Ĝz = z/λ − Uᵀ(Uz) in the primal form.
func (p *path) gPrimal(z []float64) {
	m, k1 := p.m, len(p.U)/p.m
	p.v = slices.Grow(p.v[:0], k1)[:k1] // amortised: one more a step
	gemv(p.v, p.U, k1, m, z)
	gonum.Implementation{}.Dgemv(blas.Trans, k1, m, -1, p.U, m, p.v, 1, 0, p.g, 1)
	il := 1 / p.lambda
	for i, zi := range z[:m] {
		p.g[i] += zi * il
	}
}

// add appends column z (slot s), scored by the last call of score, to the
// path: the Sherman–Morrison update Ĝ ← Ĝ − g gᵀ/c (in the dual form; in
// the primal form, g/√c joins U) and a ← a − g t/c with g = p.g, and
// every refreshEvery steps a recomputation of Ĝ and a from a Cholesky
// factorisation. It then moves the path to the dual form if that became
// the cheaper one. It reports whether it refreshed.
func (p *path) add(s int, z []float64, c, t float64) (refreshed bool, err error) {
	m := p.m
	g := p.g
	tc := t / c
	if p.primal {
		rc := 1 / math.Sqrt(c)
		for i, gi := range g {
			u := gi * rc
			p.U = append(p.U, u)
			p.dg[i] -= u * u
		}
	} else {
		ger(p.G, m, -1/c, g, g)
		ger(p.kl, m, 1, z, z)
	}
	for i, gi := range g {
		p.a[i] -= gi * tc
	}
	p.sel = append(p.sel, s)
	p.selZ = append(p.selZ, z...)
	if len(p.sel)%refreshEvery == 0 {
		if p.primal {
			_, err = p.solvePrimal(len(p.sel))
		} else {
			err = p.refresh()
		}
		if err != nil {
			return false, err
		}
		refreshed = true
	}
	if p.primal && p.auto && dualCheaper(m, len(p.sel), p.r) {
		p.toDual()
	}
	return refreshed, nil
}

// dualBuffers sets G, kl and fac to m×m buffers (from p.bufs when it is
// not nil) of arbitrary contents.
func (p *path) dualBuffers() {
	mm := p.m * p.m
	if b := p.bufs; b != nil {
		p.G, p.kl, p.fac = pathFloats(&b.G, mm, mm), pathFloats(&b.kl, mm, mm), pathFloats(&b.fac, mm, mm)
		return
	}
	p.G, p.kl, p.fac = make([]float64, mm), make([]float64, mm), make([]float64, mm)
}

// toDual moves a primal path to the dual form: Ĝ = I/λ − UᵀU and
// K_S + λI + β11ᵀ, O(k·m²).
func (p *path) toDual() {
	m, k1 := p.m, len(p.U)/p.m
	p.dualBuffers()
	impl := gonum.Implementation{}
	impl.Dsyrk(blas.Upper, blas.Trans, m, k1, -1, p.U, m, 0, p.G, m)
	if k := len(p.sel); k > 0 {
		impl.Dsyrk(blas.Upper, blas.Trans, m, k, 1, p.selZ, m, 0, p.kl, m)
	} else {
		clear(p.kl)
	}
	for i := range m {
		p.G[i*m+i] += 1 / p.lambda
		p.kl[i*m+i] += p.lambda
		for j := i; j < m; j++ {
			p.kl[i*m+j] += p.beta
			p.G[j*m+i], p.kl[j*m+i] = p.G[i*m+j], p.kl[i*m+j]
		}
	}
	p.primal, p.U, p.dg, p.v, p.gm = false, nil, nil, nil, nil
}

// solvePrimal recomputes U, dg and a = Ĝy from a Cholesky factorisation
// M = RᵀR of M = BBᵀ + λI, B = [√β·1ᵀ; Z_Sᵀ] for the first k selected
// columns: with V = R⁻ᵀB, Ĝ = (I − VᵀV)/λ, so U = V/√λ; x = M⁻¹By are
// the ridge weights of the rows of B (x_0 that of the constant row), and
// a = (y − Bᵀx)/λ, from the residual of that fit. It returns x. It
// returns an error when M is not numerically positive definite or its
// 1-norm condition number exceeds condMax, as refresh does for the dual
// form.
func (p *path) solvePrimal(k int) (x []float64, err error) {
	m, k1 := p.m, k+1
	p.U = grow(p.U, k1*m)
	B := p.U
	rb := math.Sqrt(p.beta)
	for i := range m {
		B[i] = rb
	}
	copy(B[m:], p.selZ[:k*m])
	p.gm, p.fac = grow(p.gm, k1*k1), grow(p.fac, k1*k1)
	M := blas64.Symmetric{Uplo: blas.Upper, N: k1, Stride: k1, Data: p.gm}
	blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: k1, Cols: m, Stride: m, Data: B}, 0, M)
	for i := range k1 {
		p.gm[i*k1+i] += p.lambda
		for j := i + 1; j < k1; j++ {
			p.gm[j*k1+i] = p.gm[i*k1+j]
		}
	}
	copy(p.fac, p.gm)
	tri, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: k1, Stride: k1, Data: p.fac})
	if !ok {
		return nil, fmt.Errorf("greedytl.Fit: Z_SᵀZ_S + λI is not numerically positive definite at step %d: %s", len(p.sel), p.tooSmall())
	}
	x = make([]float64, k1)
	gemv(x, B, k1, m, p.y)
	potrs1(tri, x)
	// a = (y − Bᵀx)/λ.
	copy(p.a, p.y)
	blas64.Gemv(blas.Trans, -1, blas64.General{Rows: k1, Cols: m, Stride: m, Data: B}, blas64.Vector{N: k1, Inc: 1, Data: x}, 1, blas64.Vector{N: m, Inc: 1, Data: p.a})
	il := 1 / p.lambda
	for i := range p.a {
		p.a[i] *= il
	}
	// V = R⁻ᵀB, U = V/√λ, dg = diag(Ĝ).
	blas64.Trsm(blas.Left, blas.Trans, 1, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: k1, Stride: k1, Data: p.fac}, blas64.General{Rows: k1, Cols: m, Stride: m, Data: B})
	rl := math.Sqrt(il)
	for i := range B {
		B[i] *= rl
	}
	for i := range p.dg {
		p.dg[i] = il
	}
	for j := range k1 {
		for i, u := range B[j*m : j*m+m] {
			p.dg[i] -= u * u
		}
	}
	if _, ok := lapack64.Potri(tri); !ok {
		return nil, fmt.Errorf("greedytl.Fit: Z_SᵀZ_S + λI is singular at step %d: %s", len(p.sel), p.tooSmall())
	}
	for i := range k1 {
		for j := i + 1; j < k1; j++ {
			p.fac[j*k1+i] = p.fac[i*k1+j]
		}
	}
	if cond := norm1(p.gm, k1) * norm1(p.fac, k1); !(cond <= condMax) {
		return nil, fmt.Errorf("greedytl.Fit: Z_SᵀZ_S + λI is singular at step %d (condition number %.3g): %s", len(p.sel), cond, p.tooSmall())
	}
	if !finiteSlice(p.a) || !finiteSlice(x) {
		return nil, fmt.Errorf("greedytl.Fit: non-finite solution at step %d: %s", len(p.sel), p.tooSmall())
	}
	return x, nil
}

// potrs1 solves RᵀR x = b in place for the one right-hand side b, R the
// upper triangular Cholesky factor tri (row-major): what lapack64.Potrs
// computes, bit for bit. Where blas64 routes to gonum's BLAS (the package's
// tests and builds without OpenBLAS) it repeats gonum's Dtrsm for one
// column (Left, Upper, NonUnit, α = 1: each row scaled by 1/r_kk, each
// update y + (−r)·x with its product rounded, a zero entry skipped), whose
// general loops cost ten times the arithmetic at these sizes
// (TestPotrs1); elsewhere it calls lapack64.Potrs.
func potrs1(tri blas64.Triangular, b []float64) {
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		lapack64.Potrs(tri, blas64.General{Rows: tri.N, Cols: 1, Stride: 1, Data: b})
		return
	}
	n, lda := tri.N, tri.Stride
	if n == 0 {
		return
	}
	a, b := tri.Data[:(n-1)*lda+n], b[:n]
	// Rᵀ y = b (Dtrsm, Left, Upper, Trans).
	for k := range n {
		bk := b[k] * (1 / a[k*lda+k])
		b[k] = bk
		for i, va := range a[k*lda+k+1 : k*lda+n] {
			if va != 0 {
				b[k+1+i] += float64(-va * bk)
			}
		}
	}
	// R x = y (Dtrsm, Left, Upper, NoTrans).
	for i := n - 1; i >= 0; i-- {
		bi := b[i]
		for ka, va := range a[i*lda+i+1 : i*lda+n] {
			if va != 0 {
				bi += float64(-va * b[i+1+ka])
			}
		}
		b[i] = bi * (1 / a[i*lda+i])
	}
}

// condMax is the largest 1-norm condition number of K_S + λI + β11ᵀ that
// refresh accepts (gonum's mat.ConditionTolerance).
const condMax = 1e16

// refresh recomputes Ĝ and a = Ĝy from a Cholesky factorisation of
// K_S + λI + β11ᵀ. It returns an error when that matrix is not numerically
// positive definite or its condition number exceeds condMax.
func (p *path) refresh() error {
	m := p.m
	copy(p.fac, p.kl)
	tri, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: p.fac})
	if !ok {
		return fmt.Errorf("greedytl.Fit: K_S + λI is not numerically positive definite at step %d: %s", len(p.sel), p.tooSmall())
	}
	copy(p.a, p.y)
	potrs1(tri, p.a)
	if _, ok := lapack64.Potri(tri); !ok {
		return fmt.Errorf("greedytl.Fit: K_S + λI is singular at step %d: %s", len(p.sel), p.tooSmall())
	}
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			v := p.fac[i*m+j]
			p.G[i*m+j], p.G[j*m+i] = v, v
		}
	}
	// With the inverse at hand the 1-norm condition number is exact.
	if cond := norm1(p.kl, m) * norm1(p.G, m); !(cond <= condMax) {
		return fmt.Errorf("greedytl.Fit: K_S + λI is singular at step %d (condition number %.3g): %s", len(p.sel), cond, p.tooSmall())
	}
	if !finiteSlice(p.a) {
		return fmt.Errorf("greedytl.Fit: non-finite dual solution at step %d: %s", len(p.sel), p.tooSmall())
	}
	return nil
}

// norm1 returns the 1-norm (the largest column sum of magnitudes) of the
// symmetric row-major m×m matrix A.
func norm1(A []float64, m int) float64 {
	var n float64
	for i := 0; i < m; i++ {
		var s float64
		for _, v := range A[i*m : i*m+m] {
			s += math.Abs(v)
		}
		n = max(n, s)
	}
	return n
}

// record appends the regularised and LOO errors of the current state. It
// returns an error when either breaks down numerically (a negative
// regularised error, a leave-one-out denominator that is not positive),
// which takes a λ far too small for the data.
func (p *path) record() error {
	loo, err := p.looError()
	if err != nil {
		return err
	}
	// λ yᵀGy = λ yᵀĜy + (Σy)²(1/m − λ/(ms)) = λ yᵀa + (Σy)²β/s.
	reg := p.lambda*dot(p.y, p.a) + p.ysum*p.ysum*p.beta/p.s
	if !(reg >= 0) {
		// Positive in exact arithmetic: rounding has taken over.
		return fmt.Errorf("greedytl.Fit: regularised error breaks down at step %d (e(S)/m = %v): %s", len(p.sel), reg/float64(p.m), p.tooSmall())
	}
	p.reg = append(p.reg, reg/float64(p.m))
	p.loo = append(p.loo, loo)
	return nil
}

// looError returns the class-balanced mean squared leave-one-out residual
// of the current columns: the mean over the two classes of the per-class
// mean of e_i², where e_i = y_i − p_i and p_i is the prediction for example
// i of the ridge fit (no intercept, the same λ) on the other examples, with
// the selected columns re-centred without example i (not rescaled).
//
// Re-centring matters: the columns were centred with all m examples, so
// row i equals minus the sum of the others, and a fit that nearly
// interpolates them would "predict" y_i − Σ_{j≠i} y_j, which is y_i itself
// on a balanced sample. The fit on the re-centred columns has the weights
// of ridge with an unpenalised intercept on the original ones, whose
// prediction exceeds p_i by ȳ₋ᵢ = (Σ_j y_j − y_i)/(m − 1). For centred
// columns G1 = 1/λ·1, the hat matrix of that model is 11ᵀ/m + I − λG, and
// its closed-form leave-one-out residual is r_i = (λ(Gy)_i − ȳ)/(λG_ii −
// 1/m) = (Py)_i/P_ii (see path for P); with Ĝ = P + 11ᵀ/(ms) and a = Ĝy,
// r_i = (a_i − ȳ/s)/(Ĝ_ii − 1/(ms)). So p_i = y_i − r_i − ȳ₋ᵢ and
// e_i = r_i + ȳ₋ᵢ: O(m) in all. When the other examples are all one class
// (example i is the only one of its class), the re-centred targets are
// constant, the refit is w = 0 and p_i = 0 exactly.
//
// looError returns an error when the closed form breaks down numerically
// (P_ii > 0 in exact arithmetic), which takes a λ far too small for the
// data.
func (p *path) looError() (float64, error) {
	m := p.m
	fm := float64(m)
	ybarS, invMS := p.ysum/fm/p.s, 1/(fm*p.s)
	diag, stride := p.dg, 1
	if !p.primal {
		diag, stride = p.G, m+1
	}
	loo, pii, ok := balancedLOO(p.y, p.pos, p.npos, p.ysum, p.a, ybarS, diag, stride, invMS)
	if !ok {
		return 0, fmt.Errorf("greedytl.Fit: leave-one-out error breaks down at step %d (P_ii = %v): %s", len(p.sel), pii, p.tooSmall())
	}
	return loo, nil
}

// balancedLOO returns the class-balanced mean of e_i² over the labels y
// (pos[i] for y_i = +1, npos positives, sum ysum): e_i = y_i when example i
// is the only one of its class, else e_i = r_i + (ysum − y_i)/(m − 1) with
// r_i = (a_i − aOff)/P_ii, P_ii = diag[i·stride] − dOff (see looError).
// When a P_ii is not positive or an e_i not finite it returns that P_ii and
// false.
func balancedLOO(y []float64, pos []bool, npos int, ysum float64, a []float64, aOff float64, diag []float64, stride int, dOff float64) (float64, float64, bool) {
	m := len(y)
	fm := float64(m)
	var sp, sn float64
	for i, yi := range y {
		e := yi // the only example of its class: p_i = 0
		if (pos[i] && npos > 1) || (!pos[i] && npos < m-1) {
			pii := diag[i*stride] - dOff
			e = (a[i]-aOff)/pii + (ysum-yi)/(fm-1)
			if !(pii > 0) || math.IsNaN(e) || math.IsInf(e, 0) {
				return 0, pii, false
			}
		}
		if pos[i] {
			sp += e * e
		} else {
			sn += e * e
		}
	}
	return (sp/float64(npos) + sn/float64(m-npos)) / 2, 0, true
}

// weights returns the ridge weights of the first k selected columns,
// w = Z_Sᵀ (K_S + λI)⁻¹ y = (Z_SᵀZ_S + λI)⁻¹Z_Sᵀy, solving with a fresh
// Cholesky factorisation, and the regularised and LOO errors of that
// prefix. It solves in the primal form (a (k+1)×(k+1) system) when k < m
// or the primal form is forced, else in the dual form (m×m), unless the
// dual form is forced.
func (p *path) weights(k int) (w []float64, reg, loo float64, err error) {
	m := p.m
	// q's largest buffers travel with p's (none of them reaches the
	// model).
	var b *pathBuffers
	if p.bufs != nil {
		if p.bufs.final == nil {
			p.bufs.final = new(pathBuffers)
		}
		b = p.bufs.final
	}
	if pathForm == formPrimal || (pathForm == formAuto && k < m) {
		q := newPathPrimalBufs(p.y, p.lambda, p.featureScale, 1, b)
		own := q.selZ
		defer func() {
			q.selZ = own // p's columns are p's buffer, not q's
			q.giveBack()
		}()
		q.sel, q.selZ = p.sel[:k:k], p.selZ[:k*m:k*m]
		x, err := q.solvePrimal(k)
		if err != nil {
			return nil, 0, 0, err
		}
		if err := q.record(); err != nil {
			return nil, 0, 0, err
		}
		return x[1:], q.reg[0], q.loo[0], nil
	}
	q := newPathBufs(p.y, p.lambda, p.featureScale, 1, b)
	defer q.giveBack()
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
	if err := q.record(); err != nil {
		return nil, 0, 0, err
	}
	return w, q.reg[0], q.loo[0], nil
}
