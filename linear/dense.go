package linear

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/sparse"
)

// Dense holds the rows of a Problem as they are stored in memory — float32
// or float64 values, read in float64 arithmetic — so that data is trained
// on without a sparse float64 copy. Row i of the problem is storage row
// Index[i] (all storage rows in order when Index is nil), so problems over
// subsets of one block of rows — a class against negatives shared by every
// class, the folds of a cross-validation — share the block. Build it with
// NewDense32 or NewDense64; it is read-only and safe for concurrent use.
//
// A block without zeros is kept dense. A block with zeros is kept in a
// compact sparse form instead — its non-zero values in their precision with
// 32-bit column indices — which takes no more memory than the dense form
// once a third of the values are zeros, and lets the solvers skip the zeros
// without unpredictable branches. Either way a Dense problem trains to the
// same bits as the CSR problem of the same rows (sparse.FromDense): the
// solvers see the non-zero values in the same order.
type Dense struct {
	f32   []float32
	f64   []float64
	cols  int
	index []int
	// sp holds the storage rows instead of f32 and f64 when the block has
	// zeros.
	sp *compact
	// rowL1 is the largest ℓ1 norm of a storage row (checkProblem's bound).
	rowL1 float64
}

// compact is a CSR form of a block's storage rows: row r's values are
// v32 or v64[ptr[r]:ptr[r+1]], in the columns ind[ptr[r]:ptr[r+1]].
type compact struct {
	ptr []int
	ind []int32
	v32 []float32
	v64 []float64
}

// NewDense32 returns the problem rows index (nil: every row) of data, a
// row-major matrix of len(data)/cols rows. It returns an error for cols < 1,
// a length that is not a multiple of cols, an index out of range, a value
// that is not finite, and more than 2³¹ columns. data must not change
// afterwards: the Dense may keep it, and what NewDense32 checked and
// recorded of it (its values finite, its rows' ℓ1 norms, by which Train
// knows when no decision value can overflow) stands for the problem's life.
func NewDense32(data []float32, cols int, index []int) (*Dense, error) {
	d := &Dense{f32: data, cols: cols, index: index}
	return d, d.prepare(len(data))
}

// NewDense64 is NewDense32 for float64 values.
func NewDense64(data []float64, cols int, index []int) (*Dense, error) {
	d := &Dense{f64: data, cols: cols, index: index}
	return d, d.prepare(len(data))
}

// prepare validates the storage and makes it compact when it has zeros.
func (d *Dense) prepare(n int) error {
	if d.cols < 1 || n%d.cols != 0 {
		return fmt.Errorf("linear: dense storage of %d values is not a whole number of rows of %d columns", n, d.cols)
	}
	if d.cols > math.MaxInt32 {
		return fmt.Errorf("linear: %d columns, at most 2³¹ − 1 supported", d.cols)
	}
	rows := n / d.cols
	for _, i := range d.index {
		if i < 0 || i >= rows {
			return fmt.Errorf("linear: dense row index %d out of range [0, %d)", i, rows)
		}
	}
	var nnz int
	var err error
	if d.f32 != nil {
		nnz, d.rowL1, err = checkValues(d.f32, d.cols)
	} else {
		nnz, d.rowL1, err = checkValues(d.f64, d.cols)
	}
	if err != nil || nnz == n {
		return err
	}
	sp := &compact{ptr: make([]int, 1, rows+1), ind: make([]int32, 0, nnz)}
	if d.f32 != nil {
		sp.v32 = compactRows(sp, d.f32, d.cols, nnz)
	} else {
		sp.v64 = compactRows(sp, d.f64, d.cols, nnz)
	}
	d.sp, d.f32, d.f64 = sp, nil, nil
	return nil
}

// checkValues returns the number of non-zero values of x and the largest
// ℓ1 norm of its rows of cols values, or an error for the first value that
// is not finite.
func checkValues[T float32 | float64](x []T, cols int) (nnz int, rowL1 float64, err error) {
	for lo := 0; lo < len(x); lo += cols {
		var l1 float64
		for j, v := range x[lo : lo+cols] {
			if v-v != 0 {
				return 0, 0, fmt.Errorf("linear: storage %w", &inputcheck.NonFiniteError{Row: lo / cols, Col: j, Value: float64(v)})
			}
			if v != 0 {
				nnz++
				l1 += math.Abs(float64(v))
			}
		}
		rowL1 = max(rowL1, l1)
	}
	return nnz, rowL1, nil
}

// compactRows appends the rows of x to sp's pointers and indices and
// returns their non-zero values.
func compactRows[T float32 | float64](sp *compact, x []T, cols, nnz int) []T {
	val := make([]T, 0, nnz)
	for lo := 0; lo < len(x); lo += cols {
		for j, v := range x[lo : lo+cols] {
			if v != 0 {
				sp.ind = append(sp.ind, int32(j))
				val = append(val, v)
			}
		}
		sp.ptr = append(sp.ptr, len(sp.ind))
	}
	return val
}

// Rows returns the number of rows of the problem: none for a nil or zero
// Dense (one not made by NewDense32 or NewDense64), which Train refuses.
func (d *Dense) Rows() int {
	switch {
	case d == nil:
		return 0
	case d.index != nil:
		return len(d.index)
	case d.sp != nil:
		return len(d.sp.ptr) - 1
	case d.cols <= 0:
		return 0
	case d.f32 != nil:
		return len(d.f32) / d.cols
	}
	return len(d.f64) / d.cols
}

// Cols returns the number of columns (none for a nil Dense).
func (d *Dense) Cols() int {
	if d == nil {
		return 0
	}
	return d.cols
}

// Select returns the problem of the rows rows of d (indices into d's
// rows), sharing d's storage.
func (d *Dense) Select(rows []int) *Dense {
	s := *d
	s.index = make([]int, len(rows))
	for k, i := range rows {
		s.index[k] = d.storage(i)
	}
	return &s
}

// storage returns the storage row of problem row i.
func (d *Dense) storage(i int) int {
	if d.index != nil {
		return d.index[i]
	}
	return i
}

// CSR returns the rows as a sparse matrix (zeros not stored), for the
// solvers that work on columns.
func (d *Dense) CSR() *sparse.CSR { return d.csrUnless(nil) }

// csrUnless is CSR for a caller that may give up: it calls stop (when not
// nil) after every block of about 65,536 values copied (sparse.Stopper) and
// returns nil as soon as stop returns true.
func (d *Dense) csrUnless(stop func() bool) *sparse.CSR {
	n := d.Rows()
	a := &sparse.CSR{R: n, C: d.cols, Ptr: make([]int, n+1)}
	stopper := sparse.NewStopper(stop)
	for i := range n {
		if stopper.Stop(len(a.Ind)) {
			return nil
		}
		r := d.storage(i)
		switch {
		case d.sp != nil:
			lo, hi := d.sp.ptr[r], d.sp.ptr[r+1]
			for _, j := range d.sp.ind[lo:hi] {
				a.Ind = append(a.Ind, int(j))
			}
			if d.sp.v32 != nil {
				for _, v := range d.sp.v32[lo:hi] {
					a.Val = append(a.Val, float64(v))
				}
			} else {
				a.Val = append(a.Val, d.sp.v64[lo:hi]...)
			}
		case d.f32 != nil:
			for j, v := range d.f32[r*d.cols : (r+1)*d.cols] {
				a.Ind = append(a.Ind, j)
				a.Val = append(a.Val, float64(v))
			}
		default:
			for j, v := range d.f64[r*d.cols : (r+1)*d.cols] {
				a.Ind = append(a.Ind, j)
				a.Val = append(a.Val, v)
			}
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

// dot returns x_iᵀw over the feature columns, summing the non-zero terms
// in the order and the four partial sums of the sparse loop (sparseDot).
func (d *Dense) dot(i int, w []float64) float64 {
	r := d.storage(i)
	switch {
	case d.sp == nil && d.f32 != nil:
		return denseDot(d.f32[r*d.cols:(r+1)*d.cols], w[:d.cols])
	case d.sp == nil:
		return denseDot(d.f64[r*d.cols:(r+1)*d.cols], w[:d.cols])
	}
	lo, hi := d.sp.ptr[r], d.sp.ptr[r+1]
	if d.sp.v32 != nil {
		return sparseDot(d.sp.ind[lo:hi], d.sp.v32[lo:hi], w)
	}
	return sparseDot(d.sp.ind[lo:hi], d.sp.v64[lo:hi], w)
}

// denseDot is sparseDot of a row without zeros.
func denseDot[T float32 | float64](x []T, w []float64) float64 {
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(x); j += 4 {
		s0 += float64(x[j]) * w[j]
		s1 += float64(x[j+1]) * w[j+1]
		s2 += float64(x[j+2]) * w[j+2]
		s3 += float64(x[j+3]) * w[j+3]
	}
	for ; j < len(x); j++ {
		s0 += float64(x[j]) * w[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds a·x_i to w's feature columns.
func (d *Dense) axpy(i int, a float64, w []float64) { d.addRow(i, a, w, false) }

// addSquares adds h·x_ij² to m_j for the feature columns.
func (d *Dense) addSquares(i int, h float64, m []float64) { d.addRow(i, h, m, true) }

// addRow adds a·x_ij (a·x_ij² when square) to w_j for the feature columns
// of row i, whichever way the row is stored.
func (d *Dense) addRow(i int, a float64, w []float64, square bool) {
	r := d.storage(i)
	switch {
	case d.sp == nil && d.f32 != nil:
		denseAdd(d.f32[r*d.cols:(r+1)*d.cols], a, w[:d.cols], square)
	case d.sp == nil:
		denseAdd(d.f64[r*d.cols:(r+1)*d.cols], a, w[:d.cols], square)
	case d.sp.v32 != nil:
		lo, hi := d.sp.ptr[r], d.sp.ptr[r+1]
		sparseAdd(d.sp.ind[lo:hi], d.sp.v32[lo:hi], a, w, square)
	default:
		lo, hi := d.sp.ptr[r], d.sp.ptr[r+1]
		sparseAdd(d.sp.ind[lo:hi], d.sp.v64[lo:hi], a, w, square)
	}
}

// denseAdd adds a·x_j (a·x_j² when square) to w_j for every j.
func denseAdd[T float32 | float64](x []T, a float64, w []float64, square bool) {
	if square {
		for j, v := range x {
			w[j] += a * float64(v) * float64(v)
		}
		return
	}
	for j, v := range x {
		w[j] += a * float64(v)
	}
}

// sparseAdd is denseAdd of a row stored as (ind, val).
func sparseAdd[I int | int32, V float32 | float64](ind []I, val []V, a float64, w []float64, square bool) {
	if square {
		sparseAddSquares(ind, val, a, w)
		return
	}
	sparseAxpy(ind, val, a, w)
}

// norm2 returns s + Σ_j x_ij² over the feature columns.
func (d *Dense) norm2(i int, s float64) float64 {
	r := d.storage(i)
	switch {
	case d.sp == nil && d.f32 != nil:
		return sparseNorm2(d.f32[r*d.cols:(r+1)*d.cols], s)
	case d.sp == nil:
		return sparseNorm2(d.f64[r*d.cols:(r+1)*d.cols], s)
	case d.sp.v32 != nil:
		return sparseNorm2(d.sp.v32[d.sp.ptr[r]:d.sp.ptr[r+1]], s)
	}
	return sparseNorm2(d.sp.v64[d.sp.ptr[r]:d.sp.ptr[r+1]], s)
}

// errNoRows is the error of a problem with neither X nor Dense.
var errNoRows = errors.New("linear: nil problem or feature matrix")

// dims returns the number of rows and feature columns of prob.
func (prob *Problem) dims() (rows, cols int) {
	if prob.X != nil {
		return prob.X.R, prob.X.C
	}
	return prob.Dense.Rows(), prob.Dense.cols
}

// withRows returns the problem of prob's rows rows, with labels y: a
// solvers' own copy (Problem.kept).
func (prob *Problem) withRows(rows []int, y []float64) *Problem {
	sub := &Problem{Y: y, Bias: prob.Bias, rowL1: prob.rowL1, kept: &solverKept{}}
	if prob.X != nil {
		sub.X = prob.X.SelectRows(rows)
	} else {
		sub.Dense = prob.Dense.Select(rows)
	}
	return sub
}

// forSolver returns prob, with ctx set, in a form solver s reads: a Dense
// problem as CSR for the solvers that work on columns, prob itself
// otherwise. The conversion checks ctx every block of values (csrUnless)
// and returns nil once ctx is done.
func (prob *Problem) forSolver(ctx context.Context, s Solver) *Problem {
	if prob.X == nil && prob.Dense != nil {
		switch s {
		case L1RL2LossSVC, L1RLR, ElasticNetLR:
			x := prob.Dense.csrUnless(func() bool { return ctx.Err() != nil })
			if x == nil {
				return nil
			}
			prob = &Problem{X: x, Y: prob.Y, Bias: prob.Bias, rowL1: prob.rowL1}
		}
	}
	prob.ctx = ctx
	return prob
}
