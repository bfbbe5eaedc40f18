package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/source"
)

type trainSourcesOptions struct {
	dataJob // --data, --out, the negative pool, --seed, --workers, --shard, --quiet
	solver  solverValue
	bias    float64
	eps     float64
	grid    []float64
	folds   int
	l1Ratio float64
}

func newTrainSourcesCmd(s *streams) *cobra.Command {
	def := source.DefaultTrainConfig()
	o := &trainSourcesOptions{solver: solverValue{def.Solver}}
	c := &cobra.Command{
		Use:   "train-sources --data DIR|clinc150 --out SOURCES [flags]",
		Short: "Train one linear source classifier per class of a dataset folder",
		Long: `Train-sources runs the paper's source training on a dataset folder
(features.npy, labels.npy, classes.txt), or on the embedded CLINC150 with
--data clinc150 (whose "oos" class is then the negative pool unless told
otherwise). A negative pool is held out — the classes named by
--negative-classes, or a random --negative-fraction of the classes — and its
examples are split 90%/10% into source negatives and target negatives.
Every other class gets a source: a linear SVM (liblinear -s 1 -B 1 by
default) of its examples against the source negatives, with the C of
--c-grid that has the best cross-validated balanced accuracy (--folds folds),
refitted on all of them.

SOURCES receives models/<class>-<name>.model (liblinear model files named by
the class index and name, e.g. models/1-obj2.model), a sidecar
record per model, and the index sources.json (the negative plan with its
target-negative rows, the settings, and per source its C, CV score,
number of positives, and its scores' mean and standard deviation over the
rows it was trained on, with which greedytl-nway standardises the source
scores). SOURCES must not be a run directory of experiment
(one holding run.json, or, before a run writes it, the run's lock file and
sources/), as experiment's --out must not be a sources directory: a run trains its own sources into RUN/sources, or reads those
of train-sources with --sources. A class with a single example still gets
a source, trained on it, but cross-validation cannot score it (its one example is
tested only by a fit trained on negatives alone): its C and CV score mean
nothing, and train-sources and experiment warn of such classes, naming them.
A class of classes.txt that no label uses gets no source, and a source with
fewer examples than --folds is cross-validated leave-one-out (as many folds
as examples, as liblinear-train does; sources.json records the --folds
given): train-sources and experiment warn of both, naming the classes.
Everything is seeded by --seed: the same command gives the same model files
and index (the sidecars record timings too), on any number of --workers.

The job resumes: rerun the same command after an interruption and only
unfinished classes are trained. It shards: --shard i/n trains the classes c
with c mod n = i, so n processes (on one machine or a cluster, sharing SOURCES)
split the work; --shard auto/n takes i from JOB_COMPLETION_INDEX (Kubernetes
Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm, with --array=0-(n-1)). Each shard
writes the index of the sources done so far; after all shards finish, one more
run (any shard, or none) trains nothing and writes the complete index. Shards
of one n run side by side; a run without --shard, or a shard of another n
(which splits the classes otherwise), is refused while they run.`,
		Example: `  greedytl train-sources --data coil100/hog --out coil100-sources
  greedytl train-sources --data clinc150 --out clinc-sources          # "oos" is the negative pool
  greedytl train-sources --data coil100/hog --out src --shard auto/8   # in each of 8 array tasks`,
		RunE: func(c *cobra.Command, _ []string) error { return runTrainSources(c, s, o) },
	}
	fl := c.Flags()
	fl.StringVar(&o.data, "data", "", "dataset folder (features.npy, labels.npy, classes.txt), or clinc150 for the embedded CLINC150 (required)")
	fl.StringVar(&o.out, "out", "", "sources directory to write (required; created if absent)")
	dirFlags(fl, "data", "out")
	classesVar(fl, &o.negClasses, "negative-classes", "names of the classes pooled as negatives (comma-separated)")
	numberVarP(c, &o.negFraction, "negative-fraction", "", source.DefaultNegativeFraction, "fraction of the classes drawn at random as negatives (without --negative-classes)")
	uint64Var(fl, &o.seed, "seed", def.Seed, "seed of the negative pool, the folds and the solver")
	fl.VarP(&o.solver, "solver", "s", solverHelp())
	numberVarP(c, &o.bias, "bias", "B", def.Bias, "if > 0, append a constant feature of this value (liblinear -B); ≤ 0, 0 included: no bias feature, the models say \"bias -1\" (unlike train -B 0 and liblinear-train -B 0, which append a feature of zeros)")
	numberVarP(c, &o.eps, "eps", "e", def.Eps, "stopping tolerance (0: liblinear's default for the solver)")
	o.grid = def.Grid
	fl.Var((*floatList)(&o.grid), "c-grid", "candidate values of C, comma-separated")
	intVarP(fl, &o.folds, "folds", "", def.Folds, "cross-validation folds that choose C")
	addL1RatioFlag(c, &o.l1Ratio)
	workersVar(c, &o.workers, "classes trained at once")
	fl.StringVar(&o.shard, "shard", "", "train only shard i of n: i/n, or auto/n to read i from the environment")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "no progress (a bar on a terminal, else a line per tenth of the work and minute) or summary")
	return c
}

func runTrainSources(c *cobra.Command, s *streams, o *trainSourcesOptions) error {
	sh, err := o.check(c, "SOURCES")
	if err != nil {
		return err
	}
	if holds := experiment.RunDirHolds(o.out); holds != "" {
		return badInputf("train-sources: %s is a run directory of greedytl experiment (it holds %s), not a sources directory: the sources would be mixed with the run's files; give another directory as --out, and it to experiment as --sources (a run without --sources trains its own into %s)",
			o.out, holds, filepath.Join(o.out, "sources"))
	}
	l1Ratio, err := solverL1Ratio(c, o.solver.s, o.l1Ratio)
	if err != nil {
		return err
	}
	cfg := source.TrainConfig{Solver: o.solver.s, Bias: o.bias, Eps: o.eps, Grid: o.grid, Folds: o.folds, Seed: o.seed, L1Ratio: l1Ratio}
	if err := cfg.Check(); err != nil {
		return badInput(err)
	}
	// Before the data are read and the sources trained (see checkOutDir),
	// after the flags' errors and a run directory's (exit 2), which a
	// write's would hide.
	if err := atomicfile.CheckDir(o.out); err != nil {
		return err
	}
	f, err := loadData(o.data)
	heedSignals(c.Context())
	if err != nil {
		return badInput(err)
	}
	named := negativeClasses(o.data, o.negClasses, c.Flags().Changed("negative-fraction"))
	neg, err := source.PlanNegatives(f, named, o.negFraction, o.seed)
	if err != nil {
		return badInput(err)
	}

	opts := source.RunOptions{Workers: o.workers, Shard: sh}
	var finish func()
	opts.Progress, finish = phaseProgress(s, o.quiet, "training sources")
	start := time.Now()
	res, err := source.TrainAll(c.Context(), f, neg, o.out, cfg, opts)
	finish()
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted; the finished sources are kept in %s: run the same command again to resume (%w)", o.out, err)
	case errors.Is(err, source.ErrOtherJob):
		return badInput(err)
	case err != nil:
		return err
	}
	index := filepath.Join(o.out, source.IndexFile)
	if !o.quiet {
		summarizeSources(s, res, index, time.Since(start))
	}
	// A warning is not the summary: --quiet keeps it.
	for _, w := range res.Index.Warnings(index) {
		s.warn(warning{Code: w.Code, Message: w.Message, Classes: w.Classes})
	}
	return nil
}

// summarizeSources prints the end-of-run summary line: the sources, the
// classes of the negative pool (which have none) and how they were chosen,
// the mean CV score and the time taken.
func summarizeSources(s *streams, res *source.Result, index string, wall time.Duration) {
	ix := res.Index
	var cv float64
	for _, e := range ix.Sources {
		cv += e.CVScore
	}
	line := fmt.Sprintf("%s in %s (%d trained, %d reused", plural.Count(len(ix.Sources), "source", "sources"), index, res.Trained, res.Reused)
	if len(ix.Missing) > 0 {
		line += fmt.Sprintf(", %s still missing", plural.Count(len(ix.Missing), "class", "classes"))
	}
	line += ")"
	if neg := ix.Negatives; neg != nil && len(neg.Classes) > 0 {
		names := neg.Names(ix.Classes)
		how := "drawn at random"
		if neg.Named {
			how = "named"
		}
		line += fmt.Sprintf("; negative pool (no source): %s, %s", nameList(names), how)
	}
	if len(ix.Sources) > 0 {
		line += "; mean CV balanced accuracy " + strconv.FormatFloat(cv/float64(len(ix.Sources)), 'f', 3, 64)
	}
	fmt.Fprintf(s.err, "%s; %s\n", line, wall.Round(time.Millisecond))
}
