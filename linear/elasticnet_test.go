package linear

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/sparse"
)

// sklearnFixture is one file written by testdata/gen_sklearn_fixtures.py.
type sklearnFixture struct {
	Name           string      `json:"name"`
	SklearnVersion string      `json:"sklearn_version"`
	Bias           float64     `json:"bias"`
	X              [][]float64 `json:"X"`
	Y              []float64   `json:"y"`
	Fits           []struct {
		Penalty   string    `json:"penalty"`
		Solver    string    `json:"solver"`
		C         float64   `json:"C"`
		L1Ratio   float64   `json:"l1_ratio"`
		Coef      []float64 `json:"coef"`
		Objective float64   `json:"objective"`
	} `json:"fits"`
}

func (f *sklearnFixture) problem() *Problem {
	x := mat.NewDense(len(f.X), len(f.X[0]), nil)
	for i, row := range f.X {
		x.SetRow(i, row)
	}
	return &Problem{X: sparse.FromDense(x), Y: f.Y, Bias: f.Bias}
}

// TestElasticNetSklearn compares with scikit-learn's LogisticRegression
// (penalty l1 / elasticnet / l2, fit_intercept=False with an explicit bias
// column, tol 1e-10): our objective must be at most scikit-learn's·(1+1e-4)
// and, where the objective is strongly convex (l1_ratio < 1), the weights
// within 1e-3. L1 fits are also solved by L1R_LR.
func TestElasticNetSklearn(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "sklearn_*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures (run testdata/gen_sklearn_fixtures.py): %v", err)
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var fx sklearnFixture
		if err := json.Unmarshal(raw, &fx); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		prob := fx.problem()
		for _, fit := range fx.Fits {
			name := fmt.Sprintf("%s/%s-%s/C=%g/l1_ratio=%g", fx.Name, fit.Penalty, fit.Solver, fit.C, fit.L1Ratio)
			t.Run(name, func(t *testing.T) {
				p := Params{Solver: ElasticNetLR, C: fit.C, L1Ratio: fit.L1Ratio, Eps: 1e-9}
				// Our evaluation of scikit-learn's weights reproduces its objective.
				if f := lrRefObjective(prob, p, fit.Coef, fit.L1Ratio, 1-fit.L1Ratio); math.Abs(f-fit.Objective) > 1e-9*fit.Objective {
					t.Fatalf("objective of sklearn's coef %.12g, fixture says %.12g", f, fit.Objective)
				}
				solvers := map[string]solveFunc{"ELASTICNET_LR": solveElasticNet}
				if fit.L1Ratio == 1 {
					solvers["L1R_LR"] = solveL1RLR
				}
				for sname, solve := range solvers {
					w, conv, err := solve(prob, p, nil)
					if err != nil {
						t.Fatal(err)
					}
					if conv != stopConverged {
						t.Errorf("%s: not converged", sname)
					}
					f := lrRefObjective(prob, p, w, fit.L1Ratio, 1-fit.L1Ratio)
					if f > fit.Objective*(1+1e-4) {
						t.Errorf("%s: objective %.12g > sklearn's %.12g·(1+1e-4)", sname, f, fit.Objective)
					}
					if fit.L1Ratio < 1 {
						assertClose(t, sname+" vs sklearn coef", w, fit.Coef, 1e-3)
					}
				}
			})
		}
	}
}

// enetResidual returns the prox-gradient (KKT) residual of
// F = L + ρ||w||₁ + (1−ρ)/2·||w||² at w, max_j |G_j| with
// G = β·(w − prox_{h/β}(w − ∇L(w)/β)), zero exactly at the optimum, and β,
// an upper bound on the Lipschitz constant of ∇L: (1/4)·Σ_i C_i·||x_i||².
// For any w, ||G||₂² ≤ 2β·(F(w) − F*) (Beck, First-Order Methods in
// Optimization, 2017, thm. 10.16/lemma 10.4), so a solver stopped at a
// relative gap ε must have max_j |G_j| ≤ √(2β·ε·F(w)).
func enetResidual(prob *Problem, p Params, w []float64, rho float64) (res, beta float64) {
	x, cost := lrDense(prob, p)
	for i := range cost {
		r := x.RawRowView(i)
		beta += cost[i] * mat.Dot(mat.NewVecDense(len(r), r), mat.NewVecDense(len(r), r)) / 4
	}
	g := lrRefGrad(prob, p, w)
	for j, wj := range w {
		u := wj - g[j]/beta
		prox := math.Max(math.Abs(u)-rho/beta, 0) * math.Copysign(1, u) / (1 + (1-rho)/beta)
		res = math.Max(res, beta*math.Abs(wj-prox))
	}
	return res, beta
}

func TestElasticNetKKT(t *testing.T) {
	for _, tc := range []struct {
		m, d    int
		density float64
		c       float64
		l1Ratio float64
	}{
		{50, 10, 1, 1, 0.5},
		{40, 100, 0.1, 10, 0.5},
		{200, 30, 0.3, 0.5, 0.9},
		{80, 20, 0.5, 3, 0},
		{80, 20, 0.5, 3, 1},
		{20, 300, 1, 1, 0.5},
		{30, 5, 1, 1e4, 0.2}, // nearly separable: large weights
		{20, 1800, 1, 1e3, 1},
	} {
		t.Run(fmt.Sprintf("m%d_d%d_C%g_rho%g", tc.m, tc.d, tc.c, tc.l1Ratio), func(t *testing.T) {
			prob := lrRandomProblem(uint64(tc.m+tc.d), tc.m, tc.d, tc.density, 1)
			const eps = 1e-10
			p := Params{Solver: ElasticNetLR, C: tc.c, L1Ratio: tc.l1Ratio, Eps: eps}
			w, conv, err := solveElasticNet(prob, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if conv != stopConverged {
				t.Error("not converged")
			}
			f := lrRefObjective(prob, p, w, tc.l1Ratio, 1-tc.l1Ratio)
			res, beta := enetResidual(prob, p, w, tc.l1Ratio)
			bound := math.Sqrt(2 * beta * eps * f)
			t.Logf("objective %.10g, KKT residual %.3g, bound %.3g", f, res, bound)
			if res > bound {
				t.Errorf("KKT residual %.3g > %.3g allowed by the stopping rule", res, bound)
			}
		})
	}
}

// TestElasticNetLimits: L1Ratio = 1 reaches L1R_LR's optimum; L1Ratio = 0
// reaches the L2-regularised optimum, where w + ∇L(w) = 0.
func TestElasticNetLimits(t *testing.T) {
	const eps = 1e-10
	for seed := range uint64(4) {
		prob := lrRandomProblem(100+seed, 60, 25, 0.4, 1)
		c := []float64{0.3, 1, 5, 50}[seed]
		p := Params{C: c, L1Ratio: 1, Eps: eps}
		wE, _, err1 := solveElasticNet(prob, p, nil)
		wL, _, err2 := solveL1RLR(prob, Params{C: c, Eps: 1e-9}, nil)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		fE, fL := lrRefObjective(prob, p, wE, 1, 0), lrRefObjective(prob, p, wL, 1, 0)
		// The gap certifies fE ≤ F*·(1+eps) ≤ fL·(1+eps).
		if fE > fL*(1+eps)+1e-14*fL {
			t.Errorf("C=%g: L1Ratio=1 objective %.15g exceeds L1R_LR's %.15g by more than the certified gap", c, fE, fL)
		}
		if math.Abs(fE-fL) > 1e-7*fL {
			t.Errorf("C=%g: L1Ratio=1 objective %.12g, L1R_LR %.12g", c, fE, fL)
		}

		p.L1Ratio = 0
		w0, conv, err := solveElasticNet(prob, p, nil)
		if err != nil || conv != stopConverged {
			t.Fatalf("err %v stopped %v", err, conv)
		}
		// F = L + ½||w||² is (β+1)-smooth: ||∇F||² ≤ 2(β+1)(F − F*).
		f := lrRefObjective(prob, p, w0, 0, 1)
		_, beta := enetResidual(prob, p, w0, 0)
		g := lrRefGrad(prob, p, w0)
		var norm2 float64
		for j := range g {
			norm2 += (g[j] + w0[j]) * (g[j] + w0[j])
		}
		if bound := 2 * (beta + 1) * eps * f; norm2 > bound {
			t.Errorf("C=%g: L1Ratio=0: ||w + ∇L||² = %.3g > %.3g", c, norm2, bound)
		}
	}
}

// TestElasticNetWarmPath solves a path over ascending C with warm starts and
// compares each point with a cold start. Both are within the relative gap ε
// of the optimum and F is (1−ρ)-strongly convex, so each lies within
// √(2εF/(1−ρ)) of the optimum.
func TestElasticNetWarmPath(t *testing.T) {
	prob := lrRandomProblem(42, 30, 200, 1, 1)
	const eps, rho = 1e-10, 0.5
	var prev []float64
	for _, c := range []float64{1e-3, 1e-2, 0.1, 1, 10, 100} {
		p := Params{C: c, L1Ratio: rho, Eps: eps}
		warm, conv, err := solveElasticNet(prob, p, prev)
		if err != nil || conv != stopConverged {
			t.Fatalf("C=%g: err %v stopped %v", c, err, conv)
		}
		cold, _, err := solveElasticNet(prob, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		f := lrRefObjective(prob, p, cold, rho, 1-rho)
		var dist2 float64
		for j := range warm {
			dist2 += (warm[j] - cold[j]) * (warm[j] - cold[j])
		}
		if r := 2 * math.Sqrt(2*eps*f/(1-rho)); math.Sqrt(dist2) > r {
			t.Errorf("C=%g: ||warm − cold|| = %.3g > %.3g", c, math.Sqrt(dist2), r)
		}
		prev = warm
	}
}

// BenchmarkElasticNet: the baselines' regime, m = 20 dense rows,
// d = 1800 features, l1_ratio 0.5, C = 1.
func BenchmarkElasticNet(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	m, d := 20, 1800
	x := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		for j := range d {
			x.Set(i, j, rng.NormFloat64()+0.3*y[i]*float64(j%7)/7)
		}
	}
	prob := &Problem{X: sparse.FromDense(x), Y: y, Bias: 1}
	p := Params{C: 1, L1Ratio: 0.5}
	b.ResetTimer()
	for range b.N {
		if _, _, err := solveElasticNet(prob, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSparseLogisticTrain goes through Train (the solver registry) on
// heart_scale: L1R_LR and ElasticNetLR give the direct solvers' weights, and
// ElasticNetLR with L1Ratio = 0 reaches L2R_LR's optimal objective.
func TestSparseLogisticTrain(t *testing.T) {
	x, y := readHeartScale(t)
	prob := &Problem{X: x, Y: y, Bias: 1}
	for _, p := range []Params{
		{Solver: L1RLR, C: 1, Seed: 3},
		{Solver: ElasticNetLR, C: 1, L1Ratio: 0.5},
	} {
		model, err := Train(context.Background(), prob, p)
		if err != nil {
			t.Fatalf("%v: %v", p.Solver, err)
		}
		solve := solvers[p.Solver]
		want, conv, err := solve(prob, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if model.Converged != (conv == stopConverged) {
			t.Errorf("%v: Converged %v, want %v", p.Solver, model.Converged, conv)
		}
		// heart_scale's first label is +1, so the model scores +1 as the
		// direct solver does.
		assertClose(t, p.Solver.String(), model.W, want, 1e-12)
	}

	const eps = 1e-10
	for _, c := range []float64{0.01, 1, 100} {
		l2, err := Train(context.Background(), prob, Params{Solver: L2RLR, C: c, Eps: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		p := Params{Solver: ElasticNetLR, C: c, L1Ratio: 0, Eps: eps}
		w, _, err := solveElasticNet(prob, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		fE, fL := lrRefObjective(prob, p, w, 0, 1), lrRefObjective(prob, p, l2.W, 0, 1)
		t.Logf("C=%g: L1Ratio=0 objective %.12g, L2R_LR %.12g", c, fE, fL)
		if fE > fL*(1+eps) {
			t.Errorf("C=%g: L1Ratio=0 objective %.12g above L2R_LR's %.12g by more than the certified gap", c, fE, fL)
		}
		if math.Abs(fE-fL) > 1e-6*fL {
			t.Errorf("C=%g: L1Ratio=0 objective %.12g, L2R_LR %.12g", c, fE, fL)
		}
	}
}

// TestElasticNetZeroSolution: with C small enough every |∂L/∂w_j(0)| ≤ ρ,
// so w = 0 satisfies the optimality conditions exactly (lrSetup's
// reference is 0) and is returned, converged, exactly 0 from any start, as
// L1R_LR does (TestL1RLRZeroSolution). From a start far from it (weights
// 1e10) the gap-driven run alone ends at the iteration cap barely moved.
func TestElasticNetZeroSolution(t *testing.T) {
	prob := lrRandomProblem(3, 30, 8, 1, 1)
	for _, rho := range []float64{1, 0.5} {
		p := Params{C: 1e-3, L1Ratio: rho}
		d, err := newLRData(prob, p)
		if err != nil {
			t.Fatal(err)
		}
		if ref, overflows := d.atZero(rho, 0.5); ref != 0 || overflows {
			t.Fatalf("ρ = %g: reference %g (overflows %v); the test needs w = 0 optimal, a reference of 0", rho, ref, overflows)
		}
		for _, init := range [][]float64{nil, {1, -1, 0, 0, 0, 0, 0, 0, 3}, {1e10, -1e10, 0, 0, 0, 0, 0, 0, 7.5e9}} {
			w, conv, err := solveElasticNet(prob, p, init)
			if err != nil || conv != stopConverged {
				t.Fatalf("ρ = %g, start %v: err %v, stopped %v", rho, init, err, conv)
			}
			for j, v := range w {
				if v != 0 {
					t.Errorf("ρ = %g, start %v: w[%d] = %g, want 0", rho, init, j, v)
				}
			}
		}
	}
}

// TestTrainerTrainFrom checks that TrainFrom starts the solver where it is
// told: from ElasticNetLR's certified solution the duality gap holds at
// once and the weights come back bit for bit, converged, and from another
// point they reach another solution (not the one from 0 bit for bit) whose
// objective is within the certified relative gap of it. A start of the wrong length or with a NaN, and a
// start for a solver that takes none, are errors.
func TestTrainerTrainFrom(t *testing.T) {
	ctx := context.Background()
	prob := lrRandomProblem(42, 30, 200, 1, 1)
	tr := NewTrainer(prob)
	p := Params{Solver: ElasticNetLR, C: 10, L1Ratio: 0.5}
	cold, err := tr.Train(ctx, p)
	if err != nil || !cold.Converged {
		t.Fatalf("cold start: err %v, converged %v", err, cold != nil && cold.Converged)
	}
	again, err := tr.TrainFrom(ctx, p, cold.W)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Converged || !slices.Equal(again.W, cold.W) {
		t.Errorf("from the solution: converged %v, weights moved (%v … against %v …)", again.Converged, again.W[:3], cold.W[:3])
	}
	start := make([]float64, len(cold.W))
	for j := range start {
		start[j] = 0.1 * float64(j%7-3)
	}
	other, err := tr.TrainFrom(ctx, p, start)
	if err != nil || !other.Converged {
		t.Fatalf("from another start: err %v, converged %v", err, other != nil && other.Converged)
	}
	if slices.Equal(other.W, cold.W) {
		t.Error("from another start: the weights from 0 bit for bit (the start ignored?)")
	}
	fc := lrRefObjective(prob, p, signedWeights(cold), 0.5, 0.5)
	fo := lrRefObjective(prob, p, signedWeights(other), 0.5, 0.5)
	if math.Abs(fo-fc) > enetDefaultEps*max(fo, fc) {
		t.Errorf("objective from another start %.10g, from 0 %.10g: further apart than the relative gap %g", fo, fc, enetDefaultEps)
	}
	for name, bad := range map[string]struct {
		p    Params
		init []float64
	}{
		"short start":  {p, cold.W[:len(cold.W)-1]},
		"NaN start":    {p, append(append([]float64(nil), cold.W[:len(cold.W)-1]...), math.NaN())},
		"dual solver":  {Params{Solver: L2RLRDual, C: 1}, cold.W},
		"trust region": {Params{Solver: L2RLR, C: 1}, cold.W},
	} {
		if _, err := tr.TrainFrom(ctx, bad.p, bad.init); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// signedWeights returns m's weights favouring +1 (lrRefObjective's
// orientation: the problem's labels are ±1).
func signedWeights(m *Model) []float64 {
	w := slices.Clone(m.W)
	if m.Labels[0] != 1 {
		for j := range w {
			w[j] = -w[j]
		}
	}
	return w
}

// TestTrainFromTakesPrimalStarts: TrainFrom takes a start for the solvers
// that cross-validation warm-starts from primal weights (trainWarm: those
// without a warm start of their own), L1R_LR, L1R_L2LOSS_SVC and
// ElasticNetLR, and refuses it, "takes no warm start", for every other
// registered solver: one list (warmSolvers) decides both.
func TestTrainFromTakesPrimalStarts(t *testing.T) {
	ctx := context.Background()
	prob := lrRandomProblem(26, 20, 30, 1, 1)
	tr := NewTrainer(prob)
	start := make([]float64, 31) // 30 columns and the bias
	for s := range solvers {
		_, err := tr.TrainFrom(ctx, Params{Solver: s, C: 1}, start)
		refused := err != nil && strings.Contains(err.Error(), "takes no warm start")
		if want := s != L1RLR && s != L1RL2LossSVC && s != ElasticNetLR; refused != want {
			t.Errorf("%v: TrainFrom with a start: %v; want refused %v", s, err, want)
		}
	}
}
