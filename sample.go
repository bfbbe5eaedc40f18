package greedytl

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"
)

// sampleEngine is the randomised search of GreedyTL-59: each step draws r
// candidates uniformly without replacement from the unselected non-constant
// columns and scores them directly (c = 1 + zᵀĜz, t = aᵀz, gain
// λ t²/c), in O(r·m²) time independent of N.
//
// Columns are read and standardised lazily, the first time they are drawn,
// and cached, unless Fit has the engine read them all first (sweepWorth,
// sweep), which leaves the draws and selections unchanged. Draws are uniform over all N candidates and rejected when the
// column is constant, selected or already drawn in this step, which leaves
// a uniform sample of the valid ones. When at most r valid candidates can
// remain, the step scores all of them instead.
type sampleEngine struct {
	in   *inputs
	m, n int // n = N, the number of candidate columns
	lo   int // first candidate that can be non-constant: d when γ = 0, else 0
	// features reports whether a feature may be drawn as a non-constant
	// column, for the path's β (beta): lo < d and, when γ > 1 (where β
	// would be γ²), some feature column holds two different values.
	features bool
	r        int
	seed     uint64
	pcg      *rand.PCG  // the draws' stream (draw)
	rng      *rand.Rand // the same stream, for 32-bit platforms (draw)

	*sampleBuffers
	// slotOf[j] (read with slot, written with setSlot) is 0 for a column
	// not read yet, s+1 for cache slot s, and negative for a constant
	// column: -gen once counted by path generation gen, constUncounted
	// before (and pending while a draw awaits reading). slotArr is the
	// first N entries of the pooled slotBuf.
	slotArr []int32         // slotOf for small N
	slotMap map[int32]int32 // slotOf for large N (no O(N) set-up)
	nChunks int             // chunks in use: slot s is in chunks[s/cacheChunk]

	allKnown  bool    // every column has been read
	nConstAll int     // number of constant columns, when allKnown
	valid     []int32 // non-constant slots in candidate order, when allKnown

	gen    int32 // current path generation (from 1)
	nConst int   // constant columns counted by the current path
	step   int32 // the current step, numbered across paths from 1 (below markSelected)
}

// sampleBuffers are the buffers of a sampled search that are worth
// recycling across fits (through samplePool) rather than allocating (and
// zeroing) afresh.
type sampleBuffers struct {
	chunks [][]float64 // cached standardised columns, cacheChunk per chunk
	slots  []slotInfo  // the cached columns
	// mark[s] is the step that last drew slot s, or markSelected when the
	// current path has selected it: a slot with mark[s] ≥ step cannot be
	// drawn in this step. Apart from slots, so that the draws' look-ups
	// stay in a few first-level cache lines.
	mark     []int32
	selected []int32 // the slots the current path selected (reset clears their marks)
	slotBuf  []int32
	batch    batchScorer // bestOfBatched's scratch

	cand, pend, local []int
	sc                scorer
	prune             pruneState
	rs                rowStatsScratch // gatherStandardize's scratch
	block             []float64       // gatherStandardize's row-major block
	st                [sampleChunk]colStats
	tmp               [sampleChunk]float64
}

var samplePool recycler[sampleBuffers]

const constUncounted = math.MinInt32

// sampleChunk is the number of columns standardised together.
const sampleChunk = 64

// cacheChunk is the number of cached columns per allocation: the cache
// grows without copying.
const cacheChunk = 256

// slotInfo describes one cached column.
type slotInfo struct {
	st   colStats
	glob int32 // candidate index
}

// markSelected is mark's value for a slot the current path selected; the
// steps stay below it.
const markSelected = math.MaxInt32

// slotArrayMax is the largest N for which slotOf is an array; above it a
// map avoids touching O(N) memory (whose page faults would cost more than
// the fit). A variable so that tests can exercise both.
var slotArrayMax = 1 << 16

func newSample(in *inputs, r int, seed uint64) *sampleEngine {
	lo := 0
	if in.gamma == 0 {
		lo = in.d // every feature is constant
	}
	N := in.numCand()
	e := &sampleEngine{
		in:       in,
		lo:       lo,
		features: lo < in.d && (in.gamma <= 1 || featuresVary(in)),
		m:        in.m,
		n:        N,
		r:        r,
		seed:     seed,
	}
	e.sampleBuffers = samplePool.get()
	if e.sampleBuffers == nil {
		e.sampleBuffers = new(sampleBuffers)
	}
	e.slots, e.mark, e.selected = e.slots[:0], e.mark[:0], e.selected[:0]
	if N <= slotArrayMax {
		e.slotBuf = grow(e.slotBuf, N)
		e.slotArr = e.slotBuf
		clear(e.slotArr)
	} else {
		e.slotMap = make(map[int32]int32)
	}
	return e
}

// release returns the engine's buffers to the pool; e must not be used
// afterwards. Sets of more than maxPooled floats (floats) are left to
// the garbage collector, first without the cache and the batch's rows,
// the largest parts, then whole.
func (e *sampleEngine) release() {
	b := e.sampleBuffers
	e.sampleBuffers = nil
	b.sc.a, b.sc.u = nil, nil // the path's
	n := b.floats()
	if n > maxPooled {
		b.chunks, b.batch = nil, batchScorer{}
		n = b.floats()
	}
	if n <= maxPooled {
		samplePool.put(b, n <= maxSpare)
	}
}

// floats returns how many floats (of 8 bytes) b's buffers hold, counting
// the capacity of every one, whatever fit grew it: the cache's chunks
// (which a fit with a smaller m reuses whole), the slot records, marks
// and slotOf, the batch's and pruning's scratch, and the N-sized
// candidate lists. release compares it with maxPooled and maxSpare.
func (b *sampleBuffers) floats() int {
	n := 0
	for _, c := range b.chunks {
		n += cap(c)
	}
	const slotFloats = int(unsafe.Sizeof(slotInfo{})+7) / 8
	n += slotFloats*cap(b.slots) + (cap(b.mark)+cap(b.selected)+cap(b.slotBuf)+1)/2
	n += cap(b.batch.z) + cap(b.batch.u) + cap(b.batch.lo) + cap(b.batch.hi)
	n += cap(b.cand) + cap(b.pend) + cap(b.local) // ints of 8 bytes (4 on 32-bit platforms)
	n += cap(b.sc.gp) + cap(b.sc.z4)
	ps := &b.prune
	n += cap(ps.gramAbs) + cap(ps.t) + cap(ps.hi) + cap(ps.clo) + cap(ps.rows) + cap(ps.group)
	return n + b.rs.floats() + cap(b.block) + int(unsafe.Sizeof(b.st)+unsafe.Sizeof(b.tmp))/8
}

func (e *sampleEngine) reset(lambda float64) error {
	// Every non-constant column has zᵀz = m (γ²m for features).
	fs := e.scale()
	maxq := float64(e.m) * fs.beta / lambda
	if !(maxq < 1e100) {
		return errSmallLambda("greedytl.Fit", lambda, fs, maxq)
	}
	e.gen++
	for _, s := range e.selected {
		e.mark[s] = 0 // drawn before every step to come
	}
	e.selected = e.selected[:0]
	e.nConst = e.lo
	if e.allKnown {
		e.nConst = e.nConstAll
	}
	e.pcg = rand.NewPCG(e.seed, e.seed)
	e.rng = rand.New(e.pcg)
	e.prune.reset()
	return nil
}

// readParts are the two parts of the candidate range as the engine reads
// them: the features (X, scaled by γ) and the sources (H), with their
// ranges of candidate indices [off, stop).
func (e *sampleEngine) readParts() [2]readPart {
	return [2]readPart{{&e.in.x, e.in.gamma, 0, e.in.d}, {&e.in.h, 1, e.in.d, e.n}}
}

// readPart is one part of the candidate range (readParts).
type readPart struct {
	b         *inputMatrix
	gamma     float64
	off, stop int
}

// resolvePending reads and standardises the columns in e.pend (none read
// before, no repeats), caching the non-constant ones. Features and sources
// are each read in batches, straight into the cache.
func (e *sampleEngine) resolvePending() error {
	m := e.m
	for _, part := range e.readParts() {
		if part.stop <= max(part.off, e.lo) {
			continue // no candidate is drawn there
		}
		js := e.local[:0]
		for _, j := range e.pend {
			if j >= part.off && j < part.stop {
				js = append(js, j-part.off)
			}
		}
		e.local = js
		for len(js) > 0 {
			// Standardise the next columns in the next free slots of the
			// current cache chunk, then close the gaps that constant
			// columns leave.
			s0 := len(e.slots)
			nc := min(len(js), sampleChunk, cacheChunk-s0%cacheChunk)
			dst := e.chunk(s0 / cacheChunk)[(s0%cacheChunk)*m : (s0%cacheChunk+nc)*m]
			if k := gatherStandardize(part.b, js[:nc], part.gamma, dst, e.st[:], e.tmp[:], &e.rs, &e.block); k >= 0 {
				return badColumn(part.b, js[k])
			}
			e.keep(part.off, js[:nc], dst)
			js = js[nc:]
		}
	}
	return nil
}

// keep caches the columns part.off + js[k] just standardised into dst
// (the cache's next free slots, column after column) with their
// statistics e.st[k]: the non-constant ones in order, closing the gaps
// that constant ones leave, and marks the constant ones constUncounted.
func (e *sampleEngine) keep(off int, js []int, dst []float64) {
	m, s0, w := e.m, len(e.slots), 0
	// Written by index into room grown first, not appended: appending to
	// e's fields stores their lengths back at every column.
	e.slots, e.mark = slices.Grow(e.slots, len(js)), slices.Grow(e.mark, len(js))
	slots, mark, st := e.slots[s0:s0+len(js)], e.mark[s0:s0+len(js)], e.st[:len(js)]
	arr := e.slotArr
	for k, jl := range js {
		j := off + jl
		c := st[k]
		if c.scale == 0 {
			e.setSlot(j, constUncounted)
			continue
		}
		if w < k {
			copy(dst[w*m:(w+1)*m], dst[k*m:(k+1)*m])
		}
		slots[w] = slotInfo{st: c, glob: int32(j)}
		mark[w] = 0
		w++
		if arr != nil {
			arr[j] = int32(s0 + w)
		} else {
			e.setSlot(j, int32(s0+w))
		}
	}
	e.slots, e.mark = e.slots[:s0+w], e.mark[:s0+w]
}

// sweepWorth reports whether a fit of maxK steps (0: no cap) over paths
// paths is expected to draw so large a share of the n − lo candidates
// that reading them all in one sweep (sweep) costs less than reading each
// when first drawn: the expected share of distinct columns among
// paths·r·maxK uniform draws, 1 − exp(−paths·r·maxK/(n − lo)), is at least
// sweepShare.
func (e *sampleEngine) sweepWorth(maxK, paths int) bool {
	if maxK == 0 || e.n-e.lo < sampleChunk {
		return false
	}
	draws := float64(paths) * float64(e.r) * float64(maxK)
	return 1-math.Exp(-draws/float64(e.n-e.lo)) >= sweepShare
}

// sweepShare is the expected share of the columns drawn above which the
// sampled search reads every column in one sweep (sweepWorth).
var sweepShare = 0.45

// sweep reads and standardises every candidate column from lo on, in
// candidate order, straight from the row-major input (sweepPairs, two
// groups of four columns at a time; standardizeRows for the rest: the
// statistics and values of each column bitwise those of a column read
// when drawn), as if each had been drawn: the search then draws, rejects
// and selects exactly as it would reading lazily. It reads nothing and
// returns false when a part is not row-major, and undoes what it read and
// returns false when a column fails (not finite, or overflowing): the
// search then reads lazily, reporting a failing column only if it draws
// it, as before.
func (e *sampleEngine) sweep() bool {
	parts := e.readParts()
	for _, part := range parts {
		if part.stop > max(part.off, e.lo) && (!part.b.hasRaw || part.b.trans) {
			return false
		}
	}
	m := e.m
	e.slots, e.mark = slices.Grow(e.slots, e.n-e.lo), slices.Grow(e.mark, e.n-e.lo)
	for _, part := range parts {
		b := part.b
		for j0 := max(part.off, e.lo) - part.off; j0 < b.cols; {
			if j0 += e.sweepPairs(part, j0); j0 == b.cols {
				break
			}
			s0 := len(e.slots)
			nc := min(b.cols-j0, sampleChunk, cacheChunk-s0%cacheChunk)
			dst := e.chunk(s0 / cacheChunk)[(s0%cacheChunk)*m : (s0%cacheChunk+nc)*m]
			if standardizeRows(b.raw.Data[j0:], b.raw.Stride, m, nc, part.gamma, dst, e.st[:], e.tmp[:], &e.rs) >= 0 {
				e.unsweep()
				return false
			}
			js := e.local[:0]
			for k := range nc {
				js = append(js, j0+k)
			}
			e.local = js
			e.keep(part.off, js, dst)
			j0 += nc
		}
	}
	return true
}

// sweepPairs is sweep's main route: it standardises the columns j0, j0+1,
// … of part (row-major, γ > 0) eight at a time (standardizePair, two
// groups of four) straight into the cache's next slots, and caches them
// with their statistics, as long as both groups of a pair take the plain
// route (so that none is constant) and the pair's slots lie in one cache
// chunk. It returns how many columns it cached (a multiple of eight);
// sweep reads the rest through standardizeRows, whose columns' values and
// statistics these are bit for bit.
func (e *sampleEngine) sweepPairs(part readPart, j0 int) int {
	b, m := part.b, e.m
	if part.gamma <= 0 {
		return 0
	}
	rows, stride := b.raw.Data, b.raw.Stride
	invN := 1 / float64(m)
	var out [24]float64
	j := j0
	for ; j+8 <= b.cols; j += 8 {
		s0 := len(e.slots)
		if s0%cacheChunk > cacheChunk-8 {
			break
		}
		c := e.chunk(s0 / cacheChunk)
		o := (s0 % cacheChunk) * m
		dst := c[o : o+8*m]
		if standardizePair(&rows[j], &rows[j+4], stride, m, invN, part.gamma, &dst[0], &dst[4*m], &out) != 3 {
			break
		}
		e.slots, e.mark = e.slots[:s0+8], e.mark[:s0+8]
		sl, mk := (*[8]slotInfo)(e.slots[s0:]), (*[8]int32)(e.mark[s0:])
		*mk = [8]int32{}
		glob := int32(part.off + j)
		// Written out, not in loops: these are most of the sweep's own
		// instructions.
		sl[0] = slotInfo{st: colStats{mean: out[0], scale: out[4]}, glob: glob}
		sl[1] = slotInfo{st: colStats{mean: out[1], scale: out[5]}, glob: glob + 1}
		sl[2] = slotInfo{st: colStats{mean: out[2], scale: out[6]}, glob: glob + 2}
		sl[3] = slotInfo{st: colStats{mean: out[3], scale: out[7]}, glob: glob + 3}
		sl[4] = slotInfo{st: colStats{mean: out[12], scale: out[16]}, glob: glob + 4}
		sl[5] = slotInfo{st: colStats{mean: out[13], scale: out[17]}, glob: glob + 5}
		sl[6] = slotInfo{st: colStats{mean: out[14], scale: out[18]}, glob: glob + 6}
		sl[7] = slotInfo{st: colStats{mean: out[15], scale: out[19]}, glob: glob + 7}
		if e.slotArr != nil {
			so, v := (*[8]int32)(e.slotArr[glob:]), int32(s0)
			so[0], so[1], so[2], so[3] = v+1, v+2, v+3, v+4
			so[4], so[5], so[6], so[7] = v+5, v+6, v+7, v+8
		} else {
			for q := range int32(8) {
				e.setSlot(int(glob+q), int32(s0)+q+1)
			}
		}
	}
	return j - j0
}

// unsweep forgets every column read: the state of a new engine.
func (e *sampleEngine) unsweep() {
	for j := e.lo; j < e.n; j++ {
		if e.slot(j) != 0 {
			e.setSlot(j, 0)
		}
	}
	e.slots, e.mark, e.nChunks = e.slots[:0], e.mark[:0], 0
}

// chunk returns cache chunk c, allocating it (or reusing a pooled one)
// when it is the first chunk not in use.
func (e *sampleEngine) chunk(c int) []float64 {
	if c == e.nChunks {
		size := cacheChunk * e.m
		if c == len(e.chunks) {
			e.chunks = append(e.chunks, make([]float64, size))
		} else if len(e.chunks[c]) < size {
			e.chunks[c] = make([]float64, size)
		}
		e.nChunks++
	}
	return e.chunks[c]
}

// slot returns slotOf[j].
func (e *sampleEngine) slot(j int) int32 {
	if e.slotArr != nil {
		return e.slotArr[j]
	}
	return e.slotMap[int32(j)]
}

// setSlot sets slotOf[j] = v.
func (e *sampleEngine) setSlot(j int, v int32) {
	if e.slotArr != nil {
		e.slotArr[j] = v
	} else if v == 0 {
		delete(e.slotMap, int32(j))
	} else {
		e.slotMap[int32(j)] = v
	}
}

// countConst counts constant column j for the current path, once. Once
// every column is known, reset has counted them all.
func (e *sampleEngine) countConst(j int) {
	if !e.allKnown && e.slot(j) != -e.gen {
		e.setSlot(j, -e.gen)
		e.nConst++
	}
}

// pick draws r candidates and returns the best. Draws are uniform over the
// candidate range and rejected if selected, known constant or drawn before
// in this step; columns not read yet are collected and read in one batch,
// and those that turn out constant are rejected in turn.
func (e *sampleEngine) pick(p *path) (int, error) {
	if e.step == markSelected-1 {
		e.renumber()
	}
	e.step++
	if e.n-len(p.sel)-e.nConst <= e.r {
		return e.pickAll(p)
	}
	cand := e.cand[:0]
	for len(cand) < e.r {
		e.pend = e.pend[:0]
		for len(cand)+len(e.pend) < e.r {
			j := e.lo + e.draw(e.n-e.lo)
			sl := e.slot(j)
			switch {
			case sl == pending:
				continue
			case sl == 0:
				e.setSlot(j, pending)
				e.pend = append(e.pend, j)
				continue
			case sl < 0:
				e.countConst(j)
				if e.n-len(p.sel)-e.nConst <= e.r {
					e.unpend()
					return e.pickAll(p)
				}
				continue
			}
			s := int(sl) - 1
			if e.mark[s] >= e.step {
				continue // selected, or drawn in this step
			}
			e.mark[s] = e.step
			cand = append(cand, s)
		}
		e.unpend()
		if err := e.resolvePending(); err != nil {
			return 0, err
		}
		mark, step := e.mark, e.step
		for _, j := range e.pend {
			if s := e.slot(j); s > 0 {
				mark[s-1] = step
				cand = append(cand, int(s)-1)
			} else {
				e.countConst(j)
			}
		}
		if e.n-len(p.sel)-e.nConst <= e.r {
			return e.pickAll(p)
		}
	}
	e.cand = cand
	return e.bestOf(p, cand)
}

// renumber restarts the steps' numbering at 0 once it reaches
// markSelected − 1, forgetting which slots past steps drew.
func (e *sampleEngine) renumber() {
	for s, mk := range e.mark {
		if mk != markSelected {
			e.mark[s] = 0
		}
	}
	e.step = 0
}

// draw returns the next draw from [0, n), n > 0: exactly what
// rand.New(pcg).IntN(n) returns, and consuming the same values of the
// stream, so that the same seed gives the same draws (TestDrawIsIntN).
// On 64-bit platforms it is IntN's algorithm (Lemire's multiply-and-reject
// over 64 bits, a mask for a power of two) calling the generator directly
// rather than through rand.Rand's Source interface, which costs a third of
// a draw; on 32-bit ones IntN itself (which takes another route there).
func (e *sampleEngine) draw(n int) int {
	if ^uint(0)>>32 == 0 {
		return e.rng.IntN(n)
	}
	u := uint64(n)
	if u&(u-1) == 0 {
		return int(e.pcg.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(e.pcg.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(e.pcg.Uint64(), u)
		}
	}
	return int(hi)
}

// pending marks, in slotOf, a column drawn in this step and not read yet.
const pending = math.MinInt32 + 1

// unpend clears the pending marks of e.pend.
func (e *sampleEngine) unpend() {
	for _, j := range e.pend {
		e.setSlot(j, 0)
	}
}

// pickAll scores every unselected non-constant candidate.
func (e *sampleEngine) pickAll(p *path) (int, error) {
	if !e.allKnown {
		for j0 := e.lo; j0 < e.n; j0 += sampleChunk {
			e.pend = e.pend[:0]
			for j := j0; j < min(j0+sampleChunk, e.n); j++ {
				if e.slot(j) == 0 {
					e.pend = append(e.pend, j)
				}
			}
			if err := e.resolvePending(); err != nil {
				return 0, err
			}
			for j := j0; j < min(j0+sampleChunk, e.n); j++ {
				if s := e.slot(j); s > 0 {
					e.valid = append(e.valid, s-1)
				} else {
					e.countConst(j)
				}
			}
		}
		e.allKnown = true
		e.nConstAll = e.nConst
		if len(e.valid) == 0 {
			return 0, noCandidates("greedytl.Fit")
		}
	}
	cand := e.cand[:0]
	for _, s := range e.valid {
		if e.mark[s] != markSelected {
			cand = append(cand, int(s))
		}
	}
	e.cand = cand
	if len(cand) == 0 {
		return -1, nil
	}
	return e.bestOf(p, cand)
}

// bestOf scores the slots cand and returns the one with the largest gain
// t²/c (the lowest candidate index on ties), or an error if none has a
// comparable gain (which takes a NaN in Ĝ or a). It prunes (prune.go)
// where the bound holds, else scores every candidate, by the batch scorer
// in the dual form when batchedScoring is set, else by the scalar kernel;
// all three select the same slot.
func (e *sampleEngine) bestOf(p *path, cand []int) (int, error) {
	if half2 := e.pruneBound(p); half2 > 0 {
		return e.bestOfPruned(p, cand, half2)
	}
	if batchedScoring && !p.primal {
		return e.bestOfBatched(p, cand)
	}
	return e.bestOfScalar(p, cand)
}

// bestOfScalar is bestOf by the scalar kernel.
func (e *sampleEngine) bestOfScalar(p *path, cand []int) (int, error) {
	e.sc.load(p)
	best, bestGain := -1, -1.0
	offer := func(s int, c, t float64) {
		gain := t * t / c
		if gain > bestGain || (gain == bestGain && e.slots[s].glob < e.slots[best].glob) {
			best, bestGain = s, gain
		}
	}
	k := 0
	for ; k+4 <= len(cand); k += 4 {
		s := cand[k : k+4]
		c, t := e.sc.score4(e.col(s[0]), e.col(s[1]), e.col(s[2]), e.col(s[3]))
		for i := range s {
			offer(s[i], c[i], t[i])
		}
	}
	for _, s := range cand[k:] {
		c, t := e.sc.score1(e.col(s))
		offer(s, c, t)
	}
	if best < 0 {
		return 0, fmt.Errorf("greedytl.Fit: numerical breakdown at step %d (no candidate has a finite gain): %s", len(p.sel)+1, p.tooSmall())
	}
	return best, nil
}

// scorer evaluates c = 1 + zᵀĜz and t = aᵀz for candidate columns z. In
// the dual form it reads Ĝ as its upper triangle, packed row after row
// with the off-diagonal entries doubled, so that zᵀĜz = Σ_i z_i (Ĝ_ii z_i
// + Σ_{l>i} 2Ĝ_il z_l) takes m(m+1)/2 multiply–adds instead of m²; in the
// primal form, zᵀĜz = zᵀz/λ − ‖Uz‖² takes (k+2)·m.
type scorer struct {
	m      int
	gp     []float64 // packed rows: Ĝ_ii, 2Ĝ_i,i+1, …, 2Ĝ_i,m−1 for i = 0, …, m−1
	a      []float64
	primal bool
	u      []float64 // the primal form's U
	il     float64   // 1/λ
	z4     []float64 // score4's scratch: four columns interleaved
}

// load packs the path's Ĝ and a.
func (sc *scorer) load(p *path) {
	m := p.m
	sc.m, sc.a, sc.primal = m, p.a, p.primal
	if p.primal {
		sc.u, sc.il = p.U, 1/p.lambda
		return
	}
	sc.gp = grow(sc.gp, m*(m+1)/2)
	packG(p.G, m, sc.gp)
}

// packGGo is packG's definition: row i of the row-major m×m matrix G from
// its diagonal on, Ĝ_ii, 2Ĝ_i,i+1, …, 2Ĝ_i,m−1, to gp, rows one after
// another (the doubling exact).
func packGGo(G []float64, m int, gp []float64) {
	for i := 0; i < m; i++ {
		row := G[i*m+i : i*m+m]
		dst := gp[:len(row)]
		gp = gp[len(row):]
		dst[0] = row[0]
		for l := 1; l < len(dst); l++ {
			dst[l] = 2 * row[l]
		}
	}
}

// score4 returns c and t for four columns at once, one per lane of a
// vector register where there is a vector kernel (score4Vec), each with
// score1's arithmetic.
func (sc *scorer) score4(z0, z1, z2, z3 []float64) (c, t [4]float64) {
	m := sc.m
	z0, z1, z2, z3 = z0[:m], z1[:m], z2[:m], z3[:m]
	if sc.primal {
		return sc.score4Primal(z0, z1, z2, z3)
	}
	if m == 0 {
		return [4]float64{1, 1, 1, 1}, t
	}
	a, gp := sc.a[:m], sc.gp[:m*(m+1)/2]
	sc.z4 = grow(sc.z4, 4*m)
	var out [8]float64
	score4Vec(&z0[0], &z1[0], &z2[0], &z3[0], &gp[0], &a[0], m, &sc.z4[0], &out)
	return [4]float64(out[:4]), [4]float64(out[4:])
}

// score4Go is score4Vec in Go: the dual form's c and t of the four columns
// of m values at z0, …, z3, each element of Ĝ read once for the four,
// whose sums form independent chains.
//
// The conversions float64(x * y) forbid the compiler to fuse a product
// with its sum (which it does, with GOAMD64=v3, where the product's
// operand is not a load from memory): score4 and score1 must round
// identically.
func score4Go(z0p, z1p, z2p, z3p, gpp, ap *float64, m int, out *[8]float64) {
	z0, z1, z2, z3 := unsafe.Slice(z0p, m), unsafe.Slice(z1p, m), unsafe.Slice(z2p, m), unsafe.Slice(z3p, m)
	var q0, q1, q2, q3 float64
	gp := unsafe.Slice(gpp, m*(m+1)/2)
	for i := 0; i < m; i++ {
		row := gp[:m-i]
		gp = gp[m-i:]
		a0, a1, a2, a3 := z0[i:], z1[i:], z2[i:], z3[i:]
		s0, s1, s2, s3 := dot4(row, a0, a1, a2, a3)
		q0 += float64(a0[0] * s0)
		q1 += float64(a1[0] * s1)
		q2 += float64(a2[0] * s2)
		q3 += float64(a3[0] * s3)
	}
	var t [4]float64
	t4Go(z0p, z1p, z2p, z3p, ap, m, &t)
	*out = [8]float64{1 + q0, 1 + q1, 1 + q2, 1 + q3, t[0], t[1], t[2], t[3]}
}

// score1 returns c and t for one column.
func (sc *scorer) score1(z []float64) (c, t float64) {
	m := sc.m
	z = z[:m]
	if haveAVX {
		// The vector kernel, with the column in every lane, costs less than
		// the scalar loop and rounds as it does.
		c4, t4 := sc.score4(z, z, z, z)
		return c4[0], t4[0]
	}
	if sc.primal {
		return sc.score1Primal(z)
	}
	var q float64
	gp := sc.gp
	for i := 0; i < m; i++ {
		row := gp[:m-i]
		gp = gp[m-i:]
		a := z[i:]
		q += float64(a[0] * dot1(row, a))
	}
	// t is summed as in score4, so that equal columns score equally.
	return 1 + q, sc.t1(z)
}

// score4Primal is score4 in the primal form: q = zᵀz/λ − Σ_j (u_jᵀz)²
// (score4PrimalVec), summed in the order of score1Primal.
func (sc *scorer) score4Primal(z0, z1, z2, z3 []float64) (c, t [4]float64) {
	m := sc.m
	if m == 0 {
		return [4]float64{1, 1, 1, 1}, t
	}
	k1 := len(sc.u) / m
	var u *float64 // no row is read when k1 = 0
	if k1 > 0 {
		u = &sc.u[0]
	}
	a := sc.a[:m]
	sc.z4 = grow(sc.z4, 4*m)
	var out [8]float64
	score4PrimalVec(&z0[0], &z1[0], &z2[0], &z3[0], u, &a[0], k1, m, sc.il, &sc.z4[0], &out)
	return [4]float64(out[:4]), [4]float64(out[4:])
}

// score4PrimalGo is score4PrimalVec in Go: out[q] = 1 + (z_qᵀz_q)·il −
// Σ_j (u_jᵀz_q)² for the four columns of m values at z0, …, z3 and the k1
// rows of U at u, each sum in order (see score4Go on the conversions).
func score4PrimalGo(z0p, z1p, z2p, z3p, up *float64, k1, m int, il float64, out *[4]float64) {
	z0, z1, z2, z3 := unsafe.Slice(z0p, m), unsafe.Slice(z1p, m), unsafe.Slice(z2p, m), unsafe.Slice(z3p, m)
	var q0, q1, q2, q3 float64
	for l, v := range z0 {
		q0 += float64(v * v)
		q1 += float64(z1[l] * z1[l])
		q2 += float64(z2[l] * z2[l])
		q3 += float64(z3[l] * z3[l])
	}
	q0, q1, q2, q3 = q0*il, q1*il, q2*il, q3*il
	for u := unsafe.Slice(up, k1*m); len(u) >= m && m > 0; u = u[m:] {
		s0, s1, s2, s3 := dot4(u[:m], z0, z1, z2, z3)
		q0 -= float64(s0 * s0)
		q1 -= float64(s1 * s1)
		q2 -= float64(s2 * s2)
		q3 -= float64(s3 * s3)
	}
	*out = [4]float64{1 + q0, 1 + q1, 1 + q2, 1 + q3}
}

// t4 returns t = aᵀz for four columns, summed as score4 sums it (t4Vec).
func (sc *scorer) t4(z0, z1, z2, z3 []float64) (t [4]float64) {
	m := sc.m
	if m == 0 {
		return t
	}
	a := sc.a[:m]
	z0, z1, z2, z3 = z0[:m], z1[:m], z2[:m], z3[:m]
	t4Vec(&z0[0], &z1[0], &z2[0], &z3[0], &a[0], m, &t)
	return t
}

// t8 returns t = aᵀz for the eight columns of zs, summed as score4 sums
// it (t8Vec); each column holds at least m values.
func (sc *scorer) t8(zs *[8]*float64) (t [8]float64) {
	m := sc.m
	if m == 0 {
		return t
	}
	t8Vec(zs, &sc.a[:m][0], m, &t)
	return t
}

// t16 returns t = aᵀz for the sixteen columns of zs, summed as score4
// sums it (t16Vec); each column holds at least m values.
func (sc *scorer) t16(zs *[16]*float64) (t [16]float64) {
	m := sc.m
	if m == 0 {
		return t
	}
	t16Vec(zs, &sc.a[:m][0], m, &t)
	return t
}

// t16Go is t16Vec in Go: t4Go for the columns zs[0:4], …, zs[12:16].
func t16Go(zs *[16]*float64, a *float64, m int, out *[16]float64) {
	for g := 0; g < 16; g += 4 {
		t4Go(zs[g], zs[g+1], zs[g+2], zs[g+3], a, m, (*[4]float64)(out[g:g+4]))
	}
}

// t8Go is t8Vec in Go: t4Go for the columns zs[0:4], then for zs[4:8].
func t8Go(zs *[8]*float64, a *float64, m int, out *[8]float64) {
	t4Go(zs[0], zs[1], zs[2], zs[3], a, m, (*[4]float64)(out[:4]))
	t4Go(zs[4], zs[5], zs[6], zs[7], a, m, (*[4]float64)(out[4:]))
}

// t4Go is t4Vec in Go: out[q] = aᵀz_q for the four columns of m values at
// z0, …, z3, each summed in order (dot4).
func t4Go(z0, z1, z2, z3, a *float64, m int, out *[4]float64) {
	out[0], out[1], out[2], out[3] = dot4(unsafe.Slice(a, m), unsafe.Slice(z0, m), unsafe.Slice(z1, m), unsafe.Slice(z2, m), unsafe.Slice(z3, m))
}

// dot4 returns wᵀa0, wᵀa1, wᵀa2 and wᵀa3 over len(w) elements (the a's
// are at least as long), each summed in order (see score4 on the
// conversions).
func dot4(w, a0, a1, a2, a3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	a0, a1, a2, a3 = a0[:n], a1[:n], a2[:n], a3[:n]
	for l, x := range w {
		s0 += float64(x * a0[l])
		s1 += float64(x * a1[l])
		s2 += float64(x * a2[l])
		s3 += float64(x * a3[l])
	}
	return s0, s1, s2, s3
}

// dot1 returns wᵀa over len(w) elements (a is at least as long), summed
// in order as each of dot4's sums is.
func dot1(w, a []float64) (s float64) {
	a = a[:len(w)]
	for l, x := range w {
		s += float64(x * a[l])
	}
	return s
}

// t1 returns t = aᵀz for one column, summed as score1 sums it.
func (sc *scorer) t1(z []float64) float64 { return dot1(sc.a[:sc.m], z) }

// score1Primal is score1 in the primal form.
func (sc *scorer) score1Primal(z []float64) (c, t float64) {
	m := sc.m
	q := dot1(z, z) * sc.il
	for u := sc.u; len(u) >= m; u = u[m:] {
		s := dot1(u[:m], z)
		q -= float64(s * s)
	}
	return 1 + q, sc.t1(z)
}

func (e *sampleEngine) added(p *path, s int, g []float64, c, tc float64, refreshed bool) {
	e.mark[s] = markSelected
	e.selected = append(e.selected, int32(s))
	e.prune.added(p)
}

// col returns slot s's cached column.
func (e *sampleEngine) col(s int) []float64 {
	c, k := slotAt(e.m, s)
	return e.chunks[c][k : k+e.m : k+e.m]
}

// slotAt returns where the cache keeps slot s, for columns of m values:
// in chunks[c], from offset k; col and bestOfPruned's gathers use it.
func slotAt(m, s int) (c uint, k int) {
	// Unsigned, the chunk and offset are a shift and a mask (k first: the
	// gathers' loop then takes no more instructions than its own copy did).
	u := uint(s)
	k = int(u%cacheChunk) * m
	return u / cacheChunk, k
}

func (e *sampleEngine) global(s int) int     { return int(e.slots[s].glob) }
func (e *sampleEngine) stats(s int) colStats { return e.slots[s].st }

// scale returns the featureScale of γ and whether X has a column the search
// may draw (features).
func (e *sampleEngine) scale() featureScale { return newFeatureScale(e.in.gamma, e.features) }

// featuresVary reports whether some feature column of in is one the search
// may draw as non-constant, by the rule of the columns it reads
// (standardizeChunk, on a copy of the column: its scale std/γ is not 0; a
// column whose statistics fail counts too, for the search to report), reading the
// columns until it finds one: where none is, no feature can be drawn, so
// that β is 1 whatever γ, as in the exact search (whose γ² with γ > 1 made
// the path of a fit that can select sources only break down, blaming λ,
// from γ ≈ 1e8). The search itself reads only the columns it draws; this
// reads all of X only when every column but the last is constant, and is
// called only when γ > 1.
func featuresVary(in *inputs) bool {
	col := make([]float64, in.m)
	var st [1]colStats
	var f [1]float64
	for j := range in.d {
		in.x.column(j, col)
		if standardizeChunk(col, in.m, 1, in.gamma, st[:], f[:]) >= 0 || st[0].scale != 0 {
			return true
		}
	}
	return false
}
