package greedytl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/standardize"
)

// gramOptions are the options the Gram's fits are checked with: γ = 1 and
// 0.5 (greedytl-auto's members), a cap, the truncation at the lowest LOO
// error and a small δ (long paths), and γ = 0.
func gramOptions() []Options {
	var out []Options
	for _, g := range []float64{1, 0.5} {
		o := DefaultOptions()
		o.FeatureFactor = g
		out = append(out, o)
		capped := o
		capped.MaxK = 7
		out = append(out, capped)
		trunc := o
		trunc.StopAtMinLOO, trunc.Delta = true, 1e-6
		out = append(out, trunc)
	}
	// γ = 0: the sources alone, a fit over some of the Gram's slots.
	o := DefaultOptions()
	o.FeatureFactor = 0
	return append(out, o)
}

// checkGramFit checks that g.Fit(opts) is Fit on the rows rows of (X, H, y):
// the same columns, statistics and options, weights and path within 1e-8.
func checkGramFit(t *testing.T, g *Gram, X, H *mat.Dense, y []float64, rows []int, opts Options) {
	t.Helper()
	ctx := context.Background()
	sx, sh, sy := pickRows(X, seq(0, len(y))), pickRows(H, seq(0, len(y))), y
	if rows != nil {
		sx, sh, sy = pickRows(X, rows), pickRows(H, rows), make([]float64, len(rows))
		for k, r := range rows {
			sy[k] = y[r]
		}
	}
	want, err := Fit(ctx, sx, sh, sy, opts)
	if err != nil {
		t.Fatal(err)
	}
	// g.fit, not g.Fit, which would hide a fallback to Fit.
	if g.fallback {
		t.Fatal("the Gram falls back to Fit")
	}
	got, ok, err := g.fit(ctx, opts, true, "greedytl.Gram.Fit")
	if err != nil || !ok {
		t.Fatalf("the Gram's fit failed (%v) or fell back to Fit", err)
	}
	if !opts.StopAtMinLOO {
		// Without the leave-one-out path: the same model bit for bit but
		// for its NaN LOOError.
		sel, ok, err := g.fit(ctx, opts, false, "greedytl.Gram.FitSelection")
		if err != nil || !ok {
			t.Fatalf("the Gram's fit without LOO failed (%v) or fell back to Fit", err)
		}
		for j := range sel.Path {
			if !math.IsNaN(sel.Path[j].LOOError) {
				t.Fatalf("step %d: LOOError %v without the path, want NaN", j, sel.Path[j].LOOError)
			}
			sel.Path[j].LOOError = got.Path[j].LOOError
		}
		if !reflect.DeepEqual(sel, got) {
			t.Fatalf("without the leave-one-out path:\n%+v\nwith it:\n%+v", sel, got)
		}
	}
	if !slices.Equal(got.Selected, want.Selected) {
		t.Fatalf("γ = %v, max_k %d, stop_at_min_loo %v: selected %v, Fit selected %v", opts.FeatureFactor, opts.MaxK, opts.StopAtMinLOO, got.Selected, want.Selected)
	}
	if len(want.Selected) < 3 {
		t.Fatalf("only %d columns selected: the check is too weak", len(want.Selected))
	}
	if !slices.Equal(got.Mean, want.Mean) || !slices.Equal(got.Scale, want.Scale) || got.Options != want.Options ||
		got.NumFeatures != want.NumFeatures || got.NumSources != want.NumSources {
		t.Fatalf("statistics or options differ: %+v, want %+v", got, want)
	}
	for j := range want.Weights {
		if d := math.Abs(got.Weights[j] - want.Weights[j]); !(d <= 1e-8) {
			t.Errorf("weight %d: %v, Fit %v", j, got.Weights[j], want.Weights[j])
		}
		gs, ws := got.Path[j], want.Path[j]
		if gs.Column != ws.Column || !(math.Abs(gs.RegError-ws.RegError) <= 1e-8) || !(math.Abs(gs.LOOError-ws.LOOError) <= 1e-8) ||
			!(math.Abs(gs.Score-ws.Score) <= 1e-8*float64(len(sy))) {
			t.Errorf("step %d: %+v, Fit %+v", j, gs, ws)
		}
	}
}

// pickRows returns rows rows of A (nil for nil), read as Gram.Subset
// reads them.
func pickRows(A *mat.Dense, rows []int) mat.Matrix {
	if A == nil {
		return nil
	}
	b := newInputMatrix("A", A)
	return gatherRows(&b, rows)
}

// TestGramFit checks Gram.Fit against Fit on random problems with more rows
// than columns, with constant columns, on the whole sample and on subsets
// that leave out a few rows (a downdate) or most of them (recomputed), in
// a shuffled order, and on a subset of a subset, with columns equal on a
// sample or a subset only.
func TestGramFit(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(16, 2))
	const m, d, n = 160, 40, 25
	X, H := randWithConstants(rng, m, d, n, map[Column]float64{{Feature, 3}: 2.5, {Source, 0}: -1})
	// Labels a few columns explain, so that the paths are long and clear.
	y := make([]float64, m)
	for i := range y {
		v := X.At(i, 0) + 0.7*H.At(i, 4) - 0.5*X.At(i, 9) + 0.8*rng.NormFloat64()
		y[i] = math.Copysign(1, v)
	}
	// Equal columns, whose ties Fit breaks towards the lowest candidate:
	// feature 5 is feature 0, source 7 is feature 9, and feature 20 is
	// feature 0 on the rows few keeps only.
	perm := rng.Perm(m)
	few := perm[:m-17]
	for i := range m {
		X.Set(i, 5, X.At(i, 0))
		H.Set(i, 7, X.At(i, 9))
		X.Set(i, 20, X.At(i, 0))
	}
	for _, i := range perm[m-17:] {
		X.Set(i, 20, rng.NormFloat64())
	}
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	most := rng.Perm(m)[:50]
	sub, err := g.Subset(ctx, few)
	if err != nil {
		t.Fatal(err)
	}
	inner := few[5:100]
	subsub, err := sub.Subset(ctx, seq(5, 100))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range gramOptions() {
		checkGramFit(t, g, X, H, y, nil, o)
		checkGramFit(t, sub, X, H, y, few, o)
		checkGramFit(t, subsub, X, H, y, inner, o)
		s, err := g.Subset(ctx, most)
		if err != nil {
			t.Fatal(err)
		}
		checkGramFit(t, s, X, H, y, most, o)
	}
}

// seq returns a, a+1, …, b−1.
func seq(a, b int) []int {
	var out []int
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
}

// TestGramFitCOIL100 checks Gram.Fit against Fit on real data: 720 COIL-100
// images (classes 0–9, class 0 positive) described by the first 300 HOG
// features — sparse, with constant and equal columns on some rows — and
// the scores of 40 sources, the mean HOG vectors of classes 10–49, on the
// whole sample and on a subset without every tenth negative (with -short,
// 360 images of classes 0–4 and 150 features).
func TestGramFitCOIL100(t *testing.T) {
	coil, err := dataset.LoadFolder(filepath.Dir(shareddata.Path(t, "coil100/hog/features.npy")))
	if err != nil {
		t.Fatal(err)
	}
	F, labels := coil.X, coil.Labels
	_, D := F.Dims()
	const n = 40
	classes, d := 10, 300
	if testing.Short() {
		classes, d = 5, 150 // 360 rows
	}
	centre := make([][]float64, n)
	counts := make([]float64, n)
	var rows []int
	for i, c := range labels {
		switch {
		case c < classes:
			rows = append(rows, i)
		case c >= 10 && c < 10+n:
			if centre[c-10] == nil {
				centre[c-10] = make([]float64, D)
			}
			floats.Add(centre[c-10], F.RawRowView(i))
			counts[c-10]++
		}
	}
	m := len(rows)
	X, H := mat.NewDense(m, d, nil), mat.NewDense(m, n, nil)
	y := make([]float64, m)
	var keep []int
	for k, i := range rows {
		X.SetRow(k, F.RawRowView(i)[:d])
		for s := range n {
			H.Set(k, s, floats.Dot(F.RawRowView(i), centre[s])/counts[s])
		}
		y[k] = -1
		if labels[i] == 0 {
			y[k] = 1
		}
		if y[k] > 0 || k%10 != 3 {
			keep = append(keep, k)
		}
	}
	ctx := context.Background()
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := g.Subset(ctx, keep)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range gramOptions() {
		checkGramFit(t, g, X, H, y, nil, o)
		checkGramFit(t, sub, X, H, y, keep, o)
	}
}

// TestGramFitDelegates: where the cross-products cannot stand in, or the
// options ask for another search, Gram.Fit is Fit itself — with γ = 0 (no
// feature is a candidate), the randomised search, λ by leave-one-out, and
// every column constant — and Subset rejects bad rows (none, one, out of
// range, repeated) with an error.
func TestGramFitDelegates(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(16, 3))
	const m, d, n = 60, 8, 5
	X, H := randDense(rng, m, d), randDense(rng, m, n)
	y := randLabels(rng, m)
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{
		func() Options { o := DefaultOptions(); o.FeatureFactor = 0; return o }(),
		func() Options { o := DefaultOptions(); o.Sample = 3; o.Seed = 7; return o }(),
		func() Options { o := DefaultOptions(); o.AutoLambda = true; return o }(),
	} {
		want, err := Fit(ctx, X, H, y, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Fit(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Selected, want.Selected) || got.Options != want.Options {
			t.Errorf("options %+v: selected %v (%+v), Fit %v (%+v)", o, got.Selected, got.Options, want.Selected, want.Options)
		}
		for j := range want.Weights {
			if d := math.Abs(got.Weights[j] - want.Weights[j]); !(d <= 1e-8) {
				t.Errorf("options %+v: weight %d: %v, Fit %v", o, j, got.Weights[j], want.Weights[j])
			}
		}
	}
	if _, err := g.FitSelection(ctx, Options{Lambda: 1, FeatureFactor: 1, StopAtMinLOO: true}); err == nil {
		t.Error("FitSelection with StopAtMinLOO: no error")
	}
	for _, rows := range [][]int{{0, 1, m}, {0, 1, -1}, {0, 1, 1}, {}, nil, {0}} {
		if _, err := g.Subset(ctx, rows); err == nil {
			t.Errorf("Subset(%v): no error", rows)
		}
	}
	// Rows of one class: Fit's words for the labels, behind Subset's name
	// alone (not "greedytl.Gram.Subset: greedytl.Fit: …").
	var pos []int
	for i, v := range y {
		if v > 0 {
			pos = append(pos, i)
		}
	}
	if _, err := g.Subset(ctx, pos); err == nil || !strings.HasPrefix(err.Error(), "greedytl.Gram.Subset: y holds one class only") {
		t.Errorf("Subset of the positives: %v, want Subset's error for one class", err)
	} else if perr := errtest.OnePrefix(err.Error()); perr != nil {
		t.Error(perr)
	}
	// Every column constant: Fit's error, named by the Gram's method (it
	// said "greedytl.Fit: no candidate columns: …").
	c, err := NewGram(ctx, mat.NewDense(m, 2, nil), nil, y)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fit(ctx, DefaultOptions()); !errors.Is(err, errNoCandidates) || !strings.HasPrefix(err.Error(), "greedytl.Gram.Fit: no candidate columns: ") {
		t.Errorf("constant columns: %v, want \"greedytl.Gram.Fit: %v\"", err, errNoCandidates)
	}
	if _, err := c.FitSelection(ctx, DefaultOptions()); !errors.Is(err, errNoCandidates) || !strings.HasPrefix(err.Error(), "greedytl.Gram.FitSelection: no candidate columns: ") {
		t.Errorf("FitSelection, constant columns: %v, want \"greedytl.Gram.FitSelection: %v\"", err, errNoCandidates)
	}
	// A λ too small: Fit's words, named by the Gram's method (it said
	// "greedytl.Fit: λ = 1e-300 is too small …").
	small := DefaultOptions()
	small.Lambda = 1e-300
	for name, fit := range map[string]func(context.Context, Options) (*Model, error){
		"greedytl.Gram.Fit": g.Fit, "greedytl.Gram.FitSelection": g.FitSelection,
	} {
		_, err := fit(ctx, small)
		if err == nil || !strings.HasPrefix(err.Error(), name+": λ = 1e-300 is too small for these data") {
			t.Errorf("%s at λ = 1e-300: %v, want the error of a λ too small named %s", name, err, name)
		} else if perr := errtest.OnePrefix(err.Error()); perr != nil {
			t.Error(perr)
		}
	}
}

// TestCrossProductsDsyrk: crossProducts is gonum's pure-Go Dsyrk (upper
// triangle, A times its transpose) bit for bit, mirrored below the
// diagonal.
func TestCrossProductsDsyrk(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	for _, rc := range [][2]int{{1, 1}, {7, 3}, {37, 53}} {
		r, c := rc[0], rc[1]
		A := make([]float64, r*c)
		for i := range A {
			A[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		}
		want := make([]float64, r*r)
		gonum.Implementation{}.Dsyrk(blas.Upper, blas.NoTrans, r, c, 1, A, c, 0, want, r)
		symmetrize(want, r)
		got, err := crossProducts(context.Background(), A, r, c)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%d×%d: element %d is %v, Dsyrk %v", r, c, i, got[i], want[i])
			}
		}
	}
}

// TestGramCancelledAtEachCheck cancels NewGram and Subset at each of their
// context checks in turn: a Gram whose context is done by the time it
// returns returns the context's error, one that returns a Gram was never
// cancelled, and NewGram's checks come at least once a row of the
// cross-products, O(N·m) work, so that a cancelled fit does not wait for
// the whole O(N²·m) (a Subset computes no cross-products, O(N·m) in all:
// it checks at least once).
func TestGramCancelledAtEachCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	const m, d, n = 40, 12, 6
	X, H := randDense(rng, m, d), randDense(rng, m, n)
	y := randLabels(rng, m)
	g, err := NewGram(context.Background(), X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	rows := seq(3, m)  // a downdate: the cross-products of the 3 rows left out
	few := seq(0, m/3) // recomputed: those of the rows kept
	for _, tc := range []struct {
		name      string
		make      func(ctx context.Context) (*Gram, error)
		minChecks int
	}{
		{"NewGram", func(ctx context.Context) (*Gram, error) { return NewGram(ctx, X, H, y) }, d + n + 1},
		{"Subset, downdated", func(ctx context.Context) (*Gram, error) { return g.Subset(ctx, rows) }, 1},
		{"Subset, recomputed", func(ctx context.Context) (*Gram, error) { return g.Subset(ctx, few) }, 1},
	} {
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := tc.make(all); err != nil {
			t.Fatal(err)
		}
		calls := all.Calls()
		if calls < int64(tc.minChecks) {
			t.Errorf("%s: %d context checks, want at least %d", tc.name, calls, tc.minChecks)
		}
		for k := range calls + 1 {
			ctx := fitctxtest.NewCountdown(k)
			got, err := tc.make(ctx)
			switch done := ctx.Cancelled(); {
			case done && (!errors.Is(err, context.Canceled) || got != nil):
				t.Errorf("%s, cancelled at check %d of %d: err = %v, Gram %v: want context.Canceled", tc.name, k+1, calls, err, got != nil)
			case !done && err != nil:
				t.Errorf("%s, not cancelled: %v", tc.name, err)
			}
		}
	}
}

// TestGramProducts checks Gram.Products against its definition on the
// base sample and on subsets (a downdate and a recomputation), with
// constant columns left out: the cross-products of the columns
// standardised on the sample by package standardize, and their products
// with the centred labels.
func TestGramProducts(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(16, 9))
	const m, d, n = 90, 12, 7
	X, H := randWithConstants(rng, m, d, n, map[Column]float64{{Feature, 3}: 2.5, {Source, 0}: -1})
	for i := range m {
		X.Set(i, 5, 1e3+X.At(i, 5)) // far from 0: centring must not cancel
	}
	y := randLabels(rng, m)
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]int{nil, rng.Perm(m)[:m-9], rng.Perm(m)[:30]} {
		s := g
		if rows != nil {
			if s, err = g.Subset(ctx, rows); err != nil {
				t.Fatal(err)
			}
		} else {
			rows = seq(0, m)
		}
		cols, A, b, ok := s.Products()
		if !ok {
			t.Fatal("no products")
		}
		// The definition, on the rows.
		xs, hs := pickRows(X, rows), pickRows(H, rows)
		zx, err := standardize.Fit(xs).Transform(xs)
		if err != nil {
			t.Fatal(err)
		}
		zh, err := standardize.Fit(hs).Transform(hs)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		col := func(j int) []float64 {
			if j < d {
				return mat.Col(nil, j, zx)
			}
			return mat.Col(nil, j-d, zh)
		}
		ys := make([]float64, len(rows))
		for k, r := range rows {
			ys[k] = y[r]
		}
		ybar := floats.Sum(ys) / float64(len(ys))
		for k := range ys {
			ys[k] -= ybar
		}
		for j := range d + n {
			if floats.Norm(col(j), 2) != 0 {
				want = append(want, j)
			}
		}
		if !slices.Equal(cols, want) || len(cols) != d+n-2 {
			t.Fatalf("%d rows: columns %v, want the non-constant %v", len(rows), cols, want)
		}
		for a, ja := range cols {
			if w := floats.Dot(col(ja), ys); math.Abs(b[a]-w) > 1e-10*float64(len(rows)) {
				t.Errorf("%d rows: b[%d] = %v, want %v", len(rows), a, b[a], w)
			}
			for c, jc := range cols {
				if w := floats.Dot(col(ja), col(jc)); math.Abs(A.At(a, c)-w) > 1e-10*float64(len(rows)) {
					t.Errorf("%d rows: A[%d][%d] = %v, want %v", len(rows), a, c, A.At(a, c), w)
				}
			}
		}
		// The caller owns b; A is a view whose elements are the product
		// rows' bit for bit, (a, c) and (c, a) alike, a ≤ c (what the
		// n × n copy Products made before held).
		b[0] = -1
		if _, _, b2, _ := s.Products(); b2[0] == -1 {
			t.Error("Products returned the Gram's own b")
		}
		row, ones := make([]float64, len(cols)), make([]float64, len(cols))
		for c := range ones {
			ones[c] = 1
		}
		for a := range cols {
			s.prods.scaledRow(a, 1, ones, row)
			for c := a; c < len(cols); c++ {
				if math.Float64bits(A.At(a, c)) != math.Float64bits(row[c]) || math.Float64bits(A.At(c, a)) != math.Float64bits(row[c]) {
					t.Fatalf("%d rows: A(%d, %d) = %v, A(%d, %d) = %v, want row %d's %v", len(rows), a, c, A.At(a, c), c, a, A.At(c, a), a, row[c])
				}
			}
		}
		if r, c := A.Dims(); r != len(cols) || c != len(cols) || A.SymmetricDim() != len(cols) || A.T() != A {
			t.Errorf("%d rows: A is %d × %d (dim %d), want %d × %d, its own transpose", len(rows), r, c, A.SymmetricDim(), len(cols), len(cols))
		}
		func() {
			defer func() {
				if r := recover(); r != mat.ErrIndexOutOfRange {
					t.Errorf("A.At(%d, 0): panic %v, want mat.ErrIndexOutOfRange", len(cols), r)
				}
			}()
			A.At(len(cols), 0)
		}()
	}
}

// TestGramProductsAllocatesNoSquare: Products allocates O(n) bytes, not
// the n × n copy of the cross-products it made before (2,048 columns:
// 32 MB; greedytl-auto's ridge member then copied that copy again, two
// N × N matrices beside the Gram's own, at N = 5,000 400 MB of its peak).
func TestGramProductsAllocatesNoSquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 36))
	const m, d, n = 12, 2040, 8
	g, err := NewGram(context.Background(), randDense(rng, m, d), randDense(rng, m, n), randLabels(rng, m))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cols, A, _, ok := g.Products()
	runtime.ReadMemStats(&after)
	if !ok || len(cols) != d+n {
		t.Fatalf("Products: %d columns, ok %v; want %d", len(cols), ok, d+n)
	}
	N := len(cols)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(N*N*8/16) {
		t.Errorf("Products allocated %d bytes, want O(N) (the N × N copy: %d)", got, N*N*8)
	}
	if A.At(N-1, N-1) <= 0 {
		t.Errorf("A(%d, %d) = %v, want the column's positive sum of squares", N-1, N-1, A.At(N-1, N-1))
	}
}

// TestGramSubsetAllocatesNoSquare: a subset that leaves out a few rows,
// with two fits of a few steps on it (greedytl-auto's committee), holds
// and allocates O(N·(r + k)) bytes for r rows left out and k rows of its
// cross-products read, not the N × N matrix it computed before
// (2,049 columns: 33.6 MB; one per committee in progress).
func TestGramSubsetAllocatesNoSquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 37))
	const m, d, n = 40, 2040, 8
	g, err := NewGram(context.Background(), randDense(rng, m, d), randDense(rng, m, n), randLabels(rng, m))
	if err != nil {
		t.Fatal(err)
	}
	N := d + n
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sub, err := g.Subset(context.Background(), seq(2, m))
	if err != nil {
		t.Fatal(err)
	}
	for _, gamma := range []float64{1, 0.5} {
		o := DefaultOptions()
		o.FeatureFactor, o.MaxK = gamma, 5
		mod, err := sub.FitSelection(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if len(mod.Selected) != 5 {
			t.Fatalf("γ = %v: %d columns selected, want 5", gamma, len(mod.Selected))
		}
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(N*N*8/8) {
		t.Errorf("Subset and two fits allocated %d bytes, want O(N·(r + k)) (the N × N matrix: %d)", got, N*N*8)
	}
}

// TestGramNotBuilt: a nil or zero Gram (not built by NewGram or Subset) is
// an error naming the method, not a nil-pointer panic (Fit, FitSelection
// and Subset panicked; Products and Sample report nothing).
func TestGramNotBuilt(t *testing.T) {
	ctx := context.Background()
	for _, g := range []*Gram{nil, {}} {
		for name, call := range map[string]func() error{
			"Fit":          func() error { _, err := g.Fit(ctx, DefaultOptions()); return err },
			"FitSelection": func() error { _, err := g.FitSelection(ctx, DefaultOptions()); return err },
			"Subset":       func() error { _, err := g.Subset(ctx, []int{0, 1}); return err },
		} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s of %#v: panic %v", name, g, r)
					}
				}()
				if err := call(); err == nil || !strings.Contains(err.Error(), "greedytl.Gram."+name+": a Gram not built by NewGram") {
					t.Errorf("%s of %#v: %v, want an error naming it and the Gram", name, g, err)
				}
			}()
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Products or Sample of %#v: panic %v", g, r)
				}
			}()
			if _, _, _, ok := g.Products(); ok {
				t.Errorf("Products of %#v: ok", g)
			}
			if X, H, y := g.Sample(); X != nil || H != nil || y != nil {
				t.Errorf("Sample of %#v: %v %v %v", g, X, H, y)
			}
		}()
	}
}

// TestGramSampleAbsentIsNil: Sample gives nil for an absent X or H, as its
// doc says, however the absence was passed (nil, a typed nil, the zero
// mat.Dense), on the base Gram and on a subset alike, and Fit on the Gram
// equals Fit on the sample.
func TestGramSampleAbsentIsNil(t *testing.T) {
	ctx := context.Background()
	H := mat.NewDense(6, 2, []float64{1, -1, 2, 0, 1, 1, -1, 2, -2, 1, -1, 0})
	y := []float64{1, 1, 1, -1, -1, -1}
	want, err := Fit(ctx, nil, H, y, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, X := range map[string]mat.Matrix{"nil": nil, "typed nil": (*mat.Dense)(nil), "zero Dense": &mat.Dense{}} {
		g, err := NewGram(ctx, X, H, y)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sub, err := g.Subset(ctx, []int{0, 1, 3, 4})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for which, s := range map[string]*Gram{"base": g, "subset": sub} {
			if X, H, _ := s.Sample(); X != nil || H == nil {
				t.Errorf("%s X, %s Gram: Sample gives X %#v, H %v; want X nil", name, which, X, H)
			}
		}
		got, err := g.Fit(ctx, DefaultOptions())
		if err != nil || !slices.Equal(got.Selected, want.Selected) {
			t.Errorf("%s X: Gram.Fit selects %v (%v), Fit %v", name, got.Selected, err, want.Selected)
		}
	}
}

// TestGramConcurrentUse: as its doc says, goroutines may call Fit,
// FitSelection and Subset on one Gram at once; each gets what a lone call
// gets (run under -race to check that none writes the Gram).
func TestGramConcurrentUse(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 9))
	X, H := randDense(rng, 12, 4), randDense(rng, 12, 6)
	y := []float64{1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1}
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 2, 3, 5, 6, 8, 9, 10}
	want, err := g.Fit(ctx, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sub, err := g.Subset(ctx, rows)
	if err != nil {
		t.Fatal(err)
	}
	wantSub, err := sub.Fit(ctx, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	const workers = 8
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			switch w % 3 {
			case 0:
				if got, err := g.Fit(ctx, DefaultOptions()); err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("worker %d: Fit differs from a lone Fit (%v)", w, err)
				}
			case 1:
				if got, err := g.FitSelection(ctx, DefaultOptions()); err != nil || !slices.Equal(got.Selected, want.Selected) {
					t.Errorf("worker %d: FitSelection (%v) selects otherwise than Fit %v", w, err, want.Selected)
				}
			default:
				s, err := g.Subset(ctx, rows)
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				if got, err := s.Fit(ctx, DefaultOptions()); err != nil || !reflect.DeepEqual(got, wantSub) {
					t.Errorf("worker %d: the subset's Fit differs from a lone one (%v)", w, err)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
}

// TestGramFitAllocatesNoSquare: Gram.Fit computes the cross-products
// of the column a step adds when the step needs them, from the Gram's
// (productRows), instead of first copying the n × n cross-products of its
// candidates scaled by its γ (4 GB at n = 20,000; a copy per member in
// progress, which made greedytl-auto's peak at m = 2,000, N = 3,100 about
// 1.2 GB): a fit of a few steps over n = 2,048 candidates allocates
// O(n·k + m·k) bytes, far below the 32 MB of the copy, on the whole
// sample and on a subset, at γ = 1 and at γ = 0.5 (the members of
// greedytl-auto) and at γ = 0, whose fit keeps some of the slots; and
// cancelled at each of its context checks in turn, it returns the
// context's error.
func TestGramFitAllocatesNoSquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 35))
	const m, d, n = 12, 2040, 8
	X, H := randDense(rng, m, d), randDense(rng, m, n)
	y := randLabels(rng, m)
	g, err := NewGram(context.Background(), X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := g.Subset(context.Background(), seq(1, m))
	if err != nil {
		t.Fatal(err)
	}
	for _, gamma := range []float64{1, 0.5, 0} {
		for name, gr := range map[string]*Gram{"whole": g, "subset": sub} {
			o := DefaultOptions()
			o.FeatureFactor, o.MaxK = gamma, 3
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			mod, err := gr.Fit(context.Background(), o)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if len(mod.Selected) != 3 {
				t.Fatalf("%s, γ = %v: %d columns selected, want 3", name, gamma, len(mod.Selected))
			}
			N := d + n
			if got := after.TotalAlloc - before.TotalAlloc; got > uint64(N*N*8/8) {
				t.Errorf("%s, γ = %v: Gram.Fit allocated %d bytes, want O(N·k + m·k) (the N × N copy: %d)", name, gamma, got, N*N*8)
			}
			all := fitctxtest.NewCountdown(math.MaxInt64)
			if _, err := gr.Fit(all, o); err != nil {
				t.Fatal(err)
			}
			for k := range all.Calls() {
				if _, err := gr.Fit(fitctxtest.NewCountdown(k), o); !errors.Is(err, context.Canceled) {
					t.Fatalf("%s, γ = %v, cancelled at check %d: %v", name, gamma, k+1, err)
				}
			}
		}
	}
}

// TestGramErrorsNameTheirEntryPoint: NewGram's input errors and Gram.Fit's
// options error name NewGram and Gram.Fit (docs/conventions.md), with the
// options checked before a fit is handed to Fit (they named greedytl.Fit).
func TestGramErrorsNameTheirEntryPoint(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 9})
	y := []float64{1, -1, 1, -1}
	_, err := NewGram(ctx, mat.NewDense(4, 1, []float64{1, math.NaN(), 2, 3}), nil, y)
	if err == nil || err.Error() != "greedytl.NewGram: X row 1 column 0 is NaN" {
		t.Errorf("NewGram with a NaN: %v", err)
	}
	if _, err = NewGram(ctx, X, nil, []float64{1, 1, 1, 1}); err == nil || !strings.HasPrefix(err.Error(), "greedytl.NewGram: y holds one class only") {
		t.Errorf("NewGram with one class: %v", err)
	}
	g, err := NewGram(ctx, X, nil, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, sample := range []int{0, 3} {
		o := DefaultOptions()
		o.Lambda, o.Sample = -1, sample
		if _, err := g.Fit(ctx, o); err == nil || !strings.HasPrefix(err.Error(), "greedytl.Gram.Fit: invalid options: Lambda must be positive") {
			t.Errorf("Gram.Fit with λ = -1, Sample %d: %v", sample, err)
		}
	}
}

// TestFloatsDot4: floatsDot4, the vector kernel of crossProducts, gives
// floats.Dot's four dot products bit for bit at every length up to 70
// (every tail of the 4-wide loop) on values of mixed magnitudes and
// signs, where summing in another order would round differently.
func TestFloatsDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 4))
	for n := range 71 {
		for trial := range 20 {
			v := make([][]float64, 5)
			for q := range v {
				v[q] = make([]float64, n)
				for i := range v[q] {
					v[q][i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(17)-8))
				}
			}
			var got [4]float64
			floatsDot4(v[0], v[1], v[2], v[3], v[4], &got)
			for q := range got {
				want := floats.Dot(v[0], v[q+1])
				if math.Float64bits(got[q]) != math.Float64bits(want) {
					t.Fatalf("n = %d, trial %d, product %d: %v, floats.Dot %v", n, trial, q, got[q], want)
				}
			}
		}
	}
}

// TestGramSubsetFormsAgree: a subset's cross-products computed a row at a
// time as its fits read them (sampleProducts' rows, the form while the
// base's fits select at most half the columns) and computed whole
// (subsetProducts' crossProducts, after longer paths) are the same bits:
// the subset's Fit and FitSelection give the same models (every float64
// printed exactly), at γ = 1 and 0.5, two fits in turn on one subset
// (the second reads rows the first kept), for a downdate (rows left out)
// and a recomputation (rows kept), and so do its Products, both triangles.
func TestGramSubsetFormsAgree(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(28, 28))
	const m, d, n = 90, 70, 9
	X, H := randDense(rng, m, d), randDense(rng, m, n)
	y := randLabels(rng, m)
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	w := int64(g.base.nc + 1)
	for _, rows := range [][]int{rng.Perm(m)[:m-8], rng.Perm(m)[:m/3]} {
		var fits [2][]*Model
		var prods [2][]float64
		for form, steps := range []int64{0, w} { // row by row, then whole
			g.base.steps.Store(steps)
			s, err := g.Subset(ctx, rows)
			if err != nil {
				t.Fatal(err)
			}
			if whole := s.prods.S.full != nil; whole != (form == 1) {
				t.Fatalf("%d rows, base steps %d: whole matrix %v", len(rows), steps, whole)
			}
			for _, gamma := range []float64{1, 0.5} {
				o := DefaultOptions()
				o.FeatureFactor = gamma
				for _, fit := range []func(context.Context, Options) (*Model, error){s.Fit, s.FitSelection} {
					mod, err := fit(ctx, o)
					if err != nil {
						t.Fatal(err)
					}
					if len(mod.Selected) < 5 {
						t.Fatalf("%d rows, γ = %v: %d steps; want a path that reads several rows", len(rows), gamma, len(mod.Selected))
					}
					fits[form] = append(fits[form], mod)
				}
			}
			_, A, _, ok := s.Products()
			if !ok {
				t.Fatal("no products")
			}
			N := A.SymmetricDim()
			for a := range N {
				for c := range N {
					prods[form] = append(prods[form], A.At(a, c))
				}
			}
		}
		for k := range fits[0] {
			// %v prints each float64 exactly (and FitSelection's NaNs alike).
			if a, b := fmt.Sprintf("%+v", *fits[0][k]), fmt.Sprintf("%+v", *fits[1][k]); a != b {
				t.Errorf("%d rows, fit %d: the row-by-row form's model differs from the whole matrix's", len(rows), k)
			}
		}
		for k := range prods[0] {
			if math.Float64bits(prods[0][k]) != math.Float64bits(prods[1][k]) {
				t.Fatalf("%d rows: product %d is %v row by row, %v whole", len(rows), k, prods[0][k], prods[1][k])
			}
		}
	}
}

// TestRowByRowLimits checks rowByRow, the subsets' choice between rows
// computed as read and the whole matrix, at each limit's boundary: half
// the columns (2·steps ≤ w), an eighth (8·steps ≤ w) and A's bytes
// (w·k·8 ≤ rowByRowBytes, 2 MiB), each on both sides, so that a change of
// any comparison or constant fails. The two forms give the same bits
// (TestGramSubsetFormsAgree): only the decision can be checked.
func TestRowByRowLimits(t *testing.T) {
	const w = 1024 // w·k·8 = 2 MiB at k = 256
	for _, c := range []struct {
		steps int64
		w, k  int
		want  bool
	}{
		{0, w, 1 << 20, true},
		{w / 8, w, 1 << 20, true},    // 8·steps = w: any A
		{w/8 + 1, w, 1 << 20, false}, // past the eighth, A large
		{w/8 + 1, w, 256, true},      // A of exactly rowByRowBytes
		{w/8 + 1, w, 257, false},     // A one row past it
		{w / 2, w, 256, true},        // 2·steps = w, A small
		{w / 2, w, 1, true},
		{w/2 + 1, w, 1, false}, // past half: whatever A
		{w/2 + 1, w, 0, false},
		{w / 2, w, 257, false},
		{4, 33, 1, true},        // 8·4 = 32 ≤ 33
		{5, 33, 1, true},        // 8·5 > 33, A small, 2·5 ≤ 33
		{16, 33, 1, true},       // 2·16 = 32 ≤ 33
		{17, 33, 1, false},      // 2·17 = 34 > 33
		{6, 47, 1 << 20, false}, // 8·6 = 48 > 47
		{6, 48, 1 << 20, true},  // 8·6 = 48 ≤ 48
	} {
		if got := rowByRow(c.steps, c.w, c.k); got != c.want {
			t.Errorf("rowByRow(steps %d, w %d, k %d) = %v, want %v (A %d bytes, limit %d)", c.steps, c.w, c.k, got, c.want, c.w*c.k*8, rowByRowBytes)
		}
	}
	if rowByRowBytes != 2<<20 {
		t.Errorf("rowByRowBytes = %d: the cases above assume 2 MiB (BenchmarkAutoGramRatio, BenchmarkAutoRows)", rowByRowBytes)
	}
}
