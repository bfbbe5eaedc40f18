package ball

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// projectionCertificate returns how far x is from being the Euclidean
// projection of v onto the ball B = {z : ||z|| ≤ tau}, with dual norm
// ||·||_* (∞ for the L1 ball, 2 for the L2 ball): x is the projection iff x
// is in B and (v − x)ᵀ(z − x) ≤ 0 for every z in B, that is
// tau·||v − x||_* ≤ (v − x)ᵀx. The returned violation is the larger of the
// infeasibility norm(x) − tau and tau·||v − x||_* − (v − x)ᵀx, both zero
// at the projection.
func projectionCertificate(v, x []float64, tau float64, norm, dual func([]float64) float64) float64 {
	r := make([]float64, len(v))
	var rx float64
	for i := range v {
		r[i] = v[i] - x[i]
		rx += r[i] * x[i]
	}
	return math.Max(norm(x)-tau, tau*dual(r)-rx)
}

func norm1(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += math.Abs(x)
	}
	return s
}

func norm2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

func normInf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s = math.Max(s, math.Abs(x))
	}
	return s
}

// bisectL1 projects v onto the L1 ball by bisection on the soft threshold
// θ (||soft(v, θ)||₁ decreases in θ): an independent, slow reference.
func bisectL1(v []float64, tau float64) []float64 {
	soft := func(theta float64) []float64 {
		x := make([]float64, len(v))
		for i, a := range v {
			x[i] = math.Copysign(math.Max(math.Abs(a)-theta, 0), a)
		}
		return x
	}
	if norm1(v) <= tau {
		return append([]float64(nil), v...)
	}
	lo, hi := 0.0, normInf(v)
	for range 200 {
		mid := (lo + hi) / 2
		if norm1(soft(mid)) > tau {
			lo = mid
		} else {
			hi = mid
		}
	}
	return soft((lo + hi) / 2)
}

var projectionCases = []struct {
	name string
	v    []float64
	tau  float64
}{
	{"inside", []float64{0.1, -0.2, 0.3}, 1},
	{"on the boundary", []float64{0.5, -0.5}, 1},
	{"outside", []float64{3, -1, 0.5, 0}, 1},
	{"one large", []float64{10, 0.1, -0.1}, 2},
	{"ties", []float64{1, -1, 1, -1}, 1},
	{"zero radius", []float64{1, 2, -3}, 0},
	{"empty", nil, 1},
	{"single", []float64{-5}, 2},
	{"tiny radius", []float64{1e3, -2e3, 5}, 1e-3},
}

func TestProjectL1Ball(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cases := projectionCases
	for k := range 200 {
		n := 1 + rng.IntN(30)
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
		}
		cases = append(cases, struct {
			name string
			v    []float64
			tau  float64
		}{fmt.Sprintf("random %d", k), v, math.Pow(10, float64(rng.IntN(7)-3))})
	}
	for _, tc := range cases {
		x := make([]float64, len(tc.v))
		v := append([]float64(nil), tc.v...)
		ProjectL1(x, v, tc.tau)
		if viol := projectionCertificate(tc.v, x, tc.tau, norm1, normInf); viol > 1e-12*(1+norm1(tc.v)) {
			t.Errorf("%s: KKT violation %g (v %v, tau %g, x %v)", tc.name, viol, tc.v, tc.tau, x)
		}
		ref := bisectL1(tc.v, tc.tau)
		for i := range x {
			if math.Abs(x[i]-ref[i]) > 1e-9*(1+normInf(tc.v)) {
				t.Errorf("%s: x[%d] = %g, bisection gives %g", tc.name, i, x[i], ref[i])
			}
		}
		for i := range v {
			if v[i] != tc.v[i] {
				t.Fatalf("%s: input modified", tc.name)
			}
		}
		// In place.
		ProjectL1(v, v, tc.tau)
		for i := range v {
			if v[i] != x[i] {
				t.Fatalf("%s: in-place projection differs at %d: %g vs %g", tc.name, i, v[i], x[i])
			}
		}
	}
}

// sortThreshold is the sort-based threshold of Duchi et al. (2008, figure
// 1), the reference for L1Projector.threshold: with u = |v| sorted in
// decreasing order and ρ the largest j such that u_j > (Σ_{r≤j} u_r − tau)/j,
// θ = (Σ_{r≤ρ} u_r − tau)/ρ.
func sortThreshold(v []float64, tau float64) float64 {
	u := make([]float64, len(v))
	for i, x := range v {
		u[i] = math.Abs(x)
	}
	slices.Sort(u)
	slices.Reverse(u)
	var sum, theta float64
	for j, uj := range u {
		sum += uj
		t := (sum - tau) / float64(j+1)
		if uj <= t {
			break
		}
		theta = t
	}
	return math.Max(theta, 0)
}

// TestL1ThresholdExact compares Condat's threshold and the Newton
// iteration's (from guesses below, at and above the root, and from the
// previous case's threshold) with the sort-based one on vectors built to
// exercise their passes: values in increasing and decreasing order (every
// value passed over and set aside, or none), ties, a few large values among
// many small ones, and random ones of 1 to 2000 values; the thresholds agree
// to rounding and so do the projections. One projector serves every call,
// warm-started as in MultiKT.
func TestL1ThresholdExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	type tcase struct {
		name string
		v    []float64
	}
	ramp := func(n int, up bool) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i + 1)
			if !up {
				v[i] = float64(n - i)
			}
			if i%2 == 1 {
				v[i] = -v[i]
			}
		}
		return v
	}
	cases := []tcase{
		{"increasing", ramp(50, true)},
		{"decreasing", ramp(50, false)},
		{"ties", []float64{2, -2, 2, 2, -2, 1, 1, -1}},
		{"all equal", []float64{3, 3, 3, 3, 3}},
		{"spikes", append([]float64{100, -90, 80}, make([]float64, 500)...)},
		{"single", []float64{-7}},
	}
	for k := range 300 {
		n := 1 + rng.IntN(2000)
		if k%3 != 0 {
			n = 1 + rng.IntN(100)
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
			if rng.IntN(4) == 0 {
				v[i] = float64(rng.IntN(3)) // ties and zeros
			}
		}
		cases = append(cases, tcase{fmt.Sprintf("random %d", k), v})
	}
	var p L1Projector
	for _, tc := range cases {
		l1 := norm1(tc.v)
		for _, frac := range []float64{1e-6, 0.01, 0.3, 0.9, 0.999999} {
			tau := frac * l1
			if tau == 0 || tau >= l1 {
				continue
			}
			want := sortThreshold(tc.v, tau)
			if got := p.threshold(tc.v, tau); math.Abs(got-want) > 1e-12*normInf(tc.v) {
				t.Errorf("%s, tau = %g·||v||₁: Condat's threshold %.17g, sort-based %.17g", tc.name, frac, got, want)
				continue
			}
			for _, guess := range []float64{0, want / 2, want, 2 * want, 2 * normInf(tc.v), p.theta} {
				got, ok := thresholdFrom(tc.v, tau, guess)
				if !ok || math.Abs(got-want) > 1e-12*normInf(tc.v) {
					t.Errorf("%s, tau = %g·||v||₁: Newton's threshold from %g is %.17g (settled: %v), sort-based %.17g", tc.name, frac, guess, got, ok, want)
				}
			}
			x := make([]float64, len(tc.v))
			p.Project(x, tc.v, tau)
			if viol := projectionCertificate(tc.v, x, tau, norm1, normInf); viol > 1e-12*(1+l1) {
				t.Errorf("%s, tau = %g·||v||₁: KKT violation %g", tc.name, frac, viol)
			}
		}
	}
}

func TestProjectL2Ball(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, tc := range projectionCases {
		x := make([]float64, len(tc.v))
		ProjectL2(x, tc.v, tc.tau)
		if viol := projectionCertificate(tc.v, x, tc.tau, norm2, norm2); viol > 1e-12*(1+norm2(tc.v)) {
			t.Errorf("%s: KKT violation %g (x %v)", tc.name, viol, x)
		}
		// Brute force: no random point of the ball is closer to v.
		d := dist(tc.v, x)
		for range 500 {
			z := make([]float64, len(tc.v))
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			if nz := norm2(z); nz > 0 {
				f := tc.tau * math.Pow(rng.Float64(), 1/float64(len(z))) / nz
				for i := range z {
					z[i] *= f
				}
			}
			if dz := dist(tc.v, z); dz < d-1e-12 {
				t.Fatalf("%s: a point of the ball at distance %g beats the projection's %g", tc.name, dz, d)
			}
		}
	}
}

func dist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// TestProjectL2ScaleEquivariant: projecting 2^k·v onto the ball of radius
// 2^k·tau gives 2^k times the projection of v, at magnitudes whose squares
// overflow (k = 600, 1000) or underflow (k = −600, −1000) float64, down to
// subnormal components (k = −1030, −1070, whose norm's reciprocal
// overflows): the norm must not become +Inf (every component projected to
// 0) or 0 (v, outside the ball, returned as it is), nor the factor +Inf.
func TestProjectL2ScaleEquivariant(t *testing.T) {
	v, tau := []float64{3, -4, 1.5}, 2.0
	want := make([]float64, len(v))
	ProjectL2(want, v, tau)
	for _, k := range []int{600, 1000, -600, -1000, -1030, -1070} {
		s := math.Ldexp(1, k)
		sv := make([]float64, len(v))
		for i, x := range v {
			sv[i] = x * s
		}
		got := make([]float64, len(v))
		ProjectL2(got, sv, tau*s)
		for i := range got {
			// The projection's components are subnormal from k = −1030 on:
			// rounded to a multiple of 2^-1074 besides the relative error.
			if g := got[i] / s; math.Abs(got[i]-want[i]*s) > 1e-15*math.Abs(want[i]*s)+0x1p-1074 {
				t.Errorf("k = %d: component %d is 2^k·%v, want 2^k·%v", k, i, g, want[i])
			}
		}
	}
}

// TestProjectL2BeyondFloat64: a norm that is not a float64 itself, above
// math.MaxFloat64 (v = (Max, Max): the projection onto the unit ball is
// (1/√2, 1/√2), not 0) or a radius whose ratio to the norm underflows
// (v = (1e308, 1e308), tau = 1e-320: each component tau/√2, a subnormal,
// not 0).
func TestProjectL2BeyondFloat64(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		tau  float64
		want float64 // each component
	}{
		{[]float64{math.MaxFloat64, math.MaxFloat64}, 1, 1 / math.Sqrt2},
		{[]float64{-math.MaxFloat64, -math.MaxFloat64}, 3, -3 / math.Sqrt2},
		{[]float64{1e308, 1e308}, 1e-320, 1e-320 / math.Sqrt2},
	} {
		got := make([]float64, len(tc.v))
		ProjectL2(got, tc.v, tc.tau)
		for i, g := range got {
			if math.Abs(g-tc.want) > 4e-16*math.Abs(tc.want)+0x1p-1074 {
				t.Errorf("ProjectL2(%v, %g): component %d is %v, want %v", tc.v, tc.tau, i, g, tc.want)
			}
		}
	}
}

// exactProjectL1 returns the projection of v onto the L1 ball of radius
// tau > 0, ||v||₁ > tau, in exact rational arithmetic, each component
// rounded once: θ = (Σ_{j∈A} |v_j| − tau)/|A| for the largest set A of
// the biggest |v_j| whose θ stays below each of them.
func exactProjectL1(v []float64, tau float64) []float64 {
	abs := make([]*big.Rat, len(v))
	for i, x := range v {
		abs[i] = new(big.Rat).SetFloat64(math.Abs(x))
	}
	sorted := slices.Clone(abs)
	slices.SortFunc(sorted, func(a, b *big.Rat) int { return b.Cmp(a) })
	sum, theta := new(big.Rat), new(big.Rat)
	for k, a := range sorted {
		sum.Add(sum, a)
		th := new(big.Rat).Sub(sum, new(big.Rat).SetFloat64(tau))
		th.Quo(th, big.NewRat(int64(k+1), 1))
		if th.Cmp(a) >= 0 {
			break
		}
		theta = th
	}
	x := make([]float64, len(v))
	for i, a := range abs {
		if d := new(big.Rat).Sub(a, theta); d.Sign() > 0 {
			f, _ := d.Float64()
			x[i] = math.Copysign(f, v[i])
		}
	}
	return x
}

// TestProjectL1Accurate: ProjectL1's components are accurate to a few
// rounding errors of τ (each is at most τ, and so are the differences
// between the |v_j| it keeps), checked against exact rational arithmetic,
// however large ||v|| is against τ. Computed as |v_j| − θ they lost
// everything once θ ≈ ||v||∞ dwarfed τ: (1, 1, −1) onto the ball of
// radius 1e-16 gave 0, not ±τ/3; (1e308, 1e308, −1e308), whose L1 norm
// overflows, onto the unit ball gave 0, not ±1/3; (1e308, 1e308, −1e308)
// onto radius 1e293 gave ±2.0e292, not ±3.3e292. Near MaxFloat64 the
// shifted sums overflowed, the search settled on −Inf and θ = 0 (a point
// outside the ball): (M, M/2, M/2, M/2), M = MaxFloat64, onto the unit
// ball gave 1.797e308 for 1; (M, M/2 ×10) onto radius 1.5e308 gave M for
// 9.53e307. A random probe with entries near the top of the range checks
// the same bound.
func TestProjectL1Accurate(t *testing.T) {
	const M = math.MaxFloat64
	halves := slices.Repeat([]float64{M / 2}, 10)
	rng := rand.New(rand.NewPCG(5, 5))
	random := make([]float64, 30)
	for i := range random {
		random[i] = rng.NormFloat64()
	}
	for _, tc := range []struct {
		v   []float64
		tau float64
	}{
		{[]float64{1, 1, -1}, 1e-16},
		{[]float64{1e308, 1e308, -1e308}, 1},
		{[]float64{1e308, 1e308, -1e308}, 1e293},
		{[]float64{math.MaxFloat64, -math.MaxFloat64}, 3},
		{[]float64{1 + 0x1p-40, 1, -1, 0.5, 1e-300}, 0x1p-45},
		{[]float64{3, -1e-20, 2, 2.9999999999}, 1e-12},
		{[]float64{1e300, 1e300, 1e300, 1e300, 1e300, -1e300, 7}, 1e-300},
		{random, 1},
		{random, 1e-14},
		{random, 10},
		{[]float64{M, M / 2, M / 2, M / 2}, 1},
		{append([]float64{M}, halves...), 1.5e308},
		{[]float64{M, M / 2, M / 2, M / 2}, 1.5e308},
		{[]float64{M, -M, M, -M}, M},
		{[]float64{M, -M, M, -M}, M / 2},
	} {
		checkProjectL1Accurate(t, tc.v, tc.tau)
	}
	for range 2000 {
		v := make([]float64, 2+rng.IntN(15))
		for i := range v {
			v[i] = M * (0.25 + 0.75*rng.Float64())
			if rng.IntN(2) == 0 {
				v[i] = -v[i]
			}
		}
		var tau float64
		switch rng.IntN(4) {
		case 0:
			tau = M * rng.Float64()
		case 1:
			tau = math.Abs(v[rng.IntN(len(v))])
		case 2:
			tau = math.Pow(10, float64(rng.IntN(600)-300))
		case 3:
			tau = M
		}
		if !checkProjectL1Accurate(t, v, tau) {
			break
		}
	}
}

// checkProjectL1Accurate reports whether ProjectL1(v, tau) is within
// 4·n·2⁻⁵²·τ of the exact projection in each component (v outside the
// ball, exactly).
func checkProjectL1Accurate(t *testing.T, v []float64, tau float64) bool {
	t.Helper()
	l1 := new(big.Rat)
	for _, x := range v {
		l1.Add(l1, new(big.Rat).SetFloat64(math.Abs(x)))
	}
	if l1.Cmp(new(big.Rat).SetFloat64(tau)) <= 0 {
		return true // inside: v itself, TestProjectL1Ball's concern
	}
	want := exactProjectL1(v, tau)
	got := make([]float64, len(v))
	ProjectL1(got, v, tau)
	bound := 4 * float64(len(v)) * 0x1p-52 * tau
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= bound) {
			t.Errorf("ProjectL1(%v, %g): component %d is %v, want %v", v, tau, i, got[i], want[i])
			return false
		}
	}
	return true
}

// TestProjectL2ScaledKeepsSmallComponents: on the scaled route (v's sum
// of squares overflows) with a large radius, a small component keeps its
// precision: projecting (1e300, x) onto the ball of radius 1e299 gives
// (1e299, x/10) — to a few ulps, or to the last subnormal step — where
// scaling each component down by v's exponent first lost x's low bits or,
// subnormal, x itself.
func TestProjectL2ScaledKeepsSmallComponents(t *testing.T) {
	for _, x := range []float64{1e-10, 1e-300, 1e-320} {
		v := []float64{1e300, x}
		got := make([]float64, 2)
		ProjectL2(got, v, 1e299)
		if want := x / 10; math.Abs(got[1]-want) > 4e-16*want+0x1p-1074 {
			t.Errorf("ProjectL2((1e300, %g), 1e299)[1] = %v, want %v", x, got[1], want)
		}
		if math.Abs(got[0]-1e299) > 4e-16*1e299 {
			t.Errorf("ProjectL2((1e300, %g), 1e299)[0] = %v, want 1e299", x, got[0])
		}
	}
}

// TestRescaleSubnormalRadius: with a subnormal radius on the scaled
// route, each component is the exact one rounded to the nearest subnormal
// (within half a step of 2^-1074): Rescale((1e-200, 1e-200), 1e-323) gave
// (1e-323, 1e-323), two steps where the exact components are 1.43, and
// (1e-160, 7e-161, 3e-161) onto 5e-324 lost its second component (0.56
// steps), when tau/nu, already subnormal, was scaled back up.
func TestRescaleSubnormalRadius(t *testing.T) {
	for _, tc := range []struct {
		v   []float64
		tau float64
	}{
		{[]float64{1e-200, 1e-200}, 1e-323},
		{[]float64{1e-160, 7e-161, 3e-161}, 5e-324},
	} {
		got := make([]float64, len(tc.v))
		if !Rescale(got, tc.v, tc.tau) {
			t.Fatalf("Rescale(%v) calls v zero", tc.v)
		}
		// In steps of 2^-1074, computed in the normal range: v scaled by
		// its first component, tau counted in steps.
		var ss float64
		for _, x := range tc.v {
			ss += (x / tc.v[0]) * (x / tc.v[0])
		}
		for i, x := range tc.v {
			want := (tc.tau / 0x1p-1074) * (x / tc.v[0]) / math.Sqrt(ss)
			if d := math.Abs(got[i]/0x1p-1074 - want); d > 0.5+1e-9 {
				t.Errorf("Rescale(%v, %g)[%d] = %v, %.3f steps of 2^-1074 from the exact %.3f", tc.v, tc.tau, i, got[i], d, want)
			}
		}
	}
}

// TestRescaleZero: Rescale reports a zero v and leaves dst as it was.
func TestRescaleZero(t *testing.T) {
	dst := []float64{7, 8}
	if Rescale(dst, []float64{0, 0}, 1) {
		t.Error("Rescale of a zero vector reports it not zero")
	}
	if dst[0] != 7 || dst[1] != 8 {
		t.Errorf("Rescale of a zero vector wrote %v", dst)
	}
}

// TestSoftThresholdLengths: SoftThreshold panics, as documented, when dst
// is longer than v (it would keep stale values past len(v)) or shorter.
func TestSoftThresholdLengths(t *testing.T) {
	for _, n := range []int{1, 3} {
		panicked := false
		func() {
			defer func() { panicked = recover() != nil }()
			SoftThreshold(make([]float64, n), []float64{1, -1}, 0.5)
		}()
		if !panicked {
			t.Errorf("len(dst) = %d, len(v) = 2: no panic", n)
		}
	}
}

func TestProjectPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"L1 length", func() { ProjectL1(make([]float64, 2), make([]float64, 3), 1) }},
		{"L1 negative", func() { ProjectL1(make([]float64, 2), make([]float64, 2), -1) }},
		{"L2 NaN", func() { ProjectL2(make([]float64, 2), make([]float64, 2), math.NaN()) }},
		{"Rescale +Inf", func() { Rescale(make([]float64, 2), []float64{1, 0}, math.Inf(1)) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.f()
		}()
	}
}

// TestProjectL1NonFinite: a vector with a NaN or ±Inf component, wherever
// it stands, is soft-thresholded at its threshold (Threshold) as it is,
// never by the shifted route of finite vectors (which a NaN after the
// largest |v_j| reached when the maximum, q, skipped it), and the result
// is what the package's doc promises, NaN components, at least one, the
// others possibly finite: from a cold projector, whose threshold is NaN
// ((3, 2, NaN) onto the ball of radius 1 gives NaN everywhere), and from
// a warm one, whose Newton steps skip a NaN (the same vector gives
// (1, 0, NaN)). Before, the test pinned NaN everywhere, the cold route's
// result, which the doc does not promise and the warm route does not
// give.
func TestProjectL1NonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
	}
	// warmed returns a projector whose last threshold is that of a finite
	// projection (θ = 1.5 for (3, 2, 1) onto radius 2), or a cold one.
	warmed := func(warm bool) *L1Projector {
		var p L1Projector
		if warm {
			p.Project(make([]float64, 3), []float64{3, 2, 1}, 2)
		}
		return &p
	}
	var sawFinite bool
	for _, warm := range []bool{false, true} {
		for _, v := range [][]float64{
			{3, 2, nan}, {nan, 3, 2}, {3, nan, 2}, {2, 3, nan, 1},
			{3, 2, inf}, {-inf, 3, 2}, {3, -inf, 2},
		} {
			got := make([]float64, len(v))
			warmed(warm).Project(got, v, 1)
			want := make([]float64, len(v))
			SoftThreshold(want, v, warmed(warm).Threshold(v, 1))
			if !same(got, want) {
				t.Errorf("warm %v: Project(%v, 1) = %v, want %v (soft-thresholding at its threshold)", warm, v, got, want)
			}
			if !slices.ContainsFunc(got, math.IsNaN) {
				t.Errorf("warm %v: Project(%v, 1) = %v, want a NaN component (the package's doc)", warm, v, got)
			}
			sawFinite = sawFinite || slices.ContainsFunc(got, func(x float64) bool { return !math.IsNaN(x) })
		}
	}
	if !sawFinite {
		t.Errorf("no result with a finite component: the doc's 'other components may be finite' is not exercised")
	}
	got := make([]float64, 3)
	ProjectL1(got, []float64{3, 2, nan}, 1)
	if !slices.ContainsFunc(got, math.IsNaN) {
		t.Errorf("ProjectL1([3 2 NaN], 1) = %v, want a NaN component", got)
	}
}
