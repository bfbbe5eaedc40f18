package greedytl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPathBuffersConcurrent checks that fits running at once in several
// goroutines, each taking and returning recycled path buffers (pathPool),
// make bit for bit the models the same fits make one after another, and
// that no model changes while the other goroutines go on fitting: a buffer
// handed to one fit while another still reads or writes it (returned
// before its last use, or twice) would change a selection, a weight or an
// error. Run it with -race as well.
func TestPathBuffersConcurrent(t *testing.T) {
	fits := freshPoolFits(t, rand.New(rand.NewPCG(31, 32)), []int{8, 24, 40}, 100, []Options{
		{Lambda: 0.5, FeatureFactor: 1, Sample: 9, Seed: 2, MaxK: 40},
		{Lambda: 1, FeatureFactor: 1, MaxK: 30},
		{FeatureFactor: 1, Sample: 5, Seed: 3, MaxK: 25, AutoLambda: true, StopAtMinLOO: true},
	})
	const workers, rounds = 4, 3
	got := make([][]*Model, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				for i := range fits {
					f := fits[(i+w*5+r)%len(fits)] // each worker in its own order
					mod, err := Fit(context.Background(), nil, f.H, f.y, f.o)
					if err != nil {
						errs[w] = err
						return
					}
					if !reflect.DeepEqual(mod, f.want) {
						errs[w] = fmt.Errorf("worker %d, m = %d, %+v: selects %v, alone %v", w, f.H.RawMatrix().Rows, f.o, mod.Selected, f.want.Selected)
						return
					}
					got[w] = append(got[w], mod)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for w := range workers {
		for j, mod := range got[w] {
			f := fits[(j%len(fits)+w*5+j/len(fits))%len(fits)]
			if !reflect.DeepEqual(mod, f.want) {
				t.Errorf("worker %d, fit %d: the model changed during the other fits", w, j)
			}
		}
	}
}

// TestPathUnusedAfterRelease checks that no fit reads its path's buffers
// once release has handed them back to pathPool (finish reads the selected
// columns there, so release must come after it): with poisonReleased every
// buffer released is NaN at once, so that a read after the release makes
// NaN weights, another model or an error in a fit alone, where without it
// only a concurrent fit taking the buffers in that window changed the model
// (TestPathBuffersConcurrent). Each form's exact and sampled fits, a λ
// grid and the truncation at the lowest LOO error run twice, the second
// time on the NaN buffers the first handed back, and must make the models
// of fresh buffers bit for bit.
func TestPathUnusedAfterRelease(t *testing.T) {
	defer func() { poisonReleased = false }()
	for _, form := range []int{formAuto, formPrimal, formDual} {
		t.Run(formNames[form], func(t *testing.T) {
			withForm(t, form, func(t *testing.T) {
				poisonReleased = false
				fits := freshPoolFits(t, rand.New(rand.NewPCG(37, 38)), []int{8, 30}, 60, []Options{
					{Lambda: 0.5, FeatureFactor: 1, Sample: 9, Seed: 2, MaxK: 40},
					{Lambda: 1, FeatureFactor: 1, MaxK: 30},
					{FeatureFactor: 1, Sample: 5, Seed: 3, MaxK: 25, AutoLambda: true, StopAtMinLOO: true},
				})
				poisonReleased = true
				pathPool.reset()
				for round := range 2 {
					for _, f := range fits {
						mod, err := Fit(context.Background(), nil, f.H, f.y, f.o)
						if err != nil {
							t.Fatalf("round %d, m = %d, %+v: %v", round, f.H.RawMatrix().Rows, f.o, err)
						}
						if !reflect.DeepEqual(mod, f.want) {
							t.Fatalf("round %d, m = %d, %+v: with released buffers set to NaN, selects %v, weights %v; with fresh buffers %v, %v",
								round, f.H.RawMatrix().Rows, f.o, mod.Selected, mod.Weights, f.want.Selected, f.want.Weights)
						}
					}
				}
			})
		})
	}
}

// TestToDualOnDirtyBuffers checks that a primal path moved to the dual form
// (toDual) on recycled buffers of arbitrary contents (NaN here) holds the
// Ĝ and K_S + λI + β11ᵀ of a dual path that took the same steps from fresh
// buffers, after 0 to 3 steps: toDual must overwrite every entry of G, kl
// and fac's inputs, not add to what a former fit left there.
func TestToDualOnDirtyBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const m = 7
	y := randLabels(rng, m)
	Z := randDense(rng, 3, m).RawMatrix().Data // row j: column j
	fs := featureScale{gamma: 2, beta: 4}
	nan := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = math.NaN()
		}
		return s
	}
	for k := 0; k <= 3; k++ {
		b := &pathBuffers{selZ: nan(8 * m), U: nan(9 * m), G: nan(m * m), kl: nan(m * m), fac: nan(m * m)}
		p := newPathPrimalBufs(y, 0.7, fs, 8, b)
		q := newPath(y, 0.7, fs, 8)
		for j := range k {
			z := Z[j*m : j*m+m]
			for _, r := range []*path{p, q} {
				c, tt, err := r.score(z)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.add(j, z, c, tt); err != nil {
					t.Fatal(err)
				}
			}
		}
		p.toDual()
		for _, x := range []struct {
			name      string
			got, want []float64
		}{{"Ĝ", p.G, q.G}, {"K_S + λI + β11ᵀ", p.kl, q.kl}, {"a", p.a, q.a}} {
			for i := range x.want {
				if d := math.Abs(x.got[i] - x.want[i]); !(d <= 1e-9*(1+math.Abs(x.want[i]))) {
					t.Fatalf("after %d steps, toDual's %s[%d] = %v, a dual path's %v", k, x.name, i, x.got[i], x.want[i])
				}
			}
		}
		if err := p.refresh(); err != nil {
			t.Fatalf("after %d steps, refresh after toDual: %v", k, err)
		}
	}
}

// TestPathBuffersReturned checks that a fit hands its path's buffers back
// to pathPool (release) so that the next fit can take them: after a fit
// of a small problem the pool holds a pathBuffers whose selZ has room for
// the path's columns. Up to 20 fits are tried, as the pool may drop an
// item (the race detector drops a quarter of them on purpose).
func TestPathBuffersReturned(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	H, y := randDense(rng, 12, 40), randLabels(rng, 12)
	o := Options{Lambda: 1, FeatureFactor: 1, MaxK: 5}
	for range 20 {
		pathPool.reset()
		fitT(t, nil, H, y, o)
		if b := pathPool.get(); b != nil {
			if cap(b.selZ) < 5*12 {
				t.Fatalf("the pool's selZ has room for %d values, the path used %d", cap(b.selZ), 5*12)
			}
			return
		}
	}
	t.Error("20 fits handed no path buffers back to pathPool")
}

// poolFit is a fit of the path-pool tests: its problem, its options and
// the model it makes from fresh buffers.
type poolFit struct {
	H    *mat.Dense
	y    []float64
	o    Options
	want *Model
}

// freshPoolFits returns a fit for each of the sizes ms (rows of n random
// columns, drawn from rng) and each of opts, with its model made with the
// pool emptied of buffers first (what recycled buffers must not change).
func freshPoolFits(t *testing.T, rng *rand.Rand, ms []int, n int, opts []Options) []poolFit {
	t.Helper()
	var fits []poolFit
	for _, m := range ms {
		for _, o := range opts {
			H, y := randDense(rng, m, n), randLabels(rng, m)
			fits = append(fits, poolFit{H, y, o, nil})
		}
	}
	for i := range fits {
		f := &fits[i]
		pathPool.reset() // fresh buffers
		f.want = fitT(t, nil, f.H, f.y, f.o)
	}
	return fits
}

// TestBuffersSurviveCollections checks that the buffers a fit recycles
// (recycler: the sampled search's, the exact search's and the paths') are
// still there for the next fit after two garbage collections, which empty
// a sync.Pool: a fit after them would allocate and zero them again.
func TestBuffersSurviveCollections(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	H, y := randDense(rng, 20, 600), randLabels(rng, 20)
	for _, o := range []Options{
		{Lambda: 1, FeatureFactor: 1, Sample: 59, Seed: 1, MaxK: 10}, // swept: every column cached
		{Lambda: 1, FeatureFactor: 1, MaxK: 10},
	} {
		samplePool.reset()
		exactPool.reset()
		pathPool.reset()
		fitT(t, nil, H, y, o)
		runtime.GC()
		runtime.GC()
		if b := pathPool.get(); b == nil || cap(b.selZ) < 10*20 {
			t.Errorf("Sample %d: after two collections the paths' buffers are gone", o.Sample)
		}
		if o.Sample > 0 {
			if b := samplePool.get(); b == nil || len(b.chunks) < 600/cacheChunk {
				t.Error("after two collections the sampled search's cached columns are gone")
			}
		} else if b := exactPool.get(); b == nil || cap(b.z) < 20*600 {
			t.Error("after two collections the exact search's buffers are gone")
		}
	}
}

// TestLargeBuffersNotSpare checks that the sampled search keeps its
// buffers beyond garbage collections (recycler's spare) only when they
// hold at most maxSpare floats: a sweep of 20 × 1,600 values is kept, one
// of 400 × 1,600 (640,000 floats) is left to sync.Pool.
func TestLargeBuffersNotSpare(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	for _, c := range []struct {
		m     int
		spare bool
	}{{20, true}, {400, false}} {
		in, err := newInputs("test", nil, randDense(rng, c.m, 1600), randLabels(rng, c.m), 1)
		if err != nil {
			t.Fatal(err)
		}
		samplePool.reset()
		e := newSample(in, 5, 1)
		if !e.sweep() {
			t.Fatalf("m = %d: the sweep failed", c.m)
		}
		e.release()
		if got := samplePool.spare.Load() != nil; got != c.spare {
			t.Errorf("m = %d: kept beyond collections %v, want %v", c.m, got, c.spare)
		}
	}
}

// reset forgets every recycled buffer. It writes pool unsynchronised: no
// fit may run meanwhile.
func (r *recycler[T]) reset() {
	r.spare.Store(nil)
	r.pool = sync.Pool{}
}

// spareFloats counts the floats (of 8 bytes) of every buffer in b by its
// capacity, apart from sampleBuffers.floats; int32s count one half.
func spareFloats(b *sampleBuffers) int {
	n := 0
	for _, c := range b.chunks {
		n += cap(c)
	}
	ps, rs := &b.prune, &b.rs
	return n + 3*cap(b.slots) + (cap(b.mark)+cap(b.selected)+cap(b.slotBuf))/2 + cap(b.block) +
		cap(b.batch.z) + cap(b.batch.u) + cap(b.batch.lo) + cap(b.batch.hi) +
		cap(b.cand) + cap(b.pend) + cap(b.local) + cap(b.sc.gp) + cap(b.sc.z4) +
		cap(ps.gramAbs) + cap(ps.t) + cap(ps.hi) + cap(ps.clo) + cap(ps.rows) + cap(ps.group) +
		cap(rs.pad) + cap(rs.col) + cap(rs.acc) + cap(rs.mean) + cap(rs.ss)
}

// TestSpareBoundAfterLargerFit checks that the sampled search's buffers
// kept beyond collections (recycler's spare) hold at most maxSpare floats
// when a fit with a smaller m reuses a larger one's cache chunks, whole: a
// sweep at m = 1,500, N = 2,048 (3,072,000 floats of cache) then one at
// m = 20 (whose own cache would be 40,960 floats), by the engine and by
// Fit. The engine counted the cache as the current m's, so the second
// set went to spare with 24.6 MB.
func TestSpareBoundAfterLargerFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	const N = 2048
	for _, byFit := range []bool{false, true} {
		samplePool.reset()
		for _, m := range []int{1500, 20} {
			H, y := randDense(rng, m, N), randLabels(rng, m)
			if byFit {
				fitT(t, nil, H, y, Options{Lambda: 1, FeatureFactor: 1, Sample: 59, Seed: 1, MaxK: 30}) // swept
				continue
			}
			in, err := newInputs("test", nil, H, y, 1)
			if err != nil {
				t.Fatal(err)
			}
			e := newSample(in, 5, 1)
			if !e.sweep() {
				t.Fatal("the sweep failed")
			}
			e.release()
		}
		runtime.GC()
		runtime.GC()
		if b := samplePool.spare.Load(); b != nil && spareFloats(b) > maxSpare {
			t.Errorf("by Fit %v: the spare holds %d floats after two collections, maxSpare %d", byFit, spareFloats(b), maxSpare)
		}
	}
}

// TestExactSpareCountsEveryBuffer checks that the exact search's buffers
// go to the recycler's spare only when every one of them, counted by its
// capacity, fits in maxSpare floats: at m = 4, N = 34,000 the block and
// the eleven N-vectors hold 510,000 floats, the means of writeBlock and
// the statistics' scratch (uncounted before) more than 14,000 more.
func TestExactSpareCountsEveryBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	// A small fit's set is put aside: the check below is not passed by a
	// spare that never takes anything.
	exactPool.reset()
	Hs, ys := randDense(rng, 4, 300), randLabels(rng, 4)
	fitT(t, nil, Hs, ys, Options{Lambda: 1, FeatureFactor: 1, MaxK: 2})
	if exactPool.spare.Load() == nil {
		t.Fatal("a fit at m = 4, N = 300 put no set aside")
	}
	H, y := randDense(rng, 4, 34000), randLabels(rng, 4)
	exactPool.reset()
	fitT(t, nil, H, y, Options{Lambda: 1, FeatureFactor: 1, MaxK: 2})
	b := exactPool.spare.Load()
	if b == nil {
		return
	}
	n := cap(b.z) + (cap(b.z32)+cap(b.glob))/2 + 2*cap(b.st)
	for _, s := range [][]float64{b.f, b.sq, b.b, b.c, b.t, b.p, b.ec, b.et, b.means, b.rs.pad, b.rs.col, b.rs.acc, b.rs.mean, b.rs.ss} {
		n += cap(s)
	}
	if n > maxSpare {
		t.Errorf("the spare holds %d floats, maxSpare %d", n, maxSpare)
	}
}
