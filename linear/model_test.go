package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/mat"
)

// randomModel returns a seeded random model of nrClass labels over
// nrFeature features.
func randomModel(seed uint64, nrClass, nrFeature int, bias float64) *Model {
	rng := rand.New(rand.NewPCG(seed, seed))
	m := &Model{Solver: L2RL2LossSVCDual, NrFeature: nrFeature, Bias: bias, NrW: nrW(nrClass), Converged: true}
	for k := range nrClass {
		m.Labels = append(m.Labels, 2*k-1)
	}
	rows := nrFeature
	if bias >= 0 {
		rows++
	}
	m.W = make([]float64, rows*m.NrW)
	for j := range m.W {
		m.W[j] = rng.NormFloat64()
	}
	return m
}

// bruteDecisions computes the decision values of m for the dense rows of x
// straight from the definition.
func bruteDecisions(m *Model, x *mat.Dense) [][]float64 {
	r, c := x.Dims()
	out := make([][]float64, r)
	for i := range r {
		out[i] = make([]float64, m.NrW)
		for k := range m.NrW {
			var s float64
			for j := 0; j < min(c, m.NrFeature); j++ {
				s += m.W[j*m.NrW+k] * x.At(i, j)
			}
			if m.Bias >= 0 {
				s += m.W[m.NrFeature*m.NrW+k] * m.Bias
			}
			out[i][k] = s
		}
	}
	return out
}

func TestModelDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	for _, bias := range []float64{-1, 0, 1, 2.5} {
		// The examples have more columns than the model: extra ones are
		// ignored, as liblinear ignores features beyond nr_feature.
		m := randomModel(32, 2, 6, bias)
		x := mat.NewDense(25, 9, nil)
		for i := range 25 {
			for j := range 9 {
				if rng.Float64() < 0.6 {
					x.Set(i, j, rng.NormFloat64())
				}
			}
		}
		sx := sparse.FromDense(x)
		want := bruteDecisions(m, x)
		dec, labels := m.Predict(sx)
		scores := m.Scores(x)
		for i := range 25 {
			ind, val := sx.Row(i)
			// randomModel's labels are [-1 1]: the scores favour 1, so
			// they are the negated decision values.
			got := []float64{m.Decision(ind, val), m.DecisionDense(x.RawRowView(i)), dec[i], -scores[i]}
			for k, g := range got {
				if math.Abs(g-want[i][0]) > 1e-12 {
					t.Errorf("bias %v row %d: value %d is %v, want %v", bias, i, k, g, want[i][0])
				}
			}
			wantLabel := m.Labels[1]
			if want[i][0] > 0 {
				wantLabel = m.Labels[0]
			}
			if labels[i] != wantLabel {
				t.Errorf("bias %v row %d: label %d, want %d", bias, i, labels[i], wantLabel)
			}
		}
	}
}

func TestModelMultiClassPredict(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 33))
	for _, bias := range []float64{-1, 1} {
		m := randomModel(34, 4, 5, bias)
		x := mat.NewDense(30, 5, nil)
		for i := range 30 {
			for j := range 5 {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		dec, labels := m.Predict(sparse.FromDense(x))
		want := bruteDecisions(m, x)
		for i := range 30 {
			best := 0
			for k := range 4 {
				if math.Abs(dec[i*4+k]-want[i][k]) > 1e-12 {
					t.Errorf("row %d class %d: decision %v, want %v", i, k, dec[i*4+k], want[i][k])
				}
				if want[i][k] > want[i][best] {
					best = k
				}
			}
			if labels[i] != m.Labels[best] {
				t.Errorf("row %d: label %d, want %d", i, labels[i], m.Labels[best])
			}
		}
	}
	// Ties go to the first label, as in liblinear.
	m := &Model{Labels: []int{5, 6, 7}, NrFeature: 1, Bias: -1, NrW: 3, W: []float64{1, 2, 2}}
	if _, l := m.Predict(&sparse.CSR{R: 1, C: 1, Ptr: []int{0, 1}, Ind: []int{0}, Val: []float64{1}}); l[0] != 6 {
		t.Errorf("tie between classes 6 and 7: predicted %d, want 6", l[0])
	}
	// A binary decision of exactly 0 predicts Labels[1], as in liblinear.
	b := &Model{Labels: []int{1, -1}, NrFeature: 1, Bias: -1, NrW: 1, W: []float64{0}}
	if _, l := b.Predict(&sparse.CSR{R: 1, C: 1, Ptr: []int{0, 0}}); l[0] != -1 {
		t.Errorf("zero decision: predicted %d, want -1", l[0])
	}
}

// TestScoresOrientation checks the one rule of Scores: positive scores
// favour the greater label, whatever the order of Labels.
func TestScoresOrientation(t *testing.T) {
	x := mat.NewDense(1, 1, []float64{1})
	for _, c := range []struct {
		labels []int
		want   float64
	}{
		{[]int{1, -1}, 2},
		{[]int{-1, 1}, -2},
		{[]int{1, 0}, 2},
		{[]int{0, 1}, -2},
		{[]int{7, 3}, 2},
		{[]int{3, 7}, -2},
	} {
		m := &Model{Labels: c.labels, NrFeature: 1, Bias: -1, NrW: 1, W: []float64{2}}
		got := m.Scores(x)[0]
		if got != c.want {
			t.Errorf("labels %v: score %v, want %v", c.labels, got, c.want)
		}
		// The score's sign predicts the greater label exactly when
		// Predict does (away from ties).
		_, l := m.Predict(sparse.FromDense(x))
		greater := max(c.labels[0], c.labels[1])
		if (got > 0) != (l[0] == greater) {
			t.Errorf("labels %v: score %v but Predict says %d", c.labels, got, l[0])
		}
	}
}

// TestPredictsGreater checks PredictsGreater against liblinear's rule
// (Predict: Labels[0] when the decision value is > 0, else Labels[1]) on
// every order of the labels, ties included: a row of zeros without a bias
// and a row on zero weights only (an L1 model's) score exactly 0, which
// liblinear gives Labels[1], the greater label when it comes second (0/1
// labels whose first training example is a 0). The sign of the score alone
// called such rows negative, so predict's balanced accuracy of a
// liblinear model disagreed with liblinear-predict's predictions.
func TestPredictsGreater(t *testing.T) {
	// Columns: w = (2, 0, -1); rows: zeros, the zero-weight feature only,
	// a positive and a negative decision value, a tie of two terms, and a
	// NaN feature (a NaN decision value, not > 0: Labels[1], as a 0).
	x := mat.NewDense(6, 3, []float64{
		0, 0, 0,
		0, 5, 0,
		1, 0, 0,
		0, 0, 1,
		1, 0, 2,
		math.NaN(), 0, 0,
	})
	for _, labels := range [][]int{{1, -1}, {-1, 1}, {1, 0}, {0, 1}, {7, 3}, {3, 7}} {
		m := &Model{Labels: labels, NrFeature: 3, Bias: -1, NrW: 1, W: []float64{2, 0, -1}}
		scores := m.Scores(x)
		_, want := m.Predict(sparse.FromDense(x))
		greater := max(labels[0], labels[1])
		for i, s := range scores {
			if got := m.PredictsGreater(s); got != (want[i] == greater) {
				t.Errorf("labels %v, row %d: score %v, PredictsGreater %v, but liblinear predicts %d", labels, i, s, got, want[i])
			}
		}
	}
}

func TestModelPanics(t *testing.T) {
	bin := randomModel(35, 2, 3, 1)
	multi := randomModel(36, 3, 3, 1)
	cases := []struct {
		name string
		f    func()
	}{
		{"Decision on a multi-class model", func() { multi.Decision(nil, nil) }},
		{"DecisionDense on a multi-class model", func() { multi.DecisionDense(make([]float64, 3)) }},
		{"Scores on a multi-class model", func() { multi.Scores(mat.NewDense(1, 3, nil)) }},
		{"Decision with mismatched lengths", func() { bin.Decision([]int{0, 1}, []float64{1}) }},
		{"DecisionDense with a short example", func() { bin.DecisionDense(make([]float64, 2)) }},
		{"Scores with too few columns", func() { bin.Scores(mat.NewDense(2, 2, nil)) }},
	}
	for _, c := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.f()
		}()
	}
	// No matrix has no columns: Scores's panic for too few, which names
	// them (a nil *mat.Dense panicked in its Dims, a nil dereference).
	for _, X := range []mat.Matrix{nil, (*mat.Dense)(nil)} {
		func() {
			defer func() {
				const want = "linear: matrix has 0 columns, model has 3 features"
				if r := recover(); fmt.Sprint(r) != want {
					t.Errorf("Scores(%#v): panic %v, want %q", X, r, want)
				}
			}()
			bin.Scores(X)
		}()
	}
}

func TestScoresZeroFeatures(t *testing.T) {
	// A model of the bias feature alone scores every row with its bias
	// term, whatever the matrix.
	m := &Model{Labels: []int{1, -1}, NrFeature: 0, Bias: 2, NrW: 1, W: []float64{0.25}}
	got := m.Scores(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}))
	if !slices.Equal(got, []float64{0.5, 0.5, 0.5}) {
		t.Errorf("Scores = %v, want 0.5 each", got)
	}
	// No matrix: no rows to score (a nil *mat.Dense panicked in Dims).
	if got := m.Scores((*mat.Dense)(nil)); len(got) != 0 {
		t.Errorf("Scores of a nil *mat.Dense = %v, want none", got)
	}
}

// TestScoresLayouts: Scores gives the same bits for the same rows held as
// a mat.Dense, a view into a larger one of NaN, a transpose and a matrix type of
// the caller's (the transpose and the caller's type were summed in
// another order, differing in the last bits).
func TestScoresLayouts(t *testing.T) {
	const r, c = 60, 8
	X, _ := ridgeRandom(5, r, c, 0)
	big := mat.NewDense(r+2, c+3, nil)
	for i := range r + 2 {
		for j := range c + 3 {
			big.Set(i, j, math.NaN()) // outside the view: must not be read
		}
	}
	view := big.Slice(1, r+1, 2, c+2).(*mat.Dense)
	view.Copy(X)
	for _, bias := range []float64{-1, 1} {
		m := randomModel(3, 2, c, bias)
		want := m.Scores(X)
		for name, A := range map[string]mat.Matrix{
			"view":      view,
			"transpose": mat.DenseCopyOf(X.T()).T(),
			"opaque":    opaque{X},
		} {
			got := m.Scores(A)
			if len(got) != len(want) {
				t.Errorf("bias %v, %s: %d scores, %d as a mat.Dense", bias, name, len(got), len(want))
				continue
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Errorf("bias %v, %s: row %d scores %v, %v as a mat.Dense", bias, name, i, got[i], want[i])
					break
				}
			}
		}
	}
}

// opaque hides a matrix's type: only mat.Matrix's methods.
type opaque struct{ m mat.Matrix }

func (o opaque) Dims() (r, c int)    { return o.m.Dims() }
func (o opaque) At(i, j int) float64 { return o.m.At(i, j) }
func (o opaque) T() mat.Matrix       { return mat.Transpose{Matrix: o} }

// ExampleTrain fits a linear SVM to four points and predicts two new ones.
func ExampleTrain() {
	x := mat.NewDense(4, 2, []float64{
		2, 1,
		1, 2,
		-1, -2,
		-2, -1,
	})
	prob := &Problem{X: sparse.FromDense(x), Y: []float64{1, 1, -1, -1}, Bias: 1}
	m, err := Train(context.Background(), prob, Params{Solver: L2RL2LossSVCDual, C: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	test := mat.NewDense(2, 2, []float64{3, 0, 0, -3})
	_, labels := m.Predict(sparse.FromDense(test))
	fmt.Println("labels:", m.Labels)
	fmt.Println("predicted:", labels)
	fmt.Println("scores positive:", m.Scores(test)[0] > 0, m.Scores(test)[1] > 0)
	// Output:
	// labels: [1 -1]
	// predicted: [1 -1]
	// scores positive: true false
}

// TestInconsistentModel: a Model built by hand whose fields disagree is
// reported by Check, and the prediction methods, which have no error
// return, panic with a message that says so (not an index out of range).
func TestInconsistentModel(t *testing.T) {
	good := func() *Model {
		return &Model{Solver: L2RLR, Labels: []int{1, -1}, NrFeature: 3, Bias: 1, W: []float64{1, 2, 3, 4}, NrW: 1}
	}
	if err := good().Check(); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	for _, c := range []struct {
		what   string
		change func(m *Model)
	}{
		{"weights shorter than NrFeature", func(m *Model) { m.W = m.W[:2] }},
		{"no bias weight", func(m *Model) { m.W = m.W[:3] }},
		{"NrW 0", func(m *Model) { m.NrW = 0 }},
		{"one label", func(m *Model) { m.Labels = m.Labels[:1] }},
		{"negative NrFeature", func(m *Model) { m.NrFeature = -1 }},
	} {
		m := good()
		c.change(m)
		if err := m.Check(); err == nil {
			t.Errorf("%s: Check: no error", c.what)
		}
		for fn, call := range map[string]func(){
			"Decision":      func() { m.Decision([]int{0}, []float64{1}) },
			"DecisionDense": func() { m.DecisionDense(x.RawRowView(0)) },
			"Scores":        func() { m.Scores(x) },
			"Predict":       func() { m.Predict(sparse.FromDense(x)) },
		} {
			func() {
				defer func() {
					if msg := fmt.Sprint(recover()); !strings.Contains(msg, "inconsistent model") {
						t.Errorf("%s: %s panicked with %q, want a message naming the inconsistent model", c.what, fn, msg)
					}
				}()
				call()
			}()
		}
	}
	var nilModel *Model
	if err := nilModel.Check(); err == nil {
		t.Error("nil model: Check: no error")
	}
}

// TestModelConcurrentUse: a model (binary, and of 3 classes) shared by 8
// goroutines answers Predict, Scores and Decision for each as for one, as
// Model's documentation promises (run with -race, the race detector checks
// that its methods only read it).
func TestModelConcurrentUse(t *testing.T) {
	const goroutines = 8
	csr := lrRandomProblem(8, 30, 7, 0.7, 1).X
	X := csr.Dense()
	for _, classes := range []int{2, 3} {
		m := randomModel(uint64(classes), classes, 7, 1)
		dec, labels := m.Predict(csr)
		var scores []float64
		if classes == 2 {
			scores = m.Scores(X)
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				d, l := m.Predict(csr)
				if !slices.Equal(d, dec) || !slices.Equal(l, labels) {
					t.Errorf("%d classes, goroutine %d: concurrent Predict differs", classes, g)
				}
				if classes != 2 {
					return
				}
				if s := m.Scores(X); !slices.Equal(s, scores) {
					t.Errorf("goroutine %d: concurrent Scores differ", g)
				}
				ind, val := csr.Row(g)
				if v := m.Decision(ind, val); v != dec[g] {
					t.Errorf("goroutine %d: concurrent Decision %v, Predict's %v", g, v, dec[g])
				}
			})
		}
		wg.Wait()
	}
}

// TestScoresRowAlone: a row's score has the same bits alone as among any
// number of rows (scored with the rows before it, whole blocks, the whole
// matrix), and is Dot of the row and the oriented weights plus the bias
// term. An odd number of columns failed in every build (gonum's amd64
// matrix–vector product sums the last row of an odd block in another
// order), an even one in the OpenBLAS build (useOpenBLAS: the product's
// kernel depends on the number of rows).
func TestScoresRowAlone(t *testing.T) {
	useOpenBLAS(t)
	const r = 67
	for _, c := range []int{1, 2, 7, 40, 41} {
		X, _ := ridgeRandom(uint64(c), r, c, 0.5)
		// Every column weighted (the last of an odd number too), and
		// columns beyond the model's features.
		for _, tc := range []struct {
			features int
			bias     float64
			labels   []int
		}{{c, -1, []int{1, -1}}, {c, 1, []int{-1, 1}}, {c - c/3, 1, []int{1, -1}}} {
			m := randomModel(uint64(c)+7, 2, tc.features, tc.bias)
			m.Labels = tc.labels
			sign := m.scoreSign()
			w := make([]float64, c)
			for j := range m.NrFeature {
				w[j] = sign * m.W[j]
			}
			want := make([]float64, r)
			for i := range r {
				want[i] = Dot(X.RawRowView(i), w)
				if tc.bias >= 0 {
					want[i] += sign * m.W[m.NrFeature] * m.Bias
				}
			}
			for _, n := range []int{1, 2, 3, 4, 5, 8, 9, 16, 33, r} {
				for lo := 0; lo < r; lo += n {
					hi := min(lo+n, r)
					got := m.Scores(X.Slice(lo, hi, 0, c))
					for i, g := range got {
						if math.Float64bits(g) != math.Float64bits(want[lo+i]) {
							t.Fatalf("%d columns, %d features, bias %v, labels %v: row %d scored among rows [%d, %d): %v, alone %v",
								c, tc.features, tc.bias, tc.labels, lo+i, lo, hi, g, want[lo+i])
						}
					}
				}
			}
		}
	}
}

// TestDot checks Dot's order of summation on sums whose other orders
// round otherwise (1e16 + 1 rounds to 1e16): the even-indexed products,
// then the odd-indexed ones, added, then the last product for an odd
// length.
func TestDot(t *testing.T) {
	for _, c := range []struct {
		x, w []float64
		want float64
	}{
		{nil, nil, 0},
		{[]float64{3}, []float64{-2}, -6},
		// (1e16 − 1e16) + (1 + 1); in index order ((1e16 + 1) − 1e16) + 1 = 1.
		{[]float64{1e16, 1, -1e16, 1}, []float64{1, 1, 1, 1}, 2},
		// (1 + 1e16) + 1; with the last product added to the even half
		// (1 + 1) + 1e16 = 1e16 + 2.
		{[]float64{1, 1e16, 1}, []float64{1, 1, 1}, 1e16},
		// Products are rounded before they are added: (1+2⁻³⁰)² − 1 is
		// 2⁻²⁹ rounded, 2⁻²⁹ + 2⁻⁶⁰ fused.
		{[]float64{1 + 0x1p-30, -1}, []float64{1 + 0x1p-30, 1}, 0x1p-29},
		// Weights are multiplied by the values as they are: 0 × Inf is NaN.
		{[]float64{math.Inf(1), 1}, []float64{0, 1}, math.NaN()},
	} {
		got := Dot(c.x, c.w)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("Dot(%v, %v) = %v, want %v", c.x, c.w, got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Dot of 2 and 3 values: no panic")
		}
	}()
	Dot([]float64{1, 2}, []float64{1, 2, 3})
}
