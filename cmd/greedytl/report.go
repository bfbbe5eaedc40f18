package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/report"
)

// reportFormats are the documents --format names (runReport reads
// "markdown" as md too), for its help, its errors and its completion.
var reportFormats = []string{"md", "html"}

type reportOptions struct {
	out    string
	json   bool
	quiet  bool
	format []string
}

func newReportCmd(s *streams) *cobra.Command {
	o := &reportOptions{}
	c := &cobra.Command{
		Use:   "report RUN [RUN…] [--out REPORT] [--json] [--format md,html]",
		Short: "Summarise experiment runs: tables, figures, Markdown and HTML",
		Long: `Report reads the results of "greedytl experiment" runs — a run directory (all
its results*.jsonl files, shards and merged files alike, and its run.json for
class names and groups) or a results .jsonl file — and summarises them: for
each dataset, method, number of positives and noise level, the balanced
accuracy averaged over targets and splits, its standard error over splits (the
standard deviation of the per-split means over √splits; none with one split), the
number of cells and the mean fit time. A cell read twice counts once; failed
cells are counted and listed, never averaged. Runs of --protocol nway are
summarised for each dataset, method, number of ways and of shots: the
accuracy averaged over episodes and its standard error over episodes.

Without --out it prints the summary as a table (as JSON with --json). With
--out it writes the report into the directory REPORT: the paper's figures as
PNG and SVG (accuracy by training-set size, the noise study, GreedyTL against
GreedyTL-59, the source-weight matrices; of N-way runs, accuracy by shots, a
panel per number of ways), report.md and a self-contained
report.html (--format chooses the documents), replacing an earlier report's
files; a report.md or report.html there that is not a greedytl report is
not replaced: the directory is refused. REPORT/report-files.json lists the
files written, so that a later report into REPORT removes the earlier
one's files that it no longer writes (the figures of a dataset no longer
reported, a document no longer asked for), saying so on standard error
(unless -q); a file it did not write, or one changed since, is never
removed (nor, in a directory of a report from before these lists, a
document: only its figures), and one it cannot remove is kept, with a warning (code
report-files). A second report into REPORT while one is written there is
refused; a run writing into the same directory is not waited for. With
--json the summary array
goes to standard output either way (with --out, once the report is
written: a report that fails prints none): objects with "dataset", "method",
"positives", "noise", "mean", "stderr", "splits", "n", "errors",
"fit_seconds_mean" (accuracies as fractions; "mean", "stderr" and
"fit_seconds_mean" are null for a row none of whose cells succeeded, n = 0, and
"stderr" is null for a row of one split, which measures no spread) and
"expected", the cells of the run's grid for the row (absent without run.json).
An N-way row has "ways" and "shots" besides (absent for the other
protocols), "positives" as "shots", "noise" 0, and "splits" and "expected"
counting episodes.

A row some of whose averaged cells come from fits whose iterative solver
stopped before its stopping rule held (their records' "not_converged") has
its accuracy marked † in the table and the documents, a warning (code
not-converged) saying how many, and in --json "not_converged", the cells whose
final fit stopped short (its weights are the solver's last iterate), and
"selection_not_converged", those whose only stopped runs chose a
hyperparameter; nothing is added when every run converged. Likewise a row some
of whose averaged cells come from greedytl-auto fits that left subsamples'
committees out of their mean, a column's values spanning a huge range (their
records' "wide_range"), has its accuracy marked ‡, a warning (code wide-range)
saying how many, and in --json "wide_range", their count.

A dataset whose binary cells test on fewer than 10 negatives, or some of whose
targets' cells test on fewer than 10 positives, gets a caution (code
small-test-sets, and in its section of the documents): one test example then
moves a cell's balanced accuracy by more than 5 points, as much as methods
differ. N-way episodes are exempt: each tests on the --test-per-class
examples of every class its run was given (run.json's test_per_class).

Runs of one dataset must be the same run (as for merge), except that they may
hold different methods, noise levels and numbers of splits: a method run on its
own beside a finished run, or the noise study beside the main grid, is reported
with it (a warning says when the two were made by different greedytl versions). When a method lacks
cells of its grid, the report says so first — on standard error, and at the top
of report.md and report.html — with each such method's count of cells present
and expected.`,
		Example: `  greedytl report runs/coil100
  greedytl report runs/shard-* --out runs/report
  greedytl report runs/coil100 runs/coil100-new-method --out runs/report
  greedytl report runs/merged.jsonl --json | jq '.[] | select(.method == "greedytl")'`,
		Args: argCount(1, -1, "the run directories or result files to report on"),
		RunE: func(c *cobra.Command, args []string) error { return runReport(c, s, o, args) },
	}
	fl := c.Flags()
	fl.StringVarP(&o.out, "out", "o", "", "write the report (figures, report.md, report.html) into this directory")
	dirFlags(fl, "out")
	fl.BoolVar(&o.json, "json", false, "print the summary as a JSON array")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "with --out, no message that the report is written or that an earlier report's file is removed (warnings are still printed); the summary (the table without --out, --json's array with or without it) is printed all the same")
	wordsVar(fl, &o.format, slices.Clone(reportFormats), "format", "documents to write with --out: "+strings.Join(reportFormats, ", ")+" (figures are always written)")
	return c
}

func runReport(c *cobra.Command, s *streams, o *reportOptions, runs []string) error {
	// --format "" gave no item: the figures were written and no document.
	if err := emptyList(c, "format", o.format, "document", strings.Join(reportFormats, " or "), "for "+strings.Join(reportFormats, " and ")); err != nil {
		return err
	}
	var opts report.Options
	for _, f := range o.format {
		switch strings.ToLower(f) { // listItems trimmed it
		case "md", "markdown":
			opts.Markdown = true
		case "html":
			opts.HTML = true
		default:
			return badInputf("--format %q: want %s (comma-separated)", f, strings.Join(reportFormats, " or "))
		}
	}
	if err := checkOutDir(o.out, runs...); err != nil {
		return err
	}
	if c.Flags().Changed("format") && o.out == "" {
		return badInputf("--format needs --out: it chooses the documents written there")
	}
	// Before the runs are read, after the flags' errors (exit 2), which a
	// write's would hide: the message of synth's (it was "report: mkdir
	// DIR: read-only file system").
	if o.out != "" {
		if err := atomicfile.CheckDir(o.out); err != nil {
			return err
		}
	}
	res, err := report.Load(runs...)
	if err != nil {
		return badInput(err)
	}
	for _, w := range res.Warnings {
		s.warn(warning{Code: "records", Message: w})
	}
	if note := res.PartialNote(); note != "" {
		diagf(s.err, "%s", note)
	}
	for _, c := range res.TestSetCautions() {
		s.warn(warning{Code: experiment.WarnSmallTestSets, Message: c.Message, Classes: c.Classes})
	}
	rows := res.Rows()
	for _, r := range rows {
		if note := r.ConvergenceNote(); note != "" {
			s.warn(warning{Code: method.WarnNotConverged, Message: note})
		}
		if note := r.WideRangeNote(); note != "" {
			s.warn(warning{Code: method.WarnWideRange, Message: note})
		}
	}
	if o.out == "" {
		if o.json {
			return printJSON(s.out, rows)
		}
		return printSummary(s, rows)
	}
	opts.Removed = func(path string, err error) {
		switch {
		case err != nil:
			s.warn(warning{Code: "report-files", Message: fmt.Sprintf("%s: %v", path, err)})
		case !o.quiet:
			diagf(s.err, "removed %s, a file of the earlier report that this one does not write", path)
		}
	}
	written, err := report.Write(o.out, res, opts)
	if errors.Is(err, report.ErrNotAReport) {
		return badInput(err)
	}
	if err != nil {
		return err
	}
	// The summary once the report is written, as merge prints its own: a
	// report that failed prints none.
	if o.json {
		if err := printJSON(s.out, rows); err != nil {
			return err
		}
	}
	if o.quiet {
		return nil
	}
	docs := slices.DeleteFunc(slices.Clone(written), func(p string) bool {
		return strings.HasSuffix(p, ".png") || strings.HasSuffix(p, ".svg")
	})
	fmt.Fprintf(s.err, "report written to %s: %s (PNG and SVG)", o.out, plural.Count((len(written)-len(docs))/2, "figure", "figures"))
	if len(docs) > 0 {
		fmt.Fprintf(s.err, ", %s", strings.Join(docs, ", "))
	}
	fmt.Fprintln(s.err)
	return nil
}

// printSummary prints the summary rows as an aligned table; N-way rows
// (--protocol nway) have a ways and a shots column instead of positives
// and noise, and their accuracy is the episodes' plain accuracy; the other
// rows' is class-balanced, their column headed as the report's tables
// (report.BalancedAccuracyTitle). An accuracy averaged over
// fits whose solvers stopped short is marked (report.NotConvergedMark), and
// one averaged over fits that left committees out of their mean
// (report.WideRangeMark).
func printSummary(s *streams, rows []report.Row) error {
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	header := ""
	balanced := strings.ToLower(report.BalancedAccuracyTitle[:1]) + report.BalancedAccuracyTitle[1:]
	for _, r := range rows {
		h := "dataset\tmethod\tpositives\tnoise\t" + balanced + "\tstderr\tsplits\tn\terrors\tfit s\t"
		a, b := r.Positives, r.Noise
		if r.Ways > 0 {
			h = "dataset\tmethod\tways\tshots\taccuracy %\tstderr\tepisodes\tn\terrors\tfit s\t"
			a, b = r.Ways, r.Shots
		}
		if h != header {
			fmt.Fprintln(tw, h)
			header = h
		}
		acc, se, fit := "-", "-", "-" // a row of no successful cell averages nothing
		if r.N > 0 {
			acc = fmt.Sprintf("%.2f", 100*r.Mean)
			if r.HasStdErr() {
				se = fmt.Sprintf("%.2f", 100*r.StdErr)
			}
			fit = fmt.Sprintf("%.4g", r.FitSecondsMean)
			if r.StoppedShort() {
				acc += report.NotConvergedMark
			}
			if r.WideRange > 0 {
				acc += report.WideRangeMark
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%s\t\n",
			r.Dataset, r.Method, a, b, acc, se, r.Splits, r.N, r.Errors, fit)
	}
	return tw.Flush()
}
