package method

import (
	"fmt"
	"math"
	"slices"
)

// Euclidean projections onto norm balls, the feasible sets of MultiKT's
// source weights β.

// projectL2Ball writes into dst the Euclidean projection of v onto the ball
// {x : ||x||₂ ≤ tau}: v itself when it lies in the ball, v·tau/||v||₂
// otherwise. dst may be v. It panics when the lengths differ or tau is
// negative or NaN (programmer errors).
func projectL2Ball(dst, v []float64, tau float64) {
	checkProjectArgs("projectL2Ball", dst, v, tau)
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	norm := math.Sqrt(ss)
	if norm <= tau {
		copy(dst, v)
		return
	}
	f := tau / norm
	for i, x := range v {
		dst[i] = f * x
	}
}

// projectL1Ball writes into dst the Euclidean projection of v onto the ball
// {x : ||x||₁ ≤ tau}, by the sort-based algorithm of Duchi, Shalev-Shwartz,
// Singer and Chandra ("Efficient projections onto the l1-ball for learning
// in high dimensions", ICML 2008) in O(n log n) time: v itself when it lies
// in the ball; otherwise the soft-thresholding x_i = sign(v_i)·max(|v_i| − θ, 0)
// whose threshold θ > 0 makes ||x||₁ = tau. dst may be v. It panics when the
// lengths differ or tau is negative or NaN (programmer errors).
func projectL1Ball(dst, v []float64, tau float64) {
	checkProjectArgs("projectL1Ball", dst, v, tau)
	var l1 float64
	for _, x := range v {
		l1 += math.Abs(x)
	}
	switch {
	case l1 <= tau:
		copy(dst, v)
		return
	case tau == 0:
		clear(dst)
		return
	}
	theta := l1Threshold(v, tau)
	for i, x := range v {
		a := math.Abs(x) - theta
		if a <= 0 {
			dst[i] = 0
			continue
		}
		dst[i] = math.Copysign(a, x)
	}
}

// l1Threshold returns the threshold θ ≥ 0 of the projection of v onto the
// L1 ball of radius tau, for ||v||₁ > tau > 0: with u = |v| sorted in
// decreasing order and ρ the largest j such that u_j > (Σ_{r≤j} u_r − tau)/j,
// θ = (Σ_{r≤ρ} u_r − tau)/ρ (Duchi et al., 2008, figure 1).
func l1Threshold(v []float64, tau float64) float64 {
	u := make([]float64, len(v))
	for i, x := range v {
		u[i] = math.Abs(x)
	}
	slices.Sort(u)
	slices.Reverse(u)
	var sum, theta float64
	for j, uj := range u {
		sum += uj
		t := (sum - tau) / float64(j+1)
		if uj <= t {
			break
		}
		theta = t
	}
	return math.Max(theta, 0)
}

// checkProjectArgs panics on the argument errors of the projections.
func checkProjectArgs(fn string, dst, v []float64, tau float64) {
	if len(dst) != len(v) {
		panic(fmt.Sprintf("method: %s: len(dst) = %d, len(v) = %d", fn, len(dst), len(v)))
	}
	if !(tau >= 0) {
		panic(fmt.Sprintf("method: %s: radius %v, want ≥ 0", fn, tau))
	}
}
