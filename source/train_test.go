package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/metric"
)

func TestDefaultTrainConfig(t *testing.T) {
	cfg := DefaultTrainConfig()
	want := []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3, 1e4}
	if !slices.Equal(cfg.Grid, want) {
		t.Errorf("grid %v, want %v", cfg.Grid, want)
	}
	if cfg.Solver != linear.L2RL2LossSVCDual || cfg.Bias != 1 || cfg.Folds != 5 {
		t.Errorf("config %+v, want -s 1 -B 1 with 5 folds", cfg)
	}
	if err := cfg.Check(); err != nil {
		t.Error(err)
	}
}

func TestTrainConfigCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(c *TrainConfig)
		want   string
	}{
		{"not a solver", func(c *TrainConfig) { c.Solver = 101 }, "unknown solver 101"},
		{"unknown solver", func(c *TrainConfig) { c.Solver = 42 }, "unknown solver"},
		{"negative eps", func(c *TrainConfig) { c.Eps = -1 }, "Eps"},
		{"NaN bias", func(c *TrainConfig) { c.Bias = math.NaN() }, "bias NaN"},
		{"empty grid", func(c *TrainConfig) { c.Grid = nil }, "empty C grid"},
		{"zero C", func(c *TrainConfig) { c.Grid = []float64{1, 0} }, "C = 0"},
		{"infinite C", func(c *TrainConfig) { c.Grid = []float64{math.Inf(1)} }, "C = +Inf"},
		{"one fold", func(c *TrainConfig) { c.Folds = 1 }, "1 cross-validation fold,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultTrainConfig()
			tc.change(&cfg)
			err := cfg.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// balancedAccuracyOf returns the balanced accuracy of a source's scores h
// (one per row of the dataset) on the rows of class c (positive) and the
// given negative rows.
func balancedAccuracyOf(t *testing.T, h []float64, pos, neg []int) float64 {
	t.Helper()
	var scores, y []float64
	for _, i := range pos {
		scores, y = append(scores, h[i]), append(y, 1)
	}
	for _, i := range neg {
		scores, y = append(scores, h[i]), append(y, -1)
	}
	acc, err := metric.BalancedAccuracy(scores, y)
	if err != nil {
		t.Fatal(err)
	}
	return acc
}

// TestTrainOneSeparable trains the sources of a separable dataset and
// checks that each separates its class from the source negatives it was
// trained on and from the unseen target negatives, that the CV bookkeeping
// is consistent and ties go to the smaller C, and that training is
// deterministic. (A source need not reject the other sources' classes,
// which it never saw: against two negative blobs, "far from them" is a
// fine rule.)
func TestTrainOneSeparable(t *testing.T) {
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, solver := range []linear.Solver{linear.L2RL2LossSVCDual, linear.L2RL1LossSVCDual, linear.L2RLR} {
		t.Run(solver.String(), func(t *testing.T) {
			cfg := DefaultTrainConfig()
			cfg.Solver = solver
			for c := range f.Classes {
				if neg.IsHeldOut(c) {
					continue
				}
				m, info, err := TrainOne(context.Background(), f, c, neg, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(m.Labels, []int{1, -1}) || m.Bias != 1 || m.Solver != solver {
					t.Errorf("class %d: labels %v, bias %v, solver %v", c, m.Labels, m.Bias, m.Solver)
				}
				set, err := NewSet([]string{info.Name}, []*linear.Model{m})
				if err != nil {
					t.Fatal(err)
				}
				h, err := set.Scores(f.X)
				if err != nil {
					t.Fatal(err)
				}
				scores := mat.Col(nil, 0, h)
				if acc := balancedAccuracyOf(t, scores, f.Rows(c), neg.Source); acc != 1 {
					t.Errorf("class %d: training balanced accuracy %.3f, want 1 (separable)", c, acc)
				}
				if acc := balancedAccuracyOf(t, scores, f.Rows(c), neg.Target); acc != 1 {
					t.Errorf("class %d: balanced accuracy %.3f against the target negatives, want 1 (separable)", c, acc)
				}
				g := slices.Index(cfg.Grid, info.C)
				if g < 0 || info.CVScore != info.CVScores[g] || info.CVScore < 0.95 {
					t.Errorf("class %d: C %v (grid index %d), CV score %v, scores %v", c, info.C, g, info.CVScore, info.CVScores)
				}
				for k, s := range info.CVScores {
					if s > info.CVScore || (k < g && s == info.CVScore) {
						t.Errorf("class %d: C %v with CV score %v was not chosen over C %v with %v", c, cfg.Grid[k], s, info.C, info.CVScore)
					}
				}
				if info.Class != c || info.Name != f.Classes[c] || info.Positives != 20 || info.Negatives != len(neg.Source) {
					t.Errorf("class %d: info %+v", c, info)
				}
				again, _, err := TrainOne(context.Background(), f, c, neg, cfg)
				if err != nil || !slices.Equal(again.W, m.W) {
					t.Errorf("class %d: retraining gave other weights", c)
				}
			}
		})
	}
}

func TestTrainOneErrors(t *testing.T) {
	blobs := datasettest.Blobs(3, 5, 10, 5, 3)
	blobs.Classes = append(blobs.Classes, "empty")
	f := datasettest.WriteFolder(t, blobs)
	neg, err := PlanNegatives(f, []string{"c0"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	badCfg := DefaultTrainConfig()
	badCfg.Folds = 0
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		class int
		neg   *Negatives
		cfg   TrainConfig
		want  string
	}{
		{"held out", context.Background(), 0, neg, DefaultTrainConfig(), `class "c0" is a negative class`},
		{"no examples", context.Background(), 5, neg, DefaultTrainConfig(), `class "empty" has no examples`},
		{"out of range", context.Background(), 6, neg, DefaultTrainConfig(), "class 6 out of range"},
		{"bad config", context.Background(), 1, neg, badCfg, "0 cross-validation folds"},
		{"bad plan", context.Background(), 1, &Negatives{Classes: []int{0}}, DefaultTrainConfig(), "want both > 0"},
		{"cancelled", cancelled, 1, neg, DefaultTrainConfig(), "context canceled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := TrainOne(tc.ctx, f, tc.class, tc.neg, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if tc.ctx.Err() != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
		})
	}
}

// TestTrainOneRecordsStuck: a final fit that stopped numerically stuck
// (TRON with a bias and C whose gradient at 0 overflows: linear's
// TestTRONStopsWhenItsModelIsNaN) is recorded as such in Info, which
// capWarning tells from the iteration cap; a converged one is not.
func TestTrainOneRecordsStuck(t *testing.T) {
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := 0
	for c < len(f.Classes) && neg.IsHeldOut(c) {
		c++
	}
	for _, bias := range []float64{1, 1e308} {
		cfg := DefaultTrainConfig()
		cfg.Solver, cfg.Bias, cfg.Grid = linear.L2RLR, bias, []float64{1}
		m, info, err := TrainOne(context.Background(), f, c, neg, cfg)
		if err != nil {
			t.Fatalf("bias %g: %v", bias, err)
		}
		if info.Converged != m.Converged || info.Stuck != m.Stuck || m.Stuck != (bias != 1) {
			t.Errorf("bias %g: info converged %v stuck %v, model converged %v stuck %v; want the model's, stuck only with bias 1e308", bias, info.Converged, info.Stuck, m.Converged, m.Stuck)
		}
	}
}

// TestTrainOneNamesTheOverflowingRow: a source negative of 1e300 in both
// features among rows of 1e-9 whose class the sign of x₀ − x₁ decides, at
// C = 1e20 and leave-one-out folds (linear's
// TestCrossValidateRefusesOverflowingHeldOutRows): the cross-validation
// refuses the row's NaN decision value, and the error names the row of
// the dataset's features.npy (9, counting from 0 as NumPy does) and its
// class, not its place in the source's binary problem (positives, then
// the negatives in the plan's order), which the user cannot find.
func TestTrainOneNamesTheOverflowingRow(t *testing.T) {
	const big = 9
	x := mat.NewDense(20, 2, nil)
	labels := make([]int, 20)
	for i := range 20 {
		a := float64(i%5+1) * 1e-9
		labels[i] = i % 2
		x.Set(i, i%2, a)
	}
	x.Set(big, 0, 1e300)
	x.Set(big, 1, 1e300)
	f := datasettest.WriteFolder(t, &dataset.Folder{X: x, Labels: labels, Classes: []string{"pos", "neg"}})
	neg, err := PlanNegatives(f, []string{"neg"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if k := slices.Index(neg.Source, big); k < 0 || 10+k+1 == big {
		t.Fatalf("source negatives %v: want row %d among them, at another place in the problem", neg.Source, big)
	}
	cfg := DefaultTrainConfig()
	cfg.Solver, cfg.Grid, cfg.Folds = linear.L2RLR, []float64{1e20}, 20
	_, _, err = TrainOne(context.Background(), f, 0, neg, cfg)
	want := fmt.Sprintf(`the decision value of held-out row %d of %s (counting from 0, as NumPy does; class "neg") is NaN`, big, filepath.Join(f.Dir, "features.npy"))
	if err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "(C = 1e+20)") {
		t.Errorf("error %v; want one containing %q, C named", err, want)
	}
}

// TestDatasetRowNamesEmbeddedData: the overflowing held-out row of data
// the program embeds is named as its messages name that data ("row 3 of
// the embedded CLINC150 data"), not by a features.npy under its Dir
// ("embedded:clinc150/features.npy", which no one can open); and a
// *linear.HeldOutError wrapped in another error is named too, the
// wrapping kept (a type assertion let it by, "example 2 (counting from
// 1)").
func TestDatasetRowNamesEmbeddedData(t *testing.T) {
	f := &dataset.Folder{Dir: "embedded:clinc150", Embedded: "the embedded CLINC150 data", Labels: []int{0, 1, 0, 1}, Classes: []string{"pos", "neg"}}
	rows := []int{0, 2, 3}
	const want = `linear: cross-validation: the decision value of held-out row 3 of the embedded CLINC150 data (counting from 0, as NumPy does; class "neg") is NaN`
	for _, wrap := range []string{"", "fold 2: "} {
		var err error = &linear.HeldOutError{Example: 2, Value: math.NaN()}
		if wrap != "" {
			err = fmt.Errorf("%s%w", wrap, err)
		}
		err = datasetRow(err, f, rows)
		if err == nil || !strings.HasPrefix(err.Error(), wrap+want) || !errors.As(err, new(*linear.HeldOutError)) {
			t.Errorf("error %v; want one starting %q, still a *linear.HeldOutError", err, wrap+want)
		}
	}
	f.Embedded, f.Dir = "", "data"
	err := datasetRow(&linear.HeldOutError{Example: 0, Value: math.Inf(1)}, f, rows)
	if want := `held-out row 0 of ` + filepath.Join("data", "features.npy") + ` (counting from 0, as NumPy does; class "pos") is +Inf`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v; want one containing %q", err, want)
	}
}

// TestTrainOneRecordsScoreStats: a trained source's record holds the mean
// and the standard deviation (n in the denominator) of its scores, as Set
// computes them, over the rows it was trained on — its class's examples
// and the source negatives —, recomputed here by brute force from the
// scores of every row.
func TestTrainOneRecordsScoreStats(t *testing.T) {
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	for c := range f.Classes {
		if neg.IsHeldOut(c) {
			continue
		}
		m, info, err := TrainOne(context.Background(), f, c, neg, DefaultTrainConfig())
		if err != nil {
			t.Fatal(err)
		}
		set, err := NewSet([]string{info.Name}, []*linear.Model{m})
		if err != nil {
			t.Fatal(err)
		}
		h, err := set.Scores(f.X)
		if err != nil {
			t.Fatal(err)
		}
		var v []float64
		for _, i := range slices.Concat(f.Rows(c), neg.Source) {
			v = append(v, h.At(i, 0))
		}
		mean := 0.0
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		ss := 0.0
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		std := math.Sqrt(ss / float64(len(v)))
		if info.Scores == nil {
			t.Fatalf("class %d: no score statistics recorded", c)
		}
		if got := info.Scores; math.Abs(got.Mean-mean) > 1e-12*(1+math.Abs(mean)) || math.Abs(got.Std-std) > 1e-12*std || std == 0 {
			t.Errorf("class %d: scores mean %v std %v, brute force %v and %v", c, got.Mean, got.Std, mean, std)
		}
		// Scored a chunk of rows at a time (trainingScoreStats), the
		// statistics are the same bits whatever the chunk.
		for _, chunk := range []int{1, 7, len(v) - 1} {
			func() {
				defer func(c int) { scoreStatsChunk = c }(scoreStatsChunk)
				scoreStatsChunk = chunk
				_, again, err := TrainOne(context.Background(), f, c, neg, DefaultTrainConfig())
				if err != nil {
					t.Fatal(err)
				}
				if *again.Scores != *info.Scores {
					t.Errorf("class %d, chunks of %d rows: scores %+v, in chunks of %d %+v", c, chunk, *again.Scores, 1024, *info.Scores)
				}
			}()
		}
	}
}

// TestIndexScoreStats: an index written before the score statistics were
// recorded (testdata/sources.json) is read, its sources without them, and
// ScoreScales gives nil for it; one with them reads them back, ScoreScales
// giving them in the order asked; a negative standard deviation is
// refused, naming the source.
func TestIndexScoreStats(t *testing.T) {
	ix, err := ReadIndex("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ix.Sources {
		if e.Scores != nil {
			t.Errorf("source %q: scores %+v read from an index without them", e.Name, *e.Scores)
		}
	}
	write := func(st *ScoreStats) (*Index, error) {
		c := *ix
		c.Sources = slices.Clone(ix.Sources)
		for j := range c.Sources {
			c.Sources[j].Scores = &ScoreStats{Mean: -1.5 + float64(j), Std: 0.25}
		}
		c.Sources[1].Scores = st
		b, err := json.Marshal(&c)
		if err != nil {
			t.Fatal(err)
		}
		return readIndexBytes(t, b)
	}
	got, err := write(&ScoreStats{Mean: 2, Std: 0})
	if err != nil {
		t.Fatal(err)
	}
	for j, e := range got.Sources {
		want := ScoreStats{Mean: -1.5 + float64(j), Std: 0.25}
		if j == 1 {
			want = ScoreStats{Mean: 2, Std: 0}
		}
		if e.Scores == nil || *e.Scores != want {
			t.Errorf("source %d: scores %v, want %+v", j, e.Scores, want)
		}
	}
	if sc := got.ScoreScales([]int{2, 0, 1}); sc == nil || !slices.Equal(sc.Mean, []float64{0.5, -1.5, 2}) || !slices.Equal(sc.Scale, []float64{0.25, 0.25, 0}) {
		t.Errorf("ScoreScales of sources 2, 0, 1: %+v", sc)
	}
	// A spread of rounding alone over the training rows (standardize.
	// Constant: a bias-only source) is a constant column, scale 0, as
	// standardize.Fit makes it; not 1.5e-15, which would standardise the
	// target rows' same constant score to −1 or another large value.
	got, err = write(&ScoreStats{Mean: 2, Std: 1.5e-15})
	if err != nil {
		t.Fatal(err)
	}
	if sc := got.ScoreScales([]int{1, 0}); sc == nil || !slices.Equal(sc.Mean, []float64{2, -1.5}) || !slices.Equal(sc.Scale, []float64{0, 0.25}) {
		t.Errorf("ScoreScales of a source constant but for rounding, and source 0: %+v, want scales 0, 0.25", sc)
	}
	if sc := ix.ScoreScales([]int{0}); sc != nil {
		t.Errorf("ScoreScales of an index without statistics: %+v, want nil", sc)
	}
	for _, bad := range []float64{-0.5, -1e-300} {
		if _, err := write(&ScoreStats{Mean: 0, Std: bad}); err == nil || !strings.Contains(err.Error(), ix.Sources[1].Name) || !strings.Contains(err.Error(), "scores") {
			t.Errorf("std %v: error %v, want one naming source %q and its scores", bad, err, ix.Sources[1].Name)
		}
	}
}
