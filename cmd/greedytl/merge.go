package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
)

type mergeOptions struct {
	out string
}

func newMergeCmd(s *streams) *cobra.Command {
	o := &mergeOptions{}
	c := &cobra.Command{
		Use:   "merge RUN|FILE... [--out RUN|FILE.jsonl]",
		Short: "Check and merge the results of experiment runs and shards",
		Long: `Merge reads the results of "greedytl experiment" runs — run directories (every
results*.jsonl in them) or results files (with the run.json beside them), such
as the shards of one run, possibly computed on different machines — checks
that they belong to one run (their run.json files agree on everything but the
shard and the paths), and prints a summary: cells expected, present, failed,
missing (up to 10 listed), and duplicates.

A cell found twice with records identical but for fit_seconds is kept once. A
cell found twice with different records is a conflict: merge lists them and
writes nothing. A partial last line (a shard killed, or still running) is
ignored.

With --out, the merged records are written in grid order: to FILE.jsonl, or
to a run directory RUN as results.jsonl with its run.json. FILE.jsonl is the
records alone (no run.json is written beside it): merge reads it again with a
run.json of the run put beside it; merging into a RUN keeps both. Running
"greedytl experiment" on that RUN, with the settings of the merged runs and no
--shard, computes the missing cells. The output is never one of the inputs:
an --out that is an input file, the run.json beside one, or inside a run
directory given, is refused, and so is one in another run's directory (a RUN
whose run.json is another run's, or FILE.jsonl beside such a run.json: that
run would read the merged records as its own) or one whose results file holds records
the merge would lose: cells it does not have (a run directory holding more
of the run than the shards merged), records of another run, lines that are
not records. An earlier merge of fewer shards is replaced; a shard's directory
(its run.json a shard's), or FILE.jsonl in one, is refused: the shard could no longer run or resume.

Exit status: 0 when every cell is present; 1 when cells are missing (the
merged file is still written) or writing failed (then no summary is
printed, and nothing of the merge is left in --out); 2 on bad usage or bad input:
unreadable or malformed files (a record with a member missing, a null, an
unknown member or an impossible value), runs that differ, records of another
run (each record carries its run's run_id), conflicting records, an --out
among the inputs or in another run's directory.`,
		Example: `  greedytl merge runs/shard-* --out runs/merged
  greedytl merge runs/coil100                  # check a run: what is missing?`,
		Args: argCount(1, -1, "the run directories or result files to merge"),
		RunE: func(c *cobra.Command, args []string) error { return runMerge(s, o, args) },
	}
	c.Flags().StringVarP(&o.out, "out", "o", "", "write the merged results to this run directory, or to this file if it ends in .jsonl")
	fileFlags(c.Flags(), "out") // a directory, or a .jsonl file
	return c
}

func runMerge(s *streams, o *mergeOptions, runs []string) error {
	file := strings.HasSuffix(o.out, ".jsonl")
	if file {
		if err := checkOut(o.out); err != nil {
			return err
		}
	} else if err := checkOutTarget(o.out, "merge writes a run directory or a FILE.jsonl", "a directory name or a file name ending in .jsonl"); err != nil {
		return err
	}
	if o.out != "" {
		if err := experiment.CheckMergeOutput(o.out, runs); err != nil {
			return badInput(err) // before the writability, which would hide it
		}
		// Before the runs are read: a FILE.jsonl in a directory that does
		// not exist (or is a file), or a run directory that could not be
		// written (as report checks), failed only once they were read,
		// with exit 1.
		check := atomicfile.CheckDir
		if file {
			check = checkWritable
		}
		if err := check(o.out); err != nil {
			return err
		}
	}
	// Merge returns the summary of a merge that was written, or of
	// conflicting inputs (which it lists, nothing written); not of a merge
	// whose writing failed or was refused, which it would present as done.
	rep, err := experiment.Merge(runs, o.out)
	if rep != nil {
		printMergeReport(s, rep)
	}
	switch {
	case errors.Is(err, experiment.ErrInput):
		return badInput(err)
	case err != nil:
		return err
	case !rep.Complete():
		return fmt.Errorf("%d of %s missing", len(rep.Missing), plural.Count(rep.Expected, "cell", "cells")+" "+plural.Word(len(rep.Missing), "is", "are"))
	}
	return nil
}

// printMergeReport prints the summary of a merge to standard output.
func printMergeReport(s *streams, rep *experiment.MergeSummary) {
	fmt.Fprintf(s.out, "files:      %d\n", len(rep.Files))
	for _, f := range rep.Partial {
		fmt.Fprintf(s.out, "            %s: partial last line ignored\n", f)
	}
	fmt.Fprintf(s.out, "expected:   %s\n", plural.Count(rep.Expected, "cell", "cells"))
	fmt.Fprintf(s.out, "present:    %s (%d failed: %s)\n", plural.Count(rep.Present, "cell", "cells"), rep.Failed, plural.Word(rep.Failed, "its record carries an error", "their records carry an error"))
	fmt.Fprintf(s.out, "missing:    %s\n", plural.Count(len(rep.Missing), "cell", "cells"))
	const show = 10
	for _, k := range rep.Missing[:min(show, len(rep.Missing))] {
		fmt.Fprintf(s.out, "            %v\n", k)
	}
	if len(rep.Missing) > show {
		fmt.Fprintf(s.out, "            … and %d more\n", len(rep.Missing)-show)
	}
	fmt.Fprintf(s.out, "duplicates: %s (identical but for fit_seconds: kept once)\n", plural.Count(len(rep.Duplicates), "cell", "cells"))
	if len(rep.Conflicts) > 0 {
		fmt.Fprintf(s.out, "conflicts:  %s (different records: nothing written)\n", plural.Count(len(rep.Conflicts), "cell", "cells"))
	}
}
