package method

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// contentOrder returns the order of the training rows of x and h (either
// may be absent) labelled labels by a key of their content alone: the
// 64-bit FNV-1a hash of the bits of their features (x's row; −0 read as
// +0), ties — rows of equal features, or no features at all — broken by
// the values themselves (x's row, then h's, compared in column order), then
// by the bits of their features (+0 before −0 where the values are equal;
// not the source scores', for the reason below), and then by the label and
// the row index, which only orders rows equal in every value and every
// feature's bits, whose order changes nothing but, at most, where a
// model keeps its rows, the sign of a zero source score. Fitting on the rows in this
// order makes the model a function of the set of rows: any permutation of
// them gives the same model, bit for bit. greedytl-auto's Fit (±1 labels)
// and every native multi-class fit (fitMultiScaled, class indices) read
// their rows in it (inContentOrder), so that the folds they deal by position — greedytl-auto's
// subsamples, the stratified folds of multinomial-logistic's and
// greedytl-nway's choice of C — and every sum over the rows are the same
// for any order of the same rows. The key is a hash rather than the
// values, so that interleaved folds in this order are not sorted by one
// column; it leaves out the source scores, which are computed (by
// greedytl from a sources directory, by the user's own code, by another
// BLAS) and may differ in their last bits between two routes to the same
// scores: a hash of them would move every row for such a difference, and
// the model with it, where the values' order moves none. x, h (nil when
// absent) and labels must have one row per label (a checked sample).
func contentOrder[L cmp.Ordered](x, h *mat.Dense, labels []L) []int {
	row := func(a *mat.Dense, r int) []float64 {
		if a == nil {
			return nil
		}
		return a.RawRowView(r)
	}
	keys := make([]uint64, len(labels))
	var buf []byte
	for r := range keys {
		buf = appendRowKey(buf[:0], row(x, r)) // −0 hashes as +0: the tie-break below compares them equal too
		hash := fnv.New64a()
		hash.Write(buf)
		keys[r] = hash.Sum64()
	}
	order := make([]int, len(keys))
	for r := range order {
		order[r] = r
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		if c := slices.Compare(row(x, a), row(x, b)); c != 0 {
			return c
		}
		if c := slices.Compare(row(h, a), row(h, b)); c != 0 {
			return c
		}
		if c := compareBits(row(x, a), row(x, b)); c != 0 {
			return c // equal features of other bits: +0 and −0
		}
		return cmp.Or(cmp.Compare(labels[a], labels[b]), cmp.Compare(a, b))
	})
	return order
}

// compareBits compares two rows of equal length by the bits of their
// values, in column order.
func compareBits(a, b []float64) int {
	for i := range a {
		if c := cmp.Compare(math.Float64bits(a[i]), math.Float64bits(b[i])); c != 0 {
			return c
		}
	}
	return 0
}

// inContentOrder returns the rows of a checked training sample labelled
// labels (train.Y's for a binary sample, class indices for a multi-class
// one) in content order (contentOrder), train.Y included when set, and
// that order: new matrices, so that a fit on them depends on the set of
// rows alone. X and H are made dense once (denseData), for the order and
// the selection.
func inContentOrder[L cmp.Ordered](train Data, labels []L) (Data, []int) {
	train = denseData(train)
	x, _ := train.X.(*mat.Dense)
	h, _ := train.H.(*mat.Dense)
	order := contentOrder(x, h, labels)
	return selectRows(train, order), order
}

// appendRowKey appends to buf the bytes of row's values, each as its
// float64 bits little-endian, −0 written as +0: a key equal for two rows
// exactly when their values are (NaN aside), which contentOrder hashes and
// nearestNeighbourModel.trainingClasses compares.
func appendRowKey(buf []byte, row []float64) []byte {
	for _, v := range row {
		if v == 0 {
			v = 0 // −0 as +0
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf
}
