//go:build !amd64 || purego

package greedytl

// floatsDot4 sets out to the dot products of x with y0, …, y3 (all of x's
// length), by floats.Dot where there is no vector kernel.
func floatsDot4(x, y0, y1, y2, y3 []float64, out *[4]float64) {
	floatsDot4Go(x, y0, y1, y2, y3, out)
}
