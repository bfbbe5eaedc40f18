package greedytl

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tol is the relative agreement required between Fit and the references.
const tol = 1e-8

// fitT fits or fails the test.
func fitT(t testing.TB, X, H mat.Matrix, y []float64, o Options) *Model {
	t.Helper()
	mod, err := Fit(context.Background(), X, H, y, o)
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return mod
}

// selectedGlobal returns the model's selection as candidate indices.
func selectedGlobal(mod *Model) []int {
	S := make([]int, len(mod.Selected))
	for j, c := range mod.Selected {
		S[j] = globalIndex(c, mod.NumFeatures)
	}
	return S
}

// TestFitMatchesBruteForce compares exact GreedyTL with the paper's
// definition run by brute force on well-conditioned random problems: the
// same columns in the same order, the same scores and weights.
func TestFitMatchesBruteForce(t *testing.T) {
	for _, m := range []int{5, 12, 20, 40} {
		for _, N := range []int{1, 3, 50, 500} {
			for _, layout := range []string{"features", "sources", "both"} {
				if N == 1 && layout == "both" {
					continue
				}
				name := fmt.Sprintf("m=%d/N=%d/%s", m, N, layout)
				t.Run(name, func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(m), uint64(N)))
					d := map[string]int{"features": N, "sources": 0, "both": N / 3}[layout]
					X, H := randDense(rng, m, d), randDense(rng, m, N-d)
					y := randLabels(rng, m)
					o := DefaultOptions()
					if N == 500 {
						o.MaxK = 10 // keeps the brute force affordable
					}
					mod := fitT(t, X, H, y, o)
					Z, ok := refStandardize(X, H, 1)
					wantS, wantScores := bruteGreedy(Z, y, ok, 1, o.Delta, o.MaxK)
					gotS := selectedGlobal(mod)
					if fmt.Sprint(gotS) != fmt.Sprint(wantS) {
						t.Fatalf("selected %v, brute force selects %v", gotS, wantS)
					}
					for j, s := range wantScores {
						if e := relErr(mod.Path[j].Score, s); e > tol {
							t.Errorf("step %d: score %v, brute force %v (rel. error %.1e)", j, mod.Path[j].Score, s, e)
						}
						if e := relErr(mod.Path[j].RegError, 1-s/float64(m)); e > tol {
							t.Errorf("step %d: RegError %v, want 1 − score/m = %v", j, mod.Path[j].RegError, 1-s/float64(m))
						}
					}
					if len(wantS) > 0 {
						w := bruteWeights(Z, y, wantS, 1)
						if e := vecRelErr(mod.Weights, w); e > tol {
							t.Errorf("weights %v, brute force %v (rel. error %.1e)", mod.Weights, w, e)
						}
					}
				})
			}
		}
	}
}

// TestAlgorithm1 checks the two references against each other and Fit's
// scores against the paper's Algorithm 1, candidate by candidate, at every
// step of Fit's path.
func TestAlgorithm1(t *testing.T) {
	for _, c := range []struct{ m, d, n int }{{5, 3, 4}, {12, 10, 20}, {20, 0, 40}, {40, 30, 0}} {
		t.Run(fmt.Sprintf("m=%d/d=%d/n=%d", c.m, c.d, c.n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(c.m)))
			X, H := randDense(rng, c.m, c.d), randDense(rng, c.m, c.n)
			y := randLabels(rng, c.m)
			o := DefaultOptions()
			o.MaxK = 8
			mod := fitT(t, X, H, y, o)
			Z, ok := refStandardize(X, H, 1)
			S := selectedGlobal(mod)
			for j := range S {
				prev := S[:j]
				cand := append([]bool(nil), ok...)
				for _, s := range prev {
					cand[s] = false
				}
				alg1 := algorithm1Scores(Z, y, prev, cand, 1)
				best := -1
				for i, a := range alg1 {
					if !cand[i] {
						continue
					}
					if b := bruteScore(Z, y, append(prev[:j:j], i), 1); relErr(a, b) > tol {
						t.Fatalf("step %d, column %d: Algorithm 1 scores %v, the definition %v", j, i, a, b)
					}
					if best < 0 || a > alg1[best] {
						best = i
					}
				}
				if best != S[j] {
					t.Fatalf("step %d: Fit adds column %d, Algorithm 1 column %d", j, S[j], best)
				}
				if e := relErr(mod.Path[j].Score, alg1[best]); e > tol {
					t.Errorf("step %d: score %v, Algorithm 1 %v", j, mod.Path[j].Score, alg1[best])
				}
			}
		})
	}
}

// illProblem builds an ill-conditioned problem: random columns, exact
// duplicates (one feature duplicated as a source, some sources twice),
// near-duplicates (1e-9 relative perturbation) and constant columns of
// several kinds.
func illProblem(rng *rand.Rand, m int) (X, H *mat.Dense, y []float64) {
	const d = 6
	n := 14 + m // leaves more than 2m usable columns
	X = randDense(rng, m, d)
	H = randDense(rng, m, n)
	y = randLabels(rng, m)
	for i := 0; i < m; i++ {
		H.Set(i, 0, X.At(i, 1))                              // feature 1 == source 0
		H.Set(i, 2, H.At(i, 1))                              // source 2 == source 1
		H.Set(i, 4, 3*H.At(i, 3)-7)                          // source 4 == source 3 after standardising
		H.Set(i, 5, H.At(i, 6)*(1+1e-9*rng.NormFloat64()))   // near-duplicate
		X.Set(i, 3, X.At(i, 2)+1e-9*rng.NormFloat64())       // near-duplicate
		H.Set(i, 7, 0)                                       // zero column
		H.Set(i, 8, 0.1)                                     // constant, not exactly representable
		X.Set(i, 5, 2.5*(1+1e-15*rng.NormFloat64()))         // constant up to rounding
		H.Set(i, 9, y[i]+0.3*rng.NormFloat64())              // informative
		H.Set(i, 10, H.At(i, 9))                             // and its duplicate
		H.Set(i, 11, -H.At(i, 9)*(1+1e-9*rng.NormFloat64())) // and a near-copy, negated
	}
	return X, H, y
}

// TestFitIllConditioned checks Fit along its own path against the
// definition on ill-conditioned problems: at every step the column Fit adds
// must score as high as the best candidate by the definition (to tol), the
// recorded score must equal the definition's, and the final weights and
// fitted values must equal the exact ridge solution's (computed in 256-bit
// arithmetic). Where Fit's column
// differs from the float64 definition's argmax, its exact gain must be at
// least as high (to tol, relative to the gain): this covers duplicates
// (exact ties, which rounding may break either way, here including affine
// copies that standardise to the same column up to rounding) and
// near-duplicates whose gains differ below the float64 definition's
// resolution.
func TestFitIllConditioned(t *testing.T) {
	for _, c := range []struct {
		m      int
		lambda float64
		steps  string // "delta": the paper's δ rule; "2m": δ = 0 and MaxK = 2m
	}{
		{12, 1, "delta"}, {12, 1, "2m"}, {12, 1e-6, "delta"}, {12, 1e-6, "2m"},
		{20, 1, "2m"}, {20, 1e-6, "2m"}, {5, 1e-6, "2m"}, {40, 1e-6, "delta"}, {40, 1e-6, "2m"},
	} {
		t.Run(fmt.Sprintf("m=%d/λ=%g/%s", c.m, c.lambda, c.steps), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(c.m)))
			X, H, y := illProblem(rng, c.m)
			o := DefaultOptions()
			o.Lambda = c.lambda
			if c.steps == "2m" {
				o.Delta, o.MaxK = 0, 2*c.m
			}
			mod := fitT(t, X, H, y, o)
			Z, ok := refStandardize(X, H, 1)
			for j := range ok {
				if ok[j] != !isConstCol(j) {
					t.Fatalf("reference standardisation disagrees on column %d", j)
				}
			}
			checkAlongPath(t, mod, Z, y, ok, o)
		})
	}
}

// isConstCol reports whether illProblem made candidate j constant.
func isConstCol(j int) bool {
	return j == 5 || j == 6+7 || j == 6+8
}

// checkAlongPath verifies each step of mod against the definition.
func checkAlongPath(t *testing.T, mod *Model, Z *mat.Dense, y []float64, ok []bool, o Options) {
	t.Helper()
	m, N := Z.Dims()
	S := selectedGlobal(mod)
	for _, j := range S {
		if !ok[j] {
			t.Fatalf("selected constant column %d", j)
		}
	}
	used := make([]bool, N)
	prev := 0.0
	for j := 0; j <= len(S); j++ {
		best, bestScore := -1, math.Inf(-1)
		for i := 0; i < N; i++ {
			if ok[i] && !used[i] {
				if s := bruteScore(Z, y, append(S[:j:j], i), o.Lambda); s > bestScore {
					best, bestScore = i, s
				}
			}
		}
		if j == len(S) {
			// Fit stopped: check why.
			if best >= 0 && len(S) != o.MaxK && (bestScore-prev)/float64(m) >= o.Delta*(1+tol) {
				t.Errorf("stopped after %d steps, but column %d gains %v ≥ δ", len(S), best, (bestScore-prev)/float64(m))
			}
			break
		}
		got := bruteScore(Z, y, S[:j+1], o.Lambda)
		if relErr(got, bestScore) > tol {
			t.Errorf("step %d: added column %d scoring %v, but column %d scores %v", j, S[j], got, best, bestScore)
		}
		// The float64 definition cannot rank gains much smaller than the
		// score (its argmax is then rounding noise), so where the columns
		// differ compare their exact gains: Fit's may not be lower, up to
		// tol relative.
		if S[j] != best {
			base := bigScore(Z, y, S[:j], o.Lambda)
			gainOurs := new(big.Float).Sub(bigScore(Z, y, S[:j+1], o.Lambda), base)
			gainBest := new(big.Float).Sub(bigScore(Z, y, append(S[:j:j], best), o.Lambda), base)
			if gainOurs.Cmp(new(big.Float).Mul(gainBest, big.NewFloat(1-tol))) < 0 {
				t.Errorf("step %d: added column %d with gain %s, but column %d gains %s", j, S[j], gainOurs.Text('g', 17), best, gainBest.Text('g', 17))
			}
		}
		if e := relErr(mod.Path[j].Score, got); e > tol {
			t.Errorf("step %d: recorded score %v, definition %v (rel. error %.1e)", j, mod.Path[j].Score, got, e)
		}
		if (got-prev)/float64(m) < o.Delta*(1-tol) {
			t.Errorf("step %d: gain %v < δ = %v", j, (got-prev)/float64(m), o.Delta)
		}
		used[S[j]] = true
		prev = got
	}
	if len(S) == 0 {
		return
	}
	// Weights: a backward-stable float64 solve of a system with condition
	// number κ has a forward error of order κ·u, and so has any float64
	// method, so the bound is max(tol, 4κu). The fitted values Z_S w are
	// well conditioned and must agree to tol regardless.
	w := bigWeights(Z, y, S, o.Lambda)
	kappa := mat.Cond(primalSystem(Z, S, o.Lambda), 2)
	tolW := math.Max(tol, 4*kappa*0x1p-53)
	if e := vecRelErr(mod.Weights, w); e > tolW {
		t.Errorf("weights differ from the exact ridge solution: rel. error %.1e > %.1e (κ = %.1e)", e, tolW, kappa)
	}
	fit := make([]float64, m)
	want := make([]float64, m)
	for i := range fit {
		for a, j := range S {
			fit[i] += Z.At(i, j) * mod.Weights[a]
			want[i] += Z.At(i, j) * w[a]
		}
	}
	if e := vecRelErr(fit, want); e > tol {
		t.Errorf("fitted values differ from the exact ridge fit: rel. error %.1e", e)
	}
}
