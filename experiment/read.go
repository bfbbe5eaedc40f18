package experiment

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/shard"
)

// ReadOptions say what ReadRuns tolerates.
type ReadOptions struct {
	// Tolerant accepts, with a warning, a run directory or results file
	// without a run.json (its grid, and so its expected cells, are then
	// unknown; without a warning when its records are copies of a run
	// read with its run.json, whose grid they have: checkBare), and a
	// cell recorded twice, once failed and once successful, by keeping
	// the success (the conflict is still listed).
	// Two different successful (or two different failed) records of a cell
	// are refused as by Merge. A report can live with what it tolerates;
	// Merge cannot.
	Tolerant bool
	// CombineRuns lets runs of one dataset differ in their methods, their
	// noise levels and their number of splits (and in the greedytl version
	// that made them, with a warning): runs that agree on the data, seed,
	// negatives, sources, targets, sizes and protocol draw the same splits,
	// so their cells can be reported side by side — a method added to a
	// finished run in a run of its own, or the noise study beside the main
	// grid. Runs that also agree on noise and splits have one grid, the
	// union of their methods; the others keep their own grids. A cell
	// recorded in two of them is read as any cell read twice.
	CombineRuns bool

	// keepLines keeps each record's line as read (Results.lines), which
	// Merge writes out; a report needs only the records.
	keepLines bool
}

// Results are the records of one or more runs read by ReadRuns: the
// distinct cells with what the runs' run.json files say about them.
type Results struct {
	// Manifests holds the run.json of each dataset's runs, by dataset
	// name: one, unless CombineRuns let runs with other noise levels or
	// splits in (runs that differ only in their methods have one manifest,
	// with the union of their methods); a dataset whose runs have none
	// (Tolerant only) is absent.
	Manifests map[string][]*Manifest
	// Files lists the results files read, in reading order.
	Files []string
	// Partial lists the files whose partial last line (a write cut short,
	// or a run still writing) was ignored.
	Partial []string
	// Records are the distinct cells read, failed ones (non-empty Error)
	// included, in reading order.
	Records []Record
	// Duplicates lists the cells read more than once with records that are
	// identical but for fit_seconds; the first is kept.
	Duplicates []Key
	// Conflicts lists the cells read more than once with records that
	// differ otherwise, and ConflictAt says where, one entry per conflict.
	Conflicts  []Key
	ConflictAt []string
	// Warnings describe what Tolerant let through.
	Warnings []string

	lines [][]byte       // the line of each record, as read (keepLines only)
	index map[Key]int    // the position of each cell in Records
	where map[Key]string // file:line of each kept record
	// madeBy is the greedytl version (Manifest.GreedytlVersion) of the
	// run of each kept record, "" when its run has no run.json: what a
	// conflict's error names (conflictVersions).
	madeBy map[Key]string
	// read holds, by dataset, the runs read with their run.json, bare
	// the cells read from files without one (Tolerant), duplicates
	// included, and lacking the run.json not found of each path read
	// without one that gave a file not read before, lackingFor the first
	// file read without it (for the warning: "run.json" alone names no
	// directory): checkBare.
	read       map[string][]readRun
	bare       []bareCell
	lacking    []string
	lackingFor []string
}

// readRun is a run read with its run.json: its identity, its grid and
// the path it was read from.
type readRun struct {
	id, path string
	g        *grid
}

// bareCell is a cell read from a results file without run.json: the run
// of its record, where it was read, and the index in Results.lacking of
// the file's run.json, not found.
type bareCell struct {
	k            Key
	runID, where string
	lacking      int
}

// ReadRuns reads the results of the runs at paths: run directories (every
// results*.jsonl file in them, with their run.json) or results files (with
// the run.json beside them). It is the one reader of run directories:
// experiment's Merge and the report package both read through it.
//
// Every record is decoded strictly (unknown or missing members, nulls,
// trailing data and impossible values are errors naming the file and
// line), must be a cell of its run's grid, and must carry its run's
// identity (Manifest.RunID): a record copied from another run is refused.
// A run made before records carried their run has no run_id in its
// run.json, nor in its records, and is read as it is (a record with an
// identity is refused in it); the files of a run without run.json
// (Tolerant) must hold the records of one run, and, beside a run of their
// dataset read with its run.json, records of such a run in its grid
// (checkBare: another run's copied records are refused). Runs of one
// dataset must
// be the same run but for the shard and the paths (as Run and Merge
// require: another seed, grid or set of sources is an error naming the
// setting), and, with CombineRuns, for the methods, noise levels, splits
// and the greedytl version; runs of different datasets may be read
// together. A last line cut short is ignored
// (reported in Partial). Errors match ErrInput but for failures to read a
// file.
func ReadRuns(paths []string, opt ReadOptions) (*Results, error) {
	if len(paths) == 0 {
		return nil, inputErrorf("experiment: no run given")
	}
	res := &Results{Manifests: map[string][]*Manifest{}, index: map[Key]int{}, where: map[Key]string{}, madeBy: map[Key]string{}}
	firstOf := map[string]string{} // dataset → the path whose run.json it is
	seen := map[string]bool{}
	for _, in := range paths {
		man, files, lacks, err := runOf(in, opt)
		if err != nil {
			return nil, err
		}
		var g *grid
		lacking := -1 // res.lacking's index of lacks, once a file is read
		if man != nil {
			name := man.Dataset.Name
			if prevs, ok := res.Manifests[name]; ok {
				prev := prevs[0]
				d := prev.differs(man, true)
				if d != "" && opt.CombineRuns {
					list, version, why := combineRuns(prevs, man)
					d = why // what forbids it, not a difference combining allows
					if list != nil {
						res.Manifests[name] = list
						if version {
							res.Warnings = append(res.Warnings, fmt.Sprintf("%s and %s were made by different greedytl versions (%s, %s): each method is reported from the run that holds it",
								firstOf[name], in, prev.GreedytlVersion, man.GreedytlVersion))
						}
					}
				}
				if d != "" {
					return nil, inputErrorf("%s and %s are not the same run (%s)", firstOf[name], in, d)
				}
			} else {
				res.Manifests[name], firstOf[name] = []*Manifest{man}, in
			}
			g = newGrid(man)
			if res.read == nil {
				res.read = map[string][]readRun{}
			}
			res.read[name] = append(res.read[name], readRun{man.RunID, in, g})
		}
		runID, version := firstRunID(), ""
		if man != nil {
			id := man.RunID
			runID, version = func(*Record) string { return id }, man.GreedytlVersion
		}
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, err
			}
			if seen[abs] {
				continue
			}
			seen[abs] = true
			if man == nil && lacking < 0 {
				// Inputs of one directory share its run.json, warned of once.
				if lacking = slices.Index(res.lacking, lacks); lacking < 0 {
					lacking = len(res.lacking)
					res.lacking = append(res.lacking, lacks)
					res.lackingFor = append(res.lackingFor, f)
				}
			}
			if err := res.readFile(f, g, lacking, runID, version, opt); err != nil {
				return nil, err
			}
		}
	}
	if err := res.checkBare(); err != nil {
		return nil, err
	}
	return res, nil
}

// checkBare refuses a cell read from a results file without run.json
// (Tolerant) beside a run of its dataset read with its run.json, unless
// it is a record of such a run (its run_id) and in that run's grid — a
// copy of the run's own records. Another run's records would join the
// run's tables as cells of its grid (or, where they repeat its cells, be
// dropped as duplicates), and the run's grid would count them: a report
// of numbers no run made together. A file of records without any run.json
// of their dataset is read as it is. Then it warns that the run.json of
// each path read without one is not found, its grid unknown, unless every
// record read from it is such a copy, with an identity (a run made before
// records carried their run has none, and another run's records would
// match it): their grid is their run's, known.
func (res *Results) checkBare() error {
	// By path in res.lacking: whether a cell was read without its
	// run.json, and whether one of them is not a copy.
	some, other := make([]bool, len(res.lacking)), make([]bool, len(res.lacking))
	for _, c := range res.bare {
		runs := res.read[c.k.Dataset]
		some[c.lacking] = true
		other[c.lacking] = other[c.lacking] || len(runs) == 0 || c.runID == ""
		if len(runs) == 0 {
			continue
		}
		// The first run read of the record's (shards of a run share its
		// identity), and whether one of them holds the cell.
		i := slices.IndexFunc(runs, func(r readRun) bool { return r.id == c.runID })
		held := slices.ContainsFunc(runs, func(r readRun) bool {
			_, ok := r.g.order(c.k)
			return ok && r.id == c.runID
		})
		switch {
		case i < 0:
			return inputErrorf("%s: cell %v is %s, but %s, read with its %s, is %s of dataset %q: the file, without a %s, holds another run's records (copied from it?); give that run's directory, with its %s, to read the two together, or leave the file out",
				c.where, c.k, recordOfRun(c.runID), runs[0].path, ManifestFile, runNamed(runs[0].id), c.k.Dataset, ManifestFile, ManifestFile)
		case !held:
			return inputErrorf("%s: cell %v is not in the grid of run %s (%s), whose record it is: a results file without run.json must hold records of the runs read with theirs", c.where, c.k, runs[i].id, runs[i].path)
		}
	}
	for i, path := range res.lacking {
		if !some[i] || other[i] {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: not found, beside %s; the grid, and so the cells expected, are unknown", path, res.lackingFor[i]))
		}
	}
	return nil
}

// recordOfRun says whose record a record of run id is, for messages: "a
// record of run ID", or, for an empty id, that it has none.
func recordOfRun(id string) string {
	if id == "" {
		return "a record without a run id (of a run made before records carried their run)"
	}
	return "a record of run " + id
}

// runNamed names the run of identity id for messages: "run ID", or, for an
// empty id, "a run made before records carried their run".
func runNamed(id string) string {
	if id == "" {
		return "a run made before records carried their run"
	}
	return "run " + id
}

// combineRuns returns the manifests of a dataset's runs with b added when
// b differs from them at most in its methods, noise levels, splits and
// greedytl version (version reports the latter): b's methods join the
// grid with the same noise levels and splits, or b is a grid of its own.
// When b differs otherwise it returns a nil list and why, the first such
// setting (Manifest.differs).
func combineRuns(runs []*Manifest, b *Manifest) (list []*Manifest, version bool, why string) {
	a := runs[0]
	o := *b
	o.Methods, o.GreedytlVersion, o.Noise, o.Splits = a.Methods, a.GreedytlVersion, a.Noise, a.Splits
	if why := a.differs(&o, true); why != "" {
		return nil, false, why
	}
	for _, r := range runs {
		version = version || r.GreedytlVersion != b.GreedytlVersion
	}
	list = slices.Clone(runs)
	for i, r := range list {
		same := *b
		same.Methods, same.GreedytlVersion = r.Methods, r.GreedytlVersion
		if r.differs(&same, true) == "" { // r's grid, but for the methods
			u := *r
			u.Methods, u.recorded = slices.Clone(r.Methods), nil // no run.json's: a union
			for _, m := range b.Methods {
				if !slices.Contains(u.Methods, m) {
					u.Methods = append(u.Methods, m)
				}
			}
			list[i] = &u
			return list, version, ""
		}
	}
	return append(list, b), version, ""
}

// Expected returns the number of cells of one row of a summary — a
// dataset, method, number of positives and noise level — in the grids of
// the dataset's runs (targets × splits; grids that overlap, with other
// numbers of splits, count their common splits once), or -1 when no grid
// holds the row.
func (res *Results) Expected(dataset, method string, positives, noise int) int {
	n := -1
	for _, m := range res.Manifests[dataset] {
		if m.Ways == nil && slices.Contains(m.Methods, method) && slices.Contains(m.Positives, positives) && slices.Contains(m.Noise, noise) {
			n = max(n, len(m.Targets)*m.Splits) // splits 0 … Splits−1 of the same targets
		}
	}
	return n
}

// ExpectedEpisodes returns the number of episodes of one row of an N-way
// summary — a dataset, method, number of ways and of shots — in the grids
// of the dataset's runs (ProtocolNWay's), or -1 when no grid holds the
// row.
func (res *Results) ExpectedEpisodes(dataset, method string, ways, shots int) int {
	n := -1
	for _, m := range res.Manifests[dataset] {
		if slices.Contains(m.Ways, ways) && slices.Contains(m.Methods, method) && slices.Contains(m.Positives, shots) {
			n = max(n, m.Splits)
		}
	}
	return n
}

// gridCells calls cell for every cell of the grids of dataset d's runs,
// once each when grids overlap.
func (res *Results) gridCells(d string, cell func(k Key)) {
	seen := map[Key]bool{}
	for _, man := range res.Manifests[d] {
		g := newGrid(man)
		for _, gr := range g.groups(shard.Shard{}) {
			for _, m := range g.methods {
				if k := gr.cell(g.dataset, m); !seen[k] {
					seen[k] = true
					cell(k)
				}
			}
		}
	}
}

// runOf returns the manifest and the results files of a run directory or
// of a results file; a missing run.json gives a nil manifest and, in
// lacks, its path when opt is Tolerant.
func runOf(in string, opt ReadOptions) (*Manifest, []string, string, error) {
	fi, err := os.Stat(in)
	if err != nil {
		return nil, nil, "", inputErrorf("%s: %w", in, fileerr.Reason(err))
	}
	dir, files := in, []string{in}
	if !fi.IsDir() {
		dir = filepath.Dir(in)
		if filepath.Base(in) == ManifestFile {
			// Read as results, its JSON object was "truncated".
			return nil, nil, "", inputErrorf("%s is the run's description, not a results file: give the run directory %s", in, dir)
		}
	}
	man, err := ReadManifest(dir)
	tolerated := errors.Is(err, fs.ErrNotExist) && opt.Tolerant
	switch {
	case errors.Is(err, fs.ErrNotExist) && !tolerated && !fi.IsDir():
		return nil, nil, "", inputErrorf("%s: no %s beside it, which a results file is read with: a file that merge --out FILE.jsonl wrote has none (it holds the merged records alone); put the %s of its run (any of its runs' or shards') beside it, or merge the runs into a run directory (merge … --out DIR), which has one", in, ManifestFile, ManifestFile)
	case err != nil && !tolerated && !fi.IsDir():
		return nil, nil, "", inputErrorf("%s: the run.json beside it: %w", in, fileerr.Reason(err))
	case errors.Is(err, fs.ErrNotExist) && !tolerated:
		return nil, nil, "", inputErrorf("%s: no %s: not a run directory%s", in, ManifestFile, noRunHint(in))
	case err != nil && !tolerated:
		return nil, nil, "", inputError{err}
	}
	if fi.IsDir() {
		if files, err = filepath.Glob(filepath.Join(in, "results*.jsonl")); err != nil {
			return nil, nil, "", inputError{err}
		}
		slices.Sort(files)
	}
	if man == nil {
		if len(files) == 0 {
			return nil, nil, "", inputErrorf("%s: no run.json and no results*.jsonl files: not a run directory%s", in, noRunHint(in))
		}
		return nil, files, filepath.Join(dir, ManifestFile), nil
	}
	return man, files, "", nil
}

// noRunHint returns, for the directory dir without run.json, a clause
// saying why it may have none or what was meant ("" when it can say
// nothing): when it holds a sources folder and a run's lock file
// (startedRun), a
// run that trains its sources writes its run.json only once they are
// trained (a run just started, on a large dataset for a long while, or
// stopped while it trained them); otherwise, when subdirectories of it
// hold a run.json (the cluster layout: RESULTS holds the sources that
// train-sources wrote, shard-i/ and merged/), it names them, as the
// directory meant.
func noRunHint(dir string) string {
	if startedRun(dir) {
		return fmt.Sprintf(" yet (%s is there: a run writes its %s once it has trained its sources; is one training them, or was it stopped while it did?)", filepath.Join(dir, "sources"), ManifestFile)
	}
	// The entries are read rather than globbed: dir is a name, not a
	// pattern ("RES[2]").
	entries, _ := os.ReadDir(dir)
	var runs []string
	for _, e := range entries {
		if hasManifest(filepath.Join(dir, e.Name())) {
			runs = append(runs, e.Name())
		}
	}
	if len(runs) == 0 {
		return ""
	}
	// merged/, the shards' merge, first: the one a report wants; then
	// shorter names first, so that shard-2 comes before shard-10.
	slices.SortFunc(runs, func(a, b string) int {
		if (a == "merged") != (b == "merged") {
			if a == "merged" {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
	for i, r := range runs {
		runs[i] = filepath.Join(dir, r)
	}
	const most = 3
	switch {
	case len(runs) > most+1:
		return fmt.Sprintf(" (its subdirectories hold runs: did you mean %s or one of %d more?)", strings.Join(runs[:most], ", "), len(runs)-most)
	case len(runs) > 1:
		return fmt.Sprintf(" (its subdirectories hold runs: did you mean %s or %s?)", strings.Join(runs[:len(runs)-1], ", "), runs[len(runs)-1])
	}
	return fmt.Sprintf(" (its subdirectory %s holds a run: did you mean it?)", runs[0])
}

// firstRunID returns the runID function of readFile for the files of a
// run without run.json (Tolerant only): the files are of one run, the
// run of the first record read.
func firstRunID() func(*Record) string {
	first, id := true, ""
	return func(r *Record) string {
		if first {
			first, id = false, r.RunID
		}
		return id
	}
}

// readFile reads one results file into res; g, if not nil, is its run's
// grid, else lacking is the index in res.lacking of its run.json, not
// found (bareCell); runID returns the identity that a record read must
// carry, its run's (Manifest.RunID), and version the greedytl version that
// made the run ("" without run.json).
func (res *Results) readFile(file string, g *grid, lacking int, runID func(*Record) string, version string, opt ReadOptions) error {
	res.Files = append(res.Files, file)
	_, partial, err := scanResults(file, func(line []byte, rec *Record, lineno int) error {
		k := rec.Key()
		here := fmt.Sprintf("%s:%d", file, lineno)
		if g != nil {
			if _, ok := g.order(k); !ok {
				return inputErrorf("%s: cell %v is not in the run's grid", here, k)
			}
		} else {
			res.bare = append(res.bare, bareCell{k, rec.RunID, here, lacking})
		}
		if err := checkRunID(rec, runID(rec)); err != nil {
			return inputErrorf("%s: %v", here, err)
		}
		i, dup := res.index[k]
		if !dup {
			res.index[k], res.where[k], res.madeBy[k] = len(res.Records), here, version
			res.Records = append(res.Records, *rec)
			if opt.keepLines {
				res.lines = append(res.lines, slices.Clone(line))
			}
			return nil
		}
		old := &res.Records[i]
		if sameResult(old, rec) {
			res.Duplicates = append(res.Duplicates, k)
			return nil
		}
		res.Conflicts = append(res.Conflicts, k)
		res.ConflictAt = append(res.ConflictAt, fmt.Sprintf("%v (%s and %s)", k, res.where[k], here))
		if opt.Tolerant {
			switch {
			case old.Error != "" && rec.Error == "":
				*old, res.where[k], res.madeBy[k] = *rec, here, version // a retried cell that succeeded
				if opt.keepLines {
					res.lines[i] = slices.Clone(line)
				}
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cell %v succeeded where it failed before; the success is kept", here, k))
			case old.Error == "" && rec.Error != "":
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cell %v failed where it succeeded before (%s); the success is kept", here, k, res.where[k]))
			default:
				// Two results for one cell: which is right cannot be told,
				// and averaging either would report a number the runs do
				// not agree on. Merge refuses it too.
				if why := conflictVersions(res.madeBy[k], version); why != "" {
					return inputErrorf("%s: cell %v has another record at %s: the runs disagree on it (merge refuses them too); %s", here, k, res.where[k], why)
				}
				return inputErrorf("%s: cell %v has another record at %s: the runs disagree on it (merge refuses them too); remove one of the runs, or rerun the cell", here, k, res.where[k])
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if partial {
		res.Partial = append(res.Partial, file)
		if opt.Tolerant {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: ignored a partial last line (is the run still writing?)", file))
		}
	}
	return nil
}

// conflictVersions returns, for two records of a cell that disagree, made
// by runs of the greedytl versions a and b (Manifest.GreedytlVersion, ""
// when a run has no run.json), what to say of their versions and what to
// do, or "" when both are known and the same. Versions of greedytl may
// compute a cell differently: a randomised method whose seed comes from
// its spec text draws another seed where they spell the spec otherwise
// (greedytl-59:max_k=1e+06 before modelfile.FormatSetting wrote a whole
// number from 10⁶ on in digits, greedytl-59:max_k=1000000 after).
func conflictVersions(a, b string) string {
	const redo = "rerun one of them with the greedytl that made the other (one version for every run a report reads)"
	switch {
	case a != "" && b != "" && a != b:
		return fmt.Sprintf("the runs come from different versions of greedytl (%s and %s), which may compute a cell differently (a randomised method whose seed comes from its spec text draws another seed where the versions spell the spec otherwise): %s, or remove one of the runs", a, b, redo)
	case a == "" || b == "":
		return "if the runs come from different versions of greedytl (a run without run.json does not say which made it), " + redo + "; else remove one of the runs, or rerun the cell"
	}
	return ""
}

// sameResult reports whether two records of a cell agree but for
// fit_seconds and their run (runs whose grids overlap compute the same
// cells).
func sameResult(a, b *Record) bool {
	x, y := *a, *b
	x.FitSeconds, y.FitSeconds = 0, 0
	x.RunID, y.RunID = "", ""
	return reflect.DeepEqual(x, y)
}

// checkRunID returns an error when rec is not a record of the run whose
// identity is id (Manifest.RunID): a record copied from another run (a
// run made before records carried their run has the id "", and so have its
// records).
func checkRunID(rec *Record, id string) error {
	switch {
	case rec.RunID == id:
		return nil
	case id == "":
		return fmt.Errorf("cell %v is a record of run %s, in a run made before records carried their run: it was copied from another run", rec.Key(), rec.RunID)
	case rec.RunID == "":
		return fmt.Errorf("run_id is missing (every record of run %s has it)", id)
	}
	return fmt.Errorf("cell %v is a record of run %s, not of this run (%s): it was copied from another run; remove it, or rerun the cell", rec.Key(), rec.RunID, id)
}

// Coverage counts the cells of one method of one dataset.
type Coverage struct {
	Dataset, Method string
	// Present counts the distinct cells read, of which Failed carry an
	// error.
	Present, Failed int
	// Expected counts the method's cells in the grid of the dataset's
	// run.json; -1 when there is none.
	Expected int
}

// Complete reports whether every expected cell is present.
func (c Coverage) Complete() bool { return c.Expected >= 0 && c.Present == c.Expected }

// Coverage returns the coverage of every method of every dataset: the
// grid's methods in the grid's order, then any other method read (a
// dataset without run.json), datasets in sorted order.
func (res *Results) Coverage() []Coverage {
	type dm struct{ d, m string }
	count := map[dm]*Coverage{}
	var order []dm
	add := func(d, m string, expected int) *Coverage {
		k := dm{d, m}
		if c := count[k]; c != nil {
			return c
		}
		c := &Coverage{Dataset: d, Method: m, Expected: expected}
		count[k] = c
		order = append(order, k)
		return c
	}
	datasets := map[string]bool{}
	for _, r := range res.Records {
		datasets[r.Dataset] = true
	}
	for d := range res.Manifests {
		datasets[d] = true
	}
	for _, d := range slices.Sorted(maps.Keys(datasets)) {
		expected := map[string]int{}
		var methods []string
		res.gridCells(d, func(k Key) {
			if _, ok := expected[k.Method]; !ok {
				methods = append(methods, k.Method)
			}
			expected[k.Method]++
		})
		for _, m := range methods {
			add(d, m, expected[m])
		}
		for _, r := range res.Records {
			if r.Dataset != d {
				continue
			}
			c := add(d, r.Method, -1)
			c.Present++
			if r.Error != "" {
				c.Failed++
			}
		}
	}
	out := make([]Coverage, len(order))
	for i, k := range order {
		out[i] = *count[k]
	}
	return out
}

// Missing returns the cells of the grids that no file holds, in grid
// order, datasets in sorted order.
func (res *Results) Missing() []Key {
	var missing []Key
	for _, d := range slices.Sorted(maps.Keys(res.Manifests)) {
		res.gridCells(d, func(k Key) {
			if !res.has(k) {
				missing = append(missing, k)
			}
		})
	}
	return missing
}

// has reports whether cell k was read.
func (res *Results) has(k Key) bool {
	_, ok := res.index[k]
	return ok
}
