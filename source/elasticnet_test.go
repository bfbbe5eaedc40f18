package source

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/linear"
)

// TestElasticNetSourcesUseTheL1Ratio: a source of ElasticNetLR is the
// elastic-net of TrainConfig.L1Ratio — linear.Train's model on the class
// against the source negatives at that ratio, not at 0 (pure L2), which is
// what it was when the config could not carry a ratio — and the index
// records the ratio (Config gives it back), so that a rerun with another
// ratio is another job. A ratio with another solver is refused.
func TestElasticNetSourcesUseTheL1Ratio(t *testing.T) {
	j := newJob(t)
	j.cfg = TrainConfig{Solver: linear.ElasticNetLR, Bias: 1, Grid: []float64{1}, Folds: 2, Seed: 1, L1Ratio: 0.5}
	class := j.sources()[0]
	got, _, err := TrainOne(context.Background(), j.f, class, j.neg, j.cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: the same rows, dense, trained by linear directly.
	rows := slices.Concat(j.f.Rows(class), j.neg.Source)
	_, d := j.f.X.Dims()
	data := make([]float64, 0, len(rows)*d)
	for _, r := range rows {
		data = append(data, j.f.X.RawRowView(r)...)
	}
	index := make([]int, len(rows))
	for i := range index {
		index[i] = i
	}
	x, err := linear.NewDense64(data, d, index)
	if err != nil {
		t.Fatal(err)
	}
	prob := &linear.Problem{Dense: x, Y: dataset.SignedLabels(len(j.f.Rows(class)), len(j.neg.Source)), Bias: 1}
	for _, ratio := range []float64{0.5, 0} {
		want, err := linear.Train(context.Background(), prob, linear.Params{Solver: linear.ElasticNetLR, C: 1, Seed: 1, L1Ratio: ratio})
		if err != nil {
			t.Fatal(err)
		}
		if same := slices.Equal(got.W, want.W); same != (ratio == 0.5) {
			t.Errorf("the source's weights %v equal those of L1 ratio %v: %v (want %v)\nsource %v\nratio  %v", got.W, ratio, same, ratio == 0.5, got.W, want.W)
		}
	}

	res, err := j.run(t, context.Background(), t.TempDir(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := res.Index.Config(); err != nil || !reflect.DeepEqual(cfg, j.cfg) {
		t.Errorf("index config %+v (%v), want %+v", cfg, err, j.cfg)
	}

	bad := DefaultTrainConfig()
	bad.L1Ratio = 0.5
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "L1 ratio 0.5 applies to ELASTICNET_LR") {
		t.Errorf("an L1 ratio with %v: %v", bad.Solver, err)
	}
}
