package greedytl

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// sampleEngine is the randomised search of GreedyTL-59: each step draws r
// candidates uniformly without replacement from the unselected non-constant
// columns and scores them directly (u = G z, c = 1 + zᵀu, t = aᵀz, gain
// λ t²/c), in O(r·m²) time independent of N.
//
// Columns are read and standardised lazily, the first time they are drawn,
// and cached. Draws are uniform over all N candidates and rejected when the
// column is constant, selected or already drawn in this step, which leaves
// a uniform sample of the valid ones. When at most r valid candidates can
// remain, the step scores all of them instead.
type sampleEngine struct {
	in   *inputs
	m, n int // n = N, the number of candidate columns
	lo   int // first candidate that can be non-constant: d when γ = 0, else 0
	r    int
	seed uint64
	rng  *rand.Rand

	// slotOf[j] (read with slot, written with setSlot) is 0 for a column
	// not read yet, s+1 for cache slot s, and negative for a constant
	// column: -gen once counted by path generation gen, constUncounted
	// before (and pending while a draw awaits reading).
	slotArr []int32         // slotOf for small N
	slotMap map[int32]int32 // slotOf for large N (no O(N) set-up)
	chunks  [][]float64     // cached standardised columns: slot s is in chunk s/cacheChunk
	slots   []slotInfo

	allKnown  bool    // every column has been read
	nConstAll int     // number of constant columns, when allKnown
	valid     []int32 // non-constant slots in candidate order, when allKnown

	gen    int32 // current path generation (from 1)
	nConst int   // constant columns counted by the current path
	step   int64

	// scratch
	cand, pend, local []int
	buf               []float64
	st                [sampleChunk]colStats
	sq, tmp           [sampleChunk]float64
}

const constUncounted = math.MinInt32

// sampleChunk is the number of columns standardised together.
const sampleChunk = 64

// cacheChunk is the number of cached columns per allocation: the cache
// grows without copying.
const cacheChunk = 256

// slotInfo describes one cached column.
type slotInfo struct {
	st     colStats
	glob   int32 // candidate index
	selGen int32 // generation of the path that selected the slot
	drawn  int64 // the step that last drew the slot
}

// slotArrayMax is the largest N for which slotOf is an array; above it a
// map avoids touching O(N) memory (whose page faults would cost more than
// the fit). A variable so that tests can exercise both.
var slotArrayMax = 1 << 16

func newSample(in *inputs, r int, seed uint64) *sampleEngine {
	lo := 0
	if in.gamma == 0 {
		lo = in.d // every feature is constant
	}
	var arr []int32
	var mp map[int32]int32
	if in.numCand() <= slotArrayMax {
		arr = make([]int32, in.numCand())
	} else {
		mp = make(map[int32]int32)
	}
	return &sampleEngine{
		slotArr: arr,
		slotMap: mp,
		in:      in,
		lo:      lo,
		m:       in.m,
		n:       in.numCand(),
		r:       r,
		seed:    seed,
	}
}

func (e *sampleEngine) reset(lambda float64) error {
	// Every non-constant column has zᵀz = m (γ²m for features).
	maxq := float64(e.m) * math.Max(1, e.in.gamma*e.in.gamma) / lambda
	if !(maxq < 1e100) {
		return errSmallLambda(lambda, maxq)
	}
	e.gen++
	e.nConst = e.lo
	if e.allKnown {
		e.nConst = e.nConstAll
	}
	e.rng = rand.New(rand.NewPCG(e.seed, e.seed))
	return nil
}

// resolvePending reads and standardises the columns in e.pend (none read
// before, no repeats), caching the non-constant ones. Features and sources
// are each read in one batch.
func (e *sampleEngine) resolvePending() error {
	m := e.m
	for _, part := range []struct {
		b         *block
		gamma     float64
		off, stop int
	}{{&e.in.x, e.in.gamma, 0, e.in.d}, {&e.in.h, 1, e.in.d, e.n}} {
		js := e.local[:0]
		for _, j := range e.pend {
			if j >= part.off && j < part.stop {
				js = append(js, j-part.off)
			}
		}
		e.local = js
		if len(js) == 0 {
			continue
		}
		if need := len(js) * m; cap(e.buf) < need {
			e.buf = make([]float64, need)
		}
		buf := e.buf[:len(js)*m]
		part.b.gather(js, buf)
		for k0 := 0; k0 < len(js); k0 += sampleChunk {
			nc := min(sampleChunk, len(js)-k0)
			chunk := buf[k0*m : (k0+nc)*m]
			if k := standardizeChunk(chunk, m, nc, part.gamma, e.st[:], e.sq[:], e.tmp[:]); k >= 0 {
				return badColumn(part.b, js[k0+k])
			}
			for k := 0; k < nc; k++ {
				j := part.off + js[k0+k]
				if e.st[k].scale == 0 {
					e.setSlot(j, constUncounted)
					continue
				}
				s := len(e.slots)
				if s/cacheChunk == len(e.chunks) {
					e.chunks = append(e.chunks, make([]float64, cacheChunk*m))
				}
				copy(e.col(s), chunk[k*m:k*m+m])
				e.slots = append(e.slots, slotInfo{st: e.st[k], glob: int32(j)})
				e.setSlot(j, int32(s+1))
			}
		}
	}
	return nil
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
	e.step++
	if e.n-len(p.sel)-e.nConst <= e.r {
		return e.pickAll(p)
	}
	cand := e.cand[:0]
	for len(cand) < e.r {
		e.pend = e.pend[:0]
		for len(cand)+len(e.pend) < e.r {
			j := e.lo + e.rng.IntN(e.n-e.lo)
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
			if si := &e.slots[s]; si.selGen == e.gen || si.drawn == e.step {
				continue
			} else {
				si.drawn = e.step
			}
			cand = append(cand, s)
		}
		e.unpend()
		if err := e.resolvePending(); err != nil {
			return 0, err
		}
		for _, j := range e.pend {
			if s := e.slot(j); s > 0 {
				e.slots[s-1].drawn = e.step
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
	best, bestGain := -1, -1.0
	for _, s := range cand {
		best, bestGain = e.better(p, s, best, bestGain)
	}
	return checked(p, best)
}

// pending marks, in slotOf, a column drawn in this step and not read yet.
const pending = math.MinInt32 + 1

// unpend clears the pending marks of e.pend.
func (e *sampleEngine) unpend() {
	for _, j := range e.pend {
		e.setSlot(j, 0)
	}
}

// checked returns best, or an error if candidates were scored but none got
// a comparable gain (which takes a NaN in G or a).
func checked(p *path, best int) (int, error) {
	if best < 0 {
		return 0, fmt.Errorf("greedytl: numerical breakdown at step %d (no candidate has a finite gain): λ = %g is too small for these data", len(p.sel)+1, p.lambda)
	}
	return best, nil
}

// pickAll scores every unselected non-constant candidate.
func (e *sampleEngine) pickAll(p *path) (int, error) {
	best, bestGain := -1, -1.0
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
			return 0, errNoCandidates
		}
	}
	scored := false
	for _, s := range e.valid {
		if e.slots[s].selGen != e.gen {
			scored = true
			best, bestGain = e.better(p, int(s), best, bestGain)
		}
	}
	if !scored {
		return -1, nil
	}
	return checked(p, best)
}

// better scores slot s and returns it with its gain t²/c if that beats
// bestGain (ties: lower candidate index), else best and bestGain.
func (e *sampleEngine) better(p *path, s, best int, bestGain float64) (int, float64) {
	z := e.col(s)
	gemv(p.g, p.G, e.m, e.m, z)
	c := 1 + dot(z, p.g)
	t := dot(z, p.a)
	gain := t * t / c
	if gain > bestGain || (gain == bestGain && e.slots[s].glob < e.slots[best].glob) {
		return s, gain
	}
	return best, bestGain
}

func (e *sampleEngine) added(p *path, s int, g []float64, c, tc float64, refreshed bool) {
	e.slots[s].selGen = e.gen
}

func (e *sampleEngine) col(s int) []float64 {
	c, k := e.chunks[s/cacheChunk], (s%cacheChunk)*e.m
	return c[k : k+e.m : k+e.m]
}

func (e *sampleEngine) global(s int) int     { return int(e.slots[s].glob) }
func (e *sampleEngine) stats(s int) colStats { return e.slots[s].st }
