package method

import (
	"context"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/parallel"
)

// TestGramProbeSteps checks greedytl-auto's route rule for its GreedyTL
// members (gramProbeSteps) as docs/design.md states it: with N ≤ m the
// shared cross-products without a probe (0); with m < N, a probe of the
// whole sample's members capped at N/16 + 1 steps (at least 2), so that a
// member stopping within N/16 steps keeps greedytl.Fit's route; greedytl.Fit
// without a probe (−1) when max_k ≤ N/16 caps every path there anyway;
// and no probe (0) with StopAtMinLOO, whose capped path may stop at a
// minimum of the LOO error the whole path would pass, nor when gramRoute
// forces a route.
func TestGramProbeSteps(t *testing.T) {
	defer func(r int) { gramRoute = r }(gramRoute)
	for _, c := range []struct {
		m, N, maxK int
		minLOO     bool
		route      int
		want       int
	}{
		{250, 250, 0, false, gramAuto, 0},
		{250, 200, 0, false, gramAuto, 0},
		{250, 450, 0, false, gramAuto, 29},
		{250, 251, 0, false, gramAuto, 16},
		{10, 20, 0, false, gramAuto, 2},
		{10, 15, 0, false, gramAuto, 2}, // N/16 = 0: one step, and the cap above it
		{250, 450, 28, false, gramAuto, -1},
		{250, 450, 27, false, gramAuto, -1},
		{250, 450, 29, false, gramAuto, 29},
		{250, 450, 100, false, gramAuto, 29},
		{250, 450, 0, true, gramAuto, 0},
		{250, 450, 100, true, gramAuto, 0},
		{250, 450, 0, false, gramAlways, 0},
		{250, 450, 0, false, gramNever, 0},
	} {
		gramRoute = c.route
		a := newGreedyAuto()
		a.Options.MaxK, a.Options.StopAtMinLOO = c.maxK, c.minLOO
		if got := a.gramProbeSteps(c.m, c.N); got != c.want {
			t.Errorf("m = %d, N = %d, max_k = %d, StopAtMinLOO %v, route %d: gramProbeSteps %d, want %d", c.m, c.N, c.maxK, c.minLOO, c.route, got, c.want)
		}
	}
}

// probeFits is how many times TestConcurrentProbeDecision fits on the
// probed route: the probe takes milliseconds, so a committee that does not
// wait may still happen to read the route after the decision (in 2 of 20
// runs of one fit each, on a loaded machine).
const probeFits = 3

// TestConcurrentProbeDecision fits greedytl-auto where its route is probed
// (m < N ≤ 2m, gramProbeSteps) on GOMAXPROCS 8, so that the committees of
// the first subsamples start beside the whole sample's probe, and checks
// that they wait for its decision (the decided channel): the paths are
// short (δ = 0.01), so the decision is greedytl.Fit's route, whose model
// the fit must make bit for bit without ever computing the cross-products
// (a committee that read the route before the decision would take the
// shared route, the default before it, computing the cross-products).
// .ci/run's race step runs it under -race, which checks the concurrent
// probe and committees for data races; the detector itself does not
// report a committee that skips the wait (tried: most likely the
// synchronisation of the buffer pools their fits share orders the read
// after the probe's write), the count of cross-products does. It is the small concurrent case of
// TestGreedyAutoProbesRoute (34 s under -race), cheap enough for the race
// step.
func TestConcurrentProbeDecision(t *testing.T) {
	defer func(r int, f func(context.Context, mat.Matrix, mat.Matrix, []float64) (*greedytl.Gram, error)) {
		gramRoute, newGram = r, f
	}(gramRoute, newGram)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	var calls atomic.Int32
	newGram = func(ctx context.Context, X, H mat.Matrix, y []float64) (*greedytl.Gram, error) {
		calls.Add(1)
		return greedytl.NewGram(ctx, X, H, y)
	}
	const m, d, n = 230, 350, 90 // N = 440 ≤ 2m; m·N ≥ parallel.MinWork
	train := signalProblem(rand.New(rand.NewPCG(16, 230)), m, d, n, d)
	a := newGreedyAuto()
	a.Options.Delta = 0.01
	if a.gramProbeSteps(m, d+n) <= 0 || !sharedGram(m, d+n) || parallel.Workers(m*(d+n), 0) != 0 {
		t.Fatalf("%d rows of %d columns: want a probed route on GOMAXPROCS workers", m, d+n)
	}
	if s := 1 + len(majorityFolds(train.Y)); s < 8 {
		t.Fatalf("%d samples: want at least 7 committees beside the probe's", s)
	}
	gramRoute = gramAuto
	var got Model
	for fit := range probeFits {
		var err error
		if got, err = a.Fit(context.Background(), train, Extra{}); err != nil {
			t.Fatal(err)
		}
		if c := calls.Load(); c != 0 {
			t.Fatalf("fit %d: the cross-products computed %d times on greedytl.Fit's route: a committee did not wait for the probe", fit, c)
		}
	}
	gramRoute = gramNever
	want, err := a.Fit(context.Background(), train, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the probed fit's model differs from greedytl.Fit's route's")
	}
	for i, g := range got.(*AutoModel).Committee.Greedy {
		if k := len(g.Path); k == 0 || k > (d+n)/gramBreakEven {
			t.Errorf("the whole sample's member %d took %d steps: the probe would choose the shared route", i, k)
		}
	}
}
