package greedytl_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
)

// TestAutoLambdaCOIL100 runs λ = auto on real problems: COIL-100 HOG
// features (d = 800, no sources), one target class against the next 20
// classes, with 2 + 10 and 10 + 10 training examples, 10 targets × 10
// splits each (× 3 with -short). Leave-one-out on columns centred with every example
// predicted a left-out example of a nearly interpolating fit as
// y_i − Σ_{j≠i} y_j: on 10 + 10 that is y_i itself, and the grid's smallest
// λ (1e-4) won a third of the fits; on 2 + 10 it is far off (10 for a
// positive), and λ = 1000 won every fit. The honest leave-one-out must
// favour neither end of the grid. The choices and the mean balanced
// accuracy on the remaining images of the 21 classes are logged.
func TestAutoLambdaCOIL100(t *testing.T) {
	F, err := dataset.ReadNPYMatrix(shareddata.Path(t, "coil100/hog/features.npy"))
	if err != nil {
		t.Fatal(err)
	}
	labels, err := dataset.ReadNPYInts(shareddata.Path(t, "coil100/hog/labels.npy"))
	if err != nil {
		t.Fatal(err)
	}
	byClass := map[int][]int{}
	for i, c := range labels {
		byClass[c] = append(byClass[c], i)
	}
	_, d := F.Dims()
	const nneg, others = 10, 20
	splits := uint64(10)
	if testing.Short() {
		splits = 3 // the same rule on 30 fits a size with -short
	}
	for _, npos := range []int{2, 10} {
		chosen := map[float64]int{}
		var fits int
		var bacc float64
		for target := 0; target < 100; target += 10 {
			var neg []int
			for k := 1; k <= others; k++ {
				neg = append(neg, byClass[(target+k)%100]...)
			}
			pos := byClass[target]
			for split := range splits {
				rng := rand.New(rand.NewPCG(uint64(target), split))
				var rows []int
				for _, k := range rng.Perm(len(pos))[:npos] {
					rows = append(rows, pos[k])
				}
				for _, k := range rng.Perm(len(neg))[:nneg] {
					rows = append(rows, neg[k])
				}
				X := mat.NewDense(len(rows), d, nil)
				y := make([]float64, len(rows))
				for i, r := range rows {
					X.SetRow(i, F.RawRowView(r))
					y[i] = -1
					if i < npos {
						y[i] = 1
					}
				}
				o := greedytl.DefaultOptions()
				o.AutoLambda = true
				mod, err := greedytl.Fit(context.Background(), X, nil, y, o)
				if err != nil {
					t.Fatal(err)
				}
				chosen[mod.Options.Lambda]++
				fits++
				bacc += heldOutBalancedAccuracy(t, mod, F, byClass, target, others, rows)
			}
		}
		t.Logf("%d+%d: λ chosen over %d fits: %v; mean held-out balanced accuracy %.3f", npos, nneg, fits, chosen, bacc/float64(fits))
		for _, l := range []float64{1e-4, 1e3, 1e4} {
			if n := chosen[l]; n > fits/10 {
				t.Errorf("%d+%d: λ = %g, at the end of the grid, chosen in %d of %d fits: %v", npos, nneg, l, n, fits, chosen)
			}
		}
	}
}

// heldOutBalancedAccuracy returns the balanced accuracy of mod on the
// images of target (positive) and the next others classes (negative) that
// are not in train.
func heldOutBalancedAccuracy(t *testing.T, mod *greedytl.Model, F *mat.Dense, byClass map[int][]int, target, others int, train []int) float64 {
	t.Helper()
	used := map[int]bool{}
	for _, r := range train {
		used[r] = true
	}
	var right, total [2]float64
	for k := 0; k <= others; k++ {
		c := 0 // negative
		if k == 0 {
			c = 1
		}
		var rows []int
		for _, r := range byClass[(target+k)%100] {
			if !used[r] {
				rows = append(rows, r)
			}
		}
		_, d := F.Dims()
		X := mat.NewDense(len(rows), d, nil)
		for i, r := range rows {
			X.SetRow(i, F.RawRowView(r))
		}
		f, err := mod.Predict(X, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range f {
			if (v > 0) == (c == 1) {
				right[c]++
			}
			total[c]++
		}
	}
	return (right[0]/total[0] + right[1]/total[1]) / 2
}
