package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/method"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// methodOrder is the registry's order of the methods (package method owns
// it): method.Names(), then the native multi-class methods of
// method.MultiNames() (an N-way report shows both). A method the registry
// does not know (a spec with settings, a method of another build) follows,
// by name.
var methodOrder = nativeAfterBinary()

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

// methodStyle is a method's presentation in tables and figures.
type methodStyle struct {
	label    string     // its name in tables and figures (the paper's name for the paper's methods)
	color    color.RGBA // its colour in figures
	emphasis bool       // drawn with a wider line: the paper's method stands out
	weights  bool       // the paper draws its source weights (Figs. 4, 5 and 7)
	search   string     // how it searches, in the caption of an approximation figure (Fig. 3)
}

// sampledSearch returns the caption's account of the search of the
// registered GreedyTL method name, one that scores a random sample of the
// candidates: "59 random candidates a step" for greedytl-59, its sample
// size read from the registry (its default options), and "" for a name
// that is not such a method.
func sampledSearch(name string) string {
	m, err := method.New(name)
	if err != nil {
		return ""
	}
	if g, ok := m.(*method.GreedyTL); ok && g.Defaults.Sample > 0 {
		return strconv.Itoa(g.Defaults.Sample) + " random candidates a step"
	}
	return ""
}

// styles is the report's style table, the one place that gives the methods
// their labels, colours and line styles. A method missing from it (one
// registered later, a method of another build) is labelled with its name
// and coloured with one of extraColors (see methodStyles). The native
// multi-class methods have colours no binary method has; the recommended
// one (method.RecommendedMulti) a dark red and a wider line.
var styles = map[string]methodStyle{
	"greedytl":         {label: "GreedyTL", color: rgb(0xd6, 0x27, 0x28), emphasis: true, weights: true, search: "exact search"},
	"greedytl-59":      {label: "GreedyTL-59", color: rgb(0xff, 0x7f, 0x0e), emphasis: true, weights: true, search: sampledSearch("greedytl-59")},
	"greedytl-sp":      {label: "GreedyTL-SP", color: rgb(0x8c, 0x56, 0x4b)},
	"greedytl-auto":    {label: "GreedyTL-auto", color: rgb(0xff, 0x98, 0x96)},
	"forward-reg":      {label: "Forward-Reg", color: rgb(0x7f, 0x7f, 0x7f)},
	"no-transfer":      {label: "No transfer", color: rgb(0x00, 0x00, 0x00)},
	"rls-srcfeat":      {label: "RLS (src+feat)", color: rgb(0x1f, 0x77, 0xb4), weights: true},
	"average-kt":       {label: "AverageKT", color: rgb(0x17, 0xbe, 0xcf)},
	"best-source":      {label: "Best source (oracle)", color: rgb(0xbc, 0xbd, 0x22)},
	"multikt-l2":       {label: "MultiKT L2", color: rgb(0x2c, 0xa0, 0x2c)},
	"multikt-l1":       {label: "MultiKT L1", color: rgb(0x98, 0xdf, 0x8a)},
	"dam":              {label: "DAM", color: rgb(0x94, 0x67, 0xbd)},
	"l1-logistic":      {label: "L1-Logistic", color: rgb(0xe3, 0x77, 0xc2)},
	"elastic-net":      {label: "Elastic-Net", color: rgb(0x39, 0x3b, 0x79)},
	"dictionary":       {label: "Dictionary learning", color: rgb(0x8c, 0x6d, 0x31)},
	"logme-source":     {label: "LogME source", color: rgb(0xc5, 0xb0, 0xd5)},
	"stacked-logistic": {label: "Stacked logistic", color: rgb(0x9e, 0xda, 0xe5)},

	"greedytl-nway":        {label: "GreedyTL N-way", color: rgb(0xb2, 0x18, 0x2b)},
	"multinomial-logistic": {label: "Multinomial logistic", color: rgb(0x1b, 0x9e, 0x77)},
	"nearest-mean":         {label: "Nearest class mean", color: rgb(0x00, 0x44, 0x1b)},
	"simpleshot":           {label: "SimpleShot", color: rgb(0x75, 0x70, 0xb3)},
	"nearest-neighbour":    {label: "Nearest neighbour", color: rgb(0xe6, 0xab, 0x02)},
}

// extraColors colour the methods without a style, in turn.
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
// study (Fig. 2): its registration's capability SelectsFeatures.
func selectsFeatures(name string) bool {
	r, ok := method.Registered(name)
	return ok && r.Capabilities().SelectsFeatures
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

// methodLabel returns a method's label in the style table, or its name.
func methodLabel(name string) string {
	if s, ok := styles[name]; ok {
		return s.label
	}
	return name
}

// approximation is a method and the registered method it approximates
// (method.Registration.Approximates): the report compares the two in a
// figure and a timing table (the paper's Fig. 3 and Table 1).
type approximation struct{ exact, approx string }

// approximations returns the approximations whose two methods are both in
// ms, in the registry's order of the approximating method.
func approximations(ms []string) []approximation {
	var as []approximation
	for _, m := range methodOrder {
		if r, ok := method.Registered(m); ok && r.Approximates != "" && slices.Contains(ms, m) && slices.Contains(ms, r.Approximates) {
			as = append(as, approximation{exact: r.Approximates, approx: m})
		}
	}
	return as
}

// slug returns the approximation's part of a figure's file name: the
// approximating method's name without dashes ("greedytl59").
func (a approximation) slug() string { return strings.ReplaceAll(a.approx, "-", "") }

// title returns "EXACT vs APPROX" in the methods' labels.
func (a approximation) title() string { return methodLabel(a.exact) + " vs " + methodLabel(a.approx) }

// searchLabel returns a method's label followed by how it searches, in
// parentheses, when the style table says.
func searchLabel(name string) string {
	if s := styles[name].search; s != "" {
		return methodLabel(name) + " (" + s + ")"
	}
	return methodLabel(name)
}

// weightMethods returns the methods whose source weights the paper draws as
// semantic transferability matrices (Figs. 4, 5 and 7), in the registry's
// order.
func weightMethods() []string {
	var ms []string
	for n, s := range styles {
		if s.weights {
			ms = append(ms, n)
		}
	}
	slices.SortFunc(ms, compareMethods)
	return ms
}

// methodStyles returns the line and marker styles of the methods names of
// a figure of a dataset whose methods are all: each its colour in the
// style table, or, for a method without a style, one of extraColors by its
// place among all's methods without one; a dash pattern and marker by its
// place in the registry's order (the methods the registry does not know
// taking the places after it, by their place among all's: the k-th the
// dashes of place k and the marker of place k / len(extraColors), so that
// no two of the first len(extraColors) × len(glyphs) look alike). A method
// is thus drawn alike in every figure of its dataset, whichever other
// methods a figure shows.
func methodStyles(names, all []string) ([]draw.LineStyle, []draw.GlyphStyle) {
	var unstyled, unranked []string // all's methods without a style, without a rank
	for _, name := range append(slices.Clone(all), names...) {
		if _, ok := styles[name]; !ok && !slices.Contains(unstyled, name) {
			unstyled = append(unstyled, name)
		}
		if methodRank(name) == len(methodOrder) && !slices.Contains(unranked, name) {
			unranked = append(unranked, name)
		}
	}
	lss, gss := make([]draw.LineStyle, len(names)), make([]draw.GlyphStyle, len(names))
	for j, name := range names {
		i := methodRank(name)
		g := i // the marker's place
		if i == len(methodOrder) {
			k := slices.Index(unranked, name)
			i, g = i+k, i+k/len(extraColors)
		}
		s, ok := styles[name]
		if !ok {
			s.color = extraColors[slices.Index(unstyled, name)%len(extraColors)]
		}
		width := vg.Points(1.5)
		if s.emphasis || name == method.RecommendedMulti {
			width = vg.Points(2.5) // the paper's method stands out
		}
		lss[j] = draw.LineStyle{Color: s.color, Width: width, Dashes: dashes[i%len(dashes)]}
		gss[j] = draw.GlyphStyle{Color: s.color, Radius: vg.Points(3.5), Shape: glyphs[g%len(glyphs)]}
	}
	return lss, gss
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
