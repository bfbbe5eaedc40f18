package method

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// multiProblem draws a K-way problem: shots training examples and test
// examples per class, d features (the class shifts a third of them) and n
// source scores (source j favours class j mod K), with seed.
func multiProblem(seed uint64, K, shots, test, d, n int) (train Data, ytrain ClassLabels, testData Data, ytest []int) {
	rng := rand.New(rand.NewPCG(seed, 0x6d756c74))
	centre := mat.NewDense(K, d, nil)
	for k := range K {
		for j := range d {
			if j%3 == 0 {
				centre.Set(k, j, rng.NormFloat64())
			}
		}
	}
	names := make([]string, K)
	for k := range names {
		names[k] = fmt.Sprintf("class%d", k)
	}
	draw := func(per int) (Data, []int) {
		m := K * per
		X := mat.NewDense(m, d, nil)
		H := mat.NewDense(m, n, nil)
		y := make([]int, m)
		for i := range m {
			k := i % K
			y[i] = k
			for j := range d {
				X.Set(i, j, centre.At(k, j)+rng.NormFloat64())
			}
			for j := range n {
				v := 0.8 * rng.NormFloat64()
				if j%K == k {
					v += 1
				}
				H.Set(i, j, v)
			}
		}
		return Data{X: X, H: H}, y
	}
	train, yt := draw(shots)
	testData, ytest = draw(test)
	return train, ClassLabels{Names: names, Y: yt}, testData, ytest
}

// TestNonFiniteClassNames: a class name that reads as a non-finite number
// or holds a line break (dataset.CheckLabel) is refused by FitMulti and by
// Read, which read a file fitted on labels with NaN before label files
// refused them (its predictions printed the class "NaN"), or edited (a
// class "a\nb" printed two lines for one row).
func TestNonFiniteClassNames(t *testing.T) {
	train, y, _, _ := multiProblem(3, 3, 4, 2, 6, 3)
	_, file := multiFile(t, "nearest-mean", train, y)
	for _, name := range []string{"NaN", "nan", "-Inf", "infinity", "1e400", "a\nb", "a\tb"} {
		bad := y
		bad.Names = slices.Clone(y.Names)
		bad.Names[1] = name
		mm, _ := NewMulti("nearest-mean")
		if _, err := mm.FitMulti(context.Background(), train, bad, Extra{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("class 1: label %q", name)) {
			t.Errorf("FitMulti with the class %q: %v, want an error naming class 1", name, err)
		}
		edited := bytes.Replace(file, []byte(`"class1"`), []byte(strconv.Quote(name)), 1)
		if _, err := Read(bytes.NewReader(edited)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("class 1: label %q", name)) {
			t.Errorf("Read of a file with the class %q: %v, want an error naming class 1", name, err)
		}
	}
}

// multiFile fits the multi-class method name (NewMulti) on train and y with
// seed 1 and returns the model and its file (WriteMulti, no sources).
func multiFile(t *testing.T, name string, train Data, y ClassLabels) (MultiModel, []byte) {
	t.Helper()
	mm, err := NewMulti(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMulti(&buf, m, FileInfo{}); err != nil {
		t.Fatal(err)
	}
	return m, buf.Bytes()
}

// sklearnMultinomialScript fits LogisticRegression(multi_class="multinomial",
// solver=argv[3]) at C = argv[2], with class_weight argv[4] when given
// ("balanced"), on the CSV argv[1] (class index first, then the columns,
// used as they are), to tol 1e-12 (lbfgs: a projected gradient or a
// relative decrease of the objective divided by C; newton-cg: a gradient
// of infinity norm 1e-12 on it), and prints the coefficients and the
// intercepts (centred to sum 0) as JSON. Rounding can keep newton-cg's
// gradient above 1e-12: it then iterated to max_iter without moving (it
// was 100,000, 80 s a fit, five minutes of
// TestMultinomialLogisticUnevenMatchesSklearnBalanced; its parameters
// reached their final bits within 20 iterations), so at 500 iterations the
// script checks that one more leaves the parameters where they are (within
// 1e-12), and fails otherwise, as it does when lbfgs reaches max_iter.
const sklearnMultinomialScript = `
import json, sys, warnings
import numpy as np
warnings.filterwarnings("ignore")
from sklearn.linear_model import LogisticRegression
A = np.loadtxt(sys.argv[1], delimiter=",")
X, y = A[:, 1:], A[:, 0].astype(int)
cw = sys.argv[4] if len(sys.argv) > 4 else None
solver, cap = sys.argv[3], 500
m = LogisticRegression(multi_class="multinomial", solver=solver, C=float(sys.argv[2]), class_weight=cw, tol=1e-12, max_iter=cap).fit(X, y)
if m.n_iter_.max() >= cap:
    if solver != "newton-cg":
        sys.exit("%s did not converge in %d iterations" % (solver, cap))
    coef, intercept = m.coef_.copy(), m.intercept_.copy()
    m.set_params(warm_start=True, max_iter=1).fit(X, y)
    moved = max(np.abs(m.coef_ - coef).max(), np.abs(m.intercept_ - intercept).max())
    if moved > 1e-12:
        sys.exit("newton-cg still moves by %g after %d iterations" % (moved, cap))
b = m.intercept_ - m.intercept_.mean()
print(json.dumps({"coef": m.coef_.tolist(), "intercept": b.tolist()}))
`

// multinomialObjective is the objective of multinomialLogistic, written
// out from its definition: ½‖W‖² + C Σ_i v_i (log Σ_k exp(w_kᵀz_i + b_k) −
// (w_yᵀz_i + b_y)), v_i = v[i] (nil: all 1).
func multinomialObjective(Z *mat.Dense, y []int, v []float64, W *mat.Dense, b []float64, C float64) float64 {
	m, _ := Z.Dims()
	K, _ := W.Dims()
	var f float64
	for k := range K {
		f += 0.5 * mat.Dot(W.RowView(k), W.RowView(k))
	}
	for i := range m {
		var s float64
		for k := range K {
			s += math.Exp(mat.Dot(W.RowView(k), Z.RowView(i)) + b[k])
		}
		vi := 1.0
		if v != nil {
			vi = v[i]
		}
		f += C * vi * (math.Log(s) - mat.Dot(W.RowView(y[i]), Z.RowView(i)) - b[y[i]])
	}
	return f
}

// sklearnMultinomial fits scikit-learn's multinomial logistic regression
// (sklearnMultinomialScript, python py) with solver ("lbfgs",
// "newton-cg") at C with class_weight ("" for none) on the rows of Z
// labelled y, and returns its weights and its intercepts (centred to sum
// 0).
func sklearnMultinomial(t *testing.T, py string, Z *mat.Dense, y []int, K int, C float64, solver, classWeight string) (*mat.Dense, []float64) {
	t.Helper()
	m, p := Z.Dims()
	var csv bytes.Buffer
	for i := range m {
		csv.WriteString(strconv.Itoa(y[i]))
		for j := range p {
			fmt.Fprintf(&csv, ",%.17g", Z.At(i, j))
		}
		csv.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "z.csv")
	if err := os.WriteFile(path, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-c", sklearnMultinomialScript, path, strconv.FormatFloat(C, 'g', -1, 64), solver}
	if classWeight != "" {
		args = append(args, classWeight)
	}
	out, err := exec.Command(py, args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("scikit-learn: %v\n%s", err, stderr)
	}
	var want struct {
		Coef      [][]float64 `json:"coef"`
		Intercept []float64   `json:"intercept"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	W := mat.NewDense(K, p, nil)
	for k := range K {
		W.SetRow(k, want.Coef[k])
	}
	return W, want.Intercept
}

// TestMultinomialMatchesSklearn fits the multinomial logistic regression at
// fixed C on standardised data, with more columns than examples (the
// row-space reduction) and fewer, and compares the weights and intercepts
// with scikit-learn's.
func TestMultinomialMatchesSklearn(t *testing.T) {
	py := peertest.PythonWith(t, "numpy", "sklearn")
	for _, tc := range []struct {
		name        string
		K, shots, d int
		C           float64
	}{
		{"p>m", 4, 3, 30, 1},
		{"p<m", 3, 10, 5, 0.1},
		{"p>m-largeC", 5, 2, 20, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "p>m" {
				t.Skip("one case with -short: each starts scikit-learn")
			}
			train, y, _, _ := multiProblem(3, tc.K, tc.shots, 1, tc.d, tc.K)
			s, Z, err := fitMultiBlocks(train, standardize.Fit, standardize.Fit)
			if err != nil {
				t.Fatal(err)
			}
			F, back, err := reduceRows(context.Background(), Z)
			if err != nil {
				t.Fatal(err)
			}
			all := make([]int, len(y.Y))
			for i := range all {
				all[i] = i
			}
			x, _, err := fitMultinomial(context.Background(), F, y.Y, nil, tc.K, all, tc.C, nil, 1e-10)
			if err != nil {
				t.Fatal(err)
			}
			_ = s
			_, p := Z.Dims()
			r := F.RawMatrix().Cols
			W := mat.NewDense(tc.K, p, nil)
			beta := mat.NewDense(tc.K, r, x[:tc.K*r])
			if back != nil {
				W.Mul(beta, back)
			} else {
				W.Copy(beta)
			}
			b := x[tc.K*r:]
			var mean float64
			for _, v := range b {
				mean += v / float64(tc.K)
			}
			wantW, wantB := sklearnMultinomial(t, py, Z, y.Y, tc.K, tc.C, "lbfgs", "")
			var worst float64
			for k := range tc.K {
				for j := range p {
					worst = math.Max(worst, math.Abs(W.At(k, j)-wantW.At(k, j)))
				}
				worst = math.Max(worst, math.Abs(b[k]-mean-wantB[k]))
			}
			got := multinomialObjective(Z, y.Y, nil, W, b, tc.C)
			peer := multinomialObjective(Z, y.Y, nil, wantW, wantB, tc.C)
			if got > peer*(1+1e-12) {
				t.Errorf("objective %.17g, scikit-learn's %.17g: ours should be no larger", got, peer)
			}
			if tc.C > 10 {
				// scikit-learn's L-BFGS stops on a relative decrease of
				// 64ε, short of the minimiser when C is large: only the
				// objective is compared.
				return
			}
			if worst > 1e-5 {
				t.Errorf("largest difference from scikit-learn's weights and intercepts: %g, want ≤ 1e-5", worst)
			}
			t.Logf("largest difference from scikit-learn: %.2g", worst)
		})
	}
}

// standardiseBrute standardises the columns of [X, H] of d with the mean
// and population standard deviation of the same columns of train, written
// out (a constant column gives 0).
func standardiseBrute(train, d Data) [][]float64 {
	tx, th := dense(train.X), dense(train.H)
	x, h := dense(d.X), dense(d.H)
	m, _ := tx.Dims()
	r, _ := x.Dims()
	out := make([][]float64, r)
	for _, blk := range []struct{ tr, a *mat.Dense }{{tx, x}, {th, h}} {
		_, c := blk.tr.Dims()
		for j := range c {
			var mean, ss float64
			for i := range m {
				mean += blk.tr.At(i, j) / float64(m)
			}
			for i := range m {
				ss += (blk.tr.At(i, j) - mean) * (blk.tr.At(i, j) - mean)
			}
			sd := math.Sqrt(ss / float64(m))
			for i := range r {
				v := 0.0
				if sd > 0 {
					v = (blk.a.At(i, j) - mean) / sd
				}
				out[i] = append(out[i], v)
			}
		}
	}
	return out
}

// TestNativeMultiBruteForce checks the predictions of nearest-mean,
// nearest-neighbour and simpleshot against their definitions written out on
// the standardised rows.
func TestNativeMultiBruteForce(t *testing.T) {
	train, y, test, _ := multiProblem(11, 4, 3, 10, 7, 5)
	zt := standardiseBrute(train, train)
	zs := standardiseBrute(train, test)
	dist := func(a, b []float64) float64 {
		var s float64
		for j := range a {
			s += (a[j] - b[j]) * (a[j] - b[j])
		}
		return s
	}
	norm := func(a []float64) []float64 {
		var s float64
		for _, v := range a {
			s += v * v
		}
		out := slices.Clone(a)
		for j := range out {
			out[j] /= math.Sqrt(s)
		}
		return out
	}
	means := func(rows [][]float64) [][]float64 {
		mu := make([][]float64, len(y.Names))
		cnt := y.Counts()
		for i, k := range y.Y {
			if mu[k] == nil {
				mu[k] = make([]float64, len(rows[i]))
			}
			for j, v := range rows[i] {
				mu[k][j] += v / float64(cnt[k])
			}
		}
		return mu
	}
	nearest := func(z []float64, cands [][]float64, class []int) int {
		best, bd := -1, math.Inf(1)
		for c, v := range cands {
			if d := dist(z, v); d < bd {
				best, bd = c, d
			}
		}
		return class[best]
	}
	ident := []int{0, 1, 2, 3}
	var normed [][]float64
	for _, z := range zt {
		normed = append(normed, norm(z))
	}
	want := map[string]func(z []float64) int{
		"nearest-mean":      func(z []float64) int { return nearest(z, means(zt), ident) },
		"nearest-neighbour": func(z []float64) int { return nearest(z, zt, y.Y) },
		"simpleshot":        func(z []float64) int { return nearest(norm(z), means(normed), ident) },
	}
	for name, f := range want {
		mm, _ := NewMulti(name)
		model, err := mm.FitMulti(context.Background(), train, y, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := model.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		for i, z := range zs {
			if w := f(z); pred[i] != w {
				t.Errorf("%s: row %d predicted %d, the definition gives %d", name, i, pred[i], w)
			}
		}
	}
}

// TestOneVsRestScores checks that one-vs-rest scores are each class's
// binary model, fitted on its own (class k against the rest), divided by
// the root mean square of its training scores.
func TestOneVsRestScores(t *testing.T) {
	train, y, test, _ := multiProblem(12, 3, 4, 5, 6, 3)
	for _, name := range []string{"rls-srcfeat", "greedytl"} {
		bin, _ := New(name)
		model, err := OneVsRest{Binary: bin}.FitMulti(context.Background(), train, y, Extra{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := model.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		for k := range y.Names {
			d := Data{X: train.X, H: train.H, Y: make([]float64, len(y.Y))}
			for i, c := range y.Y {
				d.Y[i] = -1
				if c == k {
					d.Y[i] = 1
				}
			}
			m, err := bin.Fit(context.Background(), d, Extra{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ft, _ := m.Predict(Data{X: train.X, H: train.H})
			var ss float64
			for _, v := range ft {
				ss += v * v
			}
			scale := math.Sqrt(ss / float64(len(ft)))
			f, _ := m.Predict(test)
			for i, v := range f {
				if w := v / scale; math.Abs(got.At(i, k)-w) > 1e-12*math.Max(1, math.Abs(w)) {
					t.Fatalf("%s: class %d row %d: score %v, want %v", name, k, i, got.At(i, k), w)
				}
			}
		}
	}
}

// TestOneVsRestScaleAnyMagnitude: a class's one-vs-rest scale is the root
// mean square of its training scores whatever their magnitude. Squared,
// scores below 1e-154 underflowed and above 1e154 overflowed, and the scale
// fell back to 1 (meant for scores all 0): greedytl:lambda=1e300,delta=0,
// whose ridge scores are about 1e-300, left each class's scores unscaled,
// so that a class of larger raw scores took rows from the others. Its
// scaled scores are now those at λ = 1e150, where nothing underflows (the
// scores are proportional to 1/λ at such λ), within 1e-12.
func TestOneVsRestScaleAnyMagnitude(t *testing.T) {
	for _, tc := range []struct {
		f    []float64
		want float64
	}{
		{[]float64{3e-300, -4e-300}, math.Sqrt(12.5) * 1e-300},
		{[]float64{3e200, -4e200}, math.Sqrt(12.5) * 1e200},
		{[]float64{5e-324, 0}, 5e-324},
		{[]float64{0, 0}, 1},
		{[]float64{3, -4}, math.Sqrt(12.5)},
	} {
		if got := rms(tc.f); math.Abs(got-tc.want) > 1e-15*tc.want {
			t.Errorf("rms(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
	train, y, test, _ := multiProblem(5, 3, 6, 4, 6, 4)
	scores := func(spec string) *mat.Dense {
		model, _ := multiFile(t, spec, train, y)
		S, err := model.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		return S
	}
	want := scores("greedytl:lambda=1e150,delta=0")
	for _, lambda := range []string{"1e200", "1e300"} {
		got := scores("greedytl:lambda=" + lambda + ",delta=0")
		if !mat.EqualApprox(got, want, 1e-12) {
			t.Errorf("λ = %s: scores %v, want those at λ = 1e150, %v", lambda, mat.Formatted(got.Slice(0, 1, 0, 3)), mat.Formatted(want.Slice(0, 1, 0, 3)))
		}
	}
}

// moderatedRows returns the rows [x, h] of d, each column centred on
// train's mean and divided by its moderated scale (standardize.FitModerated
// of train's X, resp. H, checked against its definition in its package; 0
// for a constant column).
func moderatedRows(train, d Data) [][]float64 {
	x, h := dense(d.X), dense(d.H)
	r, _ := x.Dims()
	out := make([][]float64, r)
	for _, blk := range []struct{ tr, a *mat.Dense }{{dense(train.X), x}, {dense(train.H), h}} {
		s := standardize.FitModerated(blk.tr)
		for i := range r {
			for j := range s.Len() {
				v := 0.0
				if s.Scale[j] > 0 {
					v = (blk.a.At(i, j) - s.Mean[j]) / s.Scale[j]
				}
				out[i] = append(out[i], v)
			}
		}
	}
	return out
}

// TestGreedyNWayDefinition checks greedytl-nway against its definition:
// the mean of the softmax probabilities of two linear members on the rows
// of [X, H] with moderated scales (moderatedRows), one on their X parts
// alone L2-normalised (its source weights exactly 0), one on the rows with
// X's and H's parts L2-normalised each on its own; each member's weights
// and intercepts are the minimiser of ½‖W‖² + C Σ_i cross-entropy on those
// normalised training rows (its gradient vanishes, brute force) at the C
// it reports; without sources, the row-normalised member alone. With
// blocks of fewer than rowNormMinColumns columns (7 features and 5 sources
// here) the members are linear in the rows instead: each block divided by
// the square root of its number of columns, not by its norm, and the
// member's weights, on the standardised rows, those of the fit on the
// scaled rows divided by the same factor.
func TestGreedyNWayDefinition(t *testing.T) {
	for _, dn := range [][2]int{{rowNormMinColumns, rowNormMinColumns}, {7, 5}} {
		testGreedyNWayDefinition(t, dn[0], dn[1])
	}
}

// testGreedyNWayDefinition is TestGreedyNWayDefinition with d features and
// n sources.
func testGreedyNWayDefinition(t *testing.T, d, n int) {
	wide := d >= rowNormMinColumns && n >= rowNormMinColumns
	for _, shots := range []int{1, 4} {
		train, y, test, _ := multiProblem(21, 4, shots, 6, d, n)
		mm, err := NewMulti("greedytl-nway")
		if err != nil {
			t.Fatal(err)
		}
		model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		e, ok := model.(*ensembleModel)
		if !ok || len(e.members) != 2 || e.weights[0] != 0.5 || e.weights[1] != 0.5 {
			t.Fatalf("%d shots: %T with %v, want two members at ½", shots, model, e.weights)
		}
		normRows := func(z []float64, featuresOnly bool) []float64 {
			out := slices.Clone(z)
			if featuresOnly {
				clear(out[d:])
			}
			parts := [][2]int{{0, d}, {d, len(z)}}
			for _, p := range parts {
				var s float64
				for _, v := range out[p[0]:p[1]] {
					s += v * v
				}
				if !wide {
					s = float64(p[1] - p[0]) // a linear member: 1/√(columns)
				}
				for j := p[0]; j < p[1] && s > 0; j++ {
					out[j] /= math.Sqrt(s)
				}
			}
			return out
		}
		zt, zs := moderatedRows(train, train), moderatedRows(train, test)
		want := make([][]float64, len(zs))
		for i := range want {
			want[i] = make([]float64, len(y.Names))
		}
		for k, name := range []string{"features", "blocks"} {
			l := e.members[k].(*LinearMulti)
			C := l.hyper["C"]
			wantNorm := NormaliseBlocks
			if !wide {
				wantNorm = ""
			}
			if l.norm != wantNorm || C <= 0 || e.hyper["C_"+name] != C {
				t.Fatalf("d %d, n %d, %d shots: member %d (%s) normalises %q, C %v (reported %v), want %q", d, n, shots, k, name, l.norm, C, e.hyper["C_"+name], wantNorm)
			}
			K, p := l.w.Dims()
			// w: the weights of the fit, on the normalised (or scaled) rows.
			w := mat.DenseCopyOf(l.w)
			if !wide {
				for c := range K {
					for j := range p {
						f := math.Sqrt(float64(d))
						if j >= d {
							f = math.Sqrt(float64(n))
						}
						w.Set(c, j, w.At(c, j)*f)
					}
				}
			}
			if name == "features" {
				for c := range K {
					for j := d; j < p; j++ {
						if l.w.At(c, j) != 0 {
							t.Fatalf("%d shots: the features member weighs source %d of class %d by %v, want 0", shots, j-d, c, l.w.At(c, j))
						}
					}
				}
			}
			// probs returns the member's class probabilities of the
			// standardised row z, and z normalised as the member does.
			probs := func(z []float64) (prob, u []float64) {
				u = normRows(z, name == "features")
				prob = make([]float64, K)
				for c := range K {
					prob[c] = l.b[c] + mat.Dot(w.RowView(c), mat.NewVecDense(p, u))
				}
				softmaxInPlace(prob)
				return prob, u
			}
			gw := mat.DenseCopyOf(w) // ∂/∂W = W + C Σ_i (p_i − e_{y_i}) z_iᵀ
			gb := make([]float64, K) // ∂/∂b = C Σ_i (p_i − e_{y_i})
			for i, z := range zt {
				prob, u := probs(z)
				for c := range K {
					r := prob[c]
					if c == y.Y[i] {
						r--
					}
					gb[c] += C * r
					for j := range p {
						gw.Set(c, j, gw.At(c, j)+C*r*u[j])
					}
				}
			}
			scale := C * float64(len(zt))
			if g := max(mat.Norm(gw, math.Inf(1)), slices.Max(gb), -slices.Min(gb)); g > 1e-5*scale {
				t.Errorf("d %d, n %d, %d shots, %s member: gradient %g at its weights (C = %v): not the minimiser", d, n, shots, name, g, C)
			}
			for i, z := range zs {
				s, _ := probs(z)
				for c := range K {
					want[i][c] += 0.5 * s[c]
				}
			}
		}
		got, err := model.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			for c := range want[i] {
				if math.Abs(got.At(i, c)-want[i][c]) > 1e-12 {
					t.Fatalf("d %d, n %d, %d shots: row %d class %d: score %v, the definition gives %v", d, n, shots, i, c, got.At(i, c), want[i][c])
				}
			}
		}
	}
	// Without sources: the row-normalised member alone (linear with
	// fewer than rowNormMinColumns features).
	train, y, _, _ := multiProblem(22, 3, 2, 2, d, n)
	train.H = nil
	mm, _ := NewMulti("greedytl-nway")
	model, err := mm.FitMulti(context.Background(), train, y, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	wantNorm := NormaliseRows
	if d < rowNormMinColumns {
		wantNorm = ""
	}
	if e := model.(*ensembleModel); len(e.members) != 1 || e.members[0].(*LinearMulti).norm != wantNorm {
		t.Errorf("d %d, without sources: %d members, want one normalising %q", d, len(e.members), wantNorm)
	}
}

// TestEnsembleSelectedSumsMembers checks the ensemble's per-class selection
// against its definition: every column's weight is the member weights times
// the members' weights for it, summed over the members, the columns sorted
// by decreasing |weight|.
func TestEnsembleSelectedSumsMembers(t *testing.T) {
	train, y, _, _ := multiProblem(5, 3, 4, 1, 6, 3)
	m, _ := multiFile(t, "greedytl-nway", train, y)
	e, ok := m.(*ensembleModel)
	if !ok || len(e.members) != 2 {
		t.Fatalf("greedytl-nway with features and sources: want an ensemble of two members, got %T", m)
	}
	type key struct {
		source bool
		index  int
	}
	want := make([]map[key]float64, len(y.Names))
	for k := range want {
		want[k] = map[key]float64{}
	}
	for i, mem := range e.members {
		sel, ok := mem.Selected()
		if !ok {
			t.Fatalf("member %d has no selection", i)
		}
		for k, s := range sel {
			for _, c := range s.Columns {
				want[k][key{c.Source, c.Index}] += e.weights[i] * c.Weight
			}
		}
	}
	got, ok := e.Selected()
	if !ok || len(got) != len(y.Names) {
		t.Fatalf("Selected: ok %v, %d selections, want %d", ok, len(got), len(y.Names))
	}
	for k, s := range got {
		if s.NumFeatures != 6 || s.NumSources != 3 {
			t.Errorf("class %d: dims %d, %d, want 6, 3", k, s.NumFeatures, s.NumSources)
		}
		nonzero := 0
		for _, w := range want[k] {
			if w != 0 {
				nonzero++
			}
		}
		if len(s.Columns) != nonzero {
			t.Errorf("class %d: %d columns, want %d", k, len(s.Columns), nonzero)
		}
		for j, c := range s.Columns {
			if w := want[k][key{c.Source, c.Index}]; c.Weight != w {
				t.Errorf("class %d column %+v: weight %v, want %v", k, c, c.Weight, w)
			}
			if j > 0 && math.Abs(c.Weight) > math.Abs(s.Columns[j-1].Weight) {
				t.Errorf("class %d: columns not sorted by |weight| at %d", k, j)
			}
		}
	}
}

// TestReadOneVsRestLabels: a one-vs-rest file matches its classes and its
// binary models by position; each model records the labels it was fitted
// for, so a file whose classes or models were reordered (by hand), or
// whose model records no labels, is refused rather than read as a model
// that predicts the wrong classes. The file as written reads back.
func TestReadOneVsRestLabels(t *testing.T) {
	train, y, _, _ := multiProblem(2, 3, 3, 1, 4, 2)
	_, file := multiFile(t, "rls-srcfeat", train, y)
	if _, err := Read(bytes.NewReader(file)); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	edit := func(change func(doc map[string]any)) []byte {
		var doc map[string]any
		if err := json.Unmarshal(file, &doc); err != nil {
			t.Fatal(err)
		}
		change(doc)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		change func(doc map[string]any)
		want   string
	}{
		{"classes reordered", func(doc map[string]any) {
			c := doc["classes"].([]any)
			c[0], c[1] = c[1], c[0]
		}, `models[0]: is fitted for "class0" against "class1", "class2", but it is the model of class 0, "class1" against "class0", "class2"`},
		{"models reordered", func(doc map[string]any) {
			m := doc["models"].([]any)
			m[0], m[2] = m[2], m[0]
		}, `models[0]: is fitted for "class2" against "class0", "class1", but it is the model of class 0, "class0"`},
		{"labels removed", func(doc map[string]any) {
			delete(doc["models"].([]any)[1].(map[string]any), "labels")
		}, `models[1]: records no labels: want "class1" against the rest`},
	} {
		_, err := Read(bytes.NewReader(edit(tc.change)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestNormaliseRowExtremes: normaliseRow gives a row's direction, a unit
// vector, whatever its scale — also where its sum of squares overflows or
// underflows (it divided by +Inf, giving 0, or left a row of tiny values
// as it was) — and so the models that normalise rows (simpleshot,
// greedytl-nway) predict for rows far outside the training range what
// they predict for those rows at a smaller scale, rather than one class
// for all of them.
func TestNormaliseRowExtremes(t *testing.T) {
	v := []float64{3, -4, 0, 12, 0.5}
	want := slices.Clone(v)
	normaliseRow(want)
	for _, c := range []float64{1e-320, 1e-300, 1e-160, 1e150, 1e200, 1e306} {
		z := slices.Clone(v)
		for j := range z {
			z[j] *= c
		}
		normaliseRow(z)
		var s float64
		for j := range z {
			s += z[j] * z[j]
			if math.Abs(z[j]-want[j]) > 1e-15 {
				t.Errorf("scale %g: value %d is %v, want %v", c, j, z[j], want[j])
			}
		}
		if math.Abs(s-1) > 1e-15 {
			t.Errorf("scale %g: norm² %v, want 1", c, s)
		}
	}
	zero := []float64{0, 0, 0}
	normaliseRow(zero)
	if !slices.Equal(zero, []float64{0, 0, 0}) {
		t.Errorf("a zero row normalised to %v", zero)
	}
	train, y, test, _ := multiProblem(5, 3, 4, 6, 6, 3)
	scaled := func(c float64) Data {
		var X, H mat.Dense
		X.Scale(c, test.X)
		H.Scale(c, test.H)
		return Data{X: &X, H: &H}
	}
	for _, name := range []string{"simpleshot", "greedytl-nway"} {
		model, _ := multiFile(t, name, train, y)
		ref, err := model.Predict(scaled(1e100))
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(ref, slices.Repeat(ref[:1], len(ref))) {
			t.Fatalf("%s: one class for every row at 1e100: the check is too weak", name)
		}
		got, err := model.Predict(scaled(1e300))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, ref) {
			t.Errorf("%s: classes %v for the test rows times 1e300, %v times 1e100", name, got, ref)
		}
	}
}

// TestReadMultiMethodErrors: a multi-class file naming an unknown method
// lists the multi-class methods (the native ones, which the binary list
// lacks, included), and one giving settings to a native method names the
// spec; each error carries the package's prefix once.
func TestReadMultiMethodErrors(t *testing.T) {
	train, y, _, _ := multiProblem(1, 3, 2, 1, 4, 2)
	_, file := multiFile(t, "nearest-mean", train, y)
	for _, tc := range []struct{ method, want string }{
		{"svm", `unknown multi-class method "svm" (known: ` + strings.Join(MultiNames(), ", ") + ")"},
		{"nearest-mean:k=1", `nearest-mean takes no settings (spec "nearest-mean:k=1")`},
	} {
		doc := bytes.Replace(file, []byte(`"nearest-mean"`), []byte(strconv.Quote(tc.method)), 1)
		_, err := Read(bytes.NewReader(doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("method %q: error %v, want one containing %q", tc.method, err, tc.want)
			continue
		}
		if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("method %q: %v", tc.method, err)
		}
		var unknown *UnknownMethodError
		if isUnknown := errors.As(err, &unknown); isUnknown != (tc.method == "svm") {
			t.Errorf("method %q: errors.As(%v, *UnknownMethodError) = %v", tc.method, err, isUnknown)
		} else if isUnknown && (unknown.Name != "svm" || !slices.Equal(unknown.Known, MultiNames())) {
			t.Errorf("method %q: UnknownMethodError %+v, want svm and the multi-class methods", tc.method, unknown)
		}
	}
}

// TestNearestNeighbourTieTakesTheFirstClass: a test row as near to an
// example of class "b" as to one of class "a" (duplicated training rows)
// is predicted "a", the first of the two classes in the model's order, in
// whichever order the training rows come — as the method documents;
// scikit-learn's KNeighborsClassifier takes the first such row instead
// ("b" when it comes first).
func TestNearestNeighbourTieTakesTheFirstClass(t *testing.T) {
	nn, err := NewMulti("nearest-neighbour")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"a", "b", "c"}
	test := Data{X: mat.NewDense(2, 1, []float64{0, 3}), H: mat.NewDense(2, 1, []float64{0, 0})}
	for _, order := range [][]int{{1, 0, 2, 2, 1, 0}, {0, 1, 2, 2, 0, 1}} {
		train := Data{X: mat.NewDense(6, 1, []float64{0, 0, 1, 2, 3, 3}), H: mat.NewDense(6, 1, nil)}
		model, err := nn.FitMulti(context.Background(), train, ClassLabels{Names: names, Y: order}, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := model.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range pred {
			if names[k] != "a" {
				t.Errorf("rows of classes %v: test row %d predicted %q, want \"a\" (a tie between a and b)", order, i, names[k])
			}
		}
	}
}

// TestNativeScoresNoNegativeZero: a score of zero is +0, never −0, which
// predict --scores would print as "-0": scoring one-shot training rows
// puts each at distance 0 from its own class (simpleshot's centroid is its
// one normalised row; nearest-neighbour's nearest row is itself).
func TestNativeScoresNoNegativeZero(t *testing.T) {
	train, y, _, _ := multiProblem(3, 4, 1, 1, 5, 3)
	for _, name := range []string{"simpleshot", "nearest-neighbour", "nearest-mean"} {
		model, _ := multiFile(t, name, train, y)
		s, err := model.Scores(train)
		if err != nil {
			t.Fatal(err)
		}
		r, c := s.Dims()
		zeros := 0
		for i := 0; i < r; i++ {
			for k := 0; k < c; k++ {
				if v := s.At(i, k); v == 0 {
					zeros++
					if math.Signbit(v) {
						t.Errorf("%s: row %d class %d scores -0", name, i, k)
					}
				}
			}
		}
		if name != "nearest-mean" && zeros < r {
			t.Errorf("%s: %d zero scores for %d one-shot training rows, want one a row at least: the check is too weak", name, zeros, r)
		}
	}
}
