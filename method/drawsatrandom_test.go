package method

import (
	"testing"

	"github.com/greedytl/greedytl"
)

// seedOnly is a method whose Needs say it draws at random, with no
// DrawsAtRandom of its own.
type seedOnly struct{ seed bool }

func (s seedOnly) Needs() Needs { return Needs{Seed: s.seed} }

// TestDrawsAtRandom calls method.DrawsAtRandom directly: GreedyTL draws
// only with a sample below its candidates (d features and n sources; the
// sources alone when γ = 0), one against the rest as its binary method
// does, and any other method as its Needs say.
func TestDrawsAtRandom(t *testing.T) {
	greedy := func(sample int, gamma float64) *GreedyTL {
		return &GreedyTL{Options: greedytl.Options{Sample: sample, FeatureFactor: gamma}}
	}
	const d, n = 10, 4
	for _, tc := range []struct {
		name string
		m    interface{ Needs() Needs }
		want bool
	}{
		{"no sample", greedy(0, 1), false},
		{"sample below d+n", greedy(d+n-1, 1), true},
		{"sample of d+n", greedy(d+n, 1), false},
		// γ = 0: the sources alone are candidates, so a sample between n
		// and d+n scores every one of them.
		{"γ = 0, sample between n and d+n", greedy(n+1, 0), false},
		{"γ = 0, sample of n", greedy(n, 0), false},
		{"γ = 0, sample below n", greedy(n-1, 0), true},
		{"one vs rest, drawing", OneVsRest{Binary: greedy(d+n-1, 1)}, true},
		{"one vs rest, every candidate", OneVsRest{Binary: greedy(d+n, 1)}, false},
		{"one vs rest, γ = 0 above n", OneVsRest{Binary: greedy(n+1, 0)}, false},
		{"one vs rest, no method", OneVsRest{}, false},
		{"needs a seed", seedOnly{true}, true},
		{"needs none", seedOnly{false}, false},
	} {
		if got := DrawsAtRandom(tc.m, d, n); got != tc.want {
			t.Errorf("%s: DrawsAtRandom = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Asked itself, one against the rest without a binary method draws nothing.
	if (OneVsRest{}).DrawsAtRandom(d, n) {
		t.Error("OneVsRest{}.DrawsAtRandom = true, want false")
	}
}
