package method

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOneVsRestScoresInBlocks: a one-vs-rest model of binary models that
// score each row alone (no-transfer's Linear, greedytl-auto's AutoModel,
// greedytl's root-package model, dictionary's codes; dictionary's were
// scored whole), fitted and read back from its file, is
// scored a block of rows at a time (ScoreBlocks: here blocks of 256 rows
// and a last of 488, of 1,000 rows of 5 classes in 70 + 3 columns), each
// block Scores' values of its rows bit for bit, each row alone too
// (Scores of that row), and Predict and PredictContext are ArgmaxRows of
// Scores. It was scored whole (Scores: rows × classes at once).
func TestOneVsRestScoresInBlocks(t *testing.T) {
	smallScoreBlocks(t)
	const K = 5
	train, y, test, _ := multiProblem(7, K, 6, 200, 70, 3)
	for _, name := range []string{"no-transfer", "greedytl-auto", "greedytl", "dictionary"} {
		mm, err := NewMulti(name)
		if err != nil {
			t.Fatal(err)
		}
		fitted, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteMulti(&buf, fitted, FileInfo{}); err != nil {
			t.Fatal(err)
		}
		read, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []MultiModel{fitted, read.Multi} {
			whole, err := model.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := whole.Dims()
			blocks := 0
			err = ScoreBlocks(context.Background(), model, test, func(lo int, s *mat.Dense) error {
				blocks++
				r, _ := s.Dims()
				if r > 744 {
					t.Errorf("%s: a block of %d rows, not at most 744", name, r)
				}
				if want := whole.Slice(lo, lo+r, 0, K).(*mat.Dense); !sameBits(s, want) {
					t.Errorf("%s: rows [%d, %d) scored in a block differ from Scores'", name, lo, lo+r)
				}
				return nil
			})
			if err != nil || blocks < 2 {
				t.Fatalf("%s: %d blocks, error %v: want 2 or more (%T)", name, blocks, err, model)
			}
			for _, i := range []int{0, 1, rows / 2, rows - 1} {
				alone, err := model.Scores(Data{X: rowsOf(dense(test.X), []int{i}), H: rowsOf(dense(test.H), []int{i})})
				if err != nil {
					t.Fatal(err)
				}
				if !sameBits(alone, whole.Slice(i, i+1, 0, K).(*mat.Dense)) {
					t.Errorf("%s: row %d alone scores %v, among %d rows %v", name, i, alone.RawRowView(0), rows, whole.RawRowView(i))
				}
			}
			want := argmaxOf(t, whole)
			pred, err := model.Predict(test)
			if err != nil || !slices.Equal(pred, want) {
				t.Errorf("%s: Predict is not the argmax of Scores (error %v)", name, err)
			}
			pred, err = PredictContext(context.Background(), model, test)
			if err != nil || !slices.Equal(pred, want) {
				t.Errorf("%s: PredictContext is not the argmax of Scores (error %v)", name, err)
			}
		}
	}
}

// TestPredictStopsBetweenBlocks: ScoreBlocks, PredictContext and OneClass
// return the context's error once it is done — ScoreBlocks after the block
// in which it was cancelled, OneClass of a model read from a file (which
// predicts the training rows) without predicting them. They had no
// context: predicting could not be stopped.
func TestPredictStopsBetweenBlocks(t *testing.T) {
	smallScoreBlocks(t)
	train, y, test, _ := multiProblem(7, 4, 6, 250, 5, 3)
	mm, err := NewMulti("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	fitted, err := mm.FitMulti(context.Background(), train, y, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMulti(&buf, fitted, FileInfo{}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	model := f.Multi
	ctx, cancel := context.WithCancel(context.Background())
	blocks := 0
	err = ScoreBlocks(ctx, model, test, func(int, *mat.Dense) error {
		blocks++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || blocks != 1 {
		t.Errorf("ScoreBlocks cancelled in its first block: %d blocks, error %v; want 1 and context.Canceled", blocks, err)
	}
	if _, err := PredictContext(ctx, model, test); !errors.Is(err, context.Canceled) {
		t.Errorf("PredictContext with a cancelled context: %v, want context.Canceled", err)
	}
	if _, _, err := OneClass(ctx, model, train); !errors.Is(err, context.Canceled) {
		t.Errorf("OneClass with a cancelled context: %v, want context.Canceled", err)
	}
	if _, one, err := OneClass(context.Background(), model, train); err != nil || one {
		t.Errorf("OneClass: one class %v, error %v; want several, no error", one, err)
	}
}

// hiddenModel hides its binary model's type from RowByRow.
type hiddenModel struct{ Model }

// TestMultiRowByRow: a multi-class model scores each row alone
// (MultiRowByRow) when it is scored in blocks: a native multi-class model,
// a one-vs-rest model of linear or dictionary models (whose scores of a
// row were products over all the rows: not MultiRowByRow), an ensemble of
// them; a one-vs-rest model of a binary model RowByRow does not know
// does not, and neither does an ensemble holding one.
func TestMultiRowByRow(t *testing.T) {
	train, y, _, _ := multiProblem(7, 3, 6, 10, 8, 2)
	fit := func(name string) MultiModel {
		m, _ := multiFile(t, name, train, y)
		return m
	}
	linear, dict, native := fit("no-transfer"), fit("dictionary"), fit("nearest-mean")
	hiddenOVR := *dict.(*ovrModel)
	hiddenOVR.models = slices.Clone(hiddenOVR.models)
	hiddenOVR.models[1] = hiddenModel{hiddenOVR.models[1]}
	hidden := &hiddenOVR
	for _, tc := range []struct {
		name string
		m    MultiModel
		want bool
	}{
		{"one-vs-rest no-transfer", linear, true},
		{"nearest-mean", native, true},
		{"one-vs-rest dictionary", dict, true},
		{"ensemble of linear, native and dictionary", &ensembleModel{members: []MultiModel{linear, native, dict}}, true},
		{"one-vs-rest with a hidden class model", hidden, false},
		{"ensemble holding it", &ensembleModel{members: []MultiModel{linear, hidden}}, false},
	} {
		if got := MultiRowByRow(tc.m); got != tc.want {
			t.Errorf("%s: MultiRowByRow %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, _, err := hidden.blockScores(train); !errors.Is(err, errNotBlockScored) {
		t.Errorf("one-vs-rest with a hidden class model: blockScores error %v, want errNotBlockScored", err)
	}
}
