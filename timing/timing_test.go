package timing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/validate"
)

// TestRun times tiny cells in both orders and checks the rows'
// bookkeeping.
func TestRun(t *testing.T) {
	for _, ord := range []order{interleaved, inARow} {
		testRun(t, ord)
	}
}

func testRun(t *testing.T, ord order) {
	cells := []cell{
		{dataset: "a", pos: 2, neg: 3, n: 40, method: Exact, delta: 1e-4, paper: 1.5},
		{dataset: "a", pos: 2, neg: 3, n: 40, method: Sample59, delta: 1e-4, paper: 0.5},
		{pos: 4, neg: 4, n: 100, method: Exact, maxK: 6},
		{pos: 4, neg: 4, n: 100, method: Sample59, maxK: 6},
		{pos: 4, neg: 6, n: 30, method: Auto},
	}
	var calls []int
	rows, err := run(context.Background(), Options{Repeats: 3, Seed: 1, Progress: func(done, total int) {
		if total != 15 {
			t.Errorf("total = %d, want 15", total)
		}
		calls = append(calls, done)
	}}, cells, ord)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 15 || calls[0] != 1 || calls[14] != 15 {
		t.Errorf("progress calls %v", calls)
	}
	if len(rows) != len(cells) {
		t.Fatalf("%d rows for %d cells", len(rows), len(cells))
	}
	for i, r := range rows {
		c := cells[i]
		if r.M != c.pos+c.neg || r.N != c.n || r.Method != c.method || r.Repeats != 3 || r.PaperSeconds != c.paper || r.Dataset != c.dataset {
			t.Errorf("order %d: row %d = %+v for cell %+v", ord, i, r, c)
		}
		if !(r.Seconds > 0) || !(r.MinSeconds > 0 && r.MinSeconds <= r.Seconds) || !(r.MinCPUSeconds >= 0 && r.MinCPUSeconds <= r.CPUSeconds) {
			t.Errorf("row %d: seconds %v (least %v), CPU seconds %v (least %v)", i, r.Seconds, r.MinSeconds, r.CPUSeconds, r.MinCPUSeconds)
		}
		if c.maxK > 0 && r.Steps != c.maxK {
			t.Errorf("row %d: %d steps, want %d", i, r.Steps, c.maxK)
		}
		if r.Steps < 1 {
			t.Errorf("row %d: %d steps", i, r.Steps)
		}
	}
}

// TestProblem checks the random problems: shape, class sizes,
// reproducibility, and independence across repeats.
func TestProblem(t *testing.T) {
	c := cell{pos: 2, neg: 10, n: 30}
	H, y := problem(7, c, 0)
	if r, n := H.Dims(); r != 12 || n != 30 {
		t.Fatalf("H is %d×%d", r, n)
	}
	pos, _, err := validate.Labels(y)
	if err != nil {
		t.Fatal(err)
	}
	if pos != 2 {
		t.Errorf("%d positives, want 2", pos)
	}
	H2, _ := problem(7, c, 0)
	H3, _ := problem(7, c, 1)
	if H.At(3, 4) != H2.At(3, 4) || H.At(3, 4) == H3.At(3, 4) {
		t.Errorf("problems are not reproducible per repeat or not fresh across repeats")
	}
}

// TestPaperTableCells checks the cells of the paper's table: 18 of them,
// in order, with the paper's numbers in the right places.
func TestPaperTableCells(t *testing.T) {
	cells := paperCells()
	if len(cells) != 18 {
		t.Fatalf("%d cells, want 18", len(cells))
	}
	for _, c := range []struct {
		i       int
		m, n    int
		method  string
		seconds float64
	}{
		{0, 12, 1899, Exact, 1.541},
		{5, 20, 4995, Exact, 13.408},
		{7, 15, 4492, Exact, 6.764},
		{9, 12, 1899, Sample59, 0.043},
		{14, 20, 4995, Sample59, 0.198},
		{15, 12, 4492, Sample59, 0.060},
	} {
		got := cells[c.i]
		if got.pos+got.neg != c.m || got.n != c.n || got.method != c.method || got.paper != c.seconds || got.delta != 1e-4 || got.maxK != 0 {
			t.Errorf("cell %d = %+v, want m = %d, N = %d, %s, %v s, δ = 1e-4", c.i, got, c.m, c.n, c.method, c.seconds)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PaperTable(ctx, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestScalingCap runs Scaling capped at N = 1000 with one repeat.
func TestScalingCap(t *testing.T) {
	rows, err := Scaling(context.Background(), Options{Repeats: 1, MaxN: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].N != 1000 || rows[0].Method != Exact || rows[1].Method != Sample59 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.Steps != 60 || r.M != 20 {
			t.Errorf("row %+v", r)
		}
	}
}

// TestRowsCap runs Rows capped at m = 200 with one repeat: GreedyTL and
// GreedyTL-59 at N = 1,000 and 5,000, and greedytl-auto and greedytl-nway
// at N = 1,000.
func TestRowsCap(t *testing.T) {
	rows, err := Rows(context.Background(), Options{Repeats: 1, MaxM: 200})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		n      int
		method string
	}{{1000, Exact}, {1000, Sample59}, {1000, Auto}, {1000, NWay}, {5000, Exact}, {5000, Sample59}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for k, r := range rows {
		w := want[k]
		steps := r.Steps == 60
		switch w.method {
		case Auto:
			steps = r.Steps >= 1 // GreedyTL stopped by δ
		case NWay:
			steps = r.Steps == 0 // selects no columns
		}
		if r.Table != TableRows || r.M != 200 || r.N != w.n || r.Method != w.method || !steps || !(r.Seconds > 0) {
			t.Errorf("row %d: %+v, want m = 200, N = %d, %s", k, r, w.n, w.method)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestCapsBelowEverySize: a cap below the smallest size of Scaling or Rows
// is an error naming that size, rather than an empty table, and the
// smallest sizes are the tables' (TestScalingCap and TestRowsCap time
// them with the cap at these sizes).
func TestCapsBelowEverySize(t *testing.T) {
	if minScalingN() != slices.Min(scalingSizes) || minRowsM() != 200 {
		t.Fatalf("minScalingN %d, minRowsM %d", minScalingN(), minRowsM())
	}
	for _, s := range rowSizes {
		if s[0] < minRowsM() {
			t.Fatalf("row size %v below minRowsM %d", s, minRowsM())
		}
	}
	ctx := context.Background()
	if _, err := Scaling(ctx, Options{Repeats: 1, MaxN: 999}); err == nil || !strings.Contains(err.Error(), "smallest N is 1000") {
		t.Errorf("Scaling with MaxN 999: err = %v", err)
	}
	if _, err := Rows(ctx, Options{Repeats: 1, MaxM: 199}); err == nil || !strings.Contains(err.Error(), "smallest m is 200") {
		t.Errorf("Rows with MaxM 199: err = %v", err)
	}
}

// TestCheckCapsError: CheckCaps's error is a *CapError naming the field,
// its value and its table's smallest size, for the first negative cap,
// else the first cap below its table, as the rule written out here says
// (the CLI maps it to its flags and no longer tests the caps itself).
func TestCheckCapsError(t *testing.T) {
	smallest := map[string]int{"MaxN": minScalingN(), "MaxM": minRowsM()}
	for _, maxN := range []int{-1, 0, 1, minScalingN() - 1, minScalingN(), 1e6} {
		for _, maxM := range []int{-5, 0, 1, minRowsM() - 1, minRowsM(), 20000} {
			type field struct {
				name  string
				value int
			}
			fields := []field{{"MaxN", maxN}, {"MaxM", maxM}}
			var want *field
			for i := range fields { // a negative cap first
				if want == nil && fields[i].value < 0 {
					want = &fields[i]
				}
			}
			for i := range fields { // then one below every size
				if want == nil && fields[i].value > 0 && fields[i].value < smallest[fields[i].name] {
					want = &fields[i]
				}
			}
			err := Options{MaxN: maxN, MaxM: maxM}.CheckCaps()
			var ce *CapError
			switch {
			case want == nil && err != nil:
				t.Errorf("MaxN %d, MaxM %d: error %v, want none", maxN, maxM, err)
			case want == nil:
			case !errors.As(err, &ce):
				t.Errorf("MaxN %d, MaxM %d: error %v, want a *CapError", maxN, maxM, err)
			case ce.Field != want.name || ce.Value != want.value || ce.Smallest != smallest[want.name] || ce.Negative() != (want.value < 0):
				t.Errorf("MaxN %d, MaxM %d: %+v (negative %v), want field %s = %d, smallest %d", maxN, maxM, *ce, ce.Negative(), want.name, want.value, smallest[want.name])
			}
		}
	}
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{MaxN: -1}, "timing: MaxN = -1, want ≥ 0 (0: no cap)"},
		{Options{MaxM: -2}, "timing: MaxM = -2, want ≥ 0 (0: no cap)"},
		{Options{MaxN: 999}, "timing: MaxN = 999 skips every size of Scaling, whose smallest N is 1000"},
		{Options{MaxM: 199}, "timing: MaxM = 199 skips every size of Rows, whose smallest m is 200"},
	} {
		if err := c.opts.CheckCaps(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
}

// TestNegativeRepeats: a negative Options.Repeats is an error (as its doc
// says), returned before any fit, by every table.
func TestNegativeRepeats(t *testing.T) {
	opts := Options{Repeats: -1, Progress: func(done, total int) { t.Fatalf("a fit ran (%d of %d)", done, total) }}
	for name, table := range map[string]func(context.Context, Options) ([]Row, error){
		"PaperTable": PaperTable, "Scaling": Scaling, "Rows": Rows,
	} {
		if rows, err := table(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "Repeats must be ≥ 0, got -1") {
			t.Errorf("%s: rows %v, error %v; want the Repeats error", name, rows, err)
		}
	}
}

// TestRunInterleavesRepeats: repetition r of every cell is timed before
// repetition r+1 of any (all of a cell's repeats ran back to back, every
// small cell before any large one, so that a machine drifting over minutes
// moved the ratios between cells), and each row reports the median and
// least wall-clock and CPU seconds of its own fits.
func TestRunInterleavesRepeats(t *testing.T) {
	cells := []cell{
		{pos: 2, neg: 2, n: 5, method: Exact, maxK: 1, oneProblem: true},
		{pos: 2, neg: 2, n: 5, method: Sample59, maxK: 1, oneProblem: true},
		{pos: 3, neg: 3, n: 5, method: Exact, maxK: 1},
	}
	for _, tc := range []struct {
		reps int
		want []string
	}{
		{1, []string{"0/0", "1/0", "2/0"}},
		{3, []string{"0/0", "1/0", "2/0", "0/1", "1/1", "2/1", "0/2", "1/2", "2/2"}},
	} {
		var calls []string
		clk := fakeClocks(t, cells, &calls, nil)
		rows, err := runWith(context.Background(), Options{Repeats: tc.reps, Seed: 7}, cells, interleaved, clk)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(calls, tc.want) {
			t.Errorf("%d repeats: fits in the order %v (cell/repeat), want %v", tc.reps, calls, tc.want)
		}
		mid := float64(tc.reps+1) / 2 // median of 1 … reps
		for i, r := range rows {
			k := float64(i + 1)
			want := Row{M: cells[i].pos + cells[i].neg, N: 5, Method: cells[i].method, Steps: 10 + (tc.reps-1)/2, Repeats: tc.reps,
				Seconds: k * mid, MinSeconds: k, CPUSeconds: k * mid / 10, MinCPUSeconds: k / 10}
			if !closeRow(r, want) {
				t.Errorf("%d repeats, row %d = %+v, want %+v", tc.reps, i, r, want)
			}
		}
	}
}

// TestRunInARow checks the paper table's order (inARow): each cell's
// repetitions one after the other, after one untimed warm-up fit on
// repetition 0's problem and seed; the warm-up is in no row's times,
// steps or progress.
func TestRunInARow(t *testing.T) {
	cells := []cell{
		{pos: 2, neg: 2, n: 5, method: Exact, maxK: 1},
		{pos: 2, neg: 2, n: 5, method: Sample59, maxK: 1},
		{pos: 3, neg: 3, n: 5, method: Exact, maxK: 1},
	}
	var calls []string
	var progress []int
	seen := map[int]bool{} // the cells whose warm-up has run
	clk := fakeClocks(t, cells, &calls, func(i int) bool {
		warm := !seen[i]
		seen[i] = true
		return warm
	})
	rows, err := runWith(context.Background(), Options{Repeats: 3, Seed: 7, Progress: func(done, total int) {
		if total != 9 {
			t.Errorf("progress total %d, want 9", total)
		}
		progress = append(progress, done)
	}}, cells, inARow, clk)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0/0", "0/0", "0/1", "0/2", "1/0", "1/0", "1/1", "1/2", "2/0", "2/0", "2/1", "2/2"}
	if !slices.Equal(calls, want) {
		t.Errorf("fits in the order %v (cell/repeat, each cell's first its warm-up), want %v", calls, want)
	}
	if !slices.Equal(progress, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("progress %v, want 1 … 9", progress)
	}
	for i, r := range rows {
		k := float64(i + 1)
		want := Row{M: cells[i].pos + cells[i].neg, N: 5, Method: cells[i].method, Steps: 11, Repeats: 3,
			Seconds: k * 2, MinSeconds: k, CPUSeconds: k * 2 / 10, MinCPUSeconds: k / 10}
		if !closeRow(r, want) {
			t.Errorf("row %d = %+v, want %+v", i, r, want)
		}
	}
}

// fakeClocks returns clocks for runWith over cells whose fit appends each
// call to *calls as "cell/repeat" (seed 7 is repeat 0) and checks the
// problem's shape. Cell i's repeat r takes (i+1)·(r+1) s of wall time and
// a tenth of it of CPU time, so that the medians and least times tell the
// cells' fits apart, and returns 10 + r steps; a call that warm (if not
// nil) says is a warm-up takes 1,000 s of both and returns 99 steps,
// which no row may show.
func fakeClocks(t *testing.T, cells []cell, calls *[]string, warm func(i int) bool) clocks {
	var wall, cpu time.Duration
	return clocks{
		fit: func(_ context.Context, c cell, H *mat.Dense, y []float64, seed uint64) (int, error) {
			i := slices.IndexFunc(cells, func(d cell) bool { return d == c })
			r := int(seed - 7)
			*calls = append(*calls, fmt.Sprintf("%d/%d", i, r))
			if m, _ := H.Dims(); m != c.pos+c.neg || len(y) != m {
				t.Errorf("cell %d got a problem of %d rows", i, m)
			}
			if warm != nil && warm(i) {
				wall += 1000 * time.Second
				cpu += 1000 * time.Second
				return 99, nil
			}
			wall += time.Duration((i+1)*(r+1)) * time.Second
			cpu += time.Duration((i+1)*(r+1)) * 100 * time.Millisecond
			return 10 + r, nil
		},
		wall: func() time.Duration { return wall },
		cpu:  func() (time.Duration, bool) { return cpu, true },
	}
}

// closeRow reports whether rows a and b are equal but for rounding in
// their seconds.
func closeRow(a, b Row) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	ok := near(a.Seconds, b.Seconds) && near(a.MinSeconds, b.MinSeconds) && near(a.CPUSeconds, b.CPUSeconds) && near(a.MinCPUSeconds, b.MinCPUSeconds)
	a.Seconds, a.MinSeconds, a.CPUSeconds, a.MinCPUSeconds = b.Seconds, b.MinSeconds, b.CPUSeconds, b.MinCPUSeconds
	return ok && a == b
}

// TestRunWithoutCPUClock: where the process's CPU time cannot be read,
// the CPU seconds are 0, not the difference of two unread clocks.
func TestRunWithoutCPUClock(t *testing.T) {
	var wall time.Duration
	clk := clocks{
		fit: func(context.Context, cell, *mat.Dense, []float64, uint64) (int, error) {
			wall += time.Second
			return 1, nil
		},
		wall: func() time.Duration { return wall },
		cpu:  func() (time.Duration, bool) { return time.Duration(wall) * 3, false },
	}
	rows, err := runWith(context.Background(), Options{Repeats: 2}, []cell{{pos: 2, neg: 2, n: 3, method: Exact}}, interleaved, clk)
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Seconds != 1 || r.MinSeconds != 1 || r.CPUSeconds != 0 || r.MinCPUSeconds != 0 {
		t.Errorf("row %+v, want 1 s of wall time and no CPU time", r)
	}
}
