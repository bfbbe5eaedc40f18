package method

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// withValue returns d with the value v at row r of column c (a copy of
// the matrix it changes).
func withValue(d Data, c greedytl.Column, r int, v float64) Data {
	if c.Kind == greedytl.Feature {
		X := mat.DenseCopyOf(d.X)
		X.Set(r, c.Index, v)
		d.X = X
	} else {
		H := mat.DenseCopyOf(d.H)
		H.Set(r, c.Index, v)
		d.H = H
	}
	return d
}

// TestGreedyAutoWideColumn is the new user's report: one training value of
// 1e30 (or 1e17, 1e19) in a column made greedytl-auto's model score every
// example alike (balanced accuracy 0.5), without a warning. The committee
// of the subsample that leaves out that example weights the column on its
// own scale, and written in the whole sample's standardisation its weight
// and intercept were of order 1e27 and cancelled, leaving an error of
// their rounding — a shift of every score by anything from 0 to 1e11,
// depending on the value's last bits. Once the value is far from the
// others, its column standardises to the same values whatever it is (3 for
// it, −1/3 for the others, with 10 examples), so the model must not depend
// on it: the test scores with 1e17, 1e19 and 1e30 agree to 1e-9 (before the
// fix they differed by 0.4 on feature 0, and with 1e30 in source 2 every
// score was 0). The fit leaves that committee out of its mean and reports
// the column (WideRanges), and the model separates the classes about as
// well as the committee of the whole sample alone. An outlier in the class
// that no subsample leaves out changes no committee's conversion: there is
// nothing to report.
func TestGreedyAutoWideColumn(t *testing.T) {
	base := newConformanceCase(20, 10, 5, 6, 4) // 5 positives first, 5 negatives
	for _, c := range []greedytl.Column{{Kind: greedytl.Feature, Index: 0}, {Kind: greedytl.Feature, Index: 3}, {Kind: greedytl.Source, Index: 2}} {
		t.Run(c.String(), func(t *testing.T) {
			var first []float64
			for _, v := range []float64{1e17, 1e19, 1e30} {
				tc := base
				tc.train = withValue(base.train, c, 5, v) // a negative
				auto := mustFit(t, "greedytl-auto", tc)
				f := mustPredict(t, auto, tc.test)
				if slices.Min(f) == slices.Max(f) {
					t.Fatalf("%g: every test score is %v", v, f[0])
				}
				if first == nil {
					first = f
				}
				for i := range f {
					if !near(f[i], first[i], 1e-9, math.Abs(first[i])) {
						t.Fatalf("%g: test score %d is %v, with 1e17 %v", v, i, f[i], first[i])
					}
				}
				single := mustPredict(t, mustFit(t, "greedytl-auto:single_fit=1", tc), tc.test)
				acc, want := balancedAcc(t, f, tc.test.Y), balancedAcc(t, single, tc.test.Y)
				if acc < want-0.05 {
					t.Errorf("%g: balanced accuracy %v, the whole sample's committee alone %v", v, acc, want)
				}
				r := auto.(WideRangeReporter).WideRanges()
				if len(r) != 1 || r[0].Class != "" || r[0].LeftOut != 1 || r[0].Subsamples != 5 ||
					len(r[0].Columns) != 1 || r[0].Columns[0].Column != c || r[0].Columns[0].Left != 1 || !(r[0].Columns[0].Ratio > maxShiftRatio) {
					t.Errorf("%g: WideRanges() = %+v, want %v, 1 of 5 subsamples left out, a ratio above 2^26", v, r, c)
				}
				if fits := auto.Hyperparameters()["fits"]; fits != 5 {
					t.Errorf("%g: fits = %v, want 5 (6 committees, 1 left out)", v, fits)
				}
			}
		})
	}
	t.Run("outlier in the class no subsample leaves out", func(t *testing.T) {
		tc := base
		tc.train = withValue(base.train, greedytl.Column{Kind: greedytl.Feature, Index: 0}, 0, 1e30) // a positive
		auto := mustFit(t, "greedytl-auto", tc)
		if wide := auto.(WideRangeReporter).WideRanges(); wide != nil {
			t.Errorf("WideRanges() = %+v, want none: no subsample leaves row 0 out", wide)
		}
		if fits := auto.Hyperparameters()["fits"]; fits != 6 {
			t.Errorf("fits = %v, want 6", fits)
		}
	})
}

// TestGreedyAutoModerateScalesKeepEveryCommittee is a property of the
// bound on the shift ratio: data whose columns are scaled by 1e-3…1e3 and
// shifted by as much, with heavy-tailed columns (a Cauchy's, a log-normal
// of σ = 3) among them, leave no committee out, and the model is bit for
// bit the one of the mean over every committee (maxShiftRatio infinite,
// the behaviour before the bound).
func TestGreedyAutoModerateScalesKeepEveryCommittee(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 26))
	for trial := range 12 {
		m := []int{10, 12, 16, 30}[trial%4]
		pos := 2 + trial%3
		d := 5 + trial%4
		tc := newConformanceCase(uint64(100+trial), m, pos, d, 4)
		if trial%3 == 0 {
			tc = tc.withoutSources()
		}
		// The same transformation of a column on the training and the
		// test rows.
		scale := func(A, T mat.Matrix) (*mat.Dense, *mat.Dense) {
			B, U := mat.DenseCopyOf(A), mat.DenseCopyOf(T)
			_, c := B.Dims()
			for j := range c {
				s, mu := math.Pow(10, 6*rng.Float64()-3), math.Pow(10, 6*rng.Float64()-3)
				heavy := rng.IntN(3) // 0: as drawn, 1: Cauchy, 2: log-normal
				for _, M := range []*mat.Dense{B, U} {
					r, _ := M.Dims()
					for i := range r {
						v := M.At(i, j)
						switch heavy {
						case 1:
							v = math.Tan(math.Pi * (rng.Float64() - 0.5))
						case 2:
							v = math.Exp(3 * rng.NormFloat64())
						}
						M.Set(i, j, s*v+mu)
					}
				}
			}
			return B, U
		}
		trainX, testX := scale(tc.train.X, tc.test.X)
		tc.train.X, tc.test.X = trainX, testX
		if tc.train.H != nil {
			trainH, testH := scale(tc.train.H, tc.test.H)
			tc.train.H, tc.test.H = trainH, testH
		}
		auto := mustFit(t, "greedytl-auto", tc)
		if wide := auto.(WideRangeReporter).WideRanges(); wide != nil {
			t.Fatalf("trial %d: WideRanges() = %+v, want none", trial, wide)
		}
		got := mustPredict(t, auto, tc.test)
		old := maxShiftRatio
		maxShiftRatio = math.Inf(1)
		every := mustPredict(t, mustFit(t, "greedytl-auto", tc), tc.test)
		maxShiftRatio = old
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(every[i]) {
				t.Fatalf("trial %d: score %d is %v, the mean over every committee %v", trial, i, got[i], every[i])
			}
		}
	}
}

// TestWideColumnsBound checks wideColumns at its bound on columns of real
// shape, nine values near 5 on the subsample and the whole sample's other
// rows far from them: one value V shifts the mean by (V − μ')/10, reported
// just above 2^26 of the subsample's scales and not just below; two values
// μ' ± 1e20 leave the mean where it is and make s/s' about 4·10^19, not
// reported: the conversion of the subsample's committee (addLinear) then
// scores the subsample's rows as the committee does to 1e-12, while at a
// shift of 2^45 it is off by more than 1e-6 (the error grows with the
// shift, |w|·u·|μ − μ'|/s', not with s/s'). Weight 0 and a scale 0 are not
// reported (addLinear drops those).
func TestWideColumnsBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 26))
	sub := make([]float64, 9)
	for i := range sub {
		sub[i] = 5 + rng.NormFloat64()
	}
	scaler := func(v []float64) standardize.Scaler {
		return standardize.Fit(mat.NewDense(len(v), 1, slices.Clone(v)))
	}
	ssc := scaler(sub)
	mu1, s1 := ssc.Mean[0], ssc.Scale[0]
	committee := &Linear{X: ssc, WX: []float64{0.7}, B: -0.2}
	// whole returns the whole sample's model for the subsample's rows and
	// the others: its statistics, weight 0.
	whole := func(others ...float64) *Linear {
		return &Linear{X: scaler(append(slices.Clone(sub), others...)), WX: []float64{0}}
	}
	// convErr is the largest error, over the subsample's rows, of the
	// committee written in dst's standardisation.
	convErr := func(dst *Linear) float64 {
		sum := &Linear{X: dst.X, WX: slices.Clone(dst.WX), B: dst.B}
		addLinear(sum, committee)
		var e float64
		for _, v := range sub {
			want := committee.WX[0]*ssc.Value(0, v) + committee.B
			e = max(e, math.Abs(sum.WX[0]*sum.X.Value(0, v)+sum.B-want))
		}
		return e
	}
	shift := func(r float64) float64 { return mu1 + 10*s1*r } // the tenth value that shifts the mean by r·s1
	at := math.Ldexp(1, 26)
	for _, tc := range []struct {
		what     string
		dst, src *Linear
		wide     bool
	}{
		{"mean shift just below 2^26 scales", whole(shift(at * (1 - 1e-6))), committee, false},
		{"mean shift just above 2^26 scales", whole(shift(at * (1 + 1e-6))), committee, true},
		{"mean kept, s/s' 4e19", whole(mu1+1e20, mu1-1e20), committee, false},
		{"weight 0", whole(1e30), &Linear{X: ssc, WX: []float64{0}}, false},
		{"constant on the subsample", whole(1e30), &Linear{X: standardize.Scaler{Mean: []float64{5}, Scale: []float64{0}}, WX: []float64{1}}, false},
		{"shift beyond float64", &Linear{X: standardize.Scaler{Mean: []float64{1e308}, Scale: []float64{1e300}}, WX: []float64{0}}, &Linear{X: standardize.Scaler{Mean: []float64{-1e308}, Scale: []float64{1e-10}}, WX: []float64{1}}, true},
		{"converted weight beyond float64", &Linear{X: standardize.Scaler{Mean: []float64{5}, Scale: []float64{1e300}}, WX: []float64{0}}, &Linear{X: standardize.Scaler{Mean: []float64{5}, Scale: []float64{1e-10}}, WX: []float64{1}}, true},
	} {
		got := wideColumns(tc.dst, tc.src)
		if (got != nil) != tc.wide {
			t.Errorf("%s: wideColumns = %+v, want reported: %v", tc.what, got, tc.wide)
		}
		for _, w := range got {
			if !(w.Ratio <= math.MaxFloat64) {
				t.Errorf("%s: ratio %g, want a finite one (the model file refuses others)", tc.what, w.Ratio)
			}
		}
	}
	if dst := whole(mu1+1e20, mu1-1e20); !(dst.X.Scale[0]/s1 > 1e19) || convErr(dst) > 1e-12 {
		t.Errorf("mean kept: s/s' = %g, conversion error %g, want s/s' above 1e19 and an error below 1e-12", dst.X.Scale[0]/s1, convErr(dst))
	}
	if e := convErr(whole(shift(math.Ldexp(1, 45)))); !(e > 1e-6) {
		t.Errorf("mean shift 2^45: conversion error %g, want above 1e-6", e)
	}
}

// bruteAuto fits greedytl-auto on tc and rebuilds its model by brute force
// from the committees it averaged (fitCommittees): each committee's
// test scores, its own linear function plus its ridge member on the whole
// sample's standardised columns, averaged over the committees
// wideColumns keeps, every member counted once. The model's test scores
// must be that mean to 1e-9, its "fits" the committees kept, and its
// WideRanges, per column, the number of committees left out that weight
// it and the largest of their ratios, features before sources. It returns
// the model's report.
func bruteAuto(t *testing.T, tc conformanceCase) []WideColumn {
	t.Helper()
	model := mustFit(t, "greedytl-auto", tc)
	// The committees that Fit averaged, fitted again on the same sample (a
	// fit is deterministic): Fit is fitCommittees then average.
	m, dx, nh, err := checkTrain(tc.train)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newConformanceMethod(t, "greedytl-auto").(*GreedyAuto).fitCommittees(context.Background(), tc.train, m, dx, nh, nil)
	if err != nil {
		t.Fatal(err)
	}
	fits, ridgeW, ridgeB, members := cs.fits, cs.ridgeW, cs.ridgeB, cs.members
	got := mustPredict(t, model, tc.test)
	whole := fits[0]
	zx, err := whole.X.Transform(tc.test.X)
	if err != nil {
		t.Fatal(err)
	}
	d, n := whole.X.Len(), whole.H.Len()
	var zh *mat.Dense
	if n > 0 {
		if zh, err = whole.H.Transform(tc.test.H); err != nil {
			t.Fatal(err)
		}
	}
	kept := []int{0}
	var want []WideColumn
	var left []AutoLeftOut
	for k := 1; k < len(fits); k++ {
		wide := wideColumns(whole, fits[k])
		if wide == nil {
			kept = append(kept, k)
			continue
		}
		l := AutoLeftOut{Subsample: k}
		for _, w := range wide {
			l.Columns = append(l.Columns, AutoWideColumn{Column: w.Column, Ratio: w.Ratio})
		}
		left = append(left, l)
		for _, w := range wide {
			i := slices.IndexFunc(want, func(c WideColumn) bool { return c.Column == w.Column })
			if i < 0 {
				want = append(want, WideColumn{Column: w.Column})
				i = len(want) - 1
			}
			want[i].Left++
			want[i].Ratio = max(want[i].Ratio, w.Ratio)
		}
	}
	slices.SortFunc(want, func(a, b WideColumn) int {
		if a.Column.Kind != b.Column.Kind {
			return int(a.Column.Kind) - int(b.Column.Kind)
		}
		return a.Column.Index - b.Column.Index
	})
	brute := make([]float64, len(got))
	for _, k := range kept {
		f := mustPredict(t, fits[k], tc.test)
		for i := range f {
			for j := range d {
				f[i] += ridgeW[k][j] * zx.At(i, j)
			}
			for j := range n {
				f[i] += ridgeW[k][d+j] * zh.At(i, j)
			}
			f[i] += ridgeB[k]
			brute[i] += f[i] / float64(members*len(kept))
		}
	}
	for i := range got {
		if !near(got[i], brute[i], 1e-9, math.Abs(brute[i])) {
			t.Fatalf("test score %d is %v, the brute-force mean of the %d committees kept %v", i, got[i], len(kept), brute[i])
		}
	}
	if fits := model.Hyperparameters()["fits"]; fits != float64(len(kept)) {
		t.Errorf("fits = %v, %d committees kept", fits, len(kept))
	}
	var report []WideColumn
	switch r := model.(WideRangeReporter).WideRanges(); {
	case len(r) > 1:
		t.Fatalf("WideRanges() = %+v, want at most one report", r)
	case len(r) == 1:
		if r[0].LeftOut != len(left) || r[0].Subsamples != len(fits)-1 {
			t.Errorf("WideRanges() = %+v: %d of %d subsamples left out, want %d", r, r[0].LeftOut, r[0].Subsamples, len(left))
		}
		report = r[0].Columns
	}
	if !slices.Equal(report, want) {
		t.Errorf("WideRanges()' columns = %+v, want %+v", report, want)
	}
	c := model.(*AutoModel).Committee
	subsamples := len(fits) - 1
	if left == nil {
		subsamples = 0
	}
	if c.Subsamples != subsamples || fmt.Sprint(c.LeftOut) != fmt.Sprint(left) {
		t.Errorf("committee record: %d subsamples, left out %+v, want %d, %+v", c.Subsamples, c.LeftOut, subsamples, left)
	}
	if err := c.check(model.(*AutoModel).Linear); err != nil {
		t.Errorf("committee record: %v", err)
	}
	return report
}

// TestGreedyAutoWideBrute checks greedytl-auto's mean against bruteAuto's
// with no outlier, one (1e7: kept, 1e30: left out), two columns far out on
// two negatives in either order of the columns, and one column far out on
// two negatives, 1e30 and 1e20 (only the subsample without 1e30 is left
// out: the other keeps 1e30, whose scale s' ≈ 1e30/3 hides the shift of
// 1e19; so one column cannot leave out two committees through outliers,
// each subsample keeping the others' — wideTally's counting is
// TestWideTally's); and on 2,500 rows, whose ridge member serves every
// committee, with four columns far out.
func TestGreedyAutoWideBrute(t *testing.T) {
	small := newConformanceCase(20, 10, 5, 6, 4) // rows 5–9 the negatives
	f0, f3, s2 := greedytl.Column{Kind: greedytl.Feature, Index: 0}, greedytl.Column{Kind: greedytl.Feature, Index: 3}, greedytl.Column{Kind: greedytl.Source, Index: 2}
	type value struct {
		c greedytl.Column
		r int
		v float64
	}
	for _, tc := range []struct {
		what   string
		values []value
		left   map[greedytl.Column]int
	}{
		{"none", nil, nil},
		{"1e7", []value{{f0, 5, 1e7}}, nil},
		{"1e30", []value{{f0, 5, 1e30}}, map[greedytl.Column]int{f0: 1}},
		{"feature and source", []value{{f0, 5, 1e30}, {s2, 8, 1e25}}, map[greedytl.Column]int{f0: 1, s2: 1}},
		{"source and feature", []value{{s2, 5, 1e25}, {f0, 8, 1e30}}, map[greedytl.Column]int{f0: 1, s2: 1}},
		{"one column twice", []value{{f3, 6, 1e30}, {f3, 9, 1e20}}, map[greedytl.Column]int{f3: 1}},
		{"one column twice, swapped", []value{{f3, 6, 1e20}, {f3, 9, 1e30}}, map[greedytl.Column]int{f3: 1}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			c := small
			for _, v := range tc.values {
				c.train = withValue(c.train, v.c, v.r, v.v)
			}
			report := bruteAuto(t, c)
			if len(report) != len(tc.left) {
				t.Fatalf("WideRanges()' columns = %+v, want %d columns", report, len(tc.left))
			}
			for _, w := range report {
				if w.Left != tc.left[w.Column] {
					t.Errorf("WideRanges()' columns = %+v, want %v left out per column", report, tc.left)
				}
			}
		})
	}
	t.Run("2500 rows", func(t *testing.T) {
		if testing.Short() {
			t.Skip("2,500 rows")
		}
		c := newConformanceCase(21, 2500, 1000, 10, 4)
		for k := range 4 {
			c.train = withValue(c.train, greedytl.Column{Kind: greedytl.Feature, Index: k}, 1500+37*k, 1e30)
		}
		if report := bruteAuto(t, c); len(report) == 0 {
			t.Errorf("WideRanges()' columns = %+v, want the columns far out that committees weight", report)
		}
	})
}

// TestWideTally: the tally counts, per column, the committees left out
// because of it and keeps the largest of their ratios, whatever comes
// last; it reports features before sources, each by index, whatever order
// the committees named them in; nothing when
// no committee was left out.
func TestWideTally(t *testing.T) {
	f0, f3, s1 := greedytl.Column{Kind: greedytl.Feature, Index: 0}, greedytl.Column{Kind: greedytl.Feature, Index: 3}, greedytl.Column{Kind: greedytl.Source, Index: 1}
	var none wideTally
	if got := none.report(); got != nil {
		t.Errorf("no committee left out: %+v", got)
	}
	var tally wideTally
	tally.add(1, []WideColumn{{Column: f3, Ratio: 7e8}, {Column: s1, Ratio: 1e9}})
	tally.add(4, []WideColumn{{Column: f3, Ratio: 9e8}})
	tally.add(7, []WideColumn{{Column: f0, Ratio: 2e8}, {Column: f3, Ratio: 8e8}})
	want := []WideColumn{{Column: f0, Ratio: 2e8, Left: 1}, {Column: f3, Ratio: 9e8, Left: 3}, {Column: s1, Ratio: 1e9, Left: 1}}
	if got := tally.report(); !slices.Equal(got, want) {
		t.Errorf("report = %+v, want %+v", got, want)
	}
	var c AutoCommittee
	tally.record(&c, 10)
	wantLeft := []AutoLeftOut{{1, []AutoWideColumn{{f3, 7e8}, {s1, 1e9}}}, {4, []AutoWideColumn{{f3, 9e8}}}, {7, []AutoWideColumn{{f0, 2e8}, {f3, 8e8}}}}
	if c.Subsamples != 10 || fmt.Sprint(c.LeftOut) != fmt.Sprint(wantLeft) {
		t.Errorf("record: %d subsamples, left out %+v, want 10, %+v", c.Subsamples, c.LeftOut, wantLeft)
	}
	var empty AutoCommittee
	none.record(&empty, 5)
	if empty.Subsamples != 0 || empty.LeftOut != nil {
		t.Errorf("record with none left out: %d subsamples, %+v: the file would change", empty.Subsamples, empty.LeftOut)
	}
}

// TestAutoCommitteeLeftOutCheck: the reader refuses a committee record
// whose subsamples and left-out committees do not fit its model: either
// without the other, counts that do not add up to "fits", a subsample out
// of range or order, a committee without columns, a column out of range
// or order, a ratio not above 2^26; the fit's own record passes.
func TestAutoCommitteeLeftOutCheck(t *testing.T) {
	tc := newConformanceCase(20, 10, 5, 6, 4)
	tc.train = withValue(tc.train, greedytl.Column{Kind: greedytl.Feature, Index: 0}, 5, 1e30)
	auto := mustFit(t, "greedytl-auto", tc).(*AutoModel)
	if err := auto.Committee.check(auto.Linear); err != nil || auto.Committee.Subsamples != 5 || len(auto.Committee.LeftOut) != 1 {
		t.Fatalf("the fit's record %+v: %v", auto.Committee, err)
	}
	f0 := greedytl.Column{Kind: greedytl.Feature, Index: 0}
	for _, bad := range []struct {
		what   string
		change func(c *AutoCommittee)
	}{
		{"subsamples alone", func(c *AutoCommittee) { c.LeftOut = nil }},
		{"left_out alone", func(c *AutoCommittee) { c.Subsamples = 0 }},
		{"counts", func(c *AutoCommittee) { c.Subsamples = 6 }},
		{"subsample 0", func(c *AutoCommittee) { c.LeftOut[0].Subsample = 0 }},
		{"subsample above", func(c *AutoCommittee) { c.LeftOut[0].Subsample = 6 }},
		{"subsamples out of order", func(c *AutoCommittee) {
			c.Subsamples++
			c.LeftOut = append(c.LeftOut, AutoLeftOut{Subsample: c.LeftOut[0].Subsample, Columns: c.LeftOut[0].Columns})
		}},
		{"no column", func(c *AutoCommittee) { c.LeftOut[0].Columns = nil }},
		{"column out of range", func(c *AutoCommittee) { c.LeftOut[0].Columns[0].Index = 99 }},
		{"columns out of order", func(c *AutoCommittee) {
			c.LeftOut[0].Columns = []AutoWideColumn{{greedytl.Column{Kind: greedytl.Source, Index: 0}, 1e9}, {f0, 1e9}}
		}},
		{"ratio 2^26", func(c *AutoCommittee) { c.LeftOut[0].Columns[0].Ratio = math.Ldexp(1, 26) }},
		{"ratio +Inf", func(c *AutoCommittee) { c.LeftOut[0].Columns[0].Ratio = math.Inf(1) }},
	} {
		c := *auto.Committee
		c.LeftOut = slices.Clone(c.LeftOut)
		for k := range c.LeftOut {
			c.LeftOut[k].Columns = slices.Clone(c.LeftOut[k].Columns)
		}
		bad.change(&c)
		if err := c.check(auto.Linear); err == nil {
			t.Errorf("%s: %+v accepted", bad.what, c)
		}
	}
}
