package greedytl

import (
	"math"
)

// The screened exact search (docs/design.md §3, "Rows beyond the cache").
// Once the m×N' block of standardised candidates outgrows the caches, each
// step's product Zᵀg streams it from memory, and the step costs what
// reading 8·m·N' bytes costs. The screened search stores the block in
// float32 (4·m·N' bytes: half the memory and half the traffic), computes
// the products in float64 arithmetic from the float32 values (gemvT32),
// and keeps, beside the running c_i and t_i, bounds e_c and e_t on how far
// they can be from the values the float64 block would give:
//
//	|ẑ_il − z_il| ≤ 2⁻²⁴|z_il|, so |p̂_i − p_i| ≤ ε‖z_i‖‖g‖/√c,
//	ε = 2⁻²⁴ + (m+8)·2⁻⁵² (the float32 rounding and the float64 sum),
//
// whence, with e_i = ε‖z_i‖‖g‖/√c and τ = t_z/√c, the updates
// c_i ← c_i − p̂_i² and t_i ← t_i − p̂_i·τ move the bounds by
// e_c ← e_c + e_i(2|p̂_i| + e_i) and e_t ← e_t + e_i|τ|. (A refresh
// recomputes t̂ = Ẑᵀa and resets e_t.) Each step then bounds every gain,
// t²/c ∈ [(|t̂| − e_t)²/(ĉ + e_c), (|t̂| + e_t)²/(ĉ − e_c)], takes the
// largest lower bound L, and scores from the path (the scalar kernel of the
// sampled search, on the column standardised afresh from the input in
// float64) every candidate whose upper bound reaches L: the best of them,
// the lowest index on ties, is the best candidate. The bounds also carry a
// margin of 2⁻³⁰ of each quantity's scale (1 + ‖z_i‖²/λ for c, ‖z_i‖‖a‖ for
// t) for the float64 rounding by which the running values and the path's
// own differ, as the float64 search's do.
//
// So the screened search selects what the float64 search selects, except
// between candidates whose gains agree to about 1e-9, which neither search
// resolves (the tests compare both with Algorithm 1 and the brute-force
// definition at 1e-8). Its memory is 4·m·N' bytes for the block, O(N') for
// the bounds and m·block32Cache floats for the columns it scored.

// block32Mode forces the block's storage: block32Auto chooses by shape
// (useBlock32), block32Off keeps float64, block32On float32 (tests).
var block32Mode = block32Auto

const (
	block32Auto = iota
	block32Off
	block32On
)

// block32Bytes is the size of the float64 block above which the exact
// search stores it in float32: beyond it the block no longer stays in the
// cache between steps, and the float32 block's half traffic (and the
// vector kernel) make a step about twice as fast, while below it the
// float64 block's steps cost less than the screened ones' extra scoring.
// Measured crossover on the development machine: docs/design.md §3.
const block32Bytes = 4 << 20

// block32MinRows is the fewest rows at which the exact search stores its
// block in float32: the bounds add per-candidate work to every step (three
// passes over five N-vectors) that the traffic saved, 4·m bytes a
// candidate, repays only from m ≈ 128 on (at a 16 MB block, measured: 2×
// slower at m = 32, 1.4× at m = 64, even at m = 128, 2.3× faster at
// m = 2,000).
const block32MinRows = 256

// block32Cache is the number of standardised float64 columns the screened
// search keeps for scoring (the best candidates of a step are mostly
// those of the previous one).
const block32Cache = 64

// useBlock32 reports whether the exact search over n non-constant
// candidates and m examples stores its block in float32: when the machine
// has the vector kernel, m is at least block32MinRows, the float64 block
// would exceed block32Bytes, and every standardised value fits float32
// (|z| ≤ √m·max(1, γ) < 2¹⁰⁰).
func useBlock32(m, n int, gamma float64) bool {
	switch block32Mode {
	case block32Off:
		return false
	case block32On:
		return true
	}
	return haveKernel32 && m >= block32MinRows && 8*float64(m)*float64(n) > block32Bytes && math.Sqrt(float64(m))*max(1, gamma) < 0x1p100
}

// screen32 is the state of the screened search beyond the exact engine's.
type screen32 struct {
	ynorm float64 // ‖y‖
	eps   float64 // ε for m
	zn    []float64

	cols  map[int][]float64 // standardised float64 columns by slot
	order []int             // cols' slots, oldest first
	cand  []int
	sc    scorer
}

// start computes the norms ‖z_i‖ and ε, after the block and b = Ẑᵀy
// (writeBlock) are written.
func (s3 *screen32) start(e *exactEngine, y []float64) {
	m, n := e.m, e.n
	s3.ynorm = math.Sqrt(dot(y, y)) * (1 + 0x1p-40)
	s3.eps = 0x1p-24 + float64(m+8)*0x1p-52
	s3.zn = grow(s3.zn, n)
	rel := 1 + 0x1p-30 + float64(m)*0x1p-50 // sq is m·γ² up to the statistics' rounding
	for i, sq := range e.sq {
		s3.zn[i] = math.Sqrt(sq) * rel
	}
	if s3.cols == nil {
		s3.cols = make(map[int][]float64)
	}
}

// reset sets the bounds of the empty path: c_i = 1 + ‖z_i‖²/λ is exact up
// to rounding, t̂_i = b̂_i/λ off by at most ε‖y‖‖z_i‖/λ.
func (s3 *screen32) reset(e *exactEngine, lambda float64) {
	ey := s3.eps * s3.ynorm / lambda
	for i := range e.ec {
		e.ec[i] = 0
		e.et[i] = ey * s3.zn[i]
	}
	e.best = -1
}

// added applies the step's update to c_i and t_i and their bounds (see the
// top of the file): the float64 engine's added, from the float32 block.
func (s3 *screen32) added(e *exactEngine, p *path, g []float64, c, tc float64, refreshed bool) {
	m, n := e.m, e.n
	rc := math.Sqrt(c)
	if refreshed {
		gemvT32x2(e.p, e.t, e.z32, m, n, g, p.a) // t̂ = Ẑᵀa afresh, below
	} else {
		gemvT32(e.p, e.z32, m, n, g)
	}
	eg := s3.eps * math.Sqrt(dot(g[:m], g)) * (1 + 0x1p-40) / rc
	ir := 1 / rc
	tau := tc * rc
	atau := math.Abs(tau)
	for i, v := range e.p {
		pi := v * ir
		ci := e.c[i] - pi*pi // +Inf stays +Inf: selected
		ei := eg * s3.zn[i]
		e.c[i] = ci
		e.ec[i] += ei * (2*math.Abs(pi) + ei)
		if !refreshed {
			e.t[i] -= pi * tau
			e.et[i] += ei * atau
		}
	}
	if refreshed {
		ea := s3.eps * math.Sqrt(dot(p.a, p.a)) * (1 + 0x1p-40)
		for i := range e.et {
			e.et[i] = ea * s3.zn[i]
		}
	}
	e.best = -1
}

// pick sets e.best to the slot with the largest gain among the unselected
// candidates, as the path scores them (−1 when no gain is positive): it
// bounds every gain, and scores those whose upper bound reaches the
// largest lower bound.
func (s3 *screen32) pick(e *exactEngine, p *path) error {
	il := 1 / p.lambda
	const margin = 0x1p-30
	ta := margin * math.Sqrt(dot(p.a, p.a))
	// The largest lower bound L = max (|t̂| − e_t)²/(ĉ + e_c), dividing only
	// for candidates that pass the cheaper test (as scan does); L is
	// always the bound of some candidate.
	L := -1.0
	for i, c := range e.c {
		if math.IsInf(c, 1) {
			continue
		}
		zn := s3.zn[i]
		tlo := math.Abs(e.t[i]) - (e.et[i] + ta*zn)
		if !(tlo > 0) {
			L = max(L, 0)
			continue
		}
		chi := c + e.ec[i] + margin*(1+zn*zn*il)
		if tt := tlo * tlo; tt > L*chi {
			L = max(L, tt/chi*(1-0x1p-40))
		}
	}
	if L < 0 {
		e.best = -1 // every candidate is selected
		return nil
	}
	// The candidates whose upper bound (|t̂| + e_t)²/(ĉ − e_c) reaches L,
	// by a test that errs towards admitting.
	cand := s3.cand[:0]
	for i, c := range e.c {
		if math.IsInf(c, 1) {
			continue
		}
		zn := s3.zn[i]
		thi := math.Abs(e.t[i]) + e.et[i] + ta*zn
		clo := c - e.ec[i] - margin*(1+zn*zn*il)
		if !(thi*thi*(1+0x1p-38) < L*clo) {
			cand = append(cand, i)
		}
	}
	s3.cand = cand
	if len(cand) == 1 && L > 0 {
		// Its gain is at least L > 0, and no other can reach L.
		e.best = cand[0]
		return nil
	}
	s3.sc.load(p)
	best, bestGain := -1, 0.0
	for _, i := range cand {
		c, t := s3.sc.score1(s3.column(e, i))
		if err := p.usable(c, t); err != nil {
			return err
		}
		// cand ascends: a later candidate wins only with a larger gain.
		if gain := t * t / c; gain > bestGain {
			best, bestGain = i, gain
		}
	}
	e.best = best
	return nil
}

// column returns slot s standardised in float64 from the input, exactly
// as the float64 block would hold it, keeping the last block32Cache such
// columns. The result must not be modified.
func (s3 *screen32) column(e *exactEngine, s int) []float64 {
	if v, ok := s3.cols[s]; ok {
		return v
	}
	var v []float64
	if len(s3.order) >= block32Cache {
		old := s3.order[0]
		v = s3.cols[old]
		delete(s3.cols, old)
		s3.order = append(s3.order[:0], s3.order[1:]...)
	} else {
		v = make([]float64, e.m)
	}
	j := int(e.glob[s])
	b := &e.in.h
	if j < e.in.d {
		b = &e.in.x
	} else {
		j -= e.in.d
	}
	copy(v, e.standardized(b, j, s))
	s3.cols[s] = v
	s3.order = append(s3.order, s)
	return v
}

// release forgets the columns (they belong to one fit's input).
func (s3 *screen32) release() {
	clear(s3.cols)
	s3.order = s3.order[:0]
	s3.sc.a, s3.sc.u = nil, nil
}
