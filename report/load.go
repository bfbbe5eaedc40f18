package report

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/plural"
)

// Results holds the records of one or more experiment runs, deduplicated and
// checked, with the class names needed to label the source-weight matrices.
type Results struct {
	// Records are the distinct cells read, failed ones (non-empty Error)
	// included, in reading order.
	Records []experiment.Record
	// Classes holds, by dataset name, the class names and semantic groups:
	// from each run's run.json when present, else from the records.
	Classes map[string]ClassInfo
	// Coverage counts, per dataset and method, the cells read and the
	// cells the run's grid expects (experiment.Results.Coverage): a report
	// of a partial run says so.
	Coverage []experiment.Coverage
	// Files lists the results files read, in reading order.
	Files []string
	// Duplicates counts records of a cell already read that were ignored:
	// the same cell in a shard file and in a merged file, for example.
	Duplicates int
	// Warnings describe what was tolerated: conflicting duplicates, a
	// truncated last line (a run still writing), run.json files missing.
	Warnings []string

	// shapes holds, by dataset, the feature and source counts when
	// run.json records them.
	shapes map[string]shape
	// runs holds what was read, for the runs' grids.
	runs *experiment.Results
}

// shape is the size of a run's inputs.
type shape struct{ features, sources int }

// ClassInfo names the classes of a dataset.
type ClassInfo struct {
	// Names holds the name of class i at index i.
	Names []string
	// Groups holds the semantic group of class i at index i, or is nil
	// when the dataset has no groups.
	Groups []string
}

// Load reads the results of the runs at paths with experiment.ReadRuns, the
// one reader of run directories, in its tolerant mode: a path is a run
// directory, whose results files (results*.jsonl) are all read, or one JSON
// Lines file; the run.json beside the results supplies the grid (so the
// cells expected) and the class names and groups.
//
// Runs of one dataset must be the same run (another seed, set of targets
// or sizes, protocol or set of sources is an error, as for
// experiment.Merge), except that they may hold different methods, noise
// levels and numbers of splits — a method run on its own beside a finished
// run, or the noise study beside the main grid — whose cells are then
// reported side by side (a warning says when the runs were made by
// different greedytl versions); runs of several datasets are reported side
// by side. A cell read twice counts once: identical
// records (fit time aside) are kept once, a successful record wins over a
// failed one with a warning, and two other different records of one cell
// are an error, as for experiment.Merge. A last
// line cut short (a run still writing) and a missing run.json (class names
// are then taken from the records) are tolerated with a warning. Load
// returns an error naming the file and line for unreadable files,
// malformed lines, records with impossible values and records of another
// run (experiment.ReadRuns), and when no record is found (naming what was
// read, and the cells the run's grid expects).
func Load(paths ...string) (*Results, error) {
	if len(paths) == 0 {
		return nil, errors.New("report: no run given")
	}
	runs, err := experiment.ReadRuns(paths, experiment.ReadOptions{Tolerant: true, CombineRuns: true})
	if err != nil {
		return nil, err // ReadRuns's, which name the file
	}
	res := &Results{
		Records: runs.Records, Classes: map[string]ClassInfo{}, Coverage: runs.Coverage(),
		Files: runs.Files, Duplicates: len(runs.Duplicates) + len(runs.Conflicts), Warnings: runs.Warnings,
		shapes: map[string]shape{}, runs: runs,
	}
	if len(res.Records) == 0 {
		return nil, noRecords(paths, res)
	}
	for d, mans := range runs.Manifests {
		man := mans[0] // combined runs agree on all but methods, noise and splits
		res.Classes[d] = ClassInfo{Names: man.Classes, Groups: man.Groups}
		if man.Dataset.Features > 0 && man.Sources.Count > 0 {
			res.shapes[d] = shape{man.Dataset.Features, man.Sources.Count}
		}
	}
	if err := res.completeClasses(); err != nil {
		return nil, err
	}
	return res, nil
}

// noRecords returns Load's error for runs at paths that hold no record
// (res, as read): a run directory without results files (a run that has
// not computed a cell), files that hold none (a shard of no cells), with
// the cells the grids expect when run.json says.
func noRecords(paths []string, res *Results) error {
	what := strings.Join(paths, ", ") + ": no results file (results*.jsonl)"
	switch len(res.Files) {
	case 0:
	case 1:
		what = res.Files[0] + " holds no record"
	default:
		what = strings.Join(res.Files, ", ") + " hold no record"
	}
	expected := 0
	for _, c := range res.Coverage {
		expected += max(c.Expected, 0)
	}
	if expected > 0 {
		what += fmt.Sprintf(" (%s expected by the run's grid)", plural.Count(expected, "cell", "cells"))
	}
	return fmt.Errorf("report: no records to report: %s", what)
}

// Partial returns the coverage of the methods that miss cells of their
// grid: what a report must say before its averages. A method whose grid
// is unknown (no run.json: a merged FILE.jsonl, complete or not) is none
// of them: nothing tells its cells missing, and Load's warning that
// run.json is not found already says that the grid is unknown.
func (res *Results) Partial() []experiment.Coverage {
	var out []experiment.Coverage
	for _, c := range res.Coverage {
		if c.Expected >= 0 && !c.Complete() {
			out = append(out, c)
		}
	}
	return out
}

// TestSetCaution is a dataset's caution of test sets too small for a
// meaningful accuracy (experiment.SmallTestSets).
type TestSetCaution struct {
	// Message is the caution, prefixed by the dataset's name.
	Message string
	// Classes are the targets whose cells test on too few positives.
	Classes []string
}

// TestSetCautions returns, for each dataset of binary cells some of whose
// test sets hold fewer than experiment.MinTestExamples positives or
// negatives, in the order of the datasets' names, the caution the report
// gives in the dataset's section (experiment.SmallTestSets), prefixed by
// the dataset's name; nil when there is none.
func (res *Results) TestSetCautions() []TestSetCaution {
	datasets := map[string]bool{}
	for _, r := range res.Records {
		datasets[r.Dataset] = true
	}
	var out []TestSetCaution
	for _, ds := range slices.Sorted(maps.Keys(datasets)) {
		if note, small := experiment.SmallTestSets(res.recordsOf(ds), res.maxTestNegatives(ds)); note != "" {
			out = append(out, TestSetCaution{datasetTitle(ds) + ": " + note, small})
		}
	}
	return out
}

// maxTestNegatives returns the bound of the test negatives of dataset's
// runs (experiment.Manifest.MaxTestNegatives) for the advice of
// experiment.SmallTestSets: 0 when some run's test sets are unbounded
// (experiment.ProtocolSkewed), -1 when no run.json was read (the protocol
// is unknown: the advice claims no bound, nor that there is none).
func (res *Results) maxTestNegatives(dataset string) int {
	mans := res.grids(dataset)
	if len(mans) == 0 {
		return -1
	}
	most := 0
	for _, m := range mans {
		if m.Protocol == experiment.ProtocolNWay {
			continue
		}
		if m.MaxTestNegatives <= 0 {
			return 0
		}
		most = max(most, m.MaxTestNegatives)
	}
	return most
}

// PartialNote returns the sentence a report starts with when some method
// lacks cells of its grid (Partial): how many cells each such method has
// of how many expected. It is "" for complete runs and for methods whose
// grid is unknown (no run.json).
func (res *Results) PartialNote() string {
	partial := res.Partial()
	if len(partial) == 0 {
		return ""
	}
	parts := make([]string, len(partial))
	for i, c := range partial {
		parts[i] = fmt.Sprintf("%s %s: %d of %s", c.Dataset, c.Method, c.Present, plural.Count(c.Expected, "cell", "cells"))
	}
	return "Partial results — averages are over the cells present, which may differ between methods: " +
		strings.Join(parts, "; ") + "."
}

// Rows returns Summarize(res.Records) with each row's Expected number of
// cells from its run's grid.
func (res *Results) Rows() []Row {
	rows := Summarize(res.Records)
	for i := range rows {
		if n := res.expected(rowKeyOf(rows[i])); n >= 0 {
			rows[i].Expected = n
		}
	}
	return rows
}

// expected returns the number of cells of the row of key k in the grids
// of its dataset's runs (experiment.Results.Expected; ExpectedEpisodes for
// an N-way row), or -1 when no grid holds it.
func (res *Results) expected(k rowKey) int {
	if k.ways > 0 {
		return res.runs.ExpectedEpisodes(k.dataset, k.method, k.ways, k.positives)
	}
	return res.runs.Expected(k.dataset, k.method, k.positives, k.noise)
}

// gridRows indexes rows, the summary rows of one dataset, with the grids
// of the dataset's runs (none when no run.json was read): the binary
// protocols' numbers of positives by noise level, N-way's numbers of shots
// by number of ways.
func (res *Results) gridRows(rows []Row) gridRows {
	g := newGridRows(rows)
	mans := res.grids(g.dataset)
	if len(mans) == 0 {
		return g
	}
	g.inGrid = func(k rowKey) bool { return res.expected(k) >= 0 }
	g.grid = map[int][]int{}
	for _, man := range mans {
		across := man.Noise
		if man.Ways != nil {
			across = man.Ways
		}
		for _, n := range across {
			g.grid[n] = sortedUnion(g.grid[n], man.Positives)
		}
	}
	return g
}

// grids returns the run.json of each of dataset's runs read (none when
// there is none). When there is one, the grid of every method of the
// dataset is known: a record read from a results file without run.json
// beside it is a cell of a grid read (experiment.ReadRuns refuses others).
func (res *Results) grids(dataset string) []*experiment.Manifest {
	if res.runs == nil {
		return nil
	}
	return res.runs.Manifests[dataset]
}

// completeClasses checks the records against the run.json class names, and
// names the classes of datasets without a run.json from the records.
func (res *Results) completeClasses() error {
	built := map[string][]string{}
	for i := range res.Records {
		r := &res.Records[i]
		if ci, ok := res.Classes[r.Dataset]; ok {
			if err := checkNames(r, ci.Names); err != nil {
				return fmt.Errorf("report: the run.json of dataset %q disagrees with the records: %v", r.Dataset, err)
			}
			continue
		}
		names := built[r.Dataset]
		if r.Ways == 0 {
			names = nameClass(names, r.TargetIdx, r.Target)
		}
		for j, c := range r.ClassIdx {
			names = nameClass(names, c, r.Classes[j])
		}
		for j, s := range r.Sources {
			if len(r.SourceNames) > 0 {
				names = nameClass(names, s, r.SourceNames[j])
			} else {
				names = nameClass(names, s, "")
			}
		}
		built[r.Dataset] = names
	}
	for d, names := range built {
		for i, n := range names {
			if n == "" {
				names[i] = fmt.Sprintf("class %d", i)
			}
		}
		res.Classes[d] = ClassInfo{Names: names}
	}
	return nil
}

// checkNames checks a record's class names against the run's.
func checkNames(r *experiment.Record, names []string) error {
	check := func(idx int, name string) error {
		if idx >= len(names) {
			return fmt.Errorf("class index %d but %d classes", idx, len(names))
		}
		if name != "" && names[idx] != name {
			return fmt.Errorf("class %d is %q in the records but %q in run.json", idx, name, names[idx])
		}
		return nil
	}
	if r.Ways == 0 {
		if err := check(r.TargetIdx, r.Target); err != nil {
			return err
		}
	}
	for j, c := range r.ClassIdx {
		if err := check(c, r.Classes[j]); err != nil {
			return err
		}
	}
	for j, s := range r.Sources {
		name := ""
		if len(r.SourceNames) > 0 {
			name = r.SourceNames[j]
		}
		if err := check(s, name); err != nil {
			return err
		}
	}
	return nil
}

// nameClass records that class idx is called name, growing names as needed.
func nameClass(names []string, idx int, name string) []string {
	if idx >= len(names) {
		names = append(names, make([]string, idx+1-len(names))...)
	}
	if names[idx] == "" {
		names[idx] = name
	}
	return names
}

// candidates returns the number of candidate columns GreedyTL chooses from
// in a cell of a dataset at a noise level — the features, the noise
// dimensions and every source but the target's own — from the sizes in
// run.json, or 0 when run.json does not give them. (Records written before
// experiment.Record had a Candidates field need it.)
func (res *Results) candidates(dataset string, noise int) int {
	sh, ok := res.shapes[dataset]
	if !ok {
		return 0
	}
	return sh.features + noise + sh.sources - 1
}
