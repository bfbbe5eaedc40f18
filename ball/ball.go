package ball

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/greedytl/greedytl/standardize"
)

// scaledNorm returns ||v||₂ as nu·2^e. When v's sum of squares, in order,
// neither overflows nor may have underflowed float64 (the usual case: it is
// at least standardize.TinySumSquares, the bound below which squares may
// have underflowed, that Std rescales below too), nu is its square root, the
// plain sum's bits that ball's callers' results were recorded with, and
// e = 0. Otherwise e is the exponent of v's largest
// magnitude (math.Frexp) and nu the norm of 2^-e·v, whose components are
// below 1 in magnitude, the largest at least ½: nu lies in [½, √len(v)],
// whatever v's magnitude, even where ||v||₂ itself is not a float64
// (above math.MaxFloat64, or below the smallest subnormal).
func scaledNorm(v []float64) (nu float64, e int) {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	if !(ss > math.MaxFloat64 || ss < standardize.TinySumSquares) {
		return math.Sqrt(ss), 0 // NaN too
	}
	var big float64
	for _, x := range v {
		big = max(big, math.Abs(x))
	}
	if big == 0 || math.IsInf(big, 1) {
		return big, 0
	}
	_, e = math.Frexp(big)
	ss = 0
	for _, x := range v {
		u := math.Ldexp(x, -e)
		ss += u * u
	}
	return math.Sqrt(ss), e
}

// rescale writes into dst v·tau/||v||₂, ||v||₂ = nu·2^e as scaledNorm gives it
// (nu > 0): as f = tau/||v||₂ times each component when f and tau/nu are
// normal float64s (with e = 0 the plain route's bits), otherwise from
// 2^-e·v, so that neither the norm nor the factor need be a float64.
func rescale(dst, v []float64, tau, nu float64, e int) {
	// tau/nu itself must be normal too: a subnormal quotient has lost
	// bits that scaling it up by 2^-e does not restore.
	q := tau / nu
	if f := math.Ldexp(q, -e); e == 0 || (q >= 0x1p-1022 && f >= 0x1p-1022 && f <= math.MaxFloat64) {
		for i, x := range v {
			dst[i] = f * x
		}
		return
	}
	for i, x := range v {
		dst[i] = math.Ldexp(x, -e) / nu * tau
	}
}

// Rescale writes into dst v scaled to Euclidean norm tau (v·tau/||v||₂)
// and reports whether v was not zero (a zero v leaves dst unchanged), at
// any magnitude: a norm whose square overflows or underflows float64, or
// that is itself beyond float64's range, is computed by scaling v by a
// power of two. dst may be v. It panics when the lengths differ or tau is
// negative, NaN or +Inf (programmer errors: no vector has norm +Inf).
func Rescale(dst, v []float64, tau float64) bool {
	checkProjectArgs("Rescale", dst, v, tau)
	if math.IsInf(tau, 1) {
		panic("ball: Rescale: tau is +Inf")
	}
	nu, e := scaledNorm(v)
	if nu == 0 {
		return false
	}
	rescale(dst, v, tau, nu, e)
	return true
}

// ProjectL2 writes into dst the Euclidean projection of v onto the ball
// {x : ||x||₂ ≤ tau}: v itself when it lies in the ball, v·tau/||v||₂
// otherwise, at any magnitude (as Rescale). dst may be v. It panics when
// the lengths differ or tau is negative or NaN (programmer errors); v must
// be finite, as for ProjectL1 (for a finite tau, 0 included, a NaN or ±Inf
// component gives NaN components: see the package's doc).
func ProjectL2(dst, v []float64, tau float64) {
	checkProjectArgs("ProjectL2", dst, v, tau)
	nu, e := scaledNorm(v)
	if nu <= math.Ldexp(tau, -e) { // ||v||₂ = nu·2^e ≤ tau
		copy(dst, v)
		return
	}
	rescale(dst, v, tau, nu, e)
}

// ProjectL1 writes into dst the Euclidean projection of v onto the ball
// {x : ||x||₁ ≤ tau}: v itself when it lies in the ball; otherwise the
// soft-thresholding x_i = sign(v_i)·max(|v_i| − θ, 0) whose threshold θ > 0
// makes ||x||₁ = tau (Duchi, Shalev-Shwartz, Singer and Chandra, "Efficient
// projections onto the l1-ball for learning in high dimensions", ICML 2008).
// θ is found by Condat's algorithm (see L1Projector), and the components
// are computed relative to max_j |v_j| (see shiftedThreshold), each within
// 4·n rounding errors of tau (4·n·2⁻⁵²·tau) of the exact projection's
// however large v is against tau, components near MaxFloat64 whose sums
// overflow included (TestProjectL1Accurate checks this against exact rational
// arithmetic). dst may be v. It panics when the lengths differ or tau is negative or NaN
// (programmer errors); v must be finite (for τ > 0 finite, a NaN or ±Inf component
// gives NaN components; τ = 0 gives zeros: see the package's doc).
func ProjectL1(dst, v []float64, tau float64) {
	var p L1Projector
	p.Project(dst, v, tau)
}

// L1Projector projects onto L1 balls (as ProjectL1) with scratch
// buffers reused from call to call, and finds each threshold from the
// previous call's (see thresholdFrom): in a projected descent, consecutive
// thresholds are close. The zero value is ready to use. It is not safe for
// concurrent use.
type L1Projector struct {
	active, waiting []float64
	theta           float64 // the last threshold
	warm            bool    // theta holds one
}

// Project is ProjectL1, with p's buffers and warm start.
func (p *L1Projector) Project(dst, v []float64, tau float64) {
	checkProjectArgs("ProjectL1", dst, v, tau)
	var l1, q float64 // ||v||₁ and max_j |v_j| (NaN when a component is NaN)
	for _, x := range v {
		a := math.Abs(x)
		l1 += a
		if a > q || a != a {
			q = a
		}
	}
	switch {
	case l1 <= tau:
		copy(dst, v)
		return
	case tau == 0:
		clear(dst)
		return
	}
	// The shifted search starts from θ: found first on |v_j| (from the
	// last threshold, warm), so that its fixed point, which can depend on
	// the start where a |v_j| ties with θ to rounding, and LastThreshold
	// are those of Threshold.
	theta := p.Threshold(v, tau)
	if math.IsInf(q, 0) || math.IsNaN(q) {
		SoftThreshold(dst, v, theta) // NaN components, as the package's doc says
	} else if rel, ok := shiftedThreshold(v, tau, q, theta-q); ok {
		softThresholdShifted(dst, v, q, rel)
	} else {
		SoftThreshold(dst, v, theta)
	}
}

// shiftedThreshold returns θ − q, for the threshold θ of the projection of
// v onto the L1 ball of radius tau (||v||₁ > tau > 0) and q = max_j |v_j|,
// by thresholdFrom's Newton steps from guess on the shifted values
// u_j = |v_j| − q ≤ 0. The projection's components are u_j − (θ − q): the
// kept u_j and θ − q all lie within tau of 0 (θ ≥ q − tau), so they are
// accurate to rounding errors of tau, where |v_j| − θ cancels to nothing
// once θ dwarfs tau ((1, 1, −1) onto the ball of radius 1e-16 gave 0).
// The steps start at or above −tau (guess, or θ = q − tau in its place
// when it lies below, or above every u_j), never drop below −2·tau, and
// so sum only u_j in (−2·tau, 0]; should n·min(q, 2·tau) + tau overflow,
// they run on the u_j and tau scaled by a power of two (exactly, but for
// u_j of magnitude below 2^-1022·n, negligible against a tau so large),
// else on the values themselves. ok is false if the steps have not settled
// (or, which the scaling rules out, reached ±Inf or NaN).
func shiftedThreshold(v []float64, tau, q, guess float64) (rel float64, ok bool) {
	start := math.Max(-q, -tau) // ≤ θ − q, as θ ≥ max(0, q − tau)
	s := 0
	if b := float64(len(v))*math.Min(q, 2*tau) + tau; b > math.MaxFloat64 {
		s = bits.Len(uint(len(v))+1) + 1 // 2^s ≥ 2(n+1)
	}
	tauS := math.Ldexp(tau, -s)
	rel = math.Ldexp(start, -s)
	if guess >= start { // a NaN guess too starts at start
		rel = math.Ldexp(guess, -s)
	}
	for range len(v) + 2 {
		var sum float64
		var count int
		for _, x := range v {
			if u := math.Ldexp(math.Abs(x)-q, -s); u > rel {
				sum += u
				count++
			}
		}
		if count == 0 { // rel is at or above every u_j: start from below
			rel = math.Ldexp(start, -s)
			continue
		}
		next := (sum - tauS) / float64(count)
		if math.IsInf(next, 0) || math.IsNaN(next) {
			return 0, false
		}
		if next == rel {
			return math.Max(math.Ldexp(rel, s), -q), true
		}
		rel = next
	}
	return 0, false
}

// softThresholdShifted writes into dst the soft-thresholding of v at
// θ = q + rel, as (|v_i| − q) − rel (see shiftedThreshold).
func softThresholdShifted(dst, v []float64, q, rel float64) {
	for i, x := range v {
		a := (math.Abs(x) - q) - rel
		if a <= 0 {
			dst[i] = 0
			continue
		}
		dst[i] = math.Copysign(a, x)
	}
}

// SoftThreshold writes into dst the soft-thresholding of v at θ ≥ 0:
// dst_i = sign(v_i)·max(|v_i| − θ, 0), exactly 0 where |v_i| ≤ θ. dst may
// be v. It panics when the lengths differ (a programmer error, as in
// ProjectL1); θ is not checked.
func SoftThreshold(dst, v []float64, theta float64) {
	if len(dst) != len(v) {
		panic(fmt.Sprintf("ball: SoftThreshold: len(dst) = %d, len(v) = %d", len(dst), len(v)))
	}
	for i, x := range v {
		a := math.Abs(x) - theta
		if a <= 0 {
			dst[i] = 0
			continue
		}
		dst[i] = math.Copysign(a, x)
	}
}

// LastThreshold returns the threshold θ of the last projection that found
// one (by Project, or recorded by SetLastThreshold), and whether there is
// one.
func (p *L1Projector) LastThreshold() (theta float64, ok bool) { return p.theta, p.warm }

// SetLastThreshold records θ as the last threshold, the start of the next
// projection's search: for a caller that soft-thresholds by itself (as
// MultiKT's sparse steps do) and keeps p's warm start.
func (p *L1Projector) SetLastThreshold(theta float64) { p.theta, p.warm = theta, true }

// Threshold returns the threshold θ of the projection of v onto the L1
// ball of radius tau, for ||v||₁ > tau > 0: by Newton's method from the
// previous call's threshold (thresholdFrom), or, on the first call and
// should that not settle, by Condat's algorithm (threshold).
func (p *L1Projector) Threshold(v []float64, tau float64) float64 {
	theta, ok := 0.0, false
	if p.warm {
		theta, ok = thresholdFrom(v, tau, p.theta)
	}
	if !ok {
		theta = p.threshold(v, tau)
	}
	p.theta, p.warm = theta, true
	return theta
}

// thresholdFrom returns the threshold θ of the projection of v onto the L1
// ball of radius tau (||v||₁ > tau > 0) by Newton's method from guess on the
// convex, decreasing, piecewise linear φ(θ) = Σ_j max(|v_j| − θ, 0) − tau:
// θ ← (Σ_{j∈A} |v_j| − tau)/|A|, A = {j : |v_j| > θ}. From a θ above the
// root one step lands below it (φ is convex); from below, the steps
// increase θ and shrink A until A no longer changes, and then θ is exactly
// the threshold of the definition. Each step is one pass over v, and a
// guess near the root (the previous projection's threshold in a descent)
// needs two or three. ok is false, and θ meaningless, if it has not
// settled after len(v)+2 steps (rounding can in principle make it cycle).
func thresholdFrom(v []float64, tau, guess float64) (theta float64, ok bool) {
	theta = math.Max(guess, 0)
	for range len(v) + 2 {
		var sum float64
		var count int
		for _, x := range v {
			if a := math.Abs(x); a > theta {
				sum += a
				count++
			}
		}
		if count == 0 { // the guess is at or above max |v_j|: start from 0
			theta = 0
			continue
		}
		next := (sum - tau) / float64(count)
		if next == theta {
			return math.Max(theta, 0), true
		}
		theta = next
	}
	return 0, false
}

// threshold returns the threshold θ ≥ 0 of the projection of v onto the L1
// ball of radius tau, for ||v||₁ > tau > 0: θ = (Σ_{j∈A} |v_j| − tau)/|A|,
// A the set of the |v_j| that exceed θ. It uses the algorithm of Condat
// ("Fast projection onto the simplex and the l1 ball", Math. Program.
// 2016) on u = |v|: one pass keeps a candidate set whose running threshold
// ρ = (Σ − tau)/count only grows, setting aside the values it passes over;
// those that exceed ρ rejoin, and a last sweep drops the candidates at or
// below ρ until none is left. Its cost is O(n) in practice (O(n²) in the
// worst case, against O(n log n) for sorting), and it makes no random
// choices.
func (p *L1Projector) threshold(v []float64, tau float64) float64 {
	act, wait := p.active[:0], p.waiting[:0]
	u0 := math.Abs(v[0])
	act = append(act, u0)
	rho := u0 - tau
	for _, x := range v[1:] {
		y := math.Abs(x)
		if y <= rho {
			continue
		}
		rho += (y - rho) / float64(len(act)+1)
		if rho > y-tau {
			act = append(act, y)
			continue
		}
		// y alone gives a larger threshold than the candidates with it.
		wait = append(wait, act...)
		act = append(act[:0], y)
		rho = y - tau
	}
	for _, y := range wait {
		if y > rho {
			act = append(act, y)
			rho += (y - rho) / float64(len(act))
		}
	}
	for {
		n, kept := len(act), 0
		for _, y := range act {
			if y > rho || n == 1 { // the largest value always stays (ρ < max u but for rounding)
				act[kept] = y
				kept++
				continue
			}
			n--
			rho += (rho - y) / float64(n)
		}
		removed := kept < len(act)
		act = act[:kept]
		if !removed {
			break
		}
	}
	p.active, p.waiting = act, wait
	return math.Max(rho, 0)
}

// checkProjectArgs panics on the argument errors of the projections.
func checkProjectArgs(fn string, dst, v []float64, tau float64) {
	if len(dst) != len(v) {
		panic(fmt.Sprintf("ball: %s: len(dst) = %d, len(v) = %d", fn, len(dst), len(v)))
	}
	if !(tau >= 0) {
		panic(fmt.Sprintf("ball: %s: radius %v, want ≥ 0", fn, tau))
	}
}
