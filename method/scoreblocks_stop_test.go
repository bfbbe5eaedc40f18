package method

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// stopScorer is a blockScorer that, scoring its blocks, cancels a context
// at block cancelAt (counted from 1; with prepare, in blockScores, which
// then fails as errNotBlockScored) and fails block failAt.
type stopScorer struct {
	blockScorer
	cancel          context.CancelFunc
	cancelAt        int
	failAt          int
	prepare         bool
	scored, blocked int
}

var errBlock = errors.New("the block's own error")

func (m *stopScorer) blockScores(d Data) (blockFunc, int, error) {
	if m.prepare {
		m.cancel()
		return nil, 0, errNotBlockScored
	}
	score, rows, err := m.blockScorer.blockScores(d)
	if err != nil {
		return nil, 0, err
	}
	return func(lo, hi int) (*mat.Dense, error) {
		m.blocked++
		if m.blocked == m.cancelAt {
			m.cancel()
		}
		if m.blocked == m.failAt {
			return nil, errBlock
		}
		return score(lo, hi)
	}, rows, nil
}

// wholeOnly is a MultiModel that is not scored in blocks.
type wholeOnly struct{ MultiModel }

// stopProblem returns a nearest-mean model of 3 classes and test rows
// that it scores in several blocks (smallScoreBlocks).
func stopProblem(t *testing.T) (blockScorer, Data) {
	t.Helper()
	smallScoreBlocks(t)
	train, y, test, _ := multiProblem(5, 3, 3, 1000/3, 5, 3)
	mm, _ := NewMulti("nearest-mean")
	model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range scoreBlocks(test.Rows(), 3) {
		n++
	}
	if n < 3 {
		t.Fatalf("%d blocks: the test needs 3", n)
	}
	return model.(blockScorer), test
}

// TestScoringStopsWhenCancelledAsABlockFails: PredictContext and
// ScoreBlocks return the context's error, never a block's own error nor
// the internal errNotBlockScored, and score nothing whole, when the
// context is cancelled during their work: after the first block (they
// scored the rows whole and returned them), as a later block fails, and
// as the model's blocks are prepared (they returned errNotBlockScored).
func TestScoringStopsWhenCancelledAsABlockFails(t *testing.T) {
	bs, test := stopProblem(t)
	for _, c := range []struct {
		name             string
		cancelAt, failAt int
		prepare          bool
	}{
		{"cancelled in the first block", 1, 0, false},
		{"cancelled as the second block fails", 2, 2, false},
		{"cancelled as the blocks are prepared", 0, 0, true},
	} {
		for _, scores := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			m := &stopScorer{blockScorer: bs, cancel: cancel, cancelAt: c.cancelAt, failAt: c.failAt, prepare: c.prepare}
			var err error
			var got int
			if scores {
				err = ScoreBlocks(ctx, m, test, func(_ int, s *mat.Dense) error { got += s.RawMatrix().Rows; return nil })
			} else {
				var pred []int
				pred, err = PredictContext(ctx, m, test)
				got = len(pred)
			}
			cancel()
			if !errors.Is(err, context.Canceled) || errors.Is(err, errBlock) || errors.Is(err, errNotBlockScored) || got == test.Rows() {
				t.Errorf("%s (ScoreBlocks %v): %d of %d rows, error %v; want context.Canceled", c.name, scores, got, test.Rows(), err)
			}
		}
	}
}

// TestScoreBlocksFailedFirstBlock: a first block that fails, where Scores
// does not, fails ScoreBlocks with the block's error, as a later block's
// does, giving each nothing (it gave each the whole rows' scores).
func TestScoreBlocksFailedFirstBlock(t *testing.T) {
	bs, test := stopProblem(t)
	for _, at := range []int{1, 2} {
		m := &stopScorer{blockScorer: bs, cancel: func() {}, failAt: at}
		rows := 0
		err := ScoreBlocks(context.Background(), m, test, func(_ int, s *mat.Dense) error { rows += s.RawMatrix().Rows; return nil })
		if !errors.Is(err, errBlock) || rows == test.Rows() {
			t.Errorf("block %d fails: each had %d of %d rows, error %v; want %v", at, rows, test.Rows(), err, errBlock)
		}
	}
}

// TestScoreBlocksChecksTheContextFirst: ScoreBlocks of a model not scored
// in blocks, with a context already done, returns its error without
// scoring the rows or calling each.
func TestScoreBlocksChecksTheContextFirst(t *testing.T) {
	bs, test := stopProblem(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := ScoreBlocks(ctx, wholeOnly{bs}, test, func(int, *mat.Dense) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Errorf("error %v, each called: %v; want context.Canceled, not called", err, called)
	}
}

// TestScoreBlocksErrorInALaterBlock: ScoreBlocks' error for a row whose
// scores overflow, in a block after the first, is Scores' on the whole
// input (numbering the input's row), not the block's (numbering the
// block's), after each has had the blocks before it.
func TestScoreBlocksErrorInALaterBlock(t *testing.T) {
	bs, test := stopProblem(t)
	rows := test.Rows()
	X := mat.DenseCopyOf(test.X)
	for j := range 5 {
		X.Set(rows-1, j, 5e307)
	}
	big := Data{X: X, H: test.H}
	_, serr := bs.Scores(big)
	score, r, err := bs.blockScores(big)
	if serr == nil || err != nil {
		t.Fatalf("Scores: %v, blockScores: %v; want Scores to fail on the last row alone", serr, err)
	}
	var blockErr error
	for lo, hi := range scoreBlocks(r, 3) {
		if _, err := score(lo, hi); err != nil {
			blockErr = err
		}
	}
	if blockErr == nil || blockErr.Error() == serr.Error() {
		t.Fatalf("the block's error %v is Scores' %v: the test proves nothing", blockErr, serr)
	}
	given := 0
	err = ScoreBlocks(context.Background(), bs, big, func(_ int, s *mat.Dense) error { given += s.RawMatrix().Rows; return nil })
	if err == nil || err.Error() != serr.Error() || given == 0 || given == rows {
		t.Errorf("ScoreBlocks: error %v after %d of %d rows; want Scores' %v after the blocks before the last", err, given, rows, serr)
	}
	if !strings.Contains(serr.Error(), "row") {
		t.Logf("Scores' error names no row: %v", serr)
	}
}
