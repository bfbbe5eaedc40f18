package method

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/metric"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// directRidge solves min_w ‖Z w − t‖² + λ‖w‖² from the normal equations.
func directRidge(t *testing.T, Z *mat.Dense, target []float64, lambda float64) []float64 {
	t.Helper()
	_, d := Z.Dims()
	var A mat.Dense
	A.Mul(Z.T(), Z)
	for j := range d {
		A.Set(j, j, A.At(j, j)+lambda)
	}
	var b, w mat.VecDense
	b.MulVec(Z.T(), mat.NewVecDense(len(target), target))
	if err := w.SolveVec(&A, &b); err != nil {
		t.Fatal(err)
	}
	return mat.Col(nil, 0, &w)
}

// bruteLOO refits the ridge model without each row i in turn and returns
// offset_i + z_iᵀ w₋ᵢ (the standardisation is that of the whole sample, as
// in the methods).
func bruteLOO(t *testing.T, Z *mat.Dense, y, offset []float64, lambda float64) []float64 {
	t.Helper()
	m, d := Z.Dims()
	pred := make([]float64, m)
	for i := range m {
		rows := make([]int, 0, m-1)
		for r := range m {
			if r != i {
				rows = append(rows, r)
			}
		}
		constant := true
		for _, r := range rows {
			constant = constant && y[r]-offset[r] == y[rows[0]]-offset[rows[0]]
		}
		if constant {
			// Centred columns are orthogonal to a constant target: w = 0
			// exactly, whatever rounding directRidge would add.
			pred[i] = offset[i]
			continue
		}
		// Re-centre the columns without example i (ridgeByLOO's definition),
		// then fit ridge without intercept on the others' targets.
		mean := make([]float64, d)
		for _, r := range rows {
			for j := range d {
				mean[j] += Z.At(r, j) / float64(m-1)
			}
		}
		Zi := mat.NewDense(m-1, d, nil)
		ti := make([]float64, m-1)
		for k, r := range rows {
			for j := range d {
				Zi.Set(k, j, Z.At(r, j)-mean[j])
			}
			ti[k] = y[r] - offset[r]
		}
		w := directRidge(t, Zi, ti, lambda)
		zi := make([]float64, d)
		for j := range d {
			zi[j] = Z.At(i, j) - mean[j]
		}
		pred[i] = offset[i] + mat.Dot(mat.NewVecDense(d, w), mat.NewVecDense(d, zi))
	}
	return pred
}

// ridgeDesign returns what a ridge method regresses on: the standardised
// design Z, the offset (h̄ for average-kt, else 0), the number of feature
// weights among Z's columns, and the source weights it must report (nil:
// the ridge weights of the last columns).
type ridgeDesign func(st standardized, m int) (Z *mat.Dense, offset []float64, wsrc []float64)

func noTransferDesign(st standardized, m int) (*mat.Dense, []float64, []float64) {
	return st.zx, make([]float64, m), make([]float64, st.sh.Len())
}

func rlsDesign(st standardized, m int) (*mat.Dense, []float64, []float64) {
	return concatColumns(st.zx, st.zh), make([]float64, m), nil
}

func averageDesign(st standardized, m int) (*mat.Dense, []float64, []float64) {
	n := st.sh.Len()
	off := make([]float64, m)
	w := make([]float64, n)
	for j := range w {
		w[j] = 1 / float64(n)
	}
	for i := range off {
		for j := range n {
			off[i] += st.zh.At(i, j) / float64(n)
		}
	}
	return st.zx, off, w
}

// The ridge baselines against the definitions: λ is the one the selection
// rule picks from brute-force leave-one-out refits, the weights solve the
// normal equations at that λ, and predictions are Σ w·z (+ h̄).
func TestRidgeMethodsAgainstDirectSolves(t *testing.T) {
	designs := []struct {
		name   string
		design ridgeDesign
	}{
		{"no-transfer", noTransferDesign},
		{"rls-srcfeat", rlsDesign},
		{"average-kt", averageDesign},
	}
	cases := []struct {
		name string
		c    conformanceCase
	}{
		{"d < m (primal)", newConformanceCase(31, 20, 6, 4, 6)},
		{"d > m (dual)", newConformanceCase(32, 12, 2, 30, 40)},
		{"a single positive", newConformanceCase(33, 11, 1, 6, 5)},
		{"duplicated and constant columns", newConformanceCase(34, 14, 4, 5, 6).
			mapColumns(func(A *mat.Dense) *mat.Dense { return constantColumn(1, 3)(duplicateColumn(0)(A)) },
				duplicateColumn(2))},
	}
	lambdasSeen := map[float64]bool{}
	for _, ds := range designs {
		for _, tc := range cases {
			t.Run(ds.name+"/"+tc.name, func(t *testing.T) {
				c := tc.c
				m := len(c.train.Y)
				model := mustFit(t, ds.name, c)
				st, err := standardizeData(c.train)
				if err != nil {
					t.Fatal(err)
				}
				Z, off, wsrc := ds.design(st, m)
				cands := make([]looCandidate, len(lambdaGrid))
				for k, l := range lambdaGrid {
					cands[k] = looCandidate{Strength: l, Pred: bruteLOO(t, Z, c.train.Y, off, l)}
				}
				best, err := chooseByLOO(c.train.Y, cands, tieSquared)
				if err != nil {
					t.Fatal(err)
				}
				lambda := lambdaGrid[best]
				lambdasSeen[lambda] = true
				if got := model.Hyperparameters()["lambda"]; got != lambda {
					t.Fatalf("λ = %v, brute-force LOO chooses %v", got, lambda)
				}
				target := make([]float64, m)
				for i := range target {
					target[i] = c.train.Y[i] - off[i]
				}
				w := directRidge(t, Z, target, lambda)
				l := model.(*Linear)
				got := append(slices.Clone(l.WX), l.WH...)
				if wsrc != nil {
					got = l.WX
					if !slices.Equal(l.WH, wsrc) {
						t.Errorf("source weights %v, want %v", l.WH, wsrc)
					}
				}
				for j := range w {
					if math.Abs(got[j]-w[j]) > 1e-9*math.Max(1, math.Abs(w[j])) {
						t.Errorf("weight %d = %v, direct solve %v", j, got[j], w[j])
					}
				}
				if l.B != 0 {
					t.Errorf("intercept %v, want none", l.B)
				}
				// Predictions on test rows, standardised by hand.
				f := mustPredict(t, model, c.test)
				zt, _ := st.sx.Transform(c.test.X)
				ht, _ := st.sh.Transform(c.test.H)
				for i := range 5 {
					want := 0.0
					for j, v := range l.WX {
						want += v * zt.At(i, j)
					}
					for j, v := range l.WH {
						want += v * ht.At(i, j)
					}
					if math.Abs(f[i]-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Errorf("test row %d: %v, want %v", i, f[i], want)
					}
				}
			})
		}
	}
	if len(lambdasSeen) < 2 {
		t.Errorf("every case chose λ in %v: the test does not discriminate", lambdasSeen)
	}
}

// rls-srcfeat is GreedyTL with every column selected at the same λ.
func TestRLSSrcFeatIsGreedyTLWithAllColumns(t *testing.T) {
	c := newConformanceCase(41, 16, 5, 6, 7)
	model := mustFit(t, "rls-srcfeat", c)
	o := greedytl.DefaultOptions()
	o.Lambda, o.Delta = model.Hyperparameters()["lambda"], 0
	gm, err := greedytl.Fit(context.Background(), c.train.X, c.train.H, c.train.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(gm.Selected) != 13 {
		t.Fatalf("GreedyTL selected %d of 13 columns", len(gm.Selected))
	}
	f := mustPredict(t, model, c.test)
	g, _ := gm.Predict(c.test.X, c.test.H)
	for i := range f {
		if math.Abs(f[i]-g[i]) > 1e-9*math.Max(1, math.Abs(g[i])) {
			t.Fatalf("row %d: rls-srcfeat %v, GreedyTL with all columns %v", i, f[i], g[i])
		}
	}
}

// The documented fallbacks of the ridge methods.
func TestRidgeFallbacks(t *testing.T) {
	c := newConformanceCase(42, 14, 3, 4, 5)
	noSrc := c.withoutSources()

	// average-kt without sources is no-transfer.
	a := mustPredict(t, mustFit(t, "average-kt", noSrc), noSrc.test)
	b := mustPredict(t, mustFit(t, "no-transfer", noSrc), noSrc.test)
	if !slices.Equal(a, b) {
		t.Error("average-kt without sources differs from no-transfer")
	}
	// rls-srcfeat without sources is no-transfer too.
	if r := mustPredict(t, mustFit(t, "rls-srcfeat", noSrc), noSrc.test); !slices.Equal(r, b) {
		t.Error("rls-srcfeat without sources differs from no-transfer")
	}

	// average-kt without features predicts h̄ and has no hyperparameter.
	noX := c.mapColumns(func(*mat.Dense) *mat.Dense { return nil }, identity)
	model := mustFit(t, "average-kt", noX)
	if hp := model.Hyperparameters(); len(hp) != 0 {
		t.Errorf("hyperparameters %v without features", hp)
	}
	st, _ := standardizeData(c.train)
	zt, _ := st.sh.Transform(c.test.H)
	f := mustPredict(t, model, noX.test)
	for i := range f {
		want := mat.Sum(zt.RowView(i)) / 5
		if math.Abs(f[i]-want) > 1e-14 {
			t.Fatalf("row %d: %v, want h̄ = %v", i, f[i], want)
		}
	}

	// no-transfer needs features; with constant features only it predicts 0.
	if _, err := fitCase(t, "no-transfer", noX); err == nil || !strings.Contains(err.Error(), "needs target features") {
		t.Errorf("no-transfer without X: %v", err)
	}
	flat := noSrc.mapColumns(func(A *mat.Dense) *mat.Dense {
		for j := range 4 {
			A = constantColumn(j, float64(j))(A)
		}
		return A
	}, identity)
	// New feature values do not matter: constant columns have weight 0.
	for _, v := range mustPredict(t, mustFit(t, "no-transfer", flat), noSrc.test) {
		if v != 0 {
			t.Fatalf("constant features: prediction %v, want 0", v)
		}
	}
}

// best-source against its definition, computed on the raw scores: for each
// source the class-balanced least-squares line through (h_j, y), scored on
// the oracle by balanced accuracy.
func TestBestSource(t *testing.T) {
	c := newConformanceCase(51, 12, 2, 3, 9)
	// Make source 6 perfect on the oracle but useless on the training set.
	orc := cloneData(*c.extra.Oracle)
	for i, v := range orc.Y {
		dense(orc.H).Set(i, 6, 10*v+float64(i%3))
	}
	c.extra.Oracle = &orc
	model := mustFit(t, "best-source", c)
	m := len(c.train.Y)
	bestJ, bestAcc := -1, -1.0
	var bestA, bestB float64
	for j := range 9 {
		// Weighted normal equations for (a, b), weights 1/(2m±).
		var s00, s01, s11, r0, r1 float64
		for i := range m {
			w := 1 / (2.0 * 2)
			if c.train.Y[i] < 0 {
				w = 1 / (2.0 * 10)
			}
			h := c.train.H.At(i, j)
			s00 += w * h * h
			s01 += w * h
			s11 += w
			r0 += w * h * c.train.Y[i]
			r1 += w * c.train.Y[i]
		}
		var sol mat.VecDense
		if err := sol.SolveVec(mat.NewDense(2, 2, []float64{s00, s01, s01, s11}), mat.NewVecDense(2, []float64{r0, r1})); err != nil {
			t.Fatal(err)
		}
		a, b := sol.AtVec(0), sol.AtVec(1)
		pred := make([]float64, len(orc.Y))
		for i := range pred {
			pred[i] = a*orc.H.At(i, j) + b
		}
		acc, _ := metric.BalancedAccuracy(pred, orc.Y)
		if acc > bestAcc {
			bestJ, bestAcc, bestA, bestB = j, acc, a, b
		}
	}
	if bestJ != 6 {
		t.Fatalf("the definition picks source %d: the test problem is wrong", bestJ)
	}
	if got := model.Hyperparameters()["source"]; got != 6 {
		t.Errorf("source %v chosen, want 6", got)
	}
	f := mustPredict(t, model, c.test)
	for i := range f {
		want := bestA*c.test.H.At(i, 6) + bestB
		if math.Abs(f[i]-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("test row %d: %v, want %v", i, f[i], want)
		}
	}
	sw := model.SourceWeights()
	for j, w := range sw {
		if (w != 0) != (j == 6) {
			t.Errorf("source weights %v: want only source 6", sw)
			break
		}
	}

	meth, _ := New("best-source")
	if !meth.Needs().Oracle || meth.Needs().Unlabelled {
		t.Errorf("Needs() = %+v", meth.Needs())
	}
	reg, _ := Lookup("best-source")
	if !strings.Contains(reg.Description, "ORACLE") {
		t.Errorf("description %q does not say it is an oracle", reg.Description)
	}
	badLabels := cloneData(orc)
	badLabels.Y[0] = 0
	oneClass := cloneData(orc)
	for i := range oneClass.Y {
		oneClass.Y[i] = -1
	}
	for _, tc := range []struct {
		name  string
		c     conformanceCase
		extra Extra
		want  string
	}{
		{"no oracle", c, Extra{}, "needs Extra.Oracle"},
		{"no sources", c.withoutSources(), c.withoutSources().extra, "needs source scores"},
		{"oracle without H", c, Extra{Oracle: &Data{X: orc.X, Y: orc.Y}}, "oracle data: no H (source scores) given: the model was trained on 9 sources"},
		{"oracle labels missing", c, Extra{Oracle: &Data{X: orc.X, H: orc.H}}, "0 labels"},
		{"oracle label 0", c, Extra{Oracle: &badLabels}, "method: best-source: oracle data: y row 0 is 0: labels must be +1 or -1"},
		// Balanced accuracy on one class is that class's rate alone: every
		// source that predicts it everywhere would be best.
		{"oracle of one class", c, Extra{Oracle: &oneClass}, "method: best-source: oracle data: y holds one class only"},
	} {
		_, err := meth.Fit(context.Background(), tc.c.train, tc.extra)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// balancedLine puts the threshold midway between the class means.
func TestBalancedLine(t *testing.T) {
	z := []float64{3, 5, 0, 0, 1, -1, 0, 0}
	y := []float64{1, 1, -1, -1, -1, -1, -1, -1}
	a, b := balancedLine(z, y)
	// Weights 1/4 (positives) and 1/12 (negatives): weighted mean of z 2,
	// Σw(z−2)² = 14/3, Σw(z−2)y = 2, so a = 3/7 and the threshold −b/a is
	// 2, midway between the class means 4 and 0.
	if math.Abs(a-3.0/7) > 1e-15 || math.Abs(-b/a-2) > 1e-14 {
		t.Errorf("a = %v, threshold %v; want 3/7, 2", a, -b/a)
	}
	if a, b := balancedLine([]float64{0, 0, 0}, []float64{1, -1, -1}); a != 0 || b != 0 {
		t.Errorf("constant column: a = %v, b = %v", a, b)
	}
}

// leastSquaresLine is ordinary least squares: gonum's stat.LinearRegression
// (unweighted, with an intercept); a constant column gives the mean label.
func TestLeastSquaresLine(t *testing.T) {
	for _, tc := range []struct{ z, y []float64 }{
		{[]float64{3, 5, 0, 0, 1, -1, 0, 0}, []float64{1, 1, -1, -1, -1, -1, -1, -1}},
		{[]float64{-1.2, 0.3, 2.5, -0.4, 0.9}, []float64{1, -1, 1, -1, -1}},
	} {
		a, b := leastSquaresLine(tc.z, tc.y)
		wantB, wantA := stat.LinearRegression(tc.z, tc.y, nil, false)
		if math.Abs(a-wantA) > 1e-14 || math.Abs(b-wantB) > 1e-14 {
			t.Errorf("z = %v: a, b = %v, %v; stat.LinearRegression gives %v, %v", tc.z, a, b, wantA, wantB)
		}
	}
	if a, b := leastSquaresLine([]float64{0, 0, 0}, []float64{1, -1, -1}); a != 0 || math.Abs(b+1.0/3) > 1e-15 {
		t.Errorf("constant column: a = %v, b = %v; want 0, -1/3", a, b)
	}
}

// When the smallest λ make the closed form unreliable (a badly scaled
// design), ridgeByLOO chooses among the others rather than failing.
func TestRidgeByLOOSkipsUnreliableLambdas(t *testing.T) {
	c := newConformanceCase(61, 12, 4, 3, 2)
	// A duplicated column makes ZᵀZ singular and the scale puts its largest
	// eigenvalue near 1e11: the condition number exceeds 1e12 for λ ≤ 1e-1.
	Z := duplicateColumn(0)(dense(c.train.X))
	Z.Scale(1e5, Z)
	y := c.train.Y
	if _, err := linear.RidgeLOOPath(context.Background(), Z, y, lambdaGrid, false); err == nil {
		t.Fatal("the whole grid is usable: the test does not exercise the fallback")
	}
	var cands []looCandidate
	var usable []float64
	for _, l := range lambdaGrid {
		if _, err := linear.RidgeLOOPath(context.Background(), Z, y, []float64{l}, false); err != nil {
			continue
		}
		usable = append(usable, l)
		cands = append(cands, looCandidate{Strength: l, Pred: bruteLOO(t, Z, y, make([]float64, len(y)), l)})
	}
	if len(usable) == 0 || len(usable) == len(lambdaGrid) {
		t.Fatalf("usable λ: %v", usable)
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		t.Fatal(err)
	}
	lambda, w, err := ridgeByLOO(context.Background(), Z, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lambda != usable[best] {
		t.Errorf("λ = %v, brute force over the usable %v chooses %v", lambda, usable, usable[best])
	}
	want := directRidge(t, Z, y, lambda)
	for j := range w {
		if math.Abs(w[j]-want[j]) > 1e-9*math.Max(1e-12, math.Abs(want[j])) {
			t.Errorf("weight %d = %v, direct %v", j, w[j], want[j])
		}
	}
}
