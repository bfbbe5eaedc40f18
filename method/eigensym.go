package method

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// eigenSymChecked returns the eigenvalues and eigenvectors of a, those of
// mat.EigenSym's Factorize(a, true), Values and VectorsTo, checking ctx
// before and after the decomposition (which it cannot stop: a few hundred
// rows take a tenth of a second or more) and returning ctx.Err() once it
// is done. ok is false when the decomposition fails to converge
// (Factorize's false). a must not be empty.
func eigenSymChecked(ctx context.Context, a mat.Symmetric) (values []float64, vectors *mat.Dense, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	var eig mat.EigenSym
	ok = eig.Factorize(a, true)
	if err := ctx.Err(); err != nil || !ok {
		return nil, nil, false, err
	}
	vectors = new(mat.Dense)
	eig.VectorsTo(vectors)
	return eig.Values(nil), vectors, true, nil
}
