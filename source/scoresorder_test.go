package source

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
)

// reversedGemm is gonum's BLAS but for Dgemm, which sums each element's
// terms last feature first: a BLAS (OpenBLAS, say) that orders a
// product's sums its own way.
type reversedGemm struct{ gonum.Implementation }

func (reversedGemm) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if tA != blas.NoTrans || tB != blas.NoTrans {
		panic("reversedGemm: transposed operands")
	}
	for i := range m {
		for j := range n {
			var v float64
			for l := k - 1; l >= 0; l-- {
				v += float64(a[i*lda+l] * b[l*ldb+j])
			}
			c[i*ldc+j] = alpha*v + beta*c[i*ldc+j]
		}
	}
}

// TestScoresFixedOrder checks that Set.Scores sums each score's terms in
// the order of the features, from 0, then adds the bias (the order gonum's
// own Dgemm gives X·W), whatever the BLAS the program installed
// (blas64.Use), whatever the rows scored beside a row (a large X is
// scored in chunks on several workers), and for X of any matrix type: so
// that predict may score --sources a block of rows at a time in every
// build. ScoresCSR gives the same bits on the same rows. Before Scores
// summed its own way it called mat.Dense.Mul, whose sums under
// reversedGemm differ from these in their last bits.
func TestScoresFixedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	const d, n = 150, 5
	models := make([]*linear.Model, n)
	names := make([]string, n)
	for j := range models {
		models[j] = randomModel(rng, d-j, float64(j%2), []int{1 - 2*(j%2), 2*(j%2) - 1})
		names[j] = "s"
	}
	set, err := NewSet(names, models)
	if err != nil {
		t.Fatal(err)
	}
	X := randomDense(rng, 700, d+3)
	for i := range 700 { // zeros, which the sums skip
		X.Set(i, i%d, 0)
	}
	// want: the sequential sums, from the definition.
	want := mat.NewDense(700, n, nil)
	for i := range 700 {
		for j := range n {
			var v float64
			for k := range d {
				v += float64(X.At(i, k) * set.w.At(k, j))
			}
			want.Set(i, j, v+set.b[j])
		}
	}
	same := func(what string, got *mat.Dense, lo int) {
		t.Helper()
		r, _ := got.Dims()
		for i := range r {
			for j := range n {
				if g, w := got.At(i, j), want.At(lo+i, j); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%s: row %d source %d is %v, want the sum in feature order %v", what, lo+i, j, g, w)
				}
			}
		}
	}
	score := func(what string, A mat.Matrix, lo int) {
		t.Helper()
		got, err := set.Scores(A)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		same(what, got, lo)
	}
	run := func(blasName string) {
		score(blasName+", whole", X, 0)
		score(blasName+", rows 300-301", X.Slice(300, 301, 0, d+3), 300)
		score(blasName+", rows 64-639", X.Slice(64, 640, 0, d+3), 64)
		var T mat.Dense // a transposed view: read by At
		T.CloneFrom(X.T())
		score(blasName+", a transposed view", T.T(), 0)
	}
	run("gonum")
	blas64.Use(reversedGemm{})
	defer blas64.Use(gonum.Implementation{})
	run("reversedGemm")

	// ScoresCSR: the same sums on the same rows.
	var csr sparse.CSR
	csr.R, csr.C = 700, d+3
	csr.Ptr = []int{0}
	for i := range 700 {
		for k := range d + 3 {
			if v := X.At(i, k); v != 0 {
				csr.Ind, csr.Val = append(csr.Ind, k), append(csr.Val, v)
			}
		}
		csr.Ptr = append(csr.Ptr, len(csr.Ind))
	}
	got, err := set.ScoresCSR(&csr)
	if err != nil {
		t.Fatal(err)
	}
	same("ScoresCSR", got, 0)
}
