package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/greedytl/greedytl/method"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The methods' order, labels and colours are their registrations' (package
// method): methodOrder is the registry's order (the paper's), and a method
// the registry does not know (a spec with settings, a method of another
// build) follows, by name, with a label equal to its name and one of
// extraColors. The native multi-class methods follow the binary ones (an
// N-way report shows both).
var methodOrder = nativeAfterBinary()

// nativeMulti lists the native multi-class methods (the recommended one
// first), which multiColors colour in turn.
var nativeMulti = slices.DeleteFunc(method.MultiNames(), func(n string) bool { return slices.Contains(method.Names(), n) })

// multiColors colour the native multi-class methods: the recommended one a
// dark red, the others colours no binary method has.
var multiColors = []color.RGBA{
	rgb(0xb2, 0x18, 0x2b), rgb(0x1b, 0x9e, 0x77), rgb(0x00, 0x44, 0x1b), rgb(0x75, 0x70, 0xb3), rgb(0xe6, 0xab, 0x02),
}

// nativeAfterBinary returns method.Names() followed by the native
// multi-class methods of method.MultiNames().
func nativeAfterBinary() []string {
	names := method.Names()
	for _, n := range method.MultiNames() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// extraColors colour methods without a registered colour, in turn.
var extraColors = []color.RGBA{
	rgb(0x65, 0x65, 0xff), rgb(0xad, 0x49, 0x4a), rgb(0x31, 0xa3, 0x54), rgb(0xc7, 0xc7, 0xc7),
}

// isOracle reports whether a method reads the test labels (Needs().Oracle):
// shown for reference, never ranked as a competitor.
func isOracle(name string) bool {
	r, ok := method.Registered(name)
	return ok && r.New != nil && r.New().Needs().Oracle
}

// selectsFeatures reports whether a method is one of the paper's noise
// study (Fig. 2): its registration's SelectsFeatures.
func selectsFeatures(name string) bool {
	r, ok := method.Registered(name)
	return ok && r.SelectsFeatures
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

// methodRank returns the position of a method in the registry's order, or
// len(methodOrder) for methods the registry does not know.
func methodRank(name string) int {
	if i := slices.Index(methodOrder, name); i >= 0 {
		return i
	}
	return len(methodOrder)
}

// compareMethods orders method names: the registry's order, then by name.
func compareMethods(a, b string) int {
	return cmp.Or(cmp.Compare(methodRank(a), methodRank(b)), cmp.Compare(a, b))
}

// methodLabel returns the registered label of a method, or its name.
func methodLabel(name string) string {
	if r, ok := method.Registered(name); ok {
		return r.DisplayLabel()
	}
	return name
}

// lineStyle returns the colour, dash pattern and marker of a method; other is
// the method's position among the unknown methods of a figure.
func lineStyle(name string, other int) (draw.LineStyle, draw.GlyphStyle) {
	i := methodRank(name)
	c := extraColors[other%len(extraColors)]
	if k := slices.Index(nativeMulti, name); k >= 0 { // a native multi-class method: a colour of its own
		c = multiColors[k%len(multiColors)]
	}
	if r, ok := method.Registered(name); ok && r.Color.A != 0 {
		c = r.Color
	}
	if i == len(methodOrder) {
		i += other
	}
	width := vg.Points(1.5)
	if name == "greedytl" || name == "greedytl-59" || name == method.RecommendedMulti {
		width = vg.Points(2.5) // the paper's method stands out
	}
	ls := draw.LineStyle{Color: c, Width: width, Dashes: dashes[i%len(dashes)]}
	gs := draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: glyphs[i%len(glyphs)]}
	return ls, gs
}

var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

// Fonts: Liberation Sans (bundled with gonum/plot) at sizes that stay
// readable when a figure is shown at its natural width.
var (
	sans     = font.Font{Typeface: "Liberation", Variant: "Sans"}
	sansBold = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
)

const (
	titleSize  = 14
	labelSize  = 12
	tickSize   = 10.5
	legendSize = 10.5
)

// newPlot returns a plot with the report's fonts, a title and axis labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sansBold, titleSize)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Label.Padding = vg.Points(4)
	}
	p.Legend.TextStyle.Font = font.From(sans, legendSize)
	return p
}

// newLegend returns an empty legend in the report's font, to be drawn beside
// a plot rather than over its data.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, legendSize)
	l.Left, l.Top = true, true
	l.ThumbnailWidth = vg.Points(30)
	l.Padding = vg.Points(3)
	return l
}

// niceTicks marks an axis at round steps (1, 2, 2.5 or 5 × 10ᵏ), with 4 to
// 10 labelled ticks and a minor tick halfway between them.
type niceTicks struct{}

// Ticks returns the ticks of [lo, hi].
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	step := niceStep(hi - lo)
	prec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if r := step * math.Pow(10, float64(prec)); math.Abs(r-math.Round(r)) > 1e-9 {
		prec++ // 2.5 × 10ᵏ needs one more digit
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+1e-9*step; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
		if h := v + step/2; h <= hi {
			ticks = append(ticks, plot.Tick{Value: h})
		}
	}
	if first := math.Ceil(lo/step-1e-9)*step - step/2; first >= lo {
		ticks = append(ticks, plot.Tick{Value: first})
	}
	return ticks
}

// niceStep returns the round step that cuts a range into 4 to 10 parts.
func niceStep(span float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10} {
		if s := m * p; span/s <= 10 {
			return s
		}
	}
	return 10 * p
}
