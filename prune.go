package greedytl

import "math"

// Pruned scoring: most of a step's candidates need not be scored in full.
// For a centred column z, c = 1 + zᵀĜz ≥ 1 + μ‖z‖² with μ = 1/(λ + ρ), ρ
// any upper bound on the largest eigenvalue of K_S (Ĝ's eigenvalues on
// the centred vectors are 1/(λ + the eigenvalues of K_S), §3), so the
// gain t²/c of a candidate is at most t²/(1 + μ‖z‖²), and t = aᵀz costs m
// multiply–adds against the m²/2 (dual) or (k+2)·m (primal) of c. A
// candidate whose bound falls below the best gain scored so far cannot
// win, nor tie, and is never scored in full. At the paper's shape (m = 20,
// 59 candidates, 60 steps) about one candidate in five is scored in full
// (docs/design.md §4).
//
// The bound must hold for the c that the scalar kernel computes, from the
// stored Ĝ (or U) and in floating point, not only for the exact one; so
// pruneBound halves the quadratic term, and gives no bound (every
// candidate is scored) when K_S + λI is so ill-conditioned (κ > pruneCond)
// that the stored Ĝ's errors (about κ·u·‖Ĝ‖ since the last refresh, u =
// 2⁻⁵³) could approach half of μ. Every candidate scored in full is
// checked against its bound, and a step where one falls below it is
// scored again without pruning (and pruning stops for the path).

// pruning enables bestOfPruned; tests turn it off to compare.
var pruning = true

// pruneCond is the largest condition number (λ + ρ)/λ of K_S + λI on the
// centred vectors at which bestOfPruned prunes: the stored Ĝ's error,
// about κ·u/λ = κ²·u·μ, is then about 1e-6·μ at most, far inside the
// margin of one half.
const pruneCond = 1e5

// pruneState is the sampled search's record of the bound ρ ≥ λ_max(K_S):
// in the primal form Gershgorin's bound on the Gram matrix Z_SᵀZ_S of the
// selected columns, kept up to date as columns join (O(k·m) a step), and
// in the dual form Gershgorin's bound on K_S itself (O(m²) a step).
type pruneState struct {
	gramAbs []float64 // gramAbs[j] = Σ_l |z_jᵀz_l| over the selected columns
	off     bool      // a scored candidate broke its bound: no more pruning on this path
	scored  int       // candidates scored in full by bestOfPruned (for tests)

	// scratch
	t, hi, clo []float64
	rows       []float64 // rho's row sums
	group      []int
}

// reset starts a new path.
func (ps *pruneState) reset() {
	ps.gramAbs, ps.off = ps.gramAbs[:0], false
}

// added updates the Gram bound after the path's last selected column
// joined.
func (ps *pruneState) added(p *path) {
	if !p.primal {
		return // rho reads K_S from now on: the path stays dual
	}
	m, k := p.m, len(p.sel)
	z := p.selZ[(k-1)*m : k*m]
	var sum float64
	for j := 0; j < k-1; j++ {
		d := math.Abs(dot(p.selZ[j*m:j*m+m], z))
		ps.gramAbs[j] += d
		sum += d
	}
	ps.gramAbs = append(ps.gramAbs, sum+dot(z, z))
}

// rho returns ρ ≥ λ_max(K_S) for path p: Gershgorin's bound on Z_SᵀZ_S
// (kept by added) in the primal form, on K_S = (K_S + λI + β11ᵀ) − λI −
// β11ᵀ in the dual form.
func (ps *pruneState) rho(p *path) float64 {
	var rho float64
	if p.primal {
		for _, v := range ps.gramAbs {
			rho = max(rho, v)
		}
		return rho
	}
	m := p.m
	ps.rows = grow(ps.rows, m)
	rowAbsDevs(p.kl, m, p.lambda, p.beta, ps.rows)
	for _, s := range ps.rows {
		rho = max(rho, s)
	}
	return rho
}

// rowAbsDevsGo is rowAbsDevs' definition: out[i] = Σ_l |a_il − β| (by
// absDevSumGo) + |a_ii − λ − β| − |a_ii − β| for each row i of the
// row-major m×m a = K_S + λI + β11ᵀ: Gershgorin's sum of row i of K_S,
// whose diagonal entry a holds plus λ + β.
func rowAbsDevsGo(a []float64, m int, lambda, beta float64, out []float64) {
	for i := 0; i < m; i++ {
		row := a[i*m : i*m+m]
		s := absDevSumGo(row, beta)
		s += math.Abs(row[i]-lambda-beta) - math.Abs(row[i]-beta)
		out[i] = s
	}
}

// absDevSumGo returns Σ_l |x[l] − beta| in the order of rowAbsDevsAVX's
// row sums (score_amd64.s, ABSDEV8 … ABSDEV1): eight interleaved partial
// sums over blocks of eight, one block of four more into the first four,
// those paired (s_q + s_{q+4}), then (t0 + t2) + (t1 + t3), then the last
// elements in order; within n·u of the exact sum, relatively, which is
// all its one use, a bound (pruneState.rho), needs.
func absDevSumGo(x []float64, beta float64) float64 {
	var s [8]float64
	l := 0
	for ; l+8 <= len(x); l += 8 {
		for q := range s {
			s[q] += math.Abs(x[l+q] - beta)
		}
	}
	if l+4 <= len(x) {
		for q := range 4 {
			s[q] += math.Abs(x[l+q] - beta)
		}
		l += 4
	}
	var t [4]float64
	for q := range t {
		t[q] = s[q] + s[q+4]
	}
	sum := (t[0] + t[2]) + (t[1] + t[3])
	for ; l < len(x); l++ {
		sum += math.Abs(x[l] - beta)
	}
	return sum
}

// pruneBound returns μ/2, the factor by which bestOfPruned bounds the
// quadratic term: c ≥ 1 + (μ/2)·‖z‖²; 0 when there is no usable bound.
func (e *sampleEngine) pruneBound(p *path) float64 {
	if !pruning || e.prune.off || len(p.sel) == 0 {
		return 0 // with no column selected every c is 1 + ‖z‖²/λ: scoring is cheap
	}
	rho := e.prune.rho(p)
	if !((p.lambda+rho)/p.lambda <= pruneCond) {
		return 0
	}
	return 0.5 / (p.lambda + rho)
}

// bestOfPruned is bestOf with the candidates whose bound on the gain falls
// below the best gain scored so far left unscored; half2 = μ/2 > 0 (see
// pruneBound). It computes t for every candidate with the scalar kernel's
// arithmetic, scores first the four candidates with the largest bounds
// (one call of the four-lane kernel, which scoring one alone costs too),
// then, in groups of four, every candidate whose bound reaches the best
// gain so far, and returns what bestOfScalar returns: a candidate scored
// beyond need cannot change the selection, whose order of offers does not
// matter either.
func (e *sampleEngine) bestOfPruned(p *path, cand []int, half2 float64) (int, error) {
	m, n := e.m, len(cand)
	ps := &e.prune
	e.sc.load(p)
	ps.t, ps.hi = grow(ps.t, n), grow(ps.hi, n)
	ts, hi := ps.t[:n], ps.hi[:n]
	// t sixteen candidates at a time, then eight; with the vector kernel
	// a last group of nine to fifteen in one call of sixteen, of fewer
	// than eight in one of eight, its spare lanes repeating the last
	// candidate (each lane is summed apart).
	k := 0
	if m > 0 {
		var zs [16]*float64
		// The columns' first values as col finds them (slotAt), its chunks
		// and m in locals.
		chunks := e.chunks
		for ; k+16 <= n || haveAVX && k+8 < n; k += 16 {
			for i := range zs {
				c, o := slotAt(m, cand[min(k+i, n-1)])
				zs[i] = &chunks[c][o]
			}
			if t := e.sc.t16(&zs); k+16 <= n {
				*(*[16]float64)(ts[k:]) = t // inline moves, not memmove
			} else {
				copy(ts[k:], t[:])
			}
		}
		zs8 := (*[8]*float64)(zs[:8])
		for ; k+8 <= n || haveAVX && k < n; k += 8 {
			for i := range zs8 {
				c, o := slotAt(m, cand[min(k+i, n-1)])
				zs8[i] = &chunks[c][o]
			}
			t := e.sc.t8(zs8)
			copy(ts[k:min(k+8, n)], t[:])
		}
	}
	for ; k+4 <= n; k += 4 {
		s := cand[k : k+4]
		t := e.sc.t4(e.col(s[0]), e.col(s[1]), e.col(s[2]), e.col(s[3]))
		copy(ts[k:k+4], t[:])
	}
	for ; k < n; k++ {
		ts[k] = e.sc.t1(e.col(cand[k]))
	}
	// The squared norm of a standardised column is m·γ² (features) or m
	// (sources), up to rounding that the margin of one half covers. The
	// bound is t²·w with w = (1 + 6u)/c_lo: t², w and their product are
	// rounded once each, and the scalar kernel's gain fl(fl(t²)/c) at
	// most by (1 + u)², so (1 + 6u) covers both.
	ps.clo = grow(ps.clo, n)
	clo := ps.clo[:n]
	cs := 1 + half2*float64(m)
	cf := 1 + half2*float64(m)*e.in.gamma*e.in.gamma
	ws, wf := (1+6*unitRoundoff)/cs, (1+6*unitRoundoff)/cf
	mixed := e.in.d > 0 && cf != cs
	var top [4]int // the candidates with the four largest bounds, largest first
	nt := 0
	// A bound enters top when it exceeds the fourth largest, low; −Inf
	// while top has room (every bound is finite or NaN, which returns).
	low := math.Inf(-1)
	for k, t := range ts {
		c, w := cs, ws
		if mixed && e.slots[cand[k]].glob < int32(e.in.d) {
			c, w = cf, wf
		}
		h := t * t * w
		if !(h <= math.MaxFloat64) {
			return e.bestOfScalar(p, cand) // NaN or overflow: no pruning
		}
		clo[k], hi[k] = c, h
		if h > low || nt < 4 {
			j := min(nt, 3)
			nt = min(nt+1, 4)
			for ; j > 0 && hi[top[j-1]] < h; j-- {
				top[j] = top[j-1]
			}
			top[j] = k
			if nt == 4 {
				low = hi[top[3]]
			}
		}
	}
	best, bestGain := -1, -1.0
	broken := false
	offer := func(k int, c, t float64) {
		ps.scored++
		if c < clo[k] {
			broken = true
		}
		s := cand[k]
		gain := t * t / c
		if gain > bestGain || (gain == bestGain && e.slots[s].glob < e.slots[best].glob) {
			best, bestGain = s, gain
		}
	}
	group := ps.group[:0]
	// flush scores the group; with the vector kernel, a group of fewer
	// than four in one call, its last candidate repeated in the spare
	// lanes (which compute each lane apart).
	flush := func() {
		if len(group) == 4 || haveAVX && len(group) > 0 {
			last := group[len(group)-1]
			for len(group) < 4 {
				group = append(group, last)
			}
			c, t := e.sc.score4(e.col(cand[group[0]]), e.col(cand[group[1]]), e.col(cand[group[2]]), e.col(cand[group[3]]))
			for i, k := range group {
				if i == 0 || k != group[i-1] {
					offer(k, c[i], t[i])
				}
			}
		} else {
			for _, k := range group {
				c, t := e.sc.score1(e.col(cand[k]))
				offer(k, c, t)
			}
		}
		group = group[:0]
	}
	group = append(group, top[:nt]...)
	flush()
	for _, k := range top[:nt] {
		hi[k] = math.Inf(-1) // scored: below bestGain, which starts at −1
	}
	for k, h := range hi {
		if h < bestGain {
			continue
		}
		if group = append(group, k); len(group) == 4 {
			flush()
		}
	}
	flush()
	ps.group = group
	if broken {
		ps.off = true
		return e.bestOfScalar(p, cand)
	}
	if best < 0 {
		return e.bestOfScalar(p, cand) // no comparable gain: bestOfScalar's error
	}
	return best, nil
}
