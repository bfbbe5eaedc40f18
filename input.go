package greedytl

import (
	"fmt"
	"math"
	"reflect"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// block gives read access by column to one input matrix (X or H), with fast
// paths for row-major raw data (*mat.Dense and anything implementing
// mat.RawMatrixer) and for their transposes.
type block struct {
	name       string // "X" or "H", for error messages
	rows, cols int
	raw        blas64.General // valid when hasRaw
	hasRaw     bool
	trans      bool // raw holds the transpose: column j is row j of raw
	m          mat.Matrix
}

// absent reports whether a stands for "no matrix": nil, a typed nil
// pointer, or an empty (0×0) matrix such as the zero mat.Dense.
func absent(a mat.Matrix) bool {
	if a == nil {
		return true
	}
	if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
		return true
	}
	if e, ok := a.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return true
	}
	r, c := a.Dims()
	return r == 0 && c == 0
}

// newBlock wraps a, which must not be absent.
func newBlock(name string, a mat.Matrix) block {
	b := block{name: name, m: a}
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
func (b *block) column(j int, dst []float64) {
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
func (b *block) gather(js []int, dst []float64) {
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

// at returns element (i, j).
func (b *block) at(i, j int) float64 {
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
func (b *block) nonFinite(j int) error {
	for i := 0; i < b.rows; i++ {
		if v := b.at(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("greedytl: %s[%d][%d] is %v (row %d, column %d, 0-based): inputs must be finite", b.name, i, j, v, i, j)
		}
	}
	return nil
}

// checkFinite returns an error naming the first non-finite element of b,
// scanning row by row.
func (b *block) checkFinite() error {
	if b.hasRaw && !b.trans {
		for i := 0; i < b.rows; i++ {
			row := b.raw.Data[i*b.raw.Stride : i*b.raw.Stride+b.cols]
			if !finiteSlice(row) {
				for j, v := range row {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("greedytl: %s[%d][%d] is %v (row %d, column %d, 0-based): inputs must be finite", b.name, i, j, v, i, j)
					}
				}
			}
		}
		return nil
	}
	for j := 0; j < b.cols; j++ {
		if err := b.nonFinite(j); err != nil {
			return err
		}
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

// colStats are the training statistics of one candidate column.
type colStats struct {
	mean  float64
	scale float64 // divisor: z = (v − mean) / scale; 0 for a constant column
}

// standardizeChunk standardises each of the nc columns of length n stored
// one after another in buf (column k is buf[k*n:(k+1)*n]) with the
// arithmetic of package standardize: it computes the mean and population
// standard deviation of each, writing them to st[:nc], decides whether the
// column is constant (standardize.Constant), and if it is not, and γ > 0,
// overwrites it with (v − mean)·γ/std and sets st[k].scale to the divisor
// std/γ; a constant column gets st[k].scale = 0 and is left unchanged.
// tmp[:nc] is scratch. Each stage runs over all the columns before the
// next, so that the divisions and square roots of different columns
// overlap. It returns the index of the first column that is not finite or
// so large that its variance overflows (the caller reports which), or -1.
func standardizeChunk(buf []float64, n, nc int, gamma float64, st []colStats, tmp []float64) int {
	invN := 1 / float64(n)
	st, tmp = st[:nc], tmp[:nc]
	for k := range st {
		sum := standardize.Sum(buf[k*n : k*n+n])
		if math.IsNaN(sum) || math.IsInf(sum, 0) {
			return k
		}
		st[k].mean = sum * invN
	}
	for k := range st {
		ss := standardize.SumSquares(buf[k*n:k*n+n], st[k].mean)
		if math.IsInf(ss, 0) {
			return k
		}
		tmp[k] = ss
	}
	for k := range st {
		mean := st[k].mean
		std := standardize.Std(buf[k*n:k*n+n], mean, tmp[k])
		if standardize.Constant(mean, std) || gamma == 0 {
			st[k].scale, tmp[k] = 0, 0
			continue
		}
		st[k].scale, tmp[k] = scaleFactor(std, gamma)
	}
	for k := range st {
		f, mean := tmp[k], st[k].mean
		if f == 0 {
			continue
		}
		v := buf[k*n : k*n+n]
		for i, x := range v {
			v[i] = (x - mean) * f
		}
	}
	return -1
}

// scaleFactor returns the divisor std/γ and the factor γ/std of a column
// with standard deviation std (the division by γ = 1, exact, is skipped).
func scaleFactor(std, gamma float64) (scale, f float64) {
	if gamma == 1 {
		return std, 1 / std
	}
	return std / gamma, gamma / std
}

// badColumn explains why standardize failed on column j of b.
func badColumn(b *block, j int) error {
	if err := b.nonFinite(j); err != nil {
		return err
	}
	return fmt.Errorf("greedytl: column %d of %s is too large to standardise (its variance overflows)", j, b.name)
}

// inputs are the validated training inputs.
type inputs struct {
	m, d, n int
	x, h    block // x.cols = d, h.cols = n; a block with cols 0 is absent
	gamma   float64
}

// numCand returns N = d + n, the number of candidate columns.
func (in *inputs) numCand() int { return in.d + in.n }

// newInputs validates shapes and labels (but not the finiteness of X and
// H, which the engines check as they read).
func newInputs(X, H mat.Matrix, y []float64, gamma float64) (*inputs, error) {
	m := len(y)
	if m < 2 {
		return nil, fmt.Errorf("greedytl: need at least 2 training examples, got %d", m)
	}
	in := &inputs{m: m, gamma: gamma}
	for _, p := range []struct {
		name string
		a    mat.Matrix
		dst  *block
		n    *int
	}{{"X", X, &in.x, &in.d}, {"H", H, &in.h, &in.n}} {
		if absent(p.a) {
			*p.dst = block{name: p.name, rows: m}
			continue
		}
		*p.dst = newBlock(p.name, p.a)
		if p.dst.rows != m {
			return nil, fmt.Errorf("greedytl: %s has %d rows but y has %d labels", p.name, p.dst.rows, m)
		}
		*p.n = p.dst.cols
	}
	if in.d+in.n == 0 {
		return nil, fmt.Errorf("greedytl: no candidate columns: X and H are both absent")
	}
	var pos int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
		default:
			return nil, fmt.Errorf("greedytl: y[%d] = %v: labels must be +1 or -1", i, v)
		}
	}
	if pos == 0 || pos == m {
		return nil, fmt.Errorf("greedytl: y holds one class only (%d examples, all %+d): need both +1 and -1", m, int(y[0]))
	}
	return in, nil
}
