package greedytl

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPrunedPicksScalarWinner runs greedy paths in both forms, over
// features (γ ≠ 1) and sources, and checks at each step that
// bestOfPruned returns what bestOfScalar returns on every candidate, with
// the candidates in shuffled order, on data with exact, affine and
// last-bit copies (exact and near ties) and on Gaussian data; and that on
// the Gaussian data most candidates are pruned.
func TestPrunedPicksScalarWinner(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 43))
	for _, c := range []struct {
		m, d, n int
		dup     bool
		lambda  float64
		gamma   float64
		form    int
	}{
		{8, 0, 40, true, 1, 1, formAuto}, {12, 0, 120, true, 1e-2, 1, formDual}, {20, 0, 300, true, 1, 1, formPrimal},
		{20, 30, 300, false, 1, 0.5, formAuto}, {20, 30, 300, false, 1, 2, formDual}, {20, 0, 500, false, 1, 1, formAuto},
		{30, 10, 200, false, 10, 1, formPrimal}, {40, 0, 400, false, 0.1, 1, formAuto}, {20, 0, 300, false, 1e-6, 1, formAuto},
	} {
		t.Run(fmt.Sprintf("m=%d/d=%d/n=%d/dup=%v/λ=%g/γ=%g/form=%d", c.m, c.d, c.n, c.dup, c.lambda, c.gamma, c.form), func(t *testing.T) {
			var H *mat.Dense
			var y []float64
			if c.dup {
				H, y = dupProblem(rng, c.m, c.n)
			} else {
				H, y = randDense(rng, c.m, c.n), randLabels(rng, c.m)
			}
			e := everyCandidateSample(t, rng, H, y, c.d, c.gamma, c.form, c.lambda)
			defer e.release()
			p := newPathFor(y, c.lambda, newFeatureScale(c.gamma, true), 0, c.d+c.n)
			total, scored := 0, 0
			for step := 0; step < 2*c.m+5; step++ {
				s, cand := pickShuffled(t, rng, e, p, step)
				if s < 0 {
					break
				}
				if half2 := e.pruneBound(p); half2 > 0 {
					total += len(cand)
					before := e.prune.scored
					got, err := e.bestOfPruned(p, cand, half2)
					scored += e.prune.scored - before
					if err != nil || got != s {
						t.Fatalf("step %d: pruned search picks slot %d (candidate %d), scalar slot %d (candidate %d) (%v)",
							step, got, e.global(got), s, e.global(s), err)
					}
				}
				if e.prune.off {
					t.Fatalf("step %d: a candidate's c fell below its bound", step)
				}
				advance(t, p, s, e.col(s), e)
			}
			t.Logf("%d of %d candidates scored in full", scored, total)
			switch {
			case c.lambda < 1e-3 && total > 0:
				t.Errorf("pruned at λ = %g, where K_S + λI is too ill-conditioned for the bound", c.lambda)
			case c.lambda >= 1e-3 && !c.dup && !(scored < total/2):
				t.Errorf("%d of %d candidates scored in full: the bound prunes too little", scored, total)
			}
		})
	}
}

// TestPrunedScoresLargestBoundsFirst checks how many candidates
// bestOfPruned scores in full (pruneState.scored) against its definition,
// computed here apart: the four candidates with the four largest bounds
// t²·(1 + 6u)/c_lo (the earlier first on ties) first, then, in candidate
// order and in groups of four, each other candidate whose bound reaches the
// best gain scored before its group, over paths in both forms, on features
// (γ ≠ 1) and sources, with the candidates in shuffled order. Keeping a
// wrong fourth in the four (top, low) changes the count.
func TestPrunedScoresLargestBoundsFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	steps := 0
	for _, c := range []struct {
		m, d, n int
		gamma   float64
		form    int
	}{
		{20, 0, 300, 1, formPrimal}, {20, 30, 300, 0.5, formDual}, {12, 20, 200, 2, formAuto}, {30, 0, 500, 1, formAuto},
	} {
		H, y := randDense(rng, c.m, c.n), randLabels(rng, c.m)
		e := everyCandidateSample(t, rng, H, y, c.d, c.gamma, c.form, 1)
		p := newPathFor(y, 1, newFeatureScale(c.gamma, true), 0, c.d+c.n)
		for step := 0; step < c.m; step++ {
			s, cand := pickShuffled(t, rng, e, p, step)
			if s < 0 {
				break
			}
			if half2 := e.pruneBound(p); half2 > 0 {
				e.sc.load(p)
				n := len(cand)
				hi, gain := make([]float64, n), make([]float64, n)
				for k, sl := range cand {
					cl := 1 + half2*float64(c.m)
					if e.global(sl) < c.d {
						cl = 1 + half2*float64(c.m)*c.gamma*c.gamma
					}
					tk := e.sc.t1(e.col(sl))
					hi[k] = tk * tk * ((1 + 6*unitRoundoff) / cl)
					cs, ts := e.sc.score1(e.col(sl))
					gain[k] = ts * ts / cs
				}
				order := make([]int, n)
				for k := range order {
					order[k] = k
				}
				slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(hi[b], hi[a]) })
				top := order[:min(4, n)]
				want, best := len(top), -1.0
				for _, k := range top {
					best = max(best, gain[k])
				}
				var group []int
				flush := func() {
					for _, k := range group {
						best = max(best, gain[k])
					}
					want += len(group)
					group = group[:0]
				}
				for k := range n {
					if !slices.Contains(top, k) && hi[k] >= best {
						if group = append(group, k); len(group) == 4 {
							flush()
						}
					}
				}
				flush()
				before := e.prune.scored
				if _, err := e.bestOfPruned(p, cand, half2); err != nil {
					t.Fatal(err)
				}
				if e.prune.off {
					t.Fatalf("m = %d, γ = %g, step %d: a candidate's c fell below its bound", c.m, c.gamma, step)
				}
				if got := e.prune.scored - before; got != want {
					t.Errorf("m = %d, d = %d, γ = %g, form %d, step %d: %d of %d candidates scored in full, want %d",
						c.m, c.d, c.gamma, c.form, step, got, n, want)
				}
				steps++
			}
			advance(t, p, s, e.col(s), e)
		}
		e.release()
	}
	if steps < 40 {
		t.Errorf("only %d steps pruned", steps)
	}
}

// TestPrunedModels checks that whole fits give identical models with and
// without pruning, over sampled searches on ill-conditioned and
// duplicate-laden data, feature factors, small λ and AutoLambda.
func TestPrunedModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 44))
	probs := illAndDupProblems(rng)
	H, y := benchProblem(20, 2000)
	probs = append(probs, fitProblem{"gaussian", randDense(rng, 20, 100), H, y})
	checkSameModels(t, &pruning, "pruned search", "unpruned", probs, sampledSearches(45, 0.1, 30))
}

// TestRowAbsDevs checks that rowAbsDevs computes each row's Gershgorin sum
// as its definition rowAbsDevsGo does, bit for bit (so that rho's bound,
// and with it which candidates bestOfPruned scores, is what it was), for
// orders 1 to 41 (the kernel's blocks of eight and four and its tail),
// entries of every magnitude, signed zeros, infinities and NaN.
func TestRowAbsDevs(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for trial := 0; trial < 500; trial++ {
		m := 1 + trial%41
		a := make([]float64, m*m)
		for i := range a {
			a[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			switch rng.IntN(40) {
			case 0:
				a[i] = math.Copysign(0, -1)
			case 1:
				a[i] = math.Inf(1 - 2*rng.IntN(2))
			case 2:
				a[i] = math.NaN()
			}
		}
		lambda, beta := rng.Float64()*10, []float64{1, 4, 0.25}[rng.IntN(3)]
		got, want := make([]float64, m+1), make([]float64, m+1)
		got[m], want[m] = 3, 3
		rowAbsDevs(a, m, lambda, beta, got)
		rowAbsDevsGo(a, m, lambda, beta, want)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("trial %d (m = %d): row %d sum %v, rowAbsDevsGo %v", trial, m, i, got[i], want[i])
			}
		}
	}
}

// everyCandidateSample returns the sampled search over d random features
// (none when d is 0) beside the sources H, with labels y, that scores every
// candidate at every step (r ≥ N), its path form set to form for the
// test's duration, reset at λ = lambda.
func everyCandidateSample(t *testing.T, rng *rand.Rand, H *mat.Dense, y []float64, d int, gamma float64, form int, lambda float64) *sampleEngine {
	t.Helper()
	m, n := H.Dims()
	var X mat.Matrix
	if d > 0 {
		X = randDense(rng, m, d)
	}
	in, err := newInputs("greedytl.Fit", X, H, y, gamma)
	if err != nil {
		t.Fatal(err)
	}
	setForTest(t, &pathForm, form)
	e := newSample(in, d+n, 1)
	if err := e.reset(lambda); err != nil {
		t.Fatal(err)
	}
	return e
}
