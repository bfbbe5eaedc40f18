package method

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/standardize"
)

// TestScoresConstant: ScoresConstant's bound is n·ε times the larger of 1
// and the largest |score|: spreads at the bound are constant, twice it
// not; a score scale above 1 raises the bound with it; and scores a
// genuine model's small spread apart (1e-10 on labels of ±1) are not.
func TestScoresConstant(t *testing.T) {
	eps := math.Nextafter(1, 2) - 1
	for _, tc := range []struct {
		scores []float64
		want   bool
	}{
		{[]float64{0, 0, 0, 0}, true},
		{[]float64{1e-20, -3e-20, 2e-20, 0}, true},
		{[]float64{0, 4 * eps, 0, 0}, true},
		{[]float64{0, 8 * eps, 0, 0}, false},
		{[]float64{0.3, 0.3 + 2*eps, 0.3, 0.3}, true},
		{[]float64{1024, 1024 + 4*1024*eps, 1024, 1024}, true},
		{[]float64{1024, 1024 + 8*1024*eps, 1024, 1024}, false},
		{[]float64{1e-10, -1e-10, 0, 0}, false},
		{[]float64{0.5, -0.5}, false},
	} {
		spread, bound, got := ScoresConstant(tc.scores)
		if got != tc.want {
			t.Errorf("ScoresConstant(%v) = %v (spread %g, bound %g), want %v", tc.scores, got, spread, bound, tc.want)
		}
	}
}

// noiseRows returns the rows of X (3 columns) of the constant-model
// tests: four rows twice over, so that labels 1 on the first copy and −1
// on the second cancel in every Σᵢ zᵢⱼ·yᵢ (a least-squares fit's exact
// weights are 0), and the labels.
func noiseRows() (*mat.Dense, []float64) {
	xr := [4][3]float64{{0.345584192064786, 0.8216181435011584, 0.33043707618338714}, {-1.303157231604361, 0.9053558666731177, 0.4463745723640113}, {-0.5369532353602852, 0.5811181041963531, 0.36457239618607573}, {0.294132496655526, 0.02842224131579679, 0.5467129866124469}}
	X := mat.NewDense(8, 3, nil)
	y := make([]float64, 8)
	for c, label := range []float64{1, -1} {
		for i := range 4 {
			X.SetRow(4*c+i, xr[i][:])
			y[4*c+i] = label
		}
	}
	return X, y
}

// bruteSpread returns max − min of b + Σⱼ w_j·z_ij over the rows of X,
// z standardised by s (the brute force the rule's spread is checked by).
func bruteSpread(X *mat.Dense, s standardize.Scaler, w []float64, b float64) float64 {
	r, _ := X.Dims()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range r {
		f := b
		for j, wj := range w {
			f += wj * s.Value(j, X.At(i, j))
		}
		lo, hi = min(lo, f), max(hi, f)
	}
	return hi - lo
}

// TestConstantModelRule: the constant-model rule on models of the noise
// rows, against their scores computed by hand: no-transfer's fit (its
// exact weights 0; what it computes is 0 or rounding of ~1e-20) and a
// model of weights of 1e-20 are constant, by their scores and by their
// weights alone; a model of no column is (NoColumn); a genuine model of
// weight 1e-10 on the same rows is not (its spread, 1e-10·range(z), is
// far above n·ε), nor by its weights (1e-10 > ε).
func TestConstantModelRule(t *testing.T) {
	X, y := noiseRows()
	s := standardize.Fit(X)
	fitted, err := New("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	nt, err := fitted.Fit(context.Background(), Data{X: X, Y: y}, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	lin := func(w ...float64) *Linear { return &Linear{Name: "ridge", X: s, WX: w} }
	for _, tc := range []struct {
		name     string
		m        Model
		constant bool
		noColumn bool
	}{
		{"no-transfer's fit", nt, true, false},
		{"rounding weights", lin(3e-25, -1.3e-23, -2.2e-20), true, false},
		{"no column", lin(0, 0, 0), true, true},
		{"genuine, weight 1e-10", lin(0, 1e-10, 0), false, false},
		{"genuine, weight 1", lin(1, 0, 0), false, false},
	} {
		c, ok := ConstantModel(tc.m, Data{X: X})
		if !ok {
			t.Fatalf("%s: the rule does not apply", tc.name)
		}
		noCol := tc.noColumn
		if tc.name == "no-transfer's fit" {
			sel, _ := tc.m.Selected()
			noCol = len(sel.Columns) == 0 // exact cancellation leaves no column
		}
		if c.Constant != tc.constant || c.NoColumn != noCol {
			t.Errorf("%s: ConstantModel = %+v, want constant %v, no column %v", tc.name, c, tc.constant, noCol)
		}
		if !c.NoColumn {
			l := tc.m.(*Linear)
			if want := bruteSpread(X, s, l.WX, l.B); c.Spread != want || c.Rows != 8 {
				t.Errorf("%s: spread %g on %d rows, want %g on 8 (by hand)", tc.name, c.Spread, c.Rows, want)
			}
			if want := 8 * epsilon * 1; c.Bound != want && c.Constant {
				t.Errorf("%s: bound %g, want n·ε = %g", tc.name, c.Bound, want)
			}
		}
		if _, wc, ok := WeightsConstant(tc.m); !ok || wc != tc.constant {
			t.Errorf("%s: WeightsConstant = %v (ok %v), want %v", tc.name, wc, ok, tc.constant)
		}
	}
}

// TestWeightsConstantImpliesScoresConstant: the weights-alone rule
// (Σ|w| ≤ ε) implies the training-rows rule on any rows, brute-forced
// over samples of 2 to 200 rows with one row far out (Samuelson's bound
// |z| ≤ √(n−1) attained: the worst case), and is tight at n = 2: the
// spread of weights summing to ε is then exactly 2ε = n·ε, the bound.
func TestWeightsConstantImpliesScoresConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 5, 17, 200} {
		for trial := range 20 {
			X := mat.NewDense(n, 3, nil)
			for i := range n {
				for j := range 3 {
					X.Set(i, j, rng.NormFloat64())
				}
			}
			if trial%2 == 0 { // one row far out in every column
				X.SetRow(0, []float64{1e6, -1e6, 1e6})
				for i := 1; i < n; i++ {
					X.SetRow(i, []float64{0, 0, 0})
				}
			}
			s := standardize.Fit(X)
			w := []float64{rng.Float64(), -rng.Float64(), rng.Float64()}
			sum := math.Abs(w[0]) + math.Abs(w[1]) + math.Abs(w[2])
			for j := range w {
				w[j] *= epsilon / sum * (1 - 4*epsilon) // Σ|w| ≤ ε after the rounding of the scaling
			}
			l := &Linear{Name: "ridge", X: s, WX: w}
			if got, wc, _ := WeightsConstant(l); !wc {
				t.Fatalf("n %d: weights summing to %g: WeightsConstant false", n, got)
			}
			c, _ := ConstantModel(l, Data{X: X})
			if !c.Constant {
				t.Errorf("n %d trial %d: weights of Σ|w| = ε, training spread %g > bound %g", n, trial, c.Spread, c.Bound)
			}
			if n == 2 && trial%2 == 0 && c.Spread < c.Bound/2 {
				t.Errorf("n 2: spread %g, want near the bound %g (z = ±1)", c.Spread, c.Bound)
			}
		}
	}
}

// linearOVR returns a one-vs-rest model of ridge's class models, X
// standardised by s, one a class of classes.
func linearOVR(s standardize.Scaler, classes []string, models ...*Linear) *ovrModel {
	o := &ovrModel{multiBase: multiBase{"ridge", classes, map[string]float64{}}}
	for _, m := range models {
		o.models = append(o.models, m)
		o.scale = append(o.scale, 1)
	}
	return o
}

// TestConstantClassesRule: the rule per class of a multi-class model on
// the noise rows. One class against the rest, a class whose model has
// weights of 1e-20 (rounding) and one of no column are constant, a
// genuine class is not, each with its own spread by hand; a native linear
// model's class of weights 1e-20 is constant by its score column, with the
// spread of that column by hand, and by its weights alone only the row of
// no non-zero weight (its scales may be moderated).
func TestConstantClassesRule(t *testing.T) {
	X, _ := noiseRows()
	s := standardize.Fit(X)
	classes := []string{"a", "b", "c"}
	noise, none, genuine := []float64{1e-20, -2e-20, 0}, []float64{0, 0, 0}, []float64{0.5, 0, -0.25}
	ovr := linearOVR(s, classes, &Linear{Name: "ridge", X: s, WX: genuine}, &Linear{Name: "ridge", X: s, WX: noise, B: -0.3}, &Linear{Name: "ridge", X: s, WX: none, B: 0.1})
	native := &LinearMulti{multiBase: multiBase{"multinomial-logistic", classes, map[string]float64{}}, s: blockScaler{X: s}, w: mat.NewDense(3, 3, slices.Concat(genuine, noise, none)), b: []float64{0, -0.3, 0.1}}
	for _, tc := range []struct {
		name string
		m    MultiModel
		ws   []bool // by the weights alone
	}{
		{"one-vs-rest", ovr, []bool{false, true, true}},
		{"native", native, []bool{false, false, true}},
	} {
		got, ok, err := ConstantClasses(context.Background(), tc.m, Data{X: X})
		if err != nil || !ok {
			t.Fatalf("%s: ok %v, %v", tc.name, ok, err)
		}
		if len(got) != 2 || got[0].Class != 1 || got[1].Class != 2 {
			t.Fatalf("%s: constant classes %+v, want b (rounding) and c (no column)", tc.name, got)
		}
		if got[0].NoColumn || !got[1].NoColumn || !got[0].Constant || !got[1].Constant {
			t.Errorf("%s: %+v: want b constant by its scores, c of no column", tc.name, got)
		}
		if want := bruteSpread(X, s, noise, -0.3); got[0].Spread != want || got[0].Rows != 8 {
			t.Errorf("%s: class b's spread %g on %d rows, want %g on 8 (by hand)", tc.name, got[0].Spread, got[0].Rows, want)
		}
		_, wc, ok := ClassWeightsConstant(tc.m)
		if !ok || !slices.Equal(wc, tc.ws) {
			t.Errorf("%s: ClassWeightsConstant = %v (ok %v), want %v", tc.name, wc, ok, tc.ws)
		}
	}
	// A stop before the check is its error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ConstantClasses(ctx, ovr, Data{X: X}); err == nil {
		t.Errorf("a done context: no error")
	}
}
