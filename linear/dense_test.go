package linear

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/sparse"
)

// denseData returns rows × cols float32 values, a fraction zeros of them
// exactly zero, with labels ±1 that depend on the first columns.
func denseData(seed uint64, rows, cols int, zeros float64) ([]float32, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([]float32, rows*cols)
	y := make([]float64, rows)
	for i := range rows {
		s := 0.0
		for j := range cols {
			if rng.Float64() >= zeros {
				x[i*cols+j] = float32(rng.NormFloat64())
			}
			if j < 3 {
				s += float64(x[i*cols+j])
			}
		}
		y[i] = 1
		if s+0.5*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	return x, y
}

// csrOf is the sparse matrix of the given rows of a dense float32 matrix,
// built independently of Dense.CSR.
func csrOf(x []float32, cols int, rows []int) *sparse.CSR {
	a := &sparse.CSR{R: len(rows), C: cols, Ptr: make([]int, len(rows)+1)}
	for k, i := range rows {
		for j, v := range x[i*cols : (i+1)*cols] {
			if v != 0 {
				a.Ind = append(a.Ind, j)
				a.Val = append(a.Val, float64(v))
			}
		}
		a.Ptr[k+1] = len(a.Ind)
	}
	return a
}

// TestDenseTrainsLikeCSR: a Dense problem — float32 or float64 storage,
// rows with and without zeros, all rows or a selection — gives every
// classifier the weights of the CSR problem of the same rows, bit for bit,
// and the same cross-validated choice of C.
func TestDenseTrainsLikeCSR(t *testing.T) {
	const rows, cols = 120, 37
	for _, zeros := range []float64{0, 0.3, 0.8} {
		x, yAll := denseData(uint64(10*zeros)+1, rows, cols, zeros)
		if d, _ := NewDense32(x, cols, nil); (d.sp != nil) != (zeros > 0) {
			t.Fatalf("zeros %v: sparse storage %v", zeros, d.sp != nil)
		}
		x64 := make([]float64, len(x))
		for k, v := range x {
			x64[k] = float64(v)
		}
		sel := []int{5, 3, 99, 100, 101, 0, 7, 64}
		for i := 20; i < rows; i += 2 {
			sel = append(sel, i)
		}
		for _, index := range [][]int{nil, sel} {
			want := index
			if want == nil {
				for i := range rows {
					want = append(want, i)
				}
			}
			y := make([]float64, len(want))
			for k, i := range want {
				y[k] = yAll[i]
			}
			d32, err := NewDense32(x, cols, index)
			if err != nil {
				t.Fatal(err)
			}
			d64, err := NewDense64(x64, cols, index)
			if err != nil {
				t.Fatal(err)
			}
			ref := &Problem{X: csrOf(x, cols, want), Y: y, Bias: 1}
			for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual, L2RLR, L2RL2LossSVC, L2RLRDual, L1RLR} {
				p := Params{Solver: s, C: 0.7, Seed: 4}
				wm, err := Train(context.Background(), ref, p)
				if err != nil {
					t.Fatal(err)
				}
				for name, d := range map[string]*Dense{"float32": d32, "float64": d64} {
					got, err := Train(context.Background(), &Problem{Dense: d, Y: y, Bias: 1}, p)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got.W, wm.W) || got.NrFeature != cols || got.Converged != wm.Converged {
						t.Errorf("zeros %v, index %v, %v, %s: weights differ from the CSR problem's", zeros, index != nil, s, name)
					}
				}
			}
			grid := []float64{0.01, 0.1, 1, 10}
			bestRef, scoresRef, err := SelectCBy(context.Background(), ref, Params{Solver: L2RL2LossSVCDual, Seed: 2}, grid, 5, 9, metric.BalancedAccuracy)
			if err != nil {
				t.Fatal(err)
			}
			best, scores, err := SelectCBy(context.Background(), &Problem{Dense: d32, Y: y, Bias: 1}, Params{Solver: L2RL2LossSVCDual, Seed: 2}, grid, 5, 9, metric.BalancedAccuracy)
			if err != nil || best != bestRef || !slices.Equal(scores, scoresRef) {
				t.Errorf("zeros %v, index %v: SelectCBy %v %v (%v), want %v %v", zeros, index != nil, best, scores, err, bestRef, scoresRef)
			}
			if obj, objRef := PrimalObjective(&Problem{Dense: d32, Y: y, Bias: 1}, Params{Solver: L2RL2LossSVCDual, C: 1}, make([]float64, cols+1)), float64(len(y)); obj != objRef {
				t.Errorf("objective at w = 0: %v, want %v", obj, objRef)
			}
		}
	}
}

func TestDenseSelectAndCSR(t *testing.T) {
	x, _ := denseData(2, 10, 4, 0.4)
	d, err := NewDense32(x, 4, []int{9, 2, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	s := d.Select([]int{3, 0})
	if s.Rows() != 2 || s.Cols() != 4 || s.storage(0) != 6 || s.storage(1) != 9 {
		t.Errorf("Select: %d rows, storage %v", s.Rows(), s.index)
	}
	got, want := s.CSR(), csrOf(x, 4, []int{6, 9})
	if !slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Ind, want.Ind) || !slices.Equal(got.Val, want.Val) {
		t.Errorf("CSR %+v, want %+v", got, want)
	}
}

func TestNewDenseErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		data  []float32
		cols  int
		index []int
		want  string
	}{
		{"ragged", make([]float32, 7), 2, nil, "not a whole number of rows"},
		{"no columns", nil, 0, nil, "not a whole number of rows"},
		{"index", make([]float32, 6), 2, []int{3}, "row index 3 out of range [0, 3)"},
		{"NaN", []float32{1, 2, float32(math.NaN()), 4}, 2, nil, "linear: storage row 1 column 0 is NaN"},
	} {
		if _, err := NewDense32(tt.data, tt.cols, tt.index); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	d, _ := NewDense32(make([]float32, 4), 2, nil)
	if _, err := Train(context.Background(), &Problem{Dense: d, Y: []float64{1}}, Params{Solver: L2RL2LossSVCDual, C: 1}); err == nil || !strings.Contains(err.Error(), "1 labels for 2 rows") {
		t.Errorf("label count: error %v", err)
	}
}

// TestZeroDense: a nil or zero Dense (not made by NewDense32 or NewDense64)
// has no rows or columns, and Train and CrossValidate refuse a problem of
// it with an error, where Rows divided by its zero column count.
func TestZeroDense(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic %v", r)
		}
	}()
	var nilDense *Dense
	for _, d := range []*Dense{nilDense, {}} {
		if d.Rows() != 0 || d.Cols() != 0 {
			t.Errorf("%#v: %d rows, %d columns", d, d.Rows(), d.Cols())
		}
	}
	prob := &Problem{Dense: &Dense{}, Y: []float64{1}}
	if _, err := Train(context.Background(), prob, Params{}); err == nil || err.Error() != "linear: problem has no rows" {
		t.Errorf("Train: %v", err)
	}
	if _, err := CrossValidate(context.Background(), prob, Params{}, 2, 1); err == nil {
		t.Error("CrossValidate accepted a zero Dense")
	}
}
