package greedytl

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// randomColumnValue returns a value for a test column of kind kind: plain
// Gaussian (0), around 1e300 (1, sums overflow), subnormal (2, sums of
// squares underflow), an offset far larger than the spread (3, nearly
// constant), a constant (4), or values spanning the float64 range (5,
// deviations overflow).
func randomColumnValue(rng *rand.Rand, kind int) float64 {
	switch kind {
	case 1:
		return rng.NormFloat64() * 1e300
	case 2:
		return rng.NormFloat64() * 1e-310
	case 3:
		return 1e9 + rng.NormFloat64()*1e-8
	case 4:
		return 3.25
	case 5:
		if rng.IntN(2) == 0 {
			return 1.7e308
		}
		return -1.7e308
	}
	return rng.NormFloat64()
}

// TestMoments4 checks the vector kernel moments4 against its Go definition
// moments4Go, bit for bit, and the definitions moments4Go and scale4Go
// against standardize's arithmetic and standardizeColumn, over row counts
// that exercise the four-row loop and its tail, strides wider than four,
// and columns of every magnitude.
func TestMoments4(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 3000; trial++ {
		m := 1 + rng.IntN(41)
		stride := 4 + rng.IntN(3)
		rows := make([]float64, (m-1)*stride+4)
		var kinds [4]int
		for q := range kinds {
			kinds[q] = rng.IntN(5) // not kind 5: its squares are +Inf, compared below as values
		}
		for i := 0; i < m; i++ {
			for q := 0; q < 4; q++ {
				rows[i*stride+q] = randomColumnValue(rng, kinds[q])
			}
		}
		invN := 1 / float64(m)
		var got, want [8]float64
		moments4(&rows[0], stride, m, invN, &got)
		moments4Go(&rows[0], stride, m, invN, &want)
		for q := range got {
			if math.Float64bits(got[q]) != math.Float64bits(want[q]) {
				t.Fatalf("trial %d (m=%d, kinds %v): moments4 out[%d] = %v, moments4Go %v", trial, m, kinds, q, got[q], want[q])
			}
		}
		// The Go definition is standardize's arithmetic.
		col := make([]float64, m)
		for q := 0; q < 4; q++ {
			for i := range col {
				col[i] = rows[i*stride+q]
			}
			sum := standardize.Sum(col)
			mean := standardize.Mean(col, sum)
			if math.IsInf(sum, 0) {
				continue // standardize.Mean's fallback: rowStats hands such columns to standardize
			}
			if ss := standardize.SumSquares(col, mean); math.Float64bits(mean) != math.Float64bits(want[q]) || math.Float64bits(ss) != math.Float64bits(want[4+q]) {
				t.Fatalf("trial %d: moments4Go column %d = %v, %v; standardize: %v, %v", trial, q, want[q], want[4+q], mean, ss)
			}
		}
		mf := [8]float64{want[0], want[1], want[2], want[3]}
		for q := 4; q < 8; q++ {
			mf[q] = rng.NormFloat64()
		}
		wantZ := make([]float64, 4*m)
		scale4Go(&rows[0], stride, m, &mf, &wantZ[0])
		for q := 0; q < 4; q++ {
			for i := 0; i < m; i++ {
				v := rows[i*stride+q]
				standardizeColumn(col[i:i+1], []float64{v}, 1, mf[q], 1, mf[4+q])
				if math.Float64bits(col[i]) != math.Float64bits(wantZ[q*m+i]) {
					t.Fatalf("trial %d: scale4Go column %d row %d = %v, standardizeColumn %v", trial, q, i, wantZ[q*m+i], col[i])
				}
			}
		}
	}
}

// TestMomentsRows checks the band kernels sumRows and sqDevRows against
// their Go definitions sumRowsGo and sqDevRowsGo, bit for bit, and
// momentsRows against moments4Go, the definition of each column's
// moments, bit for bit, group of four by group of four: over row counts
// that exercise the phases and the tail rule, bands of 4 to 40 columns
// (the kernels' sixteen-column loop and its four-column rest), strides
// wider than the band, and columns of every magnitude. A NaN (from
// values whose sum overflows both ways) matches any NaN: such a column
// leaves the kernels' route (rowStats).
func TestMomentsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	for trial := 0; trial < 3000; trial++ {
		m := 1 + rng.IntN(41)
		w := 4 * (1 + rng.IntN(10))
		stride := w + rng.IntN(6)
		rows := make([]float64, (m-1)*stride+w)
		for k := 0; k < w; k++ {
			kind := rng.IntN(6)
			if rng.IntN(3) != 0 {
				kind = 0
			}
			for i := 0; i < m; i++ {
				rows[i*stride+k] = randomColumnValue(rng, kind)
			}
		}
		mean := make([]float64, w)
		for k := range mean {
			mean[k] = rng.NormFloat64()
		}
		// The kernels, from the same accumulators.
		acc0 := make([]float64, 4*w)
		for k := range acc0 {
			acc0[k] = rng.NormFloat64()
		}
		got, want := append([]float64(nil), acc0...), append([]float64(nil), acc0...)
		sumRows(&rows[0], stride, m, w, &got[0])
		sumRowsGo(&rows[0], stride, m, w, &want[0])
		for k := range got {
			if !same(got[k], want[k]) {
				t.Fatalf("trial %d (m=%d, w=%d): sumRows acc[%d] = %v, sumRowsGo %v", trial, m, w, k, got[k], want[k])
			}
		}
		got, want = append(got[:0], acc0...), append(want[:0], acc0...)
		sqDevRows(&rows[0], stride, m, w, &mean[0], &got[0])
		sqDevRowsGo(&rows[0], stride, m, w, &mean[0], &want[0])
		for k := range got {
			if !same(got[k], want[k]) {
				t.Fatalf("trial %d (m=%d, w=%d): sqDevRows acc[%d] = %v, sqDevRowsGo %v", trial, m, w, k, got[k], want[k])
			}
		}
		// momentsRows is moments4Go, column by column.
		invN := 1 / float64(m)
		acc, ss := make([]float64, 4*w), make([]float64, w)
		momentsRows(&rows[0], stride, m, w, invN, acc, mean, ss)
		for k0 := 0; k0 < w; k0 += 4 {
			var out [8]float64
			moments4Go(&rows[k0], stride, m, invN, &out)
			for q := 0; q < 4; q++ {
				if k := k0 + q; !same(mean[k], out[q]) || !same(ss[k], out[4+q]) {
					t.Fatalf("trial %d (m=%d, w=%d): momentsRows column %d = %v, %v; moments4Go %v, %v", trial, m, w, k, mean[k], ss[k], out[q], out[4+q])
				}
			}
		}
	}
}

// TestStandardizeRow checks standardizeRow, in float64 and float32 (the
// vector kernels where there are some), against the definitions
// standardizeRowGo and standardizeRow32Go, bit for bit, and the
// definitions against standardizeColumn (rounded to float32 for the
// float32 block): over row lengths that exercise the kernels' sixteen-
// and four-column loops and the rest, values of every magnitude, factors
// that overflowed (+Inf), and standardised values beyond float32's range.
func TestStandardizeRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for trial := 0; trial < 3000; trial++ {
		n := rng.IntN(41)
		v, mean, f := make([]float64, n), make([]float64, n), make([]float64, n)
		for k := range v {
			v[k] = randomColumnValue(rng, rng.IntN(6))
			mean[k] = randomColumnValue(rng, rng.IntN(6))
			f[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(61)-30))
			if rng.IntN(20) == 0 {
				f[k] = math.Inf(1)
			}
		}
		got64, want64 := make([]float64, n), make([]float64, n)
		got32, want32 := make([]float32, n), make([]float32, n)
		standardizeRow(got64, v, mean, f)
		standardizeRow(got32, v, mean, f)
		if n > 0 {
			standardizeRowGo(n, &v[0], &mean[0], &f[0], &want64[0])
			standardizeRow32Go(n, &v[0], &mean[0], &f[0], &want32[0])
		}
		for k := 0; k < n; k++ {
			var col [1]float64
			standardizeColumn(col[:], v[k:k+1], 1, mean[k], 1, f[k])
			if math.IsInf(f[k], 1) {
				col[0] = (v[k] - mean[k]) * f[k] // standardizeColumn divides instead; writeBlock rewrites such columns
			}
			switch {
			case math.Float64bits(got64[k]) != math.Float64bits(want64[k]):
				t.Fatalf("trial %d (n=%d): standardizeRow float64 [%d] = %v, standardizeRowGo %v", trial, n, k, got64[k], want64[k])
			case math.Float32bits(got32[k]) != math.Float32bits(want32[k]):
				t.Fatalf("trial %d (n=%d): standardizeRow float32 [%d] = %v, standardizeRow32Go %v", trial, n, k, got32[k], want32[k])
			case math.Float64bits(want64[k]) != math.Float64bits(col[0]) || math.Float32bits(want32[k]) != math.Float32bits(float32(col[0])):
				t.Fatalf("trial %d: standardizeRowGo [%d] = %v, standardizeRow32Go %v; standardizeColumn %v", trial, k, want64[k], want32[k], col[0])
			}
		}
	}
}

// TestStandardizePair checks standardizePair (the vector kernel where
// there is one) against its Go definition standardizePairGo, bit for bit
// (the verdict of each group, and for a plain group its statistics and
// standardised values), and the definition against standardizeChunk, on
// two adjacent groups, one group twice and two groups of different
// blocks, over row counts that exercise the four-row transposes and their
// tail, strides wider than eight, γ of every kind (0, 1, others, one so
// large that the divisor underflows or the factor overflows) and columns
// of every magnitude, NaN and ±Inf included.
func TestStandardizePair(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	plain := 0
	for trial := 0; trial < 4000; trial++ {
		m := 1 + rng.IntN(41)
		stride := 8 + rng.IntN(3)
		gamma := []float64{1, 1, 1, 0.5, 3, 0, 1e300, 1e-300}[rng.IntN(8)]
		var blocks [2][]float64 // row-major m×stride blocks
		var cols [2][]float64   // their first eight columns, column after column
		for b := range blocks {
			blocks[b], cols[b] = make([]float64, (m-1)*stride+8), make([]float64, 8*m)
			for q := 0; q < 8; q++ {
				kind := rng.IntN(6)
				if rng.IntN(4) != 0 {
					kind = 0
				}
				for i := 0; i < m; i++ {
					v := randomColumnValue(rng, kind)
					blocks[b][i*stride+q], cols[b][q*m+i] = v, v
				}
			}
			if rng.IntN(20) == 0 {
				blocks[b][rng.IntN(m)*stride+rng.IntN(8)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
			}
		}
		// The two groups: block 0's columns 0–3 and 4–7 (adjacent), block
		// 0's columns 0–3 twice, or block 0's 0–3 and block 1's 4–7.
		mode := rng.IntN(3)
		type group struct {
			rows []float64 // from the group's first column
			cols []float64 // its four columns, column after column
		}
		g := [2]group{{blocks[0], cols[0][:4*m]}, {blocks[0][4:], cols[0][4*m:]}}
		switch mode {
		case 1:
			g[1] = g[0]
		case 2:
			g[1] = group{blocks[1][4:], cols[1][4*m:]}
		}
		got, want := make([]float64, 8*m), make([]float64, 8*m)
		d1 := 4 * m
		if mode == 1 {
			d1 = 0
		}
		invN := 1 / float64(m)
		var gotOut, wantOut [24]float64
		gotP := standardizePair(&g[0].rows[0], &g[1].rows[0], stride, m, invN, gamma, &got[0], &got[d1], &gotOut)
		wantP := standardizePairGo(&g[0].rows[0], &g[1].rows[0], stride, m, invN, gamma, &want[0], &want[d1], &wantOut)
		if gotP != wantP {
			t.Fatalf("trial %d (mode %d, m=%d, γ=%g): standardizePair's plain groups %b, standardizePairGo's %b", trial, mode, m, gamma, gotP, wantP)
		}
		for k := range 2 {
			if wantP>>k&1 == 0 {
				continue
			}
			plain++
			for q := 12 * k; q < 12*k+12; q++ {
				if !same(gotOut[q], wantOut[q]) {
					t.Fatalf("trial %d (mode %d, m=%d, γ=%g): standardizePair out[%d] = %v, standardizePairGo %v", trial, mode, m, gamma, q, gotOut[q], wantOut[q])
				}
			}
			dk := []int{0, d1}[k]
			for i := dk; i < dk+4*m; i++ {
				if !same(got[i], want[i]) {
					t.Fatalf("trial %d (mode %d, m=%d, γ=%g): standardizePair value %d = %v, standardizePairGo %v", trial, mode, m, gamma, i, got[i], want[i])
				}
			}
			// On the plain route the definition is standardizeChunk's.
			c := append([]float64(nil), g[k].cols...)
			var st [4]colStats
			var f [4]float64
			if bad := standardizeChunk(c, m, 4, gamma, st[:], f[:]); bad >= 0 {
				t.Fatalf("trial %d: standardizeChunk rejects column %d of a plain group", trial, bad)
			}
			for q := 0; q < 4; q++ {
				if !same(st[q].mean, wantOut[12*k+q]) || !same(st[q].scale, wantOut[12*k+4+q]) || !same(f[q], wantOut[12*k+8+q]) {
					t.Fatalf("trial %d: group %d column %d statistics %v, %v, %v; standardizeChunk %+v, %v", trial, k, q, wantOut[12*k+q], wantOut[12*k+4+q], wantOut[12*k+8+q], st[q], f[q])
				}
			}
			for i := range c {
				if !same(c[i], want[dk+i]) {
					t.Fatalf("trial %d (mode %d, m=%d, γ=%g): group %d value %d = %v, standardizeChunk %v", trial, mode, m, gamma, k, i, want[dk+i], c[i])
				}
			}
		}
	}
	if plain < 2000 {
		t.Errorf("only %d of 8000 groups took the plain route", plain)
	}
	// A sum of squares of exactly standardize.TinySumSquares (four values
	// ±2⁻⁴⁵¹ about a mean of 0) is not rescaled: the group is plain.
	a := math.Ldexp(1, -451)
	rows := []float64{a, 1, 2, 3, -a, 2, 1, 5, a, 3, 3, 1, -a, 4, 0, 2}
	var gotOut, wantOut [24]float64
	got, want := make([]float64, 16), make([]float64, 16)
	gotP := standardizePair(&rows[0], &rows[0], 4, 4, 0.25, 1, &got[0], &got[0], &gotOut)
	wantP := standardizePairGo(&rows[0], &rows[0], 4, 4, 0.25, 1, &want[0], &want[0], &wantOut)
	if gotP != 3 || wantP != 3 || !same(gotOut[4], wantOut[4]) || !same(got[0], want[0]) {
		t.Errorf("sum of squares at the rescaling threshold: standardizePair's plain groups %b (divisor %v), standardizePairGo's %b (%v); want both 11 and equal", gotP, gotOut[4], wantP, wantOut[4])
	}
}

// TestGatherStandardize checks gatherStandardize against its definition,
// b.gather followed by standardizeChunk, bit for bit (the values, the
// statistics and the index of a rejected column), on row-major matrices,
// views with a wider stride, transposes and matrices read through At,
// with columns of every kind (constant, subnormal, huge, overflowing,
// NaN and ±Inf) drawn in any order, repeats included.
func TestGatherStandardize(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var sc rowStatsScratch
	var block []float64
	for trial := 0; trial < 2000; trial++ {
		m, N := 1+rng.IntN(30), 1+rng.IntN(20)
		gamma := []float64{1, 0.5, 3, 0}[rng.IntN(4)]
		big := mat.NewDense(m, N+2, nil)
		for j := 0; j < N; j++ {
			kind := rng.IntN(6)
			if rng.IntN(3) != 0 {
				kind = 0
			}
			for i := 0; i < m; i++ {
				big.Set(i, j, randomColumnValue(rng, kind))
			}
		}
		if rng.IntN(10) == 0 {
			big.Set(rng.IntN(m), rng.IntN(N), []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)])
		}
		view := big.Slice(0, m, 0, N)
		tr := mat.DenseCopyOf(view.T())
		for _, a := range []mat.Matrix{big, view, tr.T(), generic{view}} {
			b := newInputMatrix("H", a)
			nc := 1 + rng.IntN(min(sampleChunk, 3*N))
			js := make([]int, nc)
			for k := range js {
				js[k] = rng.IntN(N)
			}
			want, got := make([]float64, nc*m), make([]float64, nc*m)
			wantSt, gotSt := make([]colStats, nc), make([]colStats, nc)
			wantF, gotF := make([]float64, nc), make([]float64, nc)
			b.gather(js, want)
			wantK := standardizeChunk(want, m, nc, gamma, wantSt, wantF)
			gotK := gatherStandardize(&b, js, gamma, got, gotSt, gotF, &sc, &block)
			if gotK != wantK {
				t.Fatalf("trial %d (%T, m=%d): gatherStandardize rejects column %d, standardizeChunk %d", trial, a, m, gotK, wantK)
			}
			if wantK >= 0 {
				continue
			}
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
			for k := range js {
				if !same(gotSt[k].mean, wantSt[k].mean) || !same(gotSt[k].scale, wantSt[k].scale) || !same(gotF[k], wantF[k]) {
					t.Fatalf("trial %d (%T): column %d statistics %+v, %v; want %+v, %v", trial, a, k, gotSt[k], gotF[k], wantSt[k], wantF[k])
				}
			}
			for i := range want {
				if !same(got[i], want[i]) {
					t.Fatalf("trial %d (%T, m=%d): value %d = %v, want %v", trial, a, m, i, got[i], want[i])
				}
			}
		}
	}
}

// TestGatherColumns checks gatherColumns (the assembly kernel where there
// is one) against its definition gatherColumnsGo, bit for bit (NaN
// payloads and signed zeros included), over row counts, strides wider than
// the rows, columns in any order with repeats, and blocks wider than the
// columns (whose padding must be left alone).
func TestGatherColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 2000; trial++ {
		m, cols := 1+rng.IntN(25), 1+rng.IntN(40)
		stride := cols + rng.IntN(3)
		data := make([]float64, (m-1)*stride+cols)
		for i := range data {
			data[i] = math.Float64frombits(rng.Uint64()) // any bits, NaNs included
		}
		nc := 1 + rng.IntN(70)
		js := make([]int, nc)
		for k := range js {
			js[k] = rng.IntN(cols)
		}
		w := nc + rng.IntN(4)
		got, want := make([]float64, m*w), make([]float64, m*w)
		for i := range got {
			got[i] = float64(i)
			want[i] = float64(i)
		}
		gatherColumns(data, stride, m, cols, js, got, w)
		gatherColumnsGo(data, stride, m, cols, js, want, w)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (m=%d, nc=%d, w=%d): block[%d] = %#x, gatherColumnsGo %#x", trial, m, nc, w, i, math.Float64bits(got[i]), math.Float64bits(want[i]))
			}
		}
	}
}

// TestScore4Kernels checks the vector scoring kernels (t4Vec, score4Vec,
// score4PrimalVec) against their Go definitions (t4Go, score4Go,
// score4PrimalGo) and the one-column scorer (score1, t1) bit for bit, in
// the dual and the primal form (with no row of U and with several), over numbers of examples that exercise the
// four-row blocks and their tail, on columns of mixed magnitudes and a
// symmetric Ĝ with entries of both signs; equal columns score equally.
func TestScore4Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + rng.IntN(45)
		G := make([]float64, m*m)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
				G[i*m+j], G[j*m+i] = v, v
			}
		}
		a := make([]float64, m)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		var z [4][]float64
		for q := range z {
			z[q] = scoreColumn(rng, m)
		}
		if rng.IntN(4) == 0 {
			copy(z[3], z[1]) // equal columns in different lanes
		}
		sc := scorer{m: m, a: a}
		p := &path{m: m, G: G, a: a}
		var want [8]float64
		if trial%2 == 1 { // the primal form: Ĝ = I/λ − UᵀU
			k1 := rng.IntN(8)
			p.primal, p.lambda, p.U = true, math.Pow(10, float64(rng.IntN(7)-3)), make([]float64, k1*m)
			for i := range p.U {
				p.U[i] = rng.NormFloat64() * 0.1
			}
			sc.load(p)
			var up *float64
			if k1 > 0 {
				up = &p.U[0]
			}
			var c4 [4]float64
			score4PrimalGo(&z[0][0], &z[1][0], &z[2][0], &z[3][0], up, k1, m, 1/p.lambda, &c4)
			var t4 [4]float64
			t4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &a[0], m, &t4)
			copy(want[:4], c4[:])
			copy(want[4:], t4[:])
		} else {
			sc.load(p)
			score4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &sc.gp[0], &a[0], m, &want)
		}
		c, tt := sc.score4(z[0], z[1], z[2], z[3])
		t4 := sc.t4(z[0], z[1], z[2], z[3])
		var wantT [4]float64
		t4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &a[0], m, &wantT)
		for q := 0; q < 4; q++ {
			c1, t1 := sc.score1(z[q])
			for _, x := range []struct {
				name      string
				got, want float64
			}{
				{"score4 c", c[q], want[q]}, {"score4 t", tt[q], want[4+q]}, {"t4", t4[q], wantT[q]},
				{"score1 c", c1, want[q]}, {"score1 t", t1, want[4+q]}, {"t1", sc.t1(z[q]), wantT[q]},
			} {
				if math.Float64bits(x.got) != math.Float64bits(x.want) {
					t.Fatalf("trial %d (m=%d): %s of column %d = %v, the Go definition %v", trial, m, x.name, q, x.got, x.want)
				}
			}
		}
	}
}

// scoreColumn returns a random column of m to m+2 values (the kernels read
// m) on a random scale, for the scoring kernels' tests.
func scoreColumn(rng *rand.Rand, m int) []float64 {
	z := make([]float64, m+rng.IntN(3))
	scale := math.Pow(10, float64(rng.IntN(7)-3))
	for i := range z {
		z[i] = rng.NormFloat64() * scale
	}
	return z
}

// TestT8Kernel pins scorer.t8 (t8Vec: the vector kernel where there is
// one) bit for bit to t8Go and to t4 and t1, the sums bestOfPruned's other
// groups take, over lengths with and without a tail of fewer than four.
func TestT8Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + rng.IntN(45)
		a := make([]float64, m)
		for i := range a {
			a[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
		}
		var z [8][]float64
		var zs [8]*float64
		for q := range z {
			z[q] = scoreColumn(rng, m)
		}
		if rng.IntN(4) == 0 {
			copy(z[6], z[1]) // equal columns in different groups
		}
		for q := range z {
			zs[q] = &z[q][0]
		}
		sc := scorer{m: m, a: a}
		got := sc.t8(&zs)
		var want [8]float64
		t8Go(&zs, &a[0], m, &want)
		lo, hi := sc.t4(z[0], z[1], z[2], z[3]), sc.t4(z[4], z[5], z[6], z[7])
		for q := range z {
			t4 := lo[q%4]
			if q >= 4 {
				t4 = hi[q%4]
			}
			for _, w := range []float64{want[q], t4, sc.t1(z[q])} {
				if math.Float64bits(got[q]) != math.Float64bits(w) {
					t.Fatalf("trial %d (m=%d): t8 of column %d = %v, want %v (t8Go %v, t4 %v)", trial, m, q, got[q], w, want[q], t4)
				}
			}
		}
	}
}

// TestT16Kernel pins scorer.t16 (t16Vec: the vector kernel where there
// is one) bit for bit to t16Go and to t1, the sum of every other route,
// over lengths with and without a tail of fewer than four, with equal
// columns in different groups and one column in several lanes (how
// bestOfPruned pads its last group).
func TestT16Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + rng.IntN(45)
		a := make([]float64, m)
		for i := range a {
			a[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
		}
		var z [16][]float64
		var zs [16]*float64
		for q := range z {
			z[q] = scoreColumn(rng, m)
		}
		if rng.IntN(4) == 0 {
			copy(z[13], z[2]) // equal columns in different groups
		}
		for q := range z {
			zs[q] = &z[q][0]
		}
		if rng.IntN(4) == 0 {
			for q := 9 + rng.IntN(7); q < 16; q++ {
				zs[q], z[q] = zs[8], z[8] // padding
			}
		}
		sc := scorer{m: m, a: a}
		got := sc.t16(&zs)
		var want [16]float64
		t16Go(&zs, &a[0], m, &want)
		for q := range z {
			for _, w := range []float64{want[q], sc.t1(z[q])} {
				if math.Float64bits(got[q]) != math.Float64bits(w) {
					t.Fatalf("trial %d (m=%d): t16 of column %d = %v, want %v (t16Go %v)", trial, m, q, got[q], w, want[q])
				}
			}
		}
	}
}

// TestAbsDevSum checks absDevSumGo (whose order rowAbsDevsAVX's row sums
// follow, bit for bit: TestRowAbsDevs) against the exact sum of the
// rounded terms |x_l − β|
// (math/big): a sum of n non-negative terms in any order is within
// (n − 1)·u of it, relatively, the bound pruneState.rho relies on.
func TestAbsDevSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 3000; trial++ {
		n := rng.IntN(42)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
		}
		beta := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
		exact := new(big.Float).SetPrec(2000)
		for _, v := range x {
			exact.Add(exact, new(big.Float).SetFloat64(math.Abs(v-beta)))
		}
		want, _ := exact.Float64()
		bound := float64(max(n-1, 0)) * 0x1p-53 * want * (1 + 1e-12)
		if got := absDevSumGo(x, beta); math.Abs(got-want) > bound {
			t.Fatalf("trial %d (n=%d): absDevSumGo = %v, exact %v: error %.3g beyond (n−1)·u·sum = %.3g", trial, n, got, want, math.Abs(got-want), bound)
		}
	}
}

// TestRowStats checks rowStats against standardizeChunk, bit for bit, on
// row-major blocks whose rows are exactly nc long (stride = nc), so that
// the last group of fewer than four columns is read through the padded
// copy (nc mod 4 = 1, 2, 3) rather than past the slice's end, and on
// blocks whose rows go on (stride > nc, other values beyond column nc),
// where that group is read in place; a few blocks are wider than a band
// (statBlock columns).
func TestRowStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var sc rowStatsScratch
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	for trial := 0; trial < 1000; trial++ {
		m, nc := 1+rng.IntN(30), 1+rng.IntN(12)
		if trial%25 == 0 {
			m, nc = 1+rng.IntN(5), statBlock-3+rng.IntN(3*statBlock/2)
		}
		stride := nc
		if trial%2 == 1 {
			stride += 1 + rng.IntN(4)
		}
		gamma := []float64{1, 0.5, 3, 0}[rng.IntN(4)]
		rows := make([]float64, (m-1)*stride+nc) // no room to read past column nc of the last row
		cols := make([]float64, m*nc)            // the same values column after column
		for i := range rows {
			rows[i] = randomColumnValue(rng, rng.IntN(6)) // beyond column nc: values not to be used
		}
		for k := 0; k < nc; k++ {
			kind := rng.IntN(6)
			if rng.IntN(3) != 0 {
				kind = 0
			}
			for i := 0; i < m; i++ {
				v := randomColumnValue(rng, kind)
				rows[i*stride+k], cols[k*m+i] = v, v
			}
		}
		wantSt, gotSt := make([]colStats, nc), make([]colStats, nc)
		wantF, gotF := make([]float64, nc), make([]float64, nc)
		wantK := standardizeChunk(cols, m, nc, gamma, wantSt, wantF)
		gotK := rowStats(rows, stride, m, nc, gamma, &sc, gotSt, gotF)
		if gotK != wantK {
			t.Fatalf("trial %d (m=%d, nc=%d, stride=%d): rowStats rejects column %d, standardizeChunk %d", trial, m, nc, stride, gotK, wantK)
		}
		if wantK >= 0 {
			continue
		}
		for k := 0; k < nc; k++ {
			if !same(gotSt[k].mean, wantSt[k].mean) || !same(gotSt[k].scale, wantSt[k].scale) || !same(gotF[k], wantF[k]) {
				t.Fatalf("trial %d (m=%d, nc=%d): column %d statistics %+v, %v; want %+v, %v", trial, m, nc, k, gotSt[k], gotF[k], wantSt[k], wantF[k])
			}
		}
	}
}

// TestTrimPooled: a buffer of more than maxPooled floats is not kept for a
// pool, a smaller one is, and rowStatsScratch.trim applies the rule to
// each of its buffers.
func TestTrimPooled(t *testing.T) {
	small, large := make([]float64, 0, maxPooled), make([]float64, 0, maxPooled+1)
	if trimPooled(small) == nil || trimPooled(large) != nil {
		t.Errorf("trimPooled keeps %v (cap maxPooled) and %v (cap maxPooled+1); want true, false", trimPooled(small) != nil, trimPooled(large) != nil)
	}
	sc := rowStatsScratch{pad: large, col: small}
	sc.trim()
	if sc.pad != nil || sc.col == nil {
		t.Errorf("trim kept pad %v and col %v; want false, true", sc.pad != nil, sc.col != nil)
	}
}
