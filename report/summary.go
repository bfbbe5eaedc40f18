package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
)

// Row summarises the cells of one method at one training-set size and noise
// level on one dataset: the class-balanced accuracy averaged over targets
// and splits, and its standard error over splits.
//
// A row of an N-way run (experiment.ProtocolNWay) has Ways > 0 and Shots
// (equal to Positives); its Mean is the mean accuracy over episodes (the
// splits) and its StdErr the standard error over episodes.
type Row struct {
	Dataset   string `json:"dataset"`
	Method    string `json:"method"`
	Ways      int    `json:"ways,omitempty"`
	Shots     int    `json:"shots,omitempty"`
	Positives int    `json:"positives"`
	Noise     int    `json:"noise"`
	// Mean is the mean balanced accuracy of the successful cells, in [0,
	// 1]; for an N-way row, the mean accuracy of its episodes. Mean, StdErr
	// and FitSecondsMean are null in the JSON form of a row without a
	// successful cell (N = 0, MarshalJSON), where they average nothing.
	Mean float64 `json:"mean"`
	// StdErr is the standard error of Mean over splits: the sample standard
	// deviation of the per-split means (each the mean over that split's
	// targets) divided by √Splits. It is 0 when Splits is 1, where one
	// split gives no estimate of the spread (HasStdErr is false): the JSON
	// form has null there (MarshalJSON), and the tables no standard error.
	StdErr float64 `json:"stderr"`
	// Splits is the number of splits with at least one successful cell.
	Splits int `json:"splits"`
	// N is the number of successful cells (targets × splits).
	N int `json:"n"`
	// Errors is the number of failed cells, which are left out of Mean.
	Errors int `json:"errors"`
	// FitSecondsMean is the mean fit time of the successful cells.
	FitSecondsMean float64 `json:"fit_seconds_mean"`
	// Expected is the number of cells the run's grid has for the row
	// (targets × splits), set by Results.Rows from run.json; 0 when
	// unknown. N + Errors < Expected is a partial row.
	Expected int `json:"expected,omitempty"`
	// NotConverged counts the successful cells (of N) whose final fit — the
	// run that gave the model its weights — stopped before its solver's
	// stopping rule held (a not_converged entry with final in the record,
	// experiment.Record.NotConverged): their accuracy is that of the
	// solver's last iterate, not of the method's solution.
	// SelectionNotConverged counts the other successful cells with runs
	// that stopped, all of them runs that chose a hyperparameter. Such
	// cells are averaged like the others, and reports mark the row
	// (NotConvergedMark, ConvergenceNote); both are 0, and absent from the
	// JSON, when every run converged.
	NotConverged          int `json:"not_converged,omitempty"`
	SelectionNotConverged int `json:"selection_not_converged,omitempty"`
	// WideRange counts the successful cells (of N) whose greedytl-auto fit
	// left subsamples' committees out of its mean because a column's
	// values span a huge range (a wide_range entry in the record,
	// experiment.Record.WideRange): their model averages fewer committees
	// than the method's others. Such cells are averaged like the others,
	// and reports mark the row (WideRangeMark, WideRangeNote); 0, and
	// absent from the JSON, when no committee was left out.
	WideRange int `json:"wide_range,omitempty"`
}

// MarshalJSON writes r as its fields' tags say, except that a row without
// a successful cell (N = 0) has mean, stderr and fit_seconds_mean null:
// they average nothing, and a 0 would read as an accuracy of 0; and a row
// of one split has stderr null: one split measures no spread, and a 0
// would claim certainty.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row // Row's fields without this method
	if r.HasStdErr() {
		return json.Marshal(plain(r))
	}
	// The outer fields hide plain's of the same name (encoding/json's rule
	// for embedded fields).
	out := struct {
		plain
		Mean           *float64 `json:"mean"`
		StdErr         *float64 `json:"stderr"`
		FitSecondsMean *float64 `json:"fit_seconds_mean"`
	}{plain: plain(r)}
	if r.N > 0 {
		out.Mean, out.FitSecondsMean = &r.Mean, &r.FitSecondsMean
	}
	return json.Marshal(out)
}

// HasStdErr reports whether the row has a standard error: successful cells
// (N > 0) from more than one split. One split measures no spread: its
// StdErr of 0 is no measurement, and the JSON (null) and the tables (none,
// or "(1 split)", of an N-way row "(1 episode)") give none. A row with N > 0 has Splits ≥ 1.
func (r Row) HasStdErr() bool { return r.N > 0 && r.Splits > 1 }

// BalancedAccuracyTitle names the measure that a row of the binary
// protocols (leave-one-class-out, skewed) averages, Row.Mean: the
// class-balanced accuracy, the mean of the accuracies on the positive and
// on the negative test examples, in %. The report's tables are headed by
// it, and the CLI's summary (greedytl report) heads its column with it.
// An N-way row's mean is the episodes' plain accuracy.
const BalancedAccuracyTitle = "Balanced accuracy (%)"

// NotConvergedMark marks, in a report's tables, the accuracy of a row some
// of whose cells come from fits with solver runs that stopped short
// (Row.NotConverged, Row.SelectionNotConverged).
const NotConvergedMark = "†"

// StoppedShort reports whether some of the row's averaged cells come from
// fits with solver runs that stopped before their stopping rule held (a
// final fit's or a hyperparameter choice's): the rows reports mark
// (NotConvergedMark) and ConvergenceNote describes.
func (r Row) StoppedShort() bool { return r.NotConverged != 0 || r.SelectionNotConverged != 0 }

// ConvergenceNote returns what a report says of a row some of whose
// averaged cells come from fits with solver runs that stopped before their
// stopping rule held — how many had their final fit's run stop, how many
// only runs that chose a hyperparameter — or "" when every run of the
// row's averaged cells converged (StoppedShort is false).
func (r Row) ConvergenceNote() string {
	if !r.StoppedShort() {
		return ""
	}
	have := func(n int) string {
		return fmt.Sprintf("%d of the %d cells averaged %s", n, r.N, plural.Word(n, "has", "have"))
	}
	var parts []string
	if r.NotConverged > 0 {
		parts = append(parts, have(r.NotConverged)+" a final fit whose solver stopped before its stopping rule held (its accuracy is that of the solver's last iterate, not of the method's solution)")
	}
	if r.SelectionNotConverged > 0 {
		parts = append(parts, have(r.SelectionNotConverged)+" solver runs that stopped short only in choosing a hyperparameter (it may not be the one converged runs choose)")
	}
	return fmt.Sprintf("%s %s, %s: %s; the records' not_converged name the solvers", datasetTitle(r.Dataset), r.Method, r.where(), strings.Join(parts, "; "))
}

// WideRangeMark marks, in a report's tables, the accuracy of a row some
// of whose cells come from fits that left committees out of their mean
// (Row.WideRange).
const WideRangeMark = "‡"

// WideRangeNote returns what a report says of a row some of whose averaged
// cells come from fits that left subsamples' committees out of their mean
// (Row.WideRange), or "" when none did.
func (r Row) WideRangeNote() string {
	if r.WideRange == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s, %s: %d of the %d cells averaged %s a fit that left subsamples' committees out of its mean, a column's values spanning so huge a range (its mean on the subsample more than 2^26 of the subsample's standard deviations from the whole sample's) that the whole sample's standardisation could not carry them; the records' wide_range name the columns",
		datasetTitle(r.Dataset), r.Method, r.where(), r.WideRange, r.N, plural.Word(r.WideRange, "has", "have"))
}

// where names the row's place in the grid for its notes: "2 positives,
// noise 0", or for an N-way row "5-way, 1-shot".
func (r Row) where() string {
	if r.Ways > 0 {
		return fmt.Sprintf("%d-way, %d-shot", r.Ways, r.Shots)
	}
	return fmt.Sprintf("%s, noise %d", plural.Count(r.Positives, "positive", "positives"), r.Noise)
}

// rowKey identifies a summary row.
type rowKey struct {
	dataset, method  string
	positives, noise int
	ways             int // an N-way row's; 0 for the binary protocols'
}

func keyOf(r *experiment.Record) rowKey {
	return rowKey{r.Dataset, r.Method, r.Positives, r.Noise, r.Ways}
}

// rowKeyOf returns the key of a summary row.
func rowKeyOf(r Row) rowKey { return rowKey{r.Dataset, r.Method, r.Positives, r.Noise, r.Ways} }

// compareRowKeys orders rows by dataset, ways, noise, positives, then
// method in the paper's order.
func compareRowKeys(a, b rowKey) int {
	return cmp.Or(
		cmp.Compare(a.dataset, b.dataset),
		cmp.Compare(a.ways, b.ways),
		cmp.Compare(a.noise, b.noise),
		cmp.Compare(a.positives, b.positives),
		compareMethods(a.method, b.method),
	)
}

// Summarize returns one Row per (dataset, method, positives, noise) found in
// records, ordered by dataset, noise, positives and method (in the paper's
// order). Failed records (non-empty Error) are counted in Errors and never
// averaged; a row whose cells all failed has N = 0 and Mean, StdErr and
// FitSecondsMean 0. Successful records with solver runs that stopped short
// (not_converged) are averaged and counted (NotConverged,
// SelectionNotConverged), and so are those whose fits left committees out
// of their mean (wide_range: WideRange).
func Summarize(records []experiment.Record) []Row {
	type acc struct {
		fits                    []float64
		errs                    int
		notConverged, selection int
		wide                    int
		split                   map[int][]float64 // split → its values
	}
	groups := map[rowKey]*acc{}
	for i := range records {
		r := &records[i]
		k := keyOf(r)
		a := groups[k]
		if a == nil {
			a = &acc{split: map[int][]float64{}}
			groups[k] = a
		}
		if r.Error != "" {
			a.errs++
			continue
		}
		v := r.BalancedAccuracy
		if r.Ways > 0 {
			v = r.Accuracy
		}
		a.split[r.Split] = append(a.split[r.Split], v)
		a.fits = append(a.fits, r.FitSeconds)
		switch {
		case slices.ContainsFunc(r.NotConverged, func(e method.NotConverged) bool { return e.Final }):
			a.notConverged++
		case len(r.NotConverged) > 0:
			a.selection++
		}
		if len(r.WideRange) > 0 {
			a.wide++
		}
	}
	rows := make([]Row, 0, len(groups))
	for k, a := range groups {
		var vals []float64 // every split's, in the map's order: sortedMean sorts them
		for _, vs := range a.split {
			vals = append(vals, vs...)
		}
		n := len(vals)
		row := Row{Dataset: k.dataset, Method: k.method, Positives: k.positives, Noise: k.noise, N: n, Errors: a.errs, Splits: len(a.split),
			NotConverged: a.notConverged, SelectionNotConverged: a.selection, WideRange: a.wide}
		if k.ways > 0 {
			row.Ways, row.Shots = k.ways, k.positives
		}
		if n > 0 {
			// Every sum in a fixed order, the values' sorted one: the same
			// bits whatever the order of the records (workers, shards).
			row.Mean = sortedMean(vals)
			row.FitSecondsMean = sortedMean(a.fits)
			means := make([]float64, 0, len(a.split))
			for _, vs := range a.split {
				means = append(means, sortedMean(vs))
			}
			slices.Sort(means)
			row.StdErr = stdDev(means) / math.Sqrt(float64(len(means)))
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b Row) int {
		return compareRowKeys(rowKeyOf(a), rowKeyOf(b))
	})
	return rows
}

// mean returns the mean of xs (0 for none).
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return overflowSafeMean(s, len(xs), slices.Values(xs))
}

// sortedMean returns the mean of xs summed in increasing order, which
// does not depend on the order of xs; it sorts xs in place.
func sortedMean(xs []float64) float64 {
	slices.Sort(xs)
	return mean(xs)
}

// overflowSafeMean returns the mean of the n > 0 values that values
// yields, given sum, their sum in that order: sum/n, or, when the sum
// overflowed (±Inf), Σ x/n in that order, which the mean of finite values
// (at most the largest |x|) does not overflow. values is read only then.
func overflowSafeMean(sum float64, n int, values iter.Seq[float64]) float64 {
	if !math.IsInf(sum, 0) {
		return sum / float64(n)
	}
	var s float64
	for x := range values {
		s += x / float64(n)
	}
	return s
}

// stdDev returns the sample standard deviation of xs (n − 1 in the
// denominator), 0 for fewer than two values.
func stdDev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	if !math.IsInf(ss, 0) {
		return math.Sqrt(ss / float64(len(xs)-1))
	}
	// The squares overflowed: scale the deviations by the largest.
	var top float64
	for _, x := range xs {
		top = math.Max(top, math.Abs(x-m))
	}
	ss = 0
	for _, x := range xs {
		d := (x - m) / top
		ss += d * d
	}
	return top * math.Sqrt(ss/float64(len(xs)-1))
}

// targetMeans returns, for the successful records of one row key, the mean
// accuracy of each target over its splits.
func targetMeans(records []experiment.Record, k rowKey) map[int]float64 {
	sum := map[int]float64{}
	cnt := map[int]int{}
	for i := range records {
		r := &records[i]
		if r.Error != "" || keyOf(r) != k {
			continue
		}
		sum[r.TargetIdx] += r.BalancedAccuracy
		cnt[r.TargetIdx]++
	}
	for t := range sum {
		sum[t] /= float64(cnt[t])
	}
	return sum
}

// fitTimes returns the fit seconds of the successful records of one row key.
func fitTimes(records []experiment.Record, k rowKey) []float64 {
	var ts []float64
	for i := range records {
		r := &records[i]
		if r.Error == "" && keyOf(r) == k {
			ts = append(ts, r.FitSeconds)
		}
	}
	return ts
}
