package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/synth"
)

type synthOptions struct {
	out   string
	cfg   synth.Config
	quiet bool
}

func newSynthCmd(s *streams) *cobra.Command {
	o := &synthOptions{cfg: synth.DefaultConfig()}
	o.cfg.Groups = 0 // min(10, --classes) unless given: see runSynth
	c := &cobra.Command{
		Use:   "synth --out DIR [flags]",
		Short: "Write a synthetic dataset folder with a known transfer structure",
		Long: `Synth writes a dataset folder — features.npy (float32), labels.npy,
classes.txt, groups.txt — of --classes classes with --per-class examples each
in --dims dimensions. The classes are split into --groups semantic groups
(consecutive classes form a group; by default 10, or one a class when there
are fewer than 10 classes) and drawn around their group's centre:
example = group centre + class offset + N(0, 1) noise, with centres about
5.7 and classes of a group about 2.1 noise units apart whatever --dims. The
sources of a target's own group are therefore the ones that transfer, which
the transferability matrices of "greedytl report" show as blocks.

Use it to try train-sources, experiment and a cluster set-up before the real
features exist, or to measure cost at a given size: the files are streamed to
disk as they are drawn, so the memory needed does not grow with the data set —
about a megabyte for the paper's ImageNet shape (1,000 classes, 4,096
dimensions; a process of about 15 MB), at most 64 MiB for any --dims: a
class mean of up to 8,388,608 dimensions is kept in memory (a process of
about 85 MB at that size); beyond that it is drawn again for every example,
which takes about three times as long. The same flags give the same
files. Synth checks that the files fit in the free disk space before it
starts, writes them into a temporary directory inside --out and moves them
into place at the end, so an interrupted or failed run leaves nothing behind
(but a run killed outright, by SIGKILL, leaves its temporary directory,
which a later synth into --out names on standard error, with its size, and
never removes: it cannot tell it from a run at work). It refuses to
overwrite an existing dataset folder.`,
		Example: `  greedytl synth --out synth100
  greedytl synth --out imagenet-shape --classes 1000 --per-class 130 --dims 4096 --groups 50   # 2.1 GB
  greedytl train-sources --data synth100 --out synth100-sources`,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("groups") {
				o.cfg.Groups = synth.DefaultGroups(o.cfg.Classes)
			}
			heedSignals(c.Context()) // it reads no input
			return runSynth(c.Context(), s, o)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.out, "out", "o", "", "dataset folder to write (required; created if absent)")
	dirFlags(fl, "out")
	intVarP(fl, &o.cfg.Classes, "classes", "", o.cfg.Classes, "number of classes")
	intVarP(fl, &o.cfg.PerClass, "per-class", "", o.cfg.PerClass, "examples per class")
	intVarP(fl, &o.cfg.Dims, "dims", "", o.cfg.Dims, "feature dimensions")
	intVarP(fl, &o.cfg.Groups, "groups", "", o.cfg.Groups, "semantic groups the classes are split into (default: 10, at most --classes)")
	uint64Var(fl, &o.cfg.Seed, "seed", o.cfg.Seed, "seed of every draw")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "no progress (a bar on a terminal, else a line per tenth of the work and minute) or summary")
	return c
}

func runSynth(ctx context.Context, s *streams, o *synthOptions) error {
	if o.out == "" {
		return badInputf("give --out DIR (see 'greedytl synth --help')")
	}
	if err := checkOutDir(o.out); err != nil {
		return err
	}
	cfg := o.cfg
	if err := cfg.Check(); err != nil {
		return badInput(err)
	}
	// Before the features are drawn (see checkOutDir), after the flags'
	// errors (exit 2), which a write's would hide.
	if err := atomicfile.CheckDir(o.out); err != nil {
		return err
	}
	// Not a summary: --quiet keeps it (a killed synth's folder may hold
	// gigabytes, and counts against the free space Write needs).
	for _, l := range synth.Leftovers(o.out) {
		s.note("%s is the temporary folder of a synth at work or killed outright (SIGKILL): remove it if no synth is writing into %s", l, o.out)
	}
	var finish func()
	cfg.Progress, finish = phaseProgress(s, o.quiet, "writing features")
	start := time.Now()
	err := synth.Write(ctx, o.out, cfg)
	finish()
	switch {
	case errors.Is(err, fs.ErrExist), errors.Is(err, synth.ErrNoSpace):
		return badInput(err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted; nothing was left in %s: run the same command again (%w)", o.out, err)
	case err != nil:
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.err, "%s: %s in %s, %s × %s (%.1f MB of float32 features); %s\n",
			o.out, plural.Count(cfg.Classes, "class", "classes"), plural.Count(cfg.Groups, "group", "groups"), plural.Count(cfg.Rows(), "example", "examples"), plural.Count(cfg.Dims, "dimension", "dimensions"), float64(cfg.FeatureBytes())/1e6, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
