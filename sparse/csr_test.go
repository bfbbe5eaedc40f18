package sparse

import (
	"math/rand/v2"
	"slices"
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
		// a row ending past the stored values: Check must say so, not
		// slice past len(Ind) and panic
		"Ptr past Ind": {R: 2, C: 3, Ptr: []int{0, 5, 2}, Ind: []int{0, 1}, Val: []float64{1, 2}},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Check panicked: %v", name, r)
				}
			}()
			if err := a.Check(); err == nil {
				t.Errorf("%s: Check accepted it", name)
			}
		}()
	}
}

// TestStopper: a Stopper calls its function at the first count of values
// done that is at least 65,536 past its last call (past 0 at first), and
// only there, and returns the function's answer; one of nil never stops.
func TestStopper(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for range 50 {
		done := make([]int, 200) // counts of values done, rising by 0 to 40,000
		for i := 1; i < len(done); i++ {
			done[i] = done[i-1] + rng.IntN(40001)
		}
		answer := rng.IntN(2) == 0
		var called []int
		s := NewStopper(func() bool { called = append(called, len(called)); return answer })
		var want, got []int // the indices of done at which it is to call, and calls
		last := 0
		for i, d := range done {
			if d-last >= 1<<16 {
				want = append(want, i)
				last = d
			}
			n := len(called)
			if stop := s.Stop(d); len(called) > n {
				got = append(got, i)
				if stop != answer {
					t.Fatalf("Stop returned %v, its function %v", stop, answer)
				}
			} else if stop {
				t.Fatal("Stop returned true without calling its function")
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("calls at %v, want %v", got, want)
		}
		nilStop := NewStopper(nil)
		for _, d := range done {
			if nilStop.Stop(d) {
				t.Fatal("a Stopper of nil stopped")
			}
		}
	}
}

// TestTransposeUnless: TransposeUnless gives the transpose (Dense's) when
// its function never stops, having called it first and then once per
// 65,536 values moved (Stopper), and nil when it stops at any call.
func TestTransposeUnless(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	d := randomDense(rng, 500, 400) // about 100,000 values: a block and a half
	a := FromDense(d)
	calls := 0
	tr := a.TransposeUnless(func() bool { calls++; return false })
	if !mat.Equal(tr.Dense(), d.T()) || tr.Check() != nil {
		t.Fatal("TransposeUnless is not the transpose")
	}
	if want := 1 + len(a.Val)/(1<<16); calls != want {
		t.Errorf("%d calls of its function for %d values, want %d", calls, len(a.Val), want)
	}
	for k := 1; k <= calls; k++ {
		n := 0
		if a.TransposeUnless(func() bool { n++; return n == k }) != nil || n != k {
			t.Errorf("stopped at call %d: a transpose, or %d calls", k, n)
		}
	}
}

// TestDenseEmpty: a CSR without rows (or columns) is the empty mat.Dense,
// and Dense does not first allocate a 1 × C (or R × 1) matrix it throws
// away (8 MB for C = 2^20).
func TestDenseEmpty(t *testing.T) {
	for _, a := range []*CSR{{R: 0, C: 1 << 20, Ptr: []int{0}}, {R: 1 << 20, C: 0, Ptr: make([]int, 1<<20+1)}} {
		var d *mat.Dense
		allocs := testing.AllocsPerRun(3, func() { d = a.Dense() })
		if !d.IsEmpty() || allocs > 1 {
			t.Errorf("%d × %d: Dense is empty %v, %v allocations; want empty, 1", a.R, a.C, d.IsEmpty(), allocs)
		}
	}
}

// TestFromDenseNil: FromDense of no matrix — nil, a nil *mat.Dense, the
// transpose of one — is the valid 0 × 0 CSR, as that of the empty
// mat.Dense is (they panicked in Dims).
// TestCheckNil: Check of a nil CSR is an error, not a nil dereference.
func TestCheckNil(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("Check of a nil CSR: panic %v", r)
		}
	}()
	var a *CSR
	if err := a.Check(); err == nil || err.Error() != "sparse: nil CSR" {
		t.Errorf("Check of a nil CSR: %v", err)
	}
}

func TestFromDenseNil(t *testing.T) {
	for _, m := range []mat.Matrix{nil, (*mat.Dense)(nil), (*mat.VecDense)(nil), (*mat.Dense)(nil).T(), &mat.Dense{}} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("FromDense(%#v): panic %v", m, r)
				}
			}()
			a := FromDense(m)
			if r, c := a.Dims(); r != 0 || c != 0 || a.Check() != nil {
				t.Errorf("FromDense(%#v) = %d × %d, Check %v; want the valid 0 × 0 CSR", m, r, c, a.Check())
			}
		}()
	}
}
