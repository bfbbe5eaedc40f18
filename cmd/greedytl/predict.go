package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/metric"
)

type predictOptions struct {
	data  dataFlags
	model string
	out   string
}

func newPredictCmd(s *streams) *cobra.Command {
	o := &predictOptions{}
	c := &cobra.Command{
		Use:   "predict --model model.json --features X [--source-scores H] [--labels Y] [--out scores.csv]",
		Short: "Score examples with a fitted model",
		Long: `Predict writes one score per example, one per line (positive: the positive
class). Only the columns the model selected are used, but X and H must have the
column counts the model was trained with. With --labels it also prints the
class-balanced accuracy, (TPR + TNR)/2, of the score signs — on standard
output when the scores go to --out, else on standard error.`,
		Example: `  greedytl predict --model model.json --features Xtest.npy --source-scores Htest.npy > scores.txt
  greedytl predict --model model.json --features Xtest.npy --labels ytest.txt --out scores.csv`,
		RunE: func(c *cobra.Command, _ []string) error { return runPredict(s, o) },
	}
	o.data.register(c, "true labels; prints the class-balanced accuracy")
	c.Flags().StringVarP(&o.model, "model", "m", "", "model file written by greedytl fit (required)")
	c.Flags().StringVarP(&o.out, "out", "o", "", "write the scores here (default: standard output)")
	_ = c.MarkFlagRequired("model")
	return c
}

func runPredict(s *streams, o *predictOptions) error {
	model, err := readModelFile(o.model)
	if err != nil {
		return err
	}
	X, H, err := o.data.load(s)
	if err != nil {
		return err
	}
	scores, err := model.Predict(optionalMatrix(X), optionalMatrix(H))
	if err != nil {
		return badInput(err)
	}
	var y []float64
	if o.data.labels != "" {
		if y, err = o.data.loadLabels(len(scores)); err != nil {
			return err
		}
	}
	write := func(w io.Writer) error {
		buf := make([]byte, 0, 32)
		for _, v := range scores {
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	report := s.err
	if o.out == "" {
		if err := write(s.out); err != nil {
			return err
		}
	} else {
		if err := atomicfile.Write(o.out, write); err != nil {
			return err
		}
		report = s.out
	}
	if y != nil {
		acc, err := metric.BalancedAccuracy(scores, y)
		if err != nil {
			return badInput(err)
		}
		fmt.Fprintf(report, "balanced accuracy: %.4f (%d examples)\n", acc, len(y))
	}
	return nil
}
