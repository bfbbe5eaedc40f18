package greedytl

// Reference implementations used by the tests: the paper's definition of
// GreedyTL by brute force, the paper's Algorithm 1 literally, an independent
// standardisation, and extended-precision solves.

import (
	"math"
	"math/big"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// refStandardize returns Z = [X·γ, H] standardised column by column with the
// population standard deviation (m×N, features first) and which columns are
// usable (not constant, and γ > 0 for features). It is written
// independently of the package code: two-pass mean and variance, constant
// when std ≤ 1e-12·|mean|.
func refStandardize(X, H *mat.Dense, gamma float64) (Z *mat.Dense, ok []bool) {
	var m, d, n int
	if X != nil {
		m, d = X.Dims()
	}
	if H != nil {
		m, n = H.Dims()
	}
	Z = mat.NewDense(m, d+n, nil)
	ok = make([]bool, d+n)
	for j := 0; j < d+n; j++ {
		col := make([]float64, m)
		g := 1.0
		if j < d {
			mat.Col(col, j, X)
			g = gamma
		} else {
			mat.Col(col, j-d, H)
		}
		var mean float64
		for _, v := range col {
			mean += v
		}
		mean /= float64(m)
		var ss float64
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		std := math.Sqrt(ss / float64(m))
		if std <= 1e-12*math.Abs(mean) || g == 0 {
			continue
		}
		ok[j] = true
		for i, v := range col {
			Z.Set(i, j, (v-mean)/std*g)
		}
	}
	return Z, ok
}

// bruteScore is the paper's definition: b_Sᵀ(C_S + λI)⁻¹b_S with C = ZᵀZ and
// b = Zᵀy, solved by a Cholesky factorisation of the |S|×|S| system.
func bruteScore(Z *mat.Dense, y []float64, S []int, lambda float64) float64 {
	w := bruteWeights(Z, y, S, lambda)
	b := primalB(Z, y, S)
	return mat.Dot(mat.NewVecDense(len(S), b), mat.NewVecDense(len(S), w))
}

func primalB(Z *mat.Dense, y []float64, S []int) []float64 {
	m, _ := Z.Dims()
	b := make([]float64, len(S))
	for a, j := range S {
		for i := 0; i < m; i++ {
			b[a] += Z.At(i, j) * y[i]
		}
	}
	return b
}

// primalSystem returns C_S + λI.
func primalSystem(Z *mat.Dense, S []int, lambda float64) *mat.SymDense {
	m, _ := Z.Dims()
	k := len(S)
	A := mat.NewSymDense(k, nil)
	for a, ja := range S {
		for c := a; c < k; c++ {
			var s float64
			for i := 0; i < m; i++ {
				s += Z.At(i, ja) * Z.At(i, S[c])
			}
			if a == c {
				s += lambda
			}
			A.SetSym(a, c, s)
		}
	}
	return A
}

// bruteWeights solves (C_S + λI) w = b_S.
func bruteWeights(Z *mat.Dense, y []float64, S []int, lambda float64) []float64 {
	k := len(S)
	A := primalSystem(Z, S, lambda)
	var ch mat.Cholesky
	if !ch.Factorize(A) {
		panic("bruteWeights: C_S + λI not positive definite")
	}
	w := mat.NewVecDense(k, nil)
	if err := ch.SolveVecTo(w, mat.NewVecDense(k, primalB(Z, y, S))); err != nil {
		panic(err)
	}
	return w.RawVector().Data
}

// bigScore returns b_Sᵀ(C_S + λI)⁻¹b_S in 256-bit arithmetic.
func bigScore(Z *mat.Dense, y []float64, S []int, lambda float64) *big.Float {
	w := bigSolve(Z, y, S, lambda)
	b := bigB(Z, y, S)
	s := new(big.Float).SetPrec(bigPrec)
	tmp := new(big.Float).SetPrec(bigPrec)
	for i := range w {
		s.Add(s, tmp.Mul(w[i], b[i]))
	}
	return s
}

const bigPrec = 256

func bigB(Z *mat.Dense, y []float64, S []int) []*big.Float {
	m, _ := Z.Dims()
	b := make([]*big.Float, len(S))
	tmp := new(big.Float).SetPrec(bigPrec)
	for a, j := range S {
		b[a] = new(big.Float).SetPrec(bigPrec)
		for i := 0; i < m; i++ {
			tmp.SetFloat64(Z.At(i, j))
			tmp.Mul(tmp, big.NewFloat(y[i]))
			b[a].Add(b[a], tmp)
		}
	}
	return b
}

// bigWeights solves (C_S + λI) w = b_S in 256-bit floating point (Gaussian
// elimination with partial pivoting) from the float64 entries of Z: a
// reference whose own error is negligible even for ill-conditioned C_S.
func bigWeights(Z *mat.Dense, y []float64, S []int, lambda float64) []float64 {
	w := bigSolve(Z, y, S, lambda)
	out := make([]float64, len(w))
	for i, v := range w {
		out[i], _ = v.Float64()
	}
	return out
}

func bigSolve(Z *mat.Dense, y []float64, S []int, lambda float64) []*big.Float {
	const prec = bigPrec
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	m, _ := Z.Dims()
	k := len(S)
	A := make([][]*big.Float, k)
	tmp := nf(0)
	for a := range A {
		A[a] = make([]*big.Float, k+1)
		for c := 0; c <= k; c++ {
			s := nf(0)
			for i := 0; i < m; i++ {
				u := Z.At(i, S[a])
				v := y[i]
				if c < k {
					v = Z.At(i, S[c])
				}
				tmp.Mul(nf(u), nf(v))
				s.Add(s, tmp)
			}
			if a == c {
				s.Add(s, nf(lambda))
			}
			A[a][c] = s
		}
	}
	for col := 0; col < k; col++ {
		piv := col
		for r := col + 1; r < k; r++ {
			if new(big.Float).Abs(A[r][col]).Cmp(new(big.Float).Abs(A[piv][col])) > 0 {
				piv = r
			}
		}
		A[col], A[piv] = A[piv], A[col]
		for r := col + 1; r < k; r++ {
			f := new(big.Float).SetPrec(prec).Quo(A[r][col], A[col][col])
			for c := col; c <= k; c++ {
				tmp.Mul(f, A[col][c])
				A[r][c].Sub(A[r][c], tmp)
			}
		}
	}
	w := make([]*big.Float, k)
	for r := k - 1; r >= 0; r-- {
		s := new(big.Float).SetPrec(prec).Set(A[r][k])
		for c := r + 1; c < k; c++ {
			tmp.Mul(A[r][c], w[c])
			s.Sub(s, tmp)
		}
		w[r] = s.Quo(s, A[r][r])
	}
	return w
}

// algorithm1Scores evaluates the paper's Algorithm 1 literally for the
// selected set S: K = Σ_{j∈S} z_j z_jᵀ, G = (K + λI)⁻¹ built by the
// algorithm's rank-one updates, and for each candidate i the score
// yᵀ(K + z_i z_iᵀ)G′y with G′ = G − G z_i z_iᵀ G / (1 + z_iᵀ G z_i).
// Candidates not in cand get NaN.
func algorithm1Scores(Z *mat.Dense, y []float64, S []int, cand []bool, lambda float64) []float64 {
	m, N := Z.Dims()
	K := mat.NewDense(m, m, nil)
	G := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		G.Set(i, i, 1/lambda)
	}
	yv := mat.NewVecDense(m, y)
	update := func(G *mat.Dense, z *mat.VecDense) *mat.Dense {
		var Gz mat.VecDense
		Gz.MulVec(G, z)
		c := 1 + mat.Dot(z, &Gz)
		var out mat.Dense
		out.Outer(-1/c, &Gz, &Gz)
		out.Add(G, &out)
		return &out
	}
	for _, j := range S {
		z := mat.VecDenseCopyOf(Z.ColView(j))
		var zz mat.Dense
		zz.Outer(1, z, z)
		K.Add(K, &zz)
		G = update(G, z)
	}
	scores := make([]float64, N)
	for i := 0; i < N; i++ {
		scores[i] = math.NaN()
		if !cand[i] {
			continue
		}
		z := mat.VecDenseCopyOf(Z.ColView(i))
		Gp := update(G, z)
		var Kz mat.Dense
		Kz.Outer(1, z, z)
		Kz.Add(K, &Kz)
		var Gy, KGy mat.VecDense
		Gy.MulVec(Gp, yv)
		KGy.MulVec(&Kz, &Gy)
		scores[i] = mat.Dot(yv, &KGy)
	}
	return scores
}

// bruteGreedy runs the paper's definition of GreedyTL by brute force: at
// every step it scores every usable unselected column with bruteScore,
// takes the highest (lowest index on ties), and stops as Fit does. It
// returns the selected columns and the score after each step.
func bruteGreedy(Z *mat.Dense, y []float64, ok []bool, lambda, delta float64, maxK int) (S []int, scores []float64) {
	m, N := Z.Dims()
	used := make([]bool, N)
	prev := 0.0
	for maxK == 0 || len(S) < maxK {
		best, bestScore := -1, math.Inf(-1)
		for i := 0; i < N; i++ {
			if !ok[i] || used[i] {
				continue
			}
			if s := bruteScore(Z, y, append(S[:len(S):len(S)], i), lambda); s > bestScore {
				best, bestScore = i, s
			}
		}
		if best < 0 || (bestScore-prev)/float64(m) < delta {
			break
		}
		S = append(S, best)
		scores = append(scores, bestScore)
		used[best] = true
		prev = bestScore
	}
	return S, scores
}

// randDense returns an r×c matrix of standard normals.
func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	if c == 0 {
		return nil
	}
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.NormFloat64()
	}
	return mat.NewDense(r, c, d)
}

// randLabels returns m labels ±1 with both classes present.
func randLabels(rng *rand.Rand, m int) []float64 {
	y := make([]float64, m)
	for i := range y {
		y[i] = 1
		if rng.IntN(2) == 0 {
			y[i] = -1
		}
	}
	y[0], y[1] = 1, -1
	return y
}

// globalIndex returns the candidate index of c in a problem with d features.
func globalIndex(c Column, d int) int {
	if c.Kind == Feature {
		return c.Index
	}
	return d + c.Index
}

// relErr returns |a − b| / max(|b|, tiny).
func relErr(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300)
}

// vecRelErr returns ‖a − b‖ / ‖b‖.
func vecRelErr(a, b []float64) float64 {
	var num, den float64
	for i := range b {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}
