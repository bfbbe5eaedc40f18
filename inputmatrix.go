package greedytl

import (
	"fmt"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// inputMatrix gives read access by column to one input matrix (X or H),
// with fast paths for row-major raw data (*mat.Dense and anything
// implementing mat.RawMatrixer) and for their transposes.
type inputMatrix struct {
	name       string // "X" or "H", for error messages
	caller     string // the entry point given the matrix, their prefix ("greedytl.Fit")
	rows, cols int
	raw        blas64.General // valid when hasRaw
	hasRaw     bool
	trans      bool // raw holds the transpose: column j is row j of raw
	m          mat.Matrix
}

// newInputMatrix wraps a, which must not be absent.
func newInputMatrix(name string, a mat.Matrix) inputMatrix {
	b := inputMatrix{name: name, m: a}
	b.rows, b.cols = a.Dims()
	if rm, ok := a.(mat.RawMatrixer); ok {
		b.raw, b.hasRaw = rm.RawMatrix(), true
	} else if t, ok := a.(mat.Transpose); ok {
		if rm, ok := t.Matrix.(mat.RawMatrixer); ok {
			b.raw, b.hasRaw, b.trans = rm.RawMatrix(), true, true
		}
	}
	return b
}

// column copies column j into dst[:b.rows].
func (b *inputMatrix) column(j int, dst []float64) {
	dst = dst[:b.rows]
	switch {
	case b.hasRaw && b.trans:
		copy(dst, b.raw.Data[j*b.raw.Stride:])
	case b.hasRaw:
		s := b.raw.Stride
		for i, k := 0, j; i < len(dst); i, k = i+1, k+s {
			dst[i] = b.raw.Data[k]
		}
	default:
		for i := range dst {
			dst[i] = b.m.At(i, j)
		}
	}
}

// gather copies the columns js into dst, column after column
// (dst[k*rows+i] = element (i, js[k])). For row-major data it reads row by
// row, so that the loads of different columns overlap.
func (b *inputMatrix) gather(js []int, dst []float64) {
	m := b.rows
	dst = dst[:len(js)*m]
	if b.hasRaw && !b.trans {
		for i := 0; i < m; i++ {
			row := b.raw.Data[i*b.raw.Stride : i*b.raw.Stride+b.cols]
			for k, j := range js {
				dst[k*m+i] = row[j]
			}
		}
		return
	}
	for k, j := range js {
		b.column(j, dst[k*m:k*m+m])
	}
}

// row copies row i into dst[:b.cols].
func (b *inputMatrix) row(i int, dst []float64) {
	dst = dst[:b.cols]
	if b.hasRaw && !b.trans {
		copy(dst, b.raw.Data[i*b.raw.Stride:i*b.raw.Stride+b.cols])
		return
	}
	for j := range dst {
		dst[j] = b.at(i, j)
	}
}

// at returns element (i, j).
func (b *inputMatrix) at(i, j int) float64 {
	switch {
	case b.hasRaw && b.trans:
		return b.raw.Data[j*b.raw.Stride+i]
	case b.hasRaw:
		return b.raw.Data[i*b.raw.Stride+j]
	}
	return b.m.At(i, j)
}

// nonFinite returns an error naming the first non-finite element of column
// j, or nil if the column is finite.
func (b *inputMatrix) nonFinite(j int) error {
	for i := 0; i < b.rows; i++ {
		if v := b.at(i, j); !inputcheck.Finite(v) {
			return fmt.Errorf("%s: %w", b.caller, &inputcheck.NonFiniteError{Name: b.name, Row: i, Col: j, Value: v})
		}
	}
	return nil
}

// checkFinite returns an error naming the first non-finite element of b,
// scanning row by row (inputcheck.CheckFinite).
func (b *inputMatrix) checkFinite() error {
	if err := inputcheck.CheckFinite(b.name, b.m); err != nil {
		return fmt.Errorf("%s: %w", b.caller, err)
	}
	return nil
}

// finiteSlice reports whether every element of s is finite: v − v is 0 for
// finite v and NaN for ±Inf and NaN, and NaN survives any sum.
func finiteSlice(s []float64) bool {
	var a0, a1, a2, a3 float64
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a0 += s[i] - s[i]
		a1 += s[i+1] - s[i+1]
		a2 += s[i+2] - s[i+2]
		a3 += s[i+3] - s[i+3]
	}
	for ; i < len(s); i++ {
		a0 += s[i] - s[i]
	}
	return a0+a1+a2+a3 == 0
}
