package method

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// TestDAMSystem checks the Woodbury form of DAM's regression with virtual
// labels against the eigendecomposition of the whole weighted problem
// (weightedRidge, itself checked against direct solves above) and against
// direct solves: the LOO predictions of the labelled rows, the weights and
// the intercept, in the primal (d ≤ u) and dual (d > u) forms, for small
// and large τ and λ.
func TestDAMSystem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m, pos    int
		u, d      int
		tau, lamb float64
	}{
		{"primal form", 12, 2, 30, 8, 1, 1},
		{"primal form, tiny lambda", 12, 3, 20, 20, 10, 1e-4},
		{"dual form", 12, 2, 20, 60, 1, 1},
		{"dual form, tiny lambda", 15, 5, 10, 80, 0.1, 1e-4},
		{"dual form, light unlabelled", 20, 10, 25, 50, 1e-3, 10},
		{"dual form, heavy unlabelled", 12, 2, 25, 50, 1e3, 1e-2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, 17))
			N := tc.m + tc.u
			z, tgt, y := kerneltest.RandomProblem(rng, tc.m, tc.pos, tc.u, tc.d, func(j int) float64 { return 0.3 * float64(j%3) })
			copy(tgt, y)
			zl := z.Slice(0, tc.m, 0, tc.d).(*mat.Dense)
			zu := z.Slice(tc.m, N, 0, tc.d).(*mat.Dense)
			sys, err := newDAMSystem(zl, zu, y, tgt[tc.m:])
			if err != nil {
				t.Fatal(err)
			}
			loo, alpha, err := sys.solve(context.Background(), tc.tau, tc.lamb)
			if err != nil {
				t.Fatal(err)
			}
			omega := damWeights(y, tc.u, tc.tau)
			wr, err := lssvm.NewWeightedRidge(context.Background(), lssvm.Gram(z, N), tgt, omega)
			if err != nil {
				t.Fatal(err)
			}
			want := wr.LOOPredictions(tc.m, tc.lamb)
			for i := range loo {
				if !near(loo[i], want[i], 1e-7, math.Abs(want[i])) {
					t.Errorf("LOO prediction %d = %.12g, eigendecomposition %.12g", i, loo[i], want[i])
				}
			}
			w, b := sys.primal(tc.tau, tc.lamb, alpha)
			wantW, wantB := kerneltest.WeightedRidgeDirect(t, z, tgt, omega, tc.lamb, nil)
			kerneltest.CheckLinear(t, w, b, wantW, wantB, 1e-8)
			// The first LOO prediction by a direct refit without example 0.
			if f := kerneltest.RefitPrediction(t, z, tgt, omega, tc.lamb, 0); !near(loo[0], f, 1e-7, math.Abs(f)) {
				t.Errorf("LOO prediction 0 = %.12g, refit %.12g", loo[0], f)
			}
		})
	}
}

func TestDAMWeights(t *testing.T) {
	y := []float64{1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	w := damWeights(y, 100, 2)
	var sp, sn, su float64
	for i, v := range w {
		switch {
		case i >= 12:
			su += v
		case y[i] > 0:
			sp += v
		default:
			sn += v
		}
	}
	if math.Abs(sp-6) > 1e-12 || math.Abs(sn-6) > 1e-12 || math.Abs(su-24) > 1e-12 {
		t.Errorf("weight sums: positives %g, negatives %g, unlabelled %g; want 6, 6, 24", sp, sn, su)
	}
}

// TestVirtualLabels: applied to the labelled rows themselves, the virtual
// labels have the class-balanced mean 0 and standard deviation 1 of the
// labels, and are an increasing affine image of the mean standardised
// source score.
func TestVirtualLabels(t *testing.T) {
	data := syntheticTransfer(3, 12, 2, 0, 3, 2)
	sh := standardize.Fit(data.H)
	v, err := virtualLabels(context.Background(), sh, dense(data.H), dense(data.H), data.Y)
	if err != nil {
		t.Fatal(err)
	}
	zeta := lssvm.BalanceWeights(data.Y)
	var mu, ss float64
	for i, x := range v {
		mu += zeta[i] * x / 12
		ss += zeta[i] * x * x / 12
	}
	if math.Abs(mu) > 1e-12 || math.Abs(ss-1) > 1e-12 {
		t.Errorf("class-balanced mean %g and mean square %g, want 0 and 1", mu, ss)
	}
	zh, _ := sh.Transform(data.H)
	hbar := func(i int) float64 { return mean(zh.RawRowView(i)) }
	slope := (v[1] - v[0]) / (hbar(1) - hbar(0))
	if slope <= 0 {
		t.Errorf("the map decreases (slope %g)", slope)
	}
	for i := 2; i < len(v); i++ {
		if want := v[0] + slope*(hbar(i)-hbar(0)); math.Abs(v[i]-want) > 1e-12 {
			t.Errorf("virtual label %d = %g, the affine map gives %g", i, v[i], want)
		}
	}
	// All sources constant: no virtual labels.
	c := mat.NewDense(12, 2, nil)
	for i := range 12 {
		c.Set(i, 0, 1)
		c.Set(i, 1, -2)
	}
	v, err = virtualLabels(context.Background(), standardize.Fit(c), c, c, data.Y)
	if err != nil || v != nil {
		t.Errorf("constant sources: %v, %v; want no virtual labels", v, err)
	}
}

// damSplit returns a 2+10 (or pos+10) training sample and 100 test rows of
// a synthetic problem whose source 0 is informative.
func damSplit(seed uint64, pos, d, n int, signal float64) (train, test Data) {
	all := syntheticTransfer(seed, 110+pos, 50+pos, d, n, signal)
	var tr, te []int
	for i := range 110 + pos {
		if i < pos || (i >= 50+pos && i < 60+pos) {
			tr = append(tr, i)
		} else {
			te = append(te, i)
		}
	}
	return selectRows(all, tr), selectRows(all, te)
}

func TestDAMFit(t *testing.T) {
	// Features weakly informative, the mean source informative (one strong
	// source among 3): the virtual labels should help.
	train, test := damSplit(41, 2, 50, 3, 3)
	meth, err := New("dam")
	if err != nil {
		t.Fatal(err)
	}
	if !meth.Needs().Unlabelled {
		t.Fatal("dam must declare itself transductive")
	}
	unl := Data{X: test.X, H: test.H}
	model, err := meth.Fit(context.Background(), train, Extra{Unlabelled: &unl})
	if err != nil {
		t.Fatal(err)
	}
	f := mustPredict(t, model, test)
	acc := balancedAcc(t, f, test.Y)
	hp := model.Hyperparameters()
	t.Logf("balanced accuracy %.3f, hyperparameters %v", acc, hp)
	if acc < 0.8 {
		t.Errorf("balanced accuracy %.3f, want ≥ 0.8", acc)
	}
	if hp["tau"] <= 0 {
		t.Errorf("tau = %g: the virtual labels were not used", hp["tau"])
	}
	for j, w := range model.SourceWeights() {
		if w != 0 {
			t.Errorf("source weight %d = %g, want 0", j, w)
		}
	}
	// The fit is transductive: the model depends on the unlabelled inputs.
	half := selectRows(unl, []int{0, 1, 2, 3, 4, 50, 51, 52, 53, 54})
	other, err := meth.Fit(context.Background(), train, Extra{Unlabelled: &half})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := other.Predict(test)
	same := true
	for i := range f {
		same = same && f[i] == g[i]
	}
	if same {
		t.Error("the model does not depend on the unlabelled inputs")
	}
}

// TestDAMFallback: without virtual labels DAM is the class-balanced ridge
// regression on the labelled examples (checked against a direct solve at
// the chosen λ), tau = 0.
func TestDAMFallback(t *testing.T) {
	train, test := damSplit(43, 5, 20, 0, 1.5)
	constH := mat.NewDense(15, 2, nil)
	constHU := mat.NewDense(100, 2, nil)
	for i := range 15 {
		constH.SetRow(i, []float64{1, 2})
	}
	for i := range 100 {
		constHU.SetRow(i, []float64{3, -1})
	}
	for _, tc := range []struct {
		name     string
		train    Data
		unl      Data
		nSources int
	}{
		{"no sources", train, Data{X: test.X}, 0},
		{"constant sources", Data{X: train.X, H: constH, Y: train.Y}, Data{X: test.X, H: constHU}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unl := tc.unl
			meth, _ := New("dam")
			model, err := meth.Fit(context.Background(), tc.train, Extra{Unlabelled: &unl})
			if err != nil {
				t.Fatal(err)
			}
			hp := model.Hyperparameters()
			if hp["tau"] != 0 {
				t.Errorf("tau = %g, want 0", hp["tau"])
			}
			zx, _ := standardize.Fit(tc.train.X).Transform(tc.train.X)
			wantW, wantB := kerneltest.WeightedRidgeDirect(t, zx, tc.train.Y, lssvm.BalanceWeights(tc.train.Y), hp["lambda"], nil)
			lin := model.(*Linear)
			for j := range lin.WX {
				if !near(lin.WX[j], wantW[j], 1e-9, math.Abs(wantW[j])) {
					t.Errorf("w[%d] = %g, direct %g", j, lin.WX[j], wantW[j])
				}
			}
			if !near(lin.B, wantB, 1e-9, math.Abs(wantB)) {
				t.Errorf("b = %g, direct %g", lin.B, wantB)
			}
			if len(model.SourceWeights()) != tc.nSources {
				t.Errorf("%d source weights, want %d", len(model.SourceWeights()), tc.nSources)
			}
		})
	}
}

func TestDAMErrors(t *testing.T) {
	train, test := damSplit(44, 2, 10, 3, 1)
	meth, _ := New("dam")
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		train Data
		extra Extra
	}{
		{"no unlabelled", train, Extra{}},
		{"empty unlabelled", train, Extra{Unlabelled: &Data{}}},
		{"unlabelled columns", train, Extra{Unlabelled: &Data{X: test.X}}},
		{"no features", Data{H: train.H, Y: train.Y}, Extra{Unlabelled: &Data{H: test.H}}},
		{"unlabelled NaN", train, Extra{Unlabelled: &Data{X: mat.NewDense(1, 10, nil), H: mat.NewDense(1, 3, []float64{0, math.NaN(), 0})}}},
	} {
		if _, err := meth.Fit(ctx, tc.train, tc.extra); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}

// damWeights returns the row weights of DAM's regression written out (the
// reference for damSystem, which never forms them): the
// class-balancing weights ζ_i of the labelled rows (labels y), then tau·m/u
// for each of the u unlabelled rows.
func damWeights(y []float64, u int, tau float64) []float64 {
	m := len(y)
	w := append(lssvm.BalanceWeights(y), make([]float64, u)...)
	for j := m; j < m+u; j++ {
		w[j] = tau * float64(m) / float64(u)
	}
	return w
}

// TestDAMSolveChecksItsLoop: DAM's solve checks its context every
// fitctx.Rows rows of its O(m²) loop, row 0 included, as well as between
// its dense steps. At m = 160, in either form, a live fitctxtest.Countdown
// counts at least ⌈m/Rows⌉ + 3 checks (rows 0, 64 and 128 of the loop,
// then before the factorisation, before the inversion and after it), and
// a solve cancelled at each of them in turn returns context.Canceled and no
// result. The fits' tests could not tell the loop's check gone: a cancel in
// a matrix operation is still seen before the factorisation, with no matrix
// operation in between (TestLSSVMMethodsStopWhenDone), and a fit cancelled
// at each check only has fewer checks (TestFitCancelledAtEachCheck).
func TestDAMSolveChecksItsLoop(t *testing.T) {
	const m = 160
	for _, tc := range []struct {
		name string
		u, d int
	}{{"primal form", 40, 8}, {"dual form", 20, 60}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(23, 23))
			z, tgt, y := kerneltest.RandomProblem(rng, m, m/2, tc.u, tc.d, func(int) float64 { return 0 })
			zl := z.Slice(0, m, 0, tc.d).(*mat.Dense)
			zu := z.Slice(m, m+tc.u, 0, tc.d).(*mat.Dense)
			sys, err := newDAMSystem(zl, zu, y, tgt[m:])
			if err != nil {
				t.Fatal(err)
			}
			if sys.primalForm != (tc.name == "primal form") {
				t.Fatalf("primal form %v, want the %s", sys.primalForm, tc.name)
			}
			checks := fitctxtest.NewCountdown(math.MaxInt64)
			if _, _, err := sys.solve(checks, 1, 1); err != nil {
				t.Fatal(err)
			}
			total := checks.Calls()
			if want := int64((m+fitctx.Rows-1)/fitctx.Rows + 3); total < want {
				t.Errorf("%d checks of the context at m = %d, want at least %d (every %d rows of the loop, row 0 included, and 3 between the dense steps)", total, m, want, fitctx.Rows)
			}
			for at := int64(1); at <= total; at++ {
				loo, alpha, err := sys.solve(fitctxtest.NewCountdown(at-1), 1, 1)
				if !errors.Is(err, context.Canceled) || loo != nil || alpha != nil {
					t.Errorf("cancelled at check %d of %d: err %v (result %v), want context.Canceled and no result", at, total, err, loo != nil || alpha != nil)
				}
			}
		})
	}
}
