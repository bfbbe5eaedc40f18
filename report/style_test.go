package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/method"
)

// TestMethodOrderFromRegistry: the report orders, labels and classifies
// methods as their registrations say; greedytl-auto, which the report's own
// copy of the registry used to leave out (sorting it last), comes fourth as
// in the demo's table.
func TestMethodOrderFromRegistry(t *testing.T) {
	names := []string{"zz-unknown", "dictionary", "forward-reg", "greedytl-auto", "greedytl-sp", "greedytl"}
	slices.SortFunc(names, compareMethods)
	want := []string{"greedytl", "greedytl-sp", "greedytl-auto", "forward-reg", "dictionary", "zz-unknown"}
	if !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
	for name, label := range map[string]string{"greedytl-auto": "GreedyTL-auto", "best-source": "Best source (oracle)", "zz-unknown": "zz-unknown"} {
		if got := methodLabel(name); got != label {
			t.Errorf("methodLabel(%q) = %q, want %q", name, got, label)
		}
	}
	if !isOracle("best-source") || isOracle("greedytl") || isOracle("zz-unknown") {
		t.Error("isOracle: only best-source reads the test labels")
	}
	if !selectsFeatures("greedytl-auto") || selectsFeatures("dam") {
		t.Error("selectsFeatures disagrees with the registrations")
	}
}

// TestStyleTable: every registered method, binary and multi-class, has a
// style of its own in the report's table (a label and an opaque colour no
// other method has), every style belongs to a registered method, and a
// method without a style (an unknown name) is labelled with its name and
// coloured with the fallback colours in turn, distinct from each other.
func TestStyleTable(t *testing.T) {
	seen := map[color.RGBA]string{}
	all := method.MultiNames()
	for _, name := range all {
		s, ok := styles[name]
		if !ok {
			t.Errorf("%s has no style", name)
			continue
		}
		if s.label == "" || methodLabel(name) != s.label {
			t.Errorf("%s: label %q, methodLabel %q", name, s.label, methodLabel(name))
		}
		if s.color.A != 255 {
			t.Errorf("%s: no colour", name)
		}
		if other, dup := seen[s.color]; dup {
			t.Errorf("%s and %s share the colour %v", name, other, s.color)
		}
		seen[s.color] = name
	}
	for name := range styles {
		if !slices.Contains(all, name) {
			t.Errorf("the style table has %q, which is not registered", name)
		}
	}
	unknown := []string{"zz-a", "greedytl", "zz-b"}
	lss, gss := methodStyles(unknown, unknown)
	if lss[0].Color != extraColors[0] || lss[2].Color != extraColors[1] || gss[2].Color != extraColors[1] {
		t.Errorf("fallback colours %v, %v, want %v, %v", lss[0].Color, lss[2].Color, extraColors[0], extraColors[1])
	}
	if lss[1].Color != styles["greedytl"].color || methodLabel("zz-a") != "zz-a" {
		t.Errorf("greedytl's colour %v, zz-a's label %q", lss[1].Color, methodLabel("zz-a"))
	}
	if slices.Equal(lss[0].Dashes, lss[2].Dashes) && gss[0].Shape == gss[2].Shape {
		t.Error("two unknown methods share dash pattern and marker")
	}
	if want := []string{"greedytl", "greedytl-59", "rls-srcfeat"}; !slices.Equal(weightMethods(), want) {
		t.Errorf("weightMethods() = %v, want %v", weightMethods(), want)
	}
}

// greedy59 is the registry's one approximation: greedytl-59 of greedytl.
var greedy59 = approximation{exact: "greedytl", approx: "greedytl-59"}

// TestApproximations: the report compares a method with its approximation
// as the registry says (greedytl-59 approximates greedytl) when a run has
// both, and names the figure and its heading as the paper does.
func TestApproximations(t *testing.T) {
	for _, tc := range []struct {
		ms   []string
		want []approximation
	}{
		{[]string{"no-transfer", "greedytl-59", "greedytl"}, []approximation{greedy59}},
		{[]string{"greedytl", "no-transfer"}, nil},
		{[]string{"greedytl-59", "greedytl-sp"}, nil},
	} {
		if got := approximations(tc.ms); !slices.Equal(got, tc.want) {
			t.Errorf("approximations(%v) = %v, want %v", tc.ms, got, tc.want)
		}
	}
	if greedy59.slug() != "greedytl59" || greedy59.title() != "GreedyTL vs GreedyTL-59" {
		t.Errorf("slug %q, title %q", greedy59.slug(), greedy59.title())
	}
	for _, n := range method.Names() {
		r, _ := method.Registered(n)
		if a := r.Approximates; a != "" && !slices.Contains(method.Names(), a) {
			t.Errorf("%s approximates %q, not a registered binary method", n, a)
		}
	}
}

// fig1SVG returns the SVG of Fig. 1 (accuracyFigure) of recs at noise 0,
// of a dataset whose grid is unknown (no run.json).
func fig1SVG(t *testing.T, recs []experiment.Record) []byte {
	t.Helper()
	return fig1SVGOf(t, newDatasetRows(Summarize(recs)))
}

// fig1SVGOf returns the SVG of Fig. 1 (accuracyFigure) of d at noise 0.
func fig1SVGOf(t *testing.T, d *datasetRows) []byte {
	t.Helper()
	f, err := accuracyFigure("fig1", "d", d, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.render("svg")
	if err != nil {
		t.Fatal(err)
	}
	return svg
}

// legendStyles returns the style attributes of the legend thumbnail of
// label in an SVG figure: its line's and its marker's.
func legendStyles(t *testing.T, svg []byte, label string) []string {
	t.Helper()
	s := string(svg)
	end := strings.Index(s, ">"+label+"</text>")
	if end < 0 {
		t.Fatalf("no legend entry %q", label)
	}
	start := strings.LastIndex(s[:end], "</text>") + 1
	var out []string
	for _, m := range regexp.MustCompile(`<path [^>]*style="([^"]*)"`).FindAllStringSubmatch(s[start:end], -1) {
		out = append(out, m[1])
	}
	return out
}

// TestUnknownMethodDrawnAlikeInEveryFigure: a method without a style (a
// spec with settings) has the same colour, dashes and marker in each
// figure of its dataset, whichever other such methods a figure shows. Its
// colour was the next of extraColors within the figure, so a method drawn
// in the noise study without another one drawn in Fig. 1 took that one's
// colour there (greedytl:sample=59 had greedytl:auto_lambda=1's in Fig. 3).
func TestUnknownMethodDrawnAlikeInEveryFigure(t *testing.T) {
	var recs []experiment.Record
	for split := range 2 {
		for _, noise := range []int{0, 10} {
			recs = append(recs, cell("greedytl", 0, 2, noise, split, 0.7, 1), cell("zz-b", 0, 2, noise, split, 0.8, 1))
		}
		recs = append(recs, cell("zz-a", 0, 2, 0, split, 0.6, 1)) // not in the noise study
	}
	svg1 := fig1SVG(t, recs)
	f2, err := noiseFigure("fig2", "d", newDatasetRows(Summarize(recs)), 10)
	if err != nil {
		t.Fatal(err)
	}
	svg2, err := f2.render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"zz-b", "GreedyTL"} {
		if s1, s2 := legendStyles(t, svg1, m), legendStyles(t, svg2, m); len(s1) == 0 || !slices.Equal(s1, s2) {
			t.Errorf("%s drawn as %q in Fig. 1 but %q in the noise study", m, s1, s2)
		}
	}
	if a, b := legendStyles(t, svg1, "zz-a"), legendStyles(t, svg1, "zz-b"); slices.Equal(a, b) {
		t.Errorf("zz-a and zz-b drawn alike in Fig. 1: %q", a)
	}
}

// TestLegendShowsEveryMethod: a figure of more methods than its height
// holds legend entries grows to show them all; the legend of 32 methods
// (specs with settings) ran past the bottom of Fig. 1, its last four
// entries cut off, their lines drawn without a name.
func TestLegendShowsEveryMethod(t *testing.T) {
	var recs []experiment.Record
	for i := range 32 {
		for split := range 2 {
			recs = append(recs, cell(fmt.Sprintf("zz-%02d", i), 0, 2, 0, split, 0.5+0.01*float64(i+split), 1))
		}
	}
	svg := fig1SVG(t, recs)
	// The text's y is drawn flipped (scale(1, -1)): -y is the baseline's
	// height above the figure's bottom.
	entries := regexp.MustCompile(`<text x="[-0-9.]+" y="([-0-9.]+)"[^>]*>(zz-\d\d)</text>`).FindAllSubmatch(svg, -1)
	if len(entries) != 32 {
		t.Fatalf("%d legend entries, want 32", len(entries))
	}
	for _, e := range entries {
		y, err := strconv.ParseFloat(string(e[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		if -y < 2 {
			t.Errorf("legend entry %s at %.1f pt above the figure's bottom: cut off", e[2], -y)
		}
	}
}

// TestLegendLeavesPanelsTheirWidth: a legend wider than the room beside
// the panels widens the figure; a method named in 150 characters took the
// panel's whole width, and Fig. 1 showed neither its data nor its legend
// (its text drawn outside the figure).
func TestLegendLeavesPanelsTheirWidth(t *testing.T) {
	long := "zz-" + strings.Repeat("x", 150)
	var recs []experiment.Record
	for split := range 2 {
		recs = append(recs, cell("greedytl", 0, 2, 0, split, 0.6+0.1*float64(split), 1), cell(long, 0, 2, 0, split, 0.5, 1))
	}
	svg := fig1SVG(t, recs)
	m := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) `).FindSubmatch(svg)
	if m == nil {
		t.Fatal("no viewBox")
	}
	width, _ := strconv.ParseFloat(string(m[1]), 64)
	texts := regexp.MustCompile(`<text x="([-0-9.]+)"[^>]*>([^<]*)</text>`).FindAllSubmatch(svg, -1)
	seen := map[string]bool{}
	for _, e := range texts {
		x, err := strconv.ParseFloat(string(e[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		seen[string(e[2])] = true
		if x < 0 || x >= width {
			t.Errorf("text %.20q at x = %.1f, outside the figure's width %.1f", e[2], x, width)
		}
	}
	for _, want := range []string{"GreedyTL", long, "d: balanced accuracy vs training positives", "2"} {
		if !seen[want] {
			t.Errorf("no text %.20q", want)
		}
	}
}

// TestNoLineAcrossAFailedSize: a method's line joins the sizes next to
// each other only; it was drawn from 2 to 10 positives across 5, whose
// every cell failed, where it read as a value. A method with every size
// keeps its line through all three.
func TestNoLineAcrossAFailedSize(t *testing.T) {
	var recs []experiment.Record
	for split := range 2 {
		recs = append(recs,
			cell("greedytl", 0, 2, 0, split, 0.6, 1), failed("greedytl", 0, 5, 0, split), cell("greedytl", 0, 10, 0, split, 0.8, 1),
			cell("no-transfer", 0, 2, 0, split, 0.5, 1), cell("no-transfer", 0, 5, 0, split, 0.55, 1), cell("no-transfer", 0, 10, 0, split, 0.7, 1))
	}
	svg := fig1SVG(t, recs)
	// The longest line of each colour, in points (the legend's thumbnails
	// have two).
	longest := map[string]int{}
	for _, m := range regexp.MustCompile(`<path d="(M[-0-9.,L]+)" style="fill:none;stroke:(#[0-9A-F]+);stroke-width:2?\.?[0-9.]+`).FindAllStringSubmatch(string(svg), -1) {
		longest[m[2]] = max(longest[m[2]], strings.Count(m[1], "L")+1)
	}
	gtl := fmt.Sprintf("#%02X%02X%02X", styles["greedytl"].color.R, styles["greedytl"].color.G, styles["greedytl"].color.B)
	nt := fmt.Sprintf("#%02X%02X%02X", styles["no-transfer"].color.R, styles["no-transfer"].color.G, styles["no-transfer"].color.B)
	if longest[gtl] > 2 || longest[nt] != 3 {
		t.Fatalf("longest lines: GreedyTL %d points, No transfer %d; want at most 2 (the legend's), 3", longest[gtl], longest[nt])
	}
	// GreedyTL's only two-point line is its legend's: horizontal.
	for _, m := range regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)" style="fill:none;stroke:`+gtl+`;stroke-width:2.5`).FindAllStringSubmatch(string(svg), -1) {
		if m[2] != m[4] {
			t.Errorf("GreedyTL's line from (%s, %s) to (%s, %s) crosses the failed size", m[1], m[2], m[3], m[4])
		}
	}
}

// TestUnknownMethodsLookApart: the first len(extraColors) × len(glyphs)
// methods without a style differ in colour or marker; the k-th and the
// (k+8)-th had the same colour, dashes and marker (zz-00 and zz-08 of a
// run of 20 specs looked alike).
func TestUnknownMethodsLookApart(t *testing.T) {
	var names []string
	for k := range len(extraColors) * len(glyphs) {
		names = append(names, fmt.Sprintf("zz-%02d", k))
	}
	lss, gss := methodStyles(names, names)
	seen := map[string]string{}
	for j, n := range names {
		key := fmt.Sprintf("%v %T", lss[j].Color, gss[j].Shape)
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s drawn alike: %s", other, n, key)
		}
		seen[key] = n
	}
}

// colorOf returns the SVG colour of method m's lines.
func colorOf(m string) string {
	c := styles[m].color
	return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
}

// joins reports whether the SVG svg has a line of method m's colour from a
// point to another at another height: not the legend's thumbnail (a
// horizontal line), an error bar (vertical) nor its caps (m's points must
// differ in accuracy).
func joins(svg []byte, m string) bool {
	for _, p := range regexp.MustCompile(`<path d="M([-0-9.,L]+)" style="fill:none;stroke:`+colorOf(m)+`;`).FindAllStringSubmatch(string(svg), -1) {
		pts := strings.Split(p[1], "L")
		for i := 1; i < len(pts); i++ {
			a, b := strings.Split(pts[i-1], ","), strings.Split(pts[i], ",")
			if a[0] != b[0] && a[1] != b[1] {
				return true
			}
		}
	}
	return false
}

// TestLineAcrossASizeNotRun: a method's line is cut where it has no record
// only if its grid holds the cells there: GreedyTL run at 2 and 10
// positives beside a method run at 2, 5 and 10 joins its two points, as it
// would in a figure of its own (the figure's sizes are every method's, and
// a line cut there read as a failure that never happened); with 5 in its
// grid, its cells there are missing (a partial run), and so is its line —
// it was drawn across 5 — as it is where the grid is unknown (no
// run.json), where the gap is not known not to be one.
func TestLineAcrossASizeNotRun(t *testing.T) {
	var recs []experiment.Record
	for split := range 2 {
		recs = append(recs,
			cell("greedytl", 0, 2, 0, split, 0.6, 1), cell("greedytl", 0, 10, 0, split, 0.8, 1),
			cell("no-transfer", 0, 2, 0, split, 0.5, 1), cell("no-transfer", 0, 5, 0, split, 0.55, 1), cell("no-transfer", 0, 10, 0, split, 0.7, 1))
	}
	for _, tc := range []struct {
		grid string
		in   func(rowKey) bool
		join bool
	}{
		{"GreedyTL's grid without 5", func(k rowKey) bool { return k.method != "greedytl" || k.positives != 5 }, true},
		{"GreedyTL's grid with 5", func(rowKey) bool { return true }, false},
		{"no grid", nil, false},
	} {
		d := newDatasetRows(Summarize(recs))
		d.inGrid = tc.in
		if got := joins(fig1SVGOf(t, d), "greedytl"); got != tc.join {
			t.Errorf("%s: GreedyTL, with records at 2 and 10 positives only, has a line from one to the other: %v, want %v", tc.grid, got, tc.join)
		}
	}
}

// TestFiguresCutAtMissingCells: a report of run directories cuts a
// method's line where its run's grid holds cells that have no record (the
// records of GreedyTL at 5 positives removed from results.jsonl: Fig. 1
// and Fig. 3 drew its line across 5), and joins it across a noise level
// its grid does not hold (L1-logistic, run at noise 0 and 100 beside a
// noise study of GreedyTL at 10: Fig. 2).
func TestFiguresCutAtMissingCells(t *testing.T) {
	partial := synth{dataset: "one", classes: 5, positives: []int{2, 5, 10}, splits: 2, noise: []int{0},
		methods: []string{"greedytl", "greedytl-59", "no-transfer"}, seed: 1}
	dir := partial.write(t, 1)
	dropLines(t, filepath.Join(dir, "results.jsonl"), func(line string) bool {
		return strings.Contains(line, `"method":"greedytl"`) && strings.Contains(line, `"positives":5,`)
	})
	main := synth{dataset: "two", classes: 5, positives: []int{2, 5}, splits: 2, noise: []int{0, 100},
		methods: []string{"greedytl", "l1-logistic"}, seed: 1}
	study := main
	study.noise, study.methods = []int{10}, []string{"greedytl"}
	res, err := Load(dir, main.write(t, 1), study.write(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := Write(out, res, Options{}); err != nil {
		t.Fatal(err)
	}
	svg := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, fig := range []string{"fig1-accuracy-one", "fig3-greedytl59-one"} {
		if joins(svg(fig), "greedytl") {
			t.Errorf("%s: GreedyTL's line crosses 5 positives, where its cells are missing", fig)
		}
		if !joins(svg(fig), "greedytl-59") {
			t.Errorf("%s: GreedyTL-59 has no line", fig)
		}
	}
	if !joins(svg("fig2-noise-two"), "l1-logistic") {
		t.Errorf("Fig. 2: L1-logistic's line is cut at 10 noise dimensions, which its run did not hold")
	}
}

// TestNoLineAcrossASizeEveryMethodFailed: a size at which every cell of
// every method failed keeps its place on Fig. 1's axis, as its column in
// the accuracy table, and cuts every line there; it was left off the axis,
// and the lines joined 2 to 10 positives as if 5 had not been run.
func TestNoLineAcrossASizeEveryMethodFailed(t *testing.T) {
	var recs []experiment.Record
	for split := range 2 {
		recs = append(recs,
			cell("greedytl", 0, 2, 0, split, 0.6, 1), failed("greedytl", 0, 5, 0, split), cell("greedytl", 0, 10, 0, split, 0.8, 1),
			cell("no-transfer", 0, 2, 0, split, 0.5, 1), failed("no-transfer", 0, 5, 0, split), cell("no-transfer", 0, 10, 0, split, 0.7, 1))
	}
	svg := string(fig1SVG(t, recs))
	if !strings.Contains(svg, ">5</text>") {
		t.Errorf("Fig. 1 has no tick at 5 positives, where every cell failed")
	}
	for _, m := range []string{"greedytl", "no-transfer"} {
		c := fmt.Sprintf("#%02X%02X%02X", styles[m].color.R, styles[m].color.G, styles[m].color.B)
		for _, p := range regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)" style="fill:none;stroke:`+c+`;stroke-width:2.5`).FindAllStringSubmatch(svg, -1) {
			if p[2] != p[4] { // the legend's thumbnail is horizontal
				t.Errorf("%s's line from (%s, %s) to (%s, %s) crosses the size where every cell failed", m, p[1], p[2], p[3], p[4])
			}
		}
	}
}

// TestNoLineAcrossALevelEveryMethodFailed: as Fig. 1's sizes, the noise
// levels of Fig. 2 and the sizes of Fig. 3 keep, on their axis, a level or
// size at which every cell of every method failed, and every line is cut
// there: with the levels and sizes that have a successful cell
// (datasetRows.noises, positives) it was left off the axis, and the lines
// joined across it as if it had not been run.
func TestNoLineAcrossALevelEveryMethodFailed(t *testing.T) {
	render := func(f *figure, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		svg, err := f.render("svg")
		if err != nil {
			t.Fatal(err)
		}
		return string(svg)
	}
	var noise []experiment.Record
	for split := range 2 {
		for _, m := range []string{"greedytl", "l1-logistic"} {
			noise = append(noise, cell(m, 0, 2, 0, split, 0.7, 1), failed(m, 0, 2, 10, split), cell(m, 0, 2, 100, split, 0.6, 1))
		}
	}
	svg2 := render(noiseFigure("fig2", "d", newDatasetRows(Summarize(noise)), 10))
	var sizes []experiment.Record
	for split := range 2 {
		for _, m := range []string{"greedytl", "greedytl-59"} {
			sizes = append(sizes, cell(m, 0, 2, 0, split, 0.6, 1), failed(m, 0, 5, 0, split), cell(m, 0, 10, 0, split, 0.8, 1))
		}
	}
	svg3 := render(approxFigure("fig3", "d", greedy59, newDatasetRows(Summarize(sizes)), &Results{Records: sizes}, 0, 10))
	for _, tc := range []struct {
		fig, svg, tick string
		methods        []string
	}{
		{"Fig. 2", svg2, "10", []string{"greedytl", "l1-logistic"}},
		{"Fig. 3", svg3, "5", []string{"greedytl", "greedytl-59"}},
	} {
		if !strings.Contains(tc.svg, ">"+tc.tick+"</text>") {
			t.Errorf("%s has no tick at %s, where every cell failed", tc.fig, tc.tick)
		}
		for _, m := range tc.methods {
			if joins([]byte(tc.svg), m) {
				t.Errorf("%s: %s's line crosses %s, where every cell failed", tc.fig, m, tc.tick)
			}
		}
	}
}

// dropLines rewrites the results file at path without the lines that
// drop reports.
func dropLines(t *testing.T, path string, drop func(line string) bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if !drop(line) {
			kept = append(kept, line)
		}
	}
	writeFile(t, path, strings.Join(kept, ""))
}

// writeSVGs loads paths, writes their report (Markdown) and returns the
// report and a reader of its figures' SVG by name.
func writeSVGs(t *testing.T, paths ...string) (string, func(name string) []byte) {
	t.Helper()
	res, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := Write(out, res, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(md), func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// hasTick reports whether svg has a text of exactly label (an axis tick).
func hasTick(svg []byte, label string) bool {
	return strings.Contains(string(svg), ">"+label+"</text>")
}

// TestAxesHoldTheGridsSizes: a size (Figs. 1 and 3) or a noise level
// (Fig. 2) of the run's grid at which no method has a record (a partial
// run) keeps its place on the axes, and every line is cut there; the axes
// were built from the rows alone, so it was left off and every line
// joined across it. The accuracy table has its column too (as the axis,
// b98ebc2), of blanks, and its note says that the run has not written it;
// the level has no table, but a note saying so (it had none). The
// dataset's overview and Table 1 have them too (they had the records'
// sizes alone).
func TestAxesHoldTheGridsSizes(t *testing.T) {
	run := synth{dataset: "one", classes: 5, positives: []int{2, 5, 10}, splits: 2, noise: []int{0, 10, 100},
		methods: []string{"greedytl", "greedytl-59", "no-transfer"}, seed: 1}
	dir := run.write(t, 1)
	dropLines(t, filepath.Join(dir, "results.jsonl"), func(line string) bool {
		return strings.Contains(line, `"positives":5,`) || strings.Contains(line, `"noise":10,`)
	})
	md, svg := writeSVGs(t, dir)
	for _, fig := range []string{"fig1-accuracy-one", "fig3-greedytl59-one"} {
		if !hasTick(svg(fig), "5") {
			t.Errorf("%s has no tick at 5 positives, which the grid holds", fig)
		}
		for _, m := range []string{"greedytl", "greedytl-59", "no-transfer"} {
			if joins(svg(fig), m) {
				t.Errorf("%s: %s's line crosses 5 positives, where no cell has a record", fig, m)
			}
		}
	}
	fig2 := svg("fig2-noise-one")
	if !hasTick(fig2, "10") {
		t.Errorf("Fig. 2 has no tick at 10 noise dimensions, which the grid holds")
	}
	for _, m := range []string{"greedytl", "greedytl-59"} { // the methods run with noise
		if joins(fig2, m) {
			t.Errorf("Fig. 2: %s's line crosses 10 noise dimensions, where no cell has a record", m)
		}
	}
	if !regexp.MustCompile(`\| method \| 2\+10 \| 5\+10 \| 10\+10 \|`).MatchString(md) {
		t.Errorf("the accuracy table has no column of 5 positives:\n%s", md)
	}
	if !strings.Contains(md, ". No cell of 5+10 has a record: the run's grid holds it, but the run has not written it") { // after the note's sentences, a blank
		t.Errorf("the accuracy table's note does not say that 5 positives has no record:\n%s", md)
	}
	if strings.Contains(md, "### Balanced accuracy (%), 10 noise dimensions") {
		t.Errorf("a table of 10 noise dimensions, where no method has a record")
	}
	if !strings.Contains(md, "No cell of 10 noise dimensions has a record: the run's grid holds it, but the run has not written it (a partial run).") {
		t.Errorf("no note that 10 noise dimensions has no record:\n%s", md)
	}
	if !strings.Contains(md, "training positives 2, 5, 10; noise dimensions 0, 10, 100;") {
		t.Errorf("the dataset's overview does not list the grid's sizes and levels, as the tables and figures have them:\n%s", md)
	}
	if !regexp.MustCompile(`\| method \| candidates \(features \+ sources\) \| 2\+10 \| 5\+10 \| 10\+10 \|\n.*\n\| GreedyTL \| \d+ \| [^|]+ \|  \| [^|]+ \|`).MatchString(md) {
		t.Errorf("Table 1 has no blank column of 5 positives, as Fig. 3 its tick:\n%s", md)
	}
	if !regexp.MustCompile(`\| speed-up \|  \| [^|]+ \|  \| [^|]+ \|\n\nNo cell of 5\+10 has a record`).MatchString(md) {
		t.Errorf("Table 1 has no note that 5 positives has no record:\n%s", md)
	}
}

// TestNWayFigureAsksTheGrid: the N-way figure, through Load and Write
// with a run.json (as TestFiguresCutAtMissingCells for the binary
// figures), cuts a method's line at a number of shots its grid holds but
// where its episodes have no record, and keeps on its axis, with every
// line cut, a number of shots at which no method has an episode; Write's
// call of ExpectedEpisodes with the ways and the shots swapped, or axes of
// the rows alone, made a line join.
func TestNWayFigureAsksTheGrid(t *testing.T) {
	for _, tc := range []struct {
		name    string
		drop    func(r experiment.Record) bool
		missing []string // methods without episodes at 2 shots
	}{
		{"GreedyTL N-way's 2 shots missing", func(r experiment.Record) bool { return r.Method == "greedytl-nway" && r.Positives == 2 }, []string{"greedytl-nway"}},
		{"every 2-shot episode missing", func(r experiment.Record) bool { return r.Positives == 2 }, []string{"greedytl-nway", "simpleshot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []experiment.Record
			for _, r := range nwayRecords() {
				if r.Ways != 5 {
					continue
				}
				recs = append(recs, r)
				if r.Positives != 5 {
					continue
				}
				r2 := r                                            // a 2-shot episode, between its 1 and 5
				r2.Accuracy = (math.Round(15*r.Accuracy) - 1) / 15 // one test example fewer of 15
				r2.Positives = 2
				recs = append(recs, r2)
			}
			var classes []string
			for k := range 30 {
				classes = append(classes, "c"+string(rune('A'+k)))
			}
			m := experiment.Manifest{
				Dataset: experiment.DatasetInfo{Name: "toy", Features: 100}, Classes: classes, Targets: classes,
				Protocol: experiment.ProtocolNWay, Ways: []int{5}, Positives: []int{1, 2, 5}, TestPerClass: 3,
				Splits: 4, Noise: []int{0}, Methods: []string{"simpleshot", "greedytl-nway"}, Seed: 1,
			}
			b := runJSON(t, m, true)
			id := runID(t, b)
			var kept []experiment.Record
			for _, r := range recs {
				if !tc.drop(r) {
					r.RunID = id
					kept = append(kept, r)
				}
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "run.json"), string(b))
			writeFile(t, filepath.Join(dir, "results.jsonl"), jsonl(t, kept))
			_, svg := writeSVGs(t, dir)
			fig := svg("nway-accuracy-toy")
			if !hasTick(fig, "2") {
				t.Errorf("no tick at 2 shots, which the grid holds")
			}
			for _, meth := range []string{"simpleshot", "greedytl-nway"} {
				if want := !slices.Contains(tc.missing, meth); joins(fig, meth) != want {
					t.Errorf("%s has a line from 1 to 5 shots across 2 or a line at all: %v, want %v", meth, !want, want)
				}
			}
		})
	}
}

// writeNWayRun writes a run directory of an N-way run of nwayRecords'
// dataset whose grid holds ways, shots and methods, with the records recs
// (given the run's run_id), and returns it.
func writeNWayRun(t *testing.T, recs []experiment.Record, ways, shots []int, methods []string) string {
	t.Helper()
	var classes []string
	for k := range 30 {
		classes = append(classes, "c"+string(rune('A'+k)))
	}
	m := experiment.Manifest{
		Dataset: experiment.DatasetInfo{Name: "toy", Features: 100}, Classes: classes, Targets: classes,
		Protocol: experiment.ProtocolNWay, Ways: ways, Positives: shots, TestPerClass: 3,
		Splits: 4, Noise: []int{0}, Methods: methods, Seed: 1,
	}
	b := runJSON(t, m, true)
	id := runID(t, b)
	var kept []experiment.Record
	for _, r := range recs {
		r.RunID = id
		kept = append(kept, r)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "run.json"), string(b))
	writeFile(t, filepath.Join(dir, "results.jsonl"), jsonl(t, kept))
	return dir
}

// TestNWayTablesSayWhatIsUnwritten: an N-way partial run's tables say, as
// the binary accuracy table does (unwrittenNote), which numbers of shots
// of the grid have no record (their columns are blank), and a number of
// ways of the grid without any record has no table, as a noise level of
// the binary protocol, but a note saying the run has not written it (and
// its panel). The tables had blank columns, or a table of blanks, with no
// note; a grid whose ways were not read (gridRows.grid) left 20 ways
// out.
func TestNWayTablesSayWhatIsUnwritten(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ways20  bool // whether the 20-way episodes are kept
		panels  int  // the figure's panels
		heading bool // whether 20 ways has a table
	}{
		{"2 shots unwritten", true, 2, true},
		{"2 shots and 20 ways unwritten", false, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []experiment.Record
			for _, r := range nwayRecords() {
				if tc.ways20 || r.Ways != 20 {
					recs = append(recs, r)
				}
			}
			dir := writeNWayRun(t, recs, []int{5, 20}, []int{1, 2, 5}, []string{"simpleshot", "greedytl-nway"})
			md, _ := writeSVGs(t, dir)
			tables := strings.Count(md, "| method | 1-shot | 2-shot | 5-shot |")
			notes := strings.Count(md, ". No cell of 2 shots has a record: the run's grid holds it, but the run has not written it (a partial run).") // in the table's note, after a blank
			want := 1
			if tc.heading {
				want = 2
			}
			if tables != want || notes != want {
				t.Errorf("%d tables with a 2-shot column and %d notes that 2 shots has no record, want %d of each:\n%s", tables, notes, want, md)
			}
			if got := strings.Contains(md, "### 20-way accuracy (%)"); got != tc.heading {
				t.Errorf("a table of 20 ways: %v, want %v", got, tc.heading)
			}
			if got := strings.Contains(md, "No cell of 20 ways has a record: the run's grid holds it, but the run has not written it (a partial run)."); got == tc.heading {
				t.Errorf("a note that 20 ways has no record: %v, want %v", got, !tc.heading)
			}
		})
	}
}

// TestAnotherRunsCopyRefused: another run's results copied without its
// run.json, read beside a run of the same dataset with its run.json, are
// refused, binary and N-way: its cells of the run's grid joined the run's
// tables and figures, counted against the run's grid ("12 of 8 cells"),
// and those it shares with the run were dropped as duplicates; its
// method, with an unknown grid, was cut at any gap. Beside the other
// run's directory it is read.
func TestAnotherRunsCopyRefused(t *testing.T) {
	bare := func(dir string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), "results.jsonl")
		writeFile(t, f, string(data))
		return f
	}
	a := synth{dataset: "one", classes: 5, positives: []int{2, 5, 10}, splits: 2, noise: []int{0},
		methods: []string{"greedytl"}, seed: 1}
	b := a
	b.methods = []string{"no-transfer"}
	var mine, other []experiment.Record
	for _, r := range nwayRecords() {
		if r.Method == "simpleshot" {
			mine = append(mine, r)
		} else {
			other = append(other, r)
		}
	}
	for _, tc := range []struct{ name, run, other string }{
		{"binary", a.write(t, 1), b.write(t, 1)},
		{"N-way", writeNWayRun(t, mine, []int{5, 20}, []int{1, 5}, []string{"simpleshot"}),
			writeNWayRun(t, other, []int{5, 20}, []int{1, 5}, []string{"greedytl-nway"})},
	} {
		copied := bare(tc.other)
		_, err := Load(tc.run, copied)
		if !errors.Is(err, experiment.ErrInput) || !strings.Contains(err.Error(), copied+":1: cell") || !strings.Contains(err.Error(), "holds another run's records") {
			t.Errorf("%s: another run's results without its run.json beside a run: %v, want an input error naming %s:1", tc.name, err, copied)
		}
		if _, err := Load(tc.run, tc.other, copied); err != nil {
			t.Errorf("%s: the copy beside its run's directory: %v", tc.name, err)
		}
	}
}

// TestOwnCopyKeepsTheGrid: a copy of a run's own results without its
// run.json, read beside the run (its records are duplicates, of the run's
// grid: experiment's checkBare), leaves the grid known: L1-logistic, run
// at noise 0 and 100 beside a noise study of GreedyTL at 10, joins across
// 10 on Fig. 2, as without the copy; the copy made its grid unknown, and
// its line was cut there.
func TestOwnCopyKeepsTheGrid(t *testing.T) {
	main := synth{dataset: "two", classes: 5, positives: []int{2, 5}, splits: 2, noise: []int{0, 100},
		methods: []string{"greedytl", "l1-logistic"}, seed: 1}
	study := main
	study.noise, study.methods = []int{10}, []string{"greedytl"}
	dir := main.write(t, 1)
	data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "results.jsonl")
	writeFile(t, copied, string(data))
	_, svg := writeSVGs(t, dir, study.write(t, 1), copied)
	if !joins(svg("fig2-noise-two"), "l1-logistic") {
		t.Errorf("Fig. 2: L1-logistic's line is cut at 10 noise dimensions, which its run did not hold")
	}
}
