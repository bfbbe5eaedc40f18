package greedytl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
)

// TestBlock32AgainstReferences runs the tests against the paper's
// definition (brute force, Algorithm 1, 256-bit weights, brute-force
// leave-one-out), the tie rule and the recorded fits with every exact
// search screened through the float32 block (exact32.go), in the
// automatic form and with every path forced primal and dual.
func TestBlock32AgainstReferences(t *testing.T) {
	setForTest(t, &block32Mode, block32On)
	tests := referenceTests() // "Sample" among them fits sampled paths only: the block is the exact search's
	delete(tests, "Sample")
	forms := []int{formAuto}
	if !testing.Short() {
		forms = append(forms, formPrimal, formDual)
	}
	for _, form := range forms {
		t.Run(formNames[form], func(t *testing.T) {
			withForm(t, form, func(t *testing.T) {
				for name, f := range tests {
					t.Run(name, f)
				}
			})
		})
	}
}

// TestBlock32MatchesBlock64 fits exact GreedyTL with the float64 and the
// float32 block over shapes with many candidates and long paths, small λ,
// γ ≠ 1 and duplicated columns, and checks that both select the same
// columns and agree on weights and path errors to 1e-10.
func TestBlock32MatchesBlock64(t *testing.T) {
	for _, c := range []struct {
		m, d, n, maxK int
		lambda, gamma float64
	}{{30, 10, 400, 60, 1, 1}, {200, 50, 950, 60, 1, 1}, {60, 0, 300, 120, 1e-3, 1}, {80, 40, 200, 90, 0.1, 0.5}, {500, 20, 300, 40, 10, 2}} {
		t.Run(fmt.Sprintf("m=%d/d=%d/n=%d/λ=%g/γ=%g", c.m, c.d, c.n, c.lambda, c.gamma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.m), uint64(c.n)))
			X, H := randDense(rng, c.m, c.d), randDense(rng, c.m, c.n)
			for i := 0; i < c.m; i++ {
				H.Set(i, c.n-1, H.At(i, 3)) // a duplicate: the tie goes to column 3
			}
			y := randLabels(rng, c.m)
			o := DefaultOptions()
			o.Delta, o.MaxK, o.Lambda, o.FeatureFactor = 0, c.maxK, c.lambda, c.gamma
			mods := fitBothBlocks(t, block32On, X, H, y, o)
			for j := range mods[0].Path {
				a, b := mods[0].Path[j], mods[1].Path[j]
				if relErr(a.RegError, b.RegError) > 1e-10 || relErr(a.LOOError, b.LOOError) > 1e-10 {
					t.Errorf("step %d: path errors %+v and %+v", j, a, b)
				}
			}
		})
	}
}

// TestBlock32Products checks the products b = Ẑᵀy that writeBlock leaves
// for the screened search against gemvT32 over the block it wrote, bit for
// bit: row-major input with and without constant columns (the rows
// gathered), features and sources (two bands of slots), a column whose
// factor overflowed (written again, dividing), a transposed input and one
// read through At (column by column), at row counts that end in every
// remainder of four.
func TestBlock32Products(t *testing.T) {
	setForTest(t, &block32Mode, block32On)
	for _, c := range []struct {
		name   string
		m, d   int
		n      int
		shape  string
		consts bool
	}{
		{"sources", 37, 0, 50, "dense", false},
		{"features+sources", 40, 13, 45, "dense", false},
		{"constants", 38, 9, 41, "dense", true},
		{"subnormal", 39, 5, 30, "subnormal", false},
		{"transposed", 21, 6, 33, "transposed", true},
		{"At", 22, 0, 19, "at", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.m), uint64(c.n)))
			X, H := randDense(rng, c.m, c.d), randDense(rng, c.m, c.n)
			if c.consts {
				for i := 0; i < c.m; i++ {
					H.Set(i, 2, 5)
					if c.d > 0 {
						X.Set(i, 0, -1)
					}
				}
			}
			if c.shape == "subnormal" {
				for i := 0; i < c.m; i++ {
					H.Set(i, 4, float64(i%3)*0x1p-1070) // std subnormal: γ/std overflows
				}
			}
			var Hm mat.Matrix = H
			switch c.shape {
			case "transposed":
				Hm = mat.DenseCopyOf(H.T()).T()
			case "at":
				Hm = generic{H}
			}
			y := randLabels(rng, c.m)
			in, err := newInputs("greedytl.Fit", X, Hm, y, 1)
			if err != nil {
				t.Fatal(err)
			}
			e, err := newExact(context.Background(), in, y)
			if err != nil {
				t.Fatal(err)
			}
			defer e.release()
			if !e.f32 {
				t.Fatal("the block is not float32")
			}
			if c.shape == "subnormal" && !slices.ContainsFunc(e.f, func(f float64) bool { return math.IsInf(f, 1) }) {
				t.Fatal("no factor overflowed")
			}
			want := make([]float64, e.n)
			gemvT32(want, e.z32, e.m, e.n, y)
			for s := range want {
				if math.Float64bits(e.b[s]) != math.Float64bits(want[s]) {
					t.Fatalf("slot %d: b = %v, gemvT32 over the block %v", s, e.b[s], want[s])
				}
			}
		})
	}
}

// TestBlock32Bounds runs the float64 and the screened search in lockstep
// on one path and checks, at every step and for every unselected
// candidate, that the screened search's running c_i and t_i lie within
// its error bounds of the float64 search's, and that both pick the same
// candidate.
func TestBlock32Bounds(t *testing.T) {
	for _, c := range []struct {
		m, n, steps   int
		lambda, gamma float64
	}{{40, 300, 60, 1, 1}, {300, 500, 50, 1e-2, 1}, {100, 200, 99, 1, 3}} {
		t.Run(fmt.Sprintf("m=%d/n=%d/λ=%g/γ=%g", c.m, c.n, c.lambda, c.gamma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(c.m)))
			X, H := randDense(rng, c.m, 20), randDense(rng, c.m, c.n)
			y := randLabels(rng, c.m)
			in, err := newInputs("greedytl.Fit", X, H, y, c.gamma)
			if err != nil {
				t.Fatal(err)
			}
			var es [2]*exactEngine
			for i, mode := range []int{block32Off, block32On} {
				setForTest(t, &block32Mode, mode)
				if es[i], err = newExact(context.Background(), in, y); err != nil {
					t.Fatal(err)
				}
				defer es[i].release()
				if err := es[i].reset(c.lambda); err != nil {
					t.Fatal(err)
				}
			}
			e64, e32 := es[0], es[1]
			p := newPathFor(y, c.lambda, newFeatureScale(c.gamma, true), c.steps, 0)
			for step := 0; step < c.steps; step++ {
				s, s32 := pickT(t, e64, p), pickT(t, e32, p)
				if s != s32 {
					t.Fatalf("step %d: the screened search picks slot %d, the float64 one %d", step, s32, s)
				}
				for i := range e64.c {
					if math.IsInf(e64.c[i], 1) {
						continue
					}
					if d := math.Abs(e32.c[i] - e64.c[i]); !(d <= e32.ec[i]) {
						t.Fatalf("step %d, slot %d: c = %v, float64 %v: off by %.3g, bound %.3g", step, i, e32.c[i], e64.c[i], d, e32.ec[i])
					}
					if d := math.Abs(e32.t[i] - e64.t[i]); !(d <= e32.et[i]) {
						t.Fatalf("step %d, slot %d: t = %v, float64 %v: off by %.3g, bound %.3g", step, i, e32.t[i], e64.t[i], d, e32.et[i])
					}
				}
				z := append([]float64(nil), e64.col(s)...)
				if z32 := e32.col(s); fmt.Sprint(z32) != fmt.Sprint(z) {
					t.Fatalf("step %d: the screened search's column %d differs from the block's", step, s)
				}
				advance(t, p, s, z, e64, e32)
			}
		})
	}
}

// TestBlock32Threshold checks the shape rule at its boundaries: the
// float64 block of 4 MB stays float64 and one column more goes float32
// (where the machine has the kernel), as long as there are block32MinRows
// rows, and fits on both sides of the 4 MB boundary select what the
// float64 search selects, with the same weights to 1e-10.
func TestBlock32Threshold(t *testing.T) {
	const m = block32MinRows
	nAt := block32Bytes / (8 * m)
	if useBlock32(m, nAt, 1) {
		t.Errorf("a %d-byte block is stored in float32", 8*m*nAt)
	}
	if got := useBlock32(m, nAt+1, 1); got != haveKernel32 {
		t.Errorf("a %d-byte block: float32 %v, want %v", 8*m*(nAt+1), got, haveKernel32)
	}
	if useBlock32(m-1, 100*nAt, 1) {
		t.Errorf("%d rows are stored in float32", m-1)
	}
	if useBlock32(m, nAt+1, 1e40) {
		t.Error("values beyond float32's range are stored in float32")
	}
	if testing.Short() {
		t.Skip("fits a 4 MB block four times")
	}
	for _, n := range []int{nAt, nAt + 1} {
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		H := randDense(rng, m, n)
		y := randLabels(rng, m)
		o := DefaultOptions()
		o.Delta, o.MaxK = 0, 25
		fitBothBlocks(t, block32Auto, nil, H, y, o)
	}
}

// advance adds slot s (column z) to path p as run does, and tells the
// engines es.
func advance(t *testing.T, p *path, s int, z []float64, es ...engine) {
	t.Helper()
	c, tt, err := p.score(z)
	if err != nil {
		t.Fatal(err)
	}
	refreshed, err := p.add(s, z, c, tt)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		e.added(p, s, p.g, c, tt/c, refreshed)
	}
}

// TestBlock32COIL100 fits exact GreedyTL on real, correlated features —
// 2,000 COIL-100 images (HOG, d = 800), ten classes against the other
// ninety — with the float64 and the float32 block, and checks that both
// select the same 40 columns with the same weights to 1e-10.
func TestBlock32COIL100(t *testing.T) {
	f, err := dataset.LoadFolder(shareddata.Path(t, "coil100/hog"))
	if err != nil {
		t.Fatal(err)
	}
	F, labels := f.X, f.Labels
	if testing.Short() {
		t.Skip("fits 2,000 × 800 features twice")
	}
	rows, d := F.Dims()
	const m = 2000
	rng := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for i, r := range rng.Perm(rows)[:m] {
		X.SetRow(i, F.RawRowView(r))
		y[i] = -1
		if labels[r] < 10 {
			y[i] = 1
		}
	}
	o := DefaultOptions()
	o.Delta, o.MaxK = 0, 40
	fitBothBlocks(t, block32On, X, nil, y, o)
}

// fitBothBlocks fits with the float64 block and with the block mode, and
// fails unless both select the same columns with the same weights to
// 1e-10; it returns the two models, the float64 block's first.
func fitBothBlocks(t *testing.T, mode int, X, H mat.Matrix, y []float64, o Options) [2]*Model {
	t.Helper()
	var mods [2]*Model
	for i, md := range []int{block32Off, mode} {
		setForTest(t, &block32Mode, md)
		mods[i] = fitT(t, X, H, y, o)
	}
	if a, b := fmt.Sprint(mods[0].Selected), fmt.Sprint(mods[1].Selected); a != b {
		t.Fatalf("block mode %d selects %s, the float64 block %s", mode, b, a)
	}
	if e := vecRelErr(mods[1].Weights, mods[0].Weights); e > 1e-10 {
		t.Errorf("weights differ by %.1e", e)
	}
	return mods
}

// pickT is e.pick(p), failing t on an error.
func pickT(t *testing.T, e engine, p *path) int {
	t.Helper()
	s, err := e.pick(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
