package method

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/linear"
	"gonum.org/v1/gonum/mat"
)

// TestAutoLiveMemoryAtGram pins what greedytl-auto holds on its shared
// cross-products' route (issue 16: memory O(N·m), a small multiple of the
// input): on one core, when the whole sample's Gram has just been computed
// (the ridge member's solve on it is next), the live heap is the caller's
// input, its rows in content order, the ridge member's standardised
// columns Z, the Gram's block of centred columns and its (N+1) × (N+1)
// cross-products: five times the m × N input, and change. It held a sixth,
// the features' standardised columns, which only Z is made of (6.1 times
// here before, 5.1 after).
func TestAutoLiveMemoryAtGram(t *testing.T) {
	defer func(f func(context.Context, mat.Matrix, mat.Matrix, []float64) (*greedytl.Gram, error)) { newGram = f }(newGram)
	copies := autoLiveCopies(t, "the Gram's computation", func(measure func()) {
		newGram = func(ctx context.Context, X, H mat.Matrix, y []float64) (*greedytl.Gram, error) {
			g, err := greedytl.NewGram(ctx, X, H, y)
			measure()
			return g, err
		}
	})
	if copies > 5.5 {
		t.Errorf("live heap once the Gram is computed: %.2f times the input; want at most 5.5", copies)
	} else {
		t.Logf("live heap once the Gram is computed: %.2f times the input", copies)
	}
}

// TestAutoLiveMemoryAtRidgeSolve pins that greedytl-auto lets go of the
// ridge member's standardised columns Z (m × N) once the ridge member is
// solved from the shared cross-products (ridgeUnbagged's Z = nil, and the
// item's z := Z; Z = nil, which leave the item's call the only
// reference): on one core, at that solve, the live heap is the caller's
// input, its rows in content order, the Gram's block of centred columns
// and its (N+1) × (N+1) cross-products — four times the m × N input, and
// change. Without either release Z is still live: five times (the test
// fails).
func TestAutoLiveMemoryAtRidgeSolve(t *testing.T) {
	defer func(f func(context.Context, mat.Symmetric, []float64, float64) ([]float64, error)) {
		ridgeFromProducts = f
	}(ridgeFromProducts)
	copies := autoLiveCopies(t, "the ridge member's solve from the cross-products", func(measure func()) {
		ridgeFromProducts = func(ctx context.Context, A mat.Symmetric, b []float64, l float64) ([]float64, error) {
			measure()
			return linear.RidgeFromProducts(ctx, A, b, l)
		}
	})
	if copies > 4.5 {
		t.Errorf("live heap at the ridge member's solve: %.2f times the input; want at most 4.5 (Z let go)", copies)
	} else {
		t.Logf("live heap at the ridge member's solve: %.2f times the input", copies)
	}
}

// autoLiveCopies fits greedytl-auto on one core (items in turn: the ridge
// member's first) to a problem on the shared cross-products' route with
// the ridge member on the Gram, and returns the live heap beyond the
// heap before, in copies of the m × N input, when the hook hook installs
// first calls measure (at what; the test fails if it never does). The
// caller restores what hook replaced.
func autoLiveCopies(t *testing.T, what string, hook func(measure func())) float64 {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const m, d, n = 600, 560, 40
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	train := clusteredProblem(rand.New(rand.NewPCG(16, m)), m, d, n)
	if !sharedGram(m, d+n) || !unbaggedRidge(m, d+n) || d+n > m {
		t.Fatal("the problem is not on the shared route with the ridge member on the Gram: the test would measure nothing")
	}
	live := -1.0
	hook(func() {
		if live < 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live = float64(ms.HeapAlloc) - float64(base)
		}
	})
	if _, err := newGreedyAuto().Fit(context.Background(), train, Extra{}); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(train) // the caller's input, live throughout as a caller's would be
	if live < 0 {
		t.Fatalf("the fit never reached %s: nothing measured", what)
	}
	return live / float64(m*(d+n)*8)
}
