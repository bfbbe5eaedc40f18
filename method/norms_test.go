package method

import "gonum.org/v1/gonum/floats"

// The norms the tests measure with.

func norm1(v []float64) float64   { return floats.Norm(v, 1) }
func norm2(v []float64) float64   { return floats.Norm(v, 2) }
func dist(a, b []float64) float64 { return floats.Distance(a, b, 2) }

// mean returns the arithmetic mean of v.
func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
