package source

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/grid"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/standardize"
)

// TrainConfig sets how a source is trained. Start from DefaultTrainConfig:
// the zero value is not valid (its Solver would be logistic regression).
type TrainConfig struct {
	// Solver is the linear learner; a classifier of package linear.
	Solver linear.Solver
	// Bias is the value of liblinear's bias feature (-B); ≤ 0, 0 included:
	// none, and the models record bias −1 (not liblinear -B 0's feature of
	// zeros).
	Bias float64
	// Eps is the solver's stopping tolerance (-e); 0: liblinear's default.
	Eps float64
	// Grid holds the candidate values of C.
	Grid []float64
	// Folds is the number of cross-validation folds that choose C.
	Folds int
	// Seed seeds the folds and the solver's coordinate order.
	Seed uint64
	// L1Ratio is the elastic-net mixing of linear.ElasticNetLR
	// (linear.Params.L1Ratio), in [0, 1]; it must be 0 for the other
	// solvers, which have no such setting.
	L1Ratio float64
}

// DefaultTrainConfig returns the paper's setup: a liblinear L2-regularised
// squared-hinge SVM (-s 1, dual coordinate descent) with a bias feature
// (-B 1), C chosen by 5-fold cross-validation over {1e-4, 1e-3, …, 1e4},
// seed 1.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{
		Solver: linear.L2RL2LossSVCDual,
		Bias:   1,
		Grid:   DefaultGrid(),
		Folds:  5,
		Seed:   1,
	}
}

// DefaultGrid returns the paper's grid of C values, {1e-4, 1e-3, …, 1e4}.
func DefaultGrid() []float64 { return grid.Regularization() }

// Check returns an error when the solver is not a classifier package
// linear implements, Eps or Bias is not finite, Eps is negative, L1Ratio
// is outside [0, 1] or not 0 with a solver other than ElasticNetLR, the
// grid is empty or holds a value that is not finite and positive, or
// Folds < 2. The solver's, Eps's and L1Ratio's errors are linear's.
func (c TrainConfig) Check() error {
	if err := (linear.Params{Solver: c.Solver, Eps: c.Eps, L1Ratio: c.L1Ratio}).Check(); err != nil {
		return err // linear's, which names its package
	}
	if c.L1Ratio != 0 && c.Solver != linear.ElasticNetLR {
		return fmt.Errorf("source: L1 ratio %v applies to %v, not %v", c.L1Ratio, linear.ElasticNetLR, c.Solver)
	}
	if math.IsNaN(c.Bias) || math.IsInf(c.Bias, 0) {
		return fmt.Errorf("source: bias %v is not finite", c.Bias)
	}
	if len(c.Grid) == 0 {
		return errors.New("source: empty C grid")
	}
	for _, v := range c.Grid {
		if !inputcheck.PositiveFinite(v) {
			return fmt.Errorf("source: C = %v in the grid, want finite values > 0", v)
		}
	}
	if c.Folds < 2 {
		return fmt.Errorf("source: %s, want at least 2", plural.Count(c.Folds, "cross-validation fold", "cross-validation folds"))
	}
	return nil
}

// params returns the learner's parameters for cost C.
func (c TrainConfig) params(cost float64) linear.Params {
	return linear.Params{Solver: c.Solver, C: cost, Eps: c.Eps, Seed: c.Seed, L1Ratio: c.L1Ratio}
}

// Info describes the training of one source, without its timing: the
// index of a sources directory lists it for each source (Entry), and the
// sidecar record TrainAll writes beside each model holds it with the
// training's wall time.
type Info struct {
	// Class is the source's class in the dataset, Name its name.
	Class int    `json:"class"`
	Name  string `json:"name"`
	// C is the cost chosen by cross-validation.
	C float64 `json:"c"`
	// CVScore is the cross-validated balanced accuracy at C, and
	// CVScores that of every value of the grid, in grid order.
	CVScore  float64   `json:"cv_score"`
	CVScores []float64 `json:"cv_scores"`
	// Positives and Negatives count the training examples.
	Positives int `json:"positives"`
	Negatives int `json:"negatives"`
	// Converged is false when the final fit stopped at the solver's
	// iteration cap or, short of it, numerically stuck (Stuck).
	Converged bool `json:"converged"`
	// Stuck is true when the final fit stopped short of the cap,
	// numerically stuck (linear.Model.Stuck); absent from the file when
	// false.
	Stuck bool `json:"stuck,omitempty"`
	// Scores are the mean and standard deviation of the source's scores
	// (Set's) over the rows it was trained on; nil in a record written
	// before they were recorded (absent from the file).
	Scores *ScoreStats `json:"scores,omitempty"`
}

// ScoreStats are the mean and the standard deviation (n in the
// denominator, as standardize.Fit's) of a source's scores over the rows it
// was trained on: its class's examples and the source negatives. They standardise its scores
// on a target's handful of examples with statistics of a thousand rows
// rather than of those few (method.Extra.SourceScales).
type ScoreStats struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// check validates the fields of an Info read from a file (an index entry,
// a sidecar record) that its other fields constrain.
func (info *Info) check() error {
	if info.Stuck && info.Converged {
		return fmt.Errorf("source %q: stuck and converged at once", info.Name)
	}
	if st := info.Scores; st != nil && (!inputcheck.Finite(st.Mean) || !(st.Std >= 0) || !inputcheck.Finite(st.Std)) {
		return fmt.Errorf("source %q: scores: mean %v and std %v, want finite numbers, the std 0 or more", info.Name, st.Mean, st.Std)
	}
	return nil
}

// TrainOne trains the source of class: a linear classifier of the class's
// examples (label +1) against the source negatives of neg (label −1), with
// the learner of cfg. C is the value of cfg.Grid with the best
// cfg.Folds-fold stratified cross-validated balanced accuracy, ties going
// to the smaller C; balanced accuracy, (TPR + TNR)/2, rather than
// accuracy, because a class has far fewer examples than the negatives. The
// model is then refitted on all the examples with that C. Training is
// deterministic given cfg.Seed. The model's labels are [1 -1], so its
// decision value (and Set's score) is positive for the class.
//
// It returns an error for an invalid cfg, a class that is out of range,
// held out as negative, or has no examples, a negative plan that does not
// fit f (Negatives.Check), when ctx is done (ctx's error), and when the
// learner fails.
func TrainOne(ctx context.Context, f *dataset.Folder, class int, neg *Negatives, cfg TrainConfig) (*linear.Model, Info, error) {
	if err := cfg.Check(); err != nil {
		return nil, Info{}, err
	}
	if f == nil {
		return nil, Info{}, errNoFolder
	}
	if class < 0 || class >= len(f.Classes) {
		return nil, Info{}, fmt.Errorf("source: class %d out of range: the dataset has %d classes", class, len(f.Classes))
	}
	if err := neg.Check(f); err != nil {
		return nil, Info{}, err
	}
	b, err := readSharedRows(f, f.Rows(class), neg.Source)
	if err != nil {
		return nil, Info{}, err
	}
	return trainOne(ctx, f, b, class, neg, cfg)
}

// trainOne is TrainOne without the validation of cfg and neg, on the rows
// of b.
func trainOne(ctx context.Context, f *dataset.Folder, b *sharedRows, class int, neg *Negatives, cfg TrainConfig) (*linear.Model, Info, error) {
	name := f.Classes[class]
	info := Info{Class: class, Name: name}
	if neg.IsHeldOut(class) {
		return nil, info, fmt.Errorf("source: class %q is a negative class", name)
	}
	pos := f.Rows(class)
	if len(pos) == 0 {
		return nil, info, fmt.Errorf("source: class %q has no examples", name)
	}
	rows := slices.Concat(pos, neg.Source)
	prob := &linear.Problem{Dense: b.rows(rows), Y: dataset.SignedLabels(len(pos), len(neg.Source)), Bias: cfg.Bias}
	info.Positives, info.Negatives = len(pos), len(neg.Source)

	folds := min(cfg.Folds, len(rows))
	best, scores, err := linear.SelectCBy(ctx, prob, cfg.params(0), cfg.Grid, folds, cfg.Seed, metric.BalancedAccuracy)
	if err != nil {
		return nil, info, fmt.Errorf("source %q: %w", name, datasetRow(err, f, rows))
	}
	model, err := linear.Train(ctx, prob, cfg.params(best))
	if err != nil {
		return nil, info, fmt.Errorf("source %q: %w", name, err)
	}
	if info.Scores, err = trainingScoreStats(name, model, prob.Dense); err != nil {
		return nil, info, err
	}
	info.C = best
	info.CVScores = scores
	info.CVScore = scores[slices.Index(cfg.Grid, best)]
	info.Converged, info.Stuck = model.Converged, model.Stuck
	return model, info, nil
}

// trainingScoreStats returns the ScoreStats of model's scores, as Set
// computes them, over its training rows rows. It scores them
// scoreStatsChunk rows at a time, each chunk copied to the sparse form
// ScoresCSR reads: a copy of all the rows (16 bytes a value) would cost
// each training worker several times its rows' memory; a row's score is
// the same bits in any chunk.
func trainingScoreStats(name string, model *linear.Model, rows *linear.Dense) (*ScoreStats, error) {
	set, err := NewSet([]string{name}, []*linear.Model{model})
	if err != nil {
		return nil, err
	}
	n := rows.Rows()
	scores := make([]float64, 0, n)
	idx := make([]int, 0, min(n, scoreStatsChunk))
	for lo := 0; lo < n; lo += scoreStatsChunk {
		idx = idx[:0]
		for i := lo; i < min(n, lo+scoreStatsChunk); i++ {
			idx = append(idx, i)
		}
		h, err := set.ScoresCSR(rows.Select(idx).CSR())
		if err != nil {
			var se *ScoreError
			if errors.As(err, &se) {
				se.Row += lo // a row of rows, not of the chunk
			}
			return nil, err
		}
		scores = append(scores, h.RawMatrix().Data...) // one column: stride 1
	}
	mean, std, ok := standardize.Moments(scores)
	if !ok {
		return nil, fmt.Errorf("source %q: the spread of its scores over its training rows overflows", name)
	}
	return &ScoreStats{Mean: mean, Std: std}, nil
}

// scoreStatsChunk is the rows trainingScoreStats scores at a time.
var scoreStatsChunk = 1024

// datasetRow returns err, the error of the cross-validation of a
// source's binary problem of f's rows rows (positives, then negatives),
// with a held-out example whose decision value overflowed
// (*linear.HeldOutError, wrapped or not) named by its row of f's
// features (FeaturesName), counting from 0 as NumPy does, and its class,
// not by its place in the problem, which the user cannot find. The error
// is named in place; a wrapping's message, fixed when it was made, has
// the error's old words replaced (renamed), the wrapping kept.
func datasetRow(err error, f *dataset.Folder, rows []int) error {
	var h *linear.HeldOutError
	if !errors.As(err, &h) || h.Example < 0 || h.Example >= len(rows) {
		return err
	}
	old := h.Error()
	r := rows[h.Example]
	h.Row = fmt.Sprintf("row %d of %s (counting from 0, as NumPy does; class %q)", r, f.FeaturesName(), f.Classes[f.Labels[r]])
	if msg := err.Error(); strings.Contains(msg, old) {
		return renamed{strings.Replace(msg, old, h.Error(), 1), err}
	}
	return err
}

// renamed is the error err with the message msg: a wrapping of a
// *linear.HeldOutError whose message datasetRow rewrote.
type renamed struct {
	msg string
	err error
}

func (e renamed) Error() string { return e.msg }
func (e renamed) Unwrap() error { return e.err }

// sharedRows holds the features of the rows a training job needs, read once
// (in the file's precision) and shared by the problems of its classes: a
// class's problem is a selection of these rows, not a copy.
type sharedRows struct {
	dense *linear.Dense
	index map[int]int // dataset row → row of dense
}

// readSharedRows reads the rows of f that lists name.
func readSharedRows(f *dataset.Folder, lists ...[]int) (*sharedRows, error) {
	set, index := dataset.RowSet(lists...)
	if len(set) == 0 {
		return &sharedRows{index: index}, nil
	}
	data, err := f.ReadRows(set)
	if err != nil {
		return nil, err
	}
	var d *linear.Dense
	if data.F32 != nil {
		d, err = linear.NewDense32(data.F32, data.Cols, nil)
	} else {
		d, err = linear.NewDense64(data.F64, data.Cols, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("source: dataset %s: %w", f.Dir, err)
	}
	return &sharedRows{dense: d, index: index}, nil
}

// rows returns the problem rows of the dataset's rows rows, which b
// holds.
func (b *sharedRows) rows(rows []int) *linear.Dense {
	idx := make([]int, len(rows))
	for k, r := range rows {
		idx[k] = b.index[r]
	}
	return b.dense.Select(idx)
}
