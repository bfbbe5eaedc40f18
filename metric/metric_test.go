package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBalancedAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float64
		y      []float64
		want   float64
	}{
		{"perfect", []float64{1, 2, -1, -3}, []float64{1, 1, -1, -1}, 1},
		{"all negative on 2+10", []float64{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
			[]float64{1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, 0.5},
		{"zero is negative", []float64{0, 0}, []float64{1, -1}, 0.5},
		{"one of two positives", []float64{1, -1, -1, 1}, []float64{1, 1, -1, -1}, 0.5},
		{"imbalanced", []float64{1, -1, -1, -1, 1}, []float64{1, -1, -1, -1, -1}, (1 + 0.75) / 2},
		{"positives only", []float64{1, -1, 1}, []float64{1, 1, 1}, 2.0 / 3},
		{"NaN score is negative", []float64{math.NaN(), -1}, []float64{1, -1}, 0.5},
		{"{0, 1} labels", []float64{1, -1, 1}, []float64{1, 0, 0}, (1 + 0.5) / 2},
		{"label 2 is positive", []float64{1, -1}, []float64{2, -1}, 1},
	} {
		got, err := BalancedAccuracy(tc.scores, tc.y)
		if err != nil || math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := BalancedAccuracy([]float64{1}, nil); err == nil {
		t.Error("length mismatch: want error")
	}
	if _, err := BalancedAccuracy(nil, nil); err == nil {
		t.Error("empty: want error")
	}
}

// TestClassAccuracy checks ClassAccuracy against a hand count: 3 classes,
// class 2 absent from the labels (left out of the balanced accuracy).
func TestClassAccuracy(t *testing.T) {
	y := []int{0, 0, 0, 1, 1}
	pred := []int{0, 1, 0, 1, 2}
	acc, bal, present, err := ClassAccuracy(pred, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	conf, err := Confusion(pred, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Recalls: class 0 2/3, class 1 1/2.
	if acc != 3.0/5 || math.Abs(bal-(2.0/3+1.0/2)/2) > 1e-15 || present != 2 || conf[0][1] != 1 || conf[1][2] != 1 || conf[0][0] != 2 {
		t.Errorf("accuracy %v, balanced %v, present %d, confusion %v", acc, bal, present, conf)
	}
	for _, bad := range [][2][]int{{{0}, {0, 1}}, {{}, {}}, {{3}, {0}}, {{0}, {-1}}} {
		if _, _, _, err := ClassAccuracy(bad[0], bad[1], 3); err == nil {
			t.Errorf("predictions %v for labels %v: no error", bad[0], bad[1])
		}
		if _, err := Confusion(bad[0], bad[1], 3); err == nil {
			t.Errorf("Confusion: predictions %v for labels %v: no error", bad[0], bad[1])
		}
	}
	// A class count below one is an error, not a panic (make of a
	// negative length) or an error blaming the example.
	for _, tc := range []struct {
		K    int
		want string
	}{{0, "metric: 0 classes, want at least one"}, {-1, "metric: -1 classes, want at least one"}} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("K = %d: panic %v", tc.K, r)
				}
			}()
			if _, _, _, err := ClassAccuracy([]int{0}, []int{0}, tc.K); err == nil || err.Error() != tc.want {
				t.Errorf("K = %d: %v, want %q", tc.K, err, tc.want)
			}
		}()
	}
}

// TestClassAccuracyMemory: ClassAccuracy counts per class, O(K), not in a
// K × K matrix (K + 1 allocations, 72 MB at K = 3,000, for two examples)
// that its callers mostly drop: Confusion builds that for those that
// report it.
func TestClassAccuracyMemory(t *testing.T) {
	const K = 3000
	pred, y := []int{5, K - 1}, []int{5, 7}
	allocs := testing.AllocsPerRun(3, func() {
		if _, _, _, err := ClassAccuracy(pred, y, K); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("ClassAccuracy of %d classes: %v allocations, want at most 2 (counts per class)", K, allocs)
	}
}

// TestClassAccuracyOnePass: ClassAccuracy and Confusion, which check the
// classes in the pass that counts them, give the two-pass definition's
// numbers bit for bit (check every index, then count; the balanced
// accuracy summed over the classes in index order), and for an index out
// of range the first bad example's error, wherever it lies.
func TestClassAccuracyOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		K, m := 1+rng.IntN(7), 1+rng.IntN(60)
		pred, y := make([]int, m), make([]int, m)
		for i := range m {
			pred[i], y[i] = rng.IntN(K), rng.IntN(K)
		}
		total, hits := make([]int, K), make([]int, K)
		conf := make([][]int, K)
		for k := range conf {
			conf[k] = make([]int, K)
		}
		correct := 0
		for i, c := range y {
			total[c]++
			conf[c][pred[i]]++
			if pred[i] == c {
				hits[c]++
				correct++
			}
		}
		var bal float64
		present := 0
		for c, n := range total {
			if n > 0 {
				bal += float64(hits[c]) / float64(n)
				present++
			}
		}
		acc, gotBal, gotPresent, err := ClassAccuracy(pred, y, K)
		gotConf, cerr := Confusion(pred, y, K)
		if err != nil || cerr != nil || acc != float64(correct)/float64(m) || gotBal != bal/float64(present) || gotPresent != present {
			t.Fatalf("trial %d: %v %v %d %v %v; want %v %v %d", trial, acc, gotBal, gotPresent, err, cerr, float64(correct)/float64(m), bal/float64(present), present)
		}
		for c := range conf {
			if !slices.Equal(gotConf[c], conf[c]) {
				t.Fatalf("trial %d: confusion %v, want %v", trial, gotConf, conf)
			}
		}
		bad := rng.IntN(m)
		second := rng.IntN(m)
		if second > bad {
			y[second] = -1 // a later bad example: not the one named
		}
		pred[bad] = K
		want := fmt.Sprintf("metric: example %d: class %d predicted %d, want classes 0 … %d", bad, y[bad], K, K-1)
		if _, _, _, err := ClassAccuracy(pred, y, K); err == nil || err.Error() != want {
			t.Errorf("trial %d: ClassAccuracy error %v, want %q", trial, err, want)
		}
		if _, err := Confusion(pred, y, K); err == nil || err.Error() != want {
			t.Errorf("trial %d: Confusion error %v, want %q", trial, err, want)
		}
	}
}
