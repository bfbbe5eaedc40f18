package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/method"
)

// wideMethod is a test method whose model reports, as greedytl-auto's does
// (method.WideRangeReporter), one committee of 5 subsamples' left out
// because of feature 1 and source 0 (ratios 1e30 and 2^27), averaging the
// other 5 ("fits"), and predicts −1.
const wideMethod = "test-wide-range"

func init() {
	method.Register(method.Registration{
		Name: wideMethod, Description: "a test method",
		New: func() method.Method {
			return &testMethod{name: wideMethod, fit: func(method.Data, method.Extra) (method.Model, error) {
				return wideModel{constModel{-1, nil}}, nil
			}}
		},
		Decode: func(json.RawMessage) (method.Model, error) { return nil, errors.New("test models have no file") },
	})
}

// wideModel is wideMethod's model.
type wideModel struct{ constModel }

func (wideModel) Hyperparameters() map[string]float64 { return map[string]float64{"fits": 5} }
func (wideModel) WideRanges() []method.WideRange {
	return []method.WideRange{{LeftOut: 1, Subsamples: 5, Columns: []method.WideColumn{
		{Column: greedytl.Column{Kind: greedytl.Feature, Index: 1}, Ratio: 1e30, Left: 1},
		{Column: greedytl.Column{Kind: greedytl.Source, Index: 0}, Ratio: 1 << 27, Left: 1},
	}}}
}

// wideMember is the wide_range member of wideMethod's records, class
// (binary cells: none) aside.
const wideMember = `"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":1,"ratio":1e+30,"committees":1},{"kind":"source","index":0,"ratio":134217728,"committees":1}]}`

// TestRecordsWideRange: a cell whose fit left committees out of its mean
// (method.WideRangeReporter, greedytl fit's wide-range warning) is
// recorded with wide_range — one entry for a binary cell, one per class
// for an episode's model fitted one class against the rest — and reads
// back strictly; a method whose fits report nothing writes no such member
// (its records are as before). Before, such a fit showed only as a smaller
// "fits".
func TestRecordsWideRange(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	sum, err := Run(context.Background(), testConfig(f, t.TempDir(), src, allNegMethod, wideMethod))
	if err != nil {
		t.Fatal(err)
	}
	lines := fileLines(t, sum.File)
	recs := readRecords(t, sum.File)
	wide := 0
	for i, r := range recs {
		switch r.Method {
		case allNegMethod:
			if r.WideRange != nil || strings.Contains(lines[i], "wide_range") {
				t.Errorf("a fit that reports nothing is recorded with wide_range: %s", lines[i])
			}
		case wideMethod:
			wide++
			if !strings.Contains(lines[i], `"wide_range":[{`+wideMember+`]`) {
				t.Errorf("%v: the line does not hold wide_range [{%s]:\n%s", r.Key(), wideMember, lines[i])
			}
		}
	}
	if wide == 0 {
		t.Fatal("no record of the method that leaves committees out")
	}
	if _, err := ReadRuns([]string{filepath.Dir(sum.File)}, ReadOptions{}); err != nil {
		t.Errorf("the run's records do not read back: %v", err)
	}

	cfg := nwayConfig(t.TempDir(), src, "nearest-mean", wideMethod)(t)
	cfg.Data = f
	sum, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	lines = fileLines(t, sum.File)
	for i, r := range readRecords(t, sum.File) {
		if r.Method != wideMethod {
			if strings.Contains(lines[i], "wide_range") {
				t.Errorf("%v: a fit that reports nothing is recorded with wide_range", r.Key())
			}
			continue
		}
		var want []string
		for _, c := range r.Classes {
			b, _ := json.Marshal(c)
			want = append(want, `{"class":`+string(b)+`,`+wideMember)
		}
		if member := `"wide_range":[` + strings.Join(want, ",") + `]`; r.Error != "" || !strings.Contains(lines[i], member) {
			t.Errorf("%v: error %q; the line does not hold %s:\n%s", r.Key(), r.Error, member, lines[i])
		}
	}
}

// TestWideRangeRecordErrors: wide_range entries that no fit reports are
// refused, naming the line and the problem; the members a fit writes read
// back and are written back byte for byte.
func TestWideRangeRecordErrors(t *testing.T) {
	cell := `{"dataset":"d","target":"a","target_idx":0,"positives":2,"negatives":10,"noise":0,"split":0,"method":"m",` +
		`"balanced_accuracy":0.5,"test_positives":5,"test_negatives":5,"fit_seconds":0.1,"hyperparameters":{"fits":5},"features":-1,"candidates":3`
	episode := `{"dataset":"d","ways":2,"shots":1,"episode":0,"method":"m","classes":["a","b"],"class_idx":[0,1],` +
		`"accuracy":0.5,"balanced_accuracy":0.5,"test_per_class":3,"fit_seconds":0.1,"candidates":3`
	col := `[{"kind":"feature","index":1,"ratio":1e30,"committees":1}]`
	for _, tc := range []struct {
		record, member, want string
	}{
		{cell, `[]`, "wide_range is empty"},
		{cell, `[{"left_out":0,"subsamples":5,"columns":` + col + `}]`, "0 of 5 committees left out: want 1 ≤ left_out ≤ subsamples"},
		{cell, `[{"left_out":6,"subsamples":5,"columns":` + col + `}]`, "6 of 5 committees left out: want 1 ≤ left_out ≤ subsamples"},
		{episode, `[{"class":"a","left_out":0,"subsamples":5,"columns":` + col + `}]`, "0 of 5 committees left out: want 1 ≤ left_out ≤ subsamples"},
		{episode, `[{"class":"a","left_out":6,"subsamples":5,"columns":` + col + `}]`, "6 of 5 committees left out: want 1 ≤ left_out ≤ subsamples"},
		{cell, `[{"left_out":2,"subsamples":5,"columns":` + col + `}]`, "the hyperparameter fits is 5: want 4"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[]}]`, "wide_range[0].columns is missing or empty"},
		{cell, `[{"left_out":1,"subsamples":5}]`, "wide_range[0].columns is missing or empty"},
		{cell, `[{"class":"a","left_out":1,"subsamples":5,"columns":` + col + `}]`, "a binary cell's model is fitted as a whole"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":` + col + `},{"left_out":1,"subsamples":5,"columns":` + col + `}]`, "wide_range has 2 entries"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":3,"ratio":1e30,"committees":1}]}]`, "index is 3: want 0 ≤ index < candidates (3)"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":-1,"ratio":1e30,"committees":1}]}]`, "index is -1"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":1,"ratio":-1,"committees":1}]}]`, "ratio is -1"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":1,"ratio":1e30,"committees":2}]}]`, "2 committees of 1 left out"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"feature","index":1,"ratio":1e30,"committees":1},{"kind":"feature","index":1,"ratio":1e30,"committees":1}]}]`, "column feature 1 is listed twice"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":[{"kind":"label","index":1,"ratio":1e30,"committees":1}]}]`, "label"},
		{cell, `[{"left_out":1,"subsamples":5,"columns":` + col + `,"fits":5}]`, `unknown field "fits"`},
		{episode, `[{"left_out":1,"subsamples":5,"columns":` + col + `}]`, "wide_range[0].class is missing"},
		{episode, `[{"class":"c","left_out":1,"subsamples":5,"columns":` + col + `}]`, `class "c" is not one of the episode's`},
		{episode, `[{"class":"a","left_out":1,"subsamples":5,"columns":` + col + `},{"class":"a","left_out":1,"subsamples":5,"columns":` + col + `}]`, `class "a" is listed twice`},
	} {
		path := filepath.Join(t.TempDir(), "results.jsonl")
		writeText(t, path, tc.record+`,"wide_range":`+tc.member+"}\n")
		_, _, err := scanResults(path, func([]byte, *Record, int) error { return nil })
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), path+":1: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("wide_range %s: %v; want an input error at %s:1 containing %q", tc.member, err, path, tc.want)
		}
	}
	for _, line := range []string{
		cell + `,"wide_range":[{` + wideMember + `]}`,
		episode + `,"wide_range":[{"class":"b",` + wideMember + `,{"class":"a",` + wideMember + `]}`,
	} {
		rec, err := decodeRecord([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		b, err := json.Marshal(rec)
		if err != nil || string(b) != line {
			t.Errorf("a record with wide_range written back:\n%s, %v\nwant\n%s", b, err, line)
		}
	}
}

// TestGreedyAutoRecordsWideRange: greedytl-auto itself, in a protocol run
// whose negative classes hold a few values of 1e30 in one feature, leaves
// committees out of some cells' means; exactly those cells' records carry
// wide_range (their fits below the others', as checkWideRange requires of
// them on reading), the other records none.
func TestGreedyAutoRecordsWideRange(t *testing.T) {
	counts := []int{24, 24, 24, 24, 60, 60, 60, 60}
	f := datasettest.Shuffled(7, counts, []float64{8, 8, 8, 8, 0, 0, 0, 0})
	seen := map[int]int{}
	for i, c := range f.Labels {
		if c >= 4 && seen[c] < 8 { // eight examples of each negative class
			f.X.Set(i, 0, 1e30)
			seen[c]++
		}
	}
	f = datasettest.WriteFolder(t, f)
	cfg := DefaultConfig()
	cfg.Data, cfg.Name, cfg.Out = f, "wide", t.TempDir()
	cfg.NegativeClasses = f.Classes[4:]
	cfg.Targets, cfg.Positives, cfg.Splits, cfg.Noise, cfg.Methods = f.Classes[:1], []int{2}, 8, []int{0}, []string{"greedytl-auto"}
	cfg.Workers = 1
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	wide, most := 0, 0.0
	recs := readRecords(t, sum.File)
	for _, r := range recs {
		most = max(most, r.Hyperparameters["fits"])
	}
	for _, r := range recs {
		fits := r.Hyperparameters["fits"]
		if r.Error != "" || (fits < most) != (len(r.WideRange) > 0) {
			t.Errorf("%v: error %q, fits %v of %v, wide_range %+v", r.Key(), r.Error, fits, most, r.WideRange)
		}
		if len(r.WideRange) > 0 {
			wide++
		}
	}
	if wide == 0 {
		t.Errorf("no cell of %d left a committee out (fits %v in all): the test's data no longer make greedytl-auto leave one out", len(recs), most)
	}
}
