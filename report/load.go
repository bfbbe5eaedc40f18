package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/experiment"
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

// runInfo is the part of RUN/run.json the report reads: the class names and
// groups and, when present, the input sizes.
type runInfo struct {
	Classes []string `json:"classes"`
	Groups  []string `json:"groups"`
	Dataset struct {
		Features int `json:"features"`
	} `json:"dataset"`
	Sources struct {
		Count int `json:"count"`
	} `json:"sources"`
}

// resultsPattern is the pattern, relative to a run directory, of the
// results files Load reads there: results.jsonl, the shards'
// results-shard-I-of-N.jsonl and merged files named results….jsonl.
const resultsPattern = "results*.jsonl"

// Load reads the results of the runs at paths. A path is a run directory,
// whose results files (results*.jsonl) are all read, or one JSON Lines file.
// The run.json beside the results, when present, supplies the class names
// and groups.
//
// A cell (experiment.Key) read twice counts once: a successful record
// replaces a failed one, otherwise the first read wins, and a duplicate whose
// content differs (fit time aside) adds a warning. A last line cut short
// (a run still writing) is skipped with a warning. Load returns an error
// naming the file and line for unreadable files, malformed lines and
// records with impossible values (a non-finite or out-of-range accuracy, a
// negative time, sources and weights of different lengths), and when no
// record is found.
func Load(paths ...string) (*Results, error) {
	if len(paths) == 0 {
		return nil, errors.New("report: no run given")
	}
	res := &Results{Classes: map[string]ClassInfo{}, shapes: map[string]shape{}}
	seen := map[experiment.Key]int{} // key → index into res.Records
	fromRun := map[string]string{}   // dataset → run.json that named its classes
	for _, p := range paths {
		files, dir, err := resultsFiles(p)
		if err != nil {
			return nil, err
		}
		datasets := map[string]bool{}
		for _, f := range files {
			if err := res.readFile(f, seen, datasets); err != nil {
				return nil, err
			}
		}
		if err := res.readRunInfo(dir, datasets, fromRun); err != nil {
			return nil, err
		}
	}
	if len(res.Records) == 0 {
		return nil, fmt.Errorf("report: no records in %s", strings.Join(res.Files, ", "))
	}
	if err := res.completeClasses(fromRun); err != nil {
		return nil, err
	}
	return res, nil
}

// resultsFiles returns the results files at path and the directory holding
// its run.json.
func resultsFiles(path string) (files []string, dir string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", fmt.Errorf("report: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, filepath.Dir(path), nil
	}
	files, err = filepath.Glob(filepath.Join(path, resultsPattern))
	if err != nil {
		return nil, "", fmt.Errorf("report: %w", err)
	}
	if len(files) == 0 {
		return nil, "", fmt.Errorf("report: %s: no %s files: not a run directory", path, resultsPattern)
	}
	slices.Sort(files)
	return files, path, nil
}

// readFile reads one JSON Lines file of records.
func (res *Results) readFile(path string, seen map[experiment.Key]int, datasets map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	res.Files = append(res.Files, path)
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		b, err := r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("report: %s: %w", path, err)
		}
		last := err == io.EOF
		if len(bytes.TrimSpace(b)) > 0 {
			var l experiment.Record
			if derr := decodeStrict(b, &l); derr != nil {
				if last && b[len(b)-1] != '\n' {
					res.Warnings = append(res.Warnings, fmt.Sprintf("%s:%d: ignored a truncated last line (is the run still writing?)", path, n))
					return nil
				}
				return fmt.Errorf("report: %s:%d: %v", path, n, derr)
			}
			if verr := checkRecord(&l); verr != nil {
				return fmt.Errorf("report: %s:%d: %v", path, n, verr)
			}
			res.add(l, seen, fmt.Sprintf("%s:%d", path, n))
			datasets[l.Dataset] = true
		}
		if last {
			return nil
		}
	}
}

// decodeStrict decodes one JSON value and rejects trailing data.
func decodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data after the record")
	}
	return nil
}

// add appends a record unless its cell was read before.
func (res *Results) add(r experiment.Record, seen map[experiment.Key]int, where string) {
	k := r.Key()
	i, dup := seen[k]
	if !dup {
		seen[k] = len(res.Records)
		res.Records = append(res.Records, r)
		return
	}
	res.Duplicates++
	old := &res.Records[i]
	switch {
	case old.Error != "" && r.Error == "":
		*old = r // a retried cell that succeeded
	case !sameResult(*old, r):
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cell %s differs from the one read before; the first is kept", where, keyString(k)))
	}
}

// sameResult reports whether two records of a cell agree, fit time aside.
func sameResult(a, b experiment.Record) bool {
	a.FitSeconds, b.FitSeconds = 0, 0
	return reflect.DeepEqual(a, b)
}

func keyString(k experiment.Key) string {
	return fmt.Sprintf("(dataset %q, target %d, positives %d, noise %d, split %d, method %s)",
		k.Dataset, k.TargetIdx, k.Positives, k.Noise, k.Split, k.Method)
}

// checkRecord rejects impossible values.
func checkRecord(r *experiment.Record) error {
	switch {
	case r.Method == "":
		return errors.New(`record without a "method"`)
	case r.TargetIdx < 0:
		return fmt.Errorf("target_idx is %d: must be ≥ 0", r.TargetIdx)
	case r.Positives < 1:
		return fmt.Errorf("positives is %d: must be ≥ 1", r.Positives)
	case r.Noise < 0:
		return fmt.Errorf("noise is %d: must be ≥ 0", r.Noise)
	case r.Split < 0:
		return fmt.Errorf("split is %d: must be ≥ 0", r.Split)
	case len(r.Sources) != len(r.Weights):
		return fmt.Errorf("%d sources but %d weights", len(r.Sources), len(r.Weights))
	case len(r.SourceNames) != 0 && len(r.SourceNames) != len(r.Sources):
		return fmt.Errorf("%d sources but %d source names", len(r.Sources), len(r.SourceNames))
	}
	for i, s := range r.Sources {
		if s < 0 {
			return fmt.Errorf("source index %d at position %d: must be ≥ 0", s, i)
		}
	}
	if r.Error != "" {
		return nil // a failed cell's numbers are not used
	}
	if a := r.BalancedAccuracy; math.IsNaN(a) || a < 0 || a > 1 {
		return fmt.Errorf("balanced_accuracy is %v: must be in [0, 1]", a)
	}
	if t := r.FitSeconds; math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
		return fmt.Errorf("fit_seconds is %v: must be finite and ≥ 0", t)
	}
	for i, w := range r.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v: must be finite", i, w)
		}
	}
	return nil
}

// readRunInfo reads dir/run.json, if present, as the class names of the
// datasets read from dir.
func (res *Results) readRunInfo(dir string, datasets map[string]bool, fromRun map[string]string) error {
	path := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: not found; class names are taken from the records", path))
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var info runInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return fmt.Errorf("report: %s: %v", path, err)
	}
	if len(info.Classes) == 0 {
		return fmt.Errorf(`report: %s: no "classes"`, path)
	}
	if info.Groups != nil && len(info.Groups) != len(info.Classes) {
		return fmt.Errorf(`report: %s: %d "groups" for %d "classes"`, path, len(info.Groups), len(info.Classes))
	}
	ci := ClassInfo{Names: info.Classes, Groups: info.Groups}
	for _, d := range sortedKeys(datasets) {
		if prev, ok := res.Classes[d]; ok {
			if !reflect.DeepEqual(prev, ci) {
				return fmt.Errorf("report: %s and %s name the classes of dataset %q differently", fromRun[d], path, d)
			}
			continue
		}
		res.Classes[d] = ci
		fromRun[d] = path
		if info.Dataset.Features > 0 && info.Sources.Count > 0 {
			res.shapes[d] = shape{info.Dataset.Features, info.Sources.Count}
		}
	}
	return nil
}

// completeClasses checks the records against the run.json class names, and
// names the classes of datasets without a run.json from the records.
func (res *Results) completeClasses(fromRun map[string]string) error {
	built := map[string][]string{}
	for i := range res.Records {
		r := &res.Records[i]
		if ci, ok := res.Classes[r.Dataset]; ok {
			if err := checkNames(r, ci.Names); err != nil {
				return fmt.Errorf("report: %s disagrees with the records: %v", fromRun[r.Dataset], err)
			}
			continue
		}
		names := built[r.Dataset]
		names = nameClass(names, r.TargetIdx, r.Target)
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
	if err := check(r.TargetIdx, r.Target); err != nil {
		return err
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
