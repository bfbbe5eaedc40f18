package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/source"
	"github.com/greedytl/greedytl/sparse"
)

// solverValue is a -s flag: a linear classifier given by liblinear number
// (1), liblinear name (L2R_L2LOSS_SVC_DUAL, any case) or, for greedytl's
// own learners, a short name (elastic-net).
type solverValue struct{ s linear.Solver }

// solverAliases are the short names of learners liblinear lacks.
var solverAliases = map[string]linear.Solver{
	"elastic-net": linear.ElasticNetLR,
	"elasticnet":  linear.ElasticNetLR,
}

func (v *solverValue) String() string { return strconv.Itoa(int(v.s)) }

func (v *solverValue) Type() string { return "solver" }

func (v *solverValue) Set(arg string) error {
	var s linear.Solver
	if strings.EqualFold(arg, "ridge") {
		return fmt.Errorf("solver %q is a regressor; train fits classifiers", arg)
	}
	if n, err := parseWhole(arg); err == nil {
		s = linear.Solver(n)
	} else if a, ok := solverAliases[strings.ToLower(arg)]; ok {
		s = a
	} else if s, err = linear.ParseSolver(strings.ToUpper(strings.ReplaceAll(arg, "-", "_"))); errors.Is(err, linear.ErrNotImplemented) {
		return fmt.Errorf("solver %q: %w", arg, err)
	} else if err != nil {
		return fmt.Errorf("unknown solver %q", arg)
	}
	if err := (linear.Params{Solver: s}).Check(); err != nil {
		return fmt.Errorf("solver %q: %w", arg, err)
	}
	v.s = s
	return nil
}

// classWeights is train's --weight flag, liblinear-train's -wLABEL WEIGHT
// (liblinearWeightArgs rewrites that spelling into this one): the factor
// of C for each class label given.
type classWeights struct {
	byClass map[int]float64
	// twice is the first class given a weight again (nil: none), which
	// check refuses when the command runs, not Set: cobra parses a
	// completion request's flags twice, where Set refused every weight
	// as given twice and the completion failed.
	twice *int
}

func (w *classWeights) String() string {
	var parts []string
	for _, l := range slices.Sorted(maps.Keys(w.byClass)) {
		parts = append(parts, fmt.Sprintf("%d:%g", l, w.byClass[l]))
	}
	return strings.Join(parts, ",")
}

func (w *classWeights) Type() string { return "LABEL:WEIGHT" }

func (w *classWeights) Set(arg string) error {
	label, weight, ok := strings.Cut(arg, ":")
	if !ok {
		return fmt.Errorf("no weight for class %s: give -w%s WEIGHT, as liblinear-train takes it, or --weight %s:WEIGHT", arg, arg, arg)
	}
	l, err := parseWhole(label)
	if err != nil {
		return fmt.Errorf("class label: %w", err)
	}
	v, err := parseNumber(weight, aNumber)
	if err != nil {
		return fmt.Errorf("weight of class %d: %w", l, err)
	}
	if _, dup := w.byClass[l]; dup {
		if w.twice == nil {
			w.twice = &l
		}
		return nil
	}
	if w.byClass == nil {
		w.byClass = map[int]float64{}
	}
	w.byClass[l] = v
	return nil
}

// check refuses a class given a weight twice.
func (w *classWeights) check() error {
	if w.twice != nil {
		l := *w.twice
		return fmt.Errorf("--weight: class %d given a weight twice (-w%d or --weight %d:WEIGHT): give each class one weight", l, l, l)
	}
	return nil
}

// liblinearWeight matches liblinear-train's class weight option, -wLABEL
// (its label an integer, as liblinear's atoi reads it), followed by the
// weight as the next argument.
var liblinearWeight = regexp.MustCompile(`^-w([+-]?[0-9]+)$`)

// liblinearWeightArgs returns train's command line args with liblinear's
// class weights, "-wLABEL WEIGHT" (-w1 5, -w-1 2), rewritten as
// "--weight=LABEL:WEIGHT": pflag would read -w1 as a shorthand -w of value
// 1 and the weight as an argument. Arguments after "--" are left alone, and
// so is the value of a flag of fl that takes one (--out -w1 names a file);
// a -wLABEL without a weight after it becomes --weight=LABEL, which
// classWeights refuses saying so — or, when completing (args are a
// completion request's words before the one being completed), --weight,
// whose value is the word completed: a weight, of which the shell is
// offered none, where cobra, refusing --weight=LABEL, offered the
// directory's files.
func liblinearWeightArgs(args []string, fl *pflag.FlagSet, completing bool) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		m := liblinearWeight.FindStringSubmatch(a)
		switch {
		case m == nil && takesValue(fl, a) && i+1 < len(args):
			out = append(out, a, args[i+1])
			i++
		case m == nil:
			out = append(out, a)
		case i+1 == len(args) && completing:
			out = append(out, "--weight")
		case i+1 == len(args):
			out = append(out, "--weight="+m[1])
		default:
			out = append(out, "--weight="+m[1]+":"+args[i+1])
			i++
		}
	}
	return out
}

// takesValue reports whether the argument a is a flag of fl that takes
// its value from the next argument: --name without "=" of a flag that
// takes a value, or shorthands -xyz read as pflag reads them (each letter
// a flag; the first that takes a value takes the rest of a as its value,
// or the next argument when it is the last letter).
func takesValue(fl *pflag.FlagSet, a string) bool {
	switch {
	case strings.HasPrefix(a, "--"):
		f := fl.Lookup(a[2:])
		return !strings.Contains(a, "=") && f != nil && f.NoOptDefVal == ""
	case len(a) < 2 || a[0] != '-':
		return false
	}
	for k := 1; k < len(a); k++ {
		f := fl.ShorthandLookup(a[k : k+1])
		switch {
		case f == nil:
			return false
		case f.NoOptDefVal == "":
			return k == len(a)-1
		case k+1 < len(a) && a[k+1] == '=':
			return false
		}
	}
	return false
}

// addL1RatioFlag adds --l1-ratio, the elastic-net mixing of -s 100, to c.
func addL1RatioFlag(c *cobra.Command, l1Ratio *float64) {
	numberVarP(c, l1Ratio, "l1-ratio", "", linear.DefaultL1Ratio, "elastic-net mixing (-s 100): weight of the L1 penalty, in [0, 1]")
}

// solverL1Ratio returns the L1 ratio of solver's linear.Params: the
// --l1-ratio flag's value for -s 100 (elastic-net), 0 for the other
// solvers, which have none; an input error when the flag was given with
// one of them.
func solverL1Ratio(c *cobra.Command, solver linear.Solver, l1Ratio float64) (float64, error) {
	switch {
	case solver == linear.ElasticNetLR:
		return l1Ratio, nil
	case c.Flags().Changed("l1-ratio"):
		return 0, badInputf("--l1-ratio applies to -s 100 (elastic-net), not -s %d", solver)
	}
	return 0, nil
}

// solverGloss says in words what a solver fits, for the help texts.
var solverGloss = map[linear.Solver]string{
	linear.L2RLR:            "logistic",
	linear.L2RL2LossSVCDual: "squared hinge, dual",
	linear.L2RL2LossSVC:     "squared hinge, primal",
	linear.L2RL1LossSVCDual: "hinge, dual",
	linear.L1RL2LossSVC:     "L1 squared hinge",
	linear.L1RLR:            "L1 logistic",
	linear.L2RLRDual:        "logistic, dual",
}

// solverHelp lists the solvers for the help texts: linear.Solvers, each
// with its number, liblinear's name, its short names (solverAliases) and
// what it fits (solverGloss); one with a short name is greedytl's own,
// whose model liblinear-predict cannot read.
func solverHelp() string {
	var lines []string
	line := "solver:"
	solvers, short := linear.Solvers(), slices.Sorted(maps.Keys(solverAliases))
	for i, s := range solvers {
		item := strconv.Itoa(int(s)) + " " + s.String()
		var aliases, about []string
		for _, a := range short {
			if solverAliases[a] == s {
				aliases = append(aliases, a)
			}
		}
		if g := solverGloss[s]; g != "" {
			about = append(about, g)
		}
		if len(aliases) > 0 {
			item += " or " + strings.Join(aliases, ", ")
			about = append(about, "greedytl's own: liblinear-predict cannot read its model")
		}
		if len(about) > 0 {
			item += " (" + strings.Join(about, ", ") + ")"
		}
		if i+1 < len(solvers) {
			item += ","
		}
		if len(line)+1+len(item) > 100 {
			lines, line = append(lines, line), item
		} else {
			line += " " + item
		}
	}
	return strings.Join(append(lines, line), "\n")
}

type trainOptions struct {
	data    string
	solver  solverValue
	cost    float64
	bias    float64
	eps     float64
	folds   int
	findC   bool
	quiet   bool
	l1Ratio float64
	seed    uint64
	out     string
	maxFeat int
	weights classWeights
}

func newTrainCmd(s *streams) *cobra.Command {
	o := &trainOptions{solver: solverValue{linear.L2RL2LossSVCDual}}
	c := &cobra.Command{
		Use:   "train [flags] --data FILE [--out MODEL]   (or: train [flags] FILE [MODEL])",
		Short: "Train a linear classifier like liblinear-train",
		Long: `Train fits a binary linear classifier to a LIBSVM/svmlight file (gzip-compressed
files are read too) and writes a liblinear model file, which liblinear-predict
(but for -s 100's, a solver liblinear lacks), greedytl predict and greedytl's
source sets read. The flags mean what they
mean to liblinear-train: -s solver, -c cost, -B bias, -e tolerance, -v folds,
-C, -q, -wLABEL weight (-w1 5 -w-1 2: C times 5 for class 1, times 2 for
class -1; also --weight 1:5); the arguments may be given as liblinear-train takes them (FILE [MODEL])
or with --data and --out. MODEL defaults to FILE's base name plus ".model", in
the current directory, as with liblinear.

-v K prints the K-fold cross-validation accuracy instead of training, and,
as liblinear-train does, "WARNING: reaching max number of iterations" on
standard error once per fold whose solver stopped at its cap, and
"WARNING: actred and prered too small" once per fold whose -s 0 or -s 2
stopped at machine precision short of -e. The latter is liblinear 2.3's
message (its TRON solver's); liblinear 2.40 and later solve -s 0 and -s 2
with a Newton method whose message is "WARNING: actred too small". Without
-v, train prints either warning once, for the model it trains, as
liblinear-train does; with -C (even with -v K) it prints it once for the
model of the chosen C, and -C's search prints none, where liblinear-train
-C, which trains no model, prints nothing. More folds than examples (-v K,
or -C's 5) are as many folds as examples, leave-one-out, with liblinear's
"WARNING: # folds > # data" on standard error. -q: no warnings but that
one, which liblinear-train -q prints too. -C
chooses C by cross-validation accuracy (5 folds, or K with -v K) over
{1e-4, 1e-3, …, 1e4}, prints it (on standard error when the model goes to
standard output, --out -), and — unlike liblinear, which only prints it —
trains and writes the model with that C. The data must hold exactly two label
values; the model file keeps them (liblinear's label order).

A liblinear model holds one weight line for every feature index up to the
largest the data use, whether the data use it or not. Train refuses data
whose largest index is above ` + groupDigits(autoMaxFeatures) + ` and more than ` + fmt.Sprint(featuresPerNNZ) + ` times the number of
non-zero values (one line "2000000000:1" would make a 6 GB model file of
zeros, and as much memory to train): re-index the features, or give
--max-features N to accept indices up to N.`,
		Example: `  greedytl train -s 1 -c 1 -B 1 heart_scale            # writes heart_scale.model
  greedytl train -v 5 heart_scale                        # prints the 5-fold CV accuracy
  greedytl train -C -s 2 --data train.svm.gz --out m.model`,
		Args: argCount(0, 2, "the training file and the model file to write (or give them as --data and --out)"),
		RunE: func(c *cobra.Command, args []string) error { return runTrain(c, s, o, args) },
	}
	fl := c.Flags()
	fl.StringVar(&o.data, "data", "", "training data, LIBSVM/svmlight format (optionally gzip-compressed; - for stdin)")
	fl.VarP(&o.solver, "solver", "s", solverHelp())
	numberVarP(c, &o.cost, "cost", "c", 1, "the cost C of the loss term (> 0)")
	numberVarP(c, &o.bias, "bias", "B", -1, "if ≥ 0, append a constant feature of this value to every example, as liblinear (0: a feature of zeros, weight 0; < 0: none)")
	numberVarP(c, &o.eps, "eps", "e", 0, "stopping tolerance (0: liblinear's default for the solver)")
	intVarP(fl, &o.folds, "cv", "v", 0, "K-fold cross-validation: print the accuracy instead of training (K ≥ 2)")
	fl.BoolVarP(&o.findC, "find-c", "C", false, "choose C by cross-validation, print it, and train with it")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but results")
	fl.Var(&o.weights, "weight", "multiply C for the class LABEL by WEIGHT (> 0); repeat for each class; liblinear's -wLABEL WEIGHT (as -w1 5 -w-1 2) is read as this")
	addL1RatioFlag(c, &o.l1Ratio)
	uint64Var(fl, &o.seed, "seed", 1, "seed of the coordinate order and of the cross-validation folds")
	fl.StringVarP(&o.out, "out", "o", "", "model file to write (default: FILE's base name + .model)")
	fileFlags(fl, "data", "out")
	intVarP(fl, &o.maxFeat, "max-features", "", 0, "the largest feature index accepted (0: refuse an index above "+groupDigits(autoMaxFeatures)+" that exceeds "+fmt.Sprint(featuresPerNNZ)+" × the data's non-zero values)")
	return c
}

// paths resolves the data and model paths from the flags and arguments.
// A cross-validation alone (-v without -C) writes no model: it needs no
// model path, and none is derived.
func (o *trainOptions) paths(args []string) (data, model string, err error) {
	data, model = o.data, o.out
	if len(args) > 0 {
		if data != "" {
			return "", "", badInputf("give the data file once: as --data or as an argument")
		}
		data = args[0]
	}
	if len(args) > 1 {
		if model != "" {
			return "", "", badInputf("give the model file once: as --out or as an argument")
		}
		model = args[1]
	}
	if fi, err := os.Stat(data); data != stdinName && err == nil && fi.IsDir() {
		// Before the model's name is derived from it: "train DIR" said
		// that DIR.model, in the working directory, was inside DIR.
		return "", "", badInputf("%s is a directory: give the training data file (LIBSVM/svmlight)", data)
	}
	switch {
	case data == "":
		return "", "", badInputf("no training data: give --data FILE (see 'greedytl train --help')")
	case model == "" && o.folds > 0 && !o.findC:
		return data, "", nil
	case model == "" && data == stdinName:
		return "", "", badInputf("reading standard input: give the model file with --out")
	case model == "":
		model = filepath.Base(data) + ".model"
	}
	if err := checkOut(model, data); err != nil {
		return "", "", err
	}
	return data, model, nil
}

func runTrain(c *cobra.Command, s *streams, o *trainOptions, args []string) error {
	if err := o.weights.check(); err != nil { // a flag's error, as Set's were
		return usage(c, err)
	}
	data, modelPath, err := o.paths(args)
	if err != nil {
		return err
	}
	if !(o.cost > 0) {
		return badInputf("-c %v: the cost must be > 0", o.cost)
	}
	if c.Flags().Changed("cv") && o.folds < 2 {
		return badInputf("-v %d: cross-validation needs at least 2 folds", o.folds)
	}
	if o.maxFeat < 0 {
		return badInputf("--max-features %d: give the largest index to accept, or 0 for train's rule", o.maxFeat)
	}
	// Flags the run would not use are refused, not dropped.
	if o.findC && c.Flags().Changed("cost") {
		return badInputf("-c %v with -C: -C chooses C itself (over 1e-4 … 1e4, unlike liblinear-train, which starts its search at -c): give one of them", o.cost)
	}
	if c.Flags().Changed("out") && o.folds > 0 && !o.findC {
		return badInputf("--out %s with -v: -v writes no model, it prints the cross-validation accuracy (-C with -v writes one): give one of them", o.out)
	}
	l1Ratio, err := solverL1Ratio(c, o.solver.s, o.l1Ratio)
	if err != nil {
		return err
	}
	p := linear.Params{Solver: o.solver.s, C: o.cost, Eps: o.eps, Seed: o.seed, L1Ratio: l1Ratio}
	if err := p.Check(); err != nil {
		return badInput(err)
	}
	if err := checkWritable(modelPath); err != nil {
		return err
	}
	x, y, err := readSVMLight(s, data)
	heedSignals(c.Context())
	if err != nil {
		return badInput(err)
	}
	if err := checkModelSize(data, x, o.maxFeat); err != nil {
		return err
	}
	if len(o.weights.byClass) > 0 {
		if p, err = p.WithLabelWeights(y, o.weights.byClass); err != nil {
			return badInputf("%s: %w", data, err)
		}
	}
	prob := &linear.Problem{X: x, Y: y, Bias: o.bias}
	ctx := c.Context()
	// failed maps a learner's error: the context's if interrupted, else the
	// input's fault (labels, sizes): the learners fail on bad data only.
	failed := func(err error) error {
		if ctx.Err() != nil {
			return err
		}
		return badInputf("%s: %w", data, err)
	}

	// The model goes to standard output for "-" or another name of it
	// (streams.isStdout); -C's lines then go to standard error, or the
	// model would begin with them.
	toStdout := modelPath != "" && s.isStdout(modelPath)
	results := s.out
	if toStdout {
		results = s.err
	}
	if o.findC {
		grid := source.DefaultGrid()
		best, acc, err := linear.SelectC(ctx, prob, p, grid, o.cvFolds(s, len(y)), o.seed)
		if err != nil {
			return failed(err)
		}
		if !o.quiet {
			for k, cost := range grid {
				fmt.Fprintf(results, "C = %g  CV accuracy = %.6g%%\n", cost, 100*acc[k])
			}
		}
		fmt.Fprintf(results, "Best C = %g  CV accuracy = %.6g%%\n", best, 100*acc[slices.Index(grid, best)])
		p.C = best
	} else if o.folds > 0 {
		dec, stops, err := linear.CrossValidateStops(ctx, prob, p, o.cvFolds(s, len(y)), o.seed)
		if err != nil {
			return failed(err)
		}
		if !o.quiet {
			for _, st := range stops { // liblinear-train -v warns once per fold at the cap
				warnStop(s.err, p.Solver, st.Converged, st.Stuck, st.Precision)
			}
		}
		greater := slices.Max(y)
		target := make([]float64, len(y))
		for i, v := range y {
			target[i] = -1
			if v == greater {
				target[i] = 1
			}
		}
		acc, err := linear.Accuracy(dec, target)
		if err != nil {
			return failed(err)
		}
		fmt.Fprintf(s.out, "Cross Validation Accuracy = %.6g%%\n", 100*acc)
		return nil
	}

	model, err := linear.Train(ctx, prob, p)
	if err != nil {
		return failed(err)
	}
	if o.bias == 0 {
		zeroBiasFeature(model)
	}
	if !o.quiet {
		warnStop(s.err, p.Solver, model.Converged, model.Stuck, model.Precision)
	}
	where := modelPath
	if toStdout {
		where = "standard output"
		if err := linear.WriteModelContext(ctx, s.out, model); err != nil {
			return err
		}
	} else if err := linear.WriteModelFileContext(ctx, modelPath, model); err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.err, "trained %v (C = %g) on %s with %s; model written to %s\n", p.Solver, p.C, plural.Count(x.R, "example", "examples"), plural.Count(x.C, "feature", "features"), where)
	}
	return nil
}

// cvFolds returns the number of folds of -v K or -C (5 without -v) for
// data of m examples. As liblinear-train, more folds than examples are m
// folds, leave-one-out, with liblinear's warning, which it prints with -q
// too (they were refused: "10 folds for 6 examples"). Only -v and -C
// call it.
func (o *trainOptions) cvFolds(s *streams, m int) int {
	folds := o.folds
	if folds == 0 {
		folds = 5 // -C alone
	}
	if folds > m && m >= 2 {
		fmt.Fprintln(s.err, "WARNING: # folds > # data. Will use # folds = # data instead (i.e., leave-one-out cross validation)") // liblinear's words
		return m
	}
	return folds
}

// warnStop writes to w train's warning for a fit of solver that stopped
// short of its tolerance: at the iteration cap (converged false), or,
// when stuck, short of it unable to progress; or, converged, at machine
// precision short of its stopping rule (precision: TRON's actual and
// predicted decreases at most 1e-12 of its objective), in liblinear's
// words. It writes nothing for a fit whose stopping rule held.
func warnStop(w io.Writer, solver linear.Solver, converged, stuck, precision bool) {
	switch {
	case precision:
		fmt.Fprintln(w, "WARNING: actred and prered too small") // liblinear-train's words for TRON's stop
	case converged:
	case stuck:
		fmt.Fprintf(w, "WARNING: %v stopped numerically stuck, short of the max number of iterations: it could make no further progress (its objective overflows float64, no decrease is possible, or -e is tighter than float64 allows); the model is its last iterate, not the minimiser: check the scale of the features and of -B, and the tolerance -e\n", solver)
	default:
		fmt.Fprintln(w, "WARNING: reaching max number of iterations") // liblinear's words, which its users grep for
	}
}

// zeroBiasFeature gives m, trained without a bias feature, the form of
// liblinear-train -B 0's model: liblinear appends a bias feature whenever
// -B ≥ 0, here one of value 0 in every example, whose weights are 0 (every
// solver regularises it and no loss sees it), and writes "bias 0" and its
// weight line; linear.Problem takes Bias ≤ 0 as no bias feature, which
// scores every row alike.
func zeroBiasFeature(m *linear.Model) {
	m.Bias = 0
	m.W = append(m.W, make([]float64, m.NrW)...)
}

// Train's rule for data whose feature indices are far sparser than their
// values (see checkModelSize).
const (
	autoMaxFeatures = 1 << 20 // indices up to this are always accepted
	featuresPerNNZ  = 100     // above it, at most this many per non-zero value
)

// checkModelSize returns an input error when the largest feature index of x
// (read from data) exceeds maxFeatures or, with maxFeatures 0, when it is
// above autoMaxFeatures and more than featuresPerNNZ times x's non-zero
// values. A liblinear model, and training, hold one weight per index up to
// the largest; at most one per non-zero value can be anything but 0, so
// such a model would be more than 99% zeros — of the kind of a hashed or
// global index space that was never compacted — and its file may be
// gigabytes (about 3 bytes a line at best) for a few kilobytes of data.
// Data sets with many real features (kdd2010: 3·10⁷ indices, 3·10⁸
// non-zeros) pass the rule.
func checkModelSize(data string, x *sparse.CSR, maxFeatures int) error {
	nnz := len(x.Ind)
	switch {
	case maxFeatures > 0 && x.C > maxFeatures:
		return badInputf("%s: the largest feature index is %d, above --max-features %d", data, x.C, maxFeatures)
	case maxFeatures == 0 && x.C > autoMaxFeatures && x.C/featuresPerNNZ > nnz:
		size := fmt.Sprintf("%.1f GB", 3*float64(x.C)/1e9) // about 3 bytes a line
		if x.C < 1e8 {
			size = fmt.Sprintf("%.0f MB", 3*float64(x.C)/1e6)
		}
		return badInputf("%s: the largest feature index is %d but the data hold %d non-zero values: a liblinear model has one weight line per index up to the largest (%d lines, at least %s, almost all zeros); re-index the features, or give --max-features %d to train it anyway",
			data, x.C, nnz, x.C, size, x.C)
	}
	return nil
}

// readSVMLight reads svmlight data from path, or from the command's
// standard input for "-", refusing with its line a label the linear
// learners cannot take and the first example of a third class
// (linear.LabelSet).
func readSVMLight(s *streams, path string) (*sparse.CSR, []float64, error) {
	var labels linear.LabelSet
	if r, ok := s.stdin(path); ok {
		return dataset.DecodeSVMLightChecked(r, displayName(path), 0, labels.Add)
	}
	return dataset.ReadSVMLightChecked(path, labels.Add)
}
