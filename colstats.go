package greedytl

import (
	"fmt"
	"math"

	"github.com/greedytl/greedytl/standardize"
)

// The training statistics of candidate columns and their standardisation,
// with package standardize's arithmetic and constant-column rule
// (docs/design.md §1). The exact engine's row-blocked variant is
// exactEngine.columnStats.

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
