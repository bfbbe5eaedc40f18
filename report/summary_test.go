package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// cell builds a successful record.
func cell(method string, target, positives, noise, split int, acc, fit float64) experiment.Record {
	return experiment.Record{Dataset: "d", Target: "t", TargetIdx: target, Positives: positives, Negatives: 10,
		Noise: noise, Split: split, Method: method, BalancedAccuracy: acc, FitSeconds: fit, Features: -1}
}

// failed builds a failed record whose numbers must never be averaged.
func failed(method string, target, positives, noise, split int) experiment.Record {
	r := cell(method, target, positives, noise, split, 0.123, 99)
	r.Error = "boom"
	return r
}

func TestSummarize(t *testing.T) {
	// 2 targets × 3 splits; accuracies by [split][target].
	grid := func(method string, accs [3][2]float64) []experiment.Record {
		var recs []experiment.Record
		for s := range 3 {
			for tg := range 2 {
				recs = append(recs, cell(method, tg, 2, 0, s, accs[s][tg], float64(1+2*s+tg)))
			}
		}
		return recs
	}
	full := grid("greedytl", [3][2]float64{{0.7, 0.8}, {0.6, 0.9}, {0.8, 0.9}})
	// The same with split 2's second target failed.
	withError := grid("greedytl", [3][2]float64{{0.7, 0.8}, {0.6, 0.9}, {0.8, 0.9}})
	withError[5] = failed("greedytl", 1, 2, 0, 2)

	tests := []struct {
		name    string
		records []experiment.Record
		want    []Row
	}{
		{
			// Split means 0.75, 0.75, 0.85: mean 0.78333…; their sample
			// standard deviation is 0.057735…, over √3: 1/30.
			name:    "2 targets × 3 splits",
			records: full,
			want: []Row{{Dataset: "d", Method: "greedytl", Positives: 2, Noise: 0, Mean: 4.7 / 6, StdErr: 1.0 / 30,
				Splits: 3, N: 6, FitSecondsMean: 3.5}},
		},
		{
			// Split means 0.75, 0.75, 0.80 (split 2 has one target
			// left): standard error 1/60; mean over the 5 cells 0.76.
			name:    "a failed cell is counted, not averaged",
			records: withError,
			want: []Row{{Dataset: "d", Method: "greedytl", Positives: 2, Noise: 0, Mean: 0.76, StdErr: 1.0 / 60,
				Splits: 3, N: 5, Errors: 1, FitSecondsMean: 3}},
		},
		{
			name:    "one split: no standard error",
			records: []experiment.Record{cell("dam", 0, 5, 0, 4, 0.6, 2), cell("dam", 1, 5, 0, 4, 0.9, 4)},
			want:    []Row{{Dataset: "d", Method: "dam", Positives: 5, Mean: 0.75, StdErr: 0, Splits: 1, N: 2, FitSecondsMean: 3}},
		},
		{
			name:    "every cell failed",
			records: []experiment.Record{failed("dam", 0, 5, 0, 0), failed("dam", 1, 5, 0, 1)},
			want:    []Row{{Dataset: "d", Method: "dam", Positives: 5, Errors: 2}},
		},
		{
			// Ordered by dataset, noise, positives, then the paper's
			// method order, unknown methods last by name.
			name: "order",
			records: []experiment.Record{
				cell("zeta", 0, 2, 0, 0, 0.5, 1), cell("no-transfer", 0, 2, 0, 0, 0.5, 1),
				cell("greedytl", 0, 10, 0, 0, 0.5, 1), cell("greedytl", 0, 2, 100, 0, 0.5, 1),
				cell("alpha", 0, 2, 0, 0, 0.5, 1), cell("greedytl-59", 0, 2, 0, 0, 0.5, 1),
			},
			want: []Row{
				{Dataset: "d", Method: "greedytl-59", Positives: 2, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
				{Dataset: "d", Method: "no-transfer", Positives: 2, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
				{Dataset: "d", Method: "alpha", Positives: 2, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
				{Dataset: "d", Method: "zeta", Positives: 2, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
				{Dataset: "d", Method: "greedytl", Positives: 10, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
				{Dataset: "d", Method: "greedytl", Positives: 2, Noise: 100, Mean: 0.5, Splits: 1, N: 1, FitSecondsMean: 1},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Summarize(tc.records)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d rows, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if !near(g.Mean, w.Mean) || !near(g.StdErr, w.StdErr) || !near(g.FitSecondsMean, w.FitSecondsMean) {
					t.Errorf("row %d: mean %v ± %v, fit %v; want %v ± %v, fit %v", i, g.Mean, g.StdErr, g.FitSecondsMean, w.Mean, w.StdErr, w.FitSecondsMean)
				}
				g.Mean, g.StdErr, g.FitSecondsMean = w.Mean, w.StdErr, w.FitSecondsMean
				if g != w {
					t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// TestSummarizeStdErrFormula checks the standard error against its
// definition on random grids with missing cells.
func TestSummarizeStdErrFormula(t *testing.T) {
	s := synth{dataset: "d", classes: 7, positives: []int{2, 5}, splits: 5, noise: []int{0}, methods: []string{"greedytl", "dam"}, failEvery: 7, seed: 9}
	recs := s.records()
	for _, row := range Summarize(recs) {
		bySplit := map[int][]float64{}
		var all []float64
		for _, r := range recs {
			if r.Method == row.Method && r.Positives == row.Positives && r.Error == "" {
				bySplit[r.Split] = append(bySplit[r.Split], r.BalancedAccuracy)
				all = append(all, r.BalancedAccuracy)
			}
		}
		var means []float64
		for _, accs := range bySplit {
			means = append(means, mean(accs))
		}
		m := mean(means)
		var ss float64
		for _, x := range means {
			ss += (x - m) * (x - m)
		}
		se := math.Sqrt(ss/float64(len(means)-1)) / math.Sqrt(float64(len(means)))
		if math.Abs(row.StdErr-se) > 1e-12 || math.Abs(row.Mean-mean(all)) > 1e-12 || row.N != len(all) || row.Splits != len(means) {
			t.Errorf("%s %d: got mean %v ± %v (n %d, %d splits), want %v ± %v (n %d, %d splits)",
				row.Method, row.Positives, row.Mean, row.StdErr, row.N, row.Splits, mean(all), se, len(all), len(means))
		}
		if row.Errors == 0 {
			t.Errorf("%s %d: no failed cell counted; the grid has some", row.Method, row.Positives)
		}
	}
}

func TestRowJSON(t *testing.T) {
	b, err := json.Marshal(Row{Dataset: "coil", Method: "greedytl", Positives: 2, Noise: 10, Mean: 0.75, StdErr: 0.01, Splits: 10, N: 800, Errors: 1, FitSecondsMean: 0.002})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"dataset": "coil", "method": "greedytl", "positives": 2.0, "noise": 10.0, "mean": 0.75,
		"stderr": 0.01, "splits": 10.0, "n": 800.0, "errors": 1.0, "fit_seconds_mean": 0.002}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if len(m) != len(want) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		t.Errorf("fields %v, want %d", keys, len(want))
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{64.2, 84.7, []string{"65.0", "67.5", "70.0", "72.5", "75.0", "77.5", "80.0", "82.5"}},
		{0, 1, []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}},
		{72, 93, []string{"72.5", "75.0", "77.5", "80.0", "82.5", "85.0", "87.5", "90.0", "92.5"}},
		{0, 1300, []string{"0", "200", "400", "600", "800", "1000", "1200"}},
		{0.31, 0.35, []string{"0.310", "0.315", "0.320", "0.325", "0.330", "0.335", "0.340", "0.345", "0.350"}},
	}
	for _, tc := range tests {
		var got []string
		prev := math.Inf(-1)
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Value < tc.lo-1e-9 || tk.Value > tc.hi+1e-9 {
				t.Errorf("[%v, %v]: tick %v out of range", tc.lo, tc.hi, tk.Value)
			}
			if tk.Label != "" {
				if tk.Value <= prev {
					t.Errorf("[%v, %v]: labels not increasing", tc.lo, tc.hi)
				}
				prev = tk.Value
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("[%v, %v]: labels %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestTimesThatOverflow: fit times whose sum (or squared deviations)
// overflow float64 have a finite mean and standard deviation, as the
// definitions give them, where the row's fit_seconds_mean was +Inf (the
// table printed it, --json failed: "unsupported value: +Inf") and Table 1
// read +Inf ± NaN.
func TestTimesThatOverflow(t *testing.T) {
	const m = math.MaxFloat64
	rel := func(got, want float64) bool { return math.Abs(got-want) <= 1e-15*want }
	if got := mean([]float64{m, m / 2}); !rel(got, 0.75*m) {
		t.Errorf("mean(max, max/2) = %v, want %v", got, 0.75*m)
	}
	if got := stdDev([]float64{m, 0}); !rel(got, m/math.Sqrt2) {
		t.Errorf("stdDev(max, 0) = %v, want %v", got, m/math.Sqrt2)
	}
	if got := stdDev([]float64{1, 2, 4}); !near(got, math.Sqrt(7.0/3)) {
		t.Errorf("stdDev(1, 2, 4) = %v, want %v", got, math.Sqrt(7.0/3))
	}
	rows := Summarize([]experiment.Record{cell("greedytl", 0, 2, 0, 0, 0.5, m), cell("greedytl", 1, 2, 0, 0, 0.7, m/2)})
	if len(rows) != 1 || !rel(rows[0].FitSecondsMean, 0.75*m) {
		t.Fatalf("rows %+v, want one with fit_seconds_mean %v", rows, 0.75*m)
	}
	if _, err := json.Marshal(rows); err != nil {
		t.Errorf("JSON: %v", err)
	}
}

// TestRowStoppedShort: a row is marked when a final fit's or only a
// hyperparameter choice's solver runs stopped short, and then only has a
// note.
func TestRowStoppedShort(t *testing.T) {
	for _, tc := range []struct {
		final, selection int
		want             bool
	}{{0, 0, false}, {2, 0, true}, {0, 1, true}, {3, 4, true}} {
		r := Row{Dataset: "toy", Method: "m", Positives: 2, N: 9, NotConverged: tc.final, SelectionNotConverged: tc.selection}
		if got, note := r.StoppedShort(), r.ConvergenceNote(); got != tc.want || (note != "") != tc.want {
			t.Errorf("final %d, selection %d: StoppedShort %v, note %q; want %v", tc.final, tc.selection, got, note, tc.want)
		}
	}
}

// formerMean is the overflow fallback that mean, Summarize's
// fit_seconds_mean and meanAbsWeights each wrote out before they shared
// overflowSafeMean: the sum in order over n, or, when it overflowed, the
// sum of x/n in order.
func formerMean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	if !math.IsInf(s, 0) {
		return s / float64(len(xs))
	}
	s = 0
	for _, x := range xs {
		s += x / float64(len(xs))
	}
	return s
}

// TestOverflowSafeMeanKeepsTheBits: the three means of package report
// that fall back to Σ x/n when their sum overflows give the bits they
// gave when each wrote the fallback out (formerMean), on values near the
// float64 maximum (most sums overflow) and small ones, in the records'
// order (the fit time's in increasing order, as Summarize sums them).
func TestOverflowSafeMeanKeepsTheBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	overflowed := 0
	for trial := range 300 {
		n := 1 + rng.IntN(9)
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(4) {
			case 0:
				xs[i] = rng.Float64() * 10
			default:
				xs[i] = math.MaxFloat64 * (1 - rng.Float64()*0.7)
			}
			if rng.IntN(3) == 0 {
				xs[i] = -xs[i]
			}
		}
		abs := make([]float64, n)
		var recs []experiment.Record
		for i, x := range xs {
			abs[i] = math.Abs(x)
			r := cell("greedytl", 0, 2, 0, i, 0.5, abs[i])
			r.Sources, r.Weights = []int{1}, []float64{x}
			recs = append(recs, r)
		}
		if math.IsInf(formerSum(abs), 0) {
			overflowed++
		}
		if got, want := mean(xs), formerMean(xs); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("trial %d: mean(%v) = %v, want %v", trial, xs, got, want)
		}
		rows := Summarize(recs)
		if got, want := rows[0].FitSecondsMean, formerMean(slices.Sorted(slices.Values(abs))); len(rows) != 1 || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("trial %d: fit_seconds_mean of %v = %v, want %v", trial, abs, got, want)
		}
		w := meanAbsWeights(recs, rowKey{dataset: "d", method: "greedytl", positives: 2})
		if got, want := w.val[[2]int{1, 0}], formerMean(abs); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("trial %d: mean |weight| of %v = %v, want %v", trial, xs, got, want)
		}
	}
	if overflowed < 100 {
		t.Fatalf("%d of 300 sums overflowed: the test does not test the fallback", overflowed)
	}
}

// formerSum is the sum of xs in order.
func formerSum(xs []float64) (s float64) {
	for _, x := range xs {
		s += x
	}
	return s
}

// TestSummarizeIgnoresRecordOrder checks that the summary of a run does not
// depend on the order of its records — the order in which workers finished
// them, or shards were given to report — down to the last bit of every mean
// and standard error, and of the mean fit time (which was summed in the
// records' order): report of the shards and of their merge (grid order)
// print the same numbers.
func TestSummarizeIgnoresRecordOrder(t *testing.T) {
	s := synth{dataset: "d", classes: 9, positives: []int{2, 5}, splits: 4, noise: []int{0}, methods: []string{"greedytl", "dam"}, failEvery: 11, seed: 3}
	recs := s.records()
	fits := rand.New(rand.NewPCG(7, 7))
	for i := range recs {
		recs[i].FitSeconds = fits.Float64() / 100
	}
	want := Summarize(recs)
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 20 {
		shuffled := slices.Clone(recs)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := Summarize(shuffled)
		for k := range want {
			if got[k].FitSecondsMean != want[k].FitSecondsMean {
				t.Fatalf("trial %d, %s %d positives: fit time %v after shuffling the records, %v before",
					trial, want[k].Method, want[k].Positives, got[k].FitSecondsMean, want[k].FitSecondsMean)
			}
			if got[k].Mean != want[k].Mean || got[k].StdErr != want[k].StdErr {
				t.Fatalf("trial %d, %s %d positives: mean %v ± %v after shuffling the records, %v ± %v before",
					trial, want[k].Method, want[k].Positives, got[k].Mean, got[k].StdErr, want[k].Mean, want[k].StdErr)
			}
		}
	}
}
