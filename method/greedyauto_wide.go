package method

import (
	"cmp"
	"math"
	"slices"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/standardize"
)

// maxShiftRatio bounds the shift ratio of a column that a subsample's
// committee weights for greedytl-auto to average it (wideColumns): 2^26.
//
// A subsample's committee is a linear function in its own standardisation:
// a column with weight w, mean μ' and scale s' on the subsample contributes
// w·(v − μ')/s'. The model keeps one linear function in the whole sample's
// standardisation (μ, s), where that contribution is W·z + w·(μ − μ')/s'
// with W = w·s/s' and z = (v − μ)/s (addLinear). In float64 z is known to
// within its rounding, u·|z| with u = 2^-53, and for rows like the
// subsample's (v within a few s' of μ') |z| is about |μ − μ'|/s + s'/s, so
// the rewritten contribution is off by about |W|·u·|z| =
// |w|·u·(r + 1), r = |μ − μ'|/s' the column's shift ratio: s/s' cancels,
// and only the shift of the mean, in the subsample's scales, counts. The
// weight's term and the intercept, each of order |w|·r, cancel to the
// contribution, of order |w|, and log₂ r of float64's 53 bits go with
// them (the roundings of W and of the intercept are of the same order).
// At r ≈ 2^53 nothing of the column's contribution is left and the error,
// about |w|, drowns every other column's (the scores of a least-squares fit
// of ±1 labels are of order one; one value of 1e30 among values near 5 made
// every prediction one constant). r ≤ 2^26 keeps at least half of the
// digits: the error stays below 2^-27·|w| ≈ 7e-9·|w|, far below the
// differences between the scores of examples. A subsample leaves out a
// tenth of one class, and one value V far from the others among m examples
// shifts the mean by about V/m: a ratio above 2^26 takes a value some
// 7·10^7·m of the subsample's standard deviations from the others, which no
// column measured on one scale has (columns scaled by 1e-3…1e3, counts and
// heavy tails are far from it). The ratio of the scales, s/s', does not
// count: it is √m times the shift for one outlier, and bounding it dropped
// committees whose conversion lost few digits (m = 2,500 and one value of
// 1e10: s/s' ≈ 2·10^8, but r ≈ 4·10^6, an error below 1e-9·|w|).
var maxShiftRatio = math.Ldexp(1, 26)

// WarnWideRange is the code of the warning that a fit's WideRanges report
// gives (greedytl fit, in --json "warnings"): a word that programs match,
// which stays when a message is reworded.
const WarnWideRange = "wide-range"

// WideRange is a fit's report that greedytl-auto left subsamples'
// committees out of its mean because of columns whose values span so huge
// a range (WideColumn): the one report of it, which greedytl fit's
// wide-range warning and the protocol's records (experiment.WideRange)
// both give. The model is the mean of the other committees, the whole
// sample's always among them: its hyperparameter "fits" counts them,
// Subsamples + 1 − LeftOut.
type WideRange struct {
	// Class is the class whose binary fit it is, for a model of several
	// classes fitted one class against the rest; "" for a binary model.
	Class string
	// LeftOut is the number of subsamples' committees left out: the length
	// of the model file's "left_out" (AutoCommittee.LeftOut), which lists
	// each of them with its columns.
	LeftOut int
	// Subsamples is the number of subsamples' committees fitted, those left
	// out included, the whole sample's not counted (AutoCommittee.Subsamples).
	Subsamples int
	// Columns are the columns because of which, features before sources,
	// each by index.
	Columns []WideColumn
}

// WideColumn is a column because of which greedytl-auto left subsamples'
// committees out of its mean (WideRange): the committees of the subsamples
// that weight the column and on which its mean is more than maxShiftRatio
// of the subsample's standard deviations away from the whole sample's,
// whose linear functions cannot be written in the whole sample's
// standardisation without losing more than half of float64's digits (see
// maxShiftRatio).
type WideColumn struct {
	// Column is the column: a feature or a source, by its index.
	Column greedytl.Column
	// Ratio is the largest shift ratio |μ − μ'|/s' of the column over the
	// committees left out because of it, μ the column's mean on the whole
	// sample, μ' and s' its mean and scale on the subsample.
	Ratio float64
	// Left is the number of subsamples' committees left out that weight the
	// column with such a ratio (a committee may count for several columns).
	Left int
}

// WideRangeReporter is implemented by greedytl-auto's models and by a
// model of several classes fitted one class against the rest. WideRanges
// returns the fit's reports of committees left out of its mean (WideRange):
// one for a binary model that left some out, one per class whose binary
// fit left some out (Class naming it); nil when none was left out, and for
// a model read from a file.
type WideRangeReporter interface {
	WideRanges() []WideRange
}

// WideRanges returns the fit's report of the committees it left out of its
// mean (see WideRangeReporter): LeftOut and Subsamples from m.Committee,
// the columns from the fit; nil when none was left out, and for a model
// read from a file.
func (m *AutoModel) WideRanges() []WideRange {
	if len(m.wide) == 0 || m.Committee == nil {
		return nil
	}
	return []WideRange{{LeftOut: len(m.Committee.LeftOut), Subsamples: m.Committee.Subsamples, Columns: slices.Clone(m.wide)}}
}

// wideColumns returns the columns with a non-zero weight in src, a
// subsample's committee, whose shift ratio (see maxShiftRatio) from src's
// statistics to dst's, the whole sample's, exceeds maxShiftRatio; Left is not
// set. Nil means src can be added to dst (addLinear).
func wideColumns(dst, src *Linear) []WideColumn {
	var out []WideColumn
	check := func(kind greedytl.Kind, dsc, ssc standardize.Scaler, sw []float64) {
		for j, w := range sw {
			s, s1 := dsc.Scale[j], ssc.Scale[j]
			if w == 0 || s1 == 0 || s == 0 { // addLinear drops the weight
				continue
			}
			// A ratio or a converted weight beyond float64 (values near
			// ±1e308) is left out too, its ratio recorded as the largest
			// float64, so that the model file reads back. The ratio is
			// never NaN: a fit's scalers have finite means and scales
			// (standardize recomputes an overflowing sum as Σ v_i/n and
			// refuses a column whose deviations overflow), so |μ − μ'|,
			// at most the whole sample's largest deviation, is finite and
			// only the division by a tiny s' can overflow, to +Inf.
			r := math.Abs(dsc.Mean[j]-ssc.Mean[j]) / s1
			if r > maxShiftRatio || math.IsInf(w*(s/s1), 0) {
				out = append(out, WideColumn{Column: greedytl.Column{Kind: kind, Index: j}, Ratio: min(r, math.MaxFloat64)})
			}
		}
	}
	check(greedytl.Feature, dst.X, src.X, src.WX)
	check(greedytl.Source, dst.H, src.H, src.WH)
	return out
}

// wideTally gathers the WideColumn reports of the committees a fit left out.
type wideTally struct {
	cols []WideColumn
	left []AutoLeftOut
}

// add counts the committee of subsample k (from 1) left out because of the
// columns wide (wideColumns' result).
func (t *wideTally) add(k int, wide []WideColumn) {
	l := AutoLeftOut{Subsample: k}
	for _, w := range wide {
		l.Columns = append(l.Columns, AutoWideColumn{Column: w.Column, Ratio: w.Ratio})
		i := slices.IndexFunc(t.cols, func(c WideColumn) bool { return c.Column == w.Column })
		if i < 0 {
			t.cols = append(t.cols, WideColumn{Column: w.Column})
			i = len(t.cols) - 1
		}
		t.cols[i].Ratio = max(t.cols[i].Ratio, w.Ratio)
		t.cols[i].Left++
	}
	t.left = append(t.left, l)
}

// report returns the columns, features before sources, each by index; nil
// when no committee was left out.
func (t *wideTally) report() []WideColumn {
	if len(t.cols) == 0 {
		return nil
	}
	out := slices.Clone(t.cols)
	slices.SortFunc(out, func(a, b WideColumn) int { return compareColumns(a.Column, b.Column) })
	return out
}

// record writes into c, the committee's record, the subsamples fitted and
// the committees left out, when some were (see AutoCommittee.LeftOut).
func (t *wideTally) record(c *AutoCommittee, subsamples int) {
	if len(t.left) == 0 {
		return
	}
	c.Subsamples, c.LeftOut = subsamples, t.left
}

// compareColumns orders columns features before sources, each by index.
func compareColumns(a, b greedytl.Column) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Index, b.Index))
}
