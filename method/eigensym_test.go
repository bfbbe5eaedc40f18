package method

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEigenSymChecked: eigenSymChecked's values and vectors are
// mat.EigenSym's bit for bit — on random symmetric matrices of several
// sizes, and on matrices scaled out of Dsyev's range both ways (1e-300 and
// 1e300), which it rescales as Dsyev does — and it returns the context's
// error, not a decomposition, when the context is done.
func TestEigenSymChecked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 2, 5, 40, 130} {
		for _, scale := range []float64{1, 1e-300, 1e300} {
			a := mat.NewSymDense(n, nil)
			for i := range n {
				for j := i; j < n; j++ {
					a.SetSym(i, j, scale*rng.NormFloat64())
				}
			}
			var eig mat.EigenSym
			wantOK := eig.Factorize(a, true)
			vals, vecs, ok, err := eigenSymChecked(context.Background(), a)
			if err != nil || ok != wantOK {
				t.Fatalf("n = %d, scale %g: ok %v, err %v; want ok %v", n, scale, ok, err, wantOK)
			}
			if !ok {
				continue
			}
			want := eig.Values(nil)
			var wantVecs mat.Dense
			eig.VectorsTo(&wantVecs)
			for i, v := range want {
				if math.Float64bits(v) != math.Float64bits(vals[i]) {
					t.Fatalf("n = %d, scale %g: value %d is %v, EigenSym's %v", n, scale, i, vals[i], v)
				}
			}
			if !mat.Equal(vecs, &wantVecs) {
				t.Errorf("n = %d, scale %g: vectors differ from EigenSym's", n, scale)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	if vals, _, _, err := eigenSymChecked(ctx, a); err != context.Canceled || vals != nil {
		t.Errorf("done context: values %v, err %v; want none and context.Canceled", vals, err)
	}
}
