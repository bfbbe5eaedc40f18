//go:build !purego

package greedytl

// floatsDot4AVX sets out[q] to the dot product of x[:n] with y_q[:n], q = 0, …, 3,
// each summed exactly as gonum's floats.Dot (four partial sums, of the
// elements i ≡ 0, 1, 2, 3 mod 4 up to the last multiple of 4, the rest
// added to the first in turn, then (s₀ + s₂) + (s₁ + s₃); products and
// sums rounded one by one, no fused multiply–add), so that its results
// are floats.Dot's bit for bit (gramdot_amd64.s; AVX).
//
//go:noescape
func floatsDot4AVX(n int, x, y0, y1, y2, y3 *float64, out *[4]float64)

// floatsDot4 sets out to the dot products of x with y0, …, y3 (all of x's
// length), floats.Dot's bit for bit: in one pass over x with AVX where the
// machine has it (haveAVX), else by floats.Dot.
func floatsDot4(x, y0, y1, y2, y3 []float64, out *[4]float64) {
	n := len(x)
	if !haveAVX || n == 0 {
		floatsDot4Go(x, y0, y1, y2, y3, out)
		return
	}
	_, _, _, _ = y0[n-1], y1[n-1], y2[n-1], y3[n-1]
	floatsDot4AVX(n, &x[0], &y0[0], &y1[0], &y2[0], &y3[0], out)
}
