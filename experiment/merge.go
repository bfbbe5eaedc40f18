package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/shard"
)

// MergeSummary describes the results that Merge found (what was read,
// what is missing, duplicated or in conflict).
type MergeSummary struct {
	// Files lists the results files read, in order.
	Files []string
	// Partial lists the files whose partial last line (a write cut short,
	// or a shard still running) was ignored.
	Partial []string
	// Expected counts the cells of the grid; Present the distinct cells
	// found, of which Failed carry an error.
	Expected, Present, Failed int
	// Missing lists the cells of the grid that no file holds, in grid
	// order.
	Missing []Key
	// Duplicates lists the cells found more than once with records that
	// are identical but for fit_seconds; the first is kept.
	Duplicates []Key
	// Conflicts lists the cells found more than once with records that
	// differ otherwise; with any, Merge fails.
	Conflicts []Key
}

// Complete reports whether every cell of the grid is present.
func (r *MergeSummary) Complete() bool { return len(r.Missing) == 0 }

// mergedCell is one cell's record as read: the line, where it came from.
type mergedCell struct {
	line   []byte
	file   string
	lineno int
}

// Merge reads the results of runs — run directories (every results*.jsonl
// file in them) or results files (with the run.json beside them) — such
// as the shards of one run, possibly from different machines, and merges
// them. The runs' manifests must describe the same run but for the shard
// and the paths (Manifest); every record must be a cell of its grid.
//
// A cell found twice with records identical but for fit_seconds is kept
// once (reported in Duplicates); one found twice with records that differ
// otherwise is a conflict, and Merge then returns an error listing the
// cells, and writes nothing. Partial last lines are ignored (reported in
// Partial).
//
// When out is not empty Merge writes the merged records, one line each in
// grid order, atomically: to the file out when it ends in ".jsonl", and
// otherwise to the run directory out (created if needed) as results.jsonl
// beside a run.json without a shard — a run directory that Run can resume
// to compute the missing cells, and that reports read like any other. It
// refuses to overwrite a run directory of another run.
//
// Merge returns the report whenever the inputs could be read, with an error
// matching ErrInput for unreadable, malformed or conflicting inputs and
// for runs that differ, and another error when writing fails. Missing
// cells are not an error: see MergeSummary.Complete.
func Merge(runs []string, out string) (*MergeSummary, error) {
	if len(runs) == 0 {
		return nil, inputErrorf("experiment: nothing to merge")
	}
	var man *Manifest
	var files []string
	seen := make(map[string]bool)
	for _, in := range runs {
		m, fs, err := resultsOf(in)
		if err != nil {
			return nil, inputError{err}
		}
		if man == nil {
			man = m
		} else if d := man.differs(m, true); d != "" {
			return nil, inputErrorf("experiment: %s and %s are not the same run (%s)", runs[0], in, d)
		}
		for _, f := range fs {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, err
			}
			if !seen[abs] {
				seen[abs] = true
				files = append(files, f)
			}
		}
	}

	g := newGrid(man)
	rep := &MergeSummary{Files: files, Expected: g.cells(shard.Shard{})}
	cells := make(map[Key]*mergedCell)
	var conflicts []string
	for _, file := range files {
		_, partial, err := scanResults(file, func(line []byte, rec *Record, lineno int) error {
			k := rec.Key()
			if _, ok := g.order(k); !ok {
				return inputErrorf("%s:%d: cell %v is not in the run's grid", file, lineno, k)
			}
			prev, dup := cells[k]
			if !dup {
				cells[k] = &mergedCell{line: slices.Clone(line), file: file, lineno: lineno}
				if rec.Error != "" {
					rep.Failed++
				}
				return nil
			}
			same, err := sameResult(prev.line, rec)
			if err != nil {
				return inputErrorf("%s:%d: %v", prev.file, prev.lineno, err)
			}
			if same {
				rep.Duplicates = append(rep.Duplicates, k)
			} else {
				rep.Conflicts = append(rep.Conflicts, k)
				conflicts = append(conflicts, fmt.Sprintf("%v (%s:%d and %s:%d)", k, prev.file, prev.lineno, file, lineno))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if partial {
			rep.Partial = append(rep.Partial, file)
		}
	}
	rep.Present = len(cells)
	for _, gr := range g.groups(shard.Shard{}) {
		for _, m := range g.methods {
			if k := gr.cell(g.dataset, m); cells[k] == nil {
				rep.Missing = append(rep.Missing, k)
			}
		}
	}
	if len(conflicts) > 0 {
		const show = 10
		more := ""
		if len(conflicts) > show {
			more = fmt.Sprintf("; and %d more", len(conflicts)-show)
		}
		return rep, inputErrorf("experiment: %d cells have different records in different places: %s%s",
			len(conflicts), strings.Join(conflicts[:min(show, len(conflicts))], "; "), more)
	}
	if out == "" {
		return rep, nil
	}
	return rep, writeMerged(out, man, g, cells)
}

// resultsOf returns the manifest and the results files of a run directory
// or of a results file.
func resultsOf(in string) (*Manifest, []string, error) {
	fi, err := os.Stat(in)
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		m, err := ReadManifest(filepath.Dir(in))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: the run.json beside it: %w", in, err)
		}
		return m, []string{in}, nil
	}
	m, err := ReadManifest(in)
	if err != nil {
		return nil, nil, err
	}
	files, err := filepath.Glob(filepath.Join(in, "results*.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(files)
	return m, files, nil
}

// sameResult reports whether the record on line equals rec but for
// fit_seconds.
func sameResult(line []byte, rec *Record) (bool, error) {
	prev, err := decodeRecord(line)
	if err != nil {
		return false, err
	}
	a, b := *prev, *rec
	a.FitSeconds, b.FitSeconds = 0, 0
	ja, err := json.Marshal(&a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(&b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ja, jb), nil
}

// writeMerged writes the cells in grid order to out (see Merge).
func writeMerged(out string, man *Manifest, g *grid, cells map[Key]*mergedCell) error {
	keys := make([]Key, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		pa, _ := g.order(a)
		pb, _ := g.order(b)
		return slices.Compare(pa[:], pb[:])
	})
	write := func(path string) error {
		return atomicfile.Write(path, func(w io.Writer) error {
			for _, k := range keys {
				if _, err := w.Write(cells[k].line); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if strings.HasSuffix(out, ".jsonl") {
		return write(out)
	}
	merged := *man
	merged.Shard = nil
	old, err := existingManifest(out)
	if err != nil {
		return inputError{err}
	}
	if old != nil {
		if d := old.differs(&merged, true); d != "" {
			return inputErrorf("experiment: %s holds another run (%s): merge into another directory", out, d)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := write(filepath.Join(out, resultsName(shard.Shard{}))); err != nil {
		return err
	}
	return merged.write(out)
}
