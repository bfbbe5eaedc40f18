package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/plural"
)

// isNWay reports whether rows are the summary of an N-way run
// (experiment.ProtocolNWay).
func isNWay(rows []Row) bool { return len(rows) > 0 && rows[0].Ways > 0 }

// nwayRows indexes the summary rows of one N-way dataset by method, ways
// and shots (an N-way row's key has its shots as positives).
type nwayRows struct{ gridRows }

// key returns the key of the row of method at ways and shots.
func (d *nwayRows) key(method string, ways, shots int) rowKey {
	return rowKey{dataset: d.dataset, method: method, positives: shots, ways: ways}
}

// methods returns the methods of the rows, in the paper's order (the
// multi-class methods after the binary ones, as compareMethods places
// them).
func (d *nwayRows) methods() []string {
	var ms []string
	for _, r := range d.rows {
		if !slices.Contains(ms, r.Method) {
			ms = append(ms, r.Method)
		}
	}
	slices.SortFunc(ms, compareMethods)
	return ms
}

// runShots returns the numbers of shots run, at any number of ways: those
// that have a row, and those of the runs' grids that have no record yet.
func (d *nwayRows) runShots() []int {
	shots := d.distinct(func(Row) bool { return true }, func(r Row) int { return r.Shots })
	for _, s := range d.grid {
		shots = sortedUnion(shots, s)
	}
	return shots
}

// nwaySection adds the table and the figure of one N-way dataset: for each
// number of ways, a method × shots table of accuracy, the best
// of each column in bold (bestEntries); and a figure of accuracy against shots,
// one panel per number of ways.
func nwaySection(doc *document, recs []experiment.Record, dataset, slug string, d *nwayRows) ([]*figure, error) {
	name := datasetTitle(dataset)
	// The episodes of each method, ways and shots (a method run on its
	// own with more --splits beside a run has more), failed ones too.
	episodes, classes := map[[3]any]map[int]bool{}, map[int]bool{}
	test := 0
	for _, r := range recs {
		k := [3]any{r.Method, r.Ways, r.Positives}
		if episodes[k] == nil {
			episodes[k] = map[int]bool{}
		}
		episodes[k][r.Split] = true
		test = r.TestPerClass
		for _, c := range r.ClassIdx {
			classes[c] = true
		}
	}
	fewest, most := math.MaxInt, 0
	for _, e := range episodes {
		fewest, most = min(fewest, len(e)), max(most, len(e))
	}
	count := plural.Count(most, "episode", "episodes")
	if fewest < most {
		count = fmt.Sprintf("%d to %d episodes", fewest, most)
	}
	ms := d.methods()
	recorded := d.distinct(func(Row) bool { return true }, func(r Row) int { return r.Ways })
	ways, shots := sortedUnion(recorded, sortedInts(d.grid)), d.runShots()
	doc.add(heading{2, "Dataset " + name + " (N-way)"}, paragraph{fmt.Sprintf(
		"N-way few-shot episodes: %s ways, %s shots, %s per ways and shots, %s per class; %d classes appear in the episodes; %s.",
		joinInts(ways), joinInts(shots), count, plural.Count(test, "test example", "test examples"), len(classes), plural.Count(len(ms), "method", "methods"))})
	// A number of ways of the grid without a record has no table (every
	// entry would be blank), but its panel in the figure and a note saying
	// the run has not written it, as a noise level of the binary protocol.
	if note := unwrittenNote(ways, recorded, func(w int) string { return plural.Count(w, "way", "ways") }); note != "" {
		doc.add(paragraph{note})
	}
	for _, w := range recorded {
		doc.add(heading{3, fmt.Sprintf("%d-way accuracy (%%)", w)})
		doc.add(nwayTable(d, ms, w, shots)...)
	}
	rowNotes(doc, d.rows)
	f, err := nwayFigure("nway-accuracy-"+slug, name, d, ms, ways, shots)
	if err != nil {
		return nil, err
	}
	doc.add(heading{3, "Accuracy by shots"}, picture{fig: f})
	failedEpisodes(doc, recs)
	return []*figure{f}, nil
}

// nwayTable is a method × shots table of accuracy at w ways.
func nwayTable(d *nwayRows, ms []string, w int, shots []int) []element {
	t := table{header: []string{"method"}, right: []bool{false}}
	for _, s := range shots {
		t.header = append(t.header, fmt.Sprintf("%d-shot", s))
		t.right = append(t.right, true)
	}
	bold, passed := boldColumns(ms, len(shots), func(m string, i int) Row {
		r, _ := d.get(d.key(m, w, shots[i]))
		return r
	})
	failed, oneEpisode := false, false
	for j, m := range ms {
		cells := []string{methodLabel(m)}
		for _, s := range shots {
			r, ok := d.get(d.key(m, w, s))
			if !ok {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, r.Accuracy())
			failed = failed || r.N == 0
			oneEpisode = oneEpisode || (r.N > 0 && !r.HasStdErr())
		}
		t.rows, t.bold = append(t.rows, cells), append(t.bold, append([]bool{false}, bold[j]...))
	}
	note := "Accuracy: mean over episodes ± standard error over episodes; bold: the best method of each column (the oracle Best source excluded). A binary method is fitted one against the rest."
	note += entryNotes(failed, "episode", oneEpisode, "episode", passed)
	recorded := d.distinct(func(r Row) bool { return r.Ways == w }, func(r Row) int { return r.Shots })
	// The numbers of shots of the grid without a record at w ways.
	if s := unwrittenNote(shots, recorded, func(n int) string { return plural.Count(n, "shot", "shots") }); s != "" {
		note += " " + s
	}
	return []element{t, paragraph{note}}
}

// nwayFigure plots accuracy against shots, one panel per number of ways,
// one line per method.
func nwayFigure(name, dataset string, d *nwayRows, ms []string, ways, shots []int) (*figure, error) {
	plots, err := nwayPanels(dataset, d, ms, ways, shots)
	if err != nil {
		return nil, err
	}
	leg := methodLegend(ms, ms)
	width, height := legendFit(4.2*vg.Inch*vg.Length(len(plots))+legendRoom, 4.8*vg.Inch, leg, 0)
	return &figure{
		name: name,
		caption: fmt.Sprintf("Accuracy of N-way few-shot episodes on %s against the training examples per class, one panel per "+
			"number of ways; error bars: ± one standard error over episodes.", dataset),
		width: width, height: height,
		draw: func(c draw.Canvas) { drawPanels(c, plots, leg) },
	}, nil
}

// nwayPanels returns the panels of nwayFigure, one per number of ways,
// side by side: they share a y range (sharedY), so that they compare at a
// glance, and only the first labels its y axis.
func nwayPanels(dataset string, d *nwayRows, ms []string, ways, shots []int) ([]*plot.Plot, error) {
	_, ticks := categories(slices.Clone(shots))
	var plots []*plot.Plot
	for _, w := range ways {
		p, err := accuracyPanel(fmt.Sprintf("%s, %d-way", dataset, w), "training examples per class (shots)", ticks, ms, ms, func(m string, i int) (Row, bool) {
			return d.point(d.key(m, w, shots[i]))
		})
		if err != nil {
			return nil, err
		}
		p.Y.Label.Text = "accuracy (%)"
		plots = append(plots, p)
	}
	sharedY(plots)
	for _, p := range plots[1:] {
		p.Y.Label.Text = ""
	}
	return plots, nil
}

// failedEpisodes lists the failed episodes of a dataset by method, ways and
// shots, with the first error of each.
func failedEpisodes(doc *document, recs []experiment.Record) {
	failedSection(doc, recs, "episodes", [2]string{"ways", "shots"}, func(r experiment.Record) (int, int) { return r.Ways, r.Positives }, nil)
}
