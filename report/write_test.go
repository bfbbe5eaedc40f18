package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/dirlock"
)

var keepDir = flag.String("report.dir", "", "write the synthetic test reports here (one subdirectory each) to look at them")

// newDatasetRows indexes rows, the summary rows of one dataset of the
// binary protocols, without a grid (the report's build uses
// Results.gridRows).
func newDatasetRows(rows []Row) *datasetRows { return &datasetRows{newGridRows(rows)} }

// newNWayRows indexes rows, the summary rows of one N-way dataset, without
// a grid (the report's build uses Results.gridRows).
func newNWayRows(rows []Row) *nwayRows { return &nwayRows{newGridRows(rows)} }

// outDir returns where a test writes its report.
func outDir(t *testing.T, name string) string {
	if *keepDir != "" {
		return filepath.Join(*keepDir, name)
	}
	return filepath.Join(t.TempDir(), name)
}

// checkPNG decodes a PNG and returns its size.
func checkPNG(t *testing.T, name string, b []byte) (w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r := img.Bounds()
	if r.Dx() < 300 || r.Dy() < 300 {
		t.Errorf("%s: %d×%d pixels: too small to read", name, r.Dx(), r.Dy())
	}
	// A drawn figure is not a blank page: count the non-white pixels.
	ink := 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			if cr, cg, cb, _ := img.At(x, y).RGBA(); cr < 0xf000 || cg < 0xf000 || cb < 0xf000 {
				ink++
			}
		}
	}
	if frac := float64(ink) / float64(r.Dx()*r.Dy()/4); frac < 0.01 {
		t.Errorf("%s: only %.2f%% of the pixels are drawn", name, 100*frac)
	}
	return r.Dx(), r.Dy()
}

// checkSVG parses an SVG document as XML and checks its root element.
func checkSVG(t *testing.T, name string, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", name, root)
	}
	if !bytes.Contains(b, []byte("sans-serif")) {
		t.Errorf("%s: no fallback font family", name)
	}
}

func TestWriteFullReport(t *testing.T) {
	tests := []struct {
		name   string
		s      synth
		shards int
		// figures expected, by file-name prefix
		figs []string
		// lines expected in report.md
		md []string
		// many: a case of many classes, skipped with -short (the first
		// case has every kind of figure and table)
		many bool
	}{
		{
			name: "groups",
			s: synth{dataset: "toy-groups", classes: 16, groupSize: 4, negatives: []int{15}, positives: []int{2, 5, 10},
				splits: 3, noise: []int{0, 10, 100, 1000}, methods: paperMethods(), failEvery: 97, seed: 1},
			shards: 2,
			figs: []string{"fig1-accuracy-toy-groups", "fig2-noise-toy-groups", "fig3-greedytl59-toy-groups",
				"fig-weights-toy-groups-greedytl", "fig-weights-toy-groups-greedytl-59", "fig-weights-toy-groups-rls-srcfeat"},
			md: []string{
				"| method | candidates (features + sources) | 2+10 | 5+10 | 10+10 |", // 100 features + 15 sources − the target's
				"| speed-up |  | ×30.",
				"### Failed cells",
				"| GreedyTL | 2 | 0 | 1 | synthetic failure |",
				"16 classes, 15 targets, 3 splits; training positives 2, 5, 10; noise dimensions 0, 10, 100, 1000;",
			},
		},
		{
			name: "clustered-many-classes",
			s: synth{dataset: "toy-many", classes: 60, negatives: []int{0, 1}, positives: []int{2, 10},
				splits: 2, noise: []int{0}, methods: []string{"greedytl", "greedytl-59", "rls-srcfeat", "no-transfer"}, seed: 2},
			shards: 1,
			many:   true,
			figs: []string{"fig1-accuracy-toy-many", "fig3-greedytl59-toy-many",
				"fig-weights-toy-many-greedytl", "fig-weights-toy-many-greedytl-59", "fig-weights-toy-many-rls-srcfeat"},
		},
		{
			// CLINC150-like: 150 classes in 10 named domains, one split, one size.
			name: "clinc-like",
			s: synth{dataset: "clinc-like", classes: 150, groupSize: 15, negatives: []int{149}, positives: []int{5},
				splits: 1, noise: []int{0}, methods: []string{"greedytl", "rls-srcfeat"}, longNames: true, seed: 3},
			shards: 1,
			many:   true,
			figs:   []string{"fig1-accuracy-clinc-like", "fig-weights-clinc-like-greedytl", "fig-weights-clinc-like-rls-srcfeat"},
			md:     []string{"| GreedyTL | ", " (1 split) |"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.many && testing.Short() {
				t.Skipf("%d classes: skipped with -short", tc.s.classes)
			}
			run := tc.s.write(t, tc.shards)
			res, err := Load(run)
			if err != nil {
				t.Fatal(err)
			}
			dir := outDir(t, tc.name)
			written, err := Write(dir, res, Options{Markdown: true, HTML: true})
			if err != nil {
				t.Fatal(err)
			}
			if want := 2*len(tc.figs) + 2; len(written) != want {
				t.Errorf("wrote %d files, want %d: %v", len(written), want, written)
			}
			for _, f := range tc.figs {
				b, err := os.ReadFile(filepath.Join(dir, f+".png"))
				if err != nil {
					t.Fatal(err)
				}
				checkPNG(t, f+".png", b)
				s, err := os.ReadFile(filepath.Join(dir, f+".svg"))
				if err != nil {
					t.Fatal(err)
				}
				checkSVG(t, f+".svg", s)
			}
			md, err := os.ReadFile(filepath.Join(dir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range tc.md {
				if !bytes.Contains(md, []byte(line)) {
					t.Errorf("report.md has no %q", line)
				}
			}
			for _, f := range tc.figs {
				if !bytes.Contains(md, []byte("("+f+".png)")) {
					t.Errorf("report.md does not show %s.png", f)
				}
			}
			html, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			checkSelfContained(t, html, len(tc.figs))
			// No temporary files are left behind (the lock file stays).
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") && e.Name() != dirlock.FileLockName(FileList) {
					t.Errorf("left over: %s", e.Name())
				}
			}
		})
	}
}

// checkSelfContained checks that an HTML page references nothing outside
// itself and embeds n decodable PNG figures.
func checkSelfContained(t *testing.T, page []byte, n int) {
	t.Helper()
	s := string(page)
	for _, bad := range []string{`src="http`, `href="http`, `src="//`, `href="//`, "@import", "url(http", `<link `, `<script`} {
		if strings.Contains(strings.ToLower(s), bad) {
			t.Errorf("report.html contains %q: not self-contained", bad)
		}
	}
	srcs := regexp.MustCompile(`src="([^"]*)"`).FindAllStringSubmatch(s, -1)
	if len(srcs) != n {
		t.Errorf("report.html has %d src attributes, want %d figures", len(srcs), n)
	}
	for _, m := range srcs {
		data, ok := strings.CutPrefix(m[1], "data:image/png;base64,")
		if !ok {
			t.Errorf("report.html: src %.40q is not an inline PNG", m[1])
			continue
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			t.Fatal(err)
		}
		checkPNG(t, "inline figure", b)
	}
}

func TestTimingTable(t *testing.T) {
	var recs []experiment.Record
	for i, f := range []float64{1, 2, 3} {
		recs = append(recs, cell("greedytl", i, 2, 0, 0, 0.5, f), cell("greedytl-59", i, 2, 0, 0, 0.5, f/10))
	}
	recs = append(recs, failed("greedytl", 3, 2, 0, 0)) // its 99 s must not count
	res := &Results{Records: recs, shapes: map[string]shape{"d": {features: 50, sources: 11}}}
	blocks := timingTable(res, recs, &datasetRows{}, "d", greedy59, 0, 10)
	tab := blocks[1].(table)
	want := [][]string{
		{"GreedyTL", "60", "2.000 ± 1.000"},
		{"GreedyTL-59", "60", "0.200 ± 0.100"},
		{"speed-up", "", "×10.0"},
	}
	if !slices.Equal(tab.header, []string{"method", "candidates (features + sources)", "2+10"}) {
		t.Errorf("header %q", tab.header)
	}
	for i := range want {
		if !slices.Equal(tab.rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, tab.rows[i], want[i])
		}
	}
	if p := blocks[0].(paragraph); !strings.Contains(p.text, "in s ") {
		t.Errorf("caption %q, want seconds", p.text)
	}
	// Fast fits are shown in milliseconds; no sizes, no candidates column.
	for i := range recs {
		recs[i].FitSeconds /= 1000
	}
	res.shapes = nil
	blocks = timingTable(res, recs, &datasetRows{}, "d", greedy59, 0, 10)
	if tab := blocks[1].(table); !slices.Equal(tab.rows[0], []string{"GreedyTL", "2.000 ± 1.000"}) {
		t.Errorf("row %q", tab.rows[0])
	}
	if p := blocks[0].(paragraph); !strings.Contains(p.text, "in ms ") {
		t.Errorf("caption %q, want milliseconds", p.text)
	}
}

// TestTimingTableNoTimes: Table 1 shows a time only where there is one:
// a method none of whose fits succeeded at a size has no time there ("—",
// where it showed 0.000 ± 0.000, a measured time of zero) and no speed-up
// against it, and a size of a single successful fit shows its time with no
// standard deviation (it showed ± 0.000, which claims no spread, where one
// fit measures none).
func TestTimingTableNoTimes(t *testing.T) {
	recs := []experiment.Record{
		cell("greedytl", 0, 2, 0, 0, 0.5, 2), cell("greedytl", 1, 2, 0, 0, 0.5, 4),
		failed("greedytl-59", 0, 2, 0, 0), failed("greedytl-59", 1, 2, 0, 0),
		cell("greedytl", 0, 5, 0, 0, 0.5, 3),
		cell("greedytl-59", 0, 5, 0, 0, 0.5, 1), failed("greedytl-59", 1, 5, 0, 0),
		failed("greedytl", 0, 10, 0, 0),
		cell("greedytl-59", 0, 10, 0, 0, 0.5, 1), cell("greedytl-59", 1, 10, 0, 0, 0.5, 2),
		failed("greedytl", 0, 20, 0, 0), failed("greedytl-59", 0, 20, 0, 0), // no time at all: a column of —, as in the accuracy tables
	}
	tab := timingTable(&Results{Records: recs}, recs, &datasetRows{}, "d", greedy59, 0, 10)[1].(table)
	want := [][]string{
		{"GreedyTL", "3.000 ± 1.414", "3.000", "—", "—"},
		{"GreedyTL-59", "—", "1.000", "1.500 ± 0.707", "—"},
		{"speed-up", "—", "×3.0", "—", "—"},
	}
	if !slices.Equal(tab.header, []string{"method", "2+10", "5+10", "10+10", "20+10"}) {
		t.Errorf("header %q", tab.header)
	}
	for i := range want {
		if i >= len(tab.rows) || !slices.Equal(tab.rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, tab.rows, want[i])
		}
	}
}

func TestAccuracyTable(t *testing.T) {
	recs := []experiment.Record{
		cell("greedytl", 0, 2, 0, 0, 0.8, 1), cell("greedytl", 0, 2, 0, 1, 0.6, 1),
		cell("best-source", 0, 2, 0, 0, 0.95, 1), cell("best-source", 0, 2, 0, 1, 0.95, 1),
		cell("dam", 0, 2, 0, 0, 0.5, 1), // one split only
		failed("no-transfer", 0, 2, 0, 0),
	}
	blocks := accuracyTable(newDatasetRows(Summarize(recs)), 0, 10)
	tab := blocks[0].(table)
	// Standard error of (0.8, 0.6): sd 0.1414…/√2 = 0.1.
	want := [][]string{
		{"GreedyTL", "70.0 ± 10.00"},
		{"No transfer", "—"},
		{"Best source (oracle)", "95.0 ± 0.00"},
		{"DAM", "50.0 (1 split)"},
	}
	wantBold := []bool{true, false, false, false} // the oracle is never the best
	for i := range want {
		if !slices.Equal(tab.rows[i], want[i]) || tab.bold[i][1] != wantBold[i] {
			t.Errorf("row %d = %q bold %v, want %q bold %v", i, tab.rows[i], tab.bold[i][1], want[i], wantBold[i])
		}
	}
	if note := blocks[1].(paragraph).text; !strings.Contains(note, "single split") {
		t.Errorf("note %q does not say that an entry has one split", note)
	}
}

// TestAccuracyTablesKeepFailedSizes: a training-set size, or a noise level,
// at which every cell failed keeps its column, or its table, of "—" in the
// accuracy tables — as a method whose every cell failed keeps its row, and
// as the N-way tables keep such a number of shots — where the column and
// the table were left out, so that the tables read as if it had not been
// run.
func TestAccuracyTablesKeepFailedSizes(t *testing.T) {
	var recs []experiment.Record
	for k, m := range []string{"greedytl", "dam"} {
		for s := range 2 {
			recs = append(recs, cell(m, 0, 2, 0, s, 0.8-0.2*float64(k), 1), failed(m, 0, 5, 0, s), failed(m, 0, 2, 50, s))
		}
	}
	for i := range recs {
		recs[i].Dataset = "toy"
	}
	tab := accuracyTable(newDatasetRows(Summarize(recs)), 0, 10)[0].(table)
	if want := []string{"method", "2+10", "5+10"}; !slices.Equal(tab.header, want) {
		t.Errorf("header %q, want %q", tab.header, want)
	}
	for _, row := range tab.rows {
		if len(row) != 3 || row[2] != "—" {
			t.Errorf("row %q, want — at 5+10", row)
		}
	}
	var doc document
	res := &Results{Records: recs}
	if _, err := datasetSection(&doc, res, "toy", "toy", newDatasetRows(Summarize(recs))); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	doc.writeMarkdown(&b)
	for _, want := range []string{"### Balanced accuracy (%)\n", "### Balanced accuracy (%), 50 noise dimensions\n", "| GreedyTL | **80.0 ± 0.00** | — |", "| DAM | 60.0 ± 0.00 | — |", "Each entry averages 2 cells. An entry of — averages none: its every cell failed (see the failed cells).", "| GreedyTL | — |", "Every cell of this table failed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	// A failed column's entries average no cell, and are not counted as
	// entries of 0 cells ("Entries average 0 to 2 cells").
	if strings.Contains(b.String(), "average 0 to") {
		t.Errorf("a failed entry counted as one of 0 cells:\n%s", b.String())
	}
	// With entries of 1 and 2 cells beside the failed ones, the range is
	// theirs.
	recs = append(recs[:len(recs):len(recs)], cell("greedytl", 0, 2, 0, 2, 0.8, 1), failed("dam", 0, 2, 0, 2))
	for i := range recs {
		recs[i].Dataset = "toy"
	}
	els := accuracyTable(newDatasetRows(Summarize(recs)), 0, 10)
	if note := els[1].(paragraph).text; !strings.Contains(note, "Entries average 2 to 3 cells (see the failed cells and All summary rows). An entry of — averages none: its every cell failed (see the failed cells).") {
		t.Errorf("note %q", note)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	var b strings.Builder
	d := &document{title: "r"}
	d.add(table{header: []string{"a|b"}, rows: [][]string{{"x_y*z"}}, bold: [][]bool{{true}}})
	d.writeMarkdown(&b)
	if !strings.Contains(b.String(), `| a\|b |`) || !strings.Contains(b.String(), `| **x\_y\*z** |`) {
		t.Errorf("markdown:\n%s", b.String())
	}
	// A dataset named as an entity, or with strikethrough's marks, is
	// shown as named: "R&amp;D" was shown as "R&D".
	b.Reset()
	d = &document{title: "r"}
	d.add(heading{2, "Dataset R&amp;D ~~x~~"})
	d.writeMarkdown(&b)
	if !strings.Contains(b.String(), `## Dataset R\&amp;D \~\~x\~\~`) {
		t.Errorf("markdown:\n%s", b.String())
	}
	b.Reset()
	d = &document{title: "<r>"}
	d.add(paragraph{`a <b> & "c"`})
	d.writeHTML(&b)
	if !strings.Contains(b.String(), "<p>a &lt;b&gt; &amp; &#34;c&#34;</p>") || !strings.Contains(b.String(), "<h1>&lt;r&gt;</h1>") {
		t.Errorf("html:\n%s", b.String())
	}
}

func TestCandidatesFromRecords(t *testing.T) {
	a := cell("greedytl", 0, 2, 0, 0, 0.5, 1)
	b := cell("greedytl-59", 0, 2, 0, 0, 0.5, 1)
	a.Candidates, b.Candidates = 879, 879
	c := cell("greedytl", 1, 2, 0, 0, 0.5, 1)
	c.Candidates = 880
	res := &Results{shapes: map[string]shape{"d": {features: 1, sources: 2}}}
	tests := []struct {
		recs []experiment.Record
		want string
	}{
		{[]experiment.Record{a, b}, "879"},
		{[]experiment.Record{a, b, c}, "879–880"},
		{[]experiment.Record{cell("greedytl", 0, 2, 0, 0, 0.5, 1)}, "2"}, // from run.json: 1 + 0 + 2 − 1
	}
	for _, tc := range tests {
		tab := timingTable(res, tc.recs, &datasetRows{}, "d", greedy59, 0, 10)[1].(table)
		if tab.rows[0][1] != tc.want {
			t.Errorf("candidates %q, want %q", tab.rows[0][1], tc.want)
		}
	}
}

// BenchmarkReportCLINCSize loads and renders a CLINC150-sized run: 150
// classes in 10 groups, 14 methods, 3 sizes, 10 splits (≈ 62 000 cells).
func BenchmarkReportCLINCSize(b *testing.B) {
	s := synth{dataset: "clinc-size", classes: 150, groupSize: 15, negatives: []int{149}, positives: []int{2, 5, 10},
		splits: 10, noise: []int{0}, methods: paperMethods(), longNames: true, seed: 4}
	run := s.write(b, 1)
	out := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		res, err := Load(run)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Write(out, res, Options{Markdown: true, HTML: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteNil: Write of no results is an error that says so and writes
// nothing (it dereferenced the nil *Results).
func TestWriteNil(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("Write(nil): panic %v", r)
		}
	}()
	paths, err := Write(dir, nil, Options{Markdown: true, HTML: true})
	if err == nil || !strings.Contains(err.Error(), "nil *Results") || paths != nil {
		t.Errorf("Write(nil) = %v, %v; want no paths and an error naming the nil *Results", paths, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Write(nil) created %s (%v)", dir, err)
	}
}

// TestWriteKeepsForeignDocuments: Write replaces an earlier report's
// documents, but refuses a directory whose report.md or report.html is not
// a greedytl report, with the file untouched and nothing written (issue:
// report --out DIR replaced DIR/report.md, the user's document).
func TestWriteKeepsForeignDocuments(t *testing.T) {
	_, out := writeReport(t, nwayRecords())
	files, err := filepath.Glob(filepath.Join(filepath.Dir(out), "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("results files: %v, %v", files, err)
	}
	res, err := Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Markdown: true, HTML: true}
	if _, err := Write(out, res, opts); err != nil {
		t.Fatalf("writing over an earlier report: %v", err)
	}
	if _, err := Write(out, res, opts); err != nil {
		t.Errorf("writing over an earlier report, both documents: %v", err)
	}
	for _, name := range []string{"report.md", "report.html"} {
		for _, content := range []string{"# my notes\n", "", "<!DOCTYPE html>\n", "# greedytl experiment report, by hand"} {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			paths, err := Write(dir, res, opts)
			if !errors.Is(err, ErrNotAReport) || !strings.Contains(err.Error(), path) || paths != nil {
				t.Errorf("%s holding %q: %v, %v; want ErrNotAReport naming it", name, content, paths, err)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != content {
				t.Errorf("%s holding %q: now %q (%v)", name, content, b, err)
			}
			if ents, err := os.ReadDir(dir); err != nil || len(ents) != 1 {
				t.Errorf("%s holding %q: %d files in the directory, want it alone (%v)", name, content, len(ents), err)
			}
		}
	}
}

// loadRecords writes recs to results files in dir, one per dataset (a run
// without run.json holds one dataset), and loads them.
func loadRecords(t *testing.T, dir string, recs []experiment.Record) *Results {
	t.Helper()
	text := map[string][]byte{}
	var paths []string
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, r.Dataset+".jsonl")
		if text[p] == nil {
			paths = append(paths, p)
		}
		text[p] = append(append(text[p], b...), '\n')
	}
	for _, p := range paths {
		if err := os.WriteFile(p, text[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// dirFiles returns the names of the regular files in dir but the lock
// file, sorted.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && e.Name() != dirlock.LockFile {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestWriteRemovesStaleFiles: a report written into the directory of an
// earlier one leaves exactly its own files there (issue: the earlier
// report's figures that it no longer draws stayed, looking current), and
// never removes a file it did not write: a file of the user's, an earlier
// report's file the user has since changed, a file an earlier greedytl
// wrote before reports listed their files.
func TestWriteRemovesStaleFiles(t *testing.T) {
	var two []experiment.Record
	for _, r := range nwayRecords() {
		two = append(two, r)
		r.Dataset = "other"
		two = append(two, r)
	}
	both := loadRecords(t, t.TempDir(), two)
	one := loadRecords(t, t.TempDir(), nwayRecords())
	dir := filepath.Join(t.TempDir(), "report")

	// The files a report of one dataset writes, into a directory of its own.
	alone := filepath.Join(t.TempDir(), "alone")
	if _, err := Write(alone, one, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	want := dirFiles(t, alone)

	if _, err := Write(dir, both, Options{Markdown: true, HTML: true}); err != nil {
		t.Fatal(err)
	}
	first := dirFiles(t, dir)
	var stale []string
	for _, f := range first {
		if !slices.Contains(want, f) {
			stale = append(stale, f)
		}
	}
	if len(stale) < 3 || !slices.Contains(stale, "report.html") {
		t.Fatalf("the report of two datasets wrote %v, the report of one %v: want figures and report.html of the first alone", first, want)
	}
	// The user's files: one of their own, and a figure of the first report
	// that they changed.
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var changed string
	for _, f := range stale {
		if strings.HasSuffix(f, ".svg") {
			changed = f
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, changed), []byte("<svg>edited</svg>\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	var told []string // the files Write says it removed
	tell := func(path string, err error) {
		if err != nil || filepath.Dir(path) != dir {
			t.Errorf("Removed(%s, %v): want files of %s removed", path, err, dir)
		}
		told = append(told, filepath.Base(path))
	}
	if _, err := Write(dir, one, Options{Markdown: true, Removed: tell}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(told)
	if wantTold := slices.DeleteFunc(slices.Clone(stale), func(f string) bool { return f == changed }); !slices.Equal(told, wantTold) {
		t.Errorf("Write told of removing %v, want %v (the first report's files but the one changed)", told, wantTold)
	}
	got := dirFiles(t, dir)
	for _, f := range want {
		if !slices.Contains(got, f) {
			t.Errorf("%s is missing after the second report", f)
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) && f != "notes.txt" && f != changed && f != FileList {
			t.Errorf("%s, a file of the first report that the second does not write, is still there", f)
		}
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine\n" {
		t.Errorf("the user's %s: %q, %v", mine, b, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, changed)); err != nil || string(b) != "<svg>edited</svg>\n" {
		t.Errorf("%s, changed by the user, was removed or changed: %q, %v", changed, b, err)
	}

	// A directory of a report made before reports listed their files (as
	// docs/results' were): the files its greedytl report.md and report.html
	// show are the report's: replaced, or removed as stale when this report
	// does not write them — and so a later report writes them again.
	// Without a report.md (an HTML report), its figures are named by the
	// alt text of report.html's embedded PNGs.
	for _, o := range []Options{{Markdown: true, HTML: true}, {HTML: true}} {
		legacy := filepath.Join(t.TempDir(), "legacy")
		if _, err := Write(legacy, both, o); err != nil {
			t.Fatal(err)
		}
		first := dirFiles(t, legacy)
		if err := os.Remove(filepath.Join(legacy, FileList)); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(legacy, one, o); err != nil {
			t.Errorf("%+v: a report into a directory of a report without a file list: %v", o, err)
			continue
		}
		mine := filepath.Join(t.TempDir(), "mine")
		if _, err := Write(mine, one, o); err != nil {
			t.Fatal(err)
		}
		if got, want := dirFiles(t, legacy), dirFiles(t, mine); !slices.Equal(got, want) {
			t.Errorf("%+v: the directory of a report without a list holds %v after a report of one dataset, want %v", o, got, want)
		}
		for _, f := range dirFiles(t, mine) {
			a, err1 := os.ReadFile(filepath.Join(mine, f))
			b, err2 := os.ReadFile(filepath.Join(legacy, f))
			if f != FileList && (err1 != nil || err2 != nil || !bytes.Equal(a, b)) {
				t.Errorf("%+v: %s in the directory of a report without a list is not the new report's (%v, %v)", o, f, err1, err2)
			}
		}
		if _, err := Write(legacy, both, o); err != nil {
			t.Errorf("%+v: the report of both datasets again: %v", o, err)
		} else if got := dirFiles(t, legacy); !slices.Equal(got, first) {
			t.Errorf("%+v: after the report of both datasets again: %v, want %v", o, got, first)
		}
	}
}

// TestWriteKeepsUnlistedFiles: a file of a name Write would write — a
// figure as well as a document — that the directory's file list does not
// name, or that sits in a directory without a list, is the user's: Write
// refuses, naming it, and writes nothing (issue: a user's
// fig1-accuracy-syn.png, in a directory without report-files.json, was
// replaced without notice).
func TestWriteKeepsUnlistedFiles(t *testing.T) {
	res := loadRecords(t, t.TempDir(), nwayRecords())
	opts := Options{Markdown: true}
	fresh := filepath.Join(t.TempDir(), "fresh")
	if _, err := Write(fresh, res, opts); err != nil {
		t.Fatal(err)
	}
	var figure string
	for _, f := range dirFiles(t, fresh) {
		if strings.HasSuffix(f, ".png") {
			figure = f
			break
		}
	}
	if figure == "" {
		t.Fatalf("no PNG figure among %v", dirFiles(t, fresh))
	}
	const mine = "my own figure\n"
	for _, listed := range []string{"no report", "listed", "legacy"} {
		dir := t.TempDir()
		if listed != "no report" { // a report of its own there, whose list does not name the figure
			other := loadRecords(t, t.TempDir(), []experiment.Record{{Dataset: "other", Method: "svm", Positives: 1, TestPerClass: 3, Accuracy: 0.5, FitSeconds: 0.01}})
			if _, err := Write(dir, other, opts); err != nil {
				t.Fatal(err)
			}
			if l, err := readFileList(dir); err != nil || l == nil || slices.ContainsFunc(l.Files, func(f listedFile) bool { return f.Name == figure }) {
				t.Fatalf("the other report's list %v (%v) names %s", l, err, figure)
			}
			if listed == "legacy" { // and no list: its report.md does not link the figure
				if err := os.Remove(filepath.Join(dir, FileList)); err != nil {
					t.Fatal(err)
				}
			}
		}
		path := filepath.Join(dir, figure)
		if err := os.WriteFile(path, []byte(mine), 0o644); err != nil {
			t.Fatal(err)
		}
		before := dirFiles(t, dir)
		paths, err := Write(dir, res, opts)
		if !errors.Is(err, ErrNotAReport) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), FileList) || paths != nil {
			t.Errorf("listed %v: Write over the user's %s = %v, %v; want ErrNotAReport naming it and %s", listed, figure, paths, err, FileList)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != mine {
			t.Errorf("listed %v: the user's %s now holds %.40q (%v)", listed, figure, b, err)
		}
		if after := dirFiles(t, dir); !slices.Equal(after, before) {
			t.Errorf("listed %v: the directory held %v, now %v", listed, before, after)
		}
	}
}

// TestWriteFileListStaysInItsDirectory: a file list naming anything but a
// file of its directory (a path outside it, a subdirectory's file, the
// list itself) is refused as not a report's, and nothing is removed, even
// where the named file's digest matches.
func TestWriteFileListStaysInItsDirectory(t *testing.T) {
	res := loadRecords(t, t.TempDir(), nwayRecords())
	root := t.TempDir()
	victim := filepath.Join(root, "victim.png")
	if err := os.WriteFile(victim, []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("victim"))
	digest := hex.EncodeToString(sum[:])
	dir := filepath.Join(root, "report")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "victim.png"), []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../victim.png", victim, "sub/victim.png", ".", "", FileList} {
		list := fmt.Sprintf(`{"format": %q, "version": 1, "files": [{"name": %q, "sha256": %q}]}`, fileListFormat, name, digest)
		if err := os.WriteFile(filepath.Join(dir, FileList), []byte(list), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Write(dir, res, Options{Markdown: true})
		if !errors.Is(err, ErrNotAReport) || !strings.Contains(err.Error(), filepath.Join(dir, FileList)) {
			t.Errorf("a file list naming %q: %v; want ErrNotAReport naming the list", name, err)
		}
		for _, p := range []string{victim, filepath.Join(dir, "sub", "victim.png")} {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("a file list naming %q: %s removed", name, p)
			}
		}
	}
}

// TestWriteOneAtATime: a report written into a directory that another
// Write holds is refused, naming the holder, and writes nothing: two
// reports into one directory at once would each remove the files the
// other just wrote.
func TestWriteOneAtATime(t *testing.T) {
	res := loadRecords(t, t.TempDir(), nwayRecords())
	// A run working in a directory (experiment's lock) does not hold a
	// report written into it.
	run := t.TempDir()
	running, err := dirlock.Acquire(run)
	if err != nil {
		t.Fatal(err)
	}
	defer running.Release()
	if _, err := Write(run, res, Options{Markdown: true}); err != nil {
		t.Errorf("Write into a directory a run holds: %v", err)
	}
	dir := t.TempDir()
	held, err := dirlock.AcquireFile(filepath.Join(dir, FileList))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	paths, err := Write(dir, res, Options{Markdown: true})
	if !errors.Is(err, dirlock.ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) || paths != nil {
		t.Errorf("Write into a held directory: %v, %v; want ErrLocked naming the holder", paths, err)
	}
	if names := slices.DeleteFunc(dirFiles(t, dir), func(n string) bool { return n == dirlock.FileLockName(FileList) }); len(names) != 0 {
		t.Errorf("the refused Write wrote %v", names)
	}
	// A lock file that cannot be opened (a directory in its place) is
	// refused too, naming the file list, rather than writing unlocked.
	blocked := t.TempDir()
	list := filepath.Join(blocked, FileList)
	if err := os.Mkdir(filepath.Join(blocked, dirlock.FileLockName(FileList)), 0o755); err != nil {
		t.Fatal(err)
	}
	paths, err = Write(blocked, res, Options{Markdown: true})
	if err == nil || !strings.HasPrefix(err.Error(), "report: locking "+list+": ") || paths != nil {
		t.Errorf("Write with a directory as its lock file: %v, %v; want an error naming %s", paths, err, list)
	}
	if names := slices.DeleteFunc(dirFiles(t, blocked), func(n string) bool { return n == dirlock.FileLockName(FileList) }); len(names) != 0 {
		t.Errorf("the refused Write wrote %v", names)
	}
}

// TestHasDigest: hasDigest (now on filedigest.SHA256) reports a regular
// file whose SHA-256 is the digest, and nothing else: not a file of other
// content, a missing file, a link to the file or a directory.
func TestHasDigest(t *testing.T) {
	content := []byte("<svg/>\n")
	sum, other := sha256.Sum256(content), sha256.Sum256([]byte("<svg>other</svg>\n"))
	digest := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	path, link := filepath.Join(dir, "fig.svg"), filepath.Join(dir, "link.svg")
	if err := errors.Join(os.WriteFile(path, content, 0o644), os.Symlink(path, link)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, digest string
		want         bool
	}{
		{path, digest, true},
		{path, hex.EncodeToString(other[:]), false},
		{filepath.Join(dir, "missing.svg"), digest, false},
		{link, digest, false},
		{dir, digest, false},
	} {
		if got, err := hasDigest(tc.path, tc.digest); err != nil || got != tc.want {
			t.Errorf("hasDigest(%s, %.12s…) = %v, %v; want %v", filepath.Base(tc.path), tc.digest, got, err, tc.want)
		}
	}
}

// TestWriteLegacyKeepsUnprovenFiles: in a directory without a file list, a
// file is the earlier report's — replaced, or removed as stale — only
// where greedytl can tell it wrote it: its report.html whole (greedytl's
// head, stylesheet and end), each figure whose PNG holds what that page
// embeds (and its SVG), and a report.md showing the page's figures. A
// user's report.md that began as greedytl's ("# greedytl experiment
// report") and linked their own figure let Write replace that figure, and
// so did a user's page beginning as greedytl's; a figure changed since its
// page embedded it, or a report.md of the user's beside greedytl's page,
// was replaced too.
func TestWriteLegacyKeepsUnprovenFiles(t *testing.T) {
	res := loadRecords(t, t.TempDir(), nwayRecords())
	both := Options{Markdown: true, HTML: true}
	// legacy returns a directory of a greedytl report of res written with
	// opts, without its list.
	legacy := func(opts Options) string {
		dir := filepath.Join(t.TempDir(), "report")
		if _, err := Write(dir, res, opts); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, FileList)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	var fig string // a figure's name, without extension
	for _, f := range dirFiles(t, legacy(both)) {
		if name, ok := strings.CutSuffix(f, ".png"); ok {
			fig = name
			break
		}
	}
	if fig == "" {
		t.Fatal("the report has no figure")
	}
	const mine = "my own figure\n"
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		opts  Options // of the report written into the directory
		setUp func() string
		user  string // the user's file that Write must refuse to replace
	}{
		{"a user's report.md beginning as greedytl's", Options{Markdown: true}, func() string {
			dir := t.TempDir()
			write(dir, "report.md", "# greedytl experiment report\n\nMy notes.\n\n![mine]("+fig+".png)\n")
			write(dir, fig+".png", mine)
			return dir
		}, fig + ".png"},
		{"a user's report.html beginning as greedytl's", both, func() string {
			dir := t.TempDir()
			write(dir, "report.html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>greedytl experiment report</title>\n</head>\n<body>\n<img alt=\""+fig+"\" src=\"data:image/png;base64,"+base64.StdEncoding.EncodeToString([]byte(mine))+"\">\n</body>\n</html>\n")
			write(dir, fig+".png", mine)
			return dir
		}, fig + ".png"},
		{"a figure changed since greedytl's page embedded it", both, func() string {
			dir := legacy(both)
			write(dir, fig+".png", mine)
			return dir
		}, fig + ".png"},
		{"a user's report.md beside greedytl's page", both, func() string {
			dir := legacy(Options{HTML: true})
			write(dir, "report.md", "# greedytl experiment report\n\nMy notes on ![the figure]("+fig+".png).\n")
			return dir
		}, "report.md"},
	} {
		dir := tc.setUp()
		before := dirContents(t, dir)
		paths, err := Write(dir, res, tc.opts)
		path := filepath.Join(dir, tc.user)
		if !errors.Is(err, ErrNotAReport) || !strings.Contains(err.Error(), path) || paths != nil {
			t.Errorf("%s: Write = %v, %v; want ErrNotAReport naming %s", tc.name, paths, err, path)
		}
		if after := dirContents(t, dir); !maps.Equal(after, before) {
			t.Errorf("%s: the directory changed", tc.name)
		}
	}
}

// TestWriteLegacyKeepsAnnotatedDocument: in a directory of a report from
// before file lists, a report.md the user has added notes to is still the
// report's to replace, but a report that does not write it again (--format
// html) does not remove it as stale: nothing proves it unchanged (review:
// the notes were deleted).
func TestWriteLegacyKeepsAnnotatedDocument(t *testing.T) {
	res := loadRecords(t, t.TempDir(), nwayRecords())
	for _, doc := range []struct {
		name string
		opts Options // the later report's, which does not write name
	}{{"report.md", Options{HTML: true}}, {"report.html", Options{Markdown: true}}} {
		dir := filepath.Join(t.TempDir(), "report")
		if _, err := Write(dir, res, Options{Markdown: true, HTML: true}); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, FileList)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, doc.name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		annotated := string(b)
		if doc.name == "report.md" {
			annotated += "\n## My analysis\n\nnotes\n"
		} else { // inside the page, whose end legacyPage checks
			annotated = strings.Replace(annotated, "</body>", "<p>My analysis</p>\n</body>", 1)
		}
		if err := os.WriteFile(path, []byte(annotated), 0o644); err != nil {
			t.Fatal(err)
		}
		if l, err := legacyList(dir, "greedytl experiment report"); err != nil || l == nil || !slices.ContainsFunc(l.Files, func(f listedFile) bool { return f.Name == doc.name }) {
			t.Fatalf("%s: legacyList = %v, %v; want the annotated document listed (the case under test)", doc.name, l, err)
		}
		if _, err := Write(dir, res, doc.opts); err != nil {
			t.Fatalf("%s: %v", doc.name, err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != annotated {
			t.Errorf("%s, annotated by the user, was removed or changed by a report that does not write it: %v", doc.name, err)
		}
	}
}

// dirContents returns the content of each file of dir by name.
func dirContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range dirFiles(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		m[f] = string(b)
	}
	return m
}

// TestLegacyListOfDocsResults: the reports in docs/results, written before
// reports listed their files, are greedytl's whole to legacyList — both
// documents and every figure — so that docs/results/run.sh writes them
// again; the JSON summaries kept beside them (summary.json,
// nway/natives-content-order.json: greedytl report --json's output, saved
// by hand) are no report's file, and legacyList must not claim them.
func TestLegacyListOfDocsResults(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "docs", "results", "*", "report.html"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no report in docs/results: %v", err)
	}
	for _, page := range dirs {
		dir := filepath.Dir(page)
		if _, err := os.Stat(filepath.Join(dir, FileList)); err == nil {
			continue // written since with a list
		}
		l, err := legacyList(dir, "greedytl experiment report")
		if err != nil || l == nil {
			t.Errorf("%s: legacyList = %v, %v", dir, l, err)
			continue
		}
		var got []string
		for _, f := range l.Files {
			got = append(got, f.Name)
		}
		slices.Sort(got)
		want := slices.DeleteFunc(dirFiles(t, dir), func(f string) bool { return filepath.Ext(f) == ".json" })
		if !slices.Equal(got, want) {
			t.Errorf("%s: legacyList lists %v, want %v", dir, got, want)
		}
	}
}

// TestLegacyPageFrame: legacyPage knows a greedytl page by the frame that
// writeHTML writes around a report's content, which must stay the frame of
// the greedytls before lists (the SHA-256 of an empty report's page, as
// every greedytl from the first to 7e46648's parent wrote it, and as
// docs/results' pages begin and end): a change to the stylesheet or the
// head would make legacyPage refuse every directory of those reports.
// Change either, and legacyPage needs the old frame written out.
func TestLegacyPageFrame(t *testing.T) {
	var b bytes.Buffer
	(&document{title: "greedytl experiment report"}).writeHTML(&b)
	const want = "4884cdcc9bf9f85e6ace4e4b81290873fada02a0439a40c5ebe44626520b6f71"
	if got := fmt.Sprintf("%x", sha256.Sum256(b.Bytes())); got != want {
		t.Errorf("an empty report's page has SHA-256 %s, want %s (the pages of the greedytls before lists)", got, want)
	}
	if !legacyPage(b.Bytes(), "greedytl experiment report") {
		t.Error("legacyPage refuses an empty report's page")
	}
	for _, page := range []string{
		strings.Replace(b.String(), "max-width:1200px", "max-width:1000px", 1), // another stylesheet
		strings.TrimSuffix(b.String(), "</html>\n"),                            // truncated
		strings.Replace(b.String(), "<h1>greedytl experiment report</h1>\n", "", 1),
	} {
		if legacyPage([]byte(page), "greedytl experiment report") {
			t.Errorf("legacyPage takes %.60q… as greedytl's", page[len(page)-60:])
		}
	}
}

// TestBestNotFromASingleSplit: the entry of a single split (no standard
// error) is not bold beside entries that average several splits, though
// its mean is the column's greatest — one draw is not shown as the best of
// averages — and the note says so; in a column of single splits alone the
// greatest is bold, as before. The N-way table follows the same rule
// (episodes for splits): an entry of one episode was bold over means of
// four.
func TestBestNotFromASingleSplit(t *testing.T) {
	recs := []experiment.Record{
		cell("greedytl", 0, 2, 0, 0, 0.8, 1), cell("greedytl", 0, 2, 0, 1, 0.6, 1),
		cell("dam", 0, 2, 0, 0, 0.9, 1),                                        // one split, the greatest mean
		cell("greedytl", 0, 5, 0, 0, 0.7, 1), cell("dam", 0, 5, 0, 0, 0.75, 1), // a column of single splits
	}
	blocks := accuracyTable(newDatasetRows(Summarize(recs)), 0, 10)
	tab := blocks[0].(table)
	want := map[string][]bool{"GreedyTL": {false, true, false}, "DAM": {false, false, true}}
	for i, row := range tab.rows {
		if w := want[row[0]]; !slices.Equal(tab.bold[i], w) {
			t.Errorf("%s: bold %v, want %v (row %q)", row[0], tab.bold[i], w, row)
		}
	}
	if note := blocks[1].(paragraph).text; !strings.Contains(note, "not bold") {
		t.Errorf("note %q does not say why the single split is not bold", note)
	}

	var nrecs []experiment.Record
	for _, r := range nwayRecords() {
		if r.Method == "simpleshot" && r.Ways == 5 && r.Positives == 1 {
			if r.Split > 0 {
				continue
			}
			r.Accuracy = 1 // one episode, above every mean of four
		}
		nrecs = append(nrecs, r)
	}
	d := newNWayRows(Summarize(nrecs))
	ms := d.methods()
	nblocks := nwayTable(d, ms, 5, []int{1, 5})
	ntab := nblocks[0].(table)
	for i, row := range ntab.rows {
		if row[0] == methodLabel("simpleshot") && ntab.bold[i][1] {
			t.Errorf("5-way 1-shot: SimpleShot's one episode %q is bold beside means of four", row[1])
		}
		if row[0] == methodLabel("greedytl-nway") && !ntab.bold[i][1] {
			t.Errorf("5-way 1-shot: GreedyTL's mean of four episodes %q is not bold", row[1])
		}
	}
	if note := nblocks[1].(paragraph).text; !strings.Contains(note, "not bold") {
		t.Errorf("N-way note %q does not say why the single episode is not bold", note)
	}
}
