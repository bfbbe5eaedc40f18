package method

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
)

// lbfgsMemory is the number of correction pairs lbfgs keeps.
const lbfgsMemory = 10

// lbfgs minimises a smooth function by limited-memory BFGS (Nocedal and
// Wright, Algorithm 7.4, the two-loop recursion) with a backtracking
// Armijo line search, from x, which it overwrites with the minimiser. fg
// returns the function's value at x and writes its gradient to grad. It
// stops when the gradient's infinity norm is at most tol (converged), after
// maxIter iterations, or when the line search finds no decrease (at the
// limit of the arithmetic); it returns the number of iterations, the
// gradient's final infinity norm and whether it converged — false in the
// last two cases, where x is the last iterate, not a point of gradient tol
// (the fit reports it: NotConverged). A correction pair with sᵀy ≤ 0 is
// skipped, and a direction that is not one of descent restarts from the
// steepest descent. It checks ctx before each iteration and returns
// ctx.Err() (and x as it is) once ctx is done.
func lbfgs(ctx context.Context, fg func(x, grad []float64) float64, x []float64, tol float64, maxIter int) (iters int, gnorm float64, converged bool, err error) {
	n := len(x)
	g := make([]float64, n)
	f := fg(x, g)
	if gn := floats.Norm(g, math.Inf(1)); gn <= tol {
		return 0, gn, true, nil
	}
	var S, Y [][]float64
	var rho []float64
	d := make([]float64, n)
	alpha := make([]float64, lbfgsMemory)
	xn := make([]float64, n)
	gn := make([]float64, n)
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return it - 1, floats.Norm(g, math.Inf(1)), false, err
		}
		// d = −H g by the two-loop recursion.
		copy(d, g)
		for i := len(S) - 1; i >= 0; i-- {
			alpha[i] = rho[i] * floats.Dot(S[i], d)
			floats.AddScaled(d, -alpha[i], Y[i])
		}
		if k := len(S) - 1; k >= 0 {
			floats.Scale(floats.Dot(S[k], Y[k])/floats.Dot(Y[k], Y[k]), d)
		} else {
			floats.Scale(1/math.Max(1, floats.Norm(g, 2)), d)
		}
		for i := range S {
			beta := rho[i] * floats.Dot(Y[i], d)
			floats.AddScaled(d, alpha[i]-beta, S[i])
		}
		floats.Scale(-1, d)
		slope := floats.Dot(g, d)
		if !(slope < 0) {
			S, Y, rho = nil, nil, nil
			copy(d, g)
			floats.Scale(-1/math.Max(1, floats.Norm(g, 2)), d)
			slope = floats.Dot(g, d)
		}
		t, fn := 1.0, 0.0
		ok := false
		for range 40 {
			floats.AddScaledTo(xn, x, t, d)
			fn = fg(xn, gn)
			if fn <= f+1e-4*t*slope && fn < f {
				ok = true
				break
			}
			t /= 2
		}
		if !ok {
			return it, floats.Norm(g, math.Inf(1)), false, nil
		}
		s := make([]float64, n)
		y := make([]float64, n)
		floats.SubTo(s, xn, x)
		floats.SubTo(y, gn, g)
		if sy := floats.Dot(s, y); sy > 1e-12*floats.Norm(s, 2)*floats.Norm(y, 2) {
			if len(S) == lbfgsMemory {
				S, Y, rho = S[1:], Y[1:], rho[1:]
			}
			S, Y, rho = append(S, s), append(Y, y), append(rho, 1/sy)
		}
		copy(x, xn)
		copy(g, gn)
		f = fn
		if gn := floats.Norm(g, math.Inf(1)); gn <= tol {
			return it, gn, true, nil
		}
	}
	return maxIter, floats.Norm(g, math.Inf(1)), false, nil
}
