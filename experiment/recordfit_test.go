package experiment

import (
	"context"
	"errors"
	"testing"
)

// TestRecordFit: both protocols' fit step records a failed fit as "fit: …",
// returns the context's cause instead when the context is done, and leaves
// none of a failed evaluation's results in the record (Features −1, unknown,
// for a binary cell; 0 for an episode).
func TestRecordFit(t *testing.T) {
	fail := func(context.Context) (int, error) { return 0, errors.New("no") }
	fit := func(context.Context) (int, error) { return 7, nil }
	rec, err := recordFit(context.Background(), &Record{}, fail, func(int) error { return nil })
	if err != nil || rec.Error != "fit: no" {
		t.Errorf("failed fit: %+v, %v", rec, err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("stop")
	cancel(cause)
	if rec, err := recordFit(ctx, &Record{}, fail, func(int) error { return nil }); rec != nil || err != cause {
		t.Errorf("fit failing after the context is done: %+v, %v; want the cause", rec, err)
	}
	for _, ways := range []int{0, 5} {
		var got int
		rec, err := recordFit(context.Background(), &Record{Ways: ways, Features: 3}, fit, func(m int) error {
			got = m
			return nil
		})
		if err != nil || rec.Error != "" || got != 7 || rec.Features != 3 {
			t.Errorf("ways %d: evaluated %d: %+v, %v", ways, got, rec, err)
		}
		rec = &Record{Ways: ways}
		rec, err = recordFit(context.Background(), rec, fit, func(int) error {
			rec.Accuracy, rec.BalancedAccuracy, rec.Hyperparameters = 0.5, 0.5, map[string]float64{"c": 1}
			rec.Sources, rec.SourceNames, rec.Weights, rec.Features = []int{1}, []string{"a"}, []float64{1}, 2
			return errors.New("predict: bad")
		})
		want := 0
		if ways == 0 {
			want = -1
		}
		if err != nil || rec.Error != "predict: bad" || rec.Accuracy != 0 || rec.BalancedAccuracy != 0 || rec.Hyperparameters != nil ||
			rec.Sources != nil || rec.SourceNames != nil || rec.Weights != nil || rec.Features != want {
			t.Errorf("ways %d: failed evaluation left %+v, %v", ways, rec, err)
		}
	}
}
