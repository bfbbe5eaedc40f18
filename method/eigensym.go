package method

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// eigenSymChecked returns the eigenvalues and eigenvectors of a as
// mat.EigenSym's Factorize(a, true) and its Values and VectorsTo do, bit
// for bit — the same LAPACK steps of gonum's Dsyev (scaling into range,
// reduction to tridiagonal form by Dsytrd, its orthogonal matrix by
// Dorgtr, the tridiagonal QR iteration by Dsteqr) on a workspace of the
// same size — but checks ctx between the steps, and returns ctx.Err() once
// it is done: the decomposition of a few hundred rows is a tenth of a
// second or more. ok is false when the QR iteration fails to converge
// (Factorize's false). a must not be empty.
func eigenSymChecked(ctx context.Context, a mat.Symmetric) (values []float64, vectors *mat.Dense, ok bool, err error) {
	n := a.SymmetricDim()
	sd := mat.NewSymDense(n, nil)
	sd.CopySym(a)
	raw := sd.RawSymmetric() // upper triangle, as Factorize's copy
	impl := lapackgonum.Implementation{}
	w := make([]float64, n)
	query := []float64{0}
	impl.Dsyev(lapack.EVCompute, raw.Uplo, n, raw.Data, raw.Stride, w, query, -1)
	lwork := int(query[0])
	work := make([]float64, lwork)
	if n == 1 {
		w[0] = raw.Data[0]
		return w, mat.NewDense(1, 1, []float64{1}), true, nil
	}
	// Dsyev's scaling of a matrix whose largest entry is out of range.
	const safmin, eps = 0x1p-1022, 0x1p-52
	smlnum := safmin / eps
	rmin, rmax := math.Sqrt(smlnum), math.Sqrt(1/smlnum)
	anrm := impl.Dlansy(lapack.MaxAbs, raw.Uplo, n, raw.Data, raw.Stride, work)
	var sigma float64
	switch {
	case anrm > 0 && anrm < rmin:
		sigma = rmin / anrm
	case anrm > rmax:
		sigma = rmax / anrm
	}
	if sigma != 0 {
		impl.Dlascl(lapack.UpperTri, 0, 0, 1, sigma, n, n, raw.Data, raw.Stride)
	}
	e, tau, rest := work[:n], work[n:2*n], work[2*n:]
	impl.Dsytrd(blas.Upper, n, raw.Data, raw.Stride, w, e, tau, rest, lwork-2*n)
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	impl.Dorgtr(blas.Upper, n, raw.Data, raw.Stride, tau, rest, lwork-2*n)
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	if !impl.Dsteqr(lapack.EVComp(lapack.EVCompute), n, w, e, raw.Data, raw.Stride, work[n:]) {
		return nil, nil, false, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	if sigma != 0 {
		blas64.Implementation().Dscal(n, 1/sigma, w, 1)
	}
	return w, mat.NewDense(n, n, raw.Data), true, nil
}
