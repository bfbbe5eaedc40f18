package greedytl

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/greedytl/greedytl/internal/cputime"

	"gonum.org/v1/gonum/mat"
)

// TestDrawIsIntN checks that the sampled search's draw gives what
// rand.Rand.IntN gives on the same stream, draw after draw, for ranges
// that are powers of two (a mask), small, odd, and so large that the
// multiply-and-reject step rejects often (n just above 2⁶³), over several
// seeds: the same seed draws the same candidates as before draw existed.
// The large ranges are written from math.MaxInt (2⁶² + 1, 2⁶³ − 1 and
// 3·2⁶¹ where int has 64 bits) so that the test builds where it has 32.
func TestDrawIsIntN(t *testing.T) {
	ns := []int{1, 2, 3, 7, 64, 1000, 4995, 1 << 20, 1<<31 - 1, math.MaxInt/2 + 2, math.MaxInt, 3 * (math.MaxInt/4 + 1)}
	for _, seed := range []uint64{0, 1, 59, 1 << 40} {
		for _, n := range ns {
			e := &sampleEngine{seed: seed}
			e.pcg = rand.NewPCG(seed, seed)
			e.rng = rand.New(e.pcg)
			want := rand.New(rand.NewPCG(seed, seed))
			for i := 0; i < 5000; i++ {
				if got, w := e.draw(n), want.IntN(n); got != w {
					t.Fatalf("seed %d, n = %d: draw %d = %d, IntN %d", seed, n, i, got, w)
				}
			}
		}
	}
}

// TestSweepSelectsAsLazy checks that reading every column in one sweep
// before the first draw (sweep, which Fit chooses when the draws are
// expected to cover most columns) fits exactly the models that reading
// each column when first drawn fits: the same selections, weights, path
// and errors, under fits that run to their cap, stop at δ, switch to
// scoring every candidate when few remain (columns that are constant,
// some of them drawn only late), select among features scaled by γ and
// sources, run several paths (AutoLambda), and read a matrix with a
// non-finite value in a column, one of them the first of a chunk the
// sweep reads (the lazy search fails only if it draws it, and so must the
// sweep) or a transposed matrix (which the sweep
// does not read). It fails if sweep reads nothing on the row-major
// problems.
func TestSweepSelectsAsLazy(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	probs := illAndDupProblems(rng)
	// Half the columns constant: the search scores every candidate once
	// the constant ones it has drawn leave at most r.
	H := randDense(rng, 14, 120)
	for j := 0; j < 120; j += 2 {
		for i := 0; i < 14; i++ {
			H.Set(i, j, 3)
		}
	}
	probs = append(probs, fitProblem{"constant columns", randDense(rng, 14, 9), H, randLabels(rng, 14)})
	// A NaN in one column, which some fits draw and others do not.
	Hn := randDense(rng, 16, 300)
	Hn.Set(5, 177, math.NaN())
	probs = append(probs, fitProblem{"NaN", nil, Hn, randLabels(rng, 16)})
	// A NaN in the first column of a chunk the sweep reads (sampleChunk).
	Hc := randDense(rng, 16, 300)
	Hc.Set(7, 2*sampleChunk, math.NaN())
	probs = append(probs, fitProblem{"NaN first in a chunk", nil, Hc, randLabels(rng, 16)})
	probs = append(probs, fitProblem{"transposed", nil, randDense(rng, 200, 12).T(), randLabels(rng, 12)})
	opts := []Options{
		{Lambda: 1, Delta: 0, FeatureFactor: 1, Sample: 59, Seed: 1, MaxK: 60},
		{Lambda: 1, Delta: 1e-4, FeatureFactor: 1, Sample: 7, Seed: 2, MaxK: 40},
		{Lambda: 0.1, Delta: 0, FeatureFactor: 2, Sample: 5, Seed: 3, MaxK: 100},
		{Lambda: 1, Delta: 0, FeatureFactor: 0, Sample: 3, Seed: 4, MaxK: 9},
		{Delta: 0, FeatureFactor: 0.5, Sample: 9, Seed: 5, MaxK: 30, AutoLambda: true, StopAtMinLOO: true},
	}
	swept := 0
	for _, pr := range probs {
		for _, o := range opts {
			fit := func(share float64) (*Model, error) {
				setForTest(t, &sweepShare, share)
				return Fit(context.Background(), pr.X, pr.H, pr.y, o)
			}
			want, wantErr := fit(2) // never sweeps
			got, gotErr := fit(0)   // always sweeps
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
				t.Errorf("%s, %+v: swept, error %v; lazily, %v", pr.name, o, gotErr, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %+v: swept, selects %v; lazily, %v", pr.name, o, got.Selected, want.Selected)
			}
		}
		if in, err := newInputs("test", pr.X, pr.H, pr.y, 1); err == nil && pr.name != "transposed" {
			e := newSample(in, 5, 1)
			if e.sweep() && len(e.slots) > 0 {
				swept++
			}
			e.release()
		}
	}
	if swept != len(probs)-3 { // all but the two NaN and the transposed one
		t.Errorf("sweep read %d of the %d row-major problems without a NaN", swept, len(probs)-3)
	}
}

// TestSampleRenumber checks that the sampled search draws and selects as
// before when its step count, numbered across paths, reaches the top of
// mark's range and starts over (renumber): a path run from a step just
// below markSelected selects what a path from step 0 selects, with the
// marks of the selected slots kept and those of past draws cleared.
func TestSampleRenumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	H := randDense(rng, 10, 300)
	y := randLabels(rng, 10)
	o := Options{Lambda: 1, FeatureFactor: 1, Sample: 7, Seed: 3, MaxK: 12}
	in, err := newInputs("greedytl.Fit", nil, H, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	sel := func(step0 int32) []int {
		e := newSample(in, o.Sample, o.Seed)
		defer e.release()
		e.step = step0
		p, err := run(context.Background(), e, y, o.Lambda, &o)
		if err != nil {
			t.Fatal(err)
		}
		var g []int
		for _, s := range p.sel {
			g = append(g, e.global(s))
		}
		if step0 > 0 && e.step >= step0 {
			t.Errorf("from step %d the count reached %d: it never started over", step0, e.step)
		}
		return g
	}
	want := sel(0)
	if got := sel(markSelected - 4); !reflect.DeepEqual(got, want) {
		t.Errorf("renumbered mid-path, selects %v; from step 0, %v", got, want)
	}
}

// TestPathBuffersRecycled checks that the paths' recycled buffers
// (pathPool) leave every model as a fit from fresh buffers makes it: fits
// in both forms, of several sizes and of several paths (AutoLambda), run
// one after another, each compared with the same fit run first with the
// pool emptied of buffers, and with a copy of itself after the later fits
// (a model sharing a recycled buffer would change).
func TestPathBuffersRecycled(t *testing.T) {
	fits := freshPoolFits(t, rand.New(rand.NewPCG(25, 26)), []int{8, 20, 40}, 120, []Options{
		{Lambda: 1, FeatureFactor: 1, Sample: 9, Seed: 1, MaxK: 3},
		{Lambda: 0.5, FeatureFactor: 1, Sample: 9, Seed: 2, MaxK: 50},
		{Lambda: 1, FeatureFactor: 1, MaxK: 30},
		{FeatureFactor: 1, Sample: 5, Seed: 3, MaxK: 25, AutoLambda: true, StopAtMinLOO: true},
	})
	pathPool.reset()
	var got []*Model
	for _, f := range fits {
		mod := fitT(t, nil, f.H, f.y, f.o)
		if !reflect.DeepEqual(mod, f.want) {
			t.Errorf("m = %d, %+v: with recycled buffers selects %v, with fresh ones %v", f.H.RawMatrix().Rows, f.o, mod.Selected, f.want.Selected)
		}
		got = append(got, mod)
	}
	for i, mod := range got {
		if !reflect.DeepEqual(mod, fits[i].want) {
			t.Errorf("m = %d, %+v: the model changed during later fits", fits[i].H.RawMatrix().Rows, fits[i].o)
		}
	}
}

// TestSweepWorth checks when the sampled search reads every column in one
// sweep (sweepWorth): when the draws of the fit's paths (paths·r·max_k)
// are expected to reach at least sweepShare of the n columns
// (1 − exp(−draws/n) ≥ 0.45), never without a cap on the steps, and never
// with fewer than sampleChunk columns to read.
func TestSweepWorth(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, c := range []struct {
		n, r, maxK, paths int
		want              bool
	}{
		{640, 5, 10, 1, false},  // 50 draws: 7.5%
		{640, 5, 20, 10, true},  // 1,000 draws: 79%
		{640, 5, 38, 2, false},  // 380 draws: 44.8%
		{640, 5, 40, 2, true},   // 400 draws: 46.5%
		{640, 5, 0, 10, false},  // no cap
		{100, 5, 40, 10, true},  // 2,000 draws, 100 columns
		{63, 5, 40, 10, false},  // fewer than sampleChunk columns
		{640, 59, 5, 1, false},  // 295 draws: 37%
		{640, 59, 7, 1, true},   // 413 draws: 48%
		{640, 59, 13, 10, true}, // GreedyTL-59 with λ's grid
	} {
		in, err := newInputs("test", nil, randDense(rng, 6, c.n), randLabels(rng, 6), 1)
		if err != nil {
			t.Fatal(err)
		}
		e := newSample(in, c.r, 1)
		want := c.want
		if c.maxK > 0 && c.n >= sampleChunk {
			want = 1-math.Exp(-float64(c.paths*c.r*c.maxK)/float64(c.n)) >= 0.45
		}
		if want != c.want {
			t.Fatalf("%+v: the table says %v, the rule %v", c, c.want, want)
		}
		if got := e.sweepWorth(c.maxK, c.paths); got != c.want {
			t.Errorf("n = %d, r = %d, max_k = %d, %d paths: sweepWorth %v, want %v", c.n, c.r, c.maxK, c.paths, got, c.want)
		}
		e.release()
	}
}

// TestSweepReadsAsDrawn checks that every column the sweep caches holds,
// bit for bit, the statistics and standardised values that reading the
// column alone gives (standardizeChunk on a copy, the definition that
// the lazy reading matches), that it caches each non-constant column
// once under its own index and marks the constant ones, over problems
// whose constant columns fall inside groups of eight (the pair kernel's
// unit, which then hands the group to standardizeRows) and shift the
// cache's slots off the groups' alignment across cache chunks, with
// features scaled by γ ≠ 1 before the sources, and with slotOf held in a
// map as well as an array.
func TestSweepReadsAsDrawn(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, small := range []bool{true, false} {
		for _, tc := range []struct {
			m, d, n int
			gamma   float64
			consts  []int // constant source columns
		}{
			{20, 0, 4995, 1, nil},
			{20, 0, 1300, 1, []int{3, 9, 10, 250, 251, 252, 700}},
			{7, 37, 600, 2.5, []int{0, 17, 18, 19, 20, 21, 22, 23, 24, 300}},
			{13, 5, 8, 0.5, []int{7}},
		} {
			X, H := randDense(rng, tc.m, tc.d), randDense(rng, tc.m, tc.n)
			for _, j := range tc.consts {
				for i := range tc.m {
					H.Set(i, j, 1.5)
				}
			}
			var Xm mat.Matrix
			if X != nil {
				Xm = X
			}
			in, err := newInputs("test", Xm, H, randLabels(rng, tc.m), tc.gamma)
			if err != nil {
				t.Fatal(err)
			}
			if !small {
				setForTest(t, &slotArrayMax, 0)
			}
			e := newSample(in, 5, 1)
			if !e.sweep() {
				t.Fatalf("m = %d, d = %d, n = %d: sweep read nothing", tc.m, tc.d, tc.n)
			}
			col := make([]float64, tc.m)
			seen := make(map[int]bool)
			for j := range tc.d + tc.n {
				b, jl, gamma := &in.h, j-tc.d, 1.0
				if j < tc.d {
					b, jl, gamma = &in.x, j, tc.gamma
				}
				b.column(jl, col)
				var st [1]colStats
				var f [1]float64
				if standardizeChunk(col, tc.m, 1, gamma, st[:], f[:]) >= 0 {
					t.Fatalf("column %d fails", j)
				}
				sl := e.slot(j)
				if st[0].scale == 0 {
					if sl >= 0 {
						t.Errorf("m = %d, n = %d: constant column %d has slot %d", tc.m, tc.n, j, sl)
					}
					continue
				}
				if sl <= 0 || seen[int(sl)] {
					t.Fatalf("m = %d, n = %d: column %d has slot %d", tc.m, tc.n, j, sl)
				}
				s := int(sl) - 1
				seen[int(sl)] = true
				if e.global(s) != j || e.stats(s) != st[0] || e.mark[s] != 0 {
					t.Errorf("m = %d, n = %d: column %d: slot %d holds column %d, %+v, mark %d; read alone, %+v", tc.m, tc.n, j, s, e.global(s), e.stats(s), e.mark[s], st[0])
				}
				for i, v := range e.col(s) {
					if math.Float64bits(v) != math.Float64bits(col[i]) {
						t.Fatalf("m = %d, n = %d: column %d, row %d: swept %v, read alone %v", tc.m, tc.n, j, i, v, col[i])
					}
				}
			}
			if len(seen) != len(e.slots) || len(e.mark) != len(e.slots) {
				t.Errorf("m = %d, n = %d: %d columns cached in %d slots (%d marks)", tc.m, tc.n, len(seen), len(e.slots), len(e.mark))
			}
			e.release()
		}
	}
}

// BenchmarkSampleSweep times the sampled search's sweep alone at the
// shape of BenchmarkFitSample59 (m = 20, N = 4,995): reading and
// standardising every column of the row-major input into the cache, with
// the engine's set-up and release; "kernel-ns/op" is the part spent in
// standardizePair itself, timed over the same pairs into a scratch block.
func BenchmarkSampleSweep(b *testing.B) {
	H, y := benchProblem(20, 4995)
	in, err := newInputs("bench", nil, H, y, 1)
	if err != nil {
		b.Fatal(err)
	}
	measureCPU(b, func() {
		e := newSample(in, 59, 1)
		if !e.sweep() {
			b.Fatal("sweep read nothing")
		}
		e.release()
	})
	m, N := 20, 4995
	dst := make([]float64, 8*m)
	var out [24]float64
	rows := H.RawMatrix().Data
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := cputime.Thread()
	for range 200 {
		for j := 0; j+8 <= N; j += 8 {
			standardizePair(&rows[j], &rows[j+4], N, m, 1.0/20, 1, &dst[0], &dst[4*m], &out)
		}
	}
	if end, _ := cputime.Thread(); ok {
		b.ReportMetric(float64(end-start)/200, "kernel-ns/op")
	}
}
