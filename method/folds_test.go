package method

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMultinomialFoldsReference pins multinomialFoldsOf, whose folds choose
// multinomial-logistic's C (and so the published results and model files),
// to referenceMultinomialFolds over random label vectors (classes of any
// size, empty ones included), fold counts and seeds.
func TestMultinomialFoldsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		K := 2 + rng.IntN(6)
		y := ClassLabels{Names: make([]string, K), Y: make([]int, 1+rng.IntN(80))}
		for i := range y.Y {
			// Skewed class sizes: class c is drawn about twice as often as c+1.
			y.Y[i] = min(K-1, int(rng.ExpFloat64()*1.4))
		}
		k := 1 + rng.IntN(len(y.Y))
		seed := rng.Uint64()
		got, want := multinomialFoldsOf(y, k, seed), referenceMultinomialFolds(y, k, seed)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: labels %v, %d folds, seed %d: folds %v, want %v", trial, y.Y, k, seed, got, want)
		}
	}
}

// referenceMultinomialFolds is multinomialFoldsOf's definition written
// another way: the rows sorted stably by class, each class's run of them
// (class 0's first) shuffled in place by rand.Shuffle from PCG(seed,
// 0x6e776179); the row at position p of that order goes to fold p mod k.
// (An empty class has no run, and rand.Shuffle draws nothing for it.)
func referenceMultinomialFolds(y ClassLabels, k int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x6e776179))
	order := make([]int, len(y.Y))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return y.Y[a] - y.Y[b] })
	for start, end := 0, 0; start < len(order); start = end {
		for end = start; end < len(order) && y.Y[order[end]] == y.Y[order[start]]; end++ {
		}
		run := order[start:end]
		rng.Shuffle(len(run), func(a, b int) { run[a], run[b] = run[b], run[a] })
	}
	fold := make([]int, len(y.Y))
	for p, i := range order {
		fold[i] = p % k
	}
	return fold
}
