package method

import (
	"errors"
	"iter"

	"gonum.org/v1/gonum/mat"
)

// blockScorer is a MultiModel whose scores of a row depend on that row
// alone: Predict scores it a block of rows at a time (predictByScores), so
// that predicting does not hold the rows × classes scores at once (1.6 GB
// for 20,000 rows of 10,000 classes).
type blockScorer interface {
	MultiModel
	// blockScores checks and prepares d (the errors of Scores' checks of
	// the inputs) and returns its number of rows and a function giving the
	// scores of rows [lo, hi): Scores' values for those rows, bit for bit,
	// and an error where Scores would have one (not necessarily the same
	// error). The matrix it returns may be overwritten by its next call.
	blockScores(d Data) (score blockFunc, rows int, err error)
}

// blockFunc returns the scores of rows [lo, hi) of a blockScorer's input.
type blockFunc func(lo, hi int) (*mat.Dense, error)

// errNotBlockScored reports an ensemble with a member that is not a
// blockScorer: predictByScores then scores the rows whole.
var errNotBlockScored = errors.New("method: a member is not scored in blocks")

// scoreBlockFloats is the number of scores predictByScores aims to hold at
// once (8 MB); a block has at least minScoreBlockRows rows however many
// classes there are.
var scoreBlockFloats = 1 << 20

// minScoreBlockRows is the fewest rows of a block that predictByScores
// scores: 4 × 64, so that gonum's matrix product (blas/gonum Dgemm, tiles
// of 64 × 64, parallel from 4 tiles on) runs every block in parallel, as
// it runs all the rows, on the same tiles of rows — the same sums in the
// same order, bit for bit the scores of the whole product.
const minScoreBlockRows = 256

// scoreBlocks yields the blocks [lo, hi) of rows rows that predictByScores
// scores for K classes: blockRows(K) rows each, starting at multiples of
// 64, the last one taking the rest (from minScoreBlockRows to
// blockRows(K) + minScoreBlockRows − 1 rows); one block [0, rows) when
// there are fewer than blockRows(K) + minScoreBlockRows.
func scoreBlocks(rows, K int) iter.Seq2[int, int] {
	b := max(minScoreBlockRows, scoreBlockFloats/max(K, 1)/64*64)
	return func(yield func(int, int) bool) {
		lo := 0
		for rows-lo >= b+minScoreBlockRows {
			if !yield(lo, lo+b) {
				return
			}
			lo += b
		}
		yield(lo, rows)
	}
}

// predictByScores returns the argmax of m's scores on d (ArgmaxRows). A
// blockScorer is scored a block of rows at a time (scoreBlocks); if that
// fails, or m is not one, it is scored whole (Scores), which gives its
// error as it was (the first row that fails, across the whole input).
func predictByScores(m MultiModel, d Data) ([]int, error) {
	if bs, ok := m.(blockScorer); ok {
		if pred, ok := predictInBlocks(bs, d); ok {
			return pred, nil
		}
	}
	s, err := m.Scores(d)
	if err != nil {
		return nil, err
	}
	return ArgmaxRows(s)
}

// predictInBlocks returns the argmax of bs's scores of every row of d,
// scored in blocks (scoreBlocks), or false when a block fails.
func predictInBlocks(bs blockScorer, d Data) ([]int, bool) {
	score, rows, err := bs.blockScores(d)
	if err != nil || rows == 0 {
		return nil, false
	}
	pred := make([]int, 0, rows)
	for lo, hi := range scoreBlocks(rows, len(bs.Classes())) {
		s, err := score(lo, hi)
		if err != nil {
			return nil, false
		}
		p, err := ArgmaxRows(s)
		if err != nil {
			return nil, false
		}
		pred = append(pred, p...)
	}
	return pred, true
}

// wholeScores returns bs's scores of every row of d at once: Scores of a
// blockScorer.
func wholeScores(bs blockScorer, d Data) (*mat.Dense, error) {
	score, rows, err := bs.blockScores(d)
	if err != nil {
		return nil, err
	}
	return score(0, rows)
}

// reusedDense returns an r × c matrix on *buf, grown when short: the
// matrix a blockFunc returns, reused from one block to the next.
func reusedDense(buf *[]float64, r, c int) *mat.Dense {
	if cap(*buf) < r*c {
		*buf = make([]float64, r*c)
	}
	return mat.NewDense(r, c, (*buf)[:r*c])
}
