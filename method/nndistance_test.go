package method

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// TestNearestNeighbourAnyScale: the nearest training row, and so the
// class and the distance, do not depend on the scale of the standardised
// rows. A nearest-neighbour model whose stored rows and queries are those
// of an ordinary problem times c (its scaler the identity, so the queries
// are the standardised rows) predicts the classes the brute-force
// definition gives on the unscaled rows, with scores c times theirs, for c
// whose squared distances overflow (1e200, 1e300), underflow (1e-200) or
// fall below the normal range (1e-160: sums of about 1e-319, whose square
// roots keep only a few digits) — where summing squares gave +Inf
// distances (an error), 0 for every row (the first class) or scores off
// in the fifth digit. Where the sums of squares are normal, however small
// (c = 1e-150: sums of about 1e-299, below 2^-900; c = 1e-154 to 5e-155:
// sums within a few binades of 2^-1022), the scores are the plain sums'
// square roots bit for bit: rescaling by the largest difference is for
// sums below 2^-1022 only (a threshold of 2^-900, 2^-1000 or even 2^-1021
// changed the bits of some scores; 2^-900 passed before).
func TestNearestNeighbourAnyScale(t *testing.T) {
	const m, q, p, K = 12, 9, 5, 3
	rng := rand.New(rand.NewPCG(19, 0x6e6e))
	R, Q := mat.NewDense(m, p, nil), mat.NewDense(q, p, nil)
	for _, A := range []*mat.Dense{R, Q} {
		r, c := A.Dims()
		for i := range r {
			for j := range c {
				A.Set(i, j, 2*rng.NormFloat64())
			}
		}
	}
	class := make([]int, m)
	for i := range class {
		class[i] = i % K
	}
	// leastSums returns, per class, the least squared distance (summed in
	// order) of query row i of Qs from the rows of Rs, and the nearest row.
	leastSums := func(Qs, Rs *mat.Dense, i int) (best []float64, nearest int) {
		best = []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
		nearest, nd := -1, math.Inf(1)
		for r := range m {
			var s float64
			for j := range p {
				e := Qs.At(i, j) - Rs.At(r, j)
				s += e * e
			}
			best[class[r]] = min(best[class[r]], s)
			if s < nd {
				nearest, nd = r, s
			}
		}
		return best, nearest
	}
	// The definition on the unscaled rows: the class of the nearest row,
	// and per class minus the least distance.
	wantClass := make([]int, q)
	wantScore := mat.NewDense(q, K, nil)
	for i := range q {
		best, nearest := leastSums(Q, R, i)
		wantClass[i] = class[nearest]
		for k := range K {
			wantScore.Set(i, k, -math.Sqrt(best[k]))
		}
	}
	identity := standardize.Scaler{Mean: make([]float64, p), Scale: slices.Repeat([]float64{1}, p)}
	if len(slices.Compact(slices.Clone(wantClass))) < 2 {
		t.Fatalf("the queries' nearest rows are all of one class: the check is too weak")
	}
	// scaled returns the model of R times c and the queries Q times c.
	scaled := func(c float64) (*nearestNeighbourModel, *mat.Dense) {
		var Rc, Qc mat.Dense
		Rc.Scale(c, R)
		Qc.Scale(c, Q)
		return &nearestNeighbourModel{multiBase: multiBase{"nearest-neighbour", []string{"a", "b", "c"}, map[string]float64{}},
			s: blockScaler{X: identity}, rows: &Rc, class: class}, &Qc
	}
	for _, c := range []float64{1, 1e-200, 1e-160, 1e200, 1e300} {
		nn, Qc := scaled(c)
		pred, err := nn.Predict(Data{X: Qc})
		if err != nil {
			t.Errorf("scale %g: %v", c, err)
			continue
		}
		if !slices.Equal(pred, wantClass) {
			t.Errorf("scale %g: classes %v, the definition gives %v", c, pred, wantClass)
		}
		S, err := nn.Scores(Data{X: Qc})
		if err != nil {
			t.Fatal(err)
		}
		for i := range q {
			for k := range K {
				if got, want := S.At(i, k)/c, wantScore.At(i, k); math.Abs(got-want) > 1e-14*math.Abs(want) {
					t.Errorf("scale %g: row %d class %d: score %v / scale = %v, want %v", c, i, k, S.At(i, k), got, want)
				}
			}
		}
	}
	// Small normal sums: −√(Σ_j (q_j − r_j)²), summed in order on the
	// scaled rows, exactly.
	checked := 0
	for _, c := range []float64{1e-150, 1e-145, 1e-154, 7e-155, 5e-155} {
		nn, Qc := scaled(c)
		S, err := nn.Scores(Data{X: Qc})
		if err != nil {
			t.Fatal(err)
		}
		for i := range q {
			best, _ := leastSums(Qc, nn.rows, i)
			for k := range K {
				if best[k] < 0x1p-1022 {
					continue // rescaled: checked above, to 1e-14
				}
				if got, want := S.At(i, k), -math.Sqrt(best[k]); got != want {
					t.Errorf("scale %g: row %d class %d: score %v, want %v (bit for bit)", c, i, k, got, want)
				}
				if best[k] < 0x1p-1016 {
					checked++
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("%d scores from sums of squares in [2^-1022, 2^-1016): the check is too weak", checked)
	}
}

// TestOneClassNearestNeighbour: OneClass finds a nearest-neighbour model's
// predictions of its training rows in one pass (rows equal to a row are its
// nearest, the lowest class of them wins) and they are Predict's: on rows
// that each coincide with a row of class "a" (r1 of "a" and "b", r2 of "a"
// and "c") every row is "a"; on distinct rows each row is its own class.
// A row of "b" equal to one of "a" and one of "c" but for a −0 where they
// have +0 (column 0's mean is +0, so the standardised rows keep the signs)
// is "a" too: distance counts −0 equal to +0, and so must OneClass.
// (A fitted one-vs-rest model knows its own: TestOneClassOneVsRestPredictsOnce.)
func TestOneClassNearestNeighbour(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		X     []float64
		y     []int
		one   bool
		class int
	}{
		{[]float64{1, 2, 1, 2, 3, -1, 3, -1, -0.0, 0}, []int{1, 0, 2, 0, 0}, true, 0},
		{[]float64{1, 2, 1, 2, 3, -1, 3, -1}, []int{1, 0, 2, 2}, false, 0},
		{[]float64{1, 2, 5, 2, 3, -1, 3, 4}, []int{1, 0, 2, 0}, false, 0},
		{[]float64{negZero, 2, 0, 2, 1, -1, -1, 3, 0, 2}, []int{1, 0, 0, 0, 2}, true, 0},
	} {
		m := len(tc.y)
		train := Data{X: mat.NewDense(m, 2, tc.X)}
		y := ClassLabels{Names: []string{"a", "b", "c"}, Y: tc.y}
		model, _ := multiFile(t, "nearest-neighbour", train, y)
		pred, err := model.Predict(train)
		if err != nil {
			t.Fatal(err)
		}
		got := model.(*nearestNeighbourModel).trainingClasses()
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(pred))) {
			t.Errorf("%v: training classes %v, Predict %v", tc.y, got, pred)
		}
		k, one, err := OneClass(model, train)
		if err != nil || one != tc.one || k != tc.class {
			t.Errorf("%v: OneClass %d %v %v, want %d %v (Predict %v)", tc.y, k, one, err, tc.class, tc.one, pred)
		}
	}
}

// TestNearestNeighbourRefusesRowsBeyondResolution: a row so far from the
// training rows that every distance from it rounds to its own norm (a
// row of 1e300 in every column) is refused with checkFiniteScores' error,
// that of the linear forms' overflowing scores, where it scored the same
// finite value for every class and was given the first (the CLI gave a
// row of 1e308 class 0, scores −9.9e307). Closer rows are not refused: a
// row whose norm is 2^40 times the largest training row's still gets the
// class of the row of the largest projection on its direction, the
// nearest, and one of 2^60 times is refused.
func TestNearestNeighbourRefusesRowsBeyondResolution(t *testing.T) {
	train, y, test, _ := multiProblem(7, 3, 4, 6, 6, 3)
	r, c := test.X.Dims()
	_, n := test.H.Dims()
	huge := Data{X: mat.NewDense(r, c, slices.Repeat([]float64{1e300}, r*c)), H: mat.NewDense(r, n, slices.Repeat([]float64{1e300}, r*n))}
	model, _ := multiFile(t, "nearest-neighbour", train, y)
	if got, err := model.Predict(huge); err == nil || err.Error() != "method: predict: row 0: the score of class 0 is -Inf (an input far outside the training range?)" {
		t.Errorf("rows of 1e300: %v %v, want checkFiniteScores' error", got, err)
	}
	// Far rows, with the scaler the identity: the classes of the rows at
	// 2^40 times the largest training row's norm are the brute-force
	// nearest rows'.
	rows := mat.NewDense(6, 2, []float64{1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5, -0.5, 0.25})
	class := []int{0, 1, 2, 0, 1, 2}
	identity := standardize.Scaler{Mean: make([]float64, 2), Scale: []float64{1, 1}}
	nn := &nearestNeighbourModel{multiBase: multiBase{"nearest-neighbour", []string{"a", "b", "c"}, map[string]float64{}},
		s: blockScaler{X: identity}, rows: rows, class: class}
	dirs := [][]float64{{1, 0.1}, {0.2, 1}, {-1, 0}, {0.1, -1}, {1, 0.5}, {-1, 0.6}}
	for _, e := range []int{40, 60} {
		q := mat.NewDense(len(dirs), 2, nil)
		for i, v := range dirs {
			q.Set(i, 0, math.Ldexp(v[0], e))
			q.Set(i, 1, math.Ldexp(v[1], e))
		}
		got, err := nn.Predict(Data{X: q})
		if e == 60 {
			if err == nil || !strings.Contains(err.Error(), "the score of class 0 is -Inf") {
				t.Errorf("rows at 2^60: %v %v, want checkFiniteScores' error", got, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("rows at 2^40: %v", err)
		}
		for i, v := range dirs {
			// Far away, the nearest row is the one of the largest
			// projection on the row's direction (d = ‖z‖ − ẑ·r + O(1/‖z‖)),
			// here by a margin of at least 0.05 of the direction's norm.
			best, bestVal, second := -1, math.Inf(-1), math.Inf(-1)
			for tr := range class {
				val := v[0]*rows.At(tr, 0) + v[1]*rows.At(tr, 1)
				if val > bestVal {
					best, bestVal, second = tr, val, bestVal
				} else if val > second {
					second = val
				}
			}
			if bestVal-second < 0.05*math.Hypot(v[0], v[1]) {
				t.Fatalf("direction %v: projections %v and %v too close for the check", v, bestVal, second)
			}
			if got[i] != class[best] {
				t.Errorf("row %d (direction %v, at 2^40): class %d, the nearest row's is %d", i, v, got[i], class[best])
			}
		}
	}
}
