package method

import (
	"testing"
)

// TestStratifiedFolds checks the fold assignment: every fold holds
// ⌊m_c/k⌋ or ⌈m_c/k⌉ examples of each class c, and the same seed gives the
// same folds.
func TestStratifiedFolds(t *testing.T) {
	for _, tc := range []struct{ pos, neg, k int }{{2, 10, 2}, {5, 10, 5}, {10, 10, 5}, {3, 17, 3}} {
		y := make([]float64, tc.pos+tc.neg)
		for i := range y {
			y[i] = -1
			if i%(len(y)/tc.pos) == 0 && i/(len(y)/tc.pos) < tc.pos {
				y[i] = 1
			}
		}
		pos, neg, _ := classCounts(y)
		fold := stratifiedFolds(y, tc.k, 9)
		for f := range tc.k {
			var p, n int
			for i, fi := range fold {
				if fi == f && y[i] > 0 {
					p++
				} else if fi == f {
					n++
				}
			}
			if p < pos/tc.k || p > (pos+tc.k-1)/tc.k || n < neg/tc.k || n > (neg+tc.k-1)/tc.k {
				t.Errorf("%d+%d, k = %d: fold %d holds %d positives and %d negatives", pos, neg, tc.k, f, p, n)
			}
		}
		again := stratifiedFolds(y, tc.k, 9)
		for i := range fold {
			if fold[i] != again[i] {
				t.Fatalf("%d+%d: the same seed gave other folds", pos, neg)
			}
		}
	}
}
