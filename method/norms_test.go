package method

import "gonum.org/v1/gonum/floats"

// The norms the tests measure with.

func norm1(v []float64) float64   { return floats.Norm(v, 1) }
func norm2(v []float64) float64   { return floats.Norm(v, 2) }
func dist(a, b []float64) float64 { return floats.Distance(a, b, 2) }
