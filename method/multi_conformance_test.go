package method

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/errtest"
	"gonum.org/v1/gonum/mat"
)

// TestMultiConformance is the multi-class counterpart of the conformance
// suite: every method that fits several classes (MultiNames: the natives,
// and every binary method one against the rest) on a small 3-way problem
// is deterministic, leaves its inputs and its Extra's data alone, checks
// the column counts at
// predict, predicts each row alike whatever the row order, survives its
// file, returns errors for bad input, and honours its context
// (checkMultiContexts).
func TestMultiConformance(t *testing.T) {
	train, y, test, _ := multiProblem(5, 3, 3, 4, 6, 4)
	Xtest := dense(test.X)
	for _, name := range MultiNames() {
		t.Run(name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			extra := multiExtra(mm, test)
			// Copies taken before any fit: a fit that wrote to its inputs
			// the same way each time would leave no trace between two.
			xCopy, hCopy, yCopy := mat.DenseCopyOf(train.X), mat.DenseCopyOf(train.H), slices.Clone(y.Y)
			namesCopy, testCopy := slices.Clone(y.Names), cloneData(test)
			var oracleCopy Data
			if extra.Oracle != nil {
				oracleCopy = cloneData(*extra.Oracle)
			}
			checkMultiContexts(t, name, mm, train, y, extra)
			ctx := context.Background()
			m1, err := mm.FitMulti(ctx, train, y, extra)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(xCopy, train.X) || !mat.Equal(hCopy, train.H) || !slices.Equal(yCopy, y.Y) || !slices.Equal(namesCopy, y.Names) {
				t.Error("FitMulti modified its inputs")
			}
			// Extra.Unlabelled, when set, holds test's matrices.
			if !equalData(testCopy, test) || (extra.Oracle != nil && !equalData(oracleCopy, *extra.Oracle)) {
				t.Error("FitMulti modified the data of its Extra")
			}
			m2, err := mm.FitMulti(ctx, train, y, extra)
			if err != nil {
				t.Fatal(err)
			}
			s1, err := m1.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			s2, _ := m2.Scores(test)
			if !mat.Equal(s1, s2) {
				t.Error("two fits with the same seed score differently")
			}
			if !slices.Equal(m1.Classes(), y.Names) {
				t.Errorf("Classes() = %v, want %v", m1.Classes(), y.Names)
			}
			r, c := s1.Dims()
			if r != test.Rows() || c != 3 {
				t.Fatalf("scores are %d × %d, want %d × 3", r, c, test.Rows())
			}
			pred, err := m1.Predict(test)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pred, argmaxOf(t, s1)) {
				t.Error("Predict is not the argmax of Scores")
			}
			// Row order.
			perm := make([]int, r)
			for i := range perm {
				perm[i] = r - 1 - i
			}
			rev := selectRows(test, perm)
			sr, err := m1.Scores(rev)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range perm {
				for k := range c {
					if a, b := sr.At(i, k), s1.At(p, k); math.Abs(a-b) > 1e-12*math.Max(1, math.Abs(b)) {
						t.Fatalf("row %d's score of class %d is %v reversed, %v in order", p, k, a, b)
					}
				}
			}
			// Feature counts at predict.
			if _, err := m1.Scores(Data{X: Xtest.Slice(0, r, 0, 5), H: test.H}); err == nil {
				t.Error("Scores accepted X with a column missing")
			}
			if _, err := m1.Scores(Data{X: test.X}); err == nil {
				t.Error("Scores accepted a missing H")
			}
			bad := mat.DenseCopyOf(test.X)
			bad.Set(1, 2, math.NaN())
			if _, err := m1.Scores(Data{X: bad, H: test.H}); err == nil {
				t.Error("Scores accepted a NaN")
			} else if err.Error() != "method: predict: X row 1 column 2 is NaN" {
				t.Errorf("Scores with a NaN: %v, want \"method: predict: X row 1 column 2 is NaN\"", err)
			}
			// The file.
			var buf bytes.Buffer
			if err := WriteMulti(&buf, m1, FileInfo{}); err != nil {
				t.Fatal(err)
			}
			f, err := Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if f.Multi == nil || f.Multi.Method() != m1.Method() {
				t.Fatalf("the file read back is not a multi-class %s model", m1.Method())
			}
			s3, err := f.Multi.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.EqualApprox(s1, s3, 1e-12) {
				t.Error("the model read back scores differently")
			}
			// Views into larger matrices of NaN (Stride > Cols), and
			// matrices that are not *mat.Dense, fit and score as the
			// same values in a *mat.Dense of their own.
			for what, wrap := range map[string]func(mat.Matrix) mat.Matrix{
				"views":                            func(a mat.Matrix) mat.Matrix { return nanView(a) },
				"matrices that are not *mat.Dense": func(a mat.Matrix) mat.Matrix { return opaqueMatrix{a} },
			} {
				view := func(d Data) Data {
					w := func(a mat.Matrix) mat.Matrix {
						if inputcheck.Absent(a) {
							return a
						}
						return wrap(a)
					}
					return Data{X: w(d.X), H: w(d.H)}
				}
				if mv, err := mm.FitMulti(ctx, view(train), y, extra); err != nil {
					t.Errorf("FitMulti on %s: %v", what, err)
				} else if sv, err := mv.Scores(view(test)); err != nil || !mat.Equal(sv, s1) {
					t.Errorf("FitMulti and Scores on %s: %v (scores equal: %v)", what, err, err == nil && mat.Equal(sv, s1))
				}
			}
			// Bad input.
			for _, bc := range []struct {
				what  string
				train Data
				y     ClassLabels
			}{
				{"nil matrices", Data{}, y},
				{"one class", train, ClassLabels{Names: []string{"a"}, Y: make([]int, len(y.Y))}},
				{"an empty class", train, ClassLabels{Names: append(slices.Clone(y.Names), "none"), Y: y.Y}},
				{"labels and rows", train, ClassLabels{Names: y.Names, Y: y.Y[1:]}},
				{"NaN", Data{X: bad.Slice(0, len(y.Y), 0, 6), H: train.H}, y},
				{"Data.Y set", Data{X: train.X, H: train.H, Y: make([]float64, len(y.Y))}, y},
			} {
				if _, err := mm.FitMulti(ctx, bc.train, bc.y, extra); err == nil {
					t.Errorf("FitMulti accepted %s", bc.what)
				} else if err := errtest.OnePrefix(err.Error()); err != nil {
					t.Errorf("FitMulti with %s: %v", bc.what, err)
				}
			}
			// A column of finite values too far apart to standardise
			// (±1.7e308: its deviations overflow) is an error naming
			// the matrix and the column (the native methods named only
			// the column, so that column 2 of X and of H read alike).
			for _, part := range []string{"X", "H"} {
				X, H := mat.DenseCopyOf(train.X), mat.DenseCopyOf(train.H)
				A := map[string]*mat.Dense{"X": X, "H": H}[part]
				for i := range len(y.Y) {
					A.Set(i, 2, math.Copysign(1.7e308, float64(i%2)-0.5))
				}
				_, err := mm.FitMulti(ctx, Data{X: X, H: H}, y, extra)
				if err == nil {
					t.Errorf("FitMulti accepted a column of %s whose deviations overflow", part)
				} else if msg := err.Error(); !strings.Contains(msg, part+": column 2") && !strings.Contains(msg, "column 2 of "+part) {
					t.Errorf("FitMulti with a column of %s whose deviations overflow: %q does not name %s's column 2", part, msg, part)
				}
			}
		})
	}
}

// eachMultiMethod runs f as the subtest "multi/NAME" for every multi-class
// method (MultiNames) on TestMultiConformance's small 3-way problem, with
// the Extra the method needs (multiExtra).
func eachMultiMethod(t *testing.T, f func(t *testing.T, mm MultiMethod, train Data, y ClassLabels, test Data, extra Extra)) {
	train, y, test, _ := multiProblem(5, 3, 3, 4, 6, 4)
	for _, name := range MultiNames() {
		t.Run("multi/"+name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			f(t, mm, train, y, test, multiExtra(mm, test))
		})
	}
}

// multiExtra returns the Extra mm needs on TestMultiConformance's problem:
// the test inputs as Extra.Unlabelled for a transductive binary method, a
// labelled held-out sample (class indices) as Extra.Oracle for an oracle.
func multiExtra(mm MultiMethod, test Data) Extra {
	extra := Extra{Seed: 1}
	if o, ok := mm.(OneVsRest); ok && o.Binary.Needs().Unlabelled {
		extra.Unlabelled = &Data{X: test.X, H: test.H}
	}
	if o, ok := mm.(OneVsRest); ok && o.Binary.Needs().Oracle {
		_, _, ot, oy := multiProblem(6, 3, 3, 4, 6, 4)
		extra.Oracle = &Data{X: ot.X, H: ot.H, Y: make([]float64, len(oy))}
		for i, k := range oy {
			extra.Oracle.Y[i] = float64(k)
		}
	}
	return extra
}

// checkMultiContexts is checkCancelled and the nil-context check of
// checkBadInputs for a multi-class method: FitMulti with a nil context
// panics saying so; with a context done before it starts, or cancelled at
// the first, a middle or the last read of its training matrices, it returns
// the context's error, wrapped once and naming the method, and a nil
// MultiModel (not an interface holding a nil pointer). Before the fix the
// native methods without a solver (nearest-mean, simpleshot,
// nearest-neighbour) ignored the context and returned a model, and
// multinomial-logistic returned a bare "context canceled" with a non-nil
// MultiModel.
func checkMultiContexts(t *testing.T, name string, mm MultiMethod, train Data, y ClassLabels, extra Extra) {
	func() {
		defer func() {
			if msg := fmt.Sprint(recover()); !strings.Contains(msg, "nil context.Context") {
				t.Errorf("FitMulti with a nil context: panic %q, want one that names the nil context.Context", msg)
			}
		}()
		mm.FitMulti(nil, train, y, extra) //nolint:staticcheck // the nil context is the case under test
	}()
	check := func(what string, model MultiModel, err error) {
		t.Helper()
		switch {
		case !errors.Is(err, context.Canceled):
			t.Errorf("FitMulti %s: %v, want context.Canceled", what, err)
		case model != nil:
			t.Errorf("FitMulti %s: a %T model with the error", what, model)
		case !strings.Contains(err.Error(), name):
			t.Errorf("FitMulti %s: error %q does not name the method", what, err)
		case name != greedytl.BaseMethod:
			// (errtest reads the method name "greedytl" after
			// "method: " as the root package's prefix.)
			if err := errtest.OnePrefix(err.Error()); err != nil {
				t.Errorf("FitMulti %s: %v", what, err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	model, err := mm.FitMulti(ctx, train, y, extra)
	check("with a cancelled context", model, err)

	fitCancelledAt := func(at int64) (MultiModel, error, int64) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		reads := new(atomic.Int64)
		wrap := func(a mat.Matrix) mat.Matrix { return cancellingMatrix{m: a, reads: reads, at: at, cancel: cancel} }
		model, err := mm.FitMulti(ctx, Data{X: wrap(train.X), H: wrap(train.H)}, y, extra)
		return model, err, reads.Load()
	}
	if _, err, _ := fitCancelledAt(-1); err != nil {
		t.Fatalf("FitMulti: %v", err)
	}
	_, _, total := fitCancelledAt(-1)
	for _, at := range []int64{1, total / 2, total} {
		model, err, _ := fitCancelledAt(at)
		check(fmt.Sprintf("cancelled at read %d of %d", at, total), model, err)
	}
}

// TestMultiIgnoresRowOrder: every native multi-class method's model is a
// function of the set of training rows, not of their order — permuting
// the rows (X, H and the labels together) gives the same model file, byte
// for byte, and so the same scores, bit for bit (issue 16: the folds of
// multinomial-logistic's and greedytl-nway's choice of C were dealt from
// each class's rows in the given order, and a permutation of 20 rows moved
// greedytl-nway's C_blocks from 1000 to 0.0001). The problems have
// several examples of every class, so that the folds matter: 4 classes of
// 5, with and without sources, 3 classes of 24, more than the 20 of a
// class that the choice of C draws (cvSubsample), and 4 classes of 2, 5, 9
// and 3 examples (unevenProblem), whose fits weight each example by its
// class's count (classBalancedWeights), so that the weights must follow
// their rows.
func TestMultiIgnoresRowOrder(t *testing.T) {
	type problem struct {
		what        string
		train, test Data
		y           ClassLabels
	}
	var problems []problem
	for _, p := range []struct {
		what           string
		seed           uint64
		K, shots, d, n int
		withoutSources bool
	}{
		{"4 classes of 5", 21, 4, 5, 6, 4, false},
		{"4 classes of 5, no sources", 22, 4, 5, 6, 4, true},
		{"3 classes of 24", 23, 3, 24, 6, 3, false},
	} {
		train, y, test, _ := multiProblem(p.seed, p.K, p.shots, 4, p.d, p.n)
		if p.withoutSources {
			train.H, test.H = nil, nil
		}
		problems = append(problems, problem{p.what, train, test, y})
	}
	train, y, test, _ := unevenProblem(24, []int{2, 5, 9, 3}, 4, 6, 4)
	problems = append(problems, problem{"4 classes of 2, 5, 9 and 3", train, test, y})
	for _, name := range MultiNames() {
		if r, _ := Registered(name); r.NewMulti == nil {
			continue // one against the rest: the binary method's own property
		}
		for _, p := range problems {
			t.Run(name+"/"+p.what, func(t *testing.T) {
				perm := rand.New(rand.NewPCG(7, 7)).Perm(len(p.y.Y))
				permuted := selectRows(p.train, perm)
				py := ClassLabels{Names: p.y.Names, Y: make([]int, len(perm))}
				for i, r := range perm {
					py.Y[i] = p.y.Y[r]
				}
				m1, f1 := multiFile(t, name, p.train, p.y)
				m2, f2 := multiFile(t, name, permuted, py)
				if !maps.Equal(m1.Hyperparameters(), m2.Hyperparameters()) {
					t.Errorf("hyperparameters %v with the rows permuted, %v without", m2.Hyperparameters(), m1.Hyperparameters())
				}
				s1, err := m1.Scores(p.test)
				if err != nil {
					t.Fatal(err)
				}
				s2, err := m2.Scores(p.test)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(s1, s2) {
					r, c := s1.Dims()
				scores:
					for i := range r {
						for k := range c {
							if a, b := s2.At(i, k), s1.At(i, k); a != b {
								t.Errorf("test row %d's score of class %d is %v with the rows permuted, %v without", i, k, a, b)
								break scores
							}
						}
					}
				}
				if !slices.Equal(argmaxOf(t, s1), argmaxOf(t, s2)) {
					t.Errorf("predictions %v with the rows permuted, %v without", argmaxOf(t, s2), argmaxOf(t, s1))
				}
				if !bytes.Equal(f1, f2) {
					t.Error("the model files differ with the rows permuted")
				}
			})
		}
	}
}

// TestMultiIgnoresSignedZeroOrder: two training rows equal but for the
// sign of a zero (0 and −0, which compare equal) are put in one order
// whichever comes first, so that a model keeping its rows
// (nearest-neighbour) writes the same file for both orders (review28: its
// files differed, "0" against "-0"); every native method's file is the
// same.
func TestMultiIgnoresSignedZeroOrder(t *testing.T) {
	negZero := math.Copysign(0, -1)
	rows := [][]float64{{0, 1}, {negZero, 1}, {1, 2}, {-1, 3}, {2, 4}, {-2, 5}}
	labels := []int{0, 0, 1, 1, 2, 2}
	build := func(order []int) (Data, ClassLabels) {
		X := mat.NewDense(len(order), 2, nil)
		y := ClassLabels{Names: []string{"a", "b", "c"}, Y: make([]int, len(order))}
		for i, r := range order {
			X.SetRow(i, rows[r])
			y.Y[i] = labels[r]
		}
		return Data{X: X}, y
	}
	for _, name := range MultiNames() {
		if r, _ := Registered(name); r.NewMulti == nil {
			continue
		}
		d1, y1 := build([]int{0, 1, 2, 3, 4, 5})
		d2, y2 := build([]int{1, 0, 2, 3, 4, 5})
		_, f1 := multiFile(t, name, d1, y1)
		_, f2 := multiFile(t, name, d2, y2)
		if !bytes.Equal(f1, f2) {
			t.Errorf("%s: the model files of the two orders differ", name)
		}
	}
}

// argmaxOf is ArgmaxRows for scores the test knows are free of NaN.
func argmaxOf(t testing.TB, s *mat.Dense) []int {
	t.Helper()
	pred, err := ArgmaxRows(s)
	if err != nil {
		t.Fatal(err)
	}
	return pred
}

// TestArgmaxRows: the lowest column wins a tie, ±Inf compare as numbers,
// and a NaN, which has no place in the order, is an error naming it
// (it won its row before).
func TestArgmaxRows(t *testing.T) {
	inf := math.Inf(1)
	s := mat.NewDense(3, 3, []float64{1, 2, 2, -inf, -inf, -inf, 0, inf, -inf})
	if got := argmaxOf(t, s); !slices.Equal(got, []int{1, 0, 1}) {
		t.Errorf("ArgmaxRows: %v, want [1 0 1]", got)
	}
	s = mat.NewDense(2, 3, []float64{0, 1, 2, 1, math.NaN(), 2})
	if got, err := ArgmaxRows(s); err == nil || err.Error() != "method.ArgmaxRows: row 1 column 1 is NaN" {
		t.Errorf("ArgmaxRows with a NaN: %v, %v; want the error naming row 1 column 1", got, err)
	}
}
