package grid

import "math"

// Regularization returns the paper's grid of regularisation parameters,
// {1e-4, 1e-3, …, 1e4}, searched for ridge's λ and for the C of SVMs and
// logistic regression.
func Regularization() []float64 { return PowersOfTen(-4, 4) }

// Tau returns the paper's grid of MultiKT's radius τ, {1e-3, 1e-2, …, 1e3}.
func Tau() []float64 { return PowersOfTen(-3, 3) }

// PowersOfTen returns 10^lo, 10^(lo+1), …, 10^hi (empty when hi < lo), each
// the float64 nearest to the power (math.Pow10).
func PowersOfTen(lo, hi int) []float64 {
	g := make([]float64, 0, max(0, hi-lo+1))
	for e := lo; e <= hi; e++ {
		g = append(g, math.Pow10(e))
	}
	return g
}
