package method

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/linear"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// TestGreedyAutoIsTheMeanOfItsMembers checks greedytl-auto's committee
// (SingleFit) against its definition: its scores are the mean of the
// scores of the methods greedytl (γ = 1), greedytl-sp (γ = 0.5) and
// rls-srcfeat fitted on the same sample and of the ordinary least-squares
// line (gonum's stat.LinearRegression) of the training labels on the score
// of the source bestOrderingSource chooses by brute force — with only the
// members that exist without sources or without features.
func TestGreedyAutoIsTheMeanOfItsMembers(t *testing.T) {
	base := newConformanceCase(21, 20, 5, 12, 9)
	noFeatures := base.mapColumns(func(*mat.Dense) *mat.Dense { return nil }, identity)
	const sourceLine = "OLS on the best-ordering source"
	for _, tc := range []struct {
		what    string
		c       conformanceCase
		members []string
	}{
		{"features and sources", base, []string{"greedytl", "greedytl-sp", sourceLine, "rls-srcfeat"}},
		{"two positives", newConformanceCase(22, 12, 2, 30, 40), []string{"greedytl", "greedytl-sp", sourceLine, "rls-srcfeat"}},
		{"a single positive", newConformanceCase(23, 11, 1, 8, 6), []string{"greedytl", "greedytl-sp", sourceLine, "rls-srcfeat"}},
		{"no sources", base.withoutSources(), []string{"greedytl", "rls-srcfeat"}},
		{"no features", noFeatures, []string{"greedytl", sourceLine, "rls-srcfeat"}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			single := newGreedyAuto()
			single.SingleFit = true
			auto, err := single.Fit(context.Background(), tc.c.train, tc.c.extra)
			if err != nil {
				t.Fatal(err)
			}
			got := mustPredict(t, auto, tc.c.test)
			want := make([]float64, len(got))
			for _, name := range tc.members {
				var f []float64
				if name == sourceLine {
					j := bestOrderingSource(t, tc.c.train)
					h := mat.Col(nil, j, tc.c.train.H)
					b, a := stat.LinearRegression(h, tc.c.train.Y, nil, false)
					f = mat.Col(nil, j, tc.c.test.H)
					for i, v := range f {
						f[i] = a*v + b
					}
					if hp := auto.Hyperparameters(); hp["source"] != float64(j) {
						t.Errorf("source = %v, want %d", hp["source"], j)
					}
				} else {
					f = mustPredict(t, mustFit(t, name, tc.c), tc.c.test)
				}
				for i, v := range f {
					want[i] += v / float64(len(tc.members))
				}
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-10*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("score %d: %v, the mean of %v gives %v", i, got[i], tc.members, want[i])
				}
			}
			hp := auto.Hyperparameters()
			if hp["members"] != float64(len(tc.members)) {
				t.Errorf("members = %v, want %d", hp["members"], len(tc.members))
			}
			if hp["fits"] != 1 {
				t.Errorf("fits = %v, want 1", hp["fits"])
			}
		})
	}
}

// bestOrderingSource is the source member's definition, by brute force:
// among the sources with the highest training AUC (the share of
// (positive, negative) pairs scored higher, ties counting one half) the
// one logme-source chooses when given only those.
func bestOrderingSource(t *testing.T, train Data) int {
	t.Helper()
	m, n := train.H.Dims()
	aucs := make([]float64, n)
	for j := range n {
		var pairs, good float64
		for p := range m {
			for q := range m {
				if train.Y[p] > 0 && train.Y[q] < 0 {
					pairs++
					switch a, b := train.H.At(p, j), train.H.At(q, j); {
					case a > b:
						good++
					case a == b:
						good += 0.5
					}
				}
			}
		}
		aucs[j] = good / pairs
	}
	top := slices.Max(aucs)
	var tied []int
	for j, v := range aucs {
		if v == top {
			tied = append(tied, j)
		}
	}
	sub := mat.NewDense(m, len(tied), nil)
	for k, j := range tied {
		sub.SetCol(k, mat.Col(nil, j, train.H))
	}
	c := conformanceCase{train: Data{X: train.X, H: sub, Y: train.Y}}
	return tied[int(mustFit(t, "logme-source", c).Hyperparameters()["source"])]
}

// TestGreedyAutoChoosesTheBestOrderingSource checks the source member's
// choice on hand-made scores: ordering the training examples comes first,
// LogME evidence only breaks ties.
func TestGreedyAutoChoosesTheBestOrderingSource(t *testing.T) {
	y := []float64{1, 1, -1, -1, -1, -1}
	for _, tc := range []struct {
		what string
		h    [][]float64 // one row per source
		want int
	}{
		{"the only source that orders every pair", [][]float64{
			{9, 0.5, -1, -1, -1, 1}, // one pair inverted, far apart otherwise
			{1, 0.9, 0.8, 0.7, 0.6, 0.5},
		}, 1},
		{"a tie on order goes to the larger evidence", [][]float64{
			{1, 0.9, 0.8, 0.7, 0.6, 0.5},
			{5, 5.1, -1, -1.1, -0.9, -1},
		}, 1},
		{"the lowest index on a complete tie", [][]float64{
			{5, 5.1, -1, -1.1, -0.9, -1},
			{5, 5.1, -1, -1.1, -0.9, -1},
		}, 0},
		{"a reversed source never wins", [][]float64{
			{-5, -5, 1, 1.1, 0.9, 1},
			{0.2, 0.1, 0, 0.1, -0.1, 0},
		}, 1},
	} {
		t.Run(tc.what, func(t *testing.T) {
			h := mat.NewDense(len(y), len(tc.h), nil)
			for j, col := range tc.h {
				h.SetCol(j, col)
			}
			st, err := standardizeData(Data{H: h, Y: y})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := chooseSource(context.Background(), st.zh, y, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("chose source %d, want %d", got, tc.want)
			}
			if brute := bestOrderingSource(t, Data{H: h, Y: y}); brute != tc.want {
				t.Errorf("the brute-force definition chooses %d, want %d", brute, tc.want)
			}
		})
	}
}

// TestGreedyAutoAveragesOverSubsamples checks greedytl-auto against its
// definition: its scores are the mean of the scores of the committee
// fitted on the whole sample (SingleFit) and on each subsample without one
// example of the larger class — the negatives when there are fewer
// positives or as many, the positives when there are more — or, when that
// class has more than 10 examples, without each of 10 interleaved folds of
// it, taken in the order of the FNV-1a hashes of the rows' values; with
// fewer than 4 examples in that class there is no subsample (one would
// keep fewer than 3 of them: 1 positive against 2 or 3 negatives is fitted
// once, as SingleFit). A subsample's committee is SingleFit's on the subsample but for its ridge
// member (rls-srcfeat's there), which is sharedRidge: ridge at the whole
// sample's λ on the whole sample's standardised columns.
func TestGreedyAutoAveragesOverSubsamples(t *testing.T) {
	flip := func(c conformanceCase) conformanceCase {
		c.train.Y = slices.Clone(c.train.Y)
		for i := range c.train.Y {
			c.train.Y[i] = -c.train.Y[i]
		}
		return c
	}
	for _, tc := range []struct {
		what string
		c    conformanceCase
	}{
		{"two positives", newConformanceCase(41, 12, 2, 30, 40)},
		{"as many positives as negatives", newConformanceCase(42, 12, 6, 10, 8)},
		{"more positives than negatives", flip(newConformanceCase(43, 11, 3, 10, 8))},
		{"no sources", newConformanceCase(44, 10, 3, 12, 5).withoutSources()},
		{"more than 10 negatives: 10 folds", newConformanceCase(45, 26, 3, 10, 8)},
		{"one example of each class: no subsample", newConformanceCase(46, 2, 1, 6, 4)},
		{"one positive, two negatives: no subsample", newConformanceCase(49, 3, 1, 6, 4)},
		{"one positive, three negatives: no subsample", newConformanceCase(50, 4, 1, 6, 4)},
		{"two of each class: no subsample", newConformanceCase(51, 4, 2, 6, 4)},
		{"one positive, four negatives: four subsamples", newConformanceCase(52, 5, 1, 6, 4)},
		{"more positives than negatives, three of them: no subsample", flip(newConformanceCase(53, 5, 2, 6, 4))},
		{"committees fitted in parallel (m·N ≥ parallel.MinWork)", newConformanceCase(48, 40, 5, 2400, 200)},
	} {
		t.Run(tc.what, func(t *testing.T) {
			m, d, n, _ := checkTrain(tc.c.train)
			if testing.Short() && m*(d+n) >= parallel.MinWork {
				t.Skip("a few seconds: not with -short")
			}
			auto := mustFit(t, "greedytl-auto", tc.c)
			got := mustPredict(t, auto, tc.c.test)
			pos, neg := classRows(tc.c.train.Y)
			left := neg
			if len(pos) > len(neg) {
				left = pos
			}
			single := newGreedyAuto()
			single.SingleFit = true
			want := make([]float64, len(got))
			samples := [][]int{nil} // nil: the whole sample
			k := min(len(left), 10)
			if len(left) < 4 {
				// A subsample would keep fewer than 3 examples of the
				// class (with one of each class it would lack a class).
				k = 0
			}
			if len(left) > 10 {
				left = hashOrder(tc.c.train, left)
			}
			for f := range k {
				var rows []int
				for r := range tc.c.train.Y {
					at := slices.Index(left, r)
					if at < 0 || at%k != f {
						rows = append(rows, r)
					}
				}
				samples = append(samples, rows)
			}
			if len(left) > 10 && len(samples[1]) != len(tc.c.train.Y)-(len(left)+9)/10 {
				t.Fatalf("the first fold leaves out %d rows", len(tc.c.train.Y)-len(samples[1]))
			}
			hp := auto.Hyperparameters()
			members := hp["members"]
			for _, rows := range samples {
				train := tc.c.train
				if rows != nil {
					train = selectRows(train, rows)
				}
				model, err := single.Fit(context.Background(), train, tc.c.extra)
				if err != nil {
					t.Fatal(err)
				}
				f := mustPredict(t, model, tc.c.test)
				if rows != nil {
					sub := tc.c
					sub.train = train
					own := mustPredict(t, mustFit(t, "rls-srcfeat", sub), tc.c.test)
					shared := sharedRidge(t, tc.c.train, rows, hp["ridge_lambda"], tc.c.test)
					for i := range f {
						f[i] += (shared[i] - own[i]) / members
					}
				}
				for i, v := range f {
					want[i] += v / float64(len(samples))
				}
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("score %d: %v, the mean over %d subsamples gives %v", i, got[i], len(samples), want[i])
				}
			}
			if f := auto.Hyperparameters()["fits"]; f != float64(len(samples)) {
				t.Errorf("fits = %v, want %d", f, len(samples))
			}
		})
	}
}

// sharedRidge is the ridge member of a subsample by its definition: the
// training sample's standardised columns z = [x, h] (standardizeData) on
// the subsample's rows, centred on them (mean z̄), w solving the normal
// equations (ZᵀZ + λI)w = Zᵀy of those rows; it returns w·(z − z̄) on the
// rows of test.
func sharedRidge(t *testing.T, train Data, rows []int, lambda float64, test Data) []float64 {
	t.Helper()
	st, err := standardizeData(train)
	if err != nil {
		t.Fatal(err)
	}
	z := concatColumns(st.zx, st.zh)
	_, cols := z.Dims()
	zs := mat.NewDense(len(rows), cols, nil)
	ys := make([]float64, len(rows))
	mean := make([]float64, cols)
	for k, r := range rows {
		zs.SetRow(k, z.RawRowView(r))
		ys[k] = train.Y[r]
		for j, v := range z.RawRowView(r) {
			mean[j] += v / float64(len(rows))
		}
	}
	for k := range rows {
		for j := range cols {
			zs.Set(k, j, zs.At(k, j)-mean[j])
		}
	}
	w := directRidge(t, zs, ys, lambda)
	tx, err := st.sx.Transform(test.X)
	if err != nil {
		t.Fatal(err)
	}
	th, err := st.sh.Transform(test.H)
	if err != nil {
		t.Fatal(err)
	}
	tz := concatColumns(tx, th)
	out := make([]float64, len(test.Y))
	for i := range out {
		for j, v := range tz.RawRowView(i) {
			out[i] += w[j] * (v - mean[j])
		}
	}
	return out
}

// TestGreedyAutoChecksSettings checks that invalid member settings are
// errors, not panics or silent defaults.
func TestGreedyAutoChecksSettings(t *testing.T) {
	c := newConformanceCase(5, 16, 4, 4, 4)
	for _, tc := range []struct {
		what string
		a    *GreedyAuto
	}{
		{"no γ", &GreedyAuto{Options: greedytl.DefaultOptions()}},
		{"negative γ", &GreedyAuto{Gammas: []float64{-1}, Options: greedytl.DefaultOptions()}},
		{"NaN γ", &GreedyAuto{Gammas: []float64{math.NaN()}, Options: greedytl.DefaultOptions()}},
		{"sampled search", &GreedyAuto{Gammas: []float64{1}, Options: func() greedytl.Options {
			o := greedytl.DefaultOptions()
			o.Sample = 59
			return o
		}()}},
		{"λ = 0", &GreedyAuto{Gammas: []float64{1}, Options: greedytl.Options{Delta: 1e-4, FeatureFactor: 1}}},
	} {
		if _, err := tc.a.Fit(context.Background(), c.train, c.extra); err == nil {
			t.Errorf("%s: no error", tc.what)
		}
	}
}

// TestGreedyAutoSpec: greedytl-auto's one setting, single_fit (0 or 1),
// selects SingleFit and names the method; the model file of a single fit
// reads back under that name and predicts the same; other keys and values
// are rejected.
func TestGreedyAutoSpec(t *testing.T) {
	c := newConformanceCase(47, 12, 2, 10, 6)
	for _, tc := range []struct {
		spec, name string
		single     bool
		fits       float64
		bad        bool
	}{
		{"greedytl-auto", "greedytl-auto", false, 11, false},
		{"greedytl-auto:single_fit=0", "greedytl-auto", false, 11, false},
		{"greedytl-auto:single_fit=1", "greedytl-auto:single_fit=1", true, 1, false},
		{"greedytl-auto:single_fit=2", "", false, 0, true},
		{"greedytl-auto:gamma=1", "", false, 0, true},
	} {
		meth, err := New(tc.spec)
		if tc.bad {
			if err == nil {
				t.Errorf("%s: no error", tc.spec)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if a := meth.(*GreedyAuto); a.Name() != tc.name || a.SingleFit != tc.single {
			t.Errorf("%s: name %q, SingleFit %v; want %q, %v", tc.spec, a.Name(), a.SingleFit, tc.name, tc.single)
		}
		model, err := meth.Fit(context.Background(), c.train, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		if got := model.Hyperparameters()["fits"]; got != tc.fits {
			t.Errorf("%s: fits = %v, want %v (10 negatives)", tc.spec, got, tc.fits)
		}
		var buf bytes.Buffer
		if err := WriteFile(&buf, model, nil); err != nil {
			t.Fatal(err)
		}
		back, err := ReadModel(&buf)
		if err != nil {
			t.Fatalf("%s: reading its file: %v", tc.spec, err)
		}
		if back.Method() != tc.name {
			t.Errorf("%s: the file reads back as %q", tc.spec, back.Method())
		}
		if !slices.Equal(mustPredict(t, back, c.test), mustPredict(t, model, c.test)) {
			t.Errorf("%s: the model read back predicts differently", tc.spec)
		}
	}
}

// hashOrder returns rows sorted by the 64-bit FNV-1a hash (hash/fnv) of
// the little-endian bits of each row's features (−0 read as +0), ties (rows without
// features) broken by the rows' source scores in column order.
func hashOrder(train Data, rows []int) []int {
	_, d := dims(train.X)
	_, n := dims(train.H)
	key := func(r int) uint64 {
		h := fnv.New64a()
		for j := range d {
			var b [8]byte
			v := train.X.At(r, j)
			if v == 0 {
				v = 0
			}
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
		return h.Sum64()
	}
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b int) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		for j := range n {
			if c := cmp.Compare(train.H.At(a, j), train.H.At(b, j)); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

// TestGreedyAutoSourceScoresRounding: source scores that differ in their
// last bit (as greedytl's and NumPy's scores of the same sources do) give
// nearly the same model — the subsamples' folds do not move (a hash of the
// scores in the row order moved them, and the scores by about 1 %).
func TestGreedyAutoSourceScoresRounding(t *testing.T) {
	c := newConformanceCase(52, 30, 5, 12, 8)
	want := mustPredict(t, mustFit(t, "greedytl-auto", c), c.test)
	h := mat.DenseCopyOf(c.train.H)
	raw := h.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = math.Nextafter(raw.Data[i], math.Inf(1))
	}
	nudged := c
	nudged.train.H = h
	got := mustPredict(t, mustFit(t, "greedytl-auto", nudged), c.test)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
			t.Fatalf("score %d: %v with the source scores one ulp up, %v without", i, got[i], want[i])
		}
	}
}

// TestGreedyAutoIgnoresRowOrder: permuting the training rows gives the
// same model, bit for bit (Fit reads them in content order) — with more than 10 examples of the larger
// class too, where the subsamples leave out folds of it (issue 16: folds
// taken by position flipped predictions).
func TestGreedyAutoIgnoresRowOrder(t *testing.T) {
	for _, tc := range []struct {
		what string
		c    conformanceCase
	}{
		{"10 negatives", newConformanceCase(51, 13, 3, 12, 8)},
		{"25 negatives", newConformanceCase(52, 30, 5, 12, 8)},
		{"40 negatives, no sources", newConformanceCase(53, 44, 4, 10, 3).withoutSources()},
	} {
		t.Run(tc.what, func(t *testing.T) {
			want := mustPredict(t, mustFit(t, "greedytl-auto", tc.c), tc.c.test)
			perm := rand.New(rand.NewPCG(7, 7)).Perm(len(tc.c.train.Y))
			c := tc.c
			c.train = selectRows(tc.c.train, perm)
			got := mustPredict(t, mustFit(t, "greedytl-auto", c), c.test)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("score %d: %v with the rows permuted, %v without", i, got[i], want[i])
				}
			}
		})
	}
}

// TestGreedyAutoIgnoresSignOfZero: features equal as numbers give the same
// model whatever the sign of their zeros (−0 and +0 compare equal, and a
// scaling by −1 writes −0 where another route writes +0): the content
// order's hash reads −0 as +0, as its tie-break compares it.
func TestGreedyAutoIgnoresSignOfZero(t *testing.T) {
	c := newConformanceCase(52, 30, 5, 12, 8)
	withZeros := func(z float64) conformanceCase {
		x := mat.DenseCopyOf(c.train.X)
		for r := 6; r < 24; r++ {
			x.Set(r, 2, z)
		}
		out := c
		out.train.X = x
		return out
	}
	want := mustPredict(t, mustFit(t, "greedytl-auto", withZeros(0)), c.test)
	got := mustPredict(t, mustFit(t, "greedytl-auto", withZeros(math.Copysign(0, -1))), c.test)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("score %d: %v with −0 in the features, %v with +0", i, got[i], want[i])
		}
	}
}

// TestOrderedPairsCountsEveryPair: pairCounter.count, its buffers reused
// from trial to trial, is the count over every
// (positive, negative) pair — 2 when the positive scores higher, 1 on a
// tie — on scores with many ties and without.
func TestOrderedPairsCountsEveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var pc pairCounter
	for trial := range 200 {
		m := 2 + rng.IntN(40)
		levels := 1 + rng.IntN(8) // few levels: many ties
		if trial%2 == 0 {
			levels = 1 << 30
		}
		col := make([]float64, m)
		y := make([]float64, m)
		for i := range m {
			col[i] = float64(rng.IntN(levels)) - float64(levels)/2
			y[i] = -1
			if rng.IntN(3) == 0 || i == 0 {
				y[i] = 1
			}
		}
		y[m-1] = -1
		pos, neg := classRows(y)
		want := 0
		for _, p := range pos {
			for _, q := range neg {
				switch {
				case col[p] > col[q]:
					want += 2
				case col[p] == col[q]:
					want++
				}
			}
		}
		if got := pc.count(col, pos, neg); got != want {
			t.Fatalf("trial %d: %d, want %d (col %v, y %v)", trial, got, want, col, y)
		}
	}
}

// TestGreedyAutoSharedGram: with more rows than columns, and with up to
// gramMaxRatio times as many columns as rows, greedytl-auto fits its
// GreedyTL members on cross-products shared by the committees
// (greedytl.Gram); the model must be the one it fits with greedytl.Fit on
// every subsample — the same columns chosen by every committee (the
// tally), the same paths, and weights within 1e-8 — and, as on the other
// route, the same bit for bit whatever the order of the rows. The second
// shape, 150 rows of 250 columns, took greedytl.Fit's route before the
// rule allowed N > m.
func TestGreedyAutoSharedGram(t *testing.T) {
	for _, c := range []struct{ m, d, n int }{{300, 120, 30}, {150, 200, 50}} {
		t.Run(fmt.Sprintf("m=%d/N=%d", c.m, c.d+c.n), func(t *testing.T) {
			testSharedGramRoute(t, c.m, c.d, c.n)
		})
	}
}

// testSharedGramRoute is TestGreedyAutoSharedGram on clustered data of m
// rows, d features and n sources.
func testSharedGramRoute(t *testing.T, m, d, n int) {
	defer func(r int) { gramRoute = r }(gramRoute)
	train := clusteredProblem(rand.New(rand.NewPCG(16, uint64(m))), m, d, n)
	if !sharedGram(m, d+n) {
		t.Fatalf("sharedGram is off for %d rows of %d columns: the test checks nothing", m, d+n)
	}
	fit := func() *AutoModel {
		mod, err := newGreedyAuto().Fit(context.Background(), train, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		return mod.(*AutoModel)
	}
	gramRoute = gramAlways // the shared route, whatever the probe would choose
	got := fit()
	gramRoute = gramNever
	want := fit()
	gramRoute = gramAuto
	if got.Hyper["fits"] != 11 {
		t.Fatalf("%v committees, want 11", got.Hyper["fits"])
	}
	gc, wc := got.Committee, want.Committee
	if !reflect.DeepEqual(gc.Tally, wc.Tally) || !reflect.DeepEqual(gc.Source, wc.Source) || len(gc.Greedy) != len(wc.Greedy) {
		t.Fatalf("committees differ: tally %v\nwith greedytl.Fit: %v", gc.Tally, wc.Tally)
	}
	steps := 0
	for k, g := range gc.Greedy {
		w := wc.Greedy[k]
		if len(g.Path) != len(w.Path) {
			t.Fatalf("member %d: %d steps, %d with greedytl.Fit", k, len(g.Path), len(w.Path))
		}
		for j, s := range g.Path {
			ws := w.Path[j]
			steps++
			if s.Column != ws.Column || !(math.Abs(s.Weight-ws.Weight) <= 1e-8) || !(math.Abs(s.RegError-ws.RegError) <= 1e-8) || !(math.Abs(s.LOOError-ws.LOOError) <= 1e-8) {
				t.Errorf("member %d step %d: %+v, with greedytl.Fit %+v", k, j, s, ws)
			}
		}
	}
	if steps < 10 {
		t.Fatalf("%d steps in all: the test checks little", steps)
	}
	near := func(what string, a, b []float64) {
		for j := range b {
			if !(math.Abs(a[j]-b[j]) <= 1e-8) {
				t.Errorf("%s %d: %v, with greedytl.Fit %v", what, j, a[j], b[j])
			}
		}
	}
	near("feature weight", got.WX, want.WX)
	near("source weight", got.WH, want.WH)
	near("intercept", []float64{got.B}, []float64{want.B})
	// The model is a function of the set of rows on this route too.
	perm := selectRows(train, rand.New(rand.NewPCG(7, 7)).Perm(len(train.Y)))
	permuted, err := newGreedyAuto().Fit(context.Background(), perm, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	p, q := mustPredict(t, got, train), mustPredict(t, permuted, train)
	for i := range p {
		if p[i] != q[i] {
			t.Fatalf("score %d: %v with the rows permuted, %v without", i, q[i], p[i])
		}
	}
}

// TestRidgeLambdaSample checks ridgeLambdaSample against its definition:
// all rows (nil) up to the limit; above it, the smaller class whole up to
// half the limit and the larger class for the rest, evenly spaced in the
// given order, sorted.
func TestRidgeLambdaSample(t *testing.T) {
	labels := func(pos, neg int) []float64 { // the positives spread out
		y := make([]float64, pos+neg)
		for i := range y {
			y[i] = -1
			if i*pos%(pos+neg) < pos {
				y[i] = 1
			}
		}
		return y
	}
	for _, tc := range []struct {
		pos, neg, limit  int
		wantPos, wantNeg int // 0, 0: all rows
	}{
		{10, 90, 100, 0, 0},
		{10, 490, 500, 0, 0},
		{36, 1964, 500, 36, 464},
		{200, 1800, 500, 200, 300},
		{400, 1600, 500, 250, 250},
		{1, 1999, 500, 1, 499},
		{1000, 1000, 500, 250, 250},
		{1500, 600, 500, 250, 250}, // more positives than negatives
		{1800, 300, 500, 250, 250},
		{1900, 200, 500, 300, 200},
	} {
		y := labels(tc.pos, tc.neg)
		if countPos(y) != tc.pos || len(y) != tc.pos+tc.neg {
			t.Fatalf("labels(%d, %d): %d positives of %d", tc.pos, tc.neg, countPos(y), len(y))
		}
		rows := ridgeLambdaSample(y, tc.limit)
		if tc.wantPos == 0 {
			if rows != nil {
				t.Errorf("%d + %d rows, limit %d: %d rows, want all (nil)", tc.pos, tc.neg, tc.limit, len(rows))
			}
			continue
		}
		pos, neg := classRows(y)
		var want []int
		for _, c := range []struct {
			rows []int
			k    int
		}{{pos, tc.wantPos}, {neg, tc.wantNeg}} {
			if c.k > len(c.rows) {
				t.Fatalf("%d + %d rows: the case wants %d of %d", tc.pos, tc.neg, c.k, len(c.rows))
			}
			for j := range c.k {
				want = append(want, c.rows[j*len(c.rows)/c.k])
			}
		}
		slices.Sort(want)
		if !slices.Equal(rows, want) {
			t.Errorf("%d + %d rows, limit %d: %v, want %v", tc.pos, tc.neg, tc.limit, rows, want)
		}
		if len(rows) != tc.limit {
			t.Errorf("%d rows for limit %d", len(rows), tc.limit)
		}
	}
}

func countPos(y []float64) int {
	n := 0
	for _, v := range y {
		if v > 0 {
			n++
		}
	}
	return n
}

// TestRidgeUnbagged checks greedytl-auto's ridge member at more rows than
// columns against its definition: λ is ridgeLambdaByLOO's choice on the
// rows of ridgeLambdaSample, the weights are ridge's at that λ on the whole
// sample's standardised columns (the reference solve of the normal
// equations), the same from a Gram's products as from the columns, and
// Fit records that λ — with N ≤ m and with N > m > ridgeLambdaRows (the
// dual). (TestGreedyAutoSharedGram checks that Fit's model is the same on
// both routes of the cross-products.)
func TestRidgeUnbagged(t *testing.T) {
	ctx := context.Background()
	for _, shape := range []struct{ m, d, n int }{
		{700, 60, 20},  // N ≤ m: from the cross-products
		{600, 700, 20}, // N > m > ridgeLambdaRows: in the dual
	} {
		m, d, n := shape.m, shape.d, shape.n
		train := clusteredProblem(rand.New(rand.NewPCG(16, uint64(m))), m, d, n)
		train, _ = inContentOrder(train, train.Y) // the order Fit reads
		if !unbaggedRidge(m, d+n) || ridgeLambdaSample(train.Y, ridgeLambdaRows) == nil {
			t.Fatalf("m %d, N %d: the sizes do not reach the unbagged member's λ sample: the test checks nothing", m, d+n)
		}
		st, err := standardizeData(train)
		if err != nil {
			t.Fatal(err)
		}
		Z := concatColumns(st.zx, st.zh)
		gram, err := greedytl.NewGram(ctx, train.X, train.H, train.Y)
		if err != nil {
			t.Fatal(err)
		}
		w, lambda, lambdaRows, err := ridgeUnbagged(ctx, Z, train.Y, func() (*greedytl.Gram, error) { return gram, nil })
		if err != nil {
			t.Fatal(err)
		}
		w2, lambda2, _, err := ridgeUnbagged(ctx, Z, train.Y, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := ridgeLambdaSample(train.Y, ridgeLambdaRows)
		sub := selectRows(Data{X: Z, Y: train.Y}, rows)
		_, wantLambda, _, err := ridgeLambdaByLOO(ctx, dense(sub.X), sub.Y, nil)
		if err != nil {
			t.Fatal(err)
		}
		if lambda != wantLambda || lambda2 != wantLambda {
			t.Fatalf("m %d, N %d: λ = %v (%v without the Gram), want %v, chosen on the %d sampled rows", m, d+n, lambda, lambda2, wantLambda, len(rows))
		}
		zc := mat.DenseCopyOf(Z) // centred already: the whole sample's standardisation
		want := directRidge(t, zc, train.Y, lambda)
		for j := range want {
			if math.Abs(w[j]-want[j]) > 1e-9*math.Max(1, math.Abs(want[j])) || math.Abs(w2[j]-want[j]) > 1e-9*math.Max(1, math.Abs(want[j])) {
				t.Fatalf("m %d, N %d: weight %d: %v (%v without the Gram), want %v", m, d+n, j, w[j], w2[j], want[j])
			}
		}
		auto, err := newGreedyAuto().Fit(ctx, train, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		if got := auto.Hyperparameters()["ridge_lambda"]; got != lambda {
			t.Errorf("m %d, N %d: Fit's ridge_lambda %v, want %v", m, d+n, got, lambda)
		}
		if lambdaRows != len(rows) {
			t.Errorf("m %d, N %d: λ chosen on %d rows, ridgeLambdaSample gives %d", m, d+n, lambdaRows, len(rows))
		}
		if r := auto.(*AutoModel).Committee.Ridge; !r.Shared || r.LambdaRows != len(rows) {
			t.Errorf("m %d, N %d: the record's ridge member %+v, want shared with λ on %d rows", m, d+n, r, len(rows))
		}
	}
	// At the paper's sizes the member is bagged, with λ on every row.
	small := newConformanceCase(45, 26, 3, 10, 8)
	mod, err := newGreedyAuto().Fit(ctx, small.train, small.extra)
	if err != nil {
		t.Fatal(err)
	}
	if r := mod.(*AutoModel).Committee.Ridge; r.Shared || r.LambdaRows != 0 {
		t.Errorf("26 rows: the record's ridge member %+v, want it bagged", r)
	}
}

// TestRidgeAtOrAbove: where the whole sample's system is too
// ill-conditioned at the λ chosen on its rows' sample, the ridge member
// takes the smallest larger λ of the grid that solves it, and says so.
func TestRidgeAtOrAbove(t *testing.T) {
	ctx := context.Background()
	// Eigenvalues 1e14 and 0: (1e14 + λ)/λ ≤ 1e12 from λ = 100.000…01 on,
	// 1000 on the grid.
	A := mat.NewSymDense(2, []float64{1e14, 0, 0, 0})
	b := []float64{1e14, 0}
	products := func(A *mat.SymDense) func(float64) ([]float64, error) {
		return func(l float64) ([]float64, error) { return linear.RidgeFromProducts(ctx, A, b, l) }
	}
	for _, tc := range []struct{ lambda, want float64 }{{1e-4, 1000}, {0.5, 1000}, {100, 1000}, {1000, 1000}, {1e4, 1e4}} {
		w, got, err := ridgeAtOrAbove(ctx, tc.lambda, products(A))
		if err != nil || got != tc.want {
			t.Fatalf("λ %g: used %g (%v), want %g", tc.lambda, got, err, tc.want)
		}
		if want := 1e14 / (1e14 + got); math.Abs(w[0]-want) > 1e-12 || w[1] != 0 {
			t.Errorf("λ %g: weights %v, want [%v 0]", tc.lambda, w, want)
		}
	}
	bad := mat.NewSymDense(2, []float64{1e30, 0, 0, 0}) // no λ of the grid
	if _, _, err := ridgeAtOrAbove(ctx, 1e-4, products(bad)); err == nil {
		t.Error("no λ of the grid solves it: no error")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := ridgeAtOrAbove(cancelled, 1e-4, products(A)); err == nil {
		t.Error("cancelled: no error")
	}
}

// TestGreedyAutoGramStopsWithThePool: greedytl-auto's shared cross-products
// are computed with the context of the pool that fits the committees
// (parallel.For's, which the first item that fails cancels, stopping the
// others: internal/parallel's TestForStopsAtFirstError), not with Fit's
// own, which a failing sibling leaves running. On two workers (a problem
// of m·N = MinWork values), NewGram waits for its context while the ridge
// member, item 0 beside it, fails: the context must be cancelled then,
// with that failure as its cause, and Fit return the failure; Fit's own
// context stays live. Before, it was Fit's context: NewGram waited to its
// timeout (as it does with Fit's context wrapped in a WithCancel of Fit's
// own, cancelled as Fit returns, a mutant that passed when this test only
// asked for a context done once Fit had returned).
func TestGreedyAutoGramStopsWithThePool(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(r int, f func(context.Context, mat.Matrix, mat.Matrix, []float64) (*greedytl.Gram, error), l func(context.Context, *mat.Dense, []float64, []float64) (*linear.RidgeLOO, float64, []float64, error)) {
		gramRoute, newGram, ridgeMemberLOO = r, f, l
	}(gramRoute, newGram, ridgeMemberLOO)
	gramRoute = gramAlways
	sibling := errors.New("the ridge member failed")
	waiting := make(chan struct{})
	var (
		calls    int
		timedOut bool
		cause    error
	)
	newGram = func(ctx context.Context, X, H mat.Matrix, y []float64) (*greedytl.Gram, error) {
		calls++ // once: gramOf's sync.Once
		close(waiting)
		select {
		case <-ctx.Done():
			cause = context.Cause(ctx)
		case <-time.After(10 * time.Second):
			timedOut = true
		}
		return greedytl.NewGram(ctx, X, H, y)
	}
	ridgeMemberLOO = func(context.Context, *mat.Dense, []float64, []float64) (*linear.RidgeLOO, float64, []float64, error) {
		select {
		case <-waiting:
		case <-time.After(10 * time.Second):
			return nil, 0, nil, errors.New("NewGram was not called beside the ridge member")
		}
		return nil, 0, nil, sibling
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const m, d, n = 40, 2000, 500
	if parallel.Workers(m*(d+n), 0) != 0 || unbaggedRidge(m, d+n) {
		t.Fatal("the problem should run on GOMAXPROCS workers with a ridge member per committee")
	}
	train := clusteredProblem(rand.New(rand.NewPCG(3, 30)), m, d, n)
	_, err := newGreedyAuto().Fit(ctx, train, Extra{})
	if !errors.Is(err, sibling) {
		t.Errorf("Fit's error %v, want the ridge member's", err)
	}
	if calls != 1 {
		t.Fatalf("NewGram called %d times, want once", calls)
	}
	if timedOut || !errors.Is(cause, sibling) || ctx.Err() != nil {
		t.Errorf("NewGram's context: timed out %v, cause %v; Fit's %v: want the pool's, cancelled by the ridge member's failure, and Fit's live", timedOut, cause, ctx.Err())
	}
}

// TestGreedyAutoCancelledWithACause: a caller's context cancelled with a
// cause of its own while the committees' pool runs (here as the shared
// cross-products are computed) gives Fit's error for any cancellation:
// context.Canceled wrapped, naming the method, as every other method's
// checks give it. Before, the pool's error, ctx's cause, was returned as
// it was ("custom cause", not context.Canceled).
func TestGreedyAutoCancelledWithACause(t *testing.T) {
	defer func(r int, f func(context.Context, mat.Matrix, mat.Matrix, []float64) (*greedytl.Gram, error)) {
		gramRoute, newGram = r, f
	}(gramRoute, newGram)
	gramRoute = gramAlways
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("custom cause")
	newGram = func(gctx context.Context, X, H mat.Matrix, y []float64) (*greedytl.Gram, error) {
		cancel(cause)
		<-gctx.Done()
		return greedytl.NewGram(gctx, X, H, y)
	}
	train := clusteredProblem(rand.New(rand.NewPCG(3, 30)), 40, 8, 4)
	model, err := newGreedyAuto().Fit(ctx, train, Extra{})
	if model != nil || !errors.Is(err, context.Canceled) || errors.Is(err, cause) || !strings.Contains(err.Error(), "greedytl-auto") {
		t.Errorf("error %v (model %v): want context.Canceled, naming greedytl-auto, not the cause", err, model != nil)
	}
}

// TestSharedGramRule pins sharedGram's boundaries: the shared route from
// m·N = gramMinWork on and up to N = gramMaxRatio·m, greedytl.Fit's below
// the floor and beyond the ratio — the paper's sizes (m = 12–30 with
// hundreds or thousands of columns) among them, whose published results
// are greedytl.Fit's bit for bit — whatever the sizes when a test forces
// a route. Before, the rule stopped at N = m: the new-user hunt's 1,000
// rows of 1,100 columns took greedytl.Fit's route, 15–20 times slower.
func TestSharedGramRule(t *testing.T) {
	defer func(r int) { gramRoute = r }(gramRoute)
	for _, tc := range []struct {
		m, N int
		want bool
	}{
		{141, 141, false}, // m·N = 19,881 < gramMinWork
		{142, 142, true},
		{100, 199, false}, // 19,900
		{100, 200, true},  // m·N = gramMinWork, N = 2m
		{101, 203, false}, // N > 2m
		{1000, 1000, true},
		{1000, 1100, true}, // the hunt's shape
		{1000, 2000, true},
		{1000, 2001, false},
		{2000, 3100, true},
		{5000, 1100, true},
		{20000, 1100, true},
		{20, 1000, false}, // the paper's sizes: m·N = gramMinWork, N = 50·m
		{30, 1000, false},
		{12, 3000, false},
		{30, 10000, false},
		{10, 5, false},
	} {
		if got := sharedGram(tc.m, tc.N); got != tc.want {
			t.Errorf("sharedGram(m = %d, N = %d) = %v, want %v", tc.m, tc.N, got, tc.want)
		}
		for route, want := range map[int]bool{gramAlways: true, gramNever: false} {
			gramRoute = route
			if got := sharedGram(tc.m, tc.N); got != want {
				t.Errorf("sharedGram(m = %d, N = %d) = %v with the route forced, want %v", tc.m, tc.N, got, want)
			}
		}
		gramRoute = gramAuto
	}
}

// TestGreedyAutoProbesRoute: with m < N ≤ 2m, where sharedGram allows the
// shared cross-products, greedytl-auto takes them only when its members'
// paths are long enough to pay for them (gramProbeSteps): the whole
// sample's members, probed with greedytl.Fit up to N/16 + 1 steps, stop
// before the cap (δ = 0.01: a few steps each) → greedytl.Fit's route, its
// model bit for bit and no cross-products computed; max_k at most N/16 →
// greedytl.Fit's route without a probe; one member reaches the cap (the
// default δ on the dense signal: hundreds of steps) → the shared route,
// its model bit for bit, the cross-products computed once; and with
// StopAtMinLOO the shared route. Before, every one of these fits took the
// shared route: the first two computed the cross-products, whose fixed
// cost made fits of few steps up to 2.06 times slower.
func TestGreedyAutoProbesRoute(t *testing.T) {
	defer func(r int, f func(context.Context, mat.Matrix, mat.Matrix, []float64) (*greedytl.Gram, error)) {
		gramRoute, newGram = r, f
	}(gramRoute, newGram)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the subsamples' committees wait for the probe
	var calls atomic.Int32
	newGram = func(ctx context.Context, X, H mat.Matrix, y []float64) (*greedytl.Gram, error) {
		calls.Add(1)
		return greedytl.NewGram(ctx, X, H, y)
	}
	const m, d, n = 250, 360, 90 // N = 450 = 1.8m: N/16 = 28
	train := signalProblem(rand.New(rand.NewPCG(16, 250)), m, d, n, d)
	if !sharedGram(m, d+n) || parallel.Workers(m*(d+n), 0) != 0 {
		t.Fatalf("%d rows of %d columns: want the shared route allowed, on GOMAXPROCS workers", m, d+n)
	}
	fit := func(route int, o greedytl.Options) (*AutoModel, int32) {
		gramRoute = route
		calls.Store(0)
		a := newGreedyAuto()
		a.Options = o
		mod, err := a.Fit(context.Background(), train, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		return mod.(*AutoModel), calls.Load()
	}
	short := greedytl.DefaultOptions()
	short.Delta = 0.01
	capped := greedytl.DefaultOptions()
	capped.MaxK = (d + n) / gramBreakEven
	minLOO := greedytl.DefaultOptions()
	minLOO.StopAtMinLOO = true
	for _, tc := range []struct {
		name  string
		o     greedytl.Options
		gram  bool // the shared route
		steps func(k int) bool
	}{
		{"short paths", short, false, func(k int) bool { return k > 0 && k <= (d+n)/gramBreakEven }},
		{"max_k", capped, false, func(k int) bool { return k == capped.MaxK }},
		{"long paths", greedytl.DefaultOptions(), true, func(k int) bool { return k > (d+n)/gramBreakEven }},
		{"StopAtMinLOO", minLOO, true, func(int) bool { return true }},
	} {
		got, gc := fit(gramAuto, tc.o)
		route := gramNever
		if tc.gram {
			route = gramAlways
		}
		want, _ := fit(route, tc.o)
		if wantCalls := map[bool]int32{false: 0, true: 1}[tc.gram]; gc != wantCalls {
			t.Errorf("%s: the cross-products computed %d times, want %d", tc.name, gc, wantCalls)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the model differs from the one of its route (shared %v)", tc.name, tc.gram)
		}
		for i, g := range got.Committee.Greedy {
			if !tc.steps(len(g.Path)) {
				t.Errorf("%s: the whole sample's member %d took %d steps: the case checks another one", tc.name, i, len(g.Path))
			}
		}
	}
}

// TestGreedyAutoProbeIsFit: a probed member (probeMembers) that stops
// before the cap is greedytl.Fit's model without the cap, bit for bit,
// options included; one that reaches it gives no models.
func TestGreedyAutoProbeIsFit(t *testing.T) {
	train := signalProblem(rand.New(rand.NewPCG(16, 60)), 60, 80, 20, 80)
	a := newGreedyAuto()
	a.Options.Delta = 0.01
	pre, err := a.probeMembers(context.Background(), train, 50)
	if err != nil || len(pre) != len(a.Gammas) {
		t.Fatalf("probe: %d models, %v", len(pre), err)
	}
	for i, g := range a.Gammas {
		o := a.Options
		o.FeatureFactor = g
		want, err := greedytl.Fit(context.Background(), train.X, train.H, train.Y, o)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pre[i], want) {
			t.Errorf("γ = %v: the probed model differs from greedytl.Fit's", g)
		}
		if len(want.Selected) == 0 || len(want.Selected) >= 50 {
			t.Fatalf("γ = %v: %d steps: the case checks little", g, len(want.Selected))
		}
	}
	pre, err = a.probeMembers(context.Background(), train, 1)
	if err != nil || pre != nil {
		t.Errorf("probe capped at 1 step: %v, %v; want no models", pre, err)
	}
}

// TestSourceOrderCountsAsPairCounter: the pairs counted in a sourceOrder's
// row order (chooseSource's route with subsamples) are pairCounter.count's
// on the whole sample and on every subsample, each standardised on its own
// rows, on scores with many ties and without, and with values so close
// that a subsample's standardisation ties some of them; and a column that
// decreases along the order is handed back to pairCounter (ok false).
func TestSourceOrderCountsAsPairCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	for trial := range 100 {
		m := 4 + rng.IntN(60)
		n := 1 + rng.IntN(6)
		H := mat.NewDense(m, n, nil)
		y := make([]float64, m)
		for i := range m {
			y[i] = -1
			if rng.IntN(3) == 0 || i == 0 {
				y[i] = 1
			}
			for j := range n {
				switch j % 3 {
				case 0: // few levels: many ties
					H.Set(i, j, float64(rng.IntN(4)))
				case 1:
					H.Set(i, j, rng.NormFloat64())
				default: // 1e8 apart by a few ulps: standardising ties some
					H.Set(i, j, 1e8+float64(rng.IntN(5))*1.5e-8)
				}
			}
		}
		y[m-1] = -1
		keeps := [][]int{nil}
		for _, fold := range majorityFolds(y) {
			keeps = append(keeps, keptRows(m, fold))
		}
		// Both widths of the rows (uint16, uint32) count alike.
		for _, wide := range []bool{false, true} {
			order, err := newSourceOrderWidth(context.Background(), H, wide)
			if err != nil {
				t.Fatal(err)
			}
			if (order.wide != nil) != wide || (order.narrow != nil) == wide {
				t.Fatalf("wide %v: a sourceOrder of %d uint16 and %d uint32 rows", wide, len(order.narrow), len(order.wide))
			}
			checkSourceOrder(t, trial, H, y, order, keeps)
		}
	}
}

// TestChooseSourceFallsBackToPairCounter: chooseSource hands a column
// that decreases somewhere along the sourceOrder (which a standardisation
// of the order's scores cannot give, so that no fit reaches it) to
// pairCounter, and chooses the source and training AUC it chooses without
// an order: here every column of zh is the negated standardised scores of
// the H the order was built from. Without the fallback every column
// would count 0 pairs (an AUC of 0, the choice among all of them).
func TestChooseSourceFallsBackToPairCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 16))
	const m, n = 40, 6
	H := mat.NewDense(m, n, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = -1
		if i%3 == 0 {
			y[i] = 1
		}
		for j := range n {
			H.Set(i, j, rng.NormFloat64()+0.3*float64(j)*y[i])
		}
	}
	order, err := newSourceOrder(context.Background(), H)
	if err != nil {
		t.Fatal(err)
	}
	st, err := standardizeData(Data{H: H, Y: y})
	if err != nil {
		t.Fatal(err)
	}
	zh := mat.DenseCopyOf(st.zh)
	zh.Scale(-1, zh)
	want, wantAUC, err := chooseSource(context.Background(), zh, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, gotAUC, err := chooseSource(context.Background(), zh, y, order, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || gotAUC != wantAUC || gotAUC == 0 {
		t.Errorf("with the order: source %d, AUC %v; want pairCounter's %d, %v (> 0)", got, gotAUC, want, wantAUC)
	}
}

// TestSourceOrderWidth: newSourceOrder holds the rows as uint16 up to
// 65,536 rows (row numbers up to 65,535) and as uint32 above, in the rows'
// order either way; and refuses uint16 for more rows.
func TestSourceOrderWidth(t *testing.T) {
	for _, m := range []int{maxNarrowRows, maxNarrowRows + 1} {
		H := mat.NewDense(m, 1, nil)
		for i := range m {
			H.Set(i, 0, float64(m-1-i)) // decreasing: the order reverses the rows
		}
		o, err := newSourceOrder(context.Background(), H)
		if err != nil {
			t.Fatal(err)
		}
		if wantWide := m > 65536; (o.wide != nil) != wantWide || (o.narrow != nil) == wantWide {
			t.Errorf("%d rows: %d uint16 and %d uint32 rows, want uint32: %v", m, len(o.narrow), len(o.wide), wantWide)
		}
		for k := range m {
			var r int
			if o.wide != nil {
				r = int(o.wide[k])
			} else {
				r = int(o.narrow[k])
			}
			if r != m-1-k {
				t.Fatalf("%d rows: position %d holds row %d, want %d", m, k, r, m-1-k)
			}
		}
	}
	H := mat.NewDense(maxNarrowRows+1, 1, nil)
	if _, err := newSourceOrderWidth(context.Background(), H, false); err == nil {
		t.Errorf("%d rows held as uint16 without an error", maxNarrowRows+1)
	}
}

// checkSourceOrder checks TestSourceOrderCountsAsPairCounter's order of
// H's columns on the whole sample (y) and on the subsamples keeps.
func checkSourceOrder(t *testing.T, trial int, H *mat.Dense, y []float64, order *sourceOrder, keeps [][]int) {
	t.Helper()
	_, n := H.Dims()
	for _, keep := range keeps {
		sample := Data{H: H, Y: y}
		if keep != nil {
			sample = selectRows(sample, keep)
		}
		st, err := standardizeData(sample)
		if err != nil {
			t.Fatal(err)
		}
		pos, neg := classRows(sample.Y)
		w := order.walk(keep, sample.Y)
		var pc pairCounter
		col := make([]float64, len(sample.Y))
		for j := range n {
			mat.Col(col, j, st.zh)
			want := pc.count(col, pos, neg)
			got, ok := w.count(j, col)
			if !ok || got != want {
				t.Fatalf("trial %d, rows %v, column %d: %d (ok %v), want %d", trial, keep, j, got, ok, want)
			}
			if j%3 != 0 || slices.Min(col) == slices.Max(col) {
				continue
			}
			// Reversed, the column decreases along the order.
			for i := range col {
				col[i] = -col[i]
			}
			if _, ok := w.count(j, col); ok {
				t.Fatalf("trial %d, column %d: a decreasing column counted", trial, j)
			}
		}
	}
}
