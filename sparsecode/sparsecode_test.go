package sparsecode

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
)

// randomDictionary returns K random unit-norm atoms of length p: rows of
// independent normal entries, normalised.
func randomDictionary(rng *rand.Rand, K, p int) *mat.Dense {
	data := make([]float64, K*p)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	d := mat.NewDense(K, p, data)
	for k := range K {
		Normalise(d.RawRowView(k))
	}
	return d
}

// orthonormalDictionary returns K ≤ p orthonormal atoms of length p.
func orthonormalDictionary(rng *rand.Rand, K, p int) *mat.Dense {
	var qr mat.QR
	qr.Factorize(randomDictionary(rng, p, p))
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, K, 0, p))
}

// naiveOMP is orthogonal matching pursuit written from its definition: the
// residual is recomputed from an explicit least-squares fit on the chosen
// atoms at every step.
func naiveOMP(dict *mat.Dense, x []float64, sparsity int) []float64 {
	K, p := dict.Dims()
	r := append([]float64(nil), x...)
	var support []int
	gamma := make([]float64, K)
	for len(support) < sparsity {
		best, bestAbs := -1, 1e-12*floats.Norm(x, 2)
		for k := range K {
			var c float64
			for j := range p {
				c += dict.At(k, j) * r[j]
			}
			chosen := false
			for _, s := range support {
				chosen = chosen || s == k
			}
			if !chosen && math.Abs(c) > bestAbs {
				best, bestAbs = k, math.Abs(c)
			}
		}
		if best < 0 {
			break
		}
		support = append(support, best)
		A := mat.NewDense(p, len(support), nil)
		for a, k := range support {
			for j := range p {
				A.Set(j, a, dict.At(k, j))
			}
		}
		var sol mat.VecDense
		if err := sol.SolveVec(A, mat.NewVecDense(p, x)); err != nil {
			panic(err)
		}
		clear(gamma)
		for a, k := range support {
			gamma[k] = sol.AtVec(a)
		}
		copy(r, x)
		for a, k := range support {
			for j := range p {
				r[j] -= sol.AtVec(a) * dict.At(k, j)
			}
		}
	}
	return gamma
}

func TestOMPOrthonormalRecovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct{ K, p, s int }{{8, 8, 1}, {8, 8, 3}, {10, 30, 4}, {5, 5, 5}} {
		dict := orthonormalDictionary(rng, tc.K, tc.p)
		gram := Gram(dict)
		for range 20 {
			want := make([]float64, tc.K)
			for _, k := range rng.Perm(tc.K)[:tc.s] {
				want[k] = rng.NormFloat64() + math.Copysign(0.5, rng.NormFloat64())
			}
			x := make([]float64, tc.p)
			mat.NewVecDense(tc.p, x).MulVec(dict.T(), mat.NewVecDense(tc.K, want))
			got := OMP(dict, gram, x, tc.s)
			for k := range want {
				if (got[k] == 0) != (want[k] == 0) || math.Abs(got[k]-want[k]) > 1e-12 {
					t.Fatalf("K=%d p=%d s=%d: code %v, want %v", tc.K, tc.p, tc.s, got, want)
				}
			}
		}
	}
}

// TestOMPBruteForce: for an orthonormal dictionary the best s-term
// approximation (found by trying every support) is what OMP returns, even
// for a signal that is not sparse.
func TestOMPBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const K, p, s = 6, 9, 2
	dict := orthonormalDictionary(rng, K, p)
	gram := Gram(dict)
	for range 50 {
		x := make([]float64, p)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		best := math.Inf(1)
		for a := range K {
			for b := a + 1; b < K; b++ {
				A := mat.NewDense(p, 2, nil)
				A.SetCol(0, dict.RawRowView(a))
				A.SetCol(1, dict.RawRowView(b))
				var c mat.VecDense
				if err := c.SolveVec(A, mat.NewVecDense(p, x)); err != nil {
					t.Fatal(err)
				}
				var r mat.VecDense
				r.MulVec(A, &c)
				r.SubVec(mat.NewVecDense(p, x), &r)
				best = math.Min(best, mat.Norm(&r, 2))
			}
		}
		got := OMP(dict, gram, x, s)
		r := append([]float64(nil), x...)
		for k, g := range got {
			for j := range r {
				r[j] -= g * dict.At(k, j)
			}
		}
		if math.Abs(floats.Norm(r, 2)-best) > 1e-12 {
			t.Fatalf("OMP residual %g, best 2-term residual %g", floats.Norm(r, 2), best)
		}
	}
}

// TestOMPNaive compares the batch (Gram-based) OMP with OMP from its
// definition on overcomplete random dictionaries, and checks that the
// residual is orthogonal to the chosen atoms.
func TestOMPNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct{ K, p, s int }{{20, 10, 3}, {12, 50, 5}, {30, 8, 8}} {
		dict := randomDictionary(rng, tc.K, tc.p)
		gram := Gram(dict)
		for range 20 {
			x := make([]float64, tc.p)
			for j := range x {
				x[j] = rng.NormFloat64()
			}
			got := OMP(dict, gram, x, tc.s)
			want := naiveOMP(dict, x, tc.s)
			for k := range got {
				if math.Abs(got[k]-want[k]) > 1e-9*(1+math.Abs(want[k])) {
					t.Fatalf("K=%d p=%d s=%d: code[%d] = %g, naive %g", tc.K, tc.p, tc.s, k, got[k], want[k])
				}
			}
			r := append([]float64(nil), x...)
			for k, g := range got {
				for j := range r {
					r[j] -= g * dict.At(k, j)
				}
			}
			for k, g := range got {
				if g == 0 {
					continue
				}
				if c := mat.Dot(mat.NewVecDense(tc.p, r), dict.RowView(k)); math.Abs(c) > 1e-10 {
					t.Fatalf("residual not orthogonal to chosen atom %d: %g", k, c)
				}
			}
		}
	}
}

func TestOMPDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	dict := randomDictionary(rng, 4, 6)
	dict.SetRow(3, dict.RawRowView(0)) // a duplicated atom
	gram := Gram(dict)
	x := make([]float64, 6)
	mat.NewVecDense(6, x).MulVec(dict.T(), mat.NewVecDense(4, []float64{2, 0, 0, 0}))
	got := OMP(dict, gram, x, 4)
	if got[0] != 2 && got[3] != 2 {
		t.Errorf("code %v: want 2 on atom 0 or its copy 3", got)
	}
	for _, g := range got {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			t.Fatalf("code %v", got)
		}
	}
	if got := OMP(dict, gram, make([]float64, 6), 2); floats.Norm(got, 2) != 0 {
		t.Errorf("zero signal: code %v", got)
	}
}

// TestTopSingular checks K-SVD's rank-one step against gonum's SVD: the
// largest singular value and its singular vectors (up to a common sign),
// on tall, wide, single-row, rank-deficient and zero matrices.
func TestTopSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, tc := range []struct {
		name string
		r, p int
		dup  bool
	}{
		{"one row", 1, 30, false},
		{"few rows", 3, 50, false},
		{"many rows", 20, 80, false},
		{"square", 6, 6, false},
		{"duplicated rows", 5, 40, true},
	} {
		e := mat.NewDense(tc.r, tc.p, nil)
		for i := range tc.r {
			for j := range tc.p {
				e.Set(i, j, rng.NormFloat64())
			}
		}
		if tc.dup {
			e.SetRow(1, e.RawRowView(0))
			e.SetRow(2, e.RawRowView(0))
		}
		right := make([]float64, tc.p)
		sigma, left, ok := topSingular(e, right)
		if !ok {
			t.Fatalf("%s: not ok", tc.name)
		}
		var svd mat.SVD
		if !svd.Factorize(e, mat.SVDThin) {
			t.Fatal("SVD failed")
		}
		var u, v mat.Dense
		svd.UTo(&u)
		svd.VTo(&v)
		want := svd.Values(nil)[0]
		if math.Abs(sigma-want) > 1e-12*want {
			t.Errorf("%s: σ = %.15g, SVD %.15g", tc.name, sigma, want)
		}
		sign := math.Copysign(1, floats.Dot(right, mat.Col(nil, 0, &v)))
		for j := range right {
			if math.Abs(right[j]-sign*v.At(j, 0)) > 1e-9 {
				t.Errorf("%s: right vector %d = %g, SVD %g", tc.name, j, right[j], sign*v.At(j, 0))
				break
			}
		}
		for i := range left {
			if math.Abs(left[i]-sign*u.At(i, 0)) > 1e-9 {
				t.Errorf("%s: left vector %d = %g, SVD %g", tc.name, i, left[i], sign*u.At(i, 0))
				break
			}
		}
	}
	right := []float64{3, 4}
	if _, _, ok := topSingular(mat.NewDense(2, 2, nil), right); ok || right[0] != 3 || right[1] != 4 {
		t.Errorf("zero matrix: ok = %v, right = %v (want false and unchanged)", ok, right)
	}
}

// TestKSVD: every dictionary update lowers (never raises) the error for
// the codes it starts from, the error falls overall, the atoms have unit
// norm, and a seed fixes the result.
func TestKSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	// Signals that are 2-sparse on a hidden dictionary, plus noise.
	const N, K, p, s = 40, 8, 15, 2
	hidden := randomDictionary(rng, K, p)
	signals := mat.NewDense(N, p, nil)
	for i := range N {
		row := signals.RawRowView(i)
		for _, k := range rng.Perm(K)[:s] {
			g := rng.NormFloat64()
			for j := range row {
				row[j] += g * hidden.At(k, j)
			}
		}
		for j := range row {
			row[j] += 0.01 * rng.NormFloat64()
		}
	}
	dict, trace, err := KSVD(context.Background(), signals, K, s, 15, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	for it, st := range trace {
		if st.After > st.Before*(1+1e-12) {
			t.Errorf("iteration %d: the update raised the error from %g to %g", it, st.Before, st.After)
		}
	}
	first, last := trace[0].Before, trace[len(trace)-1].After
	t.Logf("error %g → %g (signal energy %g)", first, last, mat.Norm(signals, 2)*mat.Norm(signals, 2))
	if last > 0.25*first {
		t.Errorf("K-SVD reduced the error from %g only to %g", first, last)
	}
	for k := range K {
		if n := floats.Norm(dict.RawRowView(k), 2); math.Abs(n-1) > 1e-12 {
			t.Errorf("atom %d has norm %g", k, n)
		}
	}
	again, _, err := KSVD(context.Background(), signals, K, s, 15, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(dict, again) {
		t.Error("same seed, different dictionaries")
	}
}

// TestAdaptPath: the path starts at D₀, every step lowers the target's
// residual by at least dictPathTol, and the atoms stay unit-norm.

// TestKSVDStopsWhenDone: KSVD checks its context before each signal's code,
// each atom's update and each error evaluation; cancelled at any of those
// checks, it returns context.Canceled and no dictionary.
func TestKSVDStopsWhenDone(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	signals := randomDictionary(rng, 20, 10) // 20 unit-norm signals
	all := fitctxtest.NewCountdown(math.MaxInt64)
	if _, _, err := KSVD(all, signals, 5, 2, 3, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	// One check to start, then per iteration one for Codes, one per
	// signal, one per atom and one before the error after the update.
	if want := int64(1 + 3*(1+20+5+1)); all.Calls() != want {
		t.Errorf("%d checks, want %d", all.Calls(), want)
	}
	for k := range all.Calls() {
		ctx := fitctxtest.NewCountdown(k)
		if dict, _, err := KSVD(ctx, signals, 5, 2, 3, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, context.Canceled) || dict != nil {
			t.Errorf("cancelled at check %d: err %v", k+1, err)
		}
	}
}

// TestNormaliseScaleEquivariant: Normalise(2^k·v) is Normalise(v), and
// reports v not zero, at magnitudes whose squares overflow (k = 600, 1000)
// or underflow (k = −600, −1000) float64, down to subnormal components
// (k = −1030, −1070: the norm's reciprocal overflows), and at the top of
// float64's range (k = 1021: 4·2^1021 = 2^1023).
func TestNormaliseScaleEquivariant(t *testing.T) {
	v := []float64{3, -4, 1.5}
	want := append([]float64(nil), v...)
	if !Normalise(want) {
		t.Fatal("Normalise calls v zero")
	}
	for _, k := range []int{600, 1000, 1021, -600, -1000, -1030, -1070} {
		got := append([]float64(nil), v...)
		for i := range got {
			got[i] = math.Ldexp(got[i], k)
		}
		if !Normalise(got) {
			t.Errorf("k = %d: Normalise calls 2^k·v zero", k)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-15*math.Abs(want[i]) {
				t.Errorf("k = %d: component %d is %v, want %v", k, i, got[i], want[i])
			}
		}
	}
}

// TestKSVDRejectsBadInput: KSVD returns an error, not a panic or a trace of
// NaN, for more atoms than signals, no atoms, and a NaN or +Inf signal
// value (named by row and column).
func TestKSVDRejectsBadInput(t *testing.T) {
	signals := mat.NewDense(3, 4, []float64{1, 2, 0, 1, 0, 1, 3, 1, 2, 0, 1, 1})
	nan := mat.DenseCopyOf(signals)
	nan.Set(1, 2, math.NaN())
	inf := mat.DenseCopyOf(signals)
	inf.Set(2, 0, math.Inf(1))
	huge := mat.DenseCopyOf(signals)
	huge.Scale(1e300, huge)
	// Each row's squared norm is finite, their sum (the error of zero
	// codes) is not.
	large := largeOrthogonalSignals()
	for _, tc := range []struct {
		name    string
		signals *mat.Dense
		atoms   int
		want    string
	}{
		{"more atoms than signals", signals, 4, "sparsecode: KSVD of 4 atoms for 3 signals: want 1 to 3 atoms"},
		{"no atoms", signals, 0, "sparsecode: KSVD of 0 atoms for 3 signals: want 1 to 3 atoms"},
		{"NaN", nan, 2, "sparsecode: KSVD: signals row 1 column 2 is NaN"},
		{"Inf", inf, 2, "sparsecode: KSVD: signals row 2 column 0 is +Inf"},
		// These panicked (nil pointer; a nil rng too), or gave a trace
		// of +Inf errors without an error (squares beyond float64's
		// range), or ran no iteration without saying so.
		{"nil signals", nil, 1, "sparsecode: KSVD: no signals"},
		{"empty signals", &mat.Dense{}, 1, "sparsecode: KSVD: no signals"},
		{"squares overflow", huge, 2, "sparsecode: KSVD: the squared norm of signals row 0 overflows float64: rescale the signals"},
		{"errors overflow", large, 1, "sparsecode: KSVD: the squared error of iteration 1 before the dictionary update is +Inf (beyond float64's range): rescale the signals"},
		{"negative sparsity", signals, 2, "sparsecode: KSVD: sparsity -1: want sparsity ≥ 0"},
		{"negative iterations", signals, 2, "sparsecode: KSVD: -1 iterations: want iterations ≥ 0"},
		{"nil rng", signals, 2, "sparsecode: KSVD: nil rng"},
	} {
		sparsity, iters, rng := 1, 2, rand.New(rand.NewPCG(1, 1))
		switch tc.name {
		case "negative sparsity":
			sparsity = -1
		case "errors overflow":
			sparsity = 0
		case "negative iterations":
			iters = -1
		case "nil rng":
			rng = nil
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: KSVD panicked: %v", tc.name, r)
				}
			}()
			_, trace, err := KSVD(context.Background(), tc.signals, tc.atoms, sparsity, iters, rng)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: KSVD returned trace %v, error %v; want the error %q", tc.name, trace, err, tc.want)
			}
		}()
	}
}

// TestCodesRejectsBadSignals: Codes returns an error, not a panic or a
// zero code, for signals of another length than the atoms' and for a NaN
// or ±Inf signal value or atom value (an atom holding one was never
// chosen: the codes came back without an error, on the other atoms).
func TestCodesRejectsBadSignals(t *testing.T) {
	dict := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	good := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, tc := range []struct {
		name          string
		dict, signals *mat.Dense
		want          string
	}{
		{"length", dict, mat.NewDense(1, 3, []float64{1, 1, 1}), "sparsecode: signals of length 3 on atoms of length 2"},
		{"NaN", dict, mat.NewDense(2, 2, []float64{1, 0, 0, math.NaN()}), "sparsecode: signals row 1 column 1 is NaN"},
		{"Inf", dict, mat.NewDense(1, 2, []float64{math.Inf(-1), 0}), "sparsecode: signals row 0 column 0 is -Inf"},
		{"NaN atom", mat.NewDense(2, 2, []float64{1, 0, 0, math.NaN()}), good, "sparsecode: dictionary row 1 column 1 is NaN"},
		{"Inf atom", mat.NewDense(2, 2, []float64{1, 0, math.Inf(1), 0}), good, "sparsecode: dictionary row 1 column 0 is +Inf"},
		// These panicked: a nil pointer, mat's zero length, makeslice.
		{"nil dictionary", nil, good, "sparsecode: no dictionary"},
		{"empty dictionary", &mat.Dense{}, good, "sparsecode: no dictionary"},
		{"nil signals", dict, nil, "sparsecode: no signals"},
		{"empty signals", dict, &mat.Dense{}, "sparsecode: no signals"},
		{"negative sparsity", dict, good, "sparsecode: sparsity -1: want sparsity ≥ 0"},
	} {
		sparsity := 1
		if tc.name == "negative sparsity" {
			sparsity = -1
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Codes panicked: %v", tc.name, r)
				}
			}()
			codes, err := Codes(context.Background(), tc.dict, tc.signals, sparsity)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: codes %v, error %v; want the error %q", tc.name, codes, err, tc.want)
			}
		}()
	}
}

// largeOrthogonalSignals returns 4 orthogonal signals, each of squared
// norm 0.3·MaxFloat64: ||T||²_F overflows float64, no row's does.
func largeOrthogonalSignals() *mat.Dense {
	c := math.Sqrt(0.3 * math.MaxFloat64)
	return mat.NewDense(4, 4, []float64{c, 0, 0, 0, 0, c, 0, 0, 0, 0, c, 0, 0, 0, 0, c})
}

// TestKSVDLargeSignals: KSVD learns 4 atoms of sparsity 1 for 4
// orthogonal signals of squared norm 0.3·MaxFloat64 each, exactly (every
// error 0), though ||T||²_F overflows: checking ||T||²_F, only a bound on
// the errors, refused them.
func TestKSVDLargeSignals(t *testing.T) {
	_, trace, err := KSVD(context.Background(), largeOrthogonalSignals(), 4, 1, 2, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatalf("KSVD: %v", err)
	}
	if len(trace) != 2 {
		t.Fatalf("KSVD: %d steps in the trace, want 2", len(trace))
	}
	for i, st := range trace {
		if st.Before != 0 || st.After != 0 {
			t.Errorf("KSVD: step %d is %+v, want zero errors", i, st)
		}
	}
}

// TestKernelPanics: OMP, Gram and ResidualNorm2, which have no error
// result, panic as their doc comments say — with a message naming the
// function, never a runtime error (a nil dereference, an index out of
// range) — on nil, empty and mismatched arguments; and Normalise accepts
// an empty vector.
func TestKernelPanics(t *testing.T) {
	dict := randomDictionary(rand.New(rand.NewPCG(9, 9)), 3, 4)
	gram := Gram(dict)
	signals, codes := mat.NewDense(2, 4, nil), mat.NewDense(2, 3, nil)
	for _, c := range []struct {
		name, want string
		f          func()
	}{
		{"OMP, nil dictionary", "OMP: no dictionary", func() { OMP(nil, gram, make([]float64, 4), 1) }},
		{"OMP, empty dictionary", "OMP: no dictionary", func() { OMP(&mat.Dense{}, gram, make([]float64, 4), 1) }},
		{"OMP, nil Gram", "OMP: Gram matrix nil for 3 atoms", func() { OMP(dict, nil, make([]float64, 4), 1) }},
		{"OMP, empty Gram", "OMP: Gram matrix 0 × 0 for 3 atoms", func() { OMP(dict, &mat.SymDense{}, make([]float64, 4), 1) }},
		{"OMP, Gram of other atoms", "OMP: Gram matrix 2 × 2 for 3 atoms", func() { OMP(dict, mat.NewSymDense(2, nil), make([]float64, 4), 1) }},
		{"OMP, nil signal", "OMP: signal of length 0 on atoms of length 4", func() { OMP(dict, gram, nil, 1) }},
		{"OMP, short signal", "OMP: signal of length 3 on atoms of length 4", func() { OMP(dict, gram, make([]float64, 3), 1) }},
		{"OMP, negative sparsity", "OMP: sparsity -1", func() { OMP(dict, gram, make([]float64, 4), -1) }},
		{"Gram, nil dictionary", "Gram: no dictionary", func() { Gram(nil) }},
		{"Gram, empty dictionary", "Gram: no dictionary", func() { Gram(&mat.Dense{}) }},
		{"ResidualNorm2, nil signals", "ResidualNorm2: no signals", func() { ResidualNorm2(nil, codes, dict, nil) }},
		{"ResidualNorm2, nil codes", "ResidualNorm2: no codes", func() { ResidualNorm2(signals, nil, dict, nil) }},
		{"ResidualNorm2, nil dictionary", "ResidualNorm2: no dictionary", func() { ResidualNorm2(signals, codes, nil, nil) }},
		{"ResidualNorm2, codes of other signals", "ResidualNorm2: 1 × 3 codes of 2 × 4 signals on 3 × 4 atoms", func() { ResidualNorm2(signals, mat.NewDense(1, 3, nil), dict, nil) }},
		{"ResidualNorm2, codes of other atoms", "ResidualNorm2: 2 × 2 codes of 2 × 4 signals on 3 × 4 atoms", func() { ResidualNorm2(signals, mat.NewDense(2, 2, nil), dict, nil) }},
		{"ResidualNorm2, signals of other length", "ResidualNorm2: 2 × 3 codes of 2 × 5 signals on 3 × 4 atoms", func() { ResidualNorm2(mat.NewDense(2, 5, nil), codes, dict, nil) }},
	} {
		errtest.Panics(t, c.name, "sparsecode: ", c.want, c.f)
	}
	for _, v := range [][]float64{nil, {}} {
		if Normalise(v) {
			t.Errorf("Normalise(%v) = true for an empty vector", v)
		}
	}
	if got := ResidualNorm2(signals, codes, dict, nil); got != 0 {
		t.Errorf("ResidualNorm2 of zero signals and codes = %v", got)
	}
	if got := OMP(dict, gram, make([]float64, 4), 0); floats.Norm(got, 2) != 0 || len(got) != 3 {
		t.Errorf("OMP at sparsity 0 = %v", got)
	}
}
