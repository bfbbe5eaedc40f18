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

// standardizeColumn writes (v[i·stride] − mean)·f to dst[i] for i <
// len(dst), or, when the factor f overflowed (+Inf, a subnormal standard
// deviation), (v[i·stride] − mean)/scale, which does not.
func standardizeColumn(dst, v []float64, stride int, mean, scale, f float64) {
	if len(dst) == 0 {
		return
	}
	v = v[:(len(dst)-1)*stride+1]
	if math.IsInf(f, 1) {
		for i := range dst {
			dst[i] = standardize.Standardise(v[i*stride], mean, scale)
		}
		return
	}
	for i := range dst {
		dst[i] = (v[i*stride] - mean) * f
	}
}

// badColumn explains why standardize failed on column j of b.
func badColumn(b *inputMatrix, j int) error {
	if err := b.nonFinite(j); err != nil {
		return err
	}
	return fmt.Errorf("%s: column %d of %s cannot be standardised: its values are so far apart that their deviations from the mean overflow float64", b.caller, j, b.name)
}

// rowStatsScratch is rowStats' scratch, reused across calls.
type rowStatsScratch struct {
	pad      []float64 // the last columns of a block, padded to four
	col      []float64 // one column, for standardize's fallbacks
	acc      []float64 // momentsRows' accumulators
	mean, ss []float64 // the columns' means and sums of squared deviations
}

// trim drops the scratch buffers that hold more than maxPooled floats,
// before their owner goes back to a pool.
func (sc *rowStatsScratch) trim() {
	sc.pad, sc.col = trimPooled(sc.pad), trimPooled(sc.col)
	sc.acc, sc.mean, sc.ss = trimPooled(sc.acc), trimPooled(sc.mean), trimPooled(sc.ss)
}

// floats returns how many floats (of 8 bytes) sc's buffers hold, by
// capacity, for the counts of its owners (sampleBuffers.floats,
// exactBuffers.floats).
func (sc *rowStatsScratch) floats() int {
	return cap(sc.pad) + cap(sc.col) + cap(sc.acc) + cap(sc.mean) + cap(sc.ss)
}

// trimPooled returns b, or nil when it holds more than maxPooled floats: a
// buffer that large is left to the garbage collector rather than kept in
// a pool.
func trimPooled(b []float64) []float64 {
	if cap(b) > maxPooled {
		return nil
	}
	return b
}

// rowStats computes the statistics of nc columns of m values stored row by
// row, row i being rows[i*stride : i*stride+nc], exactly as
// standardizeChunk computes them: it writes st[:nc] and f[:nc] as
// standardizeChunk does (without standardising) and returns the index of
// the first column standardizeChunk would reject, or -1. It takes the
// columns in bands of statBlock (momentsRows: the rows in order, a row's
// run of the band at once, so that the block streams through the caches
// rather than being walked four columns at a time down all its rows, with
// standardize.Sum's and SumSquares' arithmetic for each column), the last
// group of fewer than four columns through a padded copy when the rows
// end there (moments4); a column whose sum overflows (standardize.Mean) or
// whose sum of squares needs rescaling (standardize.Rescaled), or that is
// not finite, is read again and handed to standardize.Moments, as
// standardizeChunk hands every column.
func rowStats(rows []float64, stride, m, nc int, gamma float64, sc *rowStatsScratch, st []colStats, f []float64) int {
	st, f = st[:nc], f[:nc]
	if nc == 0 {
		return -1
	}
	_ = rows[(m-1)*stride+nc-1]
	invN := 1 / float64(m)
	w4 := (nc + 3) &^ 3 // four columns a group, padding past nc when the rows go on
	if (m-1)*stride+w4 > len(rows) {
		w4 = nc &^ 3
	}
	sc.mean, sc.ss = grow(sc.mean, w4+4), grow(sc.ss, w4+4)
	mean, ss := sc.mean, sc.ss
	band := statBlock
	sc.acc = grow(sc.acc, 4*min(band, w4))
	for b0 := 0; b0 < w4; b0 += band {
		momentsRows(&rows[b0], stride, m, min(band, w4-b0), invN, sc.acc, mean[b0:], ss[b0:])
	}
	if w4 < nc { // the last columns, padded to four
		sc.pad = grow(sc.pad, 4*m)
		clear(sc.pad)
		for i := 0; i < m; i++ {
			copy(sc.pad[4*i:4*i+4], rows[i*stride+w4:i*stride+nc])
		}
		var out [8]float64
		moments4(&sc.pad[0], 4, m, invN, &out)
		copy(mean[w4:w4+4], out[:4])
		copy(ss[w4:w4+4], out[4:])
	}
	for k := range st {
		mean, ss := mean[k], ss[k]
		var std float64
		if math.IsInf(mean, 0) || math.IsNaN(mean) || standardize.Rescaled(ss) {
			sc.col = grow(sc.col, m)
			for i := range sc.col {
				sc.col[i] = rows[i*stride+k]
			}
			var ok bool
			if mean, std, ok = standardize.Moments(sc.col); !ok {
				return k
			}
		} else {
			std = math.Sqrt(ss * invN) // as standardize.Std
		}
		st[k] = colStats{mean: mean}
		f[k] = 0
		if standardize.Constant(mean, std) || gamma == 0 {
			continue // scale 0: constant
		}
		st[k].scale, f[k] = scaleFactor(std, gamma)
	}
	return -1
}

// gatherStandardize copies the columns js of b into dst, column after
// column, and standardises them: it leaves in dst, st[:len(js)] and
// f[:len(js)] bitwise what b.gather followed by standardizeChunk leaves,
// and returns what standardizeChunk returns. For row-major data it reads
// the columns row by row into a row-major block (*block; rows padded to a
// multiple of four columns) and standardises them from there, four at a
// time (standardizeRows).
func gatherStandardize(b *inputMatrix, js []int, gamma float64, dst []float64, st []colStats, f []float64, sc *rowStatsScratch, block *[]float64) int {
	m, nc := b.rows, len(js)
	if !b.hasRaw || b.trans {
		b.gather(js, dst)
		return standardizeChunk(dst, m, nc, gamma, st, f)
	}
	dst = dst[:nc*m]
	w := (nc + 3) &^ 3
	*block = grow(*block, m*w)
	rows := *block
	gatherColumns(b.raw.Data, b.raw.Stride, m, b.cols, js, rows, w)
	for i := 0; i < m; i++ {
		clear(rows[i*w+nc : i*w+w])
	}
	return standardizeRows(rows, w, m, nc, gamma, dst, st, f, sc)
}

// gatherColumnsGo is gatherColumns in Go, its definition: row i < m of block
// (block[i*w:], w ≥ len(js)) receives the columns js of row i of the
// row-major data (data[i*stride:], cols columns).
func gatherColumnsGo(data []float64, stride, m, cols int, js []int, block []float64, w int) {
	for i := 0; i < m; i++ {
		src := data[i*stride : i*stride+cols]
		r := block[i*w : i*w+len(js)]
		for k, j := range js {
			r[k] = src[j]
		}
	}
}

// standardizeRows computes the statistics of the nc columns of m values
// stored row by row, row i being rows[i*stride : i*stride+nc], and writes
// them standardised to dst, column after column: it leaves in dst, st[:nc]
// and f[:nc] bitwise what standardizeChunk leaves for the same columns
// (a constant column as read), and returns what it returns (dst is then
// unspecified). It takes the columns eight at a time, as two groups of
// four (standardizePair), and a group where one column leaves the plain
// route, or the last group of fewer than four, through rowStats and
// standardizeColumn.
func standardizeRows(rows []float64, stride, m, nc int, gamma float64, dst []float64, st []colStats, f []float64, sc *rowStatsScratch) int {
	invN, out := 1/float64(m), [24]float64{}
	st, f, dst = st[:nc], f[:nc], dst[:nc*m]
	if nc > 0 {
		_ = rows[(m-1)*stride+nc-1] // the kernel reads no further
	}
	for k0 := 0; k0 < nc; k0 += 8 {
		n := min(8, nc-k0)
		plain := 0
		if n >= 4 && gamma > 0 {
			k1 := k0 + 4
			if n < 8 {
				k1 = k0 // one group of four: both halves of the pair on it
			}
			plain = standardizePair(&rows[k0], &rows[k1], stride, m, invN, gamma, &dst[k0*m], &dst[k1*m], &out)
		}
		for g := 0; 4*g < n; g++ {
			c0, cn := k0+4*g, min(4, n-4*g)
			if cn == 4 && plain>>g&1 == 1 {
				for q := 0; q < 4; q++ {
					st[c0+q] = colStats{mean: out[12*g+q], scale: out[12*g+4+q]}
					f[c0+q] = out[12*g+8+q]
				}
				continue
			}
			if k := rowStats(rows[c0:], stride, m, cn, gamma, sc, st[c0:], f[c0:]); k >= 0 {
				return c0 + k
			}
			for k := c0; k < c0+cn; k++ {
				col := dst[k*m : k*m+m]
				if f[k] == 0 { // constant: left as read, as standardizeChunk leaves it
					for i := range col {
						col[i] = rows[i*stride+k]
					}
					continue
				}
				standardizeColumn(col, rows[k:], stride, st[k].mean, st[k].scale, f[k])
			}
		}
	}
	return -1
}
