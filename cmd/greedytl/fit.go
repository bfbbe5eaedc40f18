package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/internal/validate"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
)

type fitOptions struct {
	data         dataFlags
	method       string
	lambda       lambdaValue
	delta        float64
	maxK         int
	gamma        float64
	sample       int
	seed         uint64
	stopAtMinLOO bool
	unlabelled   dataFlags // --unlabelled-*: transductive methods (dam)
	oracle       dataFlags // --oracle-*: the oracle best-source
	ignoreUnused bool      // --ignore-unused-extra: a method that does not use an extra sample leaves it unread (a note), not refused
	unread       []string  // the notes of the extra samples left unread (--ignore-unused-extra), printed once the model is written
	out          string
	json         bool // --json: print fitReport on standard output
	quiet        bool // -q: no progress of the fit
	reported     bool // the model's fitReport was begun on standard output: no failure report may follow it
}

// fitReport is what fit --json prints on standard output once the model
// is written, or when the fit fails: for programs that drive fit (the
// Python package), the model file, the warnings printed on standard error
// and the error.
type fitReport struct {
	Model    string    `json:"model,omitempty"` // the model file, --out; none when the fit failed
	Warnings []warning `json:"warnings"`        // in the order printed; [] when none
	Error    *fitError `json:"error,omitempty"` // why the fit failed
}

// fitError is a failed fit's error in fitReport: the message as printed
// (without "greedytl: ") and the classes it names (classesOf), as the labels
// name them, for a program that names the classes otherwise (the Python
// package gives greedytl class indices for labels it cannot write as
// they are).
type fitError struct {
	Message string   `json:"message"`
	Classes []string `json:"classes,omitempty"`
}

// classesError is an input error of fit that names classes of the labels:
// its message names them, Classes lists them for fitReport.
type classesError struct {
	err     error
	Classes []string
}

func (e classesError) Error() string { return e.err.Error() }
func (e classesError) Unwrap() error { return e.err }

// badClasses is badInputf for an error that names the classes given.
func badClasses(classes []string, format string, a ...any) error {
	return badInput(classesError{fmt.Errorf(format, a...), classes})
}

// classesOf returns the classes the error err of fit names: a
// classesError's, or the class of a binary method's fit one class against
// the rest (method.ClassError); nil for other errors.
func classesOf(err error) []string {
	var ce classesError
	if errors.As(err, &ce) {
		return ce.Classes
	}
	var me *method.ClassError
	if errors.As(err, &me) {
		return []string{me.Class}
	}
	return nil
}

// reportFailure prints, with --json (and --out FILE), fit's report of the
// error err of the fit run under ctx on standard output: its message as
// execute prints it (printedError) and the classes it names, and the
// warnings printed before it; nothing when the model's report was begun
// (a failed write of it), so that standard output holds one report.
func (o *fitOptions) reportFailure(ctx context.Context, s *streams, err error) {
	if err == nil || !o.json || s.isStdout(o.out) || o.reported {
		return
	}
	// The error is what fit reports; a lost report is the checked output's.
	_ = o.printReport(s, fitReport{Error: &fitError{Message: printedError(ctx, err).Error(), Classes: classesOf(err)}})
}

// printReport prints rep, with the warnings printed before it (s.warnings;
// an empty list, not null, for none), on standard output as one JSON
// document in one write, and records that the report was begun when any
// of it was written: cut short, it is the report still, and no other may
// follow it (reportFailure). A failed write of a model's report is an
// error naming the report and the model file written (the write's own
// error may name neither: a full disk's is "no space left on device").
func (o *fitOptions) printReport(s *streams, rep fitReport) error {
	rep.Warnings = s.warnings
	if rep.Warnings == nil {
		rep.Warnings = []warning{}
	}
	var b bytes.Buffer
	if err := printJSON(&b, rep); err != nil {
		return err
	}
	n, err := s.out.Write(b.Bytes())
	o.reported = n > 0
	if err != nil && rep.Model != "" {
		return fmt.Errorf("writing fit's JSON report to standard output (the model was written to %s): %w", rep.Model, err)
	}
	return err
}

// greedyFlags are the flags that set GreedyTL's options; they apply to the
// greedytl methods only.
// Each is the option's setting key (greedytl.SettingKeys) with dashes.
var greedyFlags = []string{"lambda", "delta", "max-k", "gamma", "feature-factor", "sample", "stop-at-min-loo"}

func newFitCmd(s *streams) *cobra.Command {
	def := greedytl.DefaultOptions()
	o := &fitOptions{lambda: lambdaValue{v: def.Lambda}}
	f := method.Facts()
	c := &cobra.Command{
		Use:   "fit --features X --labels Y [--source-scores H | --sources DIR] --out model.json",
		Short: "Fit a target model (GreedyTL or any baseline)",
		Long: `Fit trains a target classifier on a few labelled examples and writes the model
(method, hyperparameters, weights, standardisation) as JSON.

The default method, greedytl-auto (the recommended one), is the mean of four
least-squares fits: GreedyTL over all columns, GreedyTL preferring sources
(feature factor ` + method.HelpNumber(f.SPFeatureFactor) + `), the single source of the highest training AUC (the
share of (positive, negative) pairs it scores positive higher, a tie
counting half; equal AUCs broken by LogME evidence) and ridge regression on
every column,
averaged over the training examples and the subsamples without one example
of the larger class (the negatives when the classes are of equal size; with
more than 10 examples in it, 10 subsamples each without a tenth of them;
with 3 or fewer, none: the committee alone); its
one setting, --method greedytl-auto:single_fit=1, fits the
committee once, for speed with very many sources or examples. Its cost, for
m examples and N = d + n columns: at most 11 committees (the whole sample and
at most 10 subsamples of the larger class), each two GreedyTL
fits (k steps: O(N·m) a step, or, with N ≤ m (and m·N ≥ ` + groupDigits(f.AutoGramMinWork) + `), or
m < N ≤ 2m where the whole sample's members reach N/16 + 1 steps,
O((N + m)·k) a step on cross-products of the columns shared by every
committee, O(N²·m) once; k is the data's, not a setting: about 60 to 700
columns a member) and the
source member (O(n·m log m) for the training AUCs); and one ridge fit on all N
columns: with N > m and at most ` + strconv.Itoa(f.AutoRidgeLambdaRows) + ` examples, λ by leave-one-out on all the
examples (O(m²·N + m³)), whose reduction gives each subsample's ridge member
at that λ (O(m·N + N²)); with N ≤ m (and m·N ≥ ` + groupDigits(f.AutoGramMinWork) + `) or more than ` + strconv.Itoa(f.AutoRidgeLambdaRows) + `
examples, one member for every committee, λ by leave-one-out on at most ` + strconv.Itoa(f.AutoRidgeLambdaRows) + `
of the examples and the weights from the shared cross-products (O(N³)), or
in the dual when N > m (O(m²·N + m³)).
From m·N = 100,000 on the committees share the cores. Measured (whole
process, COIL-100 HOG rows with 80 source scores, N = 880, loaded 2-core
machine, GOMAXPROCS=1): 0.41 s at m = 200, 2.5 s at m = 2,000 (4.1–4.8 s
with a bagged ridge member, 18.7 s of CPU before the committees shared the
cross-products), where the GreedyTL members select about 270 columns
each. The order of the rows does not matter: the
subsamples are taken in an order of the rows' values. The paper's method,
--method greedytl, selects greedily the columns of [X H] (target
features and source scores) that most reduce the L2-regularised squared error
on the training examples. Columns are standardised with the training mean and
standard deviation; --gamma scales feature columns relative to source columns
(1 = the paper, 0 = sources only). These GreedyTL flags are settings of
the method's spec (--lambda 10 is --method greedytl:lambda=10, --lambda auto
is greedytl:lambda=auto, which the model file names greedytl:auto_lambda=1;
a flag and the spec may not give one setting two values), and, given without
--method, select --method greedytl. Selection stops when the mean
regularised error improves by less than --delta, after --max-k columns, or at
the step with the lowest leave-one-out error (--stop-at-min-loo). --sample 59
is GreedyTL-59.

The baselines' costs with many examples (m examples, N = d + n columns, u
unlabelled rows; measured, CPU, loaded 2-core machine, d = 1,000, n = 100):
l1-logistic and elastic-net choose C by leave-one-out (m + 1 fits of the C
path) up to ` + strconv.Itoa(f.LogisticLOOMaxRows) + ` examples and by ` + strconv.Itoa(f.LogisticFolds) + `-fold cross-validation above (l1-logistic
2.1 s and 6.2 s at m = 1,000 and 2,000; elastic-net, each solve started from
the weights at hand, 3.1 s and 11.2 s; d = 800, n = 80); dam is O(u·d·r + r³) plus O(m²·r + m³) for each of its ` + strconv.Itoa(f.DAMPairs) + ` (τ,
λ) pairs, r = min(d, u) (47 s at m = u = 1,000, 200 s at 2,000); dictionary
learns ⌈m/2⌉ atoms of N values, O(m²·N + m³) time and O(m·N) memory and model
file (17 s, 258 MB and a 74 MB file at m = 1,000; 110 s, 546 MB and 149 MB at
2,000).

Labels of three or more classes (names or numbers) fit one model for all
classes: by default the recommended ` + method.RecommendedMulti + ` (described
with the methods below); the other native multi-class methods fit natively (--method
` + strings.Join(slices.DeleteFunc(nativeMultiNames(), func(n string) bool { return n == method.RecommendedMulti }), ", ") + `),
and any binary method is fitted one class against the rest (the oracle
best-source chooses each class's source on held-out labels of every class,
--oracle-labels, that class against the rest).
The model file records the class names in order. Two label values stay a
binary fit, whatever the method: a native multi-class method fitted on them
records its positive class (--positive NAME, else the one a binary fit takes
as positive), and predict prints one score per example, that class's score
minus the other's; with more labels --positive NAME makes one class against
all the others (a binary method only).
The cost of ` + method.RecommendedMulti + `, for m examples of K classes and
p = d + n columns: two multinomial logistic regressions, each a choice of
C by cross-validation over ` + strconv.Itoa(f.MultinomialCValues) + ` values (up to ` + strconv.Itoa(f.MultinomialFolds) + ` folds: as many as the smallest
class has examples, at most ` + strconv.Itoa(f.MultinomialFolds) + `; C = ` + method.HelpNumber(f.MultinomialDefaultC) + ` without it when a class has one
example; on at most ` + strconv.Itoa(f.MultinomialCVPerClass) + ` examples of each class) and a final fit, by L-BFGS steps of O(m·min(m, p)·K) (in the span of
the rows when p > m, after an O(m²·p) reduction). Measured (one core, CPU,
loaded 2-core machine; p = 1,000, K = 20): 0.7 s at 10 examples a class,
7.6 s at 100. Its memory is O(m·(K + p) + K·p) (an L-BFGS step's m × K
class probabilities, the m × p standardised columns), and O(m²) more for
the reduction when p > m: the choice of C keeps ` + strconv.Itoa(f.MultinomialCValues) + ` numbers an example, and
the fit's one-class check and predict (without --scores) score a block of
` + aboutCount(f.ScoreBlockFloats) + ` class scores at a time, not all m × K. Measured (whole process, peak
memory and CPU time, loaded 2-core machine, 2 examples a class, p = 8):
42 MB and 11 s at K = 500, 56–61 MB and 10–11 s at 1,000, 140–178 MB and
18 s at 2,000, 3.2 GB and 210 s at 10,000 (one run).

Source scores come from a matrix (--source-scores) or are computed from a
directory of linear source models written by train-sources (--sources). With
--sources the model file records the identity of those sources (a digest of
their classes and model files, in order), which predict checks; X must then
have the columns of the sources' dataset (num_features of its sources.json),
and a directory that a sharded train-sources has not finished is refused.
With --sources, greedytl-nway standardises the source scores with each
source's own statistics over the rows it was trained on (which
train-sources records), as the N-way protocol does; from --source-scores,
or a directory trained before they were recorded, with statistics of the
training examples, so that the two can give different models.

When --features is a text file with a header, the model file records its
column names ("feature_names"), which predict checks; the extra samples
(--unlabelled-features, --oracle-features) must not name their columns
otherwise (unnamed ones draw the unnamed-features warning). Likewise a
--source-scores text file's header, the names of your own sources
("source_names"; H computed from --sources has none): predict and the extra
samples' --*-source-scores must not name them otherwise, nor in another
order (unnamed ones draw the unnamed-source-scores warning). An extra
sample given to a method that does not use it is refused, or, with
--ignore-unused-extra, left unread with a note: a program that runs a
search over methods (the Python package) gives every method the same
inputs.

A fit that succeeds may warn about its model, on standard error
("greedytl: warning: ..."): constant-model, a binary model that keeps no
column (its score is one constant: it tells no example from another), or
whose scores on the training examples differ by rounding alone (its
weights are rounding noise); constant-classes, classes of a multi-class
model that keep no column or whose scores differ by rounding alone (their
scores are constant, so one class, which the warning names, takes the
rows no other class scores higher), or, average-kt's one class against
the rest, no feature (their scores are identical: the sources' average,
which every class shares, over its root mean square on the training
examples); one-class, a
multi-class model that predicts one class for every training example
though the labels hold several (a very unbalanced sample, or examples
identical across classes); not-converged, runs of an
iterative solver (the logistic baselines' liblinear solvers, the L-BFGS of
multinomial-logistic and greedytl-nway) that stopped at their iteration cap
or could not progress before their stopping rule held: the warning names
the solver, how many of the fit's runs stopped, whether the final fit's did
(else only runs that chose a hyperparameter) and, one class against the
rest, the classes concerned; the model is written all the same, as the
solver left it (as train's "WARNING: reaching max number of iterations");
wide-range, greedytl-auto's, a column whose values span so huge a range (a
few examples some 7·10^7·m of the subsample's standard deviations from the
others, m examples) that the committees of the subsamples without them
could not be written in the whole sample's standardisation without losing
more than half of float64's digits: they are left out of the mean, and one
warning per fit names the columns and counts the committees left out; seed-unused, --seed given to a
method that draws nothing at random (every seed fits the same model).
With --json (and --out FILE) fit prints a JSON report on standard output,
for programs that drive it:
{"model": FILE, "warnings": [{"code", "message", "classes", "columns"},
...]}, the warnings as printed (without the prefix) with the classes they
concern (when they do) and the columns ({"kind": "feature" or "source",
"index"}: wide-range's), [] when there are none. A fit that fails prints
{"warnings": [...], "error": {"message", "classes"}}: the error as printed
on standard error (without the prefix) and the classes it names, when it
names any (a held-out class missing, a class's fit against the rest).

Methods (--method; the baselines choose their hyperparameters by
class-balanced leave-one-out on the training set):
` + methodList(),
		Example: `  greedytl fit --features X.npy --source-scores H.npy --labels y.txt --out model.json
  greedytl fit --features X.csv --labels y.csv --positive cat --lambda auto --out model.json
  greedytl fit --features X.npy --source-scores H.npy --labels species.txt --out nway.json
  greedytl fit --features X.npy --sources sources/ --labels y.npy --sample 59 --seed 7 --out model.json
  greedytl fit --method dam --features X.npy --source-scores H.npy --labels y.txt \
      --unlabelled-features Xtest.npy --unlabelled-source-scores Htest.npy --out dam.json`,
		RunE: func(c *cobra.Command, _ []string) error {
			err := runFit(c, s, o)
			o.reportFailure(c.Context(), s, err)
			return err
		},
	}
	o.data.register(c, "training labels y, one per example (.npy or text/CSV; - for stdin)")
	o.unlabelled.registerUnlabelled(c, "unlabelled-", "unlabelled target inputs for transductive methods (dam)")
	o.oracle.registerUnlabelled(c, "oracle-", "held-out labelled inputs for the oracle best-source")
	o.data.share(&o.unlabelled, &o.oracle)
	o.data.also(&o.oracle.labels) // --labels-header applies to both label files
	c.Flags().StringVar(&o.oracle.labels, "oracle-labels", "", "held-out labels for the oracle best-source, of the training classes (with three or more classes, each class's oracle chooses its source on them, that class against the rest; - for stdin)")
	c.Flags().BoolVar(&o.ignoreUnused, "ignore-unused-extra", false, "leave the --unlabelled-* or --oracle-* inputs unread, with a note, when the method does not use them (default: refuse them), for a program that gives every method of a search the same inputs")
	fl := c.Flags()
	fl.StringVar(&o.method, "method", method.Recommended, "the method (default: the recommended "+method.Recommended+", and "+method.RecommendedMulti+" for three or more classes; greedytl is the paper's): "+strings.Join(method.Names(), ", ")+"; for three or more classes also "+strings.Join(nativeMultiNames(), ", "))
	fl.Var(&o.lambda, "lambda", "ridge regularisation λ > 0, or auto (leave-one-out over 1e-4…1e4)")
	numberVarP(c, &o.delta, "delta", "", def.Delta, "stop when the mean regularised error improves by less than this")
	intVarP(fl, &o.maxK, "max-k", "", 0, "select at most this many columns (0: no limit)")
	numberVarP(c, &o.gamma, "gamma", "", def.FeatureFactor, "γ ≥ 0: scale of feature columns relative to source columns (greedytl-sp's default: "+method.HelpNumber(f.SPFeatureFactor)+")")
	numberVarP(c, &o.gamma, "feature-factor", "", def.FeatureFactor, "the former name of --gamma")
	// Hidden, and not cobra's MarkDeprecated, whose message goes to the
	// command's output, standard output (where the model or --json's
	// report is): runFit notes it on standard error.
	_ = fl.MarkHidden("feature-factor")
	intVarP(fl, &o.sample, "sample", "", 0, "randomised search: score this many random candidates a step (59: GreedyTL-59; 0: exact)")
	uint64Var(fl, &o.seed, "seed", 1, "seed of every random choice (GreedyTL-59's search, the baselines' refits)")
	fl.BoolVar(&o.stopAtMinLOO, "stop-at-min-loo", false, "keep the prefix of the path with the lowest leave-one-out error")
	fl.StringVarP(&o.out, "out", "o", "", "write the model here (default: standard output)")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "no progress of the fit (of the classes of one against the rest, of greedytl-auto's committees, of greedytl-nway's fits: a bar on a terminal, else a line per tenth of the work and minute; warnings and errors are still printed)")
	fl.BoolVar(&o.json, "json", false, "with --out FILE: print a JSON report on standard output, the model file and the warnings ({\"model\", \"warnings\": [{\"code\", \"message\", \"classes\", \"columns\"}]}), or a failed fit's error ({\"warnings\", \"error\": {\"message\", \"classes\"}})")
	_ = c.MarkFlagRequired("labels")
	fileFlags(fl, "oracle-labels", "out")
	return c
}

// methodList formats the registered methods for help texts.
func methodList() string {
	var b strings.Builder
	for _, n := range method.Names() {
		r, _ := method.Registered(n)
		fmt.Fprintf(&b, "  %-13s %s\n", n, r.Description)
	}
	b.WriteString("\nMulti-class methods (three or more classes; every method above fits them\none class against the rest):\n")
	for _, n := range nativeMultiNames() {
		r, _ := method.Registered(n)
		fmt.Fprintf(&b, "  %-13s %s\n", n, r.Description)
	}
	return b.String()
}

// spec returns the spec of the method to fit: --method (the paper's
// greedytl when only GreedyTL's flags are given) with the settings of the
// GreedyTL flags given added. It is the flags' one route to a method: fit
// passes it to method.New or method.NewMulti. A flag whose setting the spec
// already gives another value, and a GreedyTL flag given to a method that
// does not take GreedyTL's settings, are usage errors; a flag's value out
// of range is an error naming the flag. --seed is not a setting:
// it reaches the fit as method.Extra.Seed.
func (o *fitOptions) spec(c *cobra.Command) (string, error) {
	fl := c.Flags()
	name := o.method
	if !fl.Changed("method") && slices.ContainsFunc(greedyFlags, fl.Changed) {
		name = "greedytl" // GreedyTL's flags without --method ask for the paper's method
	}
	s, err := method.ParseSpec(name)
	if err != nil {
		return "", badInput(err)
	}
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	lambda := flagSetting{"lambda", greedytl.KeyLambda, o.lambda.v, fl.Changed("lambda"), typedText(fl, "lambda")}
	if o.lambda.auto {
		lambda = flagSetting{"lambda", greedytl.KeyAutoLambda, 1, lambda.changed, lambda.typed}
	}
	gamma := "gamma"
	if fl.Changed("feature-factor") && !fl.Changed("gamma") {
		gamma = "feature-factor"
	}
	settings := []flagSetting{
		lambda,
		{"delta", greedytl.KeyDelta, o.delta, fl.Changed("delta"), typedText(fl, "delta")},
		{"max-k", greedytl.KeyMaxK, float64(o.maxK), fl.Changed("max-k"), typedText(fl, "max-k")},
		{"gamma", greedytl.KeyGamma, o.gamma, fl.Changed("gamma") || fl.Changed("feature-factor"), typedText(fl, gamma)},
		{"sample", greedytl.KeySample, float64(o.sample), fl.Changed("sample"), typedText(fl, "sample")},
		{"stop-at-min-loo", greedytl.KeyStopAtMinLOO, b(o.stopAtMinLOO), fl.Changed("stop-at-min-loo"), ""},
	}
	params := maps.Clone(s.Params)
	for _, f := range settings {
		if !f.changed {
			continue
		}
		if err := f.applies(s.Name, name); err != nil {
			return "", err
		}
		if err := f.conflict(s.Params, name); err != nil {
			return "", err
		}
		// The options' own rules (Options.Set, which the method's spec
		// applies too) check the flag's value, before any input is read,
		// and the message names the flag.
		check := greedytl.DefaultOptions()
		if err := check.Set(f.key, f.v); err != nil {
			return "", badInputf("--%s %s: %w", f.flag, f.value(), err)
		}
		if params == nil {
			params = map[string]float64{}
		}
		params[f.key] = f.v
	}
	return method.Spec{Name: s.Name, Params: params}.String(), nil
}

// flagSetting is a GreedyTL flag as the setting it gives: key = v.
type flagSetting struct {
	flag, key string
	v         float64
	changed   bool
	typed     string // the value as typed (typedText); "": v's
}

// value is the flag's value as the user gave it: as typed, else v's
// shortest form.
func (f flagSetting) value() string {
	switch {
	case f.typed != "":
		return f.typed
	case f.key == greedytl.KeyAutoLambda:
		return "auto"
	}
	return strconv.FormatFloat(f.v, 'g', -1, 64)
}

// conflict returns a usage error when the spec's settings params give a
// setting the flag decides another value: --lambda decides both λ and
// whether λ is chosen by leave-one-out (auto_lambda), the others their key.
func (f flagSetting) conflict(params map[string]float64, spec string) error {
	implied := map[string]float64{f.key: f.v}
	if f.key == greedytl.KeyLambda {
		implied[greedytl.KeyAutoLambda] = 0
	}
	if f.key == greedytl.KeyAutoLambda {
		implied[greedytl.KeyLambda] = math.NaN() // λ is chosen: any λ in the spec conflicts
	}
	for _, k := range slices.Sorted(maps.Keys(implied)) {
		if v, inSpec := params[k]; inSpec && v != implied[k] {
			return badInputf("--%s %s conflicts with %s=%v in --method %s: give the setting once", f.flag, f.value(), k, v, spec)
		}
	}
	return nil
}

// applies returns a usage error when the method base (of --method spec)
// does not take the flag's setting: it accepts the setting at GreedyTL's
// default, always in range, only if it takes GreedyTL's settings (in range
// or not, the flag's own value is checked by Options.Set).
func (f flagSetting) applies(base, spec string) error {
	def, _ := greedytl.DefaultOptions().Setting(f.key)
	probe := method.Spec{Name: base, Params: map[string]float64{f.key: def}}
	if _, err := method.Lookup(probe.String()); err != nil {
		if r, known := method.Registered(base); known {
			if !r.Capabilities().Binary {
				return badInputf("--%s applies to the greedytl methods; %s takes no settings", f.flag, spec)
			}
			return badInputf("--%s applies to the greedytl methods; %s sets its own hyperparameters (see 'greedytl help fit')", f.flag, spec)
		}
		return methodInput(err)
	}
	return nil
}

// configure returns the binary method to fit: method.New of the flags'
// spec. Where New fails, so does NewMulti, whose error for an unknown
// method lists the multi-class methods too (valid --method values as
// well), which it returns.
func (o *fitOptions) configure(c *cobra.Command) (method.Method, error) {
	m, err := newOfSpec(o, c, method.New)
	if err != nil {
		if _, multiErr := newOfSpec(o, c, method.NewMulti); multiErr != nil {
			return nil, multiErr
		}
	}
	return m, err
}

// newOfSpec returns what newMethod (method.New, method.NewMulti) makes of
// the spec of the flags o of the command c; its errors are bad input
// (methodInput).
func newOfSpec[M any](o *fitOptions, c *cobra.Command, newMethod func(spec string) (M, error)) (M, error) {
	var none M
	spec, err := o.spec(c)
	if err != nil {
		return none, err
	}
	m, err := newMethod(spec)
	if err != nil {
		// A --method that is wrong alone is quoted as typed, not as the
		// spec the flags' settings joined.
		if typed := c.Flags().Lookup("method"); typed.Changed && typed.Value.String() != spec {
			if _, typedErr := newMethod(typed.Value.String()); typedErr != nil {
				err = typedErr
			}
		}
		return none, methodInput(err)
	}
	return m, nil
}

// methodInput returns err, the method package's error for --method's
// spec, as bad input, as it is (it names the spec), but for an unknown
// method, which names --method ("--method: unknown method …", as
// experiment's say "experiment: unknown method …").
func methodInput(err error) error {
	var unknown *method.UnknownMethodError
	if errors.As(err, &unknown) {
		return badInputf("--method: %w", unknown)
	}
	return badInput(err)
}

func runFit(c *cobra.Command, s *streams, o *fitOptions) error {
	if o.json && s.isStdout(o.out) {
		if o.out != "" && o.out != stdoutName {
			return badInputf("--json prints a report on standard output, which --out %s is too: give the model file with --out FILE", o.out)
		}
		return badInputf("--json prints a report on standard output: give the model file with --out FILE")
	}
	if c.Flags().Changed("feature-factor") {
		if c.Flags().Changed("gamma") {
			return badInputf("--feature-factor is the former name of --gamma: give --gamma alone")
		}
		s.note("--feature-factor is the former name of --gamma: give --gamma")
	}
	var m method.Method
	if !o.nativeMultiOnly(c) {
		var err error
		if m, err = o.configure(c); err != nil {
			return err
		}
	}
	inputs := append(append(o.data.files(), o.unlabelled.files()...), o.oracle.files()...)
	if err := checkOut(o.out, inputs...); err != nil {
		return err
	}
	if err := checkOneStdin(append(append(o.data.inputs(), o.unlabelled.inputs()...), o.oracle.inputs()...)...); err != nil {
		return err
	}
	if err := checkWritable(o.out); err != nil {
		return err
	}
	// The first stop signal ends fit at once until its inputs are read
	// (heedSignals, below and in runFitMulti).
	X, H, names, err := o.data.load(s)
	if err != nil {
		return err
	}
	cls, err := o.data.readClasses(s, o.data.rowsOf(X, H))
	if err != nil {
		return err
	}
	if len(cls.Names) >= 2 && validate.AllConstant(X, H) {
		// greedytl refuses such inputs (no candidate), but the baselines of
		// package method fit a model scoring every example alike: 0, or
		// ±1e-17 whose sign is rounding. Labels of one class (one example)
		// are refused below for that, their first cause.
		return badInputf("every column of %s holds one value on all %d training examples: no method can tell the classes apart", o.data.describe(), rows(X, H))
	}
	if m == nil && o.data.positive != "" && len(cls.Names) != 2 {
		// A method that fits several classes at once: with two labels
		// --positive names the positive class (the model is the same, its
		// scores that class's minus the other's); with more it would ask
		// for a binary fit the method cannot make.
		return badInputf("--positive %s asks for one class against the rest (a binary fit), but %s fits several classes at once: leave --positive out, or give a binary --method", o.data.positive, o.method)
	}
	if m == nil || (len(cls.Names) >= 3 && o.data.positive == "") {
		return runFitMulti(c, s, o, X, H, names, cls)
	}
	y, pos, neg, err := o.binaryLabels(cls)
	if err != nil {
		return err
	}
	extra := method.Extra{Seed: o.seed}
	needs := m.Needs()
	if extra.Unlabelled, err = o.loadUnlabelled(s, needs.Unlabelled, X, H, names); err != nil {
		return err
	}
	if extra.Oracle, err = o.loadOracle(s, needs.Oracle, cls, pos, X, H, names); err != nil {
		return err
	}
	var finish func()
	extra.Progress, finish = phaseProgress(s, o.quiet, fitProgressWhat(m.Name())) // greedytl-auto calls it
	heedSignals(c.Context())
	model, err := m.Fit(c.Context(), method.Data{X: X, H: H, Y: y}, extra)
	finish()
	if err != nil {
		if c.Context().Err() != nil {
			return err
		}
		return badInput(fmt.Errorf("fitting %s on %s: %w", m.Name(), o.data.describe(), scaleOverflow(o, m.Name(), X, names, err)))
	}
	// After the fit: a failed fit says only why.
	warnSeedUnused(c, s, m.Name(), method.DrawsAtRandom(m, cols(X), cols(H)))
	warnConstantModel(s, model, method.Data{X: X, H: H}, pos, neg)
	warnNotConverged(s, model)
	warnWideColumns(s, model, names)
	src, err := o.data.sourcesID()
	if err != nil {
		return err
	}
	info := method.FileInfo{Sources: src, Labels: &modelfile.LabelNames{Positive: pos, Negative: neg}, FeatureNames: names.features, SourceNames: names.sources}
	write := func(w io.Writer) error { return method.Write(w, model, info) }
	return o.writeModel(s, write, model.Method()+" model")
}

// scaleOverflow returns the error err of a fit of the method name, but
// for one of a feature too large for a GreedyTL fit's feature factor γ
// (greedytl.ScaleOverflowError, which names γ and the feature in the Go
// API's words) what the user can do about it: the feature's column in the
// --features file (and its name), how large its values are, and to rescale
// the column; to raise --gamma only when the method takes it (not
// greedytl-auto, whose members' γ are its own).
func scaleOverflow(o *fitOptions, name string, X *mat.Dense, names sampleNames, err error) error {
	var so *greedytl.ScaleOverflowError
	if !errors.As(err, &so) || X == nil || so.Column.Kind != greedytl.Feature || so.Column.Index >= X.RawMatrix().Cols {
		return err
	}
	j := so.Column.Index
	col := fmt.Sprintf("column %d of %s", j, displayName(o.data.features))
	if n := names.of(greedytl.Feature.String(), j); n != "" {
		col += fmt.Sprintf(" (%s)", dataset.ShowName(n))
	}
	largest := 0.0
	for i := range X.RawMatrix().Rows {
		largest = max(largest, math.Abs(X.At(i, j)))
	}
	what := "rescale that column (divide it by a power of ten"
	if largest > 1 {
		what += fmt.Sprintf(", 1e%d say", int(math.Floor(math.Log10(largest))))
	}
	what += ")"
	gamma := flagSetting{flag: "gamma", key: greedytl.KeyGamma}
	if base, _, _ := strings.Cut(name, ":"); base != "" && gamma.applies(base, name) == nil {
		what += ", or raise --gamma"
	}
	return fmt.Errorf("%s holds values of magnitude up to %g: too large for %s, which divides a feature's standard deviation by γ = %g, overflowing float64: %s", col, largest, name, so.FeatureFactor, what)
}

// warnSeedUnused warns (code "seed-unused") when --seed was given and the
// method name draws nothing at random: draws is method.DrawsAtRandom on
// the training columns (greedytl's --sample at least the candidates draws
// nothing). Its model is then the same for every seed, and so is its
// model file (greedytl's records the seed 0).
func warnSeedUnused(c *cobra.Command, s *streams, name string, draws bool) {
	if c.Flags().Changed("seed") && !draws {
		s.warn(warning{Code: "seed-unused", Message: fmt.Sprintf("--seed has no effect: %s draws nothing at random", name)})
	}
}

// warnConstantModel warns (code "constant-model") when the binary model,
// fitted on train (its X and H), is constant to working precision by the
// constant-model rule (method.ConstantModel; docs/design.md §9, "Constant
// models"): it keeps no column (a linear model of no non-zero weight: with
// a handful of examples, a method that chooses its own regularisation may
// choose the empty model), or its scores on the training examples differ by
// no more than the rounding of the fit's own arithmetic (weights of 1e-20
// where the exact fit has none, as least squares leaves on labels that
// cancel). Its score is then one constant, or one plus rounding: it ranks
// no example above another but by rounding, and gives every example the
// one label pos or neg (or one by the sign of rounding).
func warnConstantModel(s *streams, model method.Model, train method.Data, pos string, neg []string) {
	c, ok := method.ConstantModel(model, train)
	if !ok || !c.Constant {
		return
	}
	to, named := "the negative label", []string{pos} // named: every class the message names
	if len(neg) == 1 {
		to = strconv.Quote(neg[0])
		named = append(named, neg[0])
	}
	s.warn(warning{Code: "constant-model", Classes: named,
		Message: fmt.Sprintf("the %s model %s, so it ranks none above another and predicts %q or %s for all of them alike%s",
			model.Method(), constantWhat(c, "its"), pos, to, tryDefault(model.Method(), method.Recommended, ""))})
}

// constantWhat says why the constant-model rule holds for c, a model's
// (its, "its") or several classes' ("their"): it keeps no column, or its
// scores on the training examples differ by rounding alone.
func constantWhat(c method.Constancy, its string) string {
	if c.NoColumn {
		return "keeps no column: " + its + " score is the same for every example"
	}
	return fmt.Sprintf("is constant to working precision: %s scores on the %d training examples differ by at most %.3g, within the rounding of the fit's arithmetic on labels of ±1 (%.3g): %s non-zero weights are rounding noise, not the data's", its, c.Rows, c.Spread, c.Bound, its)
}

// tryDefault is a warning's advice to try def, the default method, for a
// model that the method used (its name, with any settings) fitted badly
// on few examples (few: what they are few of): "" when used is def, whose
// advice would name the method that was used.
func tryDefault(used, def, few string) string {
	if name, _, _ := strings.Cut(used, ":"); name == def {
		return ""
	}
	return fmt.Sprintf("; with so few examples%s, try the default method, %s", few, def)
}

// warnNotConverged warns (code method.WarnNotConverged) of each solver of which
// runs of the fit that made model stopped before their stopping rule held
// (method.ConvergenceReporter): the method, the solver and its limit, how
// many runs, whether the final fit's is one of them and, for a model fitted
// one class against the rest, the classes concerned. The model is written
// all the same: it is what the solver reached, as liblinear's "reaching max
// number of iterations" leaves it (train prints that).
func warnNotConverged(s *streams, model interface{ Method() string }) {
	r, ok := model.(method.ConvergenceReporter)
	if !ok {
		return
	}
	for _, e := range r.NotConverged() {
		where := ""
		if len(e.Classes) > 0 {
			where = fmt.Sprintf(" in the fits of %s against the rest", strings.Join(quoteAll(e.Classes), ", "))
		}
		what := "only runs that chose a hyperparameter (cross-validation or leave-one-out), so the hyperparameter may not be the one converged runs choose"
		if e.Final {
			what = "the final fit's among them, so the model's weights are where the solver stopped, not the method's solution"
		}
		s.warn(warning{Code: method.WarnNotConverged, Classes: e.Classes,
			Message: fmt.Sprintf("%s: %d of the %d solver runs%s stopped before their stopping rule held (at their cap, or unable to progress), %s; solver: %s",
				model.Method(), e.Stopped, e.Runs, where, what, e.Solver)})
	}
}

// warnWideColumns warns (code method.WarnWideRange) once per fit whose
// greedytl-auto left subsamples' committees out of its mean
// (method.WideRangeReporter): the columns because of which, by index and
// by name when the input names them, each with its largest shift ratio and
// the committees that weight it; how many committees were left out of how
// many; and what the model averages. A model of several classes fitted one
// class against the rest warns for each class's model, naming the class.
func warnWideColumns(s *streams, model interface{ Method() string }, names sampleNames) {
	r, ok := model.(method.WideRangeReporter)
	if !ok {
		return
	}
	for _, w := range r.WideRanges() {
		warnWide(s, model.Method(), w, names)
	}
}

// warnWide is warnWideColumns for one report, of a fit of method name.
func warnWide(s *streams, name string, report method.WideRange, names sampleNames) {
	var where string
	var classes []string
	if report.Class != "" {
		where, classes = fmt.Sprintf(" (%s against the rest)", strconv.Quote(report.Class)), []string{report.Class}
	}
	wide := report.Columns
	cols := make([]string, len(wide))
	detail := make([]string, len(wide))
	columns := make([]greedytl.Column, len(wide))
	for k, w := range wide {
		columns[k] = w.Column
		col := w.Column.String()
		known := names.features
		if w.Column.Kind == greedytl.Source {
			known = names.sources
		}
		if w.Column.Index < len(known) {
			col += fmt.Sprintf(" (%q)", known[w.Column.Index])
		}
		cols[k] = col
		detail[k] = fmt.Sprintf("%s: up to %.3g, in %s", col, w.Ratio, plural.Count(w.Left, "committee", "committees"))
	}
	subsamples, left := report.Subsamples, report.LeftOut
	fits := subsamples + 1 - left
	averaged := "the whole sample's committee alone"
	if fits > 1 {
		averaged = fmt.Sprintf("the other %d committees (the whole sample's and %s)", fits, plural.Count(fits-1, "subsample's", "subsamples'"))
	}
	them := "it"
	if len(wide) > 1 {
		them = "one of them"
	}
	s.warn(warning{Code: method.WarnWideRange, Classes: classes, Columns: columns,
		Message: fmt.Sprintf("%s%s: the values of %s span a huge range (some examples lie very far from the others): %d of the %d subsample committees weight %s where its mean lies more than 2^26 of the subsample's standard deviations from the whole sample's (%s), too far for the whole sample's standardisation to carry without losing half of float64's digits (their weights and intercept would cancel and drown the other columns), so they are left out and the model averages %s; a logarithm or clipping of the column may serve better",
			name, where, joinAnd(cols), left, subsamples, them, strings.Join(detail, "; "), averaged)})
}

// joinAnd joins words as a list: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// loadUnlabelled reads the --unlabelled-* inputs of a transductive method
// (needed: the method needs them); it returns nil without them (or when
// the method does not use them, with --ignore-unused-extra), and an input
// error when a method needs them and they are not given, they are given
// to one that does not use them, or their columns are not those of
// the training sample trainX, trainH, named trainNames.
func (o *fitOptions) loadUnlabelled(s *streams, needed bool, trainX, trainH *mat.Dense, trainNames sampleNames) (*method.Data, error) {
	given := o.unlabelled.given()
	X, H, err := o.loadExtra(s, &o.unlabelled, needed, given, given, trainX, trainH, trainNames,
		"--unlabelled-* inputs are for transductive methods (dam), not %s",
		"%s is transductive: give the unlabelled target inputs with --unlabelled-features/--unlabelled-source-scores")
	if err != nil || X == nil && H == nil {
		return nil, err
	}
	return &method.Data{X: X, H: H}, nil
}

// loadExtra reads the extra sample f (--unlabelled-*, --oracle-*) of the
// method to fit: needed says whether the method uses it, given whether any
// of its flags is given and complete whether all it needs are. It returns
// nil matrices when the sample is neither needed nor given, or given to a
// method that does not use it with --ignore-unused-extra (a program
// running a search over methods gives each the same inputs; notFor, "left
// unread", is noted once the model is written, as a failed fit says only
// why: writeModel), and an input error — notFor or missing, formatted with
// --method — when it is given to a method that does not use it (without
// that flag) or is needed and incomplete, and when its
// columns are not those of the training sample trainX, trainH: other
// counts, or names other than trainNames, the training sample's (checkNames).
func (o *fitOptions) loadExtra(s *streams, f *dataFlags, needed, given, complete bool, trainX, trainH *mat.Dense, trainNames sampleNames, notFor, missing string) (X, H *mat.Dense, err error) {
	switch {
	case given && !needed && o.ignoreUnused:
		o.unread = append(o.unread, fmt.Sprintf(notFor+": left unread (--ignore-unused-extra)", o.method))
		return nil, nil, nil
	case given && !needed:
		return nil, nil, badInputf(notFor, o.method)
	case needed && !complete:
		return nil, nil, badInputf(missing, o.method)
	case !given:
		return nil, nil, nil
	}
	var names sampleNames
	if X, H, names, err = f.load(s); err != nil {
		return nil, nil, err
	}
	if err := f.checkColumns(&o.data, X, H, trainX, trainH); err != nil {
		return nil, nil, err
	}
	if err := f.checkNames(s, "the training features, "+displayName(o.data.features)+",", "the training source scores, "+displayName(o.data.scores)+",", trainNames, names, X, H); err != nil {
		return nil, nil, err
	}
	return X, H, nil
}

// loadOracle reads the --oracle-* inputs of an oracle method (needed: the
// method, or the binary method fitted one class against the rest, is
// one); it returns nil without them (or when the method is no oracle, with
// --ignore-unused-extra), and an input error when an oracle is not given
// them or another method is. Their columns must be those of the
// training sample trainX, trainH (named trainNames), and the held-out labels must be labels
// of the training classes cls, the positive class pos and another among
// them for a binary fit (pos not ""), which maps them to ±1 as the
// training labels are mapped, and every class for a fit of several
// classes, which maps each to the index of its class in cls.Names, as
// method.MultiMethod's Extra.Oracle holds them: each class's oracle
// scores the sources on that class against the rest.
func (o *fitOptions) loadOracle(s *streams, needed bool, cls *dataset.Classes, pos string, trainX, trainH *mat.Dense, trainNames sampleNames) (*method.Data, error) {
	X, H, err := o.loadExtra(s, &o.oracle, needed, o.oracle.given() || o.oracle.labels != "", o.oracle.given() && o.oracle.labels != "", trainX, trainH, trainNames,
		"--oracle-* inputs are for the oracle best-source, not %s",
		"%s is an oracle: give held-out inputs and labels with --oracle-features/--oracle-source-scores/--oracle-labels")
	if err != nil || X == nil && H == nil {
		return nil, err
	}
	held, err := o.oracle.readClasses(s, o.oracle.rowsOf(X, H))
	if err != nil {
		return nil, err
	}
	d := &method.Data{X: X, H: H}
	name, trainName := displayName(o.oracle.labels), displayName(o.data.labels)
	ks, err := classIndices(held, cls, "the training labels' classes", func(_ int, n string) error {
		return fmt.Errorf("label %q is not one of the training labels of %s (%s): the held-out labels must be of the same classes",
			n, trainName, strings.Join(quoteAll(cls.Names), ", "))
	})
	if err != nil {
		return nil, err
	}
	d.Y = make([]float64, len(ks))
	count := make([]int, len(cls.Names))
	for i, k := range ks {
		count[k]++
		switch {
		case pos == "":
			d.Y[i] = float64(k)
		case cls.Names[k] == pos:
			d.Y[i] = 1
		default:
			d.Y[i] = -1
		}
	}
	for k, n := range cls.Names {
		if count[k] > 0 {
			continue
		}
		switch p := cls.Lookup(pos); {
		case pos == "":
			return nil, badClasses([]string{n}, "%s holds no example of the class %q: its oracle, %q against the rest, cannot score the sources (the held-out labels need every class of %s)", name, n, n, trainName)
		case k == p:
			return nil, badClasses([]string{n}, "%s holds no example of the positive class %q: the oracle cannot score the sources", name, n)
		case len(held.Y) == count[p]:
			return nil, badClasses([]string{pos}, "%s holds only the positive class %q: the oracle cannot score the sources without a negative example", name, pos)
		}
	}
	return d, nil
}

// noteUnread notes the extra samples the fit left unread
// (--ignore-unused-extra), once its model is written.
func (o *fitOptions) noteUnread(s *streams) {
	for _, n := range o.unread {
		s.note("%s", n)
	}
}

// writeModel writes fit's model with write: to standard output, or
// atomically to --out when it names a file, which a line on standard
// error then reports, naming the model as what (after the notes of the
// extra samples left unread); with --json, fitReport follows on standard
// output.
// binaryLabels returns the ±1 labels of cls, its positive label and its
// negative ones, as dataset.Classes.Binary with --positive: the one rule
// of a two-label fit's positive class, binary or native multi-class
// (runFitMulti). Its error is an input error, which for two labels
// neither of which is positive by itself names the flag that chooses.
func (o *fitOptions) binaryLabels(cls *dataset.Classes) (y []float64, pos string, neg []string, err error) {
	y, pos, neg, err = cls.Binary(o.data.positive)
	if err != nil {
		if o.data.positive == "" && len(cls.Names) == 2 {
			// Two names, neither of which is the positive class by itself:
			// the flag, with the names in the message's order (the file's).
			first := cls.Y[0]
			return nil, "", nil, badInputf("%w (--positive %s or --positive %s)", err, cls.Names[first], cls.Names[1-first])
		}
		return nil, "", nil, badInput(err)
	}
	return y, pos, neg, nil
}

func (o *fitOptions) writeModel(s *streams, write func(io.Writer) error, what string) error {
	if s.isStdout(o.out) {
		if err := write(s.out); err != nil {
			return err
		}
		o.noteUnread(s)
		return nil
	}
	if err := atomicfile.Write(o.out, write); err != nil {
		return err
	}
	o.noteUnread(s)
	fmt.Fprintf(s.err, "%s written to %s\n", what, o.out)
	if !o.json {
		return nil
	}
	return o.printReport(s, fitReport{Model: o.out})
}
