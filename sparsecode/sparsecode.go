package sparsecode

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/greedytl/greedytl/ball"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// ompTol is the relative size of the residual correlations below which OMP
// stops (the signal is explained), and ompDependent the relative squared
// norm below which the part of an atom orthogonal to the chosen ones counts
// as rounding: the atom is linearly dependent on them and is skipped (for
// unit-norm atoms it is the squared sine of its angle to their span, about
// 4/cond of their Gram matrix).
const (
	ompTol       = 1e-12
	ompDependent = 1e-12
)

// OMP returns the code γ (length K) of the signal x on the unit-norm atoms
// (rows of dict, K × p) found by orthogonal matching pursuit with at most
// sparsity atoms: repeatedly add the atom most correlated with the residual
// (the first on ties) and refit all chosen coefficients by least squares.
// gram is dict·dictᵀ. It uses the residual correlations
// Dᵀr = Dᵀx − G_{:,S}γ_S (Rubinstein, Zibulevsky and Elad's batch OMP), with
// the Cholesky factor of G_SS extended by one row per chosen atom, and
// stops early when they are all below ompTol·||x||. x must be finite: OMP
// does not check it (a NaN gives the zero code; Codes checks its signals).
//
// OMP, Gram and ResidualNorm2 are the kernels Codes and KSVD run on
// arguments they have checked; like gonum's, they have no error result and
// panic, with a message naming the function, on a caller's mistake: OMP
// when dict is nil or empty, gram is not K × K, len(x) is not p or
// sparsity is negative. Codes returns errors for all of these.
func OMP(dict *mat.Dense, gram *mat.SymDense, x []float64, sparsity int) []float64 {
	K, p := dims("OMP", "dictionary", dict)
	switch {
	case gram == nil || gram.SymmetricDim() != K:
		panic(fmt.Sprintf("%s: OMP: Gram matrix %s for %d atoms", caller, symShape(gram), K))
	case len(x) != p:
		panic(fmt.Sprintf("%s: OMP: signal of length %d on atoms of length %d", caller, len(x), p))
	case sparsity < 0:
		panic(fmt.Sprintf("%s: OMP: sparsity %d: want sparsity ≥ 0", caller, sparsity))
	}
	gamma := make([]float64, K)
	dx := make([]float64, K)
	mat.NewVecDense(K, dx).MulVec(dict, mat.NewVecDense(p, x))
	tol := ompTol * math.Sqrt(floats.Dot(x, x))
	g := gram.RawSymmetric() // upper triangle
	gAt := func(i, j int) float64 {
		if i > j {
			i, j = j, i
		}
		return g.Data[i*g.Stride+j]
	}
	corr := slices.Clone(dx)
	excluded := make([]bool, K)
	support := make([]int, 0, sparsity)
	chol := make([]float64, sparsity*sparsity) // L, lower triangular: L Lᵀ = G_SS
	coef := make([]float64, sparsity)
	row := make([]float64, sparsity)
	for len(support) < sparsity {
		best, bestAbs := -1, tol
		for k, c := range corr {
			if !excluded[k] && math.Abs(c) > bestAbs {
				best, bestAbs = k, math.Abs(c)
			}
		}
		if best < 0 {
			break
		}
		excluded[best] = true // chosen, or unusable
		// The new row of L: L_S w = G_{S,best}, d = G_bb − wᵀw.
		s := len(support)
		gbb := gAt(best, best)
		d := gbb
		for a, i := range support {
			w := gAt(i, best)
			for c := range a {
				w -= chol[a*sparsity+c] * row[c]
			}
			w /= chol[a*sparsity+a]
			row[a] = w
			d -= w * w
		}
		if !(d > ompDependent*gbb) {
			continue // dependent on the chosen atoms
		}
		copy(chol[s*sparsity:], row[:s])
		chol[s*sparsity+s] = math.Sqrt(d)
		support = append(support, best)
		// G_SS γ_S = (Dx)_S by L z = (Dx)_S, Lᵀγ_S = z.
		s++
		for a, i := range support {
			z := dx[i]
			for c := range a {
				z -= chol[a*sparsity+c] * coef[c]
			}
			coef[a] = z / chol[a*sparsity+a]
		}
		for a := s - 1; a >= 0; a-- {
			z := coef[a]
			for c := a + 1; c < s; c++ {
				z -= chol[c*sparsity+a] * coef[c]
			}
			coef[a] = z / chol[a*sparsity+a]
		}
		for k := range corr {
			c := dx[k]
			for a, i := range support {
				c -= gAt(k, i) * coef[a]
			}
			corr[k] = c
		}
	}
	for a, i := range support {
		gamma[i] = coef[a]
	}
	return gamma
}

// Gram returns dict·dictᵀ, the Gram matrix of the atoms that OMP takes.
// It panics, as OMP does, when dict is nil or empty.
func Gram(dict *mat.Dense) *mat.SymDense {
	K, _ := dims("Gram", "dictionary", dict)
	g := mat.NewSymDense(K, nil)
	g.SymOuterK(1, dict)
	return g
}

// Codes returns the OMP codes (rows) of the signals (rows) on dict. It
// returns an error when dict or signals is absent (nil or empty), when
// sparsity is negative, when the signals' length differs from the atoms'
// and when a signal holds a NaN or ±Inf value (inputcheck.NonFiniteError:
// OMP would code it as 0), or an atom does (OMP would never choose it),
// and ctx's error, checked before each signal,
// when ctx is done; it panics when ctx is nil.
func Codes(ctx context.Context, dict, signals *mat.Dense, sparsity int) (*mat.Dense, error) {
	if err := fitctx.Start(ctx, caller); err != nil {
		return nil, err
	}
	switch {
	case inputcheck.Absent(dict):
		return nil, fmt.Errorf("%s: no dictionary", caller)
	case inputcheck.Absent(signals):
		return nil, fmt.Errorf("%s: no signals", caller)
	case sparsity < 0:
		return nil, fmt.Errorf("%s: sparsity %d: want sparsity ≥ 0", caller, sparsity)
	}
	_, p := dict.Dims()
	_, q := signals.Dims()
	if p != q {
		return nil, fmt.Errorf("%s: signals of length %d on atoms of length %d", caller, q, p)
	}
	if err := inputcheck.CheckFinite("signals", signals); err != nil {
		return nil, fmt.Errorf("%s: %w", caller, err)
	}
	if err := inputcheck.CheckFinite("dictionary", dict); err != nil {
		return nil, fmt.Errorf("%s: %w", caller, err)
	}
	return checkedCodes(ctx, dict, signals, sparsity)
}

// checkedCodes is Codes on checked arguments: KSVD's finite signals, and its
// dictionary made of them (normalised, or drawn, and updated by rank-one
// SVDs), which it need not scan again at every iteration.
func checkedCodes(ctx context.Context, dict, signals *mat.Dense, sparsity int) (*mat.Dense, error) {
	K, _ := dict.Dims()
	N, _ := signals.Dims()
	gram := Gram(dict)
	codes := mat.NewDense(N, K, nil)
	for i := range N {
		if err := fitctx.Err(ctx, caller); err != nil {
			return nil, err
		}
		codes.SetRow(i, OMP(dict, gram, signals.RawRowView(i), sparsity))
	}
	return codes, nil
}

// caller names the package in its context errors.
const caller = "sparsecode"

// dims returns the dimensions of the matrix m, argument what of the kernel
// fn, and panics, naming both, when m is nil or empty.
func dims(fn, what string, m *mat.Dense) (r, c int) {
	if inputcheck.Absent(m) {
		panic(fmt.Sprintf("%s: %s: no %s (nil or empty)", caller, fn, what))
	}
	return m.Dims()
}

// symShape describes the shape of the symmetric matrix g for a panic.
func symShape(g *mat.SymDense) string {
	if g == nil {
		return "nil"
	}
	n := g.SymmetricDim()
	return fmt.Sprintf("%d × %d", n, n)
}

// ResidualNorm2 returns ||signals − codes·dict||²_F and writes the
// residual into res when res is not nil. It panics, as OMP does, when
// signals, codes or dict is nil or empty, or when codes is not N × K for
// N signals and K atoms or the signals' length is not the atoms'.
func ResidualNorm2(signals, codes, dict *mat.Dense, res *mat.Dense) float64 {
	N, p := dims("ResidualNorm2", "signals", signals)
	cr, cc := dims("ResidualNorm2", "codes", codes)
	K, q := dims("ResidualNorm2", "dictionary", dict)
	if cr != N || cc != K || q != p {
		panic(fmt.Sprintf("%s: ResidualNorm2: %d × %d codes of %d × %d signals on %d × %d atoms", caller, cr, cc, N, p, K, q))
	}
	var r mat.Dense
	r.Mul(codes, dict)
	r.Sub(signals, &r)
	rows, _ := r.Dims()
	var ss float64
	for i := range rows {
		row := r.RawRowView(i)
		ss += floats.Dot(row, row)
	}
	if res != nil {
		res.CloneFrom(&r)
	}
	return ss
}

// KSVDStep records one K-SVD iteration: the squared reconstruction error
// ||T − ΓD||²_F after sparse coding (Before) and after the dictionary
// update (After, with the same supports).
type KSVDStep struct{ Before, After float64 }

// KSVD learns a dictionary of atoms unit-norm atoms (rows) for the signals
// (rows), with OMP codes of the given sparsity, in iters iterations, and
// returns it with the error of each iteration. The initial atoms are
// distinct signals drawn with rng (normalised; a zero signal is replaced by
// a random direction). Each atom update replaces the atom and its
// coefficients by the best rank-one approximation of the error without it
// on the signals that use it, which cannot increase the error; an unused
// atom becomes the normalised residual of the worst-represented signal.
// KSVD returns an error when signals is absent (nil or empty), when atoms
// is not between 1 and the number of signals, when sparsity or iters is
// negative or rng nil, when a signal holds a NaN or ±Inf value
// (inputcheck.NonFiniteError: "signals row 3 column 7 is NaN"), when a
// signal's squared norm or an error of the trace overflows float64, and ctx's
// error, checked before each signal's code, each atom's update and each
// error evaluation, when ctx is done; it panics when ctx is nil.
func KSVD(ctx context.Context, signals *mat.Dense, atoms, sparsity, iters int, rng *rand.Rand) (*mat.Dense, []KSVDStep, error) {
	if err := fitctx.Start(ctx, caller); err != nil {
		return nil, nil, err
	}
	if inputcheck.Absent(signals) {
		return nil, nil, fmt.Errorf("%s: KSVD: no signals", caller)
	}
	N, p := signals.Dims()
	switch {
	case atoms < 1 || atoms > N:
		return nil, nil, fmt.Errorf("%s: KSVD of %d atoms for %d signals: want 1 to %[3]d atoms", caller, atoms, N)
	case sparsity < 0:
		return nil, nil, fmt.Errorf("%s: KSVD: sparsity %d: want sparsity ≥ 0", caller, sparsity)
	case iters < 0:
		return nil, nil, fmt.Errorf("%s: KSVD: %d iterations: want iterations ≥ 0", caller, iters)
	case rng == nil:
		return nil, nil, fmt.Errorf("%s: KSVD: nil rng", caller)
	}
	if err := inputcheck.CheckFinite("signals", signals); err != nil {
		return nil, nil, fmt.Errorf("%s: KSVD: %w", caller, err)
	}
	// OMP needs each signal's squared norm; ||T||²_F is only a bound on
	// the errors of the trace, which are checked themselves (ksvdError).
	for i := range N {
		if row := signals.RawRowView(i); math.IsInf(floats.Dot(row, row), 0) {
			return nil, nil, fmt.Errorf("%s: KSVD: the squared norm of signals row %d overflows float64: rescale the signals", caller, i)
		}
	}
	dict := mat.NewDense(atoms, p, nil)
	for k, i := range rng.Perm(N)[:atoms] {
		row := dict.RawRowView(k)
		copy(row, signals.RawRowView(i))
		if !Normalise(row) {
			for j := range row {
				row[j] = rng.NormFloat64()
			}
			Normalise(row)
		}
	}
	var trace []KSVDStep
	var res mat.Dense
	for range iters {
		if err := fitctx.Err(ctx, caller); err != nil { // Codes' first check
			return nil, nil, err
		}
		codes, err := checkedCodes(ctx, dict, signals, sparsity)
		if err != nil {
			return nil, nil, err
		}
		step := KSVDStep{Before: ResidualNorm2(signals, codes, dict, &res)}
		if err := ksvdError(len(trace), "before", step.Before); err != nil {
			return nil, nil, err
		}
		for k := range atoms {
			if err := fitctx.Err(ctx, caller); err != nil {
				return nil, nil, err
			}
			var users []int
			for i := range N {
				if codes.At(i, k) != 0 {
					users = append(users, i)
				}
			}
			if len(users) == 0 {
				replaceUnused(dict, k, &res)
				continue
			}
			// E = rows of the residual with atom k's contribution added back.
			e := mat.NewDense(len(users), p, nil)
			atom := dict.RawRowView(k)
			for a, i := range users {
				row, r, g := e.RawRowView(a), res.RawRowView(i), codes.At(i, k)
				for j := range row {
					row[j] = r[j] + g*atom[j]
				}
			}
			sigma, left, ok := topSingular(e, atom)
			if !ok {
				continue
			}
			for a, i := range users {
				g := sigma * left[a]
				codes.Set(i, k, g)
				row, r := e.RawRowView(a), res.RawRowView(i)
				for j := range r {
					r[j] = row[j] - g*atom[j]
				}
			}
		}
		if err := fitctx.Err(ctx, caller); err != nil {
			return nil, nil, err
		}
		step.After = ResidualNorm2(signals, codes, dict, nil)
		if err := ksvdError(len(trace), "after", step.After); err != nil {
			return nil, nil, err
		}
		trace = append(trace, step)
	}
	return dict, trace, nil
}

// ksvdError returns an error when KSVD's squared error of iteration it
// (counted from 0) at the given stage, before or after the dictionary
// update, is not finite: the errors overflow float64.
func ksvdError(it int, stage string, e float64) error {
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return fmt.Errorf("%s: KSVD: the squared error of iteration %d %s the dictionary update is %v (beyond float64's range): rescale the signals", caller, it+1, stage, e)
	}
	return nil
}

// topSingular writes into right the right singular vector of e's largest
// singular value σ and returns σ and the left singular vector, from the
// eigendecomposition of eeᵀ (e has few rows: the signals using one atom).
// ok is false when e is zero or the decomposition fails; right is then
// unchanged.
func topSingular(e *mat.Dense, right []float64) (sigma float64, left []float64, ok bool) {
	r, _ := e.Dims()
	var eet mat.SymDense
	eet.SymOuterK(1, e)
	var es mat.EigenSym
	if !es.Factorize(&eet, true) {
		return 0, nil, false
	}
	vals := es.Values(nil)
	top := vals[r-1] // ascending order
	if !(top > 0) {
		return 0, nil, false
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	left = mat.Col(nil, r-1, &vecs)
	// v = eᵀu/||eᵀu|| (σ = ||eᵀu||, more accurate than √top).
	v := make([]float64, len(right))
	mat.NewVecDense(len(v), v).MulVec(e.T(), mat.NewVecDense(r, left))
	sigma = math.Sqrt(floats.Dot(v, v))
	if !(sigma > 0) {
		return 0, nil, false
	}
	for j, x := range v {
		right[j] = x / sigma
	}
	return sigma, left, true
}

// replaceUnused sets atom k of dict to the normalised residual (a row of
// res) of largest norm, unless all residuals are zero.
func replaceUnused(dict *mat.Dense, k int, res *mat.Dense) {
	rows, _ := res.Dims()
	worst, worstNorm := -1, 0.0
	for i := range rows {
		if nr := mat.Norm(res.RowView(i), 2); nr > worstNorm {
			worst, worstNorm = i, nr
		}
	}
	if worst < 0 {
		return
	}
	atom := dict.RawRowView(k)
	copy(atom, res.RawRowView(worst))
	Normalise(atom)
}

// Normalise scales v to unit norm in place and reports whether v was not
// zero (a zero v is left unchanged), at any magnitude (ball.Rescale).
func Normalise(v []float64) bool {
	return ball.Rescale(v, v, 1)
}
