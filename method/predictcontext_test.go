package method

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictContextFailedBlock: PredictContext of a model whose block
// fails where its Scores of every row does not fails with the block's
// error, as ScoreBlocks does (TestScoreBlocksFailedFirstBlock), whose
// blocks it takes the argmax of; it returned the argmax of the whole
// rows' scores, hiding the block's failure.
func TestPredictContextFailedBlock(t *testing.T) {
	bs, test := stopProblem(t)
	for _, at := range []int{1, 2} {
		m := &stopScorer{blockScorer: bs, cancel: func() {}, failAt: at}
		pred, err := PredictContext(context.Background(), m, test)
		if !errors.Is(err, errBlock) || pred != nil {
			t.Errorf("block %d fails: %d predictions, error %v; want %v", at, len(pred), err, errBlock)
		}
	}
}

// nanScorer is a blockScorer whose scores of row nan (of the whole
// input), column 1, are NaN, in its blocks and its Scores.
type nanScorer struct {
	blockScorer
	nan int
}

func (m nanScorer) blockScores(d Data) (blockFunc, int, error) {
	score, rows, err := m.blockScorer.blockScores(d)
	if err != nil {
		return nil, 0, err
	}
	return func(lo, hi int) (*mat.Dense, error) {
		s, err := score(lo, hi)
		if err == nil && lo <= m.nan && m.nan < hi {
			s.Set(m.nan-lo, 1, math.NaN())
		}
		return s, err
	}, rows, nil
}

func (m nanScorer) Scores(d Data) (*mat.Dense, error) {
	s, err := wholeScores(m, d)
	if err != nil {
		return nil, err
	}
	return mat.DenseCopyOf(s), nil
}

// TestPredictContextNaNNamesTheRow: a NaN score (which no model's Scores
// returns) of a row in a later block of rows fails PredictContext with
// ArgmaxRows' error naming the row of the input, not of its block.
func TestPredictContextNaNNamesTheRow(t *testing.T) {
	bs, test := stopProblem(t)
	for _, row := range []int{3, test.Rows() - 2} {
		pred, err := PredictContext(context.Background(), nanScorer{bs, row}, test)
		if want := fmt.Sprintf("method.ArgmaxRows: row %d column 1 is NaN", row); err == nil || err.Error() != want || pred != nil {
			t.Errorf("NaN at row %d: %d predictions, error %v; want %q", row, len(pred), err, want)
		}
	}
}
