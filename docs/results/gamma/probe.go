//go:build ignore

// Probe runs the leave-one-class-out protocol (package experiment) with one
// method, "probe", that records for every cell and every setting (γ, λ) of
// γ ∈ {0, 0.1, 0.25, 0.5, 0.75, 1} × λ ∈ {1e-4, …, 1e4}:
//
//	acc/g=G/l=L      the test balanced accuracy of GreedyTL (γ = G, λ = L)
//	                 fitted on the whole training set (read from the
//	                 oracle, the test set: for analysis only)
//	loo01/g=G/l=L    the class-balanced nested leave-one-out 0-1 error
//	loomse/g=G/l=L   the class-balanced nested leave-one-out squared residual
//	pathloo/g=G/l=L  GreedyTL's own path LOO error of the whole-sample fit
//
// as the record's hyperparameters (a key is absent when its fit failed), so
// that summarise.py can replay any selection rule on any sub-grid: this is
// how greedytl-auto's grid and rule were compared (README.md). The nested
// leave-one-out is greedytl-auto's: refit without example i (standardised
// anew), predict i; 0 when i is its class's only example.
//
// Usage (from the repository root):
//
//	go run docs/results/gamma/probe.go -data DIR|clinc150 [-name NAME] [-sources SRC] -out RUN \
//	    [-seed 1] [-splits 10] [-targets T1,T2,…]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"maps"
	"math"
	"os"
	"strings"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"gonum.org/v1/gonum/mat"
)

var (
	gammas  = []float64{0, 0.1, 0.25, 0.5, 0.75, 1}
	lambdas = []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4}
)

type probe struct{}

func (probe) Name() string        { return "probe" }
func (probe) Needs() method.Needs { return method.Needs{Oracle: true} }

// probeModel is GreedyTL's default model with the probe's statistics as its
// hyperparameters.
type probeModel struct {
	method.Model
	stats map[string]float64
}

func (p probeModel) Method() string                      { return "probe" }
func (p probeModel) Hyperparameters() map[string]float64 { return maps.Clone(p.stats) }

// rows returns the rows keep of a as a new matrix (nil when a is absent:
// no features or no sources).
func rows(a mat.Matrix, keep []int) mat.Matrix {
	if inputcheck.Absent(a) {
		return nil
	}
	_, c := a.Dims()
	b := mat.NewDense(len(keep), c, nil)
	for k, r := range keep {
		for j := range c {
			b.Set(k, j, a.At(r, j))
		}
	}
	return b
}

// balanced returns the class-balanced 0-1 error and squared residual of
// predictions f of labels y (a score of 0 counts as negative).
func balanced(y, f []float64) (e01, mse float64) {
	var n [2]float64
	var e, l [2]float64
	for i, v := range f {
		c := 0
		if y[i] > 0 {
			c = 1
		}
		n[c]++
		l[c] += (y[i] - v) * (y[i] - v)
		if (v > 0) != (y[i] > 0) {
			e[c]++
		}
	}
	return (e[0]/n[0] + e[1]/n[1]) / 2, (l[0]/n[0] + l[1]/n[1]) / 2
}

func (probe) Fit(ctx context.Context, train method.Data, extra method.Extra) (method.Model, error) {
	m := len(train.Y)
	count := map[float64]int{}
	for _, v := range train.Y {
		count[v]++
	}
	test := extra.Oracle
	stats := map[string]float64{}
	for _, g := range gammas {
		for _, l := range lambdas {
			o := greedytl.DefaultOptions()
			o.FeatureFactor, o.Lambda = g, l
			key := fmt.Sprintf("g=%g/l=%g", g, l)
			if gm, err := greedytl.Fit(ctx, train.X, train.H, train.Y, o); err == nil {
				f, err := gm.Predict(test.X, test.H)
				if err != nil {
					return nil, err
				}
				if stats["acc/"+key], err = metric.BalancedAccuracy(f, test.Y); err != nil {
					return nil, err
				}
				stats["pathloo/"+key] = 1
				if k := len(gm.Path); k > 0 {
					stats["pathloo/"+key] = gm.Path[k-1].LOOError
				}
			} else if ctx.Err() != nil {
				return nil, err
			}
			pred := make([]float64, m)
			ok := true
			for i := 0; i < m && ok; i++ {
				if count[train.Y[i]] == 1 {
					continue // f₋ᵢ = 0
				}
				keep := make([]int, 0, m-1)
				for r := range m {
					if r != i {
						keep = append(keep, r)
					}
				}
				y := make([]float64, 0, m-1)
				for _, r := range keep {
					y = append(y, train.Y[r])
				}
				gi, err := greedytl.Fit(ctx, rows(train.X, keep), rows(train.H, keep), y, o)
				if err != nil {
					if ctx.Err() != nil {
						return nil, err
					}
					ok = false
					break
				}
				f, err := gi.Predict(rows(train.X, []int{i}), rows(train.H, []int{i}))
				if err != nil {
					return nil, err
				}
				pred[i] = f[0]
			}
			if ok {
				stats["loo01/"+key], stats["loomse/"+key] = balanced(train.Y, pred)
			}
		}
	}
	for k, v := range stats {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(stats, k)
		}
	}
	meth, err := method.New("greedytl")
	if err != nil {
		return nil, err
	}
	model, err := meth.Fit(ctx, train, method.Extra{Seed: extra.Seed})
	if err != nil {
		return nil, err
	}
	return probeModel{model, stats}, nil
}

func main() {
	data := flag.String("data", "", "dataset folder, or clinc150")
	name := flag.String("name", "", "the dataset's name in the records")
	src := flag.String("sources", "", "sources directory (default: train into RUN/sources)")
	out := flag.String("out", "", "run directory")
	seed := flag.Uint64("seed", 1, "seed")
	splits := flag.Int("splits", 10, "splits")
	targets := flag.String("targets", "", "target classes, comma-separated (default: all)")
	flag.Parse()
	method.Register(method.Registration{
		Name: "probe", Description: "records every (γ, λ)'s test accuracy and leave-one-out errors",
		New:    func() method.Method { return probe{} },
		Decode: func(json.RawMessage) (method.Model, error) { return nil, errors.New("probe models have no file") },
	})
	cfg := experiment.DefaultConfig()
	cfg.Out, cfg.Sources, cfg.Methods, cfg.Splits, cfg.Seed, cfg.Name = *out, *src, []string{"probe"}, *splits, *seed, *name
	cfg.Log = os.Stderr
	if *targets != "" {
		cfg.Targets = strings.Split(*targets, ",")
	}
	var err error
	if *data == "clinc150" {
		cfg.Data, err = clinc150.Load(clinc150.Options{})
		cfg.NegativeClasses = []string{clinc150.OOS}
		if cfg.Name == "" {
			cfg.Name = "clinc150"
		}
	} else {
		cfg.Data, err = dataset.LoadFolder(*data)
	}
	if err != nil {
		log.Fatal(err)
	}
	sum, err := experiment.Run(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d cells: %d computed (%d failed), %d already present\n", sum.Cells, sum.Finished, sum.Failed, sum.Present)
}
