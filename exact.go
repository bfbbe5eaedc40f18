package greedytl

import (
	"context"
	"math"

	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// exactEngine scores every candidate at every step in O(N·m) time, using
// running values of c_i = 1 + z_iᵀ Ĝ z_i and t_i = z_iᵀ a: the gain of
// column i is λ t_i²/c_i. After a step with g = Ĝ z*, c = 1 + z*ᵀg and
// p = Zᵀg/√c (one matrix–vector product over all candidates),
//
//	c_i ← c_i − p_i²,   t_i ← t_i − p_i (aᵀz*)/√c,
//
// because Ĝ ← Ĝ − g gᵀ/c and a ← a − g (aᵀz*)/c. Selected columns get
// c_i = +Inf, which excludes them from the argmax without a test.
//
// The standardised candidates are stored as an m×N' row-major block (N' the
// number of non-constant columns), the layout of the input: Zᵀg is then a
// transposed matrix–vector product, which gonum computes faster than the
// product with an N'×m block (by 20% at N = 5000 and 45% at N = 10⁶ in
// our measurements), and standardising needs no transpose.
type exactEngine struct {
	*exactBuffers
	m, n int // n = N', the number of slots
	in   *inputs

	// f32 says the block is stored in float32 (z32) and the search is
	// screened (exact32.go): the running c_i and t_i carry error bounds,
	// and the best candidate is chosen among those the bounds cannot rule
	// out by scoring them from the path. The block is z otherwise.
	f32 bool
	s32 screen32

	lambda float64
	best   int       // best slot for the current state, -1 if none has a positive gain
	colBuf []float64 // col's result
}

// exactBuffers are the O(N) buffers of an exact search, recycled across
// fits through exactPool: allocating them afresh would zero ~50·N bytes,
// which costs as much as several greedy steps. Slices indexed by slot hold
// the first N' entries, the others all N (before constant columns are
// dropped, in candidate order).
type exactBuffers struct {
	z       []float64       // m×N' row-major: column s is candidate glob[s], standardised
	z32     []float32       // the same in float32, when the search is screened (exact32.go)
	glob    []int32         // candidate index of each slot
	st      []colStats      // training statistics of each slot
	f       []float64       // the factor γ/std of each slot (0: constant)
	sq      []float64       // ‖z_s‖²
	b       []float64       // z_sᵀ y
	c, t, p []float64       // running c_i and t_i, and the product Zᵀg/√c
	ec, et  []float64       // bounds on the errors of c_i and t_i (screened search)
	rs      rowStatsScratch // blockStats' scratch
	means   []float64       // writeBlock's scratch
}

// exactPool recycles exactBuffers; buffers for more than maxPooled floats
// in z or in the N-vectors are left to the garbage collector.
var exactPool recycler[exactBuffers]

const maxPooled = 1 << 23 // 64 MB

// grow returns s resized to length n, reallocating only when its capacity
// is short. Its contents are arbitrary.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// getExactBuffers returns buffers for N candidates (z is sized later).
func getExactBuffers(N int) *exactBuffers {
	b := exactPool.get()
	if b == nil {
		b = new(exactBuffers)
	}
	b.glob = grow(b.glob, N)
	b.st = grow(b.st, N)
	for _, s := range []*[]float64{&b.f, &b.sq, &b.b, &b.c, &b.t, &b.p, &b.ec, &b.et} {
		*s = grow(*s, N)
	}
	return b
}

// statBlock is the number of columns whose statistics are accumulated
// together, row by row (a few tens of kilobytes of accumulators).
const statBlock = 1024

// setupCheck is the number of values the setup reads or writes, column by
// column or row by row, between two checks of its context (about a
// millisecond of work): the standardised block of a tall sample is written
// in stretches of about this size, not in one pass of m·N values.
const setupCheck = 1 << 20

// setupDue reports whether item i of a setup loop over items of size
// values each (columns, or rows) is one before which the loop checks its
// context: every max(1, setupCheck/size) items from the first, about
// setupCheck values apart. Fit's setup and Gram.Fit's gathering check so.
func setupDue(i, size int) bool { return i%max(1, setupCheck/size) == 0 }

// setupInterrupted returns ctx's error, wrapped as Fit's setup reports it,
// when ctx is done.
func setupInterrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return &fitctx.Interruption{Caller: "greedytl.Fit", At: "while standardising", Err: err}
	}
	return nil
}

// newExact standardises every candidate column into the m×N' block,
// dropping constant columns, and checks that every input is finite.
func newExact(ctx context.Context, in *inputs, y []float64) (*exactEngine, error) {
	m, N := in.m, in.numCand()
	e := &exactEngine{exactBuffers: getExactBuffers(N), m: m, in: in, colBuf: make([]float64, m)}
	parts := []struct {
		b     *inputMatrix
		gamma float64
		off   int
	}{{&in.x, in.gamma, 0}, {&in.h, 1, in.d}}
	// Pass 1: the statistics of every column.
	for _, part := range parts {
		b := part.b
		if b.cols == 0 {
			continue
		}
		st, f, sq := e.st[part.off:part.off+b.cols], e.f[part.off:part.off+b.cols], e.sq[part.off:part.off+b.cols]
		if part.gamma == 0 {
			// Features are all constant; they must still be valid input.
			if err := b.checkFinite(); err != nil {
				e.release()
				return nil, err
			}
			clear(f)
			continue
		}
		if err := e.columnStats(ctx, b, part.gamma, st, f, sq); err != nil {
			e.release()
			return nil, err
		}
	}
	// Drop the constant columns (in place: slot s ≤ candidate j).
	n := 0
	for j, f := range e.f[:N] {
		if f != 0 {
			e.glob[n], e.st[n], e.f[n], e.sq[n] = int32(j), e.st[j], f, e.sq[j]
			n++
		}
	}
	if n == 0 {
		e.release()
		return nil, noCandidates("greedytl.Fit")
	}
	e.n = n
	for _, s := range []*[]float64{&e.f, &e.sq, &e.b, &e.c, &e.t, &e.p, &e.ec, &e.et} {
		*s = (*s)[:n]
	}
	e.glob, e.st = e.glob[:n], e.st[:n]
	// Pass 2: write the standardised non-constant columns.
	e.f32 = useBlock32(m, n, in.gamma)
	if e.f32 {
		e.z32 = grow(e.z32, m*n)
	} else {
		e.z = grow(e.z, m*n)
	}
	w0 := 0
	for _, part := range parts {
		w1 := w0
		for w1 < n && int(e.glob[w1]) < part.off+part.b.cols {
			w1++
		}
		if w1 > w0 {
			var err error
			if e.f32 {
				err = writeBlock(ctx, e, e.z32, part.b, part.off, w0, w1, y)
			} else {
				err = writeBlock(ctx, e, e.z, part.b, part.off, w0, w1, nil)
			}
			if err != nil {
				e.release()
				return nil, err
			}
		}
		w0 = w1
	}
	if e.f32 {
		e.s32.start(e, y)
	} else {
		e.gemvT(e.b, y, 1)
	}
	return e, nil
}

// columnStats computes the statistics of every column of b (γ > 0), the
// factors γ/std of the non-constant ones (0 for constant ones) and the
// squared norms ‖z‖² of the standardised columns, with exactly the
// arithmetic of standardizeChunk for the statistics, so that both searches
// standardise identically. The squared norm of a non-constant column is
// m·γ² by definition of the standard deviation, up to rounding, and is
// taken as that. It chooses how to read b: column by column (contiguous
// columns, or through At), or, for row-major data, row by row in blocks of
// statBlock columns.
func (e *exactEngine) columnStats(ctx context.Context, b *inputMatrix, gamma float64, st []colStats, f, sq []float64) error {
	if !b.hasRaw || b.trans {
		return e.columnStatsByColumn(ctx, b, gamma, st, f, sq)
	}
	for j0 := 0; j0 < b.cols; j0 += statBlock {
		if err := setupInterrupted(ctx); err != nil {
			return err
		}
		j1 := min(j0+statBlock, b.cols)
		if err := e.blockStats(b, j0, gamma, st[j0:j1], f[j0:j1], sq[j0:j1]); err != nil {
			return err
		}
	}
	return nil
}

// columnStatsByColumn is columnStats reading b column by column: each
// column is copied and standardised by standardizeChunk.
func (e *exactEngine) columnStatsByColumn(ctx context.Context, b *inputMatrix, gamma float64, st []colStats, f, sq []float64) error {
	m := b.rows
	v := make([]float64, m)
	var sts [1]colStats
	var tmp [1]float64
	sqNorm := float64(m) * gamma * gamma
	for j := range st {
		if setupDue(j, m) {
			if err := setupInterrupted(ctx); err != nil {
				return err
			}
		}
		b.column(j, v)
		if standardizeChunk(v, m, 1, gamma, sts[:], tmp[:]) >= 0 {
			return badColumn(b, j)
		}
		st[j], f[j], sq[j] = sts[0], tmp[0], 0
		if f[j] != 0 {
			sq[j] = sqNorm
		}
	}
	return nil
}

// blockStats computes the statistics of the len(st) columns of row-major b
// from column j0 on, reading row by row (rowStats).
func (e *exactEngine) blockStats(b *inputMatrix, j0 int, gamma float64, st []colStats, f, sq []float64) error {
	if k := rowStats(b.raw.Data[j0:], b.raw.Stride, b.rows, len(st), gamma, &e.rs, st, f); k >= 0 {
		return badColumn(b, j0+k)
	}
	sqNorm := float64(b.rows) * gamma * gamma
	for k := range sq {
		sq[k] = 0
		if f[k] != 0 {
			sq[k] = sqNorm
		}
	}
	return nil
}

// writeBlock stores the standardised slots w0, …, w1−1, all columns of b
// (whose first column is candidate off), into the block z (e.z, or e.z32
// rounded to float32 from the same float64 values). For the float32 block
// it also sets e.b[w0:w1] to the slots' products with y, as gemvT32
// computes them (gemvT32Cols), reading row-major input's rows four at a
// time, while they are in the cache, rather than the block again. It
// checks ctx every setupCheck values or so and returns its error when ctx
// is done.
func writeBlock[T float32 | float64](ctx context.Context, e *exactEngine, z []T, b *inputMatrix, off, w0, w1 int, y []float64) error {
	m, n := e.m, e.n
	st, f, glob := e.st[w0:w1], e.f[w0:w1], e.glob[w0:w1]
	z32, is32 := any(z).([]float32)
	if b.hasRaw && !b.trans {
		if is32 {
			clear(e.b[w0:w1])
		}
		mean := e.means[:0]
		for k := range st {
			mean = append(mean, st[k].mean)
		}
		e.means = mean
		all := w1-w0 == b.cols // no constant column: no gather needed
		for i := 0; i < m; i++ {
			if setupDue(i, w1-w0) { // rows of w1−w0 values
				if err := setupInterrupted(ctx); err != nil {
					return err
				}
			}
			row := b.raw.Data[i*b.raw.Stride : i*b.raw.Stride+b.cols]
			zrow := z[i*n+w0 : i*n+w1]
			if all {
				standardizeRow(zrow[:len(row)], row, mean, f)
			} else {
				for k, j := range glob {
					zrow[k] = T((row[int(j)-off] - mean[k]) * f[k])
				}
			}
			if is32 && (i%4 == 3 || i == m-1) { // a group of four rows, as gemvT32 takes them
				axpy4Cols(e.b[w0:w1], z32, m, n, w0, i&^3, y)
			}
		}
		// Columns whose factor overflowed (subnormal standard deviation)
		// again, dividing, and their products again.
		for k, j := range glob {
			if math.IsInf(f[k], 1) {
				writeColumn(e, z, b, int(j)-off, w0+k)
				if is32 {
					gemvT32Cols(e.b[w0+k:w0+k+1], z32, m, n, w0+k, y)
				}
			}
		}
		return nil
	}
	for k, j := range glob {
		if setupDue(k, m) { // columns of m values
			if err := setupInterrupted(ctx); err != nil {
				return err
			}
		}
		writeColumn(e, z, b, int(j)-off, w0+k)
	}
	if is32 {
		gemvT32Cols(e.b[w0:w1], z32, m, n, w0, y)
	}
	return nil
}

// writeColumn stores column j of b, standardised with the statistics of
// slot s (standardizeColumn), as column s of the block z.
func writeColumn[T float32 | float64](e *exactEngine, z []T, b *inputMatrix, j, s int) {
	v := e.standardized(b, j, s)
	for i, x := range v {
		z[i*e.n+s] = T(x)
	}
}

// standardized returns column j of b standardised with the statistics of
// slot s, as the block holds it before any rounding to float32, in a
// buffer that the next call overwrites.
func (e *exactEngine) standardized(b *inputMatrix, j, s int) []float64 {
	v := e.colBuf[:e.m]
	b.column(j, v)
	standardizeColumn(v, v, 1, e.st[s].mean, e.st[s].scale, e.f[s])
	return v
}

// gemvT sets dst = alpha·Zᵀx.
//
// It calls gonum's pure-Go Dgemv whatever BLAS blas64 uses: it computes
// every element of Zᵀx with the same arithmetic, so that equal columns get
// bitwise equal c_i and t_i, which the tie rule needs. OpenBLAS's does
// not (its kernels treat the last few columns differently), and the
// product is memory-bound: it was no faster in our measurements.
func (e *exactEngine) gemvT(dst, x []float64, alpha float64) {
	gonum.Implementation{}.Dgemv(blas.Trans, e.m, e.n, alpha, e.z, e.n, x[:e.m], 1, 0, dst[:e.n], 1)
}

// release returns the engine's buffers to the pool; e must not be used
// afterwards.
func (e *exactEngine) release() {
	e.s32.release()
	e.rs.trim()
	if cap(e.z) <= maxPooled && cap(e.z32) <= 2*maxPooled && 8*cap(e.c) <= maxPooled {
		exactPool.put(e.exactBuffers, e.floats() <= maxSpare)
	}
	e.exactBuffers = nil
}

// floats returns how many floats (of 8 bytes) b's buffers hold, counting
// the capacity of every one (float32s and int32s as halves), whatever fit
// grew it.
func (b *exactBuffers) floats() int {
	n := cap(b.z) + (cap(b.z32)+cap(b.glob)+1)/2 + 2*cap(b.st)
	for _, s := range [][]float64{b.f, b.sq, b.b, b.c, b.t, b.p, b.ec, b.et, b.means} {
		n += cap(s)
	}
	return n + b.rs.floats()
}

func (e *exactEngine) reset(lambda float64) error {
	e.lambda = lambda
	if err := startScores(e.c, e.t, e.sq, e.b, lambda, e.scale(), "greedytl.Fit"); err != nil {
		return err
	}
	if e.f32 {
		e.s32.reset(e, lambda)
		return nil
	}
	e.best = scan(e.p[:0], e.c, e.t, 0)
	return nil
}

// startScores sets the running c_i = 1 + ‖z_i‖²/λ and t_i = z_iᵀy/λ of the
// empty set from the squared norms sq and products b, or returns an error
// when λ is so small (or the feature factor γ of fs so large) that some
// ‖z_i‖²/λ is not usable (errSmallLambda, named by caller).
func startScores(c, t, sq, b []float64, lambda float64, fs featureScale, caller string) error {
	maxq := 0.0
	il := 1 / lambda
	for s, sq := range sq {
		q := sq * il
		c[s] = 1 + q
		t[s] = b[s] * il
		maxq = math.Max(maxq, q)
	}
	if !(maxq < 1e100) {
		return errSmallLambda(caller, lambda, fs, maxq)
	}
	return nil
}

func (e *exactEngine) pick(p *path) (int, error) {
	if e.f32 {
		if err := e.s32.pick(e, p); err != nil {
			return 0, err
		}
	}
	if e.best >= 0 {
		return e.best, nil
	}
	// No candidate has a positive gain: take the first unselected one
	// (selected slots carry c = +Inf).
	for s, c := range e.c {
		if !math.IsInf(c, 1) {
			return s, nil
		}
	}
	return -1, nil
}

func (e *exactEngine) added(p *path, s int, g []float64, c, tc float64, refreshed bool) {
	e.c[s] = math.Inf(1) // never selectable again
	if e.f32 {
		e.s32.added(e, p, g, c, tc, refreshed)
		return
	}
	rc := math.Sqrt(c)
	e.gemvT(e.p, g, 1/rc)
	if refreshed {
		e.gemvT(e.t, p.a, 1)
		tc = 0
	}
	e.best = scan(e.p, e.c, e.t, tc*rc)
}

// col gathers column s into a buffer that the next call overwrites.
func (e *exactEngine) col(s int) []float64 {
	if e.f32 {
		return e.s32.column(e, s)
	}
	for i := range e.colBuf {
		e.colBuf[i] = e.z[i*e.n+s]
	}
	return e.colBuf
}

func (e *exactEngine) global(s int) int { return int(e.glob[s]) }

// scale returns the featureScale of γ and whether a feature is among the
// slots (features come first; there is at least one slot).
func (e *exactEngine) scale() featureScale {
	return newFeatureScale(e.in.gamma, int(e.glob[0]) < e.in.d)
}
func (e *exactEngine) stats(s int) colStats {
	return e.st[s]
}

// scan applies c_i ← c_i − p_i² and t_i ← t_i − p_i·tc for every
// i < len(p) (no update when p is empty) and returns the index maximising
// the gain t_i²/c_i among those with a positive gain, the lowest index on
// ties, or -1 when no gain is positive. An index with c_i = +Inf never
// wins.
//
// Gains are compared by cross-multiplication (c_i ≥ 1; see argmax.offer).
// Most indices are rejected by the cheaper test t_i² > thr·c_i, where thr
// is the best gain so far lowered by far more than its rounding error, so
// that every index the exact comparison would accept passes it; the loop
// keeps nothing else in registers.
func scan(p, c, t []float64, tc float64) int {
	var am argmax
	am.best = -1
	thr := 0.0
	if len(p) == 0 {
		for i, ci := range c {
			ti := t[i]
			if tt := ti * ti; tt > thr*ci {
				thr = am.offer(i, tt, ci)
			}
		}
		return am.best
	}
	c = c[:len(p)]
	t = t[:len(p)]
	for i, pi := range p {
		ci := c[i] - pi*pi
		ti := t[i] - pi*tc
		c[i] = ci
		t[i] = ti
		if tt := ti * ti; tt > thr*ci {
			thr = am.offer(i, tt, ci)
		}
	}
	return am.best
}

// argmax tracks the index with the largest ratio tt/c, the first on ties.
type argmax struct {
	best    int
	btt, bc float64 // tt and c of best (0 and 1 before any)
	thr     float64
}

// offer makes i the best if tt·bc > btt·c (for c ≥ 1 and positive tt) and
// returns the threshold for the next offers: the best ratio lowered by a
// relative 2⁻⁴⁰ (0, accepting every positive ratio, while there is no best
// or where its rounding is not relative). It is kept out of line so that
// scan's loop stays tight.
//
//go:noinline
func (a *argmax) offer(i int, tt, c float64) float64 {
	if a.best < 0 {
		a.bc = 1
	}
	if tt*a.bc > a.btt*c {
		a.best, a.btt, a.bc = i, tt, c
		a.thr = 0
		if tt >= 0x1p-900 {
			a.thr = tt / c * (1 - 0x1p-40)
		}
	}
	return a.thr
}
