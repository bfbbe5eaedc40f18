//go:build !amd64 || purego

package greedytl

// moments4 is moments4Go where there is no vector kernel.
func moments4(rows *float64, stride, m int, invN float64, out *[8]float64) {
	moments4Go(rows, stride, m, invN, out)
}

// scale4 is scale4Go where there is no vector kernel.
func scale4(rows *float64, stride, m int, mf *[8]float64, dst *float64) {
	scale4Go(rows, stride, m, mf, dst)
}
