package method

import (
	"bytes"
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/modelfile"
	"gonum.org/v1/gonum/mat"
)

// rootModel returns the root-package model inside a greedytl method's model.
func rootModel(t *testing.T, m Model) *greedytl.Model {
	t.Helper()
	g, ok := m.(interface{ GreedyModel() *greedytl.Model })
	if !ok {
		t.Fatalf("%T has no GreedyModel method", m)
	}
	return g.GreedyModel()
}

// The greedytl methods are the root package's Fit with their options; the
// wrapper adds the registry name, the hyperparameters and the source
// weights.
func TestGreedyWrapsRoot(t *testing.T) {
	c := newConformanceCase(21, 20, 6, 5, 30)
	sp := greedytl.DefaultOptions()
	sp.FeatureFactor = spFeatureFactor
	s59 := greedytl.DefaultOptions()
	s59.Sample, s59.Seed = 59, c.extra.Seed
	for _, tc := range []struct {
		name string
		opts greedytl.Options
		hp   map[string]float64
	}{
		{"greedytl", greedytl.DefaultOptions(), map[string]float64{"lambda": 1, "delta": 1e-4, "gamma": 1}},
		{"greedytl-59", s59, map[string]float64{"lambda": 1, "delta": 1e-4, "gamma": 1, "sample": 59}},
		{"greedytl-sp", sp, map[string]float64{"lambda": 1, "delta": 1e-4, "gamma": spFeatureFactor}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := mustFit(t, tc.name, c)
			want, err := greedytl.Fit(context.Background(), c.train.X, c.train.H, c.train.Y, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := rootModel(t, model)
			if !slices.Equal(got.Selected, want.Selected) || !slices.Equal(got.Weights, want.Weights) {
				t.Errorf("selected %v weights %v, greedytl.Fit gives %v %v", got.Selected, got.Weights, want.Selected, want.Weights)
			}
			if !maps.Equal(model.Hyperparameters(), tc.hp) {
				t.Errorf("hyperparameters %v, want %v", model.Hyperparameters(), tc.hp)
			}
			sw := model.SourceWeights()
			nsel := 0
			for j, c := range want.Selected {
				if c.Kind == greedytl.Source {
					nsel++
					if sw[c.Index] != want.Weights[j] {
						t.Errorf("source %d: weight %v, want %v", c.Index, sw[c.Index], want.Weights[j])
					}
				}
			}
			nz := 0
			for _, w := range sw {
				if w != 0 {
					nz++
				}
			}
			if nz != nsel || nsel == 0 {
				t.Errorf("%d non-zero source weights for %d selected sources", nz, nsel)
			}
			f := mustPredict(t, model, c.test)
			g, _ := want.Predict(c.test.X, c.test.H)
			if !slices.Equal(f, g) {
				t.Error("predictions differ from the root model's")
			}
		})
	}
}

// With a feature identical to a source, exact GreedyTL (γ = 1) takes the
// feature (ties go to features), greedytl-sp (γ < 1) the source, and γ = 0
// excludes features altogether.
func TestGreedySPPrefersSources(t *testing.T) {
	c := newConformanceCase(4, 20, 6, 3, 5)
	train := cloneData(c.train)
	for i := range 20 {
		dense(train.X).Set(i, 1, train.H.At(i, 0))
	}
	c.train = train
	first := func(m Method) greedytl.Column {
		model, err := m.Fit(context.Background(), c.train, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		return rootModel(t, model).Selected[0]
	}
	exact, _ := New("greedytl")
	if got := first(exact); got != (greedytl.Column{Kind: greedytl.Feature, Index: 1}) {
		t.Errorf("greedytl first selects %v, want feature 1", got)
	}
	sp, _ := New("greedytl-sp")
	if got := first(sp); got != (greedytl.Column{Kind: greedytl.Source, Index: 0}) {
		t.Errorf("greedytl-sp first selects %v, want source 0", got)
	}
	model := mustFit(t, "greedytl-sp:gamma=0", c)
	for _, col := range rootModel(t, model).Selected {
		if col.Kind == greedytl.Feature {
			t.Errorf("γ = 0 selected %v", col)
		}
	}
	if model.Hyperparameters()["gamma"] != 0 || model.Method() != "greedytl-sp:gamma=0" {
		t.Errorf("γ = 0 model: %s %v", model.Method(), model.Hyperparameters())
	}
}

// greedytl-59 is seeded by Extra.Seed: the same seed gives the same model,
// and the seeds give different searches.
func TestGreedy59Seed(t *testing.T) {
	c := newConformanceCase(8, 20, 6, 40, 400)
	meth, _ := New("greedytl-59")
	paths := map[string]bool{}
	for seed := uint64(1); seed <= 5; seed++ {
		c.extra.Seed = seed
		m1, err := meth.Fit(context.Background(), c.train, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		m2, _ := meth.Fit(context.Background(), c.train, c.extra)
		r1, r2 := rootModel(t, m1), rootModel(t, m2)
		if r1.Options.Seed != seed {
			t.Errorf("model records seed %d, want %d", r1.Options.Seed, seed)
		}
		if !slices.Equal(r1.Selected, r2.Selected) {
			t.Errorf("seed %d: two fits selected %v and %v", seed, r1.Selected, r2.Selected)
		}
		paths[columnsKey(r1.Selected)] = true
	}
	if len(paths) < 2 {
		t.Error("five seeds gave the same randomised search")
	}
}

// A GreedyTL variant records Extra.Seed in its model's options where it
// draws (a sample of fewer than the candidates: sample=10 of 35), and seed
// 0 where it draws nothing, the exact search and a sample of every
// candidate (greedytl-59 of 35, which recorded the seed), whether
// configured by a spec or by setting Options (whose Seed Fit replaces): so
// that identical fits that draw nothing write identical files, whatever
// Extra.Seed (they recorded it, and wrote different files).
func TestGreedyRecordsSeed(t *testing.T) {
	c := newConformanceCase(8, 20, 6, 5, 30)
	for _, spec := range []string{"greedytl", "greedytl:lambda=10", "greedytl-sp", "greedytl-59", "greedytl:sample=10"} {
		draws := spec == "greedytl:sample=10" // 5 features and 30 sources are 35 candidates
		var files [2]string
		for k, seed := range []uint64{7, 8} {
			meth, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			meth.(*GreedyTL).Options.Seed = 3 // replaced
			extra := c.extra
			extra.Seed = seed
			m, err := meth.Fit(context.Background(), c.train, extra)
			if err != nil {
				t.Fatal(err)
			}
			want := uint64(0)
			if draws {
				want = seed
			}
			if got := rootModel(t, m).Options.Seed; got != want {
				t.Errorf("%s, Extra.Seed %d: model records seed %d, want %d", spec, seed, got, want)
			}
			var buf bytes.Buffer
			if err := Write(&buf, m, FileInfo{}); err != nil {
				t.Fatal(err)
			}
			files[k] = buf.String()
		}
		if files[0] == files[1] == draws {
			t.Errorf("%s: files with Extra.Seed 7 and 8 equal: %v, want %v", spec, files[0] == files[1], !draws)
		}
	}
}

func columnsKey(cols []greedytl.Column) string {
	s := ""
	for _, c := range cols {
		s += c.String() + ";"
	}
	return s
}

// standardizedZ returns the standardised [X, H] of a training sample, as
// the methods see it (X columns first).
func standardizedZ(t *testing.T, d Data) *mat.Dense {
	t.Helper()
	st, err := standardizeData(d)
	if err != nil {
		t.Fatal(err)
	}
	return concatColumns(st.zx, st.zh)
}

// leastSquares returns the minimum-norm least-squares solution of Z_S w ≈ y
// and its residual sum of squares, by SVD.
func leastSquares(t *testing.T, Z *mat.Dense, S []int, y []float64) ([]float64, float64) {
	t.Helper()
	m, _ := Z.Dims()
	A := mat.NewDense(m, len(S), nil)
	for k, j := range S {
		for i := range m {
			A.Set(i, k, Z.At(i, j))
		}
	}
	var svd mat.SVD
	if !svd.Factorize(A, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	var w mat.Dense
	rank := svd.Rank(1e-10)
	svd.SolveTo(&w, mat.NewDense(m, 1, y), rank)
	var r mat.VecDense
	r.MulVec(A, w.ColView(0))
	r.SubVec(mat.NewVecDense(m, y), &r)
	return mat.Col(nil, 0, &w), mat.Dot(&r, &r)
}

// columnIndex returns a greedytl column's index in [X, H] (features first).
func columnIndex(c greedytl.Column, d int) int {
	if c.Kind == greedytl.Source {
		return d + c.Index
	}
	return c.Index
}

// forward-reg against the definition of forward regression: at every step
// the column that most lowers the least-squares residual (any of them when
// several tie, as at the last step of an exact fit), stopping when the mean
// residual drops by less than δ or at m−1 columns; the weights are the
// least-squares ones.
func TestForwardRegBruteForce(t *testing.T) {
	for _, tc := range []struct {
		seed   uint64
		m, pos int
		d, n   int
	}{
		{1, 10, 4, 4, 12},
		{2, 16, 5, 3, 4}, // fewer candidates than m−1
		{3, 12, 2, 6, 20},
		{4, 6, 3, 2, 10},
		{5, 5, 1, 2, 10}, // the cap m−1 = 4 binds
		{6, 8, 2, 1, 2},  // every column selected
	} {
		c := newConformanceCase(tc.seed, tc.m, tc.pos, tc.d, tc.n)
		model := mustFit(t, "forward-reg", c)
		rm := rootModel(t, model)
		Z := standardizedZ(t, c.train)
		_, N := Z.Dims()
		y := c.train.Y
		m := float64(tc.m)
		var S []int
		rss := mat.Dot(mat.NewVecDense(tc.m, y), mat.NewVecDense(tc.m, y))
		for k := 0; ; k++ {
			// The best residual among the candidates for step k.
			best, bestRSS, selRSS := -1, math.Inf(1), math.NaN()
			for j := range N {
				if slices.Contains(S, j) {
					continue
				}
				_, r := leastSquares(t, Z, append(slices.Clone(S), j), y)
				if r < bestRSS {
					best, bestRSS = j, r
				}
				if k < len(rm.Selected) && j == columnIndex(rm.Selected[k], tc.d) {
					selRSS = r
				}
			}
			if k == len(rm.Selected) {
				// Stopped: by the cap, for want of candidates, or by δ.
				if k < tc.m-1 && best >= 0 && (rss-bestRSS)/m >= 1e-4+1e-9 {
					t.Errorf("seed %d: stopped after %d columns, but column %d gains %v ≥ δ", tc.seed, k, best, (rss-bestRSS)/m)
				}
				break
			}
			if k >= tc.m-1 {
				t.Fatalf("seed %d: %d columns selected, at most m−1 = %d allowed", tc.seed, len(rm.Selected), tc.m-1)
			}
			if !(selRSS <= bestRSS+1e-9*math.Max(1, bestRSS)) {
				t.Fatalf("seed %d step %d: selected %v with residual %v, column %d has %v", tc.seed, k, rm.Selected[k], selRSS, best, bestRSS)
			}
			if (rss-selRSS)/m < 1e-4-1e-9 {
				t.Errorf("seed %d step %d: added a column gaining only %v < δ", tc.seed, k, (rss-selRSS)/m)
			}
			S, rss = append(S, columnIndex(rm.Selected[k], tc.d)), selRSS
		}
		t.Logf("seed %d: %d columns selected: %v", tc.seed, len(S), S)
		w, _ := leastSquares(t, Z, S, y)
		for k := range w {
			if math.Abs(rm.Weights[k]-w[k]) > 1e-5*math.Max(1, math.Abs(w[k])) {
				t.Errorf("seed %d: weight %d = %v, least squares %v", tc.seed, k, rm.Weights[k], w[k])
			}
		}
		if hp := model.Hyperparameters(); hp["lambda"] != 1e-8*m || hp["max_k"] != m-1 {
			t.Errorf("seed %d: hyperparameters %v", tc.seed, hp)
		}
	}
}

// A label that is exactly the sum of two sources, with copies of them among
// the candidates: forward-reg finds the two (one copy each), fits exactly and
// stops; no NaN anywhere.
func TestForwardRegDuplicatedColumns(t *testing.T) {
	const m = 14
	rng := rand.New(rand.NewPCG(9, 9))
	y := make([]float64, m)
	H := mat.NewDense(m, 6, nil)
	X := mat.NewDense(m, 3, nil)
	for i := range m {
		y[i] = -1
		if i < 4 {
			y[i] = 1
		}
		h0 := y[i] + rng.NormFloat64()
		H.SetRow(i, []float64{h0, rng.NormFloat64(), h0, y[i] - h0 + 3, 5 * h0, -(y[i] - h0)})
		X.SetRow(i, []float64{rng.NormFloat64(), 2 * h0, rng.NormFloat64()})
	}
	model, err := fitCase(t, "forward-reg", conformanceCase{train: Data{X: X, H: H, Y: y}})
	if err != nil {
		t.Fatal(err)
	}
	rm := rootModel(t, model)
	if len(rm.Selected) != 2 {
		t.Fatalf("selected %v, want one copy of h0 and one of y − h0", rm.Selected)
	}
	copiesOfH0 := []greedytl.Column{{Kind: greedytl.Source, Index: 0}, {Kind: greedytl.Source, Index: 2},
		{Kind: greedytl.Source, Index: 4}, {Kind: greedytl.Feature, Index: 1}}
	copiesOfRest := []greedytl.Column{{Kind: greedytl.Source, Index: 3}, {Kind: greedytl.Source, Index: 5}}
	a, b := rm.Selected[0], rm.Selected[1]
	if !(slices.Contains(copiesOfH0, a) && slices.Contains(copiesOfRest, b) || slices.Contains(copiesOfH0, b) && slices.Contains(copiesOfRest, a)) {
		t.Errorf("selected %v", rm.Selected)
	}
	f, err := model.Predict(Data{X: X, H: H})
	if err != nil {
		t.Fatal(err)
	}
	// The centred columns span y − ȳ, which is then fitted exactly (up to
	// λ = 1e-8·m).
	ybar := (4.0 - 10) / 14
	for i := range f {
		if math.Abs(f[i]-(y[i]-ybar)) > 1e-6 {
			t.Fatalf("training row %d: f = %v, want y − ȳ = %v", i, f[i], y[i]-ybar)
		}
	}
}

// A GreedyTL method whose options are set directly is named by them, and
// its model file reads back (issue: method.New("greedytl") with
// Options.Sample = 59 wrote a file that ReadModel refused).
func TestGreedyOptionsSetDirectlyRoundTrip(t *testing.T) {
	c := newConformanceCase(23, 16, 5, 4, 6)
	for _, tc := range []struct {
		spec string
		set  func(o *greedytl.Options)
		want string
	}{
		{"greedytl", func(o *greedytl.Options) { o.Sample = 59 }, "greedytl:sample=59"},
		{"greedytl-59", func(o *greedytl.Options) { o.Sample = 0 }, "greedytl-59:sample=0"},
		{"greedytl:lambda=10", func(o *greedytl.Options) { o.Lambda = 5 }, "greedytl:lambda=5"},
		{"greedytl-sp", func(o *greedytl.Options) { o.FeatureFactor = 1 }, "greedytl-sp:gamma=1"},
		{"greedytl-sp:gamma=0.25", func(o *greedytl.Options) { o.AutoLambda = true }, "greedytl-sp:auto_lambda=1,gamma=0.25"},
		{"greedytl", func(o *greedytl.Options) { o.MaxK, o.StopAtMinLOO = 2, true }, "greedytl:max_k=2,stop_at_min_loo=1"},
	} {
		m, err := New(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		tc.set(&m.(*GreedyTL).Options)
		if m.Name() != tc.want {
			t.Errorf("%s with options set: name %q, want %q", tc.spec, m.Name(), tc.want)
		}
		model, err := m.Fit(context.Background(), c.train, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteModel(&buf, model); err != nil {
			t.Fatal(err)
		}
		back, err := ReadModel(&buf)
		if err != nil {
			t.Errorf("%s: %v", tc.want, err)
			continue
		}
		if back.Method() != tc.want {
			t.Errorf("read back as %q, want %q", back.Method(), tc.want)
		}
		// The canonical name configures the same options.
		again, err := New(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		o, want := again.(*GreedyTL).Options, m.(*GreedyTL).Options
		o.Lambda, want.Lambda = 0, 0 // with auto_lambda λ is not a setting
		if o != want && !want.AutoLambda {
			t.Errorf("New(%q) options %+v, want %+v", tc.want, o, want)
		}
	}
}

// Write refuses, writing nothing, a GreedyTL model under a name that Read
// refuses for its options (a GreedyTL whose Base or Defaults are not a
// registration's), with Read's error: the name is checked as decoding
// checks it, by the registration the name's base names. The same file
// written by the root package's Model.Write, which cannot know a
// variant's defaults, is refused by Read with that error.
func TestWriteRefusesANameReadRefuses(t *testing.T) {
	c := newConformanceCase(23, 16, 5, 4, 6)
	def := greedytl.DefaultOptions()
	maxK, sampled := def, def
	maxK.MaxK = 3
	sampled.Sample = 5
	for _, tc := range []struct {
		g    GreedyTL
		want string
	}{
		{GreedyTL{Base: "greedytl:lambda=1", Defaults: def, Options: def}, `method "greedytl:lambda=1" does not match the options, which make "greedytl"`},
		{GreedyTL{Base: "greedytl", Defaults: maxK, Options: maxK}, `method "greedytl" does not match the options, which make "greedytl:max_k=3"`},
		{GreedyTL{Base: "greedytl", Defaults: sampled, Options: sampled}, `method "greedytl" does not match the options, which make "greedytl:sample=5"`},
		{GreedyTL{Base: "greedytl-sp", Defaults: def, Options: def}, `method "greedytl-sp" does not match the options, which make "greedytl-sp:gamma=1"`},
		{GreedyTL{Base: "no-transfer", Defaults: def, Options: def}, `no-transfer`},
		{GreedyTL{Base: "nonesuch", Defaults: def, Options: def}, `unknown method "nonesuch"`},
	} {
		model, err := tc.g.Fit(context.Background(), c.train, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		name := model.Method()
		var buf bytes.Buffer
		err = Write(&buf, model, FileInfo{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Write: %v, want an error saying %q", name, err, tc.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: Write wrote %d bytes", name, buf.Len())
		}
		// Read refuses the file written without the check.
		buf.Reset()
		if err := rootModel(t, model).Write(&buf, modelfile.NewHeader(name, nil, nil)); err != nil {
			t.Fatalf("%s: greedytl.Model.Write: %v", name, err)
		}
		if _, err := Read(&buf); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Read: %v, want an error saying %q", name, err, tc.want)
		}
	}
	// A name Read takes is written and read back.
	for _, spec := range []string{"greedytl", "greedytl:max_k=3", "greedytl-59", "greedytl-sp:gamma=1", "forward-reg"} {
		model := mustFit(t, spec, c)
		var buf bytes.Buffer
		if err := Write(&buf, model, FileInfo{}); err != nil {
			t.Errorf("%s: Write: %v", spec, err)
			continue
		}
		if f, err := Read(&buf); err != nil || f.Model.Method() != spec {
			t.Errorf("%s: Read: %v, %v", spec, f.Model, err)
		}
	}
}
