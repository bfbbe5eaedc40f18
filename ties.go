package greedytl

import (
	"math"
	"slices"
)

// Tie classes: columns that are equal once standardised.
//
// The score depends on the selected columns only through K_S = Z_S Z_Sᵀ,
// which does not change when a column is negated, so two candidates whose
// standardised columns are equal or opposite (a column given twice, in
// two units, or shifted; a one-hot pair x and 1 − x) have equal gains at
// every step, and the tie rule gives the step to the lower index. Their
// standardised columns as computed differ in the last bits, though, by
// rounding that differs between the exact search, the sampled one and the
// Gram's covariance form; so each search first finds these classes with
// tieClasses and gives every member of a class the standardised column of
// its lowest member (negated where it is the opposite), bit for bit: the
// running values of the members are then equal or opposite and their gains
// bitwise equal, and all three searches select the lowest index.
//
// Two columns are taken as equal (or opposite) when every entry differs
// from the other's (or its negation) by at most the sum of their rounding
// bounds τ = tieUlps·ε·(2|μ|/scale + max|z|): the computed mean is off by
// at most about m·ε·max|v| and each entry (v − μ)·f by a few ε·(|v| +
// |μ|)·f ≤ ε·(2|μ|/scale + |z|) more, so columns that are equal in exact
// arithmetic are always found; columns that differ by less are equal to
// within the rounding of their standardisation, and which of them a step
// selects would be decided by that rounding.

// tieUlps is the factor of tieBound: 2m + 8 ulps, above the rounding of
// the mean (m ulps), of the standard deviation (≈ m ulps, relative) and of
// each entry's subtraction and product.
func tieUlps(m int) float64 { return float64(2*m+8) * 0x1p-52 }

// tieBound returns the rounding bound τ of a standardised column with mean
// mean, divisor scale and largest absolute value maxz.
func tieBound(m int, mean, scale, maxz float64) float64 {
	return tieUlps(m) * (2*math.Abs(mean)/scale + maxz)
}

// tieWeight is the weight of row i in a column's key Σ_i w_i z_i: in
// (0.5, 1.5), deterministic and irregular, so that distinct columns rarely
// project close together.
func tieWeight(i int) float64 {
	const phi = 0.6180339887498949
	x := float64(i+1) * phi
	return 0.5 + (x - math.Floor(x))
}

// tieAddRow adds row i of the columns (zrow[s] the value of column s) to
// their keys.
func tieAddRow[T float32 | float64](key []float64, i int, zrow []T) {
	w := tieWeight(i)
	key = key[:len(zrow)]
	for s, v := range zrow {
		key[s] += w * float64(v)
	}
}

// tieClasses returns, for n standardised columns of length m in candidate
// order, the class of each (see above): rep[s] is the lowest column equal
// or opposite to s (s itself for the lowest of its class) and neg[s]
// whether s is the opposite of rep[s]. It returns nil, nil when no two
// columns are equal. key holds the columns' keys (tieAddRow) from
// approximations within rel·|z| of their values (rel = 0 for exact
// values), and gamma is their factor γ (‖z‖² = m·γ², so |z_i| ≤ √m·γ);
// exact(s, dst) writes column s exactly as the search standardises it, and
// bound(s, maxz) its rounding bound τ (tieBound).
func tieClasses(m int, key []float64, rel, gamma float64, exact func(s int, dst []float64), bound func(s int, maxz float64) float64) (rep []int32, neg []bool) {
	n := len(key)
	if n < 2 {
		return nil, nil
	}
	// The interval of each column's |key|: two columns equal or opposite
	// within their bounds have overlapping intervals.
	var wsum float64
	for i := range m {
		wsum += tieWeight(i)
	}
	// Bounds, with a margin for their own rounding: max |z_i| ≤ √m·γ and
	// Σ w_i |z_i| ≤ 1.5·√m·‖z‖ = 1.5·m·γ.
	maxz := math.Sqrt(float64(m)) * gamma * (1 + 2*rel + 0x1p-30)
	absz := 1.5 * float64(m) * gamma * (1 + 2*rel + 0x1p-30)
	lo, hi := make([]float64, n), make([]float64, n)
	for s, k := range key {
		r := (bound(s, maxz)*wsum + (float64(m+4)*0x1p-52+2*rel)*absz) * (1 + 0x1p-30)
		lo[s], hi[s] = math.Abs(k)-r, math.Abs(k)+r
	}
	order := make([]int32, n)
	for s := range order {
		order[s] = int32(s)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmpFloat(lo[a], lo[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	type edge struct {
		a, b int32
		neg  bool
	}
	var edges []edge
	za, zb := make([]float64, m), make([]float64, m)
	for i, a := range order {
		loaded := false
		var ta float64
		for _, b := range order[i+1:] {
			if lo[b] > hi[a] {
				break
			}
			if !loaded {
				exact(int(a), za)
				ta = bound(int(a), maxAbs(za))
				loaded = true
			}
			exact(int(b), zb)
			tol := ta + bound(int(b), maxAbs(zb))
			switch {
			case within(za, zb, 1, tol):
				edges = append(edges, edge{a, b, false})
			case within(za, zb, -1, tol):
				edges = append(edges, edge{a, b, true})
			}
		}
	}
	if len(edges) == 0 {
		return nil, nil
	}
	// Components, each from its lowest column.
	adj := make([][]edge, n)
	for _, e := range edges {
		adj[e.a] = append(adj[e.a], e)
		adj[e.b] = append(adj[e.b], edge{e.b, e.a, e.neg})
	}
	rep, neg = make([]int32, n), make([]bool, n)
	for s := range rep {
		rep[s] = -1
	}
	var stack []int32
	for s := range int32(n) {
		if rep[s] >= 0 {
			continue
		}
		rep[s] = s
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range adj[u] {
				if rep[e.b] < 0 {
					rep[e.b], neg[e.b] = s, neg[u] != e.neg
					stack = append(stack, e.b)
				}
			}
		}
	}
	return rep, neg
}

// cmpFloat orders a and b (neither NaN).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// maxAbs returns max |v_i|.
func maxAbs(v []float64) float64 {
	var mx float64
	for _, x := range v {
		mx = math.Max(mx, math.Abs(x))
	}
	return mx
}

// within reports whether |a_i − sign·b_i| ≤ tol for every i.
func within(a, b []float64, sign, tol float64) bool {
	for i, x := range a {
		if !(math.Abs(x-sign*b[i]) <= tol) {
			return false
		}
	}
	return true
}

// tieKey returns the key Σ_i w_i z_i of one column z (tieAddRow).
func tieKey(z []float64) float64 {
	var k float64
	for i, v := range z {
		k += tieWeight(i) * v
	}
	return k
}

// tieBlock finds the tie classes of the exact search's slots and gives
// every member of a class the block column of the class's lowest slot
// (negated for an opposite member), before the search reads the block.
// The keys come from the block (rounded to float32 when z is), the exact
// comparison from the inputs standardised as the block was written.
func tieBlock[T float32 | float64](e *exactEngine, z []T) {
	m, n := e.m, e.n
	key := make([]float64, n)
	for i := range m {
		tieAddRow(key, i, z[i*n:i*n+n])
	}
	var rel float64
	if _, f32 := any(z).([]float32); f32 {
		rel = 0x1p-24
	}
	in := e.in
	rep, neg := tieClasses(m, key, rel, math.Max(in.gamma, 1), func(s int, dst []float64) {
		in.column(int(e.glob[s]), dst)
		standardizeColumn(dst, dst, 1, e.st[s].mean, e.st[s].scale, e.f[s])
	}, func(s int, maxz float64) float64 {
		return tieBound(m, e.st[s].mean, e.st[s].scale, maxz)
	})
	e.tieRep, e.tieNeg = rep, neg
	for s, r := range rep {
		if int(r) == s {
			continue
		}
		for i := range m {
			v := z[i*n+int(r)]
			if neg[s] {
				v = -v
			}
			z[i*n+s] = v
		}
	}
}
