package standardize

import (
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/mat"
)

// FitModerated returns the Scaler of the columns of A with moderated
// scales: the training means of Fit, and standard deviations shrunk toward
// one common scale by as much as a handful of rows cannot tell them apart.
//
// A standard deviation estimated from m rows is noisy — on a few examples,
// per-column scaling multiplies every column by a random factor — while
// columns whose scales truly differ by orders of magnitude (a colour
// histogram's bins) need it. The shrinkage is the normal–normal empirical
// Bayes estimate of the log variances (the moderated variances of Smyth,
// limma, 2004, with a moment estimate of the prior): over the J
// non-constant columns, with l_j = log s_j² (s_j Fit's population standard
// deviation),
//
//	ν  = ψ₁((m−1)/2) · (κ̄ − 1)/2      the sampling variance of one l_j,
//	τ² = max(0, S² − ν)                the spread of the true log variances,
//	B  = τ² / (τ² + ν)                 (B = 1 when τ² = ν = 0),
//	t_j = exp((l̄ + B·(l_j − l̄)) / 2),
//
// l̄ and S² the mean and sample variance of the l_j, ψ₁ the trigamma
// function (ψ₁((m−1)/2) is the variance of the log of a normal sample's
// variance) and κ̄ the mean over the columns of the rows' kurtosis
// (1/m) Σ_i ((a_ij − mean_j)/s_j)⁴, which is 3 for normal data and larger for
// heavy-tailed or sparse columns, whose variances are the noisier. The
// scales are c·t_j, c = √(mean_j s_j²/t_j²), so that the standardised
// columns' variances average 1, as Fit's do (the block weighs as much
// against other blocks as after Fit). B = 1 gives Fit's scales; B = 0 one
// scale for the whole block (centring only, up to that factor). Constant
// columns keep scale 0; with fewer than two non-constant columns, or fewer
// than two rows, it is Fit (and so it is, as a safeguard, if the rescaling
// left float64's range). Up to rounding, the result does not depend on
// the order of the rows or of the columns (the sums run in row order, so
// the last bits may), and scaling A by a factor scales every scale by it.
func FitModerated(A mat.Matrix) Scaler {
	s := Fit(A)
	m, c := inputcheck.Dims(A)
	var cols []int
	for j := range c {
		if s.Scale[j] > 0 { // not constant (nor NaN)
			cols = append(cols, j)
		}
	}
	if len(cols) < 2 || m < 2 {
		return s
	}
	shift := normalShift(s.Scale, cols)
	l := make([]float64, len(cols))
	v := make([]float64, m)
	var lbar, kbar float64
	for t, j := range cols {
		sc := math.Ldexp(s.Scale[j], shift)
		if math.IsInf(sc, 0) { // scales spanning more than float64's range
			return s
		}
		l[t] = 2 * math.Log(sc)
		lbar += l[t]
		mat.Col(v, j, A)
		var m4 float64
		for _, x := range v {
			d := Standardise(x, s.Mean[j], s.Scale[j])
			d *= d
			m4 += d * d
		}
		kbar += m4 / float64(m)
	}
	J := float64(len(cols))
	lbar /= J
	kbar /= J
	var S2 float64
	for _, x := range l {
		S2 += (x - lbar) * (x - lbar)
	}
	S2 /= J - 1
	nu := trigamma(float64(m-1)/2) * max(kbar-1, 0) / 2
	tau2 := max(S2-nu, 0)
	B := 1.0
	if tau2+nu > 0 {
		B = tau2 / (tau2 + nu)
	}
	var ratio float64
	t := make([]float64, len(cols))
	for i, j := range cols {
		t[i] = math.Exp((lbar + B*(l[i]-lbar)) / 2)
		r := math.Ldexp(s.Scale[j], shift) / t[i]
		ratio += r * r
	}
	f := math.Sqrt(ratio / J)
	if !inputcheck.PositiveFinite(f) { // out of float64's range: cannot happen for scales B keeps near Fit's
		return s // Fit's scaler, not yet changed
	}
	for i, j := range cols {
		s.Scale[j] = math.Ldexp(f*t[i], -shift)
	}
	return s
}

// normalShift returns the power of two, 2^shift, that FitModerated works
// with the scales s[j] (j in cols, all positive) multiplied by: 0, unless
// the smallest of them is subnormal, and then the least shift that makes it
// normal. A subnormal scale has lost precision and would lose more in the
// moderated scales t_j, which lie between the smallest and the largest
// scale; and math.Log on amd64 reads the exponent of a subnormal wrongly
// (golang.org/issue/56600: math.Log(1e-310) is −709.08, not −713.8), which
// made the log variances of subnormal columns almost equal. Multiplying by
// a power of two is exact when the result is normal.
func normalShift(s []float64, cols []int) int {
	lo := math.Inf(1)
	for _, j := range cols {
		lo = min(lo, s[j])
	}
	if lo >= 0x1p-1022 { // the smallest normal float64
		return 0
	}
	_, e := math.Frexp(lo) // lo = f·2^e, ½ ≤ f < 1, e ≤ −1022
	return -1021 - e       // lo·2^shift = f·2^−1021
}

// trigamma returns ψ₁(x), the derivative of the digamma function, for
// x > 0: the recurrence ψ₁(x) = ψ₁(x+1) + 1/x² up to x ≥ 10, then the
// asymptotic series 1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵) + 1/(42x⁷) −
// 1/(30x⁹) + 5/(66x¹¹) (its next term is below 3e-14).
func trigamma(x float64) float64 {
	var acc float64
	for x < 10 {
		acc += 1 / (x * x)
		x++
	}
	u := 1 / x
	u2 := u * u
	return acc + u + u2/2 + u*u2*(1.0/6-u2*(1.0/30-u2*(1.0/42-u2*(1.0/30-u2*5/66))))
}
