package method

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
)

// TestLBFGSConvergence: lbfgs reports convergence exactly when the
// gradient's infinity norm reached tol — not when it stopped at its cap,
// nor when its line search found no decrease (a gradient that points
// uphill, which no step along −g can follow).
func TestLBFGSConvergence(t *testing.T) {
	// f(x) = Σ a_i (x_i − 1)², condition number 10⁴.
	a := []float64{1, 10, 100, 1e3, 1e4}
	quad := func(x, g []float64) float64 {
		var f float64
		for i, v := range x {
			f += a[i] * (v - 1) * (v - 1)
			g[i] = 2 * a[i] * (v - 1)
		}
		return f
	}
	x := make([]float64, len(a))
	it, gn, ok, _ := lbfgs(context.Background(), quad, x, 1e-9, 1000)
	if !ok || gn > 1e-9 || it >= 1000 {
		t.Fatalf("converging run: %d iterations, gradient %g, converged %v; want converged with gradient ≤ 1e-9", it, gn, ok)
	}
	for i, v := range x {
		if math.Abs(v-1) > 1e-9 {
			t.Errorf("x[%d] = %v, want 1", i, v)
		}
	}
	x = make([]float64, len(a))
	it, gn, ok, _ = lbfgs(context.Background(), quad, x, 1e-9, 2)
	if ok || it != 2 || !(gn > 1e-9) {
		t.Errorf("run capped at 2 iterations: %d iterations, gradient %g, converged %v; want 2, > 1e-9, false", it, gn, ok)
	}
	uphill := func(x, g []float64) float64 {
		f := quad(x, g)
		for i := range g {
			g[i] = -g[i]
		}
		return f
	}
	x = make([]float64, len(a))
	if it, gn, ok, _ = lbfgs(context.Background(), uphill, x, 1e-9, 1000); ok || it >= 1000 {
		t.Errorf("line search with an uphill gradient: %d iterations, gradient %g, converged %v; want a stop before the cap, not converged", it, gn, ok)
	}
}

// forceCap sets *v to cap for the test and restores it after.
func forceCap(t *testing.T, v *int, cap int) {
	t.Helper()
	old := *v
	*v = cap
	t.Cleanup(func() { *v = old })
}

// wantReport checks that r has one entry, of a solver whose name holds
// solver, with Stopped > 0 runs of Runs ≥ Stopped, Final as final and the
// classes classes.
func wantReport(t *testing.T, what string, r []NotConverged, solver string, final bool, classes []string) {
	t.Helper()
	if len(r) != 1 {
		t.Fatalf("%s: report %+v, want one entry", what, r)
	}
	e := r[0]
	if !bytes.Contains([]byte(e.Solver), []byte(solver)) || e.Stopped < 1 || e.Runs < e.Stopped || e.Final != final || !slices.Equal(e.Classes, classes) {
		t.Errorf("%s: report %+v, want solver %q, 1 ≤ Stopped ≤ Runs, Final %v, classes %q", what, e, solver, final, classes)
	}
}

// TestNotConvergedBinary: each binary method whose solver is stopped by a
// tolerance reports nothing when its runs converge, and, with the solver's
// cap forced down to one iteration, reports the runs that stopped (the
// final fit's among them) in a model that is otherwise an ordinary model:
// its file does not mention the report, and the file read back reports
// nothing.
func TestNotConvergedBinary(t *testing.T) {
	train, _ := damSplit(72, 5, 30, 10, 2.5)
	for _, tc := range []struct {
		name, solver string
		cap          *int
	}{
		{"l1-logistic", "L1R_LR", &sklearnL1MaxIter},
		{"l1-logistic:exact=1", "ELASTICNET_LR", &enetMaxIter},
		{"elastic-net", "ELASTICNET_LR", &enetMaxIter},
		{"stacked-logistic", "L2R_LR", &stackedMaxIter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meth, err := New(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			model, err := meth.Fit(context.Background(), train, Extra{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if r := notConvergedOf(model); r != nil {
				t.Errorf("converged fit reports %+v, want nil", r)
			}
			if _, ok := model.(ConvergenceReporter); !ok {
				t.Fatalf("%T does not implement ConvergenceReporter", model)
			}
			forceCap(t, tc.cap, 1)
			capped, err := meth.Fit(context.Background(), train, Extra{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			r := notConvergedOf(capped)
			wantReport(t, "capped fit", r, tc.solver, true, nil)
			if !bytes.Contains([]byte(r[0].Solver), []byte("at most 1 ")) {
				t.Errorf("solver %q does not name the cap of 1", r[0].Solver)
			}
			var buf bytes.Buffer
			if err := Write(&buf, capped, FileInfo{}); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(buf.Bytes(), []byte("onverge")) {
				t.Errorf("the model file mentions convergence:\n%s", buf.Bytes())
			}
			back, err := Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if r := notConvergedOf(back.Model); r != nil {
				t.Errorf("model read back reports %+v, want nil", r)
			}
		})
	}
}

// TestNotConvergedMulti: multinomial-logistic and greedytl-nway report
// nothing when L-BFGS converges and, with its cap forced to 2 iterations,
// the runs that stopped, the final fit's among them, of every run counted
// (the cross-validation's and the final fits', both members' for
// greedytl-nway), with no classes (a model of all the classes at
// once); a binary method one against the rest names the classes whose fits
// stopped.
func TestNotConvergedMulti(t *testing.T) {
	train, y, _, _ := multiProblem(4, 3, 6, 1, 8, 3)
	fit := func(name string) MultiModel {
		t.Helper()
		model, _ := multiFile(t, name, train, y)
		return model
	}
	for _, name := range []string{"multinomial-logistic", "greedytl-nway", "l1-logistic"} {
		if r := notConvergedOf(fit(name)); r != nil {
			t.Errorf("%s: converged fit reports %+v, want nil", name, r)
		}
	}
	// 5 folds (6 examples a class) × 9 values of C, and the final fit.
	const runs = 5*9 + 1
	func() {
		forceCap(t, &multinomialIters, 2)
		for _, tc := range []struct {
			name string
			runs int
		}{{"multinomial-logistic", runs}, {"greedytl-nway", 2 * runs}} {
			r := notConvergedOf(fit(tc.name))
			wantReport(t, tc.name, r, "L-BFGS", true, nil)
			if len(r) == 1 && r[0].Runs != tc.runs {
				t.Errorf("%s: %d of %d runs stopped, want %d runs counted", tc.name, r[0].Stopped, r[0].Runs, tc.runs)
			}
		}
	}()
	forceCap(t, &sklearnL1MaxIter, 1)
	wantReport(t, "l1-logistic one against the rest", notConvergedOf(fit("l1-logistic")), "L1R_LR", true, y.Names)
}

// TestMergeNotConverged: reports merge per solver, counts summed, Final
// when any is, classes in order (a one-vs-rest model's from its classes,
// an ensemble's from its members').
func TestMergeNotConverged(t *testing.T) {
	a := []NotConverged{{Solver: "s", Stopped: 1, Runs: 4}}
	b := []NotConverged{{Solver: "s", Stopped: 2, Runs: 3, Final: true}, {Solver: "u", Stopped: 1, Runs: 1}}
	got := mergeNotConverged([][]NotConverged{a, nil, b}, []string{"x", "y", "z"})
	want := []NotConverged{{Solver: "s", Stopped: 3, Runs: 7, Final: true, Classes: []string{"x", "z"}}, {Solver: "u", Stopped: 1, Runs: 1, Classes: []string{"z"}}}
	if len(got) != len(want) {
		t.Fatalf("merged %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Solver != w.Solver || g.Stopped != w.Stopped || g.Runs != w.Runs || g.Final != w.Final || !slices.Equal(g.Classes, w.Classes) {
			t.Errorf("entry %d: %+v, want %+v", i, g, w)
		}
	}
	if got := mergeNotConverged([][]NotConverged{nil, nil}, nil); got != nil {
		t.Errorf("merging empty reports gives %+v, want nil", got)
	}
	got = mergeNotConverged([][]NotConverged{got, {{Solver: "s", Stopped: 1, Runs: 1, Classes: []string{"y"}}}}, nil)
	if !slices.Equal(got[0].Classes, []string{"x", "z", "y"}) || got[0].Runs != 8 {
		t.Errorf("members' merge: %+v", got)
	}
}
