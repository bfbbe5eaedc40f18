// Package sparse holds the compressed sparse row (CSR) matrix that the linear
// learners and the svmlight reader share. Dense data is converted with FromDense.
package sparse

import (
	"errors"
	"fmt"

	"github.com/greedytl/greedytl/internal/typednil"
	"gonum.org/v1/gonum/mat"
)

// CSR is an r × c matrix in compressed sparse row form. Row i holds the
// column indices Ind[Ptr[i]:Ptr[i+1]] (0-based, strictly increasing) and the
// values Val[Ptr[i]:Ptr[i+1]]. len(Ptr) == r+1.
type CSR struct {
	R, C int
	Ptr  []int
	Ind  []int
	Val  []float64
}

// Dims returns the number of rows and columns.
func (a *CSR) Dims() (r, c int) { return a.R, a.C }

// T returns the transpose of a as a view (mat.Transpose), without copying:
// with Dims and At it makes a CSR a mat.Matrix, so that a sparse matrix,
// such as text.Vectorizer.Transform's, goes where a mat.Matrix does (as X
// of greedytl.Fit). Transpose copies into a CSR instead.
func (a *CSR) T() mat.Matrix { return mat.Transpose{Matrix: a} }

// Row returns the column indices and values of row i. The slices alias a.
func (a *CSR) Row(i int) (ind []int, val []float64) {
	lo, hi := a.Ptr[i], a.Ptr[i+1]
	return a.Ind[lo:hi], a.Val[lo:hi]
}

// NNZ returns the number of stored entries.
func (a *CSR) NNZ() int { return len(a.Val) }

// RowDot returns the dot product of row i with the dense vector w (len(w) >= a.C).
func (a *CSR) RowDot(i int, w []float64) float64 {
	ind, val := a.Row(i)
	var s float64
	for k, j := range ind {
		s += val[k] * w[j]
	}
	return s
}

// RowAxpy adds alpha times row i to the dense vector w (len(w) >= a.C).
func (a *CSR) RowAxpy(i int, alpha float64, w []float64) {
	ind, val := a.Row(i)
	for k, j := range ind {
		w[j] += alpha * val[k]
	}
}

// RowNorm2 returns the squared Euclidean norm of row i.
func (a *CSR) RowNorm2(i int) float64 {
	_, val := a.Row(i)
	var s float64
	for _, v := range val {
		s += v * v
	}
	return s
}

// At returns element (i, j); it is O(nnz in row i) and meant for tests.
func (a *CSR) At(i, j int) float64 {
	ind, val := a.Row(i)
	for k, c := range ind {
		if c == j {
			return val[k]
		}
	}
	return 0
}

// Check verifies the structural invariants (the ones CSR's doc states, and
// 0 ≤ Ptr[i] ≤ Ptr[i+1] ≤ len(Ind)) and returns a descriptive error when one
// is broken, and for a nil a; it does not panic on a malformed a.
func (a *CSR) Check() error {
	if a == nil {
		return errors.New("sparse: nil CSR")
	}
	if a.R < 0 || a.C < 0 || len(a.Ptr) != a.R+1 || a.Ptr[0] != 0 || a.Ptr[a.R] != len(a.Ind) || len(a.Ind) != len(a.Val) {
		return fmt.Errorf("sparse: malformed CSR header (R=%d C=%d len(Ptr)=%d len(Ind)=%d len(Val)=%d)", a.R, a.C, len(a.Ptr), len(a.Ind), len(a.Val))
	}
	for i := 0; i < a.R; i++ {
		if a.Ptr[i] > a.Ptr[i+1] {
			return fmt.Errorf("sparse: row %d has negative length", i)
		}
		if a.Ptr[i+1] > len(a.Ind) {
			return fmt.Errorf("sparse: row %d ends at %d, past the %d stored values", i, a.Ptr[i+1], len(a.Ind))
		}
		prev := -1
		for _, j := range a.Ind[a.Ptr[i]:a.Ptr[i+1]] {
			if j <= prev || j >= a.C {
				return fmt.Errorf("sparse: row %d has column index %d out of order or range", i, j)
			}
			prev = j
		}
	}
	return nil
}

// FromDense returns the CSR form of m, storing only its non-zero entries;
// that of no matrix (nil, or a nil *mat.Dense or other typed nil, whose
// Dims would dereference it) is the 0 × 0 CSR.
func FromDense(m mat.Matrix) *CSR {
	if typednil.Matrix(m) {
		return &CSR{Ptr: []int{0}}
	}
	r, c := m.Dims()
	a := &CSR{R: r, C: c, Ptr: make([]int, r+1)}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := m.At(i, j); v != 0 {
				a.Ind = append(a.Ind, j)
				a.Val = append(a.Val, v)
			}
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

// Dense returns a as a dense matrix: the zero mat.Dense (gonum's empty
// matrix) when a has no rows or no columns.
func (a *CSR) Dense() *mat.Dense {
	if a.R == 0 || a.C == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(a.R, a.C, nil)
	for i := 0; i < a.R; i++ {
		ind, val := a.Row(i)
		for k, j := range ind {
			d.Set(i, j, val[k])
		}
	}
	return d
}

// SelectRows returns a new CSR holding the given rows of a, in that order.
func (a *CSR) SelectRows(rows []int) *CSR {
	b := &CSR{R: len(rows), C: a.C, Ptr: make([]int, len(rows)+1)}
	for k, i := range rows {
		ind, val := a.Row(i)
		b.Ind = append(b.Ind, ind...)
		b.Val = append(b.Val, val...)
		b.Ptr[k+1] = len(b.Ind)
	}
	return b
}

// Transpose returns the c × r transpose of a (equivalently a in CSC form),
// which column-wise solvers use.
func (a *CSR) Transpose() *CSR { return a.TransposeUnless(nil) }

// stopBlock is the number of values a Stopper lets a loop do between two
// calls of its stop function.
const stopBlock = 1 << 16

// Stopper lets a long loop over a matrix's values give up without a call
// per value: it calls its stop function once per block of 65,536 values
// done (TransposeUnless, and package linear's copy of its dense rows). A
// Stopper of a nil function never stops.
type Stopper struct {
	stop func() bool
	last int // done at the last call of stop
}

// NewStopper returns the Stopper of stop.
func NewStopper(stop func() bool) Stopper { return Stopper{stop: stop} }

// Stop reports whether the loop should give up, having done done values in
// all: it calls stop and returns its answer when done is at least 65,536
// past where it last called stop (past 0 at first), and returns false
// otherwise.
func (s *Stopper) Stop(done int) bool {
	if s.stop == nil || done-s.last < stopBlock {
		return false
	}
	s.last = done
	return s.stop()
}

// TransposeUnless is Transpose for a caller that may give up: it calls stop
// (when not nil) first and then before every block of about 65,536 stored
// values (Stopper), and returns nil as soon as stop returns true.
func (a *CSR) TransposeUnless(stop func() bool) *CSR {
	if stop != nil && stop() {
		return nil
	}
	t := &CSR{R: a.C, C: a.R, Ptr: make([]int, a.C+1), Ind: make([]int, len(a.Ind)), Val: make([]float64, len(a.Val))}
	for _, j := range a.Ind {
		t.Ptr[j+1]++
	}
	for j := 0; j < a.C; j++ {
		t.Ptr[j+1] += t.Ptr[j]
	}
	next := append([]int(nil), t.Ptr[:a.C]...)
	stopper, done := NewStopper(stop), 0
	for i := 0; i < a.R; i++ {
		ind, val := a.Row(i)
		if done += len(ind); stopper.Stop(done) {
			return nil
		}
		for k, j := range ind {
			p := next[j]
			t.Ind[p] = i
			t.Val[p] = val[k]
			next[j]++
		}
	}
	return t
}
