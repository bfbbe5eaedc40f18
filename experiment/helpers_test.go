package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/source"
	"github.com/greedytl/greedytl/sparse"
)

// The tiny synthetic dataset of the tests: 8 ordinary classes c0…c7 of 24
// examples and 3 negative classes n0…n2 of 80 (a pool of 240: 24 target
// negatives), in 11 dimensions with N(0,1) noise: class k < 8 is centred at
// 8·e_k, the negative classes at the origin. Every target is linearly
// separable from the negatives, whichever negatives a split draws.
const (
	testClasses   = 8
	testPerClass  = 24
	testNegatives = 3
	testPerNeg    = 80
)

var testNegativeNames = []string{"n0", "n1", "n2"}

// testFolder writes the tiny dataset to a new directory and loads it.
func testFolder(t testing.TB) *dataset.Folder {
	t.Helper()
	var counts []int
	var centre []float64
	for c := range testClasses + testNegatives {
		if c < testClasses {
			counts, centre = append(counts, testPerClass), append(centre, 8)
		} else {
			counts, centre = append(counts, testPerNeg), append(centre, 0)
		}
	}
	f := datasettest.Shuffled(3, counts, centre)
	copy(f.Classes[testClasses:], testNegativeNames)
	return datasettest.WriteFolder(t, f)
}

// testSources trains the sources of f against the named negative classes
// (plan seed 1) into a new directory, with the default settings or, when
// given, others.
func testSources(t testing.TB, f *dataset.Folder, cfg ...source.TrainConfig) string {
	t.Helper()
	neg, err := source.PlanNegatives(f, testNegativeNames, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tc := source.DefaultTrainConfig()
	if len(cfg) > 0 {
		tc = cfg[0]
	}
	if _, err := source.TrainAll(context.Background(), f, neg, dir, tc, source.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// testConfig returns a small grid on f: 2 and 5 positives, 2 splits, noise 0
// and 7, the given methods, seed 1, the named negative classes.
func testConfig(f *dataset.Folder, out, sources string, methods ...string) Config {
	cfg := DefaultConfig()
	cfg.Data, cfg.Name, cfg.Out, cfg.Sources = f, "tiny", out, sources
	cfg.NegativeClasses = testNegativeNames
	cfg.Positives, cfg.Splits, cfg.Noise = []int{2, 5}, 2, []int{0, 7}
	cfg.Methods = methods
	return cfg
}

// readRecords returns the records of the results file path, failing the
// test on a malformed or partial line.
func readRecords(t testing.TB, path string) []*Record {
	t.Helper()
	var recs []*Record
	_, partial, err := scanResults(path, func(_ []byte, r *Record, _ int) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if partial {
		t.Fatalf("%s ends with a partial line", path)
	}
	return recs
}

// byKey indexes records by key without their fit_seconds, failing the test
// on a duplicate key.
func byKey(t testing.TB, recs []*Record) map[Key]Record {
	t.Helper()
	m := make(map[Key]Record, len(recs))
	for _, r := range recs {
		if _, dup := m[r.Key()]; dup {
			t.Fatalf("cell %v recorded twice", r.Key())
		}
		c := *r
		c.FitSeconds = 0
		m[r.Key()] = c
	}
	return m
}

// sameRecords fails the test unless a and b hold the same cells with equal
// records but for fit_seconds.
func sameRecords(t testing.TB, a, b []*Record) {
	t.Helper()
	ma, mb := byKey(t, a), byKey(t, b)
	if len(ma) != len(mb) {
		t.Fatalf("%d cells vs %d", len(ma), len(mb))
	}
	for k, ra := range ma {
		rb, ok := mb[k]
		if !ok {
			t.Fatalf("cell %v missing from the second set", k)
		}
		ja, _ := jsonString(ra)
		jb, _ := jsonString(rb)
		if ja != jb {
			t.Fatalf("cell %v differs:\n%s\n%s", k, ja, jb)
		}
	}
}

// Methods registered for the tests, to observe what Run gives a method
// and how it records what the method returns.
const (
	probeMethod   = "test-probe"        // transductive oracle: checks its Extra, predicts perfectly
	allNegMethod  = "test-all-negative" // predicts −1: balanced accuracy 1/2
	failingMethod = "test-failing"      // Fit fails
	nanMethod     = "test-nan"          // predicts NaN
	// Logistic regression (liblinear -s 0 on X) whose solver is capped at
	// one iteration, in the final fit or only in a run that "chooses" a
	// hyperparameter (cappedFit).
	cappedMethod          = "test-capped"
	cappedSelectionMethod = "test-capped-selection"
)

// paperMethods returns the registered methods but the tests' own.
func paperMethods() []string {
	var names []string
	for _, n := range method.Names() {
		if !strings.HasPrefix(n, "test-") {
			names = append(names, n)
		}
	}
	return names
}

func init() {
	reg := func(name string, needs method.Needs, fit func(method.Data, method.Extra) (method.Model, error)) {
		method.Register(method.Registration{
			Name: name, Description: "a test method",
			New:    func() method.Method { return &testMethod{name: name, needs: needs, fit: fit} },
			Decode: func(json.RawMessage) (method.Model, error) { return nil, errors.New("test models have no file") },
		})
	}
	reg(probeMethod, method.Needs{Unlabelled: true, Oracle: true}, fitProbe)
	reg(allNegMethod, method.Needs{}, func(_ method.Data, extra method.Extra) (method.Model, error) {
		if extra.Unlabelled != nil || extra.Oracle != nil {
			return nil, errors.New("a plain method was given test data")
		}
		return constModel{-1, nil}, nil
	})
	reg(failingMethod, method.Needs{}, func(method.Data, method.Extra) (method.Model, error) {
		return nil, errors.New("refusing to fit")
	})
	reg(nanMethod, method.Needs{}, func(method.Data, method.Extra) (method.Model, error) {
		return constModel{math.NaN(), nil}, nil
	})
	reg(cappedMethod, method.Needs{}, func(train method.Data, _ method.Extra) (method.Model, error) {
		return cappedFit(train, true)
	})
	reg(cappedSelectionMethod, method.Needs{}, func(train method.Data, _ method.Extra) (method.Model, error) {
		return cappedFit(train, false)
	})
}

// cappedSolver is the solver of cappedFit, as its reports name it.
const cappedSolver = "L2R_LR (liblinear -s 0, C = 10⁴, at most 1 iteration in a capped run)"

// cappedFit fits logistic regression (liblinear's L2R_LR, C = 10⁴) on
// train.X twice — a run standing for one that chooses a hyperparameter,
// then the final run, whose model it returns — the final run's solver
// capped at one iteration when final is set, the other's otherwise, and
// reports honestly (method.NotConverged) the runs whose solver reported
// that it stopped short: a method forced to stop short without changing
// method's caps.
func cappedFit(train method.Data, final bool) (method.Model, error) {
	prob := &linear.Problem{X: sparse.FromDense(train.X), Y: train.Y, Bias: 1}
	run := func(capped bool) (*linear.Model, error) {
		p := linear.Params{Solver: linear.L2RLR, C: 1e4}
		if capped {
			p.MaxIter = 1
		}
		return linear.Train(context.Background(), prob, p)
	}
	selection, err := run(!final)
	if err != nil {
		return nil, err
	}
	model, err := run(final)
	if err != nil {
		return nil, err
	}
	m := &cappedModel{model: model}
	stopped := 0
	for _, r := range []*linear.Model{selection, model} {
		if !r.Converged {
			stopped++
		}
	}
	if stopped > 0 {
		m.report = []method.NotConverged{{Solver: cappedSolver, Stopped: stopped, Runs: 2, Final: !model.Converged}}
	}
	return m, nil
}

// cappedModel is cappedFit's model.
type cappedModel struct {
	model  *linear.Model
	report []method.NotConverged
}

func (*cappedModel) Method() string                             { return cappedMethod }
func (*cappedModel) Hyperparameters() map[string]float64        { return map[string]float64{"C": 1e4} }
func (*cappedModel) SourceWeights() []float64                   { return nil }
func (*cappedModel) Selected() (method.Selection, bool)         { return method.Selection{}, false }
func (m *cappedModel) NotConverged() []method.NotConverged      { return m.report }
func (m *cappedModel) Predict(d method.Data) ([]float64, error) { return m.model.Scores(d.X), nil }

// testMethod is a Method made of a fit function.
type testMethod struct {
	name  string
	needs method.Needs
	fit   func(method.Data, method.Extra) (method.Model, error)
}

func (m *testMethod) Name() string        { return m.name }
func (m *testMethod) Needs() method.Needs { return m.needs }
func (m *testMethod) Fit(_ context.Context, train method.Data, extra method.Extra) (method.Model, error) {
	return m.fit(train, extra)
}

// constModel predicts a constant, or looks rows up in a table.
type constModel struct {
	v     float64
	table map[string]float64
}

func (constModel) Method() string                      { return "test" }
func (constModel) Hyperparameters() map[string]float64 { return map[string]float64{"c": 1} }
func (constModel) SourceWeights() []float64            { return nil }
func (constModel) Selected() (method.Selection, bool)  { return method.Selection{}, false }
func (m constModel) Predict(d method.Data) ([]float64, error) {
	out := make([]float64, d.Rows())
	for i := range out {
		out[i] = m.v
		if m.table != nil {
			v, ok := m.table[rowKey(d, i)]
			if !ok {
				return nil, fmt.Errorf("row %d was not in the oracle's set", i)
			}
			out[i] = v
		}
	}
	return out, nil
}

// rowKey identifies row i of d by its values.
func rowKey(d method.Data, i int) string {
	var b strings.Builder
	for _, a := range []mat.Matrix{d.X, d.H} {
		if a != nil {
			fmt.Fprint(&b, mat.Row(nil, i, a), ";")
		}
	}
	return b.String()
}

// fitProbe checks what a transductive oracle is given — labels ±1 on the
// training set, the test inputs without labels as Unlabelled, the
// labelled test set as Oracle, no training row among the test rows — and
// returns a model that predicts the oracle's labels.
func fitProbe(train method.Data, extra method.Extra) (method.Model, error) {
	u, o := extra.Unlabelled, extra.Oracle
	if u == nil || o == nil || u.Y != nil || o.Y == nil {
		return nil, errors.New("probe: want unlabelled test inputs and a labelled oracle set")
	}
	if !mat.Equal(u.X, o.X) || (u.H != nil) != (o.H != nil) || (u.H != nil && !mat.Equal(u.H, o.H)) {
		return nil, errors.New("probe: the unlabelled inputs are not the oracle's")
	}
	table := make(map[string]float64)
	for i, y := range o.Y {
		table[rowKey(*o, i)] = y
	}
	for i := range train.Y {
		if _, ok := table[rowKey(train, i)]; ok {
			return nil, fmt.Errorf("probe: training row %d is also a test row", i)
		}
	}
	return constModel{table: table}, nil
}

// jsonString returns r as JSON.
func jsonString(r Record) (string, error) {
	b, err := json.Marshal(&r)
	return string(b), err
}

// countBy counts the records by a string key.
func countBy(recs []*Record, key func(*Record) string) map[string]int {
	m := make(map[string]int)
	for _, r := range recs {
		m[key(r)]++
	}
	return m
}

// recompute fits method name on group g of the run described by man, the
// data assembled directly from their definitions rather than by the
// runner, and returns the record's accuracy and source weights.
func recompute(t testing.TB, f *dataset.Folder, set *source.Set, man *Manifest, g group, name string) *Record {
	t.Helper()
	var pos []int
	for i, l := range f.Labels {
		if l == g.Target {
			pos = append(pos, i)
		}
	}
	s := drawSplit(man.Seed, g, pos, man.Negatives.Target, man.sizes())
	var srcIdx []int // the sources of the other classes, by name
	var srcClass []int
	for j := range set.Len() {
		c := slices.Index(f.Classes, set.Name(j))
		if c != g.Target {
			srcIdx, srcClass = append(srcIdx, j), append(srcClass, c)
		}
	}
	sub := set.Subset(srcIdx)
	assemble := func(posRows, negRows []int, noise *mat.Dense) method.Data {
		rows := slices.Concat(posRows, negRows)
		_, d := f.X.Dims()
		nd := 0
		if noise != nil {
			_, nd = noise.Dims()
		}
		X := mat.NewDense(len(rows), d+nd, nil)
		y := make([]float64, len(rows))
		for i, row := range rows {
			for j := range d {
				X.Set(i, j, f.X.At(row, j))
			}
			for j := range nd {
				X.Set(i, d+j, noise.At(i, j))
			}
			y[i] = -1
			if f.Labels[row] == g.Target {
				y[i] = 1
			}
		}
		H, err := sub.Scores(X.Slice(0, len(rows), 0, d))
		if err != nil {
			t.Fatal(err)
		}
		return method.Data{X: X, H: H, Y: y}
	}
	nTrain, nTest := noiseColumns(man.Seed, g, len(s.trainPos)+len(s.trainNeg), len(s.testPos)+len(s.testNeg))
	train := assemble(s.trainPos, s.trainNeg, nTrain)
	test := assemble(s.testPos, s.testNeg, nTest)
	m, err := method.New(name)
	if err != nil {
		t.Fatal(err)
	}
	extra := method.Extra{Seed: methodSeed(man.Seed, g, name)}
	if m.Needs().Oracle {
		extra.Oracle = &test
	}
	model, err := m.Fit(context.Background(), train, extra)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := model.Predict(method.Data{X: test.X, H: test.H})
	if err != nil {
		t.Fatal(err)
	}
	rec := &Record{}
	if rec.BalancedAccuracy, err = metric.BalancedAccuracy(scores, test.Y); err != nil {
		t.Fatal(err)
	}
	for k, w := range model.SourceWeights() {
		if w != 0 {
			rec.Sources, rec.Weights = append(rec.Sources, srcClass[k]), append(rec.Weights, w)
		}
	}
	return rec
}
