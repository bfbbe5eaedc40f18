package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRidgeLOOWeights: Weights at each λ are the normal equations' solution
// (ridgeDirect) and FitRidgeWeights', in both forms.
func TestRidgeLOOWeights(t *testing.T) {
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(11*tc.m+tc.d), tc.m, tc.d, tc.offset)
			for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
				rl, err := newRidgeLOO(context.Background(), x, y, intercept, form)
				if err != nil {
					t.Fatal(err)
				}
				for _, lambda := range []float64{1e-2, 1, 100} {
					if form != ridgeAuto && lambda < 1 {
						continue // a form forced onto the wrong shape is only as accurate as λ lets it be
					}
					w, b, err := rl.Weights(context.Background(), lambda)
					if err != nil {
						t.Fatal(err)
					}
					wRef, bRef := ridgeDirect(t, x, y, lambda, intercept)
					if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-10); !ok {
						t.Errorf("m%d d%d intercept %v form %d λ %g: weights differ from the normal equations by %.3g", tc.m, tc.d, intercept, form, lambda, e)
					}
				}
			}
		}
	}
}

// subsetCase is a problem and a subset of its rows.
type subsetCase struct {
	name string
	x    *mat.Dense
	y    []float64
	rows []int
}

// subsetCases returns subsets of the ridgeCases problems and of problems on
// both sides of the primal/dual boundary: leaving out one row, a tenth of
// the rows (the Woodbury update), most of them (the downdated Cholesky), in
// a shuffled order.
func subsetCases() []subsetCase {
	shapes := []struct{ m, d int }{{30, 5}, {25, 24}, {20, 20}, {12, 40}, {8, 300}, {60, 20}, {200, 40}, {41, 40}, {40, 41}}
	var out []subsetCase
	for k, sh := range shapes {
		x, y := ridgeRandom(uint64(13+k), sh.m, sh.d, float64(k%3))
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		perm := rng.Perm(sh.m)
		for _, left := range []int{1, max(1, sh.m/10), sh.m - 3} {
			rows := slices.Clone(perm[left:])
			out = append(out, subsetCase{fmt.Sprintf("m%d_d%d_without%d", sh.m, sh.d, left), x, y, rows})
		}
		out = append(out, subsetCase{fmt.Sprintf("m%d_d%d_all", sh.m, sh.d), x, y, slices.Clone(perm)})
	}
	return out
}

// TestRidgeLOOSubsetWeights: SubsetWeights are the weights and intercept of
// the normal equations on the subset's rows, with and without an
// intercept, in both forms and across the boundary between them.
func TestRidgeLOOSubsetWeights(t *testing.T) {
	for _, tc := range subsetCases() {
		for _, intercept := range []bool{false, true} {
			sub := mat.NewDense(len(tc.rows), tc.x.RawMatrix().Cols, nil)
			ys := make([]float64, len(tc.rows))
			for k, i := range tc.rows {
				sub.SetRow(k, tc.x.RawRowView(i))
				ys[k] = tc.y[i]
			}
			for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
				rl, err := newRidgeLOO(context.Background(), tc.x, tc.y, intercept, form)
				if err != nil {
					t.Fatal(err)
				}
				for _, lambda := range []float64{1e-2, 1, 100} {
					if form != ridgeAuto && lambda < 1 {
						continue
					}
					w, b, err := rl.SubsetWeights(context.Background(), tc.rows, lambda)
					if err != nil {
						t.Fatalf("%s intercept %v form %d λ %g: %v", tc.name, intercept, form, lambda, err)
					}
					wRef, bRef := ridgeDirect(t, sub, ys, lambda, intercept)
					if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-9); !ok {
						t.Errorf("%s intercept %v form %d λ %g: weights differ from the subset's normal equations by %.3g", tc.name, intercept, form, lambda, e)
					}
				}
			}
		}
	}
}

// TestRidgeLOOSubsetIllConditioned: when the left-out row holds all of a
// column's variation and λ is tiny, the downdate cancels most of the
// system. With a column of 1e2 the refinement from the rows recovers the
// subset's weights (the column's weight 0); with 1e4 or more it cannot
// reach 1e-9 at λ = 1e-4 (with an intercept the rows' constant value of the
// centred column, −1e4/60, leaves rounding that 1/λ amplifies), and
// SubsetWeights fits the rows from scratch: the subset's normal equations'
// weights either way.
func TestRidgeLOOSubsetIllConditioned(t *testing.T) {
	const m, d = 60, 20
	for _, tc := range []struct {
		big     float64
		refined [2]bool // without, with an intercept
	}{{1e2, [2]bool{true, true}}, {1e4, [2]bool{true, false}}, {1e9, [2]bool{false, false}}} {
		x, y := ridgeRandom(3, m, d, 0)
		for i := range m {
			x.Set(i, 0, 0)
		}
		x.Set(7, 0, tc.big) // column 0 varies only in row 7
		rows := make([]int, 0, m-1)
		in := make([]bool, m)
		for i := range m {
			if i != 7 {
				rows = append(rows, i)
				in[i] = true
			}
		}
		sub := mat.NewDense(m-1, d, nil)
		ys := make([]float64, m-1)
		for k, i := range rows {
			sub.SetRow(k, x.RawRowView(i))
			ys[k] = y[i]
		}
		for k, intercept := range []bool{false, true} {
			rl, err := NewRidgeLOO(context.Background(), x, y, intercept)
			if err != nil {
				t.Fatal(err)
			}
			for _, lambda := range []float64{1e-4, 1} {
				w, b, err := rl.SubsetWeights(context.Background(), rows, lambda)
				if err != nil {
					t.Fatal(err)
				}
				wRef, bRef := ridgeDirect(t, sub, ys, lambda, intercept)
				if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-9); !ok {
					t.Errorf("column of %g, intercept %v, λ %g: weights differ from the subset's normal equations by %.3g", tc.big, intercept, lambda, e)
				}
				mu := make([]float64, d)
				if intercept {
					for _, i := range rows {
						for j := range d {
							mu[j] += rl.r.x.At(i, j) / float64(len(rows))
						}
					}
				}
				if _, ok := rl.subsetPrimal(rows, in, mu, lambda); lambda < 1 && ok != tc.refined[k] {
					t.Errorf("column of %g, intercept %v, λ %g: refined %v, want %v", tc.big, intercept, lambda, ok, tc.refined[k])
				}
			}
		}
	}
}

// TestRidgeLOOPathIsRidgeLOOPath: Path gives RidgeLOOPath's residuals bit
// for bit, and each λ's alone as with the others.
func TestRidgeLOOPathIsRidgeLOOPath(t *testing.T) {
	lambdas := []float64{1e-3, 1, 1e3}
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(tc.m+tc.d), tc.m, tc.d, tc.offset)
			want, err := RidgeLOOPath(context.Background(), x, y, lambdas, intercept)
			if err != nil {
				t.Fatal(err)
			}
			rl, err := NewRidgeLOO(context.Background(), x, y, intercept)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rl.Path(context.Background(), lambdas)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				one, err := rl.Path(context.Background(), lambdas[k:k+1])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got[k].LOO, want[k].LOO) || !slices.Equal(one[0].LOO, want[k].LOO) {
					t.Errorf("m%d d%d intercept %v λ %g: residuals differ from RidgeLOOPath's", tc.m, tc.d, intercept, lambdas[k])
				}
			}
		}
	}
}

// TestRidgeLOOErrors: bad λ, ill-conditioned λ and bad subsets are
// errors naming the problem.
func TestRidgeLOOErrors(t *testing.T) {
	x, y := ridgeRandom(1, 10, 4, 0)
	rl, err := NewRidgeLOO(context.Background(), x, y, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		what string
		call func() error
		want string
	}{
		{"Weights at λ = 0", func() error { _, _, err := rl.Weights(ctx, 0); return err }, "λ = 0"},
		{"Path without λ", func() error { _, err := rl.Path(ctx, nil); return err }, "no λ"},
		{"Path at λ = −1", func() error { _, err := rl.Path(ctx, []float64{1, -1}); return err }, "λ = -1"},
		{"SubsetWeights at λ = NaN", func() error { _, _, err := rl.SubsetWeights(ctx, []int{0, 1}, math.NaN()); return err }, "λ = NaN"},
		{"a row out of range", func() error { _, _, err := rl.SubsetWeights(ctx, []int{0, 10}, 1); return err }, "row 10 is outside the 10 rows"},
		{"a negative row", func() error { _, _, err := rl.SubsetWeights(ctx, []int{-1, 2}, 1); return err }, "row -1 is outside"},
		{"a row twice", func() error { _, _, err := rl.SubsetWeights(ctx, []int{3, 4, 3}, 1); return err }, "row 3 is given twice"},
		{"no rows", func() error { _, _, err := rl.SubsetWeights(ctx, nil, 1); return err }, "empty subset"},
		{"one row with an intercept", func() error { _, _, err := rl.SubsetWeights(ctx, []int{2}, 1); return err }, "at least 2 rows"},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.what, err, tc.want)
		}
	}
	// A singular XᵀX (a repeated column) at a λ too small for it.
	xs := mat.NewDense(30, 3, nil)
	for i := range 30 {
		v := float64(i % 7)
		xs.SetRow(i, []float64{v, v, float64(i)})
	}
	rs, err := NewRidgeLOO(ctx, xs, make([]float64, 30), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rs.Weights(ctx, 1e-300); err == nil || !strings.Contains(err.Error(), "ill-conditioned") {
		t.Errorf("λ = 1e-300 on a singular XᵀX: error %v, want ill-conditioned", err)
	}
}
