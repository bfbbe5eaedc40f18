package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// embeddedCLINC150 is the --data value that selects the embedded CLINC150.
const embeddedCLINC150 = "clinc150"

type experimentOptions struct {
	dataJob   // --data, --out, the negative pool, --seed, --workers, --shard, --quiet
	name      string
	sources   string
	targets   []string
	protocol  string
	positives []int
	ways      []int
	shots     []int
	testPer   int
	splits    int
	noise     []int
	methods   []string
	checkOnly bool // --check: check --out against the run's settings, run nothing
}

func newExperimentCmd(s *streams) *cobra.Command {
	def := experiment.DefaultConfig()
	o := &experimentOptions{}
	c := &cobra.Command{
		Use:   "experiment --data DIR|clinc150 --out RUN [flags]",
		Short: "Run the leave-one-class-out protocol of the paper over a grid of cells",
		Long: `Experiment runs the paper's leave-one-class-out protocol on a dataset folder
(features.npy, labels.npy, classes.txt, optional groups.txt), or on the
embedded CLINC150 with --data clinc150 (whose "oos" class is then the
negative pool unless told otherwise).

A negative pool is held out (--negative-classes, or a random
--negative-fraction of the classes) and split 90%/10% into source and target
negatives; every other class has a source (a linear SVM against the source
negatives): give a directory written by "greedytl train-sources" with
--sources, or they are trained into RUN/sources. Every other class with
enough examples is a target (or the --targets named). A cell is
(target, positives, noise, split, method): the method is fitted on the
positives of the target and 10 target negatives, with every source but the
target's own and --noise N(0,1) dimensions appended to the features, and
scored by class-balanced accuracy on 50 further positives and 50 further
target negatives (fewer when the data run short; a warning, code
small-test-sets, says when some cells will test on fewer than 10 positives or
negatives, too few for a meaningful accuracy; N-way episodes test on
--test-per-class examples of each class, the size asked for, and are exempt).
With --protocol skewed — the paper's setting for skewed data sets such as
SUN09 — the test set is every other example of the target and every other
target negative, and --positives defaults to 1 (a class with 2 examples can
be a target); small-test-sets cautions such runs too (small classes leave
small test sets), advising more examples rather than the standard 50.

With --protocol nway — N-way few-shot — a cell is an episode: it draws
--ways classes among those with a source (or the --targets named), leaves
out those classes' own sources (H holds the scores of the other classes'
sources), fits a multi-class model on --shots examples of each class and
records its accuracy (and balanced accuracy) on --test-per-class further
examples of each (the pool leaves out, with a warning, a class with fewer
than the largest shots plus that; a class named in --targets with fewer is
refused). --methods takes the multi-class
methods (` + strings.Join(nativeMultiNames(), ", ") + `)
and any binary method spec, fitted one against the rest;
the default is every one of them. --splits is the number of episodes per
ways and shots. The episodes depend on --seed, ways, shots and episode
number alone: a method added later sees the same episodes.

A list flag given but empty (--methods "" or --targets ",", as a script's
unset variable gives) is refused: leave it out for its default (every
method, every target); so is a list with a blank item (--targets "a,,b").
A list's items are trimmed of blank space: --targets "a, b" names a and b.

RUN receives run.json (the settings) and results.jsonl, one JSON record per
cell, appended as cells finish. The run resumes: rerun the same command after
an interruption and only the missing cells are computed; a RUN with other
settings is refused, and so is a results file with a malformed record or a
record of another run (each record carries its run's run_id). Everything is seeded by --seed: the same command gives
the same records, but for their fit_seconds, on any number of workers or
shards. With --sources, the negative pool and the sources are those of the
directory, drawn and trained with its train-sources --seed, and --seed seeds
the rest (the splits, the noise and the methods): when the two differ, a note
on stderr says so (run.json records both, the pool's seed under negatives). --shard i/n runs a disjoint part of the grid (by a hash of each
group of cells) and writes results-shard-i-of-n.jsonl; --shard auto/n takes i
from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID
(Slurm, with --array=0-(n-1)). Give each shard its own RUN, then combine them
with "greedytl merge", as merge RESULTS/shard-*: a shard that holds no cell
of the grid (more shards than groups of cells) and would train its own
sources (no --sources) says so, exits 0 and writes nothing, not even its
RUN (with --sources it writes its run.json and an empty results file).
--check only checks RUN as a run would before its first cell: exit 0 when
RUN is new or holds this run (the same settings and shard), 2 when it holds
another, naming what differs; it runs, trains and writes nothing (a job
script asks it before merging shards that their run is its own).
docs/cluster has Kubernetes and Slurm recipes.

A cell whose method fails is recorded with its error and not retried. Exit
status: 0 when every cell of the run (or shard) succeeded; 1 when cells
failed — a last line says how many and why, grouping their error messages
(this holds for a rerun too: the failed cells are still in RUN) — or when
writing failed; 2 on bad usage or bad input; 130, 143 or 129 when stopped
by SIGINT, SIGTERM or SIGHUP (the finished cells are kept).`,
		Example: `  greedytl train-sources --data coil100/hog --out coil100-sources
  greedytl experiment --data coil100/hog --sources coil100-sources --out runs/coil100
  greedytl experiment --data clinc150 --out runs/clinc --methods greedytl,greedytl-59,l1-logistic
  greedytl experiment --data coil100/hog --sources coil100-sources --noise 0,10,100,1000 \
      --methods greedytl,l1-logistic,elastic-net,forward-reg --out runs/noise
  greedytl experiment --data sun09 --sources sun09-sources --protocol skewed --out runs/sun09
  greedytl experiment --data coil100/hog --sources coil100-sources --protocol nway \
      --ways 5,20 --shots 1,2,5,10 --methods greedytl-nway,simpleshot,no-transfer --out runs/nway
  greedytl experiment ... --shard auto/8 --out runs/shard-$JOB_COMPLETION_INDEX`,
		RunE: func(c *cobra.Command, _ []string) error { return runExperiment(c, s, o) },
	}
	fl := c.Flags()
	fl.StringVar(&o.data, "data", "", "dataset folder, or clinc150 for the embedded CLINC150 (required)")
	fl.StringVar(&o.name, "name", "", "the dataset's name in the results (default: the folder's base name)")
	fl.StringVar(&o.out, "out", "", "run directory (required; created if absent, resumed if present)")
	fl.StringVar(&o.sources, "sources", "", "sources directory from train-sources (default: train into RUN/sources)")
	dirFlags(fl, "data", "out", "sources")
	classesVar(fl, &o.negClasses, "negative-classes", "names of the classes pooled as negatives (comma-separated)")
	numberVarP(c, &o.negFraction, "negative-fraction", "", source.DefaultNegativeFraction, "fraction of the classes drawn at random as negatives (without --negative-classes)")
	classesVar(fl, &o.targets, "targets", "target classes (default: every class that is not a negative and has enough examples)")
	fl.StringVar(&o.protocol, "protocol", def.Protocol, "how the training and test sets are drawn: "+strings.Join(experiment.Protocols(), " or ")+" (see above)")
	intsVar(fl, &o.positives, "positives", def.Positives, "numbers of positive training examples; 1 with --protocol skewed")
	intsVar(fl, &o.ways, "ways", experiment.DefaultWays(), "numbers of classes of an episode (--protocol nway)")
	intsVar(fl, &o.shots, "shots", experiment.DefaultPositives(experiment.ProtocolNWay), "training examples per class of an episode (--protocol nway)")
	intVarP(fl, &o.testPer, "test-per-class", "", experiment.DefaultTestPerClass, "test examples per class of an episode (--protocol nway)")
	intVarP(fl, &o.splits, "splits", "", def.Splits, "random splits per target and number of positives (episodes per ways and shots with --protocol nway)")
	intsVar(fl, &o.noise, "noise", def.Noise, "numbers of N(0,1) noise dimensions appended to the features (e.g. 0,10,100,1000)")
	methodsVar(c, &o.methods, "methods to run, comma-separated specs (default: all: "+strings.Join(method.Names(), ",")+"; with --protocol nway the multi-class ones too)")
	uint64Var(fl, &o.seed, "seed", def.Seed, "seed of the splits, the noise, the methods and, without --sources, the negative pool and the sources")
	workersVar(c, &o.workers, "groups of cells worked on at once")
	fl.StringVar(&o.shard, "shard", "", "run only shard i of n: i/n, or auto/n to read i from the environment")
	fl.BoolVar(&o.checkOnly, "check", false, "check that --out is new or holds this run (its settings and shard), and exit (2 naming what differs); run, train and write nothing")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "no progress (a bar on a terminal, else a line per tenth of the work and minute), messages or summary (warnings and errors are still printed)")
	return c
}

func runExperiment(c *cobra.Command, s *streams, o *experimentOptions) error {
	sh, err := o.check(c, "RUN", o.sources)
	if err != nil {
		return err
	}
	if err := emptyList(c, "targets", o.targets, "class", "class names", "for the default: every class that is not a negative and has enough examples"); err != nil {
		return err
	}
	if err := emptyMethods(c, o.methods); err != nil {
		return err
	}
	if err := notStdin("sources", o.sources, "a sources directory"); err != nil {
		return err
	}
	fracSet := c.Flags().Changed("negative-fraction")
	cfg := experiment.DefaultConfig()
	cfg.Name, cfg.Out, cfg.Sources = o.name, o.out, o.sources
	cfg.NegativeClasses, cfg.Targets = o.negClasses, o.targets
	cfg.Protocol, cfg.Positives, cfg.Splits, cfg.Noise = o.protocol, o.positives, o.splits, o.noise
	if !c.Flags().Changed("positives") {
		cfg.Positives = experiment.DefaultPositives(o.protocol)
	}
	if err := nwayFlags(c, o, &cfg); err != nil {
		return err
	}
	cfg.Seed, cfg.Workers, cfg.Shard, cfg.Check = o.seed, o.workers, sh, o.checkOnly
	if len(o.methods) > 0 {
		cfg.Methods = o.methods
	}
	if fracSet {
		cfg.NegativeFraction = o.negFraction
	}
	cfg.Data, err = loadData(o.data)
	heedSignals(c.Context())
	if err != nil {
		return badInput(err)
	}
	if o.data == embeddedCLINC150 && cfg.Name == "" {
		cfg.Name = embeddedCLINC150
	}
	cfg.NegativeClasses = negativeClasses(o.data, cfg.NegativeClasses, fracSet)

	start := time.Now()
	sum, err := runWithProgress(c, s, cfg, o.quiet)
	if err != nil {
		switch {
		case o.quiet || errors.Is(err, experiment.ErrInput):
		case sum != nil:
			fmt.Fprintf(s.err, "stopped after %s, kept with the earlier ones in %s; rerun the same command to resume\n", plural.Count(sum.Finished, "new cell", "new cells"), sum.File)
		case errors.Is(err, context.Canceled) && o.sources == "":
			fmt.Fprintf(s.err, "stopped while training the sources; the finished ones are kept in %s; rerun the same command to resume\n", filepath.Join(o.out, "sources"))
		}
		return err
	}
	if o.checkOnly {
		if !o.quiet {
			fmt.Fprintf(s.err, "checked %s: new, or a run of these settings and shard (nothing run or written)\n", o.out)
		}
		return nil
	}
	if sum.File == "" { // a shard with no cell: nothing trained or written
		if !o.quiet {
			fmt.Fprintf(s.err, "shard %v holds no cell of the grid: nothing to run, no sources trained, nothing written to %s (merge the other shards)\n", sh, o.out)
		}
		return nil
	}
	if !o.quiet {
		part := "" // an unsharded run's cells are the whole grid's
		if sh != (shard.Shard{}) {
			part = fmt.Sprintf(" (shard %v)", sh)
		}
		fmt.Fprintf(s.err, "%s%s: %d computed (%d failed), %d already present; results in %s; %s\n",
			plural.Count(sum.Cells, "cell", "cells"), part, sum.Finished, sum.Failed, sum.Present, sum.File, time.Since(start).Round(time.Millisecond))
	}
	return failedCellsError(sum)
}

// nwayFlags applies --ways, --shots and --test-per-class to cfg for
// --protocol nway (and its default methods: every multi-class method), and
// refuses them with another protocol, and --positives or --noise with
// nway.
func nwayFlags(c *cobra.Command, o *experimentOptions, cfg *experiment.Config) error {
	changed := c.Flags().Changed
	if o.protocol != experiment.ProtocolNWay {
		for _, f := range []string{"ways", "shots", "test-per-class"} {
			if changed(f) {
				return badInputf("--%s is a setting of --protocol %s", f, experiment.ProtocolNWay)
			}
		}
		return multiOnlyMethods(o)
	}
	for _, f := range []string{"positives", "noise"} {
		if changed(f) {
			return badInputf("--%s is not a setting of --protocol %s (it has --shots, and no noise)", f, experiment.ProtocolNWay)
		}
	}
	if o.testPer < 1 {
		return badInputf("--test-per-class %d: want at least 1", o.testPer)
	}
	cfg.Ways, cfg.Positives, cfg.TestPerClass = o.ways, o.shots, o.testPer
	if len(o.methods) == 0 {
		cfg.Methods = method.MultiNames()
	}
	return nil
}

// multiOnlyMethods refuses, before any data is read, a method of --methods
// that fits several classes at once and no binary labels (greedytl-nway,
// multinomial-logistic, …), which only --protocol nway runs: the other
// protocols fit one class against the others. A spec the registry does not
// know, or a malformed one, is left to the run's own check, which names
// the known methods.
func multiOnlyMethods(o *experimentOptions) error {
	for _, spec := range o.methods {
		s, err := method.ParseSpec(spec)
		if err != nil {
			continue
		}
		if r, ok := method.Registered(s.Name); ok && !r.Capabilities().Binary {
			return badInputf("--methods %s: %s is a multi-class method (it fits every class at once, not one class against the others): use --protocol %s, or leave it out of --methods", spec, s.Name, experiment.ProtocolNWay)
		}
	}
	return nil
}

// failedCellsError returns the error with which experiment and demo end
// when cells of the run failed — how many, and why: the error messages,
// without the method's name, with their counts and methods (those the
// message does not name), most frequent first —, or nil when none did. It is a failure of the work (exit status
// 1), not an input error.
func failedCellsError(sum *experiment.Summary) error {
	n := sum.FailedCells()
	if n == 0 {
		return nil
	}
	type group struct {
		msg     string
		cells   int
		methods []string
	}
	var groups []*group
	byMsg := map[string]*group{}
	for _, f := range sum.Failures {
		// The record names the method; the messages of two methods that
		// failed alike differ only by the method's name, which groups them
		// once it is left out.
		segs := slices.DeleteFunc(strings.Split(f.Message, ": "), func(s string) bool { return s == f.Method })
		msg := strings.Join(segs, ": ")
		g := byMsg[msg]
		if g == nil {
			g = &group{msg: msg}
			byMsg[msg] = g
			groups = append(groups, g)
		}
		g.cells += f.Cells
		if !slices.Contains(g.methods, f.Method) {
			g.methods = append(g.methods, f.Method)
		}
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return b.cells - a.cells })
	const show = 3
	var parts []string
	for _, g := range groups[:min(show, len(groups))] {
		slices.Sort(g.methods)
		part := fmt.Sprintf("%d × %s", g.cells, g.msg)
		if unnamed := slices.DeleteFunc(g.methods, func(m string) bool { return namesMethod(g.msg, m) }); len(unnamed) > 0 {
			part += " (" + strings.Join(unnamed, ", ") + ")"
		}
		parts = append(parts, part)
	}
	if rest := groups[min(show, len(groups)):]; len(rest) > 0 {
		cells := 0
		for _, g := range rest {
			cells += g.cells
		}
		parts = append(parts, fmt.Sprintf("%s with %s", plural.Count(cells, "cell", "cells"), plural.Count(len(rest), "other message", "other messages")))
	}
	return fmt.Errorf("%d of %s failed (%s in %s %s the error): %s", n, plural.Count(sum.Cells, "cell", "cells"), plural.Word(n, "its record", "their records"), sum.File, plural.Word(n, "carries", "carry"), strings.Join(parts, "; "))
}

// namesMethod reports whether msg holds the method name m as a word: not
// within a longer name ("greedytl" is not in "greedytl-59", nor in the
// function "greedytl.Fit").
func namesMethod(msg, m string) bool {
	isName := func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	for i := 0; ; {
		j := strings.Index(msg[i:], m)
		if j < 0 {
			return false
		}
		j += i
		r0, _ := utf8.DecodeLastRuneInString(msg[:j])
		r1, _ := utf8.DecodeRuneInString(msg[j+len(m):])
		if (j == 0 || !isName(r0)) && (j+len(m) == len(msg) || !isName(r1)) {
			return true
		}
		i = j + 1
	}
}

// runWithProgress runs the experiment cfg with its log, its notes (s.note)
// and its progress in the source training and the cells on s.err
// (progressOf; none when quiet), and its warnings, quiet or not, as the
// commands' (s.warn).
// Errors caused by the inputs are input errors (exit status 2).
func runWithProgress(c *cobra.Command, s *streams, cfg experiment.Config, quiet bool) (*experiment.Summary, error) {
	cfg.Warn = func(code, message string, classes []string) {
		s.warn(warning{Code: code, Message: message, Classes: classes})
	}
	if !quiet {
		cfg.Log = s.err
		cfg.Note = func(message string) { s.note("%s", message) }
	}
	var finishSources, finishCells func()
	cfg.SourceProgress, finishSources = phaseProgress(s, quiet, "training sources")
	cfg.Progress, finishCells = phaseProgress(s, quiet, "cells")
	sum, err := experiment.Run(c.Context(), cfg)
	finishSources()
	finishCells()
	if errors.Is(err, experiment.ErrInput) {
		return sum, badInput(err)
	}
	return sum, err
}

// loadData loads the --data argument of experiment and train-sources: the
// embedded CLINC150 or a dataset folder.
func loadData(arg string) (*dataset.Folder, error) {
	if arg == embeddedCLINC150 {
		return clinc150.Load(clinc150.Options{})
	}
	f, err := dataset.OpenFolder(arg)
	if err != nil {
		return nil, err
	}
	// The absolute path, for run.json (informational: a shard or a
	// resumed run may find the data elsewhere).
	if f.Dir, err = filepath.Abs(arg); err != nil {
		return nil, err
	}
	return f, nil
}

// negativeClasses returns the negative classes to hold out on the --data
// argument data: those named by --negative-classes or, for the embedded
// CLINC150 when neither --negative-classes nor --negative-fraction
// (fractionSet) is given, its out-of-scope class.
func negativeClasses(data string, named []string, fractionSet bool) []string {
	if data == embeddedCLINC150 && len(named) == 0 && !fractionSet {
		return []string{clinc150.OOS}
	}
	return named
}

// progressOf returns the progress callback of the phase what of a long
// command (train-sources, experiment, synth, a multi-class fit) on s.err:
// a bar on a terminal (barProgress), else plain lines (lineProgress), so
// that a log that is not a terminal (a Slurm job's) shows the work going
// on between the command's first and last lines.
func progressOf(s *streams, bar **progressbar.ProgressBar, what string) func(done, total int) {
	if isTerminal(s.err) {
		return barProgress(s, bar, what)
	}
	return lineProgress(s.err, what, progressClock)
}

// fitProgressWhat is the phase that progressOf names for the progress of a
// fit of the method spec (method.Extra.Progress): "fitting NAME", NAME
// the method's name without its options (no colon: a progress line is
// "what: …", as the Python package reads it).
func fitProgressWhat(spec string) string {
	name, _, _ := strings.Cut(spec, ":")
	return "fitting " + name
}

// phaseProgress returns the progress callback of the phase what of a long
// command (a fit's Extra.Progress, synth's, train-sources', experiment's)
// on s.err (progressOf), nil when quiet, and the function to call when the
// phase's work returns, which finishes its bar, so that a message starts
// on a clean line.
func phaseProgress(s *streams, quiet bool, what string) (progress func(done, total int), finish func()) {
	if quiet {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	return progressOf(s, &bar, what), func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
}

// progressClock is lineProgress's clock in progressOf; a variable only so
// that a test can make the minutes pass.
var progressClock = time.Now

// lineProgress returns a progress callback writing a plain line on w,
// "what: DONE of TOTAL done (P%), ELAPSED", when both a tenth of the total
// more is done and a minute has passed since the last line (or the
// start): at most ten lines a phase and one a minute, none for a phase
// that ends within the minute. now is the clock. The Python package
// passes these lines on (python/greedytl/_cli.py's _PROGRESS_LINE
// recognises them: change both together).
func lineProgress(w io.Writer, what string, now func() time.Time) func(done, total int) {
	start := now()
	last, lastDone := start, 0
	return func(done, total int) {
		t := now()
		if total <= 0 || 10*(done-lastDone) < total || t.Sub(last) < time.Minute {
			return
		}
		last, lastDone = t, done
		fmt.Fprintf(w, "%s: %d of %d done (%d%%), %s\n", what, done, total, 100*done/total, t.Sub(start).Round(time.Second))
	}
}

// barProgress returns a progress callback drawing a bar (with a count and
// the time left) on s.err, created on the first call and cleared when done
// reaches total, so that the next bar or message starts on a clean line.
// On a terminal too narrow for its line (barFits) it draws nothing until
// the terminal is widened.
func barProgress(s *streams, bar **progressbar.ProgressBar, what string) func(done, total int) {
	return func(done, total int) {
		if *bar == nil {
			if !barFits(s.err, what, total) {
				return
			}
			*bar = newBar(s.err, total, what, progressbar.OptionSetPredictTime(true))
		}
		_ = (*bar).Set(done)
		if done == total {
			_ = (*bar).Finish()
		}
	}
}

// newBar returns the commands' progress bar on w, counting to total (-1: a
// spinner, the count unknown), described by what, showing its count and
// cleared when finished; opts add to these. It is drawn in ASCII
// ("[===>...]") where the locale says the terminal is not UTF-8
// (utf8Locale), in blocks ("|███   |") otherwise.
func newBar(w io.Writer, total int, what string, opts ...progressbar.Option) *progressbar.ProgressBar {
	all := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
	}
	if !utf8Locale() {
		all = append(all, progressbar.OptionSetTheme(progressbar.ThemeASCII))
	}
	return progressbar.NewOptions(total, append(all, opts...)...)
}

// utf8Locale reports whether the locale of the environment leaves
// the terminal UTF-8: the first set of LC_ALL, LC_CTYPE and LANG, which
// decides the character set as setlocale reads them, names UTF-8
// ("en_US.UTF-8", "C.utf8"), or none is set (nothing says otherwise).
// "C", "POSIX" or another character set ("de_DE.ISO-8859-1") is not.
func utf8Locale() bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := strings.ToLower(os.Getenv(name)); v != "" {
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return true
}
