package greedytl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// setForTest sets *v to val for the rest of the test or benchmark.
func setForTest[T any](tb testing.TB, v *T, val T) {
	old := *v
	*v = val
	tb.Cleanup(func() { *v = old })
}

// fitProblem is a named problem for whole-fit comparisons.
type fitProblem struct {
	name string
	X, H mat.Matrix
	y    []float64
}

// illAndDupProblems returns ill-conditioned problems at m = 12 and 20 (see
// illProblem) and a 16×400 one laden with duplicate sources (see
// dupProblem).
func illAndDupProblems(rng *rand.Rand) []fitProblem {
	var probs []fitProblem
	for _, m := range []int{12, 20} {
		X, H, y := illProblem(rng, m)
		probs = append(probs, fitProblem{fmt.Sprintf("ill m=%d", m), X, H, y})
	}
	H, y := dupProblem(rng, 16, 400)
	return append(probs, fitProblem{"duplicates", nil, H, y})
}

// checkSameModels fits every problem under every option with *flag off
// and on, and reports the fits whose models differ; on and off name the two
// settings in the message.
func checkSameModels(t *testing.T, flag *bool, on, off string, probs []fitProblem, opts []Options) {
	t.Helper()
	for _, pr := range probs {
		for _, o := range opts {
			setForTest(t, flag, false)
			want := fitT(t, pr.X, pr.H, pr.y, o)
			setForTest(t, flag, true)
			got := fitT(t, pr.X, pr.H, pr.y, o)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %+v: %s selects %v, %s %v", pr.name, o, on, got.Selected, off, want.Selected)
			}
		}
	}
}

// sampledSearches are the randomised searches checkSameModels compares:
// r = 59 stopped by δ; r = 7 run to maxK7 steps; a tiny λ with γ = 2;
// r = 5000 (more than the candidates) with λ = lambda5000, run to
// maxK5000 steps, γ = 0.5; and AutoLambda with the leave-one-out stop and
// γ = 0.
func sampledSearches(maxK7 int, lambda5000 float64, maxK5000 int) []Options {
	return []Options{
		{Lambda: 1, Delta: 1e-4, FeatureFactor: 1, Sample: 59, Seed: 1},
		{Lambda: 1, Delta: 0, FeatureFactor: 1, Sample: 7, Seed: 2, MaxK: maxK7},
		{Lambda: 1e-6, Delta: 0, FeatureFactor: 2, Sample: 20, Seed: 3, MaxK: 25},
		{Lambda: lambda5000, Delta: 0, FeatureFactor: 0.5, Sample: 5000, Seed: 4, MaxK: maxK5000},
		{Delta: 1e-4, FeatureFactor: 0, Sample: 3, Seed: 5, AutoLambda: true, StopAtMinLOO: true},
	}
}

// dupProblem returns m×n source scores made of a few distinct columns,
// each repeated as exact copies, affine copies (equal after
// standardising, up to rounding) and copies perturbed in the last bits,
// scattered at random; the labels follow the first column loosely.
func dupProblem(rng *rand.Rand, m, n int) (*mat.Dense, []float64) {
	base := randDense(rng, m, 6)
	y := randLabels(rng, m)
	for i := 0; i < m; i++ {
		base.Set(i, 0, y[i]+0.7*rng.NormFloat64())
	}
	H := mat.NewDense(m, n, nil)
	for j := 0; j < n; j++ {
		b := rng.IntN(6)
		kind := rng.IntN(4)
		for i := 0; i < m; i++ {
			v := base.At(i, b)
			switch kind {
			case 1:
				v = 3*v - 2
			case 2:
				v = math.Nextafter(v, math.Inf(1-2*rng.IntN(2)))
			case 3:
				v = randDense(rng, 1, 1).At(0, 0) // an unrelated column
			}
			H.Set(i, j, v)
		}
	}
	return H, y
}

// pickShuffled picks the next step of p with e and returns it (negative
// when the path ends) and e's candidates in shuffled order, failing the
// test when the scalar kernel over the shuffled candidates picks another.
func pickShuffled(t *testing.T, rng *rand.Rand, e *sampleEngine, p *path, step int) (s int, cand []int) {
	t.Helper()
	s, err := e.pick(p)
	if err != nil {
		t.Fatal(err)
	}
	if s < 0 {
		return s, nil
	}
	cand = slices.Clone(e.cand)
	rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	if got, err := e.bestOfScalar(p, cand); err != nil || got != s {
		t.Fatalf("step %d: scalar winner depends on the order: %d, %d (%v)", step, got, s, err)
	}
	return s, cand
}

// TestBatchBounds checks the batch scorer's intervals against the scalar
// kernel: for candidates scored along real greedy paths (Ĝ and a from
// the updates, over a range of λ and γ), the scalar gain t²/c must lie in
// [lo, hi], and the intervals must be as narrow as their analysis says
// (relative to the largest gain, about 1e-11 at m = 20 and λ = 1, growing
// as m^2.5/λ).
func TestBatchBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 40))
	for _, c := range []struct {
		m      int
		lambda float64
		gamma  float64
	}{
		{2, 1, 1}, {3, 1e-4, 1}, {7, 1, 0.5}, {12, 1e4, 1}, {20, 1, 1}, {20, 1e-4, 3},
		{20, 1e-8, 1}, {40, 1e-2, 1}, {40, 1, 0.2},
	} {
		t.Run(fmt.Sprintf("m=%d/λ=%g/γ=%g", c.m, c.lambda, c.gamma), func(t *testing.T) {
			m, n := c.m, 37
			y := randLabels(rng, m)
			beta := max(1, c.gamma*c.gamma)
			// Standardised candidates, some of them copies.
			z := randDense(rng, n, m).RawMatrix().Data
			for k := 1; k < n; k += 3 {
				copy(z[k*m:k*m+m], z[(k-1)*m:k*m])
			}
			var st [sampleChunk]colStats
			var tmp [sampleChunk]float64
			if standardizeChunk(z, m, n, c.gamma, st[:], tmp[:]) >= 0 {
				t.Fatal("standardizeChunk failed")
			}
			p := newPath(y, c.lambda, newFeatureScale(c.gamma, true), 0)
			var b batchScorer
			var sc scorer
			b.z = z
			// The analysis gives a relative width of about
			// 128·m^2.5·β·u/λ, and 16u at least.
			width := 1e-12 + 256*math.Pow(float64(m), 2.5)*beta*unitRoundoff/c.lambda
			for step := 0; step < min(m-1, 12); step++ {
				if !b.bounds(p, n, 2*float64(m)*beta) {
					t.Fatalf("step %d: no usable bounds", step)
				}
				sc.load(p)
				var gmax float64
				for k := 0; k < n; k++ {
					cs, ts := sc.score1(z[k*m : k*m+m])
					g := ts * ts / cs
					gmax = max(gmax, g)
					if !(b.lo[k] <= g && g <= b.hi[k]) {
						t.Errorf("step %d, candidate %d: scalar gain %v outside [%v, %v]", step, k, g, b.lo[k], b.hi[k])
					}
				}
				for k := 0; k < n; k++ {
					if w := b.hi[k] - b.lo[k]; !(w <= width*gmax) {
						t.Errorf("step %d, candidate %d: interval width %.3g, largest gain %.3g: more than %.3g of it", step, k, w, gmax, width)
					}
				}
				// Add a random candidate to move along the path.
				k := rng.IntN(n)
				zk := slices.Clone(z[k*m : k*m+m])
				cc, tt, err := p.score(zk)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := p.add(k, zk, cc, tt); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestBatchBoundsUnusable checks that bounds declines (and bestOfBatched
// then defers to the scalar kernel) when Ĝ or a is not finite or Ĝ is so
// large that the intervals would be meaningless.
func TestBatchBoundsUnusable(t *testing.T) {
	m := 4
	for _, c := range []struct {
		name string
		set  func(p *path)
	}{
		{"NaN in Ĝ", func(p *path) { p.G[1*m+2] = math.NaN() }},
		{"Inf in Ĝ", func(p *path) { p.G[3*m+3] = math.Inf(1) }},
		{"huge Ĝ", func(p *path) { p.G[0] = 1e20 }},
		{"NaN in a", func(p *path) { p.a[0] = math.NaN() }},
	} {
		p := newPath([]float64{1, -1, 1, -1}, 1, newFeatureScale(1, true), 0)
		c.set(p)
		b := batchScorer{z: make([]float64, 2*m)}
		if b.bounds(p, 2, 2*float64(m)) {
			t.Errorf("%s: bounds accepted", c.name)
		}
	}
	p := newPath([]float64{1, -1, 1, -1}, 1, newFeatureScale(1, true), 0)
	b := batchScorer{z: make([]float64, 2*m)}
	if !b.bounds(p, 2, 2*float64(m)) {
		t.Errorf("λ = 1, Ĝ = (λI + β11ᵀ)⁻¹: bounds declined")
	}
}

// TestBatchedPicksScalarWinner runs greedy paths over every candidate and
// checks at each step that bestOfBatched returns what bestOfScalar
// returns, with the candidates in shuffled order, on data full of exact,
// affine and last-bit copies (so that near ties, resolved by rescoring,
// occur), at λ down to where the bounds are unusable.
func TestBatchedPicksScalarWinner(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 41))
	nearTies := 0
	for _, c := range []struct {
		m, n   int
		lambda float64
	}{{8, 40, 1}, {12, 120, 1e-4}, {20, 300, 1}, {20, 300, 1e-8}, {20, 200, 1e-12}, {30, 100, 10}} {
		t.Run(fmt.Sprintf("m=%d/n=%d/λ=%g", c.m, c.n, c.lambda), func(t *testing.T) {
			H, y := dupProblem(rng, c.m, c.n)
			in, err := newInputs("greedytl.Fit", nil, H, y, 1)
			if err != nil {
				t.Fatal(err)
			}
			e := newSample(in, c.n, 1) // r ≥ N: every candidate, every step
			defer e.release()
			if err := e.reset(c.lambda); err != nil {
				t.Fatal(err)
			}
			p := newPath(y, c.lambda, newFeatureScale(1, true), 0)
			for step := 0; step < c.m+5; step++ {
				setForTest(t, &batchedScoring, false)
				s, cand := pickShuffled(t, rng, e, p, step)
				if s < 0 {
					break
				}
				e.local = e.local[:0]
				got, err := e.bestOfBatched(p, cand)
				if err != nil || got != s {
					t.Fatalf("step %d: batched picks slot %d (candidate %d), scalar slot %d (candidate %d) (%v)",
						step, got, e.global(got), s, e.global(s), err)
				}
				if len(e.local) > 1 {
					nearTies++
				}
				z := e.col(s)
				cc, tt, err := p.score(z)
				if err != nil {
					if c.lambda < 1e-10 {
						break // the path ends where λ is too small for the data
					}
					t.Fatal(err)
				}
				refreshed, err := p.add(s, z, cc, tt)
				if err != nil {
					if c.lambda < 1e-10 {
						break
					}
					t.Fatal(err)
				}
				e.added(p, s, p.g, cc, tt/cc, refreshed)
			}
		})
	}
	if nearTies == 0 {
		t.Error("no step had near ties: the data do not exercise the rescoring")
	}
}

// TestBatchedModels checks that whole fits give identical models with and
// without batched scoring, over sampled searches on ill-conditioned and
// duplicate-laden data, feature factors, tiny λ and AutoLambda.
func TestBatchedModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	probs := illAndDupProblems(rng)
	H := probs[2].H
	X := randDense(rng, 16, 50)
	for i := 0; i < 16; i++ {
		X.Set(i, 7, H.At(i, 3)) // a feature equal to a source
	}
	probs = append(probs, fitProblem{"features+duplicates", X, H, probs[2].y})
	checkSameModels(t, &batchedScoring, "batched scoring", "scalar", probs, sampledSearches(30, 1, 20))
}
