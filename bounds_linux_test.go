package greedytl

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// guardedFloats returns n float64s in memory of their own between two
// pages that may not be read (PROT_NONE), flush against the one after them
// (atEnd) or the one before: reading one float past either end of the
// slice faults.
func guardedFloats(t *testing.T, n int, atEnd bool) []float64 {
	t.Helper()
	pg := syscall.Getpagesize()
	body := (n*8 + pg - 1) / pg * pg
	b, err := syscall.Mmap(-1, 0, body+2*pg, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	if err := syscall.Mprotect(b[:pg], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(b[pg+body:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	off := pg
	if atEnd {
		off = pg + body - n*8
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[off])), n)
}

// cornerView returns a copy of a as a view into a matrix of pad more
// columns and one more row in guarded memory (guardedFloats), NaN
// elsewhere: its bottom-right corner, whose last element is the last
// readable float (atEnd), or its top-left corner, whose first is the
// first.
func cornerView(t *testing.T, a *mat.Dense, atEnd bool, pad int) *mat.Dense {
	r, c := a.Dims()
	R, C := r+1, c+pad
	data := guardedFloats(t, R*C, atEnd)
	for i := range data {
		data[i] = math.NaN()
	}
	big := mat.NewDense(R, C, data)
	v := big.Slice(0, r, 0, c).(*mat.Dense)
	if atEnd {
		v = big.Slice(1, R, pad, C).(*mat.Dense)
	}
	v.Copy(a)
	return v
}

// gramJSON returns the model file of the Gram of X, H and y fitted with o.
func gramJSON(t *testing.T, ctx context.Context, X, H mat.Matrix, y []float64, o Options) []byte {
	t.Helper()
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := g.Fit(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := gm.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFitReadsOnlyItsInputs: Fit's kernels, which read row-major input a
// few columns at a time (rowStats, gatherColumns: assembly on amd64),
// read nothing outside the matrix they are given, however its rows and
// columns fall against the end of its memory, and a view at the end of
// its memory or at its start fits to the bits of a contiguous copy:
// exact and sampled searches, γ ≠ 1, Gram, Predict, and the float32 block
// of a large exact fit (beyond 4 MB and 256 rows).
func TestFitReadsOnlyItsInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	check := func(X, H *mat.Dense, y []float64, opts []Options, pads []int, gram bool) {
		t.Helper()
		m, c := X.Dims()
		for _, o := range opts {
			var want bytes.Buffer
			wantMod := fitT(t, X, H, y, o)
			if err := wantMod.WriteJSON(&want); err != nil {
				t.Fatal(err)
			}
			wantPred, err := wantMod.Predict(X, H)
			if err != nil {
				t.Fatal(err)
			}
			var wantGram []byte
			if gram && o.Sample == 0 {
				wantGram = gramJSON(t, ctx, X, H, y, o)
			}
			for _, atEnd := range []bool{true, false} {
				for _, pad := range pads {
					xv, hv := cornerView(t, X, atEnd, pad), cornerView(t, H, atEnd, pad)
					xt := cornerView(t, mat.DenseCopyOf(X.T()), atEnd, pad).T()
					for _, x := range []mat.Matrix{xv, xt} {
						mod := fitT(t, x, hv, y, o)
						var got bytes.Buffer
						if err := mod.WriteJSON(&got); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got.Bytes(), want.Bytes()) {
							t.Errorf("m = %d, %d columns, %+v, at end %v, pad %d, %T: another model than on a contiguous copy", m, c, o, atEnd, pad, x)
						}
						pred, err := mod.Predict(x, hv)
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(pred, wantPred) {
							t.Errorf("m = %d, %d columns, %+v, at end %v, pad %d, %T: other predictions than on a contiguous copy", m, c, o, atEnd, pad, x)
						}
					}
					if gram && o.Sample == 0 {
						if !bytes.Equal(gramJSON(t, ctx, xv, hv, y, o), wantGram) {
							t.Errorf("m = %d, %d columns, %+v, at end %v, pad %d: a Gram's fit other than on a contiguous copy", m, c, o, atEnd, pad)
						}
					}
				}
			}
		}
	}
	opts := []Options{DefaultOptions(), {Lambda: 1, Sample: 3, Seed: 1, FeatureFactor: 1, Delta: 1e-4}, {Lambda: 1, FeatureFactor: 2.5, Delta: 1e-4}}
	for _, m := range []int{2, 3, 5, 8, 9} {
		for _, c := range []int{1, 2, 3, 4, 5, 7, 8, 9, 13} {
			X, H := randDense(rng, m, c), randDense(rng, m, c+1)
			check(X, H, randLabels(rng, m), opts, []int{0, 1, 3}, true)
		}
	}
	if testing.Short() {
		return
	}
	m := 300
	X, H := randDense(rng, m, 903), randDense(rng, m, 901)
	y := randLabels(rng, m)
	for i := range m {
		X.Set(i, 5, X.At(i, 5)+0.3*y[i])
	}
	check(X, H, y, []Options{DefaultOptions()}, []int{1}, false)
}
