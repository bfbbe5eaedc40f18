package text

import (
	"fmt"
	"math"
	"testing"
)

// TestBucketUniformity checks that columns and signs of a fixed set of
// n-grams are spread as a good hash would spread them: a chi-square
// statistic per degree of freedom within 5 standard deviations of 1. Without
// the finaliser (column h mod dim) Dim 1024 fails at 5.4 deviations, and
// taking the column from FNV-1a's high bits ((h·dim)>>64) fails with a
// statistic near 2.
func TestBucketUniformity(t *testing.T) {
	var words []string
	for i := range 300 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	var hashes []uint64
	for _, a := range words {
		hashes = append(hashes, fnvAdd(fnvOffset64, []byte(a)))
		for _, b := range words[:100] {
			hashes = append(hashes, fnvAdd(fnvOffset64, []byte(a+" "+b)))
		}
	}
	for _, dim := range []int{1000, 1024, 4096} {
		// Cells are (column, sign) pairs: uniform columns, balanced signs, independent.
		cells := make([]float64, 2*dim)
		for _, h := range hashes {
			col, sign := bucket(h, dim)
			k := 2 * col
			if sign < 0 {
				k++
			}
			cells[k]++
		}
		expected := float64(len(hashes)) / float64(len(cells))
		var chi2 float64
		for _, c := range cells {
			chi2 += (c - expected) * (c - expected) / expected
		}
		dof := float64(len(cells) - 1)
		if z := (chi2/dof - 1) / math.Sqrt(2/dof); math.Abs(z) > 5 {
			t.Errorf("Dim %d: chi-square/dof %.3f is %.1f standard deviations from 1", dim, chi2/dof, z)
		}
	}
}

// TestCorrelatedCollisions checks that colliding unigrams do not drag their
// bigrams along: over pairs of words a, c in the same column, the bigrams
// "a b" and "c b" must share a column about as often as chance (1/dim)
// predicts. With h mod dim instead of mix(h) mod dim they always do for
// dim = 2^k (the low k bits of FNV-1a's state never see higher bits).
func TestCorrelatedCollisions(t *testing.T) {
	var words []string
	for i := range 300 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	hash := func(s string) uint64 { return fnvAdd(fnvOffset64, []byte(s)) }
	for _, dim := range []int{1000, 1024, 4096} {
		column := func(s string) int { c, _ := bucket(hash(s), dim); return c }
		var pairs, same int
		for i, a := range words {
			for _, c := range words[i+1:] {
				if column(a) != column(c) {
					continue
				}
				for _, b := range words[:100] {
					pairs++
					if column(a+" "+b) == column(c+" "+b) {
						same++
					}
				}
			}
		}
		// same is about Binomial(pairs, 1/dim); allow 5 standard deviations.
		mean := float64(pairs) / float64(dim)
		if limit := mean + 5*math.Sqrt(mean) + 1; float64(same) > limit {
			t.Errorf("Dim %d: %d of %d bigram pairs of colliding unigrams collide (chance: %.1f)", dim, same, pairs, mean)
		}
	}
}
