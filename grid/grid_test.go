package grid

import (
	"slices"
	"strconv"
	"testing"
)

func TestGrids(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  []float64
		want []string
	}{
		{"Regularization", Regularization(), []string{"1e-4", "1e-3", "1e-2", "1e-1", "1", "1e1", "1e2", "1e3", "1e4"}},
		{"Tau", Tau(), []string{"1e-3", "1e-2", "1e-1", "1", "1e1", "1e2", "1e3"}},
		{"PowersOfTen(2, 1)", PowersOfTen(2, 1), nil},
	} {
		var want []float64
		for _, s := range tc.want {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, v)
		}
		if !slices.Equal(tc.got, want) && len(tc.got)+len(want) > 0 {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, want)
		}
	}
	// Fresh slices: changing one does not change the next.
	g := Regularization()
	g[0] = 7
	if Regularization()[0] != 1e-4 {
		t.Error("Regularization returns a shared slice")
	}
}
