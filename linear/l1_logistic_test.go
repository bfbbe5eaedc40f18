package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/sparse"
)

// lrRandomProblem returns an m × d problem whose features are N(0,1) with
// probability density (else 0) and whose labels follow a logistic model with
// a sparse planted weight vector.
func lrRandomProblem(seed uint64, m, d int, density, bias float64) *Problem {
	rng := rand.New(rand.NewPCG(seed, seed))
	x := mat.NewDense(m, d, nil)
	for i := range m {
		for j := range d {
			if rng.Float64() < density {
				x.Set(i, j, rng.NormFloat64())
			}
		}
	}
	w := make([]float64, d)
	for j := range min(d, 5) {
		w[j] = 2 * rng.NormFloat64()
	}
	y := make([]float64, m)
	for i := range m {
		z := mat.Dot(x.RowView(i), mat.NewVecDense(d, w)) + 0.2
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	y[0], y[1] = 1, -1 // both classes present
	return &Problem{X: sparse.FromDense(x), Y: y, Bias: bias}
}

// lrDense returns the dense design of prob with the bias column appended
// (when Bias > 0) and the per-row costs: the brute-force reference.
func lrDense(prob *Problem, p Params) (x *mat.Dense, cost []float64) {
	d := prob.X.C
	if prob.Bias > 0 {
		d++
	}
	x = mat.NewDense(prob.X.R, d, nil)
	cost = make([]float64, prob.X.R)
	wp, wn := p.WeightPos, p.WeightNeg
	if wp == 0 {
		wp = 1
	}
	if wn == 0 {
		wn = 1
	}
	for i := range prob.X.R {
		ind, val := prob.X.Row(i)
		for k, j := range ind {
			x.Set(i, j, val[k])
		}
		if prob.Bias > 0 {
			x.Set(i, d-1, prob.Bias)
		}
		cost[i] = p.C * wn
		if prob.Y[i] > 0 {
			cost[i] = p.C * wp
		}
	}
	return x, cost
}

// lrRefObjective is Σ C_i log(1+exp(−y_i wᵀx_i)) + l1·||w||₁ + l2/2·||w||²
// evaluated densely.
func lrRefObjective(prob *Problem, p Params, w []float64, l1, l2 float64) float64 {
	x, cost := lrDense(prob, p)
	var f float64
	for i := range prob.X.R {
		z := prob.Y[i] * mat.Dot(x.RowView(i), mat.NewVecDense(len(w), w))
		f += cost[i] * math.Log1p(math.Exp(-z))
	}
	for _, v := range w {
		f += l1*math.Abs(v) + l2/2*v*v
	}
	return f
}

// lrRefGrad is the gradient of the loss term Σ C_i log(1+exp(−y_i wᵀx_i)).
func lrRefGrad(prob *Problem, p Params, w []float64) []float64 {
	x, cost := lrDense(prob, p)
	g := make([]float64, len(w))
	for i := range prob.X.R {
		z := prob.Y[i] * mat.Dot(x.RowView(i), mat.NewVecDense(len(w), w))
		s := -cost[i] * prob.Y[i] / (1 + math.Exp(z))
		for j := range w {
			g[j] += s * x.At(i, j)
		}
	}
	return g
}

// checkKKT verifies the optimality conditions of
// loss + l1·||w||₁ + l2/2·||w||²: for w_j ≠ 0,
// |∂L/∂w_j + l2·w_j + l1·sign(w_j)| ≤ tol; for w_j = 0, |∂L/∂w_j| ≤ l1 + tol.
func checkKKT(t *testing.T, prob *Problem, p Params, w []float64, l1, l2, tol float64) {
	t.Helper()
	g := lrRefGrad(prob, p, w)
	worst := 0.0
	for j, wj := range w {
		v := kktViolation(g[j], wj, l1, l2)
		worst = max(worst, v)
		if v > tol {
			t.Errorf("KKT violated at w[%d] = %g: ∂L = %g, violation %g > %g", j, wj, g[j], v, tol)
		}
	}
	t.Logf("worst KKT violation %.3g (tol %.3g)", worst, tol)
}

// kktViolation returns by how much coordinate j, of weight wj and loss
// gradient g, violates the optimality conditions of checkKKT's objective.
func kktViolation(g, wj, l1, l2 float64) float64 {
	switch {
	case wj > 0:
		return math.Abs(g + l2*wj + l1)
	case wj < 0:
		return math.Abs(g + l2*wj - l1)
	}
	return math.Max(math.Abs(g)-l1, 0)
}

func TestL1RLRKKT(t *testing.T) {
	for _, tc := range []struct {
		m, d    int
		density float64
		bias    float64
		c       float64
		wpos    float64
	}{
		{50, 10, 1, 1, 1, 0},
		{40, 100, 0.1, 1, 10, 0},
		{200, 30, 0.3, 0, 0.5, 0},
		{80, 20, 0.5, 2, 3, 4},
		{30, 5, 1, 1, 1e4, 0}, // nearly separable: large weights
	} {
		t.Run(fmt.Sprintf("m%d_d%d_C%g", tc.m, tc.d, tc.c), func(t *testing.T) {
			prob := lrRandomProblem(uint64(tc.m*tc.d), tc.m, tc.d, tc.density, tc.bias)
			p := Params{Solver: L1RLR, C: tc.c, Eps: 1e-6, WeightPos: tc.wpos, Seed: 1}
			w, conv, err := solveL1RLR(prob, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if conv != stopConverged {
				t.Error("not converged")
			}
			// The stopping rule bounds the sum of violations by
			// eps·min(pos,neg)/l·(violation at 0).
			d, _ := newLRData(prob, p)
			ref, _ := d.atZero(1, 0.5)
			tol := 1e-6 * ref
			checkKKT(t, prob, p, w, 1, 0, tol)
		})
	}
}

func TestL1RLRZeroSolution(t *testing.T) {
	prob := lrRandomProblem(3, 30, 8, 1, 1)
	// With C small enough every |∂L/∂w_j(0)| ≤ 1 and w = 0 is optimal.
	for _, init := range [][]float64{nil, {1, -1, 0, 0, 0, 0, 0, 0, 3}} {
		w, conv, err := solveL1RLR(prob, Params{C: 1e-3}, init)
		if err != nil || conv != stopConverged {
			t.Fatalf("err %v, stopped %v", err, conv)
		}
		for j, v := range w {
			if v != 0 {
				t.Errorf("w[%d] = %g, want 0", j, v)
			}
		}
	}
}

func TestL1RLRWarmStartAndDeterminism(t *testing.T) {
	prob := lrRandomProblem(7, 60, 40, 0.3, 1)
	p := Params{C: 2, Eps: 1e-6, Seed: 5}
	cold, _, err := solveL1RLR(prob, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := solveL1RLR(prob, p, nil)
	for j := range cold {
		if cold[j] != again[j] {
			t.Fatalf("same seed, different weights: w[%d] %v vs %v", j, cold[j], again[j])
		}
	}
	prev, _, err := solveL1RLR(prob, Params{C: 1, Eps: 1e-6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	warm, conv, err := solveL1RLR(prob, p, prev)
	if err != nil || conv != stopConverged {
		t.Fatalf("err %v, stopped %v", err, conv)
	}
	fc, fw := lrRefObjective(prob, p, cold, 1, 0), lrRefObjective(prob, p, warm, 1, 0)
	if math.Abs(fc-fw) > 1e-6*fc {
		t.Errorf("warm objective %.12g, cold %.12g", fw, fc)
	}
}

// TestL1RLRWeightsAndBias checks two identities: WeightPos = 2 equals
// duplicating the positive rows, and Bias = b equals an explicit constant
// column of value b.
func TestL1RLRWeightsAndBias(t *testing.T) {
	prob := lrRandomProblem(11, 40, 12, 0.6, 0)
	var rows []int
	for i, y := range prob.Y {
		rows = append(rows, i)
		if y > 0 {
			rows = append(rows, i)
		}
	}
	dup := &Problem{X: prob.X.SelectRows(rows), Bias: 0}
	for _, i := range rows {
		dup.Y = append(dup.Y, prob.Y[i])
	}
	p := Params{C: 3, Eps: 1e-8}
	pw := p
	pw.WeightPos = 2
	w1, _, err1 := solveL1RLR(prob, pw, nil)
	w2, _, err2 := solveL1RLR(dup, p, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	f1, f2 := lrRefObjective(prob, pw, w1, 1, 0), lrRefObjective(dup, p, w2, 1, 0)
	if math.Abs(f1-f2) > 1e-8*f1 {
		t.Errorf("weighted objective %.12g, duplicated %.12g", f1, f2)
	}
	assertClose(t, "weighted vs duplicated", w1, w2, 1e-4)

	withBias := lrRandomProblem(13, 40, 6, 1, 0.5)
	x := withBias.X.Dense()
	aug := mat.NewDense(40, 7, nil)
	aug.Augment(x, mat.NewDense(40, 1, nil))
	for i := range 40 {
		aug.Set(i, 6, 0.5)
	}
	explicit := &Problem{X: sparse.FromDense(aug), Y: withBias.Y}
	w3, _, err3 := solveL1RLR(withBias, p, nil)
	w4, _, err4 := solveL1RLR(explicit, p, nil)
	if err3 != nil || err4 != nil {
		t.Fatal(err3, err4)
	}
	if len(w3) != 7 {
		t.Fatalf("len(w) = %d, want 7 with the bias weight last", len(w3))
	}
	assertClose(t, "bias vs explicit column", w3, w4, 1e-4)
}

func assertClose(t *testing.T, what string, a, b []float64, tol float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: lengths %d and %d", what, len(a), len(b))
	}
	for j := range a {
		if math.Abs(a[j]-b[j]) > tol {
			t.Errorf("%s: [%d] %.10g vs %.10g (tol %g)", what, j, a[j], b[j], tol)
		}
	}
}

func TestLogisticSolversReject(t *testing.T) {
	good := func() *Problem { return lrRandomProblem(1, 10, 3, 1, 1) }
	nan := good()
	nan.X.Val[2] = math.NaN()
	inf := good()
	inf.X.Val[0] = math.Inf(-1)
	label := good()
	label.Y[3] = 0
	short := good()
	short.Y = short.Y[:9]
	badBias := good()
	badBias.Bias = math.NaN()
	for _, tc := range []struct {
		name string
		prob *Problem
		p    Params
		init []float64
	}{
		{"nil", nil, Params{C: 1}, nil},
		{"NaN feature", nan, Params{C: 1}, nil},
		{"Inf feature", inf, Params{C: 1}, nil},
		{"label 0", label, Params{C: 1}, nil},
		{"label count", short, Params{C: 1}, nil},
		{"NaN bias", badBias, Params{C: 1}, nil},
		{"C = 0", good(), Params{C: 0}, nil},
		{"C NaN", good(), Params{C: math.NaN()}, nil},
		{"C Inf", good(), Params{C: math.Inf(1)}, nil},
		{"Eps < 0", good(), Params{C: 1, Eps: -1}, nil},
		{"MaxIter < 0", good(), Params{C: 1, MaxIter: -1}, nil},
		{"WeightNeg < 0", good(), Params{C: 1, WeightNeg: -2}, nil},
		{"init length", good(), Params{C: 1}, []float64{1, 2}},
		{"init NaN", good(), Params{C: 1}, []float64{0, math.NaN(), 0, 0}},
		{"L1Ratio > 1", good(), Params{C: 1, L1Ratio: 1.5}, nil},
		{"L1Ratio NaN", good(), Params{C: 1, L1Ratio: math.NaN()}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			solvers := map[string]solveFunc{"L1R_LR": solveL1RLR, "ELASTICNET_LR": solveElasticNet}
			for name, solve := range solvers {
				if strings.HasPrefix(tc.name, "L1Ratio") && name == "L1R_LR" {
					continue
				}
				if _, _, err := solve(tc.prob, tc.p, tc.init); err == nil {
					t.Errorf("%s: no error", name)
				}
			}
		})
	}
}

func TestL1RLRMaxIter(t *testing.T) {
	prob := lrRandomProblem(5, 100, 30, 0.5, 1)
	w, conv, err := solveL1RLR(prob, Params{C: 100, Eps: 1e-12, MaxIter: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if conv == stopConverged {
		t.Error("converged in one Newton step at eps 1e-12")
	}
	if len(w) != 31 {
		t.Errorf("len(w) = %d", len(w))
	}
}

// TestL1RLRAgainstLiblinear compares objective values with liblinear-train
// -s 6 at the same tolerances. (At liblinear's default, 0.01, both stop ~1%
// from the optimum at points that depend on the random coordinate order, so
// the comparison is made at 1e-4 and 1e-6.) With -short, on heart_scale
// only.
func TestL1RLRAgainstLiblinear(t *testing.T) {
	needLiblinear(t)
	sets := []struct {
		name string
		prob func(t *testing.T) (*Problem, string)
	}{
		{"heart_scale", func(t *testing.T) (*Problem, string) {
			x, y := readHeartScale(t)
			return &Problem{X: x, Y: y, Bias: 1}, heartScale
		}},
		{"coil100-hog-0-vs-20", func(t *testing.T) (*Problem, string) {
			p := coilProblem(t)
			path := filepath.Join(t.TempDir(), "coil.svm")
			writeSVMLight(t, path, p.X, p.Y)
			return p, path
		}},
	}
	for _, ds := range sets {
		t.Run(ds.name, func(t *testing.T) {
			if testing.Short() && ds.name != "heart_scale" {
				t.Skip("heart_scale only with -short")
			}
			prob, path := ds.prob(t)
			for _, c := range []float64{0.1, 1, 10} {
				for _, eps := range []float64{1e-4, 1e-6} {
					p := Params{Solver: L1RLR, C: c, Eps: eps}
					model := liblinearTrain(t, path, p, 1)
					if model.NrFeature != prob.X.C {
						t.Fatalf("%d features, liblinear %d", prob.X.C, model.NrFeature)
					}
					theirs := primalWeights(model, prob.X.C)
					ours, conv, err := solveL1RLR(prob, p, nil)
					if err != nil {
						t.Fatal(err)
					}
					if len(ours) != len(theirs) {
						t.Fatalf("%d weights, liblinear %d", len(ours), len(theirs))
					}
					fo, ft := lrRefObjective(prob, p, ours, 1, 0), lrRefObjective(prob, p, theirs, 1, 0)
					t.Logf("C=%g eps=%g: objective ours %.10g liblinear %.10g (ours/liblinear − 1 = %.2g), nnz ours %d liblinear %d, stopped %v",
						c, eps, fo, ft, fo/ft-1, nnz(ours), nnz(theirs), conv)
					if conv != stopConverged {
						t.Errorf("C=%g eps=%g: not converged", c, eps)
					}
					if fo > ft*(1+1e-3) {
						t.Errorf("C=%g eps=%g: objective %.10g > liblinear's %.10g·(1+1e-3)", c, eps, fo, ft)
					}
					// Near the optimum both must agree closely.
					if eps <= 1e-6 && math.Abs(fo-ft) > 1e-5*ft {
						t.Errorf("C=%g eps=%g: objective %.10g, liblinear's %.10g: relative gap above 1e-5", c, eps, fo, ft)
					}
				}
			}
		})
	}
}

func nnz(w []float64) int {
	n := 0
	for _, v := range w {
		if v != 0 {
			n++
		}
	}
	return n
}

func BenchmarkL1LRCoil100(b *testing.B) {
	prob := coilProblem(b)
	p := Params{Solver: L1RLR, C: 1}
	b.ResetTimer()
	for range b.N {
		if _, _, err := solveL1RLR(prob, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLogisticSolversInputsUnmodified(t *testing.T) {
	prob := lrRandomProblem(21, 30, 10, 0.5, 1)
	x0 := prob.X.Dense()
	y0 := append([]float64(nil), prob.Y...)
	init := make([]float64, 11)
	init[3] = 0.5
	for name, solve := range map[string]solveFunc{"L1R_LR": solveL1RLR, "ELASTICNET_LR": solveElasticNet} {
		if _, _, err := solve(prob, Params{C: 2, L1Ratio: 0.5}, init); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(prob.X.Dense(), x0) || fmt.Sprint(prob.Y) != fmt.Sprint(y0) || prob.Bias != 1 {
			t.Errorf("%s modified the problem", name)
		}
		if init[3] != 0.5 || nnz(init) != 1 {
			t.Errorf("%s modified the warm start", name)
		}
	}
}

// TestL1LogisticTinyFeatures trains L1R_LR and ElasticNetLR (L1Ratio 1,
// the same objective) on heart_scale scaled by 1e-20 with C = 1e21
// (heart_scale with C = 10, times 1e20; and by 1e-150 with C = 1e300): the subgradient at w = 0 is far
// above L1R_LR's tolerance and F(0) is about twice the optimum, so a
// model of zeros must not be Converged. (With L1Ratio < 1 the L2 term,
// 1e40 times heart_scale's, makes w = 0 optimal to the relative gap.) The line search took the
// difference of two losses, which rounds a change of 1e-19 at z = 0 to 0,
// saw no decrease, and stopped at w = 0 as converged; liblinear-train
// (-w1 1e21 -w-1 1e21, as its -c refuses 1e21) steps on and stops at its
// iteration cap.
func TestL1LogisticTinyFeatures(t *testing.T) {
	x, y := readHeartScale(t)
	for _, c := range []struct {
		scale float64
		p     Params
	}{
		{1e-20, Params{Solver: L1RLR, C: 1e21}},
		{1e-20, Params{Solver: ElasticNetLR, C: 1e21, L1Ratio: 1}},
		{1e-150, Params{Solver: ElasticNetLR, C: 1e300, L1Ratio: 1}},
	} {
		p := c.p
		m, err := Train(context.Background(), &Problem{X: scaled(x, c.scale), Y: y}, p)
		if err != nil {
			t.Fatal(err)
		}
		zero := !slices.ContainsFunc(m.W, func(v float64) bool { return v != 0 })
		if zero && m.Converged {
			t.Errorf("%v C %v, features ×%v: converged at w = 0, where the subgradient is far above the tolerance", p.Solver, p.C, c.scale)
		}
	}
}

// TestLogLossChange checks lrLogLossChange against the difference of the
// losses where that has no cancellation, and against the first-order
// change −σ(−z)·δ for tiny δ, where the difference rounds to 0.
func TestLogLossChange(t *testing.T) {
	// The last four: the ratio rounds to −1 (log1p's −Inf) or exp(z)
	// overflows (a ratio of 0), review27's D1.
	for _, c := range [][2]float64{{0, 1}, {0, -3}, {5, 2}, {-40, 7}, {30, -20}, {1000, -800}, {-5, -900}, {2, 750},
		{-40, 50}, {-37.5, 40}, {710, -709}, {709.9, -709.5}} {
		z, d := c[0], c[1]
		want := lrLogLoss(z+d) - lrLogLoss(z)
		if got := lrLogLossChange(z, d); math.Abs(got-want) > 1e-12*math.Abs(want)+1e-300 {
			t.Errorf("z %v δ %v: %v, want %v", z, d, got, want)
		}
	}
	for _, z := range []float64{0, 3, -3, 40, -40} {
		d := 1e-19
		want := -d / (1 + math.Exp(z))
		if got := lrLogLossChange(z, d); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("z %v δ %v: %v, want %v", z, d, got, want)
		}
	}
}

// TestTrainerMatchesTrain: a Trainer's models along a path of C values, the
// solvers taking turns on one Trainer, are Train's, bitwise; a sparse and a
// dense problem, with a bias feature and without. Along a path of one
// primal L1 solver the column form is built once, by the first C, and kept
// (Problem.kept).
func TestTrainerMatchesTrain(t *testing.T) {
	solvers := []Solver{L1RLR, L1RLR, ElasticNetLR, L1RL2LossSVC, L2RLR, L2RL1LossSVCDual, L1RLR}
	for _, bias := range []float64{1, 0} {
		sparseProb := lrRandomProblem(31, 40, 12, 0.4, bias)
		dense, err := NewDense64(sparseProb.X.Dense().RawMatrix().Data, 12, nil)
		if err != nil {
			t.Fatal(err)
		}
		denseProb := &Problem{Dense: dense, Y: sparseProb.Y, Bias: bias}
		for name, prob := range map[string]*Problem{"sparse": sparseProb, "dense": denseProb} {
			tr := NewTrainer(prob)
			for _, c := range []float64{0.05, 0.5, 5} {
				for _, s := range solvers {
					p := Params{Solver: s, C: c, L1Ratio: 0.5, Seed: 3}
					got, err := tr.Train(context.Background(), p)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Train(context.Background(), prob, p)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, bias %v, %v, C = %v: the Trainer's model differs from Train's", name, bias, s, c)
					}
				}
			}
			path := NewTrainer(prob)
			var first *lrColumns
			for _, c := range []float64{0.05, 0.5, 5} {
				if _, err := path.Train(context.Background(), Params{Solver: L1RLR, C: c}); err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = path.bin.kept.lr
				}
				if kept := path.bin.kept.lr; first == nil || kept != first {
					t.Errorf("%s, bias %v, C = %v: column form %p, want the first C's, %p", name, bias, c, kept, first)
				}
			}
		}
	}
}

// TestTrainerRebuildsForTheNextSolver: a Trainer of a Dense problem whose
// first solver reads rows (L2RLR, its copy kept dense) and whose next reads
// columns (L1RLR, which needs CSR) builds the next solver's copy: both
// models are Train's, bitwise.
func TestTrainerRebuildsForTheNextSolver(t *testing.T) {
	sp := lrRandomProblem(31, 40, 12, 0.4, 1)
	dense, err := NewDense64(sp.X.Dense().RawMatrix().Data, 12, nil)
	if err != nil {
		t.Fatal(err)
	}
	prob := &Problem{Dense: dense, Y: sp.Y, Bias: 1}
	tr := NewTrainer(prob)
	for _, s := range []Solver{L2RLR, L1RLR} {
		got, err := tr.Train(context.Background(), Params{Solver: s, C: 0.5})
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		want, err := Train(context.Background(), prob, Params{Solver: s, C: 0.5})
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: the Trainer's model differs from Train's", s)
		}
	}
}

// TestTrainerTrainsUnderEachCallsContext: a Trainer whose first Train's
// context has ended since trains the next under the next call's live
// context, to Train's model.
func TestTrainerTrainsUnderEachCallsContext(t *testing.T) {
	prob := lrRandomProblem(31, 40, 12, 0.4, 1)
	tr := NewTrainer(prob)
	first, cancel := context.WithCancel(context.Background())
	if _, err := tr.Train(first, Params{Solver: L1RLR, C: 0.5}); err != nil {
		t.Fatal(err)
	}
	cancel()
	got, err := tr.Train(context.Background(), Params{Solver: L1RLR, C: 5})
	if err != nil {
		t.Fatalf("the second Train, under a live context: %v", err)
	}
	want, err := Train(context.Background(), prob, Params{Solver: L1RLR, C: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the Trainer's second model differs from Train's")
	}
}

// TestTrainerModelsOwnTheirLabels: changing one of a Trainer's models'
// Labels leaves the next model's as they were.
func TestTrainerModelsOwnTheirLabels(t *testing.T) {
	prob := lrRandomProblem(31, 40, 12, 0.4, 1)
	tr := NewTrainer(prob)
	a, err := tr.Train(context.Background(), Params{Solver: L1RLR, C: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(a.Labels)
	a.Labels[0] = 99
	b, err := tr.Train(context.Background(), Params{Solver: L1RLR, C: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Labels, want) {
		t.Errorf("the next model's labels %v, want %v", b.Labels, want)
	}
}
