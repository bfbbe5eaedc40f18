package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/greedytl/greedytl/internal/plural"
)

// series is one method's line in an accuracy panel: y ± e (in %) at
// category positions x; cut[i] tells that the method failed at a category
// between points i-1 and i, or has no record there of a cell its grid
// holds.
type series struct {
	x    []float64
	y, e []float64
	cut  []bool
}

func (s *series) Len() int                        { return len(s.x) }
func (s *series) XY(i int) (float64, float64)     { return s.x[i], s.y[i] }
func (s *series) YError(i int) (float64, float64) { return s.e[i], s.e[i] }

// withErrors returns the points of s with a non-zero error.
func (s *series) withErrors() *series {
	out := &series{}
	for i := range s.x {
		if s.e[i] > 0 {
			out.x, out.y, out.e = append(out.x, s.x[i]), append(out.y, s.y[i]), append(out.e, s.e[i])
		}
	}
	return out
}

// runs returns s cut where the method failed or its cells are missing
// (cut): the points to be joined by a line. A category where the method
// was not run (not in its grid) does not cut it.
func (s *series) runs() []*series {
	var out []*series
	for i := range s.x {
		if i == 0 || s.cut[i] {
			out = append(out, &series{})
		}
		r := out[len(out)-1]
		r.x, r.y, r.e, r.cut = append(r.x, s.x[i]), append(r.y, s.y[i]), append(r.e, s.e[i]), append(r.cut, s.cut[i])
	}
	return out
}

// methodThumb draws a method's legend entry: its line with its marker.
type methodThumb struct {
	line  draw.LineStyle
	glyph draw.GlyphStyle
}

func (t methodThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.line, c.Min.X, y, c.Max.X, y)
	c.DrawGlyph(t.glyph, c.Center())
}

// methodLegend returns a legend naming methods in order, styled as in the
// figures of a dataset whose methods are all (methodStyles).
func methodLegend(names, all []string) *plot.Legend {
	l := newLegend()
	lss, gss := methodStyles(names, all)
	for i, m := range names {
		l.Add(methodLabel(m), methodThumb{lss[i], gss[i]})
	}
	return &l
}

// categories returns the sorted distinct values and their tick labels.
func categories(vals []int) ([]int, plot.ConstantTicks) {
	slices.Sort(vals)
	vals = slices.Compact(vals)
	ticks := make(plot.ConstantTicks, len(vals))
	for i, v := range vals {
		ticks[i] = plot.Tick{Value: float64(i), Label: strconv.Itoa(v)}
	}
	return vals, ticks
}

// accuracyPanel returns a plot of accuracy (%) against the category index
// for each method of ms, styled as in the figures of a dataset whose
// methods are all (methodStyles); at(m, i) returns the row at category i,
// ok false where the method was not run. A method's line is cut where its
// row has no successful cell (N 0: its cells failed, or are missing from a
// partial run: datasetRows.point), not where it was not run.
// Points of different methods are shifted apart a little so that their
// error bars do not hide each other.
func accuracyPanel(title, xlabel string, ticks plot.ConstantTicks, ms, all []string, at func(m string, i int) (Row, bool)) (*plot.Plot, error) {
	p := newPlot(title, xlabel, "balanced accuracy (%)")
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = -0.45, float64(len(ticks)-1)+0.45
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 220}
	p.Add(grid)
	p.Y.Tick.Marker = niceTicks{}
	width := math.Min(0.05, 0.3/float64(len(ms)))
	lss, gss := methodStyles(ms, all)
	for j, m := range ms {
		ls, gs := lss[j], gss[j]
		s := &series{}
		shift := (float64(j) - float64(len(ms)-1)/2) * width
		failed := false // since the last point
		for i := range ticks {
			r, ok := at(m, i)
			if !ok {
				continue
			}
			if r.N == 0 {
				failed = true
				continue
			}
			s.x = append(s.x, float64(i)+shift)
			s.y = append(s.y, 100*r.Mean)
			s.e = append(s.e, 100*r.StdErr)
			s.cut = append(s.cut, failed)
			failed = false
		}
		if s.Len() == 0 {
			continue
		}
		pts, err := plotter.NewScatter(s)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle = gs
		// No line across a category where the method has no successful
		// cell (they failed, or are missing): it would read as a value
		// there. A category where the method was not run (the
		// categories are every method's) keeps its line, as in a figure
		// of its own.
		for _, run := range s.runs() {
			line, err := plotter.NewLine(run)
			if err != nil {
				return nil, err
			}
			line.LineStyle = ls
			p.Add(line)
		}
		if eb := s.withErrors(); eb.Len() > 0 { // one split: no error to draw
			bars, err := plotter.NewYErrorBars(eb)
			if err != nil {
				return nil, err
			}
			bars.LineStyle = draw.LineStyle{Color: ls.Color, Width: vg.Points(1)}
			bars.CapWidth = vg.Points(5)
			p.Add(bars)
		}
		p.Add(pts)
	}
	// A margin, so that no point sits on the frame.
	switch {
	case math.IsInf(p.Y.Min, 0) || math.IsInf(p.Y.Max, 0): // no data
	case p.Y.Min < p.Y.Max:
		m := math.Max(0.05*(p.Y.Max-p.Y.Min), 0.5)
		p.Y.Min, p.Y.Max = p.Y.Min-m, p.Y.Max+m
	default:
		p.Y.Min, p.Y.Max = p.Y.Min-1, p.Y.Max+1
	}
	return p, nil
}

// sharedY gives plots the same y range, so that panels compare at a glance.
func sharedY(plots []*plot.Plot) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range plots {
		lo, hi = math.Min(lo, p.Y.Min), math.Max(hi, p.Y.Max)
	}
	for _, p := range plots {
		p.Y.Min, p.Y.Max = lo, hi
	}
}

// gridRows indexes the summary rows of one dataset, of either protocol,
// with what the grids of the dataset's runs hold (Results.gridRows): what
// datasetRows (the binary protocols') and nwayRows (N-way's) share.
type gridRows struct {
	dataset string
	rows    []Row
	index   map[rowKey]Row
	// inGrid reports whether the grids of the dataset's runs hold the
	// cells of a row (Results.expected); nil when no run.json was read,
	// and the grid is unknown. With a run.json every method's grid is
	// known: a record of a results file without one beside it is a cell
	// of a grid read (experiment.ReadRuns refuses others).
	inGrid func(rowKey) bool
	// grid holds the values of the grids of the dataset's runs (run.json's,
	// nil when none was read): by noise level the numbers of positives, or,
	// N-way, by number of ways the numbers of shots — values the figures'
	// axes and the tables' columns have even where no method has a record
	// (a partial run).
	grid map[int][]int
}

// newGridRows indexes rows, the summary rows of one dataset, without a
// grid.
func newGridRows(rows []Row) gridRows {
	g := gridRows{rows: rows, index: map[rowKey]Row{}}
	for _, r := range rows {
		g.dataset = r.Dataset
		g.index[rowKeyOf(r)] = r
	}
	return g
}

// get returns the row of key k, if there is one.
func (g *gridRows) get(k rowKey) (Row, bool) {
	r, ok := g.index[k]
	return r, ok
}

// point returns the row of key k as a figure's line takes it: ok false
// where the method was not run (its grid does not hold the row: the line
// joins across it), and a row without a successful cell (N 0: the line is
// cut there) where its cells failed or, held by its grid, have no record
// (a partial run) — or the grid is unknown (no run.json), where a missing
// row is not known not to have been run.
func (g *gridRows) point(k rowKey) (Row, bool) {
	r, ok := g.index[k]
	return r, ok || g.inGrid == nil || g.inGrid(k)
}

// distinct returns the sorted distinct values of f over the rows that keep
// keeps.
func (g *gridRows) distinct(keep func(Row) bool, f func(Row) int) []int {
	var vs []int
	for _, r := range g.rows {
		if keep(r) {
			vs = append(vs, f(r))
		}
	}
	slices.Sort(vs)
	return slices.Compact(vs)
}

// datasetRows indexes the summary rows of a dataset of the binary
// protocols by method, positives and noise level.
type datasetRows struct{ gridRows }

// key returns the key of the row of method at positives and noise.
func (d *datasetRows) key(method string, positives, noise int) rowKey {
	return rowKey{dataset: d.dataset, method: method, positives: positives, noise: noise}
}

// methods returns the methods with a successful cell at noise (all noise
// levels when noise < 0), in the paper's order.
func (d *datasetRows) methods(noise int) []string {
	var ms []string
	for _, r := range d.rows {
		if r.N > 0 && (noise < 0 || r.Noise == noise) && !slices.Contains(ms, r.Method) {
			ms = append(ms, r.Method)
		}
	}
	slices.SortFunc(ms, compareMethods)
	return ms
}

// positives returns the training-set sizes with a successful cell at noise.
func (d *datasetRows) positives(noise int) []int {
	return d.distinct(func(r Row) bool { return r.N > 0 && r.Noise == noise }, func(r Row) int { return r.Positives })
}

// runPositives returns the training-set sizes run at noise: those whose
// every cell failed too, and those of the runs' grids that have no record
// yet (a partial run).
func (d *datasetRows) runPositives(noise int) []int {
	return sortedUnion(d.recordedPositives(noise), d.grid[noise])
}

// recordedPositives returns the training-set sizes that have a row at
// noise: a record, successful or failed.
func (d *datasetRows) recordedPositives(noise int) []int {
	return d.distinct(func(r Row) bool { return r.Noise == noise }, func(r Row) int { return r.Positives })
}

// noises returns the noise levels with a successful cell.
func (d *datasetRows) noises() []int {
	return d.distinct(func(r Row) bool { return r.N > 0 }, func(r Row) int { return r.Noise })
}

// runNoises returns the noise levels run: those whose every cell failed
// too, and those of the runs' grids that have no record yet.
func (d *datasetRows) runNoises() []int {
	return sortedUnion(d.recordedNoises(), sortedInts(d.grid))
}

// recordedNoises returns the noise levels that have a row: a record,
// successful or failed.
func (d *datasetRows) recordedNoises() []int {
	return d.distinct(func(Row) bool { return true }, func(r Row) int { return r.Noise })
}

// sortedUnion returns the sorted distinct values of a and b.
func sortedUnion(a, b []int) []int {
	vs := append(slices.Clone(a), b...)
	slices.Sort(vs)
	return slices.Compact(vs)
}

// positivesLabel is the x-axis label for training-set sizes.
func positivesLabel(negatives int) string {
	if negatives > 0 {
		return fmt.Sprintf("positive training examples (+ %d negatives)", negatives)
	}
	return "positive training examples"
}

// accuracyFigure is Fig. 1: accuracy against training positives, one line
// per method, at one noise level. Its axis has every size run, as the
// accuracy table's columns: one whose every cell failed has no point and
// cuts the lines (accuracyPanel). So do the noise levels of noiseFigure
// and the sizes of approxFigure.
func accuracyFigure(name, dataset string, d *datasetRows, noise, negatives int) (*figure, error) {
	ps, ticks := categories(d.runPositives(noise))
	ms, all := d.methods(noise), d.methods(-1)
	title := fmt.Sprintf("%s: balanced accuracy vs training positives", dataset)
	if noise > 0 {
		title += " (" + plural.Count(noise, "noise dimension", "noise dimensions") + ")"
	}
	p, err := accuracyPanel(title, positivesLabel(negatives), ticks, ms, all, func(m string, i int) (Row, bool) {
		return d.point(d.key(m, ps[i], noise))
	})
	if err != nil {
		return nil, err
	}
	leg := methodLegend(ms, all)
	width, height := legendFit(9*vg.Inch, 5.2*vg.Inch, leg, 0)
	return &figure{
		name: name,
		caption: fmt.Sprintf("Balanced accuracy on %s, averaged over targets and splits, against the number of positive "+
			"training examples; error bars: ± one standard error over splits (leave-one-class-out; cf. the paper's Fig. 1).", dataset),
		width: width, height: height,
		draw: func(c draw.Canvas) { drawPanels(c, []*plot.Plot{p}, leg) },
	}, nil
}

// noiseFigure is Fig. 2: accuracy against the number of appended noise
// dimensions, one panel per training-set size, for the methods run at two
// or more noise levels (the feature-selection methods of the paper first).
func noiseFigure(name, dataset string, d *datasetRows, negatives int) (*figure, error) {
	ns, ticks := categories(d.runNoises())
	all := d.methods(-1)
	var ms []string
	for _, m := range all {
		levels := 0
		for _, n := range ns {
			for _, p := range d.positives(n) {
				if r, ok := d.get(d.key(m, p, n)); ok && r.N > 0 {
					levels++
					break
				}
			}
		}
		if levels >= 2 {
			ms = append(ms, m)
		}
	}
	if len(ms) > 8 { // keep the figure readable: the paper's noise-study methods
		var fs []string
		for _, m := range ms {
			if selectsFeatures(m) {
				fs = append(fs, m)
			}
		}
		if len(fs) > 0 {
			ms = fs
		}
	}
	var positives []int
	for _, n := range ns {
		positives = append(positives, d.positives(n)...)
	}
	slices.Sort(positives)
	positives = slices.Compact(positives)
	var plots []*plot.Plot
	for _, pos := range positives {
		title := fmt.Sprintf("%d+%d", pos, negatives)
		if negatives == 0 {
			title = plural.Count(pos, "positive", "positives")
		}
		p, err := accuracyPanel(title, "noise dimensions", ticks, ms, all, func(m string, i int) (Row, bool) {
			return d.point(d.key(m, pos, ns[i]))
		})
		if err != nil {
			return nil, err
		}
		plots = append(plots, p)
	}
	sharedY(plots)
	for _, p := range plots[1:] {
		p.Y.Label.Text = ""
	}
	leg := methodLegend(ms, all)
	sty := plots[0].Title.TextStyle
	above := vg.Length(0) // a super-title above the panels
	if len(plots) > 1 {
		above = sty.Height(dataset) + vg.Points(8)
	}
	width, height := legendFit(3.6*vg.Inch*vg.Length(len(plots))+legendRoom, 4.6*vg.Inch, leg, above)
	return &figure{
		name: name,
		caption: fmt.Sprintf("Robustness to noise on %s: balanced accuracy against the number of N(0,1) dimensions appended "+
			"to the features, one panel per training-set size; error bars: ± one standard error over splits (cf. the paper's Fig. 2).", dataset),
		width: width, height: height,
		draw: func(c draw.Canvas) {
			c2 := c
			if len(plots) > 1 {
				c2 = draw.Crop(c, 0, 0, 0, -above)
				c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - vg.Points(4)}, dataset+": balanced accuracy vs noise dimensions")
			}
			drawPanels(c2, plots, leg)
		},
	}, nil
}

// approxFigure is Fig. 3: a method (GreedyTL) against its approximation
// (GreedyTL-59) and the strongest baselines by training-set size, and the
// per-target accuracies of the two against each other.
func approxFigure(name, dataset string, a approximation, d *datasetRows, res *Results, noise, negatives int) (*figure, error) {
	ps, ticks := categories(d.runPositives(noise))
	ms := []string{a.exact, a.approx}
	ms = append(ms, strongest(d, noise, 3, ms)...)
	slices.SortFunc(ms, compareMethods)
	all := d.methods(-1)
	left, err := accuracyPanel("accuracy by training-set size", positivesLabel(negatives), ticks, ms, all, func(m string, i int) (Row, bool) {
		return d.point(d.key(m, ps[i], noise))
	})
	if err != nil {
		return nil, err
	}
	right := newPlot("per target (mean over splits)", methodLabel(a.exact)+" balanced accuracy (%)", methodLabel(a.approx)+" balanced accuracy (%)")
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 225}, color.Gray{Y: 225}
	right.Add(grid)
	leg := methodLegend(ms, all)
	lo, hi := 100.0, 0.0
	colors := []color.RGBA{rgb(0x1b, 0x9e, 0x77), rgb(0xd9, 0x5f, 0x02), rgb(0x75, 0x70, 0xb3), rgb(0xe7, 0x29, 0x8a), rgb(0x66, 0xa6, 0x1e)}
	for i, pos := range ps {
		exact := targetMeans(res.Records, rowKey{dataset: dataset, method: a.exact, positives: pos, noise: noise})
		approx := targetMeans(res.Records, rowKey{dataset: dataset, method: a.approx, positives: pos, noise: noise})
		var xys plotter.XYs
		for _, t := range sortedInts(exact) {
			if a, ok := approx[t]; ok {
				xys = append(xys, plotter.XY{X: 100 * exact[t], Y: 100 * a})
				lo, hi = math.Min(lo, math.Min(100*exact[t], 100*a)), math.Max(hi, math.Max(100*exact[t], 100*a))
			}
		}
		if len(xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colors[i%len(colors)], Radius: vg.Points(3), Shape: glyphs[i%len(glyphs)]}
		right.Add(s)
		label := fmt.Sprintf("target, %d+%d", pos, negatives)
		if negatives == 0 {
			label = "target, " + plural.Count(pos, "positive", "positives")
		}
		leg.Add(label, s)
	}
	if lo > hi { // no target with both methods
		lo, hi = 0, 100
	}
	pad := math.Max(1, 0.04*(hi-lo))
	lo, hi = math.Max(0, lo-pad), math.Min(100, hi+pad)
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle = draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	right.Add(diag)
	leg.Add("y = x", diag)
	right.X.Min, right.X.Max, right.Y.Min, right.Y.Max = lo, hi, lo, hi
	right.X.Tick.Marker, right.Y.Tick.Marker = niceTicks{}, niceTicks{}
	sty := left.Title.TextStyle
	above := sty.Height(dataset) + vg.Points(8) // the super-title
	width, height := legendFit(11*vg.Inch, 5*vg.Inch, leg, above)
	return &figure{
		name: name,
		caption: fmt.Sprintf("%s against %s on %s (cf. the paper's Fig. 3). "+
			"Left: balanced accuracy with the strongest other methods (± one standard error over splits); right: each target's "+
			"accuracy under both, points above the diagonal favour %s.", searchLabel(a.exact), searchLabel(a.approx), dataset, methodLabel(a.approx)),
		width: width, height: height,
		draw: func(c draw.Canvas) {
			c2 := draw.Crop(c, 0, 0, 0, -above)
			c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - vg.Points(4)}, dataset+": "+a.title())
			drawPanels(c2, []*plot.Plot{left, right}, leg)
		},
	}, nil
}

// strongest returns the k methods, other than those in skip and the oracle,
// with the highest accuracy averaged over training-set sizes at noise.
func strongest(d *datasetRows, noise, k int, skip []string) []string {
	type scored struct {
		m string
		s float64
	}
	var all []scored
	for _, m := range d.methods(noise) {
		if isOracle(m) || slices.Contains(skip, m) {
			continue
		}
		var accs []float64
		for _, p := range d.positives(noise) {
			if r, ok := d.get(d.key(m, p, noise)); ok && r.N > 0 {
				accs = append(accs, r.Mean)
			}
		}
		all = append(all, scored{m, mean(accs)})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.s > b.s:
			return -1
		case a.s < b.s:
			return 1
		}
		return compareMethods(a.m, b.m)
	})
	var out []string
	for i := 0; i < k && i < len(all); i++ {
		out = append(out, all[i].m)
	}
	return out
}

func sortedInts[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
