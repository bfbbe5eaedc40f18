package greedytl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// withForm runs f with every path forced into form (see pathForm).
func withForm(t *testing.T, form int, f func(t *testing.T)) {
	t.Helper()
	old := pathForm
	pathForm = form
	defer func() { pathForm = old }()
	f(t)
}

// formNames names the forms for subtests.
var formNames = map[int]string{formAuto: "auto", formPrimal: "primal", formDual: "dual"}

// TestFormsAgainstReferences runs the tests against the paper's definition
// (brute force, Algorithm 1, 256-bit weights, brute-force leave-one-out)
// and the recorded fits with every path in the primal form and with every
// path in the dual form; the plain runs of these tests cover the
// automatic choice, which moves from one form to the other along the path.
func TestFormsAgainstReferences(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference tests twice more")
	}
	for _, form := range []int{formPrimal, formDual} {
		t.Run(formNames[form], func(t *testing.T) {
			withForm(t, form, func(t *testing.T) {
				for name, f := range referenceTests() {
					t.Run(name, f)
				}
			})
		})
	}
}

// referenceTests are the tests against the paper's definition (brute
// force, Algorithm 1, 256-bit weights, brute-force leave-one-out), the tie
// rule, the errors and the recorded fits, by name.
func referenceTests() map[string]func(*testing.T) {
	return map[string]func(*testing.T){
		"FitMatchesBruteForce": TestFitMatchesBruteForce,
		"Algorithm1":           TestAlgorithm1,
		"FitIllConditioned":    TestFitIllConditioned,
		"LOO":                  TestLOO,
		"StopAtMinLOO":         TestStopAtMinLOO,
		"AutoLambda":           TestAutoLambda,
		"Sample":               TestSample,
		"Ties":                 TestTies,
		"FitErrors":            TestFitErrors,
		"RecordedFits":         TestRecordedFits,
	}
}

// switchStep returns the first number of selected columns at which a
// path of m examples and r scored candidates moves to the dual form.
func switchStep(m, r int) int {
	k := 0
	for !dualCheaper(m, k, r) {
		k++
	}
	return k
}

// TestFormsAtSwitch runs paths that end right before, at and right after
// the step at which the automatic choice moves to the dual form (for the
// exact search and GreedyTL-59), and checks, at every step, that the
// selections are those of the paper's definition and that the score,
// RegError, LOOError and weights of the three forms agree to 1e-10 and
// with brute force (1e-8 for scores and weights, 1e-9 for LOO).
func TestFormsAtSwitch(t *testing.T) {
	for _, c := range []struct{ m, r int }{{6, 0}, {12, 0}, {20, 0}, {20, 59}, {40, 59}, {41, 5}} {
		ks := switchStep(c.m, c.r)
		for _, maxK := range []int{ks - 1, ks, ks + 1} {
			t.Run(fmt.Sprintf("m=%d/r=%d/k=%d", c.m, c.r, maxK), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(c.m), uint64(maxK)))
				X, H := randDense(rng, c.m, 20), randDense(rng, c.m, 3*c.m+60)
				y := randLabels(rng, c.m)
				o := DefaultOptions()
				o.Delta, o.MaxK, o.Sample, o.Seed = 0, maxK, c.r, 3
				mods := map[int]*Model{}
				for _, form := range []int{formAuto, formPrimal, formDual} {
					withForm(t, form, func(t *testing.T) { mods[form] = fitT(t, X, H, y, o) })
				}
				ref := mods[formDual]
				if len(ref.Selected) != maxK {
					t.Fatalf("dual form selected %d columns, want %d", len(ref.Selected), maxK)
				}
				for _, form := range []int{formAuto, formPrimal} {
					mod := mods[form]
					if fmt.Sprint(mod.Selected) != fmt.Sprint(ref.Selected) {
						t.Fatalf("%s form selected %v, dual form %v", formNames[form], mod.Selected, ref.Selected)
					}
					for j, s := range mod.Path {
						r := ref.Path[j]
						if relErr(s.Score, r.Score) > 1e-10 || relErr(s.RegError, r.RegError) > 1e-10 || relErr(s.LOOError, r.LOOError) > 1e-10 {
							t.Errorf("%s form, step %d: %+v, dual form %+v", formNames[form], j, s, r)
						}
					}
					if e := vecRelErr(mod.Weights, ref.Weights); e > 1e-10 {
						t.Errorf("%s form: weights differ from the dual form's by %.1e", formNames[form], e)
					}
				}
				Z, ok := refStandardize(X, H, 1)
				S := selectedGlobal(mods[formAuto])
				if c.r == 0 {
					checkAlongPath(t, mods[formAuto], Z, y, ok, o)
				} else {
					checkAlongSample(t, mods[formAuto], Z, y, ok)
				}
				for j := range S {
					if want := bruteLOO(Z, y, S[:j+1], 1); relErr(mods[formAuto].Path[j].LOOError, want) > 1e-9 {
						t.Errorf("step %d: LOO %v, brute force %v", j, mods[formAuto].Path[j].LOOError, want)
					}
				}
			})
		}
	}
}
