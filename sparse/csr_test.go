package sparse

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomDense returns an r×c matrix with about half its entries zero.
func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			if rng.IntN(2) == 0 {
				d.Set(i, j, rng.NormFloat64())
			}
		}
	}
	return d
}

func TestCSRAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, shape := range [][2]int{{1, 1}, {3, 7}, {10, 4}, {25, 25}} {
		r, c := shape[0], shape[1]
		d := randomDense(rng, r, c)
		a := FromDense(d)
		if err := a.Check(); err != nil {
			t.Fatalf("%dx%d: %v", r, c, err)
		}
		if !mat.Equal(a.Dense(), d) {
			t.Fatalf("%dx%d: Dense(FromDense(d)) != d", r, c)
		}
		w := make([]float64, c)
		for j := range w {
			w[j] = rng.NormFloat64()
		}
		for i := range r {
			row := d.RawRowView(i)
			if got, want := a.RowDot(i, w), mat.Dot(mat.NewVecDense(c, row), mat.NewVecDense(c, w)); !near(got, want) {
				t.Errorf("RowDot(%d) = %v, want %v", i, got, want)
			}
			if got, want := a.RowNorm2(i), mat.Dot(mat.NewVecDense(c, row), mat.NewVecDense(c, row)); !near(got, want) {
				t.Errorf("RowNorm2(%d) = %v, want %v", i, got, want)
			}
			acc := append([]float64(nil), w...)
			a.RowAxpy(i, 2.5, acc)
			for j := range c {
				if !near(acc[j], w[j]+2.5*row[j]) {
					t.Fatalf("RowAxpy(%d)[%d] = %v", i, j, acc[j])
				}
			}
			for j := range c {
				if a.At(i, j) != d.At(i, j) {
					t.Fatalf("At(%d,%d) = %v, want %v", i, j, a.At(i, j), d.At(i, j))
				}
			}
		}
		tr := a.Transpose()
		if err := tr.Check(); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(tr.Dense(), d.T()) {
			t.Fatalf("%dx%d: Transpose differs from the dense transpose", r, c)
		}
		rows := []int{r - 1, 0, r / 2}
		sel := a.SelectRows(rows)
		for k, i := range rows {
			for j := range c {
				if sel.At(k, j) != d.At(i, j) {
					t.Fatalf("SelectRows: (%d,%d) = %v, want row %d's %v", k, j, sel.At(k, j), i, d.At(i, j))
				}
			}
		}
	}
}

func near(a, b float64) bool {
	diff := a - b
	if diff < 0 {
		diff = -diff
	}
	return diff <= 1e-12*(1+max(a, -a, b, -b))
}

func TestCheckRejectsMalformed(t *testing.T) {
	for name, a := range map[string]*CSR{
		"short Ptr":        {R: 2, C: 2, Ptr: []int{0, 1}, Ind: []int{0}, Val: []float64{1}},
		"unsorted indices": {R: 1, C: 3, Ptr: []int{0, 2}, Ind: []int{2, 1}, Val: []float64{1, 2}},
		"index too large":  {R: 1, C: 2, Ptr: []int{0, 1}, Ind: []int{2}, Val: []float64{1}},
		"Val length":       {R: 1, C: 2, Ptr: []int{0, 1}, Ind: []int{0}, Val: nil},
		"decreasing Ptr":   {R: 2, C: 2, Ptr: []int{0, 2, 1}, Ind: []int{0, 1}, Val: []float64{1, 2}},
	} {
		if err := a.Check(); err == nil {
			t.Errorf("%s: Check accepted it", name)
		}
	}
}
