package method

import (
	"context"
	"errors"
	"iter"

	"gonum.org/v1/gonum/blas/gonum"
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

// errNotBlockScored is blockScores' error for a model whose rows are not
// scored alone (not MultiRowByRow): an ensemble with a member that is not
// a blockScorer, a one-vs-rest model with a class's model that is not
// RowByRow (none of this package's). PredictContext and ScoreBlocks then
// score the rows whole.
var errNotBlockScored = errors.New("method: a member is not scored in blocks")

// scoreBlockFloats is the number of scores a block of scoreBlocks holds
// (8 MB), as PredictContext, ScoreBlocks and predictByScores score a
// blockScorer; a block has at least minScoreBlockRows rows however many
// classes there are.
var scoreBlockFloats = 1 << 20

// minScoreBlockRows is the fewest rows of a block of scoreBlocks (which
// PredictContext, ScoreBlocks and predictByScores score; a last block of
// fewer rows joins the one before it).
const minScoreBlockRows = 256

// rowDot returns the dot product of z and w (of equal lengths) in a fixed
// order: the products of each 64 columns summed by gonum's own Ddot
// (gonum.Implementation, whatever BLAS blas64.Use installed), the sums
// added in column order — the order of gonum's parallel matrix product
// (tiles of 64), which the linear models' scores had when a product of 4
// tiles or more scored all the rows at once. A row's score is thus the same
// bits in any block of rows, in a file read in blocks or whole, and in any
// BLAS build (OpenBLAS chooses its kernel and blocking by the sizes of the
// call, and gonum's serial product for fewer than 4 tiles sums each row in
// one Ddot).
func rowDot(z, w []float64) float64 {
	var s float64
	for c := 0; c < len(z); c += 64 {
		e := min(c+64, len(z))
		s += gonum.Implementation{}.Ddot(e-c, z[c:e], 1, w[c:e], 1)
	}
	return s
}

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

// predictByScores returns the argmax of m's scores on d (ArgmaxRows): the
// Predict of the models scored in blocks, PredictContext without a
// context.
func predictByScores(m MultiModel, d Data) ([]int, error) {
	return PredictContext(context.Background(), m, d)
}

// PredictContext returns m.Predict(d), checking ctx between blocks of rows:
// it returns ctx's error once ctx is done, and when ctx is done as a block
// fails (not the block's error). A model scored in blocks (every native
// multi-class model, one-vs-rest models of binary models that score each
// row alone, ensembles of them) is ArgmaxRows of its ScoreBlocks, a block
// of rows at a time (scoreBlocks), holding the scores of one block, not of
// every row; its errors are ScoreBlocks' (an error of m on a block is
// Scores' on the whole of d), and a NaN score is ArgmaxRows' error naming
// the row of d. Any other model is asked m.Predict(d), once ctx is checked.
func PredictContext(ctx context.Context, m MultiModel, d Data) ([]int, error) {
	if _, ok := m.(blockScorer); !ok {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return m.Predict(d)
	}
	var pred []int
	err := ScoreBlocks(ctx, m, d, func(lo int, s *mat.Dense) error {
		p, err := argmaxRows(s, lo)
		pred = append(pred[:lo], p...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return pred, nil
}

// ScoreBlocks gives each block of rows of d, in order, to each: the row
// index of its first row and m's scores of its rows (the matrix may be
// overwritten once each returns), so that m.Scores(d) is the blocks one
// under the other, bit for bit. A model scored in blocks (a blockScorer:
// see PredictContext) gives blocks of scoreBlocks' rows; any other model one
// block, m.Scores(d). ctx is checked between blocks: ScoreBlocks returns
// ctx's error once it is done, and when ctx is done as a block fails (not
// the block's error). An error of each is returned as it is; an error of m
// on a block, the first or a later one, is m.Scores(d)'s on the whole of d
// (given when Scores fails there too, else the block's), after each has
// had the blocks before it.
func ScoreBlocks(ctx context.Context, m MultiModel, d Data, each func(lo int, s *mat.Dense) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	bs, ok := m.(blockScorer)
	if !ok {
		s, err := m.Scores(d)
		if err != nil {
			return err
		}
		return each(0, s)
	}
	var eachErr error
	err := scoreInBlocks(ctx, bs, d, func(lo int, s *mat.Dense) error {
		eachErr = each(lo, s)
		return eachErr
	})
	switch {
	case err == nil || eachErr != nil:
		return err
	case ctx.Err() != nil:
		return ctx.Err()
	}
	s, whole := m.Scores(d)
	switch {
	case whole != nil:
		return whole
	case errors.Is(err, errNotBlockScored): // any other model: one block
		return each(0, s)
	}
	return err
}

// scoreInBlocks gives each block of bs's scores of d to each (the row of
// its first row, the scores), checking ctx before each block. It returns
// the error of bs's checks (blockScores: errNotBlockScored for an ensemble
// with a member not scored in blocks), of a block, of each, or of ctx; and
// an error for no rows, which Scores names.
func scoreInBlocks(ctx context.Context, bs blockScorer, d Data, each func(lo int, s *mat.Dense) error) error {
	score, rows, err := bs.blockScores(d)
	if err != nil {
		return err
	}
	if rows == 0 {
		return errNoRows
	}
	for lo, hi := range scoreBlocks(rows, len(bs.Classes())) {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := score(lo, hi)
		if err != nil {
			return err
		}
		if err := each(lo, s); err != nil {
			return err
		}
	}
	return nil
}

// errNoRows is scoreInBlocks' error for an input of no rows: Scores gives
// the error that names it.
var errNoRows = errors.New("method: no rows to predict")

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
