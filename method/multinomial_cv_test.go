package method

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCVSubsample checks cvSubsample's definition: nil when no class has
// more than multinomialCVPerClass examples; otherwise, in increasing
// order, every example of the smaller classes and multinomialCVPerClass
// distinct examples of each larger one, the same for the same seed.
func TestCVSubsample(t *testing.T) {
	cap := multinomialCVPerClass
	for _, counts := range [][]int{{1, 2}, {cap, cap, 3}, {cap + 1, 2}, {5, 3 * cap, cap, 4 * cap}} {
		var y ClassLabels
		for k, c := range counts {
			y.Names = append(y.Names, fmt.Sprint("c", k))
			for range c {
				y.Y = append(y.Y, k)
			}
		}
		// Interleave the classes so that rows are not grouped by class.
		for i := range y.Y {
			j := (i * 7) % len(y.Y)
			y.Y[i], y.Y[j] = y.Y[j], y.Y[i]
		}
		rows := cvSubsample(y, 3)
		if slices.Max(counts) <= cap {
			if rows != nil {
				t.Errorf("counts %v: %d rows, want nil (no class above %d)", counts, len(rows), cap)
			}
			continue
		}
		if !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != len(rows) {
			t.Fatalf("counts %v: rows %v not increasing", counts, rows)
		}
		got := make([]int, len(counts))
		for _, i := range rows {
			got[y.Y[i]]++
		}
		for k, c := range counts {
			if want := min(c, cap); got[k] != want {
				t.Errorf("counts %v: class %d has %d rows in the subsample, want %d", counts, k, got[k], want)
			}
		}
		if again := cvSubsample(y, 3); !slices.Equal(again, rows) {
			t.Errorf("counts %v: not deterministic for a seed", counts)
		}
	}
}

// TestMultinomialCVSubsample checks that with more than
// multinomialCVPerClass examples of a class, multinomial-logistic chooses
// C as it would on cvSubsample's rows of the standardised [X, H] alone
// (bit for bit: the same cross-validation on the same rows, in the content
// order FitMulti reads them in) and then fits every row: the
// objective's gradient on all the rows vanishes at the model's weights.
// With the row-space reduction (more columns than rows) and without.
func TestMultinomialCVSubsample(t *testing.T) {
	for _, d := range []int{6, 90} {
		train, y, _, _ := multiProblem(5, 3, 30, 1, d, 3)
		full, _ := multiFile(t, "multinomial-logistic", train, y)
		train, order := inContentOrder(train, y.Y) // the order FitMulti reads
		y = y.rows(order)
		rows := cvSubsample(y, 1)
		if rows == nil {
			t.Fatal("no subsample for 30 examples a class")
		}
		l := full.(*LinearMulti)
		Z, err := l.s.transform(train) // the standardised [X, H] of every row
		if err != nil {
			t.Fatal(err)
		}
		subY := ClassLabels{Names: y.Names}
		for _, i := range rows {
			subY.Y = append(subY.Y, y.Y[i])
		}
		sub, err := fitMultinomialModel(context.Background(), "multinomial-logistic", l.s, rowsOf(Z, rows), subY, 1, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cFull, cSub := l.hyper["C"], sub.hyper["C"]; cFull != cSub {
			t.Errorf("d = %d: C = %g, want %g (the choice on the subsample's rows)", d, cFull, cSub)
		}
		cFull := l.hyper["C"]
		g := multinomialGradient(Z, y.Y, l.w, l.b, cFull)
		m, _ := Z.Dims()
		if tol := 1e-5 * cFull * float64(m); g > tol {
			t.Errorf("d = %d: the gradient on all %d rows is %g, want ≤ %g (a fit on every row)", d, m, g, tol)
		}
	}
}

// multinomialGradient returns the infinity norm of the gradient of
// multinomialObjective over W and b, written out from its definition:
// W + C Σ_i (p_i − e_{y_i}) z_iᵀ and C Σ_i (p_i − e_{y_i}).
func multinomialGradient(Z *mat.Dense, y []int, W *mat.Dense, b []float64, C float64) float64 {
	m, p := Z.Dims()
	K := len(b)
	gW := mat.DenseCopyOf(W)
	gb := make([]float64, K)
	for i := range m {
		s := make([]float64, K)
		var tot float64
		for k := range K {
			s[k] = math.Exp(mat.Dot(W.RowView(k), Z.RowView(i)) + b[k])
			tot += s[k]
		}
		for k := range K {
			r := s[k] / tot
			if k == y[i] {
				r--
			}
			gb[k] += C * r
			for j := range p {
				gW.Set(k, j, gW.At(k, j)+C*r*Z.At(i, j))
			}
		}
	}
	g := 0.0
	for k := range K {
		g = max(g, math.Abs(gb[k]))
		for j := range p {
			g = max(g, math.Abs(gW.At(k, j)))
		}
	}
	return g
}
