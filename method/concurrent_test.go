package method

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestConcurrentModels checks what Model and MultiModel promise: a fitted
// model of every registered method (binary, and multi-class: the natives
// and every binary method one against the rest) answers Predict, Scores,
// Selected, Hyperparameters, SourceWeights and its file from several
// goroutines at once exactly as from one, and its methods do not write to
// the model or to the inputs they share (run it with -race to have the
// race detector check the second half). Fits of one method value run
// concurrently too (Method is stateless).
func TestConcurrentModels(t *testing.T) {
	const goroutines = 8
	run := func(work func()) {
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(work)
		}
		wg.Wait()
	}
	c := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			meth, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			run(func() {
				if _, err := meth.Fit(context.Background(), c.train, c.extra); err != nil {
					t.Errorf("concurrent Fit: %v", err)
				}
			})
			model, err := meth.Fit(context.Background(), c.train, c.extra)
			if err != nil {
				t.Fatal(err)
			}
			want, err := model.Predict(c.test)
			if err != nil {
				t.Fatal(err)
			}
			hp, sw := model.Hyperparameters(), model.SourceWeights()
			var file bytes.Buffer
			if err := Write(&file, model, FileInfo{}); err != nil {
				t.Fatal(err)
			}
			run(func() {
				got, err := model.Predict(c.test)
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("concurrent Predict: %v (scores equal: %v)", err, slices.Equal(got, want))
				}
				model.Selected()
				if !maps.Equal(model.Hyperparameters(), hp) || !slices.Equal(model.SourceWeights(), sw) {
					t.Error("concurrent Hyperparameters or SourceWeights differ")
				}
				var b bytes.Buffer
				if err := Write(&b, model, FileInfo{}); err != nil || !bytes.Equal(b.Bytes(), file.Bytes()) {
					t.Errorf("concurrent Write: %v (files equal: %v)", err, bytes.Equal(b.Bytes(), file.Bytes()))
				}
			})
		})
	}
	eachMultiMethod(t, func(t *testing.T, mm MultiMethod, train Data, y ClassLabels, test Data, extra Extra) {
		run(func() {
			if _, err := mm.FitMulti(context.Background(), train, y, extra); err != nil {
				t.Errorf("concurrent FitMulti: %v", err)
			}
		})
		model, err := mm.FitMulti(context.Background(), train, y, extra)
		if err != nil {
			t.Fatal(err)
		}
		want, err := model.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		if err := WriteMulti(&file, model, FileInfo{}); err != nil {
			t.Fatal(err)
		}
		run(func() {
			got, err := model.Scores(test)
			if err != nil || !mat.Equal(got, want) {
				t.Errorf("concurrent Scores: %v", err)
			}
			if pred, err := model.Predict(test); err != nil || !slices.Equal(pred, argmaxOf(t, want)) {
				t.Errorf("concurrent Predict: %v", err)
			}
			model.Selected()
			model.Hyperparameters()
			var b bytes.Buffer
			if err := WriteMulti(&b, model, FileInfo{}); err != nil || !bytes.Equal(b.Bytes(), file.Bytes()) {
				t.Errorf("concurrent WriteMulti: %v (files equal: %v)", err, bytes.Equal(b.Bytes(), file.Bytes()))
			}
		})
	})
}
