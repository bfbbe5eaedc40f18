package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/report"
)

// The demo's default scale: a few intents of every domain and a few splits,
// so that it runs in under a minute on two idle cores (50–95 s of CPU
// time); --full runs the paper's (fullSplits).
const (
	demoTargetsPerDomain = 3
	demoSplits           = 3
)

// fullSplits is --full's number of splits: the paper's, experiment's
// default.
var fullSplits = experiment.DefaultConfig().Splits

type demoOptions struct {
	out     string
	full    bool
	perDom  int
	splits  int
	methods []string
	seed    uint64
	workers int
	quiet   bool
}

func newDemoCmd(s *streams) *cobra.Command {
	o := &demoOptions{}
	c := &cobra.Command{
		Use:   "demo [--out DIR] [--full]",
		Short: "Run the paper's protocol end to end on the embedded CLINC150 data",
		Long: `Demo runs the paper's leave-one-class-out experiment on the embedded CLINC150
intent data set (` + fmt.Sprint(clinc150.Intents) + ` intents in ` + fmt.Sprint(clinc150.DomainCount) + ` domains; CC BY 3.0, Larson et al. 2019),
featurised with hashed unigram+bigram TF-IDF, with its out-of-scope queries as
the negative pool. It trains a linear SVM source per intent, then for each
target intent fits GreedyTL, GreedyTL-59 and every baseline on 2, 5 and 10
positives (and 10 negatives), prints the class-balanced accuracies and
writes a report (Markdown, HTML and figures) to DIR/report.

` + fmt.Sprintf(`By default it uses %d intents of each domain as targets and %d random splits,
which needs 50–95 s of CPU time, by processor (under a minute on two idle cores);
--full runs every intent and the paper's %d splits (%.0f times as many cells).`,
			demoTargetsPerDomain, demoSplits, fullSplits, float64(clinc150.Intents*fullSplits)/float64(clinc150.DomainCount*demoTargetsPerDomain*demoSplits)) + `
The run is resumable: rerunning the same command reuses every finished cell
in DIR/run. As for "greedytl experiment", the exit status is 1 when cells
failed (the table and the report are still written), with a line that says
how many and why.`,
		Example: `  greedytl demo
  greedytl demo --out /tmp/demo --full`,
		RunE: func(c *cobra.Command, _ []string) error { return runDemo(c, s, o) },
	}
	fl := c.Flags()
	fl.StringVarP(&o.out, "out", "o", "greedytl-demo", "directory for the run and the report")
	dirFlags(fl, "out")
	fl.BoolVar(&o.full, "full", false, "every intent as a target and the paper's 10 splits")
	intVarP(fl, &o.perDom, "targets-per-domain", "", demoTargetsPerDomain, "target intents per domain (without --full)")
	intVarP(fl, &o.splits, "splits", "", demoSplits, fmt.Sprintf("random splits per target and number of positives (--full: %d)", fullSplits))
	methodsVar(c, &o.methods, "methods to run, comma-separated specs (default: all)")
	uint64Var(fl, &o.seed, "seed", 1, "seed of the negative split, the splits and the methods")
	workersVar(c, &o.workers, "groups of cells worked on at once")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	return c
}

// demoTargets returns the first n intents of every domain, in class order.
func demoTargets(f *dataset.Folder, n int) []string {
	taken := map[string]int{}
	var targets []string
	for c, name := range f.Classes {
		g := f.Groups[c]
		if name == clinc150.OOS || taken[g] >= n {
			continue
		}
		taken[g]++
		targets = append(targets, name)
	}
	return targets
}

func runDemo(c *cobra.Command, s *streams, o *demoOptions) error {
	if err := checkOutDir(o.out); err != nil {
		return err
	}
	if err := emptyMethods(c, o.methods); err != nil {
		return err
	}
	if o.full && c.Flags().Changed("targets-per-domain") {
		return badInputf("--targets-per-domain applies without --full, which takes every intent as a target: give one of them")
	}
	if !o.full && o.perDom < 1 {
		return badInputf("--targets-per-domain must be at least 1")
	}
	// Before CLINC150 is loaded and the run started, after the flags'
	// errors (exit 2), which a write's would hide: the message of synth's
	// (it was "mkdir DIR: read-only file system").
	if err := atomicfile.CheckDir(o.out); err != nil {
		return err
	}
	start := time.Now()
	log := func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(s.err, format+"\n", a...)
		}
	}
	log("loading the embedded CLINC150 (%s queries, %d intents + out-of-scope) ...", groupDigits(clinc150.Queries), clinc150.Intents)
	data, err := clinc150.Load(clinc150.Options{})
	heedSignals(c.Context())
	if err != nil {
		return err
	}
	cfg := experiment.DefaultConfig()
	cfg.Data, cfg.Name = data, "clinc150"
	cfg.Out = filepath.Join(o.out, "run")
	cfg.NegativeClasses = []string{clinc150.OOS}
	cfg.Seed, cfg.Workers = o.seed, o.workers
	cfg.Splits = o.splits
	if o.full && !c.Flags().Changed("splits") {
		cfg.Splits = fullSplits
	}
	if !o.full {
		cfg.Targets = demoTargets(data, o.perDom)
	}
	if len(o.methods) > 0 {
		cfg.Methods = o.methods
	}
	log("running %s on %s targets × positives %v × %d splits into %s",
		plural.Count(len(cfg.Methods), "method", "methods"), targetCount(cfg.Targets), cfg.Positives, cfg.Splits, cfg.Out)
	sum, err := runWithProgress(c, s, cfg, o.quiet)
	if err != nil {
		return err
	}
	res, err := report.Load(cfg.Out)
	if err != nil {
		return err
	}
	if err := printDemoTable(s, report.Summarize(res.Records)); err != nil {
		return err
	}
	dir := filepath.Join(o.out, "report")
	// A stop signal that came once the cells were done stops the demo
	// before its report; one that comes while the report is written (a
	// few seconds, not looking at the context) lets it finish, and the
	// demo exits 128 + n all the same (execute).
	if ctx := c.Context(); ctx.Err() != nil {
		return fmt.Errorf("%w before the report was written; the run's cells are kept in %s: rerun the same command to write it", context.Cause(ctx), cfg.Out)
	}
	if _, err := report.Write(dir, res, report.Options{Markdown: true, HTML: true}); errors.Is(err, report.ErrNotAReport) {
		return badInput(err) // a file of the user's in DIR/report, as report --out refuses it
	} else if err != nil {
		return err
	}
	log("%s (%d failed) in %s; report: %s, %s",
		plural.Count(sum.Cells, "cell", "cells"), sum.FailedCells(), time.Since(start).Round(time.Second), filepath.Join(dir, "report.html"), filepath.Join(dir, "report.md"))
	return failedCellsError(sum)
}

func targetCount(t []string) string {
	if len(t) == 0 {
		return "all"
	}
	return fmt.Sprint(len(t))
}

// printDemoTable prints mean balanced accuracy (± standard error over
// splits, or "(1 split)" where one split gives none, as report's tables
// mark it) per method and number of positives: the recommended method
// (greedytl-auto) first, then the others in the paper's order.
//
// It prints one line for each method of rows, none for a method the run did
// not hold; specs with settings follow the paper's methods, by name (rows'
// order, report.Summarize's).
func printDemoTable(s *streams, rows []report.Row) error {
	type key struct {
		method string
		pos    int
	}
	cell := map[key]report.Row{}
	var positives []int
	seen := map[int]bool{}
	var names []string
	for _, r := range rows {
		if r.Noise != 0 {
			continue
		}
		cell[key{r.Method, r.Positives}] = r
		if !seen[r.Positives] {
			seen[r.Positives] = true
			positives = append(positives, r.Positives)
		}
		if !slices.Contains(names, r.Method) {
			names = append(names, r.Method)
		}
	}
	if i := slices.Index(names, method.Recommended); i > 0 {
		names = slices.Insert(slices.Delete(names, i, i+1), 0, method.Recommended)
	}
	fmt.Fprintln(s.out, "CLINC150, class-balanced accuracy % (mean ± standard error over splits)")
	fmt.Fprintln(s.out)
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "method\t")
	for _, p := range positives {
		fmt.Fprintf(tw, "%d+10\t", p)
	}
	fmt.Fprintln(tw)
	for _, name := range names {
		fmt.Fprintf(tw, "%s\t", name)
		for _, p := range positives {
			r, ok := cell[key{name, p}]
			if !ok || r.N == 0 {
				fmt.Fprint(tw, "–\t")
				continue
			}
			fmt.Fprintf(tw, "%s\t", r.Accuracy())
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
