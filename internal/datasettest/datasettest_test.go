package datasettest

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBlobsWriteFolder(t *testing.T) {
	b := Blobs(1, 3, 4, 5, 10)
	if r, c := b.X.Dims(); r != 12 || c != 5 || !slices.Equal(b.Labels, []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}) ||
		!slices.Equal(b.Classes, []string{"c0", "c1", "c2"}) {
		t.Fatalf("blobs %d×%d, labels %v, classes %v", r, c, b.Labels, b.Classes)
	}
	// Each row is nearest its own class's centre 10·e_k.
	for i, k := range b.Labels {
		for j := range 5 {
			if v := b.X.At(i, j); (j == k) != (v > 5) {
				t.Errorf("row %d (class %d): x_%d = %g", i, k, j, v)
			}
		}
	}
	for _, groups := range [][]string{nil, {"g", "g", "h"}} {
		b.Groups = groups
		f := WriteFolder(t, b)
		if f.Dir == "" || !mat.Equal(f.X, b.X) || !slices.Equal(f.Labels, b.Labels) ||
			!slices.Equal(f.Classes, b.Classes) || !slices.Equal(f.Groups, groups) {
			t.Errorf("groups %v: read back %+v", groups, f)
		}
	}
}

func TestShuffled(t *testing.T) {
	f := Shuffled(2, []int{5, 30, 1}, []float64{100, 0, -100})
	if r, c := f.X.Dims(); r != 36 || c != 3 || !slices.Equal(f.Classes, []string{"c0", "c1", "c2"}) {
		t.Fatalf("%d×%d, classes %v", r, c, f.Classes)
	}
	counts := make([]int, 3)
	for i, k := range f.Labels {
		counts[k]++
		// Column k carries the centre; unit noise stays far below 50.
		if v := f.X.At(i, 0); (k == 0) != (v > 50) {
			t.Errorf("row %d (class %d): x_0 = %g", i, k, v)
		}
		if v := f.X.At(i, 2); (k == 2) != (v < -50) {
			t.Errorf("row %d (class %d): x_2 = %g", i, k, v)
		}
	}
	if !slices.Equal(counts, []int{5, 30, 1}) {
		t.Errorf("class counts %v", counts)
	}
	if slices.IsSorted(f.Labels) {
		t.Error("rows not shuffled")
	}
	if g := Shuffled(2, []int{5, 30, 1}, []float64{100, 0, -100}); !mat.Equal(g.X, f.X) || !slices.Equal(g.Labels, f.Labels) {
		t.Error("same seed, different data")
	}
}
