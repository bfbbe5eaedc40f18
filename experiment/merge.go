package experiment

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/plural"
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

// Merge reads the results of runs — run directories (every results*.jsonl
// file in them) or results files (with the run.json beside them) — such
// as the shards of one run, possibly from different machines, and merges
// them. The runs' manifests must describe the same run but for the shard
// and the paths (Manifest); every record must be a cell of its grid and
// carry the run's identity (ReadRuns).
//
// A cell found twice with records identical but for fit_seconds is kept
// once (reported in Duplicates); one found twice with records that differ
// otherwise is a conflict, and Merge then returns an error listing the
// cells, and writes nothing. Partial last lines are ignored (reported in
// Partial).
//
// When out is not empty Merge writes the merged records, one line each in
// grid order, atomically: to the file out when it ends in ".jsonl", and
// otherwise to the run directory out (created if needed, and locked while
// Merge writes it, as is the run directory holding a file out) as results.jsonl beside a run.json without a shard — a
// run directory that Run can resume to compute the missing cells, and that
// reports read like any other. It refuses to write into a run directory of
// another run (a directory out, or the one holding a file out), and an out
// that is one of the inputs, the run.json beside
// one, or inside a run directory given (atomicfile.NotAnInput): a merge
// never changes what it reads. Nor does it drop what it did not read: an
// out whose results file holds a cell the merge lacks, a record of another
// run or a line that is not a record is refused (an earlier merge of fewer
// shards is replaced), and so is a directory without run.json holding
// results.jsonl.
//
// Merge returns a summary in two cases only: with a nil error when it
// merged (and wrote out, if given), and with an error matching
// ErrConflict (and ErrInput) when records conflict, which the summary
// lists in Conflicts (nothing is then written). Otherwise it returns no
// summary, with an error matching ErrInput for unreadable or malformed
// inputs, runs that differ and an out it refuses, or another error,
// naming out, when writing fails (nothing of the merge is then left in
// out: a run.json it wrote into a directory without one is removed).
// Missing cells are not an error: see MergeSummary.Complete.
func Merge(runs []string, out string) (*MergeSummary, error) {
	if len(runs) == 0 {
		return nil, inputErrorf("merge: nothing to merge")
	}
	if err := CheckMergeOutput(out, runs); err != nil {
		return nil, err
	}
	res, man, err := readOneRun(runs)
	if err != nil {
		return nil, err
	}
	rep := mergeReport(res, man)
	if err := conflictError(res); err != nil {
		return rep, err
	}
	if out == "" {
		return rep, nil
	}
	if err := writeMerged(out, man, res); err != nil && !errors.Is(err, ErrInput) {
		return nil, fmt.Errorf("merge: the merge was not written to %s: %w", out, err)
	} else if err != nil {
		return nil, err
	}
	return rep, nil
}

// ErrConflict is matched (errors.Is) by Merge's error when a cell has
// records that differ otherwise than in fit_seconds: Merge then returns
// its summary too, listing them in Conflicts, and writes nothing. The
// error matches ErrInput as well.
var ErrConflict = errors.New("merge: conflicting records")

// conflictsError is the input error of conflicting records (ErrConflict).
type conflictsError struct{ inputError }

func (e conflictsError) Is(target error) bool { return target == ErrConflict || target == ErrInput }

// CheckMergeOutput returns an error matching ErrInput when Merge's output
// out (see Merge) would overwrite or change what it reads from runs: a
// results file given, the run.json beside it, or anything inside a run
// directory given (a shard resumed later would find the merged records in
// its directory). Merge checks it first; a caller that checks whether out
// can be written before calling Merge checks it before that, so that this
// input error is not hidden by the write's (a read-only run directory). It
// reads no run: the paths alone (and which of runs are files) decide.
func CheckMergeOutput(out string, runs []string) error {
	if out == "" {
		return nil
	}
	inputs := slices.Clone(runs)
	for _, in := range runs {
		if fi, err := os.Stat(in); err == nil && !fi.IsDir() {
			inputs = append(inputs, filepath.Join(filepath.Dir(in), ManifestFile))
		}
	}
	outs := []string{out}
	if !strings.HasSuffix(out, ".jsonl") {
		outs = []string{filepath.Join(out, resultsName(shard.Shard{})), filepath.Join(out, ManifestFile)}
	}
	for _, o := range outs {
		if err := atomicfile.NotAnInput(o, inputs...); err != nil {
			return inputErrorf("merge: %w: merge into another directory", err)
		}
	}
	return nil
}

// readOneRun reads runs strictly (ReadRuns) and returns them with their
// manifest: they must be runs of one dataset.
func readOneRun(runs []string) (*Results, *Manifest, error) {
	res, err := ReadRuns(runs, ReadOptions{keepLines: true})
	if err != nil {
		return nil, nil, err
	}
	var man *Manifest
	for _, ms := range res.Manifests {
		// Without CombineRuns a dataset has one manifest.
		if man != nil {
			return nil, nil, inputErrorf("merge: %s are not the same run (%s)", strings.Join(runs, ", "), man.differs(ms[0], true))
		}
		man = ms[0]
	}
	return res, man, nil
}

// mergeReport returns the MergeSummary of what ReadRuns read of the run man.
func mergeReport(res *Results, man *Manifest) *MergeSummary {
	rep := &MergeSummary{
		Files: res.Files, Partial: res.Partial,
		Expected: newGrid(man).cells(shard.Shard{}), Present: len(res.Records),
		Missing: res.Missing(), Duplicates: res.Duplicates, Conflicts: res.Conflicts,
	}
	for _, r := range res.Records {
		if r.Error != "" {
			rep.Failed++
		}
	}
	return rep
}

// conflictError returns an error listing the cells recorded differently in
// different places (the first ten), matching ErrConflict, or nil.
func conflictError(res *Results) error {
	n := len(res.ConflictAt)
	if n == 0 {
		return nil
	}
	const show = 10
	more := ""
	if n > show {
		more = fmt.Sprintf("; and %d more", n-show)
	}
	return conflictsError{inputError{fmt.Errorf("merge: %s different records in different places: %s%s",
		plural.Count(n, "cell has", "cells have"), strings.Join(res.ConflictAt[:min(show, n)], "; "), more)}}
}

// checkReplaced returns an input error when the existing file path, which
// a merge of res (the run man) would replace, holds what the merge would
// lose: a line that is not a results record, a record of another run, or a
// cell the merge does not have (a merge of some shards into a run
// directory holding the whole run). A file holding only cells of the merge
// — an earlier merge of fewer shards, merged again — is replaced; a
// partial last line is not counted.
func checkReplaced(path string, man *Manifest, res *Results) error {
	var lost []Key
	var other error
	_, _, err := scanResults(path, func(_ []byte, rec *Record, lineno int) error {
		if rec.RunID != "" && rec.RunID != man.RunID {
			other = inputErrorf("merge: %s:%d: %s, not of the run merged (%s): merging would replace another run's records; merge into another file", path, lineno, recordOfRun(rec.RunID), runNamed(man.RunID))
			return other
		}
		if k := rec.Key(); !res.has(k) {
			lost = append(lost, k)
		}
		return nil
	})
	switch {
	case err != nil && err != other && errors.Is(err, ErrInput): // a line that is not a record
		return inputErrorf("merge: %w: merging would replace it; merge into another file", err)
	case err != nil:
		return err
	case len(lost) > 0:
		return inputErrorf("merge: %s holds %s that the merge does not have (the first: %s): merging would drop %[4]s: merge into another file or directory, giving %[1]s as an input beside the others to keep %[4]s", path, plural.Count(len(lost), "cell", "cells"), lost[0], plural.Word(len(lost), "it", "them"))
	}
	return nil
}

// mergedRunIn returns the manifest of the directory dir that a merge of
// the run man writes into (nil when it has none), or an input error when
// it is another run's, naming out (dir, or a file in it): the merged
// records, in its results file or in another, would be read as records of
// a run they are not of. A shard's directory of this run is refused too:
// a merge into it would rewrite its run.json for the whole run (leaving
// the shard's own command refused) or put the merged records beside the
// shard's.
func mergedRunIn(dir, out string, man *Manifest) (*Manifest, error) {
	old, err := existingManifest(dir)
	if err != nil {
		return nil, inputError{err}
	}
	if old == nil {
		return nil, nil
	}
	if d := old.differs(man, true); d == "" {
		if old.Shard != nil {
			return nil, inputErrorf("merge: %s is a shard directory (%s is shard %s's): merging into it would leave the shard unable to run or resume; merge into another directory", dir, filepath.Join(dir, ManifestFile), old.shardOf())
		}
		return old, nil
	} else if out == dir {
		return nil, inputErrorf("merge: %s holds another run (%s): merge into another directory", dir, d)
	} else {
		return nil, inputErrorf("merge: %s: %s holds another run (%s), which would read the merged records as its own: merge into a file or directory elsewhere", out, dir, d)
	}
}

// writeMerged writes the records of res in grid order to out (see Merge).
func writeMerged(out string, man *Manifest, res *Results) error {
	g := newGrid(man)
	order := make([]int, len(res.Records))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		pa, _ := g.order(res.Records[i].Key())
		pb, _ := g.order(res.Records[j].Key())
		return slices.Compare(pa[:], pb[:])
	})
	write := func(path string) error {
		return atomicfile.Write(path, func(w io.Writer) error {
			for _, i := range order {
				if _, err := w.Write(res.lines[i]); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if strings.HasSuffix(out, ".jsonl") {
		// A file in a run directory: held as the directory is, so that a
		// Run appending to it is not left writing to a replaced file.
		// Another file: held itself, so that two merges into it do not
		// both check what it holds and the last one drop the first's.
		var lock *dirlock.Lock
		var err error
		if IsRunDir(filepath.Dir(out)) {
			lock, err = dirlock.Acquire(filepath.Dir(out))
		} else {
			// A file system without locks (Lustre without flock): the
			// file is merged into as before merges locked it.
			lock, err = dirlock.TryAcquireFile(out)
		}
		if err != nil {
			return err
		}
		defer lock.Release()
		if _, err := mergedRunIn(filepath.Dir(out), out, man); err != nil {
			return err
		}
		if err := checkReplaced(out, man, res); err != nil {
			return err
		}
		return write(out)
	}
	if _, err := checkNewOut(out, resultsName(shard.Shard{}), false, "merge into another directory"); err != nil {
		return err
	}
	lock, err := lockRun(out)
	if err != nil {
		return err
	}
	defer lock.Release()
	merged := *man
	merged.Shard = nil
	old, err := mergedRunIn(out, out, man)
	if err != nil {
		return err
	}
	if err := checkReplaced(filepath.Join(out, resultsName(shard.Shard{})), man, res); err != nil {
		return err
	}
	// run.json first, as Run writes it: a merge stopped between the two
	// leaves a run directory whose results are missing (a run computes
	// them, a second merge writes them), never results without a run.json.
	// A merge whose results could not be written removes the run.json it
	// wrote into a directory that had none, leaving nothing half-written.
	if err := merged.write(out); err != nil {
		return err
	}
	if err := write(filepath.Join(out, resultsName(shard.Shard{}))); err != nil {
		if old == nil {
			os.Remove(filepath.Join(out, ManifestFile))
		}
		return err
	}
	return nil
}
