package grid

import (
	"slices"
	"testing"
)

func TestGrids(t *testing.T) {
	// The literals are the float64 nearest to each power, as Go's parser
	// (correctly rounded) reads them.
	for _, tc := range []struct {
		name      string
		got, want []float64
	}{
		{"Regularization", Regularization(), []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4}},
		{"Tau", Tau(), []float64{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3}},
		{"PowersOfTen(2, 1)", PowersOfTen(2, 1), []float64{}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Fresh slices: changing one does not change the next.
	g := Regularization()
	g[0] = 7
	if Regularization()[0] != 1e-4 {
		t.Error("Regularization returns a shared slice")
	}
}
