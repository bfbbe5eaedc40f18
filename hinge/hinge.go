package hinge

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/ball"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// stepScaleFactor is the first step's length in units of 1/s (see
// Loss.stepScale); 3 did best among 1, 3, 10, 30 and 100 against exact
// (linear programming) optima of L1-constrained problems.
const stepScaleFactor = 3

// New returns the loss of the affine predictions c + Gβ for labels y (±1)
// and example weights zeta (g is m × n, nil when there are no sources). It
// keeps its arguments, which must not change afterwards.
func New(y, zeta, c []float64, g *mat.Dense) *Loss {
	return &Loss{y: y, zeta: zeta, c: c, g: g}
}

// Loss is the objective L(β) = (1/m) Σ_i ζ_i max(0, 1 − y_i ỹ_i(β))
// with the LOO predictions ỹ(β) = c + Gβ.
//
// A Loss is not safe for concurrent Minimise calls: the first call
// records its check of New's arguments, and the descents build on first
// use, and then reuse, Gᵀ, GGᵀ, G's row norms and the L1 projector's
// scratch. Call Minimise from one goroutine at a time, or give each
// goroutine its own Loss (New copies nothing).
type Loss struct {
	y, zeta, c []float64
	g          *mat.Dense // m × n; nil when there are no sources

	// Built on first use by minimise and reused across radii.
	gt                 *mat.Dense // Gᵀ (n × m): column j of G is row j
	rowNorm1, rowNorm2 []float64  // ||G_i||_∞ and ||G_i||₂
	k                  *mat.Dense // GGᵀ (m × m), for the L2 descent
	proj               ball.L1Projector

	// checked is set, and checkErr to check's result, by the first
	// Minimise: New's arguments do not change, so one check serves every
	// radius.
	checked  bool
	checkErr error
}

// Predict writes ỹ(β) into dst (allocated when nil) and returns it.
func (l *Loss) Predict(dst, beta []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(l.c))
	}
	copy(dst, l.c)
	if l.g != nil && len(beta) > 0 {
		g := l.g.RawMatrix()
		blas64.Gemv(blas.NoTrans, 1, g, blas64.Vector{N: len(beta), Inc: 1, Data: beta},
			1, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
	}
	return dst
}

// Value returns L at the LOO predictions pred (as Predict gives them: one
// per example). It returns an error, as Minimise does (checkShapes), when
// the loss has no examples (L, a mean over them, would be 0/0 = NaN) or its
// labels and weights are not one per offset, and when pred does not have
// one value per example.
func (l *Loss) Value(pred []float64) (float64, error) {
	m, err := l.checkShapes()
	if err != nil {
		return 0, err
	}
	if len(pred) != m {
		return 0, fmt.Errorf("hinge: %d predictions for %d examples", len(pred), m)
	}
	return l.value(pred), nil
}

// value is Value for pred and a loss that Minimise's check has passed.
func (l *Loss) value(pred []float64) float64 {
	var s float64
	for i, f := range pred {
		if h := 1 - l.y[i]*f; h > 0 {
			s += l.zeta[i] * h
		}
	}
	return s / float64(len(pred))
}

// hingeCoefficients writes into v the coefficients of the subgradient
// −(1/m) Σ_{i: y_i ỹ_i < 1} ζ_i y_i G_i of L at the LOO predictions pred,
// v_i = −ζ_i y_i/m for the examples inside the margin and 0 for the others,
// and reports whether any example is inside the margin.
func (l *Loss) hingeCoefficients(v, pred []float64) bool {
	m := float64(len(pred))
	any := false
	for i, f := range pred {
		v[i] = 0
		if l.y[i]*f < 1 {
			v[i] = -l.zeta[i] * l.y[i] / m
			any = true
		}
	}
	return any
}

// updateCoefficients sets v to the hinge coefficients at pred
// (hingeCoefficients) and keeps acc = Σ_i v_i·rows_i up to date from the
// coefficients old it was computed with, adding the rows whose
// coefficient changed (old becomes v). It reports whether any changed.
func (l *Loss) updateCoefficients(v, old, pred []float64, rows *mat.Dense, acc []float64) (changed bool) {
	l.hingeCoefficients(v, pred)
	for i, vi := range v {
		if vi != old[i] {
			floats.AddScaled(acc, vi-old[i], rows.RawRowView(i))
			old[i] = vi
			changed = true
		}
	}
	return changed
}

// subgradient writes into grad a subgradient of L at the LOO predictions
// pred: −(1/m) Σ_{i: y_i ỹ_i < 1} ζ_i y_i G_i. v is scratch (length m).
func (l *Loss) subgradient(grad, pred []float64, v []float64) {
	l.hingeCoefficients(v, pred)
	blas64.Gemv(blas.Trans, 1, l.g.RawMatrix(), blas64.Vector{N: len(v), Inc: 1, Data: v},
		0, blas64.Vector{N: len(grad), Inc: 1, Data: grad})
}

// stepScale returns the length r of the first step of minimise over the
// ball of radius tau: min(tau, stepScaleFactor/s), s the root mean square
// norm of G's rows (tau when G is zero).
func (l *Loss) stepScale(tau float64) float64 {
	m, _ := l.g.Dims()
	var ss float64
	for i := range m { // row by row: a view's Data holds other values between its rows
		for _, x := range l.g.RawRowView(i) {
			ss += x * x
		}
	}
	if rms := math.Sqrt(ss / float64(m)); rms > 0 {
		return math.Min(tau, stepScaleFactor/rms)
	}
	return tau
}

// Minimise minimises L over the ball ||β|| ≤ tau (L1 when l1, else L2)
// from the projection of beta0, and returns the best iterate, its
// objective and the objective of every iterate (trace[0] is the start's).
// beta0 is not modified.
//
// When the ball is so small that no LOO prediction can cross its margin
// — |1 − y_i c_i| > tau·||G_i||_*, the dual norm of the ball's, for every
// example — the examples inside the margin are the same everywhere in the
// ball, L is linear there, L(β) = L(0) + gᵀβ, and its minimum is taken
// exactly (linearMinimum): the trace is the start's objective and the
// minimum's. Otherwise minimise runs steps projected subgradient steps (or
// fewer, see below).
//
// Each step moves β by −η_t·g/||g||, g = Gᵀv the subgradient (v from
// hingeCoefficients), η_t = r/√(t+1), and projects back onto the ball; it
// stops early at an iterate with L = 0 or a zero subgradient. Both forms
// avoid the O(m·n) products where they can: the L1 descent uses the
// sparsity of β (ỹ = c + Σ_{β_j≠0} β_j G_{:j}) and of v (g = Σ_{v_i≠0} v_i G_i);
// the L2 descent never forms β: its iterates stay of the form
// β = αβ₀ + Gᵀa (β₀ the projected start), since every step adds a
// multiple of Gᵀv and the projection scales, so that with K = GGᵀ it
// tracks ỹ = c + αGβ₀ + Ka, ||g||² = vᵀKv and ||β||² = α²||β₀||² +
// 2α·aᵀGβ₀ + aᵀKa in O(m²) a step, and forms β for the best iterate only.
//
// Without sources (G nil) β is empty and L is constant: Minimise returns
// an empty β and L(0). It returns an error when beta0 does not have one
// value per column of G or holds a NaN or ±Inf value, when tau is
// negative or NaN, when steps is negative, and when New's arguments are
// empty (no examples), disagree in length (one label, weight and offset
// per row of G) or hold a NaN or ±Inf value
// (checked at the first call only: New's arguments do not change, and
// later calls return the first call's verdict); ctx's error, checked
// before every step, when ctx is done; and it panics when ctx is nil.
func (l *Loss) Minimise(ctx context.Context, beta0 []float64, tau float64, l1 bool, steps int) (best []float64, bestVal float64, trace []float64, err error) {
	if err := fitctx.Start(ctx, "hinge"); err != nil {
		return nil, 0, nil, err
	}
	if !l.checked {
		l.checkErr, l.checked = l.check(), true
	}
	if l.checkErr != nil {
		return nil, 0, nil, l.checkErr
	}
	n := 0
	if l.g != nil {
		_, n = l.g.Dims()
	}
	switch {
	case len(beta0) != n:
		return nil, 0, nil, fmt.Errorf("hinge: %d start weights for %d sources", len(beta0), n)
	case !(tau >= 0):
		return nil, 0, nil, fmt.Errorf("hinge: radius τ = %v: want τ ≥ 0", tau)
	case steps < 0: // would never meet the descents' stop t == steps
		return nil, 0, nil, fmt.Errorf("hinge: %d steps: want steps ≥ 0", steps)
	}
	if err := inputcheck.CheckFiniteValues("start weight", beta0); err != nil { // a weight per source, not per row
		return nil, 0, nil, fmt.Errorf("hinge: %w", err)
	}
	if n == 0 {
		v := l.value(l.Predict(nil, nil))
		return []float64{}, v, []float64{v}, nil
	}
	if best, val, ok := l.linearMinimum(tau, l1); ok {
		start := make([]float64, n)
		if l1 {
			l.proj.Project(start, beta0, tau)
		} else {
			ball.ProjectL2(start, beta0, tau)
		}
		return best, val, []float64{l.value(l.Predict(nil, start)), val}, nil
	}
	if l1 {
		return l.minimiseL1(ctx, beta0, tau, steps)
	}
	return l.minimiseL2(ctx, beta0, tau, steps)
}

// check returns an error when the loss's arguments (New's) disagree in
// length — one label, weight and offset per row of G — or hold a NaN or
// ±Inf value, from which Minimise would return a NaN β, or panic.
func (l *Loss) check() error {
	m, err := l.checkShapes()
	if err != nil {
		return err
	}
	if l.g != nil {
		if r, _ := l.g.Dims(); r != m {
			return fmt.Errorf("hinge: G has %d rows for %d offsets c", r, m)
		}
	}
	for _, v := range []struct {
		name string
		v    []float64
	}{{"label", l.y}, {"weight", l.zeta}, {"offset", l.c}} {
		if err := inputcheck.CheckFiniteVector(v.name, v.v); err != nil {
			return fmt.Errorf("hinge: %w", err)
		}
	}
	if err := inputcheck.CheckFinite("G", l.g); err != nil {
		return fmt.Errorf("hinge: %w", err)
	}
	return nil
}

// checkShapes returns the number of examples m, the length of c, and an
// error when there are none (L, a mean over the examples, would be 0/0) or
// the labels and weights are not one per offset: check's tests of the
// vectors' lengths, which Value shares.
func (l *Loss) checkShapes() (m int, err error) {
	m = len(l.c)
	if m == 0 {
		return 0, errors.New("hinge: no examples (no offsets c)")
	}
	if len(l.y) != m || len(l.zeta) != m {
		return 0, fmt.Errorf("hinge: %d labels and %d weights for %d offsets c", len(l.y), len(l.zeta), m)
	}
	return m, nil
}

// linearMinimum returns the exact minimiser of L over the ball of radius
// tau (L1 when l1, else L2) and its value when L is linear on the ball (see
// minimise) and some example is inside the margin; ok is false otherwise.
// With g = −(1/m) Σ_{i inside} ζ_i y_i G_i the minimiser is −tau·sign(g_j)e_j
// at the first j of largest |g_j| (L1) or −tau·g/||g||₂ (L2).
func (l *Loss) linearMinimum(tau float64, l1 bool) (best []float64, val float64, ok bool) {
	m, n := l.g.Dims()
	if l.rowNorm1 == nil {
		l.rowNorm1, l.rowNorm2 = make([]float64, m), make([]float64, m)
		for i := range m {
			for _, x := range l.g.RawRowView(i) {
				l.rowNorm1[i] = math.Max(l.rowNorm1[i], math.Abs(x))
				l.rowNorm2[i] += x * x
			}
			l.rowNorm2[i] = math.Sqrt(l.rowNorm2[i])
		}
	}
	dual := l.rowNorm2
	if l1 {
		dual = l.rowNorm1 // ||G_i||_∞, dual to the L1 ball
	}
	inside := false
	for i, c := range l.c {
		margin := 1 - l.y[i]*c
		if !(math.Abs(margin) > tau*dual[i]) {
			return nil, 0, false
		}
		inside = inside || margin > 0
	}
	if !inside {
		return nil, 0, false // L = 0 on the whole ball: the descent stops at once
	}
	v := make([]float64, m)
	l.hingeCoefficients(v, l.c)
	g := make([]float64, n)
	blas64.Gemv(blas.Trans, 1, l.g.RawMatrix(), blas64.Vector{N: m, Inc: 1, Data: v},
		0, blas64.Vector{N: n, Inc: 1, Data: g})
	best = make([]float64, n)
	if l1 {
		j := 0
		for k, x := range g {
			if math.Abs(x) > math.Abs(g[j]) {
				j = k
			}
		}
		if g[j] == 0 {
			return nil, 0, false
		}
		best[j] = -math.Copysign(tau, g[j])
	} else {
		norm := math.Sqrt(floats.Dot(g, g))
		if norm == 0 {
			return nil, 0, false
		}
		for j, x := range g {
			best[j] = -tau * x / norm
		}
	}
	return best, l.value(l.Predict(nil, best)), true
}

// minimiseL1 is minimise over the L1 ball. A step costs O(m + nnz(β) +
// k) rather than O(m·n): the subgradient g = Σ_{i inside the margin} v_i G_i
// is updated as examples enter and leave the margin, which few do from one
// step to the next; ỹ is formed from the non-zero β_j, which the projection
// keeps few for small radii; and the projection visits only those and the
// k coordinates that can become non-zero (see l1Step).
func (l *Loss) minimiseL1(ctx context.Context, beta0 []float64, tau float64, steps int) (best []float64, bestVal float64, trace []float64, err error) {
	m, n := l.g.Dims()
	if l.gt == nil {
		l.gt = mat.NewDense(n, m, nil)
		l.gt.Copy(l.g.T())
	}
	st := &l1Step{
		proj:  &l.proj,
		beta:  make([]float64, n),
		grad:  make([]float64, n),
		inNZ:  make([]bool, n),
		gamma: math.Inf(1),
	}
	beta, grad := st.beta, st.grad
	l.proj.Project(beta, beta0, tau)
	for j, b := range beta {
		if b != 0 {
			st.nz = append(st.nz, j)
		}
	}
	pred := make([]float64, m)
	v := make([]float64, m)
	inside := make([]float64, m) // v_i of the examples counted in grad
	var gn float64               // ||grad||

	r := l.stepScale(tau)
	best = make([]float64, n)
	copy(best, beta)
	bestVal = math.Inf(1)
	trace = make([]float64, 0, steps+1)
	for t := 0; ; t++ {
		if err := fitctx.Err(ctx, "hinge"); err != nil {
			return nil, 0, nil, err
		}
		if 2*len(st.nz) < n {
			copy(pred, l.c)
			for _, j := range st.nz {
				floats.AddScaled(pred, beta[j], l.gt.RawRowView(j))
			}
		} else {
			l.Predict(pred, beta)
		}
		val := l.value(pred)
		trace = append(trace, val)
		if val < bestVal {
			bestVal = val
			copy(best, beta)
		}
		if t == steps || val == 0 {
			break
		}
		if l.updateCoefficients(v, inside, pred, l.g, grad) {
			gn = st.newGradient()
		}
		if gn == 0 {
			break // a zero subgradient: β is optimal
		}
		st.step(r/(gn*math.Sqrt(float64(t+1))), tau)
	}
	return best, bestVal, trace, nil
}

// l1Step performs the projected steps β ← P(β − step·g) of the L1 descent,
// P the projection onto the L1 ball of radius tau (the soft-thresholding
// at θ), in time O(nnz(β) + k). Its threshold θ comes from Newton's method
// (as ball.L1Projector does) started at θ₀ = l1NewtonStart·θ', θ' the previous
// step's threshold: if θ₀ lies below the new θ, as it nearly always does,
// only the coordinates of β − step·g above θ₀ can survive, and those are
// the non-zero β_j and the zero ones with |g_j| > θ₀/step. The latter are
// found in a list of the coordinates with |g_j| > γ, built for the current
// g with γ = l1ListCut·θ₀/step, and rebuilt when g changes or θ₀/step falls
// below γ. When θ₀ lies above θ, or the ball does not constrain, the step
// visits every coordinate. The result is the Euclidean projection onto the
// ball, found by the projector's threshold (Threshold) and soft
// thresholding (ball.SoftThreshold), not by L1Projector.Project's shifted
// route for thresholds that dwarf the radius: that cancellation is left
// here, as mending it would move MultiKT-L1's numbers.
type l1Step struct {
	proj  *ball.L1Projector
	beta  []float64
	grad  []float64
	nz    []int   // the j with β_j ≠ 0
	inNZ  []bool  // marks the members of nz during a step
	large []int   // the coordinates with |g_j| > gamma
	gamma float64 // +Inf when large is to be rebuilt
	gAbs  float64 // ||g||₁
	cand  []candidate
}

// The margins of l1Step: the start of Newton's method below the previous
// threshold and the cut of the list of large |g_j| below the start's.
// Smaller values visit more coordinates, larger ones fall back to a visit
// of every coordinate more often; these did best on COIL-100 cells.
const (
	l1NewtonStart = 0.9
	l1ListCut     = 0.8
)

// candidate is a coordinate of β − step·g that may survive the projection.
type candidate struct {
	j int
	u float64
}

// newGradient records that g changed and returns ||g||₂.
func (s *l1Step) newGradient() float64 {
	var abs, sq float64
	for _, g := range s.grad {
		abs += math.Abs(g)
		sq += g * g
	}
	s.gAbs, s.gamma = abs, math.Inf(1)
	return math.Sqrt(sq)
}

// step moves β to P(β − step·g) and updates nz.
func (s *l1Step) step(step, tau float64) {
	beta, grad, p := s.beta, s.grad, s.proj
	theta0 := 0.0
	if last, ok := p.LastThreshold(); ok {
		theta0 = l1NewtonStart * last
	}
	// The candidates above θ₀ and ||β − step·g||₁.
	c := s.cand[:0]
	var l1, sum, gOff float64
	for _, j := range s.nz {
		s.inNZ[j] = true
		u := beta[j] - step*grad[j]
		a := math.Abs(u)
		l1 += a
		gOff += math.Abs(grad[j])
		if a > theta0 {
			sum += a
			c = append(c, candidate{j, u})
		}
	}
	l1 += step * math.Max(s.gAbs-gOff, 0)
	if cut := theta0 / step; cut < s.gamma {
		s.gamma = l1ListCut * cut
		s.large = s.large[:0]
		for j, g := range grad {
			if math.Abs(g) > s.gamma {
				s.large = append(s.large, j)
			}
		}
	}
	for _, j := range s.large {
		if a := step * math.Abs(grad[j]); a > theta0 && !s.inNZ[j] {
			sum += a
			c = append(c, candidate{j, -step * grad[j]})
		}
	}
	for _, j := range s.nz {
		s.inNZ[j] = false
	}
	s.cand = c
	theta, settled := 0.0, false
	if l1 > tau && len(c) > 0 {
		if next := (sum - tau) / float64(len(c)); next >= theta0 {
			// θ₀ is at or below the root: the set above θ only shrinks.
			theta = next
			for range len(c) + 1 {
				var sum float64
				var count int
				for _, e := range c {
					if a := math.Abs(e.u); a > theta {
						sum += a
						count++
					}
				}
				next := (sum - tau) / float64(count)
				if next == theta {
					settled = true
					break
				}
				theta = next
			}
		}
	}
	if !settled { // every coordinate may be non-zero
		s.nz = s.nz[:0]
		floats.AddScaled(beta, -step, grad)
		theta = 0
		if l1 > tau {
			theta = p.Threshold(beta, tau)
		}
		ball.SoftThreshold(beta, beta, theta)
		for j, u := range beta {
			if u != 0 {
				s.nz = append(s.nz, j)
			}
		}
		return
	}
	p.SetLastThreshold(theta)
	for _, j := range s.nz {
		beta[j] = 0
	}
	s.nz = s.nz[:0]
	for _, e := range c {
		if a := math.Abs(e.u) - theta; a > 0 {
			beta[e.j] = math.Copysign(a, e.u)
			s.nz = append(s.nz, e.j)
		}
	}
}

// minimiseL2 is minimise over the L2 ball, in the form β = αβ₀ + Gᵀa.
func (l *Loss) minimiseL2(ctx context.Context, beta0 []float64, tau float64, steps int) (best []float64, bestVal float64, trace []float64, err error) {
	m, n := l.g.Dims()
	if l.k == nil {
		l.k = mat.NewDense(m, m, nil)
		l.k.Mul(l.g, l.g.T())
	}
	start := make([]float64, n)
	ball.ProjectL2(start, beta0, tau)
	g0 := make([]float64, m) // Gβ₀
	mat.NewVecDense(m, g0).MulVec(l.g, mat.NewVecDense(n, start))
	nb0 := floats.Dot(start, start)
	var trK float64
	for i := range m {
		trK += l.k.At(i, i)
	}

	alpha := 1.0
	a := make([]float64, m)
	ka := make([]float64, m) // Ka
	kv := make([]float64, m) // Kv, updated as v changes
	v := make([]float64, m)
	vOld := make([]float64, m)
	var gn2, vv float64 // vᵀKv = ||Gᵀv||², vᵀv
	pred := make([]float64, m)
	bestAlpha, bestA := alpha, make([]float64, m)

	r := l.stepScale(tau)
	bestVal = math.Inf(1)
	trace = make([]float64, 0, steps+1)
	for t := 0; ; t++ {
		if err := fitctx.Err(ctx, "hinge"); err != nil {
			return nil, 0, nil, err
		}
		for i := range pred {
			pred[i] = l.c[i] + alpha*g0[i] + ka[i]
		}
		val := l.value(pred)
		trace = append(trace, val)
		if val < bestVal {
			bestVal = val
			bestAlpha = alpha
			copy(bestA, a)
		}
		if t == steps || val == 0 {
			break
		}
		if l.updateCoefficients(v, vOld, pred, l.k, kv) { // K is symmetric: Kv from its rows
			gn2, vv = floats.Dot(v, kv), floats.Dot(v, v)
		}
		// A zero subgradient (up to rounding in vᵀKv): β is optimal.
		if !(gn2 > 1e-28*vv*trK) {
			break
		}
		step := r / (math.Sqrt(gn2) * math.Sqrt(float64(t+1)))
		floats.AddScaled(a, -step, v)
		floats.AddScaled(ka, -step, kv)
		norm2 := alpha*alpha*nb0 + 2*alpha*floats.Dot(a, g0) + floats.Dot(a, ka)
		if norm2 > tau*tau {
			f := tau / math.Sqrt(norm2)
			alpha *= f
			for i := range a {
				a[i] *= f
				ka[i] *= f
			}
		}
	}
	best = make([]float64, n)
	for j := range best {
		best[j] = bestAlpha * start[j]
	}
	blas64.Gemv(blas.Trans, 1, l.g.RawMatrix(), blas64.Vector{N: m, Inc: 1, Data: bestA},
		1, blas64.Vector{N: n, Inc: 1, Data: best})
	// The scaling keeps β in the ball up to rounding; make sure.
	ball.ProjectL2(best, best, tau)
	return best, bestVal, trace, nil
}
