package timing

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/cputime"
	"github.com/greedytl/greedytl/method"
)

// Method names in Row.Method.
const (
	Exact    = "exact"         // exact GreedyTL (Options.Sample = 0)
	Sample59 = "sample59"      // GreedyTL-59 (Options.Sample = 59)
	Auto     = "greedytl-auto" // the recommended method, in Rows at N = 1,000
	NWay     = "greedytl-nway" // the recommended multi-class method, in Rows at N = 1,000
)

// The tables a Row can belong to (Row.Table).
const (
	TablePaper   = "paper"   // PaperTable
	TableScaling = "scaling" // Scaling
	TableRows    = "rows"    // Rows
)

// Row is one timed cell.
type Row struct {
	// Table is the table the row belongs to: TablePaper, TableScaling or
	// TableRows.
	Table string `json:"table"`
	// Dataset is the paper's name for the row of its table ("Imagenet
	// (DECAF7)"), empty for Scaling.
	Dataset string `json:"dataset,omitempty"`
	// M is the number of training examples, N the number of candidate
	// columns (sources plus feature dimensions).
	M int `json:"m"`
	N int `json:"n"`
	// Method is Exact, Sample59, Auto or NWay.
	Method string `json:"method"`
	// Steps is the median number of columns selected (for Auto, by its
	// GreedyTL member γ = 1 on the whole sample; 0 for NWay, which selects
	// none).
	Steps int `json:"steps"`
	// Seconds is the median wall-clock time of one fit, MinSeconds the
	// least.
	Seconds    float64 `json:"seconds"`
	MinSeconds float64 `json:"min_seconds"`
	// CPUSeconds is the median CPU time (user and system, every thread of
	// the process: greedytl-auto's and greedytl-nway's fits run in
	// parallel) of one fit, MinCPUSeconds the least; both 0 where the
	// system cannot read the process's CPU time. Unlike the wall-clock
	// time it does not count the time a fit waits for a core that other
	// processes hold.
	CPUSeconds    float64 `json:"cpu_seconds"`
	MinCPUSeconds float64 `json:"min_cpu_seconds"`
	// Repeats is the number of runs the medians are taken over.
	Repeats int `json:"repeats"`
	// PaperSeconds is the paper's mean time for the cell, 0 if it has none.
	PaperSeconds float64 `json:"paper_seconds"`
}

// Options control a timing run.
type Options struct {
	// Repeats is the number of runs per cell; 0 means 5, and a negative
	// count is an error.
	Repeats int
	// Seed seeds the random problems and GreedyTL-59's sampling.
	Seed uint64
	// MaxN makes Scaling skip sizes above MaxN; 0 means no cap.
	MaxN int
	// MaxM makes Rows skip sizes with more than MaxM rows; 0 means no cap.
	MaxM int
	// Progress, if not nil, is called after every fit with the number of
	// fits done and the total.
	Progress func(done, total int)
}

// cell is one configuration to time.
type cell struct {
	table    string
	dataset  string
	pos, neg int // class sizes; m = pos + neg
	n        int
	method   string
	delta    float64
	maxK     int
	paper    float64
	// oneProblem times every repeat on the same problem (for the large
	// Scaling sizes, where drawing the data costs more than the fits).
	oneProblem bool
}

// paperRows are the rows of the paper's table: name, N, and the mean
// seconds of exact GreedyTL and GreedyTL-59 for 2, 5 and 10 positives
// (with 10 negatives).
var paperRows = []struct {
	name          string
	n             int
	exact, sample [3]float64
}{
	{"Imagenet (SIFT-BOW)", 1899, [3]float64{1.541, 3.083, 5.291}, [3]float64{0.043, 0.088, 0.149}},
	{"Imagenet (DECAF7)", 4995, [3]float64{3.481, 7.492, 13.408}, [3]float64{0.055, 0.114, 0.198}},
	{"SUN-397 (Caffe-7)", 4492, [3]float64{3.245, 6.764, 11.282}, [3]float64{0.060, 0.120, 0.198}},
}

// paperPositives are the positive class sizes of the paper's columns.
var paperPositives = [3]int{2, 5, 10}

// PaperTable times every cell of the paper's timing table (see the package
// documentation): first the exact method's nine cells, then GreedyTL-59's,
// each in the paper's row and column order.
func PaperTable(ctx context.Context, opts Options) ([]Row, error) {
	return run(ctx, opts, paperCells(), inARow)
}

// paperCells returns the cells of PaperTable in order.
func paperCells() []cell {
	var cells []cell
	for _, method := range []string{Exact, Sample59} {
		for _, r := range paperRows {
			for k, pos := range paperPositives {
				paper := r.exact[k]
				if method == Sample59 {
					paper = r.sample[k]
				}
				cells = append(cells, cell{table: TablePaper, dataset: r.name, pos: pos, neg: 10, n: r.n, method: method, delta: 1e-4, paper: paper})
			}
		}
	}
	return cells
}

// scalingSizes are the sizes N of Scaling, increasing.
var scalingSizes = []int{1e3, 1e4, 1e5, 1e6}

// minScalingN returns the smallest N of Scaling: a MaxN below it skips
// every size.
func minScalingN() int { return scalingSizes[0] }

// minRowsM returns the smallest m of Rows: a MaxM below it skips every
// size.
func minRowsM() int { return rowSizes[0][0] }

// CapError is CheckCaps's error: the cap Field of Options ("MaxN" or
// "MaxM") is Value, which is negative (Negative), or is a cap below
// Smallest, the smallest size of the field's table (Scaling's N, Rows'
// m), which it would leave empty.
type CapError struct {
	Field    string
	Value    int
	Smallest int

	table, size string // the field's table and what its sizes count
}

// Negative reports whether the cap is negative (rather than below every
// size of its table).
func (e *CapError) Negative() bool { return e.Value < 0 }

// Error says which cap is wrong and why.
func (e *CapError) Error() string {
	if e.Negative() {
		return fmt.Sprintf("timing: %s = %d, want ≥ 0 (0: no cap)", e.Field, e.Value)
	}
	return fmt.Sprintf("timing: %s = %d skips every size of %s, whose smallest %s is %d", e.Field, e.Value, e.table, e.size, e.Smallest)
}

// CheckCaps returns a *CapError when opts.MaxN or opts.MaxM is negative,
// or is a cap below every size of Scaling (minScalingN) or Rows
// (minRowsM), whose table would then be empty: for the first negative cap
// (MaxN before MaxM), else for the first cap below its table. Scaling and
// Rows return it.
func (opts Options) CheckCaps() error {
	caps := []*CapError{
		{Field: "MaxN", Value: opts.MaxN, Smallest: minScalingN(), table: "Scaling", size: "N"},
		{Field: "MaxM", Value: opts.MaxM, Smallest: minRowsM(), table: "Rows", size: "m"},
	}
	for _, c := range caps {
		if c.Negative() {
			return c
		}
	}
	for _, c := range caps {
		if c.Value > 0 && c.Value < c.Smallest {
			return c
		}
	}
	return nil
}

// Scaling times exact GreedyTL and GreedyTL-59 at m = 20 (10 + 10
// examples) for N = 10³, 10⁴, 10⁵ and 10⁶ (those ≤ opts.MaxN), 60 steps
// each (δ = 0). N = 10⁶ holds about 350 MB of data. It returns
// opts.CheckCaps's error.
func Scaling(ctx context.Context, opts Options) ([]Row, error) {
	if err := opts.CheckCaps(); err != nil {
		return nil, err
	}
	var cells []cell
	for _, n := range scalingSizes {
		if opts.MaxN > 0 && n > opts.MaxN {
			continue
		}
		for _, method := range []string{Exact, Sample59} {
			cells = append(cells, cell{table: TableScaling, pos: 10, neg: 10, n: n, method: method, maxK: 60, oneProblem: true})
		}
	}
	return run(ctx, opts, cells, interleaved)
}

// rowSizes are the shapes of Rows, (m, N).
var rowSizes = [][2]int{{200, 1000}, {2000, 1000}, {200, 5000}, {2000, 5000}, {20000, 5000}}

// Rows times exact GreedyTL and GreedyTL-59 over the number of training
// examples: m = 200 and 2,000 at N = 1,000 candidates, and m = 200, 2,000
// and 20,000 at N = 5,000 (those with m ≤ opts.MaxM), half of them
// positive, 60 steps each (δ = 0); and at N = 1,000 the recommended method
// greedytl-auto (Auto, its default settings: GreedyTL members stopped by
// δ = 1e-4, a committee on the whole sample and 10 subsamples) and the
// recommended multi-class method greedytl-nway (NWay: the problem's rows
// dealt to nwayClasses classes in turn, its first 800 columns as features
// and the other 200 as source scores). m = 20,000, N = 5,000 holds 800 MB
// of data, and the exact search's float32 block half as much again. It
// returns opts.CheckCaps's error.
func Rows(ctx context.Context, opts Options) ([]Row, error) {
	if err := opts.CheckCaps(); err != nil {
		return nil, err
	}
	var cells []cell
	for _, s := range rowSizes {
		m, n := s[0], s[1]
		if opts.MaxM > 0 && m > opts.MaxM {
			continue
		}
		for _, method := range []string{Exact, Sample59} {
			cells = append(cells, cell{table: TableRows, pos: m / 2, neg: m - m/2, n: n, method: method, maxK: 60, oneProblem: true})
		}
		if n == 1000 {
			cells = append(cells, cell{table: TableRows, pos: m / 2, neg: m - m/2, n: n, method: Auto, oneProblem: true})
			cells = append(cells, cell{table: TableRows, pos: m / 2, neg: m - m/2, n: n, method: NWay, oneProblem: true})
		}
	}
	return run(ctx, opts, cells, interleaved)
}

// fitAuto fits greedytl-auto on the source scores H and labels y and
// returns the number of columns its GreedyTL member γ = 1 selected on the
// whole sample.
func fitAuto(ctx context.Context, H *mat.Dense, y []float64) (int, error) {
	meth, err := method.New(Auto)
	if err != nil {
		return 0, err
	}
	model, err := meth.Fit(ctx, method.Data{H: H, Y: y}, method.Extra{})
	if err != nil {
		return 0, err
	}
	auto, ok := model.(*method.AutoModel)
	if !ok || auto.Committee == nil || len(auto.Committee.Greedy) == 0 {
		return 0, fmt.Errorf("timing: greedytl-auto gave a %T without its committee", model)
	}
	return len(auto.Committee.Greedy[0].Path), nil
}

// nwayClasses is the number of classes of Rows' NWay cells, and
// nwayFeatures the number of the problem's columns they use as features.
const (
	nwayClasses  = 20
	nwayFeatures = 800
)

// fitNWay fits greedytl-nway on the problem H (its first nwayFeatures
// columns as features, the others as source scores) with row i of class
// i mod nwayClasses.
func fitNWay(ctx context.Context, H *mat.Dense, seed uint64) error {
	meth, err := method.NewMulti(NWay)
	if err != nil {
		return err
	}
	m, n := H.Dims()
	y := method.ClassLabels{Names: make([]string, nwayClasses), Y: make([]int, m)}
	for k := range y.Names {
		y.Names[k] = fmt.Sprint("class", k)
	}
	for i := range y.Y {
		y.Y[i] = i % nwayClasses
	}
	data := method.Data{X: H.Slice(0, m, 0, nwayFeatures), H: H.Slice(0, m, nwayFeatures, n)}
	_, err = meth.FitMulti(ctx, data, y, method.Extra{Seed: seed})
	return err
}

// run times cells, in the order ord, with the real fits and clocks (see
// runWith).
func run(ctx context.Context, opts Options, cells []cell, ord order) ([]Row, error) {
	return runWith(ctx, opts, cells, ord, clocks{fit: fitCell, wall: wallClock, cpu: cputime.Process})
}

// order is the order in which runWith fits a table's cells and their
// repetitions.
type order int

const (
	// interleaved runs repetition r of every cell before repetition r+1
	// of any: for tables whose fits take seconds and the whole table
	// minutes, so that a machine whose speed drifts over minutes moves
	// every cell's times alike rather than the later cells' alone, and
	// the ratios between cells stay sound (Rows, Scaling).
	interleaved order = iota
	// inARow runs each cell's repetitions one after the other, after one
	// untimed fit of the cell (a warm-up): for the paper's table, whose
	// fits take a millisecond or less and the whole table well under a
	// second, where drift is nothing and interleaving would time every
	// fit just after the other cells' fits and problems had displaced its
	// data and code from the caches and left their own sizes of recycled
	// buffers in the pools — at m = 20, N = 4,995 that made a GreedyTL-59
	// fit half as slow again (0.27–0.41 against 0.20–0.26 ms on the idle 2-core machine). In a
	// row they measure what a process fitting one model after another
	// (the protocol, a search, many classes) sees, as go test -bench does.
	inARow
)

// clocks are what runWith times with: fit fits cell c on the problem H, y
// with the seed and returns the number of columns selected; wall reads the
// wall clock and cpu the process's CPU time (false when it cannot). Tests
// replace them to see the order of the fits.
type clocks struct {
	fit  func(ctx context.Context, c cell, H *mat.Dense, y []float64, seed uint64) (int, error)
	wall func() time.Duration
	cpu  func() (time.Duration, bool)
}

// epoch is the origin of wallClock.
var epoch = time.Now()

// wallClock returns the monotonic wall-clock time since epoch.
func wallClock() time.Duration { return time.Since(epoch) }

// runWith times cells, their repetitions in the order ord (interleaved,
// or each cell's in a row after a warm-up: order). A fit is timed on the
// wall clock and on the process's CPU clock (which does not count the
// time the fit waits for a core other processes hold).
// Problems are drawn afresh for every repeat (unless the cell says
// oneProblem), from a generator seeded by opts.Seed, the cell's shape and
// the repeat, so that both methods see the same problems; consecutive
// cells of one shape share the problem they draw, which a oneProblem cell
// draws again in every repetition (outside the timed fit).
func runWith(ctx context.Context, opts Options, cells []cell, ord order, clk clocks) ([]Row, error) {
	reps := opts.Repeats
	if reps == 0 {
		reps = 5
	}
	if reps < 0 {
		return nil, fmt.Errorf("timing: Repeats must be ≥ 0, got %d", reps)
	}
	total, done := len(cells)*reps, 0
	secs, cpus, steps := make([][]float64, len(cells)), make([][]float64, len(cells)), make([][]int, len(cells))
	for i := range cells {
		secs[i], cpus[i], steps[i] = make([]float64, reps), make([]float64, reps), make([]int, reps)
	}
	cpuOK := true
	type key struct{ pos, neg, n, r int }
	var lastKey key
	var lastH *mat.Dense
	var lastY []float64
	// The fits in order: cell i's repetition r, or its warm-up (untimed,
	// on repetition 0's problem and seed).
	type fit struct {
		i, r int
		warm bool
	}
	var fits []fit
	switch ord {
	case interleaved:
		for r := range reps {
			for i := range cells {
				fits = append(fits, fit{i: i, r: r})
			}
		}
	case inARow:
		for i := range cells {
			fits = append(fits, fit{i: i, warm: true})
			for r := range reps {
				fits = append(fits, fit{i: i, r: r})
			}
		}
	}
	for _, f := range fits {
		i, r, c := f.i, f.r, cells[f.i]
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("timing: %w", err)
		}
		k := key{c.pos, c.neg, c.n, r}
		if c.oneProblem {
			k.r = 0
		}
		if lastH == nil || k != lastKey {
			lastH, lastY, lastKey = nil, nil, k // let the old problem go first
			lastH, lastY = problem(opts.Seed, c, k.r)
		}
		cpu0, ok0 := clk.cpu()
		wall0 := clk.wall()
		n, err := clk.fit(ctx, c, lastH, lastY, opts.Seed+uint64(r))
		wall1 := clk.wall()
		cpu1, ok1 := clk.cpu()
		if err != nil {
			return nil, fmt.Errorf("timing: m = %d, N = %d, %s: %w", c.pos+c.neg, c.n, c.method, err)
		}
		if f.warm {
			continue
		}
		steps[i][r], secs[i][r], cpus[i][r] = n, (wall1 - wall0).Seconds(), (cpu1 - cpu0).Seconds()
		cpuOK = cpuOK && ok0 && ok1
		done++
		if opts.Progress != nil {
			opts.Progress(done, total)
		}
	}
	rows := make([]Row, 0, len(cells))
	for i, c := range cells {
		row := Row{
			Table:        c.table,
			Dataset:      c.dataset,
			M:            c.pos + c.neg,
			N:            c.n,
			Method:       c.method,
			Steps:        int(median(steps[i]) + 0.5),
			Seconds:      median(secs[i]),
			MinSeconds:   slices.Min(secs[i]),
			Repeats:      reps,
			PaperSeconds: c.paper,
		}
		if cpuOK {
			row.CPUSeconds, row.MinCPUSeconds = median(cpus[i]), slices.Min(cpus[i])
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// fitCell fits cell c's method on the problem H, y with the seed and
// returns the number of columns selected (for Auto, by its GreedyTL
// member γ = 1 on the whole sample; 0 for NWay).
func fitCell(ctx context.Context, c cell, H *mat.Dense, y []float64, seed uint64) (int, error) {
	switch c.method {
	case Auto:
		return fitAuto(ctx, H, y)
	case NWay:
		return 0, fitNWay(ctx, H, seed)
	}
	o := greedytl.DefaultOptions()
	o.Delta, o.MaxK, o.Seed = c.delta, c.maxK, seed
	if c.method == Sample59 {
		o.Sample = 59
	}
	mod, err := greedytl.Fit(ctx, nil, H, y, o)
	if err != nil {
		return 0, err
	}
	return len(mod.Selected), nil
}

// problem returns the r-th random problem of cell c: an m×N matrix of
// standard normal source scores and c.pos labels +1 and c.neg labels −1 in
// random order.
func problem(seed uint64, c cell, r int) (*mat.Dense, []float64) {
	m := c.pos + c.neg
	rng := rand.New(rand.NewPCG(seed, uint64(m)<<40^uint64(c.n)<<8^uint64(r)))
	data := make([]float64, m*c.n)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = -1
		if i < c.pos {
			y[i] = 1
		}
	}
	rng.Shuffle(m, func(i, j int) { y[i], y[j] = y[j], y[i] })
	return mat.NewDense(m, c.n, data), y
}

// median returns the median of xs (the mean of the middle two for an even
// count); xs must not be empty.
func median[T int | float64](xs []T) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return (float64(s[n/2-1]) + float64(s[n/2])) / 2
}
