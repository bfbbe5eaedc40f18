package report

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/plural"
)

// weights is the mean absolute source weight of each (source, target) pair
// of one method and training-set size, over the successful splits of the
// target (a source not used in a split counts as 0).
type weights struct {
	val     map[[2]int]float64 // (source, target) → mean |w|
	targets map[int]bool       // targets with a successful cell
	sources map[int]bool       // sources with a weight in some cell
}

// meanAbsWeights collects the weights of the records of one row key; it
// returns nil when no successful cell recorded a source weight.
func meanAbsWeights(records []experiment.Record, k rowKey) *weights {
	w := &weights{val: map[[2]int]float64{}, targets: map[int]bool{}, sources: map[int]bool{}}
	splits := map[int]int{}
	for i := range records {
		r := &records[i]
		if r.Error != "" || keyOf(r) != k {
			continue
		}
		w.targets[r.TargetIdx] = true
		splits[r.TargetIdx]++
		for j, s := range r.Sources {
			w.val[[2]int{s, r.TargetIdx}] += math.Abs(r.Weights[j])
			w.sources[s] = true
		}
	}
	if len(w.sources) == 0 {
		return nil
	}
	for st := range w.val {
		w.val[st] = overflowSafeMean(w.val[st], splits[st[1]], func(yield func(float64) bool) {
			for i := range records {
				r := &records[i]
				if r.Error != "" || r.TargetIdx != st[1] || keyOf(r) != k {
					continue
				}
				for j, s := range r.Sources {
					if s == st[0] && !yield(math.Abs(r.Weights[j])) {
						return
					}
				}
			}
		})
	}
	return w
}

// span is a run of consecutive classes of one semantic group on an axis.
type span struct {
	start, end int // [start, end) positions on the axis
	name       string
}

// layout orders the classes of a transferability matrix: the columns
// (targets) and rows (sources), in the same order where they coincide.
type layout struct {
	cols, rows         []int // class indices in display order
	colSpans, rowSpans []span
	clustered          bool // ordered by clustering (no groups)
}

// groupLayout orders targets and sources by semantic group (groups in the
// order of their first class), then by class index.
func groupLayout(targets, sources []int, groups []string) layout {
	rank := map[string]int{}
	for _, g := range groups {
		if _, ok := rank[g]; !ok {
			rank[g] = len(rank)
		}
	}
	order := func(cs []int) ([]int, []span) {
		cs = slices.Clone(cs)
		slices.SortStableFunc(cs, func(a, b int) int {
			if ra, rb := rank[groups[a]], rank[groups[b]]; ra != rb {
				return ra - rb
			}
			return a - b
		})
		var spans []span
		for i, c := range cs {
			if i == 0 || groups[c] != groups[cs[i-1]] {
				spans = append(spans, span{start: i, name: groups[c]})
			}
			spans[len(spans)-1].end = i + 1
		}
		return cs, spans
	}
	l := layout{}
	l.cols, l.colSpans = order(targets)
	l.rows, l.rowSpans = order(sources)
	return l
}

// clusterLayout orders the targets by average-linkage clustering of their
// weight profiles (their columns of ref, over all sources) and the sources
// in the same order, sources that are no target last by class index.
func clusterLayout(targets, sources []int, ref map[[2]int]float64) layout {
	profiles := make([][]float64, len(targets))
	for i, t := range targets {
		profiles[i] = make([]float64, len(sources))
		for j, s := range sources {
			profiles[i][j] = ref[[2]int{s, t}]
		}
	}
	_, order := averageLinkage(profiles)
	l := layout{clustered: true}
	for _, i := range order {
		l.cols = append(l.cols, targets[i])
	}
	for _, t := range l.cols {
		if slices.Contains(sources, t) {
			l.rows = append(l.rows, t)
		}
	}
	for _, s := range sources {
		if !slices.Contains(targets, s) {
			l.rows = append(l.rows, s)
		}
	}
	return l
}

// matrixPanel draws a transferability matrix as an image: one square of
// colour per (source, target), sources top to bottom, targets left to right.
type matrixPanel struct {
	l        layout
	val      map[[2]int]float64
	colorMap palette.ColorMap
	scale    float64     // maps a weight to [0, 1] on colorMap
	img      *image.RGBA // drawn once, for every output format
}

// image returns the matrix as an image of at least 800 pixels a side, each
// cell a block of pixels.
func (m *matrixPanel) image() *image.RGBA {
	nc, nr := len(m.l.cols), len(m.l.rows)
	kx, ky := max(1, int(math.Ceil(800/float64(nc)))), max(1, int(math.Ceil(800/float64(nr))))
	img := image.NewRGBA(image.Rect(0, 0, nc*kx, nr*ky))
	for i, s := range m.l.rows {
		for j, t := range m.l.cols {
			col := color.RGBA{R: 255, G: 255, B: 255, A: 255}
			if s == t {
				col = color.RGBA{R: 235, G: 235, B: 235, A: 255} // a class is never its own source
			} else if v := m.val[[2]int{s, t}]; v > 0 {
				cv, _ := m.colorMap.At(math.Min(v*m.scale, m.colorMap.Max()))
				col = color.RGBAModel.Convert(cv).(color.RGBA)
			}
			for y := i * ky; y < (i+1)*ky; y++ {
				for x := j * kx; x < (j+1)*kx; x++ {
					img.SetRGBA(x, y, col)
				}
			}
		}
	}
	return img
}

func (m *matrixPanel) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(m.l.cols)) - 0.5, -0.5, float64(len(m.l.rows)) - 0.5
}

// Plot draws the matrix as an image, each cell a block of pixels (so that
// the image scales without blurring cells together), the group boundaries as
// lines and, when the classes are labelled one by one, the group names above
// the columns.
func (m *matrixPanel) Plot(c draw.Canvas, p *plot.Plot) {
	nc, nr := len(m.l.cols), len(m.l.rows)
	if m.img == nil {
		m.img = m.image()
	}
	img := m.img
	trX, trY := p.Transforms(&c)
	xmin, xmax, ymin, ymax := m.DataRange()
	c.DrawImage(vg.Rectangle{Min: vg.Point{X: trX(xmin), Y: trY(ymin)}, Max: vg.Point{X: trX(xmax), Y: trY(ymax)}}, img)
	border := draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.6)}
	for _, sp := range m.l.colSpans[min(1, len(m.l.colSpans)):] {
		x := trX(float64(sp.start) - 0.5)
		c.StrokeLine2(border, x, trY(ymin), x, trY(ymax))
	}
	for _, sp := range m.l.rowSpans[min(1, len(m.l.rowSpans)):] {
		y := trY(float64(nr-sp.start) - 0.5)
		c.StrokeLine2(border, trX(xmin), y, trX(xmax), y)
	}
	if nc <= maxClassTicks {
		sty := groupLabelStyle(p)
		levels := groupLabelLevels(m.l.colSpans, nc, trX(xmax)-trX(xmin), sty)
		for i, sp := range m.l.colSpans {
			x := (trX(float64(sp.start)-0.5) + trX(float64(sp.end)-0.5)) / 2
			y := trY(ymax) + vg.Points(3) + vg.Length(levels[i])*(sty.Height(sp.name)+vg.Points(2))
			c.FillText(sty, vg.Point{X: x, Y: y}, sp.name)
		}
	}
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.8)}, []vg.Point{
		{X: trX(xmin), Y: trY(ymin)}, {X: trX(xmax), Y: trY(ymin)}, {X: trX(xmax), Y: trY(ymax)},
		{X: trX(xmin), Y: trY(ymax)}, {X: trX(xmin), Y: trY(ymin)},
	})
}

// groupLabelStyle is the style of the group names above a matrix.
func groupLabelStyle(p *plot.Plot) text.Style {
	sty := p.X.Tick.Label
	sty.Rotation, sty.XAlign, sty.YAlign = 0, draw.XCenter, draw.YBottom
	sty.Font.Size = vg.Points(tickSize)
	return sty
}

// groupLabelLevels places the names of spans, centred over their columns of
// an axis of n columns and the given width, on level 0 or, where a name
// would overlap its neighbour's on level 0, on level 1.
func groupLabelLevels(spans []span, n int, width vg.Length, sty text.Style) []int {
	levels := make([]int, len(spans))
	right := [2]vg.Length{-1e9, -1e9} // right end of the last name on each level
	gap := vg.Points(4)
	for i, sp := range spans {
		mid := width * vg.Length(float64(sp.start+sp.end)/2/float64(n))
		half := sty.Width(sp.name) / 2
		if mid-half < right[0]+gap && mid-half >= right[1]+gap {
			levels[i] = 1
		}
		right[levels[i]] = mid + half
	}
	return levels
}

// labelExtent returns the length of the longest tick label of an axis:
// the room its labels take beside the data (below it, for the rotated labels
// of the x axis).
func labelExtent(a *plot.Axis) vg.Length {
	var ext vg.Length
	for _, t := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		ext = max(ext, a.Tick.Label.Width(t.Label))
	}
	return ext
}

// maxClassTicks is the most classes labelled one by one on an axis; beyond
// it only the groups are labelled.
const maxClassTicks = 40

// axisTicks labels an axis of n positions holding classes cs: every class
// when few, else each group at its centre (with minor ticks at the group
// boundaries), else nothing but a few positions. flip maps position i to
// n−1−i (rows run top to bottom).
func axisTicks(cs []int, spans []span, names []string, flip bool) plot.ConstantTicks {
	n := len(cs)
	pos := func(i float64) float64 {
		if flip {
			return float64(n-1) - i
		}
		return i
	}
	var ticks plot.ConstantTicks
	switch {
	case n <= maxClassTicks:
		for i, c := range cs {
			ticks = append(ticks, plot.Tick{Value: pos(float64(i)), Label: names[c]})
		}
	case len(spans) > 0:
		for _, sp := range spans {
			ticks = append(ticks, plot.Tick{Value: pos(float64(sp.start+sp.end-1) / 2), Label: sp.name})
			ticks = append(ticks, plot.Tick{Value: pos(float64(sp.start) - 0.5)})
		}
		ticks = append(ticks, plot.Tick{Value: pos(float64(n) - 0.5)})
	}
	return ticks
}

// transferColorMap maps mean |weight| to white (0) through dark blue (max).
func transferColorMap(maxVal float64) (palette.ColorMap, error) {
	cm, err := moreland.NewLuminance([]color.Color{
		rgb(0x08, 0x30, 0x6b), rgb(0x08, 0x51, 0x9c), rgb(0x21, 0x71, 0xb5), rgb(0x42, 0x92, 0xc6),
		rgb(0x6b, 0xae, 0xd6), rgb(0x9e, 0xca, 0xe1), rgb(0xc6, 0xdb, 0xef), rgb(0xde, 0xeb, 0xf7), rgb(0xf7, 0xfb, 0xff),
	})
	if err != nil {
		return nil, err
	}
	cm.SetMin(0)
	cm.SetMax(maxVal)
	return palette.Reverse(cm), nil
}

// matrixFigure is one of Figs. 4, 5 and 7: the semantic transferability
// matrices of one method, one panel per training-set size. Each panel is
// scaled to its own largest weight (named in its title), so that the
// pattern shows at every size although weights grow with the sample.
func matrixFigure(name, dataset, method string, ci ClassInfo, l layout, ws []*weights, positives []int, negatives int) (*figure, error) {
	cm, err := transferColorMap(1)
	if err != nil {
		return nil, err
	}
	const side = 4.6 * vg.Inch // the data area's height and width
	var plots []*plot.Plot
	for i, w := range ws {
		hi := 0.0
		for _, v := range w.val {
			hi = math.Max(hi, v)
		}
		title := fmt.Sprintf("%d+%d", positives[i], negatives)
		if negatives == 0 {
			title = plural.Count(positives[i], "positive", "positives")
		}
		title += fmt.Sprintf(" (max %.3g)", hi)
		if hi == 0 {
			hi = 1 // every weight zero: an empty but valid scale
		}
		p := newPlot(title, "target class", "source class")
		p.Add(&matrixPanel{l: l, val: w.val, colorMap: cm, scale: 1 / hi})
		p.X.Padding, p.Y.Padding = 0, 0
		p.X.Tick.Marker = axisTicks(l.cols, l.colSpans, ci.Names, false)
		p.Y.Tick.Marker = axisTicks(l.rows, l.rowSpans, ci.Names, true)
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		small := tickSize
		if len(l.cols) > 20 && len(l.cols) <= maxClassTicks {
			small = 8
		}
		p.X.Tick.Label.Font.Size = vg.Points(small)
		p.Y.Tick.Label.Font.Size = vg.Points(small)
		if len(p.X.Tick.Marker.(plot.ConstantTicks)) == 0 {
			p.X.Label.Text = "target class (clustered)"
			p.Y.Label.Text = "source class (same order)"
		}
		if i > 0 {
			p.Y.Label.Text = ""
		}
		if len(l.cols) <= maxClassTicks && len(l.colSpans) > 0 {
			// Room for the group names, on two levels where they would
			// overlap on one (the data width estimated from below).
			sty := groupLabelStyle(p)
			levels := slices.Max(groupLabelLevels(l.colSpans, len(l.cols), side, sty)) + 1
			p.Title.Padding += vg.Length(levels)*(sty.Height("Ag")+vg.Points(2)) + vg.Points(3)
		}
		plots = append(plots, p)
	}
	bar := newPlot("", "", "mean |weight| / panel maximum")
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Padding = 0
	order := "classes ordered by semantic group"
	if l.clustered {
		order = "targets ordered by average-linkage clustering of their weight profiles, sources in the same order"
	}
	return &figure{
		name: name,
		caption: fmt.Sprintf("Semantic transferability matrix of %s on %s: rows are sources, columns targets, colour the "+
			"mean absolute source weight over splits relative to the panel's largest (grey: the target itself); %s "+
			"(cf. the paper's Figs. 4, 5 and 7).",
			methodLabel(method), dataset, order),
		// Room around the data areas for the tick labels, so that the
		// matrices stay square whatever the length of the class names.
		width:  vg.Length(len(plots))*(side+labelExtent(&plots[0].Y)+0.75*vg.Inch) + 1.3*vg.Inch,
		height: side + labelExtent(&plots[0].X) + plots[0].Title.Padding + 1.5*vg.Inch,
		draw: func(c draw.Canvas) {
			sty := plots[0].Title.TextStyle
			title := fmt.Sprintf("%s on %s: mean |source weight|", methodLabel(method), dataset)
			c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - vg.Points(4)}, title)
			c = draw.Crop(c, 0, 0, 0, -sty.Height(title)-vg.Points(10))
			barW := 1.1 * vg.Inch
			bc := draw.Crop(c, c.Size().X-barW, 0, 0, 0)
			pc := draw.Crop(c, 0, -barW, 0, 0)
			drawPanels(pc, plots, nil)
			// The bar spans the panels' data height.
			dc := plots[0].DataCanvas(plot.Align([][]*plot.Plot{plots}, panelTiles(len(plots)), pc)[0][0])
			bc.Min.Y, bc.Max.Y = dc.Min.Y, dc.Max.Y
			bd := bar.DataCanvas(bc)
			bc.Min.Y -= bd.Min.Y - dc.Min.Y
			bc.Max.Y += dc.Max.Y - bd.Max.Y
			bar.Draw(bc)
		},
	}, nil
}
