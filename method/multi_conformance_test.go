package method

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"gonum.org/v1/gonum/mat"
)

// TestMultiConformance is the multi-class counterpart of the conformance
// suite: every method that fits several classes (MultiNames: the natives,
// and every binary method one against the rest) on a small 3-way problem
// is deterministic, leaves its inputs alone, checks the column counts at
// predict, predicts each row alike whatever the row order, survives its
// file, and returns errors for bad input.
func TestMultiConformance(t *testing.T) {
	train, y, test, _ := multiProblem(5, 3, 3, 4, 6, 4)
	Xtest := dense(test.X)
	for _, name := range MultiNames() {
		t.Run(name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
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
			xCopy, hCopy, yCopy := mat.DenseCopyOf(train.X), mat.DenseCopyOf(train.H), slices.Clone(y.Y)
			ctx := context.Background()
			m1, err := mm.FitMulti(ctx, train, y, extra)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(xCopy, train.X) || !mat.Equal(hCopy, train.H) || !slices.Equal(yCopy, y.Y) {
				t.Error("FitMulti modified its inputs")
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
			if !slices.Equal(pred, argmaxRows(s1)) {
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
			if err := WriteMulti(&buf, m1, nil); err != nil {
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
		})
	}
}
