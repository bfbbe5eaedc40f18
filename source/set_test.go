package source

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
)

// randomModel returns a binary model with nf features, a bias feature when
// bias ≥ 0, the given labels and random weights.
func randomModel(rng *rand.Rand, nf int, bias float64, labels []int) *linear.Model {
	n := nf
	if bias >= 0 {
		n++
	}
	w := make([]float64, n)
	for k := range w {
		w[k] = rng.NormFloat64()
	}
	return &linear.Model{Solver: linear.L2RL2LossSVCDual, Labels: labels, NrFeature: nf, Bias: bias, W: w, NrW: 1, Converged: true}
}

// bruteScore computes a source's score from the definitions: the decision
// value Σ_{k<NrFeature} w_k x_k (+ w_bias·Bias), negated when Labels[0] is
// the smaller label so that positive favours the greater label.
func bruteScore(m *linear.Model, x []float64) float64 {
	var s float64
	for k := 0; k < m.NrFeature && k < len(x); k++ {
		s += m.W[k] * x[k]
	}
	if m.Bias >= 0 {
		s += m.W[m.NrFeature] * m.Bias
	}
	if m.Labels[0] < m.Labels[1] {
		s = -s
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }

// testSet returns sources of varied shapes and label conventions.
func testSet(t *testing.T, rng *rand.Rand) *Set {
	t.Helper()
	models := []*linear.Model{
		randomModel(rng, 5, 1, []int{1, -1}),
		randomModel(rng, 3, -1, []int{-1, 1}), // decision favours -1: score is negated
		randomModel(rng, 7, 0.5, []int{0, 1}),
		randomModel(rng, 7, -1, []int{5, 2}),
		randomModel(rng, 0, 1, []int{1, -1}), // bias only: a constant
	}
	names := []string{"a", "b", "c", "d", "e"}
	s, err := NewSet(names, models)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomDense returns an r × c matrix with about a third of its entries 0.
func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	x := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			if rng.IntN(3) > 0 {
				x.Set(i, j, rng.NormFloat64()*3)
			}
		}
	}
	return x
}

func TestScoresMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	s := testSet(t, rng)
	if s.NumFeatures() != 7 || s.Len() != 5 {
		t.Fatalf("NumFeatures, Len = %d, %d, want 7, 5", s.NumFeatures(), s.Len())
	}
	x := randomDense(rng, 11, 9) // two columns beyond every model's features
	// A matrix type without Slice takes the copying path.
	type plain struct{ mat.Matrix }
	inputs := []struct {
		name string
		x    mat.Matrix
	}{
		{"dense-wider", x},
		{"dense-exact", x.Slice(0, 11, 0, 7)},
		{"plain-wider", plain{x}},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			h, err := s.Scores(in.x)
			if err != nil {
				t.Fatal(err)
			}
			if r, c := h.Dims(); r != 11 || c != 5 {
				t.Fatalf("H is %d×%d, want 11×5", r, c)
			}
			for j := range s.Len() {
				ref := s.Model(j).Scores(in.x) // linear's own convention
				for i := range 11 {
					want := bruteScore(s.Model(j), x.RawRowView(i))
					if got := h.At(i, j); !near(got, want) || !near(ref[i], want) {
						t.Errorf("H[%d][%d] = %v, linear.Model.Scores %v, definition %v", i, j, got, ref[i], want)
					}
				}
			}
		})
	}
}

func TestScoresCSRMatchesDecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	s := testSet(t, rng)
	x := randomDense(rng, 13, 9)
	for _, cols := range []int{9, 7, 4} { // a CSR may have fewer columns than the models
		t.Run("", func(t *testing.T) {
			xs := sparse.FromDense(x.Slice(0, 13, 0, cols))
			h, err := s.ScoresCSR(xs)
			if err != nil {
				t.Fatal(err)
			}
			for j := range s.Len() {
				m := s.Model(j)
				for i := range 13 {
					ind, val := xs.Row(i)
					want := m.Decision(ind, val)
					if m.Labels[0] < m.Labels[1] {
						want = -want
					}
					if got := h.At(i, j); !near(got, want) {
						t.Errorf("cols %d: H[%d][%d] = %v, Decision gives %v", cols, i, j, got, want)
					}
				}
			}
			if cols >= s.NumFeatures() {
				hd, err := s.Scores(x.Slice(0, 13, 0, cols))
				if err != nil {
					t.Fatal(err)
				}
				if !mat.EqualApprox(h, hd, 1e-12) {
					t.Errorf("sparse and dense scores differ:\n%v\n%v", mat.Formatted(h), mat.Formatted(hd))
				}
			}
		})
	}
}

func TestScoresErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	s := testSet(t, rng)
	nan := randomDense(rng, 4, 7)
	nan.Set(2, 1, math.NaN())
	for _, tc := range []struct {
		name string
		x    mat.Matrix
		want string
	}{
		{"too few features", randomDense(rng, 4, 6), `source "c": model has 7 features but the examples have 6`},
		{"NaN", nan, "score of example 2 is NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Scores(tc.x)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Scores error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := s.ScoresCSR(sparse.FromDense(nan)); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("ScoresCSR with NaN: error %v", err)
	}
	// Absent examples and a Set not built by NewSet: errors, not the
	// nil-pointer (and gonum zero-length) panics they were.
	x := randomDense(rng, 4, 7)
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"Scores of nil", func() error { _, err := s.Scores(nil); return err }, "X is nil"},
		{"Scores of a nil *mat.Dense", func() error { _, err := s.Scores((*mat.Dense)(nil)); return err }, "X is nil"},
		{"ScoresCSR of nil", func() error { _, err := s.ScoresCSR(nil); return err }, "X is nil"},
		{"a nil Set's Scores", func() error { _, err := (*Set)(nil).Scores(x); return err }, "not built by NewSet"},
		{"the zero Set's Scores", func() error { _, err := (&Set{}).Scores(x); return err }, "not built by NewSet"},
		{"the zero Set's ScoresCSR", func() error { _, err := (&Set{}).ScoresCSR(sparse.FromDense(x)); return err }, "not built by NewSet"},
	} {
		errtest.Refuses(t, tc.name, tc.want, tc.call)
	}
}

func TestNewSetErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	good := randomModel(rng, 3, 1, []int{1, -1})
	multi := &linear.Model{Solver: linear.L2RL2LossSVCDual, Labels: []int{0, 1, 2}, NrFeature: 1, Bias: -1, W: []float64{1, 2, 3}, NrW: 3}
	short := randomModel(rng, 3, 1, []int{1, -1})
	short.W = short.W[:3]
	inf := randomModel(rng, 3, -1, []int{1, -1})
	inf.W[1] = math.Inf(1)
	for _, tc := range []struct {
		name   string
		names  []string
		models []*linear.Model
		want   string
	}{
		{"none", nil, nil, "no source models"},
		{"length mismatch", []string{"a", "b"}, []*linear.Model{good}, "2 names for 1 models"},
		{"nil", []string{"a"}, []*linear.Model{nil}, "nil model"},
		{"multi-class", []string{"m"}, []*linear.Model{multi}, "needs a binary model"},
		{"weights", []string{"s"}, []*linear.Model{short}, "has 3 weights, want 4"},
		{"infinite", []string{"i"}, []*linear.Model{inf}, "weight 1 is +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSet(tc.names, tc.models)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewSet error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	s := testSet(t, rng)
	x := randomDense(rng, 6, 8)
	h, err := s.Scores(x)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{3, 1, 3}
	sub := s.Subset(idx)
	if sub.Len() != 3 || sub.Name(0) != "d" || sub.Name(1) != "b" || sub.NumFeatures() != 7 {
		t.Fatalf("Subset(%v): Len %d, names %q %q, NumFeatures %d", idx, sub.Len(), sub.Name(0), sub.Name(1), sub.NumFeatures())
	}
	hs, err := sub.Scores(x)
	if err != nil {
		t.Fatal(err)
	}
	for k, j := range idx {
		for i := range 6 {
			if !near(hs.At(i, k), h.At(i, j)) {
				t.Errorf("subset H[%d][%d] = %v, full H[%d][%d] = %v", i, k, hs.At(i, k), i, j, h.At(i, j))
			}
		}
	}
	// A subset of narrow sources needs only their features.
	if n := s.Subset([]int{1}).NumFeatures(); n != 3 {
		t.Errorf("Subset of source b needs %d features, want 3", n)
	}
	for _, bad := range [][]int{nil, {5}, {-1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Subset(%v) did not panic", bad)
				}
			}()
			s.Subset(bad)
		}()
	}
}

func TestReadModelFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	dir := t.TempDir()
	m1 := randomModel(rng, 4, 1, []int{1, -1})
	m2 := randomModel(rng, 4, -1, []int{0, 1})
	p1, p2 := filepath.Join(dir, "one.model"), filepath.Join(dir, "two.model")
	for p, m := range map[string]*linear.Model{p1: m1, p2: m2} {
		if err := linear.WriteModelFile(p, m); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ReadModelFiles(p2, p1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name(0) != p2 || s.Name(1) != p1 {
		t.Errorf("names %q, %q, want the paths %q, %q", s.Name(0), s.Name(1), p2, p1)
	}
	x := randomDense(rng, 5, 4)
	h, err := s.Scores(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		for j, m := range []*linear.Model{m2, m1} {
			if want := bruteScore(m, x.RawRowView(i)); !near(h.At(i, j), want) {
				t.Errorf("H[%d][%d] = %v, want %v", i, j, h.At(i, j), want)
			}
		}
	}
	if _, err := ReadModelFiles(filepath.Join(dir, "absent.model")); err == nil {
		t.Error("ReadModelFiles of a missing file: no error")
	}
}

// TestNilSet holds a nil *Set to an empty set's answers, as the errors of
// its Scores treat it: no sources and no features, and Name, Model and
// Subset out of range (their documented panic, not a nil dereference).
func TestNilSet(t *testing.T) {
	var s *Set
	noPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s of a nil Set: panic %v", name, r)
			}
		}()
		f()
	}
	noPanic("Len", func() {
		if n := s.Len(); n != 0 {
			t.Errorf("Len %d, want 0", n)
		}
	})
	noPanic("NumFeatures", func() {
		if d := s.NumFeatures(); d != 0 {
			t.Errorf("NumFeatures %d, want 0", d)
		}
	})
	for name, f := range map[string]func(){
		"Name":   func() { s.Name(0) },
		"Model":  func() { s.Model(0) },
		"Subset": func() { s.Subset([]int{0}) },
	} {
		func() {
			defer func() {
				r := recover()
				if msg, ok := r.(string); !ok || !strings.Contains(msg, "out of range") {
					t.Errorf("%s(0) of a nil Set: panic %v, want one saying the index is out of range", name, r)
				}
			}()
			f()
		}()
	}
}
