package method

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl"
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
		names := []string{"a", "b", "c"}[:slices.Max(class)+1]
		return newNearestNeighbourModel(multiBase{"nearest-neighbour", names, map[string]float64{}},
			blockScaler{X: identity}, &Rc, class), &Qc
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
		k, one, err := OneClass(context.Background(), model, train)
		if err != nil || one != tc.one || k != tc.class {
			t.Errorf("%v: OneClass %d %v %v, want %d %v (Predict %v)", tc.y, k, one, err, tc.class, tc.one, pred)
		}
	}
}

// TestNearestNeighbourRefusesRowsBeyondResolution: a row farther than
// maxNearestRatio (2^26) times the largest norm r of a training row is
// refused with checkFiniteScores' error, that of the linear forms'
// overflowing scores (a *greedytl.ScoreOverflowError naming the row and
// no column) (a row of 1e300 in every column scored the same
// finite value for every class and was given the first). Just below the
// bound a row still gets the brute-force nearest row's class, just above
// it is refused, with r the norm of a middle row (not the first or last).
// Rows (0, 1e5) of class a and (1, 0) of class b gave (1e20, 0) class a,
// both scores −1e20, with no error, though b is nearer: it is refused now
// (the rule before, ‖z‖ + r rounding to ‖z‖, passed it), and (1e12, 0),
// within the bound, gets b. With r = 0 (every training row the origin)
// no row is refused for being far: every class scores minus the row's
// norm, a true tie, and a row whose norm overflows to +Inf (1.5e308 in
// both columns) scores −Inf and is refused.
func TestNearestNeighbourRefusesRowsBeyondResolution(t *testing.T) {
	train, y, test, _ := multiProblem(7, 3, 4, 6, 6, 3)
	r, c := test.X.Dims()
	_, n := test.H.Dims()
	huge := Data{X: mat.NewDense(r, c, slices.Repeat([]float64{1e300}, r*c)), H: mat.NewDense(r, n, slices.Repeat([]float64{1e300}, r*n))}
	model, _ := multiFile(t, "nearest-neighbour", train, y)
	const refused = "method: predict: the score of row 0 overflows float64, an input of the row too far outside the training range"
	var e *greedytl.ScoreOverflowError
	if got, err := model.Predict(huge); err == nil || err.Error() != refused || !errors.As(err, &e) || *e != (greedytl.ScoreOverflowError{Row: 0, Col: -1}) {
		t.Errorf("rows of 1e300: %v %v, want checkFiniteScores' error, a *greedytl.ScoreOverflowError of row 0 blaming no column", got, err)
	}
	identity := standardize.Scaler{Mean: make([]float64, 2), Scale: []float64{1, 1}}
	model2 := func(rows []float64, class []int) *nearestNeighbourModel {
		names := []string{"a", "b", "c"}[:slices.Max(class)+1]
		return newNearestNeighbourModel(multiBase{"nearest-neighbour", names, map[string]float64{}},
			blockScaler{X: identity}, mat.NewDense(len(class), 2, rows), class)
	}
	// The boundary, with the scaler the identity: r = 2, the third row's.
	rows := []float64{1, 0, 0, 1, -2, 0, 0, -1, 0.5, 0.5, -0.5, 0.25}
	class := []int{0, 1, 2, 0, 1, 2}
	nn := model2(rows, class)
	dirs := [][]float64{{1, 0.1}, {0.2, 1}, {-1, 0}, {0.1, -1}, {1, 0.5}, {-1, 0.6}}
	for _, f := range []float64{1 - 1e-9, 1 + 1e-9} {
		q := mat.NewDense(len(dirs), 2, nil)
		for i, v := range dirs {
			h := f * maxNearestRatio * 2 / math.Hypot(v[0], v[1])
			q.Set(i, 0, h*v[0])
			q.Set(i, 1, h*v[1])
		}
		for i := range dirs {
			got, err := nn.Predict(Data{X: q.Slice(i, i+1, 0, 2).(*mat.Dense)})
			if f > 1 {
				if err == nil || err.Error() != refused {
					t.Errorf("direction %v just above 2^26·r: %v %v, want refused", dirs[i], got, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("direction %v just below 2^26·r: %v", dirs[i], err)
			}
			// The brute-force nearest row (squared distances in float64:
			// at 2^27 their differences, about 2^28, are exact to many
			// digits), by a margin checked.
			best, bd, second := -1, math.Inf(1), math.Inf(1)
			for tr := range class {
				e0, e1 := q.At(i, 0)-rows[2*tr], q.At(i, 1)-rows[2*tr+1]
				d := e0*e0 + e1*e1
				if d < bd {
					best, bd, second = tr, d, bd
				} else if d < second {
					second = d
				}
			}
			if second-bd < 1e-3*math.Sqrt(bd) {
				t.Fatalf("direction %v: squared distances %v and %v too close for the check", dirs[i], bd, second)
			}
			if got[0] != class[best] {
				t.Errorf("direction %v just below 2^26·r: class %d, the nearest row's is %d", dirs[i], got[0], class[best])
			}
		}
	}
	// The deterministic miss: (1e20, 0) refused, (1e12, 0) class b.
	miss := model2([]float64{0, 1e5, 1, 0}, []int{0, 1})
	if got, err := miss.Predict(Data{X: mat.NewDense(1, 2, []float64{1e20, 0})}); err == nil || err.Error() != refused {
		t.Errorf("(1e20, 0): %v %v, want refused", got, err)
	}
	if got, err := miss.Predict(Data{X: mat.NewDense(1, 2, []float64{1e12, 0})}); err != nil || got[0] != 1 {
		t.Errorf("(1e12, 0): %v %v, want class b (1)", got, err)
	}
	// r = 0: no row is refused for being far.
	zero := model2([]float64{0, 0, 0, 0, 0, 0}, []int{0, 1, 2})
	S, err := zero.Scores(Data{X: mat.NewDense(1, 2, []float64{1e300, 1e300})})
	if err != nil {
		t.Fatalf("r = 0, (1e300, 1e300): %v", err)
	}
	if want := -math.Sqrt2 * 1e300; S.At(0, 0) != want || S.At(0, 1) != want || S.At(0, 2) != want {
		t.Errorf("r = 0, (1e300, 1e300): scores %v, want %v for every class", S.RawRowView(0), want)
	}
	if got, err := zero.Predict(Data{X: mat.NewDense(1, 2, []float64{1.5e308, 1.5e308})}); err == nil || err.Error() != refused {
		t.Errorf("r = 0, (1.5e308, 1.5e308), of norm +Inf: %v %v, want refused", got, err)
	}
}

// TestNearestNeighbourRadius: the largest norm of a training row that
// Scores bounds rows by (maxNearestRatio), found once at fit and at decode
// (newNearestNeighbourModel), equals the brute-force maximum of √Σv² over
// the standardised training rows, in the fitted model and in the one read
// back from its file; a model decoded without it (radius 0) would refuse
// no far row.
func TestNearestNeighbourRadius(t *testing.T) {
	train, y, _, _ := multiProblem(5, 3, 4, 1, 6, 3)
	fitted, file := multiFile(t, "nearest-neighbour", train, y)
	back, err := Read(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]MultiModel{"fitted": fitted, "read": back.Multi} {
		nn := m.(*nearestNeighbourModel)
		var want float64
		m, p := nn.rows.Dims()
		for i := range m {
			var s float64
			for j := range p {
				s += nn.rows.At(i, j) * nn.rows.At(i, j)
			}
			want = max(want, math.Sqrt(s))
		}
		if want == 0 || nn.radius != want {
			t.Errorf("%s: radius %v, the largest row norm is %v", name, nn.radius, want)
		}
	}
}

// TestNearestNeighbourScoreOfATrainingRowIsPlusZero: a query equal to a
// training row is at distance 0 from its class, whose score is +0, not
// −0 (printed "-0" by predict --scores).
func TestNearestNeighbourScoreOfATrainingRowIsPlusZero(t *testing.T) {
	R := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	identity := standardize.Scaler{Mean: make([]float64, 2), Scale: []float64{1, 1}}
	nn := newNearestNeighbourModel(multiBase{"nearest-neighbour", []string{"a", "b", "c"}, map[string]float64{}},
		blockScaler{X: identity}, R, []int{0, 1, 2})
	S, err := nn.Scores(Data{X: R})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if v := S.At(i, i); v != 0 || math.Signbit(v) {
			t.Errorf("row %d, its own class: score %v (sign bit %v), want +0", i, v, math.Signbit(v))
		}
	}
}
