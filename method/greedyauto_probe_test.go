package method

import "testing"

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
