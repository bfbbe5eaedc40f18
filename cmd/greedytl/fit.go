package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/atomicfile"
)

type fitOptions struct {
	data          dataFlags
	lambda        lambdaValue
	delta         float64
	maxK          int
	featureFactor float64
	sample        int
	seed          uint64
	stopAtMinLOO  bool
	out           string
}

func newFitCmd(s *streams) *cobra.Command {
	def := greedytl.DefaultOptions()
	o := &fitOptions{lambda: lambdaValue{v: def.Lambda}}
	c := &cobra.Command{
		Use:   "fit --features X --labels Y [--source-scores H] --out model.json",
		Short: "Fit a GreedyTL target model",
		Long: `Fit selects, greedily, the columns of [X H] (target features and source scores)
that most reduce the L2-regularised squared error on the training examples,
and writes the model (selected columns, weights, standardisation, the error
path) as JSON.

Columns are standardised with the training mean and standard deviation;
--feature-factor scales feature columns relative to source columns (1 = the
paper, 0 = sources only). Selection stops when the mean regularised error
improves by less than --delta, after --max-k columns, or at the step with the
lowest leave-one-out error (--stop-at-min-loo). --sample 59 is GreedyTL-59.`,
		Example: `  greedytl fit --features X.npy --source-scores H.npy --labels y.txt --out model.json
  greedytl fit --features X.csv --labels y.csv --positive cat --lambda auto --out model.json
  greedytl fit --source-scores H.npy --labels y.npy --sample 59 --seed 7 --out model.json`,
		RunE: func(c *cobra.Command, _ []string) error { return runFit(c, s, o) },
	}
	o.data.register(c, "training labels y, one per example (.npy or text/CSV)")
	fl := c.Flags()
	fl.Var(&o.lambda, "lambda", "ridge regularisation λ > 0, or auto (leave-one-out over 1e-4…1e4)")
	fl.Float64Var(&o.delta, "delta", def.Delta, "stop when the mean regularised error improves by less than this")
	fl.IntVar(&o.maxK, "max-k", 0, "select at most this many columns (0: no limit)")
	fl.Float64Var(&o.featureFactor, "feature-factor", def.FeatureFactor, "scale of feature columns relative to source columns (γ ≥ 0)")
	fl.IntVar(&o.sample, "sample", 0, "randomised search: score this many random candidates a step (59: GreedyTL-59; 0: exact)")
	fl.Uint64Var(&o.seed, "seed", 1, "seed of the randomised search")
	fl.BoolVar(&o.stopAtMinLOO, "stop-at-min-loo", false, "keep the prefix of the path with the lowest leave-one-out error")
	fl.StringVarP(&o.out, "out", "o", "", "write the model here (default: standard output)")
	_ = c.MarkFlagRequired("labels")
	return c
}

func runFit(c *cobra.Command, s *streams, o *fitOptions) error {
	X, H, err := o.data.load(s)
	if err != nil {
		return err
	}
	y, err := o.data.loadLabels(rows(X, H))
	if err != nil {
		return err
	}
	opts := greedytl.DefaultOptions()
	opts.Lambda, opts.AutoLambda = o.lambda.v, o.lambda.auto
	opts.Delta, opts.MaxK, opts.FeatureFactor = o.delta, o.maxK, o.featureFactor
	opts.Sample, opts.Seed, opts.StopAtMinLOO = o.sample, o.seed, o.stopAtMinLOO
	model, err := greedytl.Fit(c.Context(), optionalMatrix(X), optionalMatrix(H), y, opts)
	if err != nil {
		if c.Context().Err() != nil {
			return err
		}
		return badInput(err)
	}
	if o.out == "" {
		return model.WriteJSON(s.out)
	}
	if err := atomicfile.Write(o.out, func(w io.Writer) error { return model.WriteJSON(w) }); err != nil {
		return err
	}
	fmt.Fprintf(s.err, "selected %d of %d columns; model written to %s\n", len(model.Selected), model.NumFeatures+model.NumSources, o.out)
	return nil
}
