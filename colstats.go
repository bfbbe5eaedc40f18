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
// standard deviation of each (standardize.Moments: Mean, SumSquares and Std, which
// neither overflow nor underflow with the magnitude of the values),
// writing them to st[:nc], decides whether the column is constant
// (standardize.Constant), and if it is not, and γ > 0, overwrites it with
// (v − mean)·γ/std and sets st[k].scale to the divisor std/γ; a constant
// column gets st[k].scale = 0 and is left unchanged. f[k] receives the
// factor γ/std (scaleFactor), 0 for a constant column. It finishes each
// column before the next, while it is in the first-level cache.
// It returns the index of the first column that is not finite or whose
// deviations from its mean overflow (the caller reports which), or -1.
func standardizeChunk(buf []float64, n, nc int, gamma float64, st []colStats, f []float64) int {
	st, f = st[:nc], f[:nc]
	for k := range st {
		v := buf[k*n : k*n+n]
		mean, std, ok := standardize.Moments(v)
		if !ok {
			return k
		}
		st[k].mean = mean
		if standardize.Constant(mean, std) || gamma == 0 {
			st[k].scale, f[k] = 0, 0
			continue
		}
		st[k].scale, f[k] = scaleFactor(std, gamma)
		if f[k] != 0 {
			standardizeColumn(v, v, 1, mean, st[k].scale, f[k])
		}
	}
	return -1
}

// scaleFactor returns the divisor std/γ and the factor γ/std of a
// non-constant column with standard deviation std (the division by γ = 1,
// exact, is skipped). The factor is +Inf when std is so small (subnormal)
// that γ/std overflows: standardizeColumn then divides by the divisor. When
// even the divisor underflows (γ > 1) both are 0: the column is taken as
// constant.
func scaleFactor(std, gamma float64) (scale, f float64) {
	if gamma == 1 {
		return std, 1 / std
	}
	if scale = std / gamma; scale == 0 {
		return 0, 0
	}
	return scale, gamma / std
}

// standardizeColumn writes (v[i] − mean)·f to dst[i·stride], or, when the
// factor f overflowed (+Inf, a subnormal standard deviation),
// (v[i] − mean)/scale, which does not.
func standardizeColumn(dst, v []float64, stride int, mean, scale, f float64) {
	if math.IsInf(f, 1) {
		for i, x := range v {
			dst[i*stride] = (x - mean) / scale
		}
		return
	}
	for i, x := range v {
		dst[i*stride] = (x - mean) * f
	}
}

// badColumn explains why standardize failed on column j of b.
func badColumn(b *inputMatrix, j int) error {
	if err := b.nonFinite(j); err != nil {
		return err
	}
	return fmt.Errorf("greedytl.Fit: column %d of %s cannot be standardised: its values are so far apart that their deviations from the mean overflow float64", j, b.name)
}
