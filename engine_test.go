package greedytl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naiveScan is scan's definition: update c and t, then take the first
// index whose t²/c beats every earlier one by cross-multiplication.
func naiveScan(p, c, t []float64, tc float64) int {
	for i, pi := range p {
		c[i] -= pi * pi
		t[i] -= pi * tc
	}
	best, btt, bc := -1, 0.0, 1.0
	for i, ci := range c {
		if tt := t[i] * t[i]; tt*bc > btt*ci {
			best, btt, bc = i, tt, ci
		}
	}
	return best
}

// TestScan checks scan's filtered argmax against the plain one, on gains
// that tie exactly, differ in the last bits, are zero, or belong to
// selected columns (c = +Inf).
func TestScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 30))
	for trial := range 300 {
		n := 1 + rng.IntN(200)
		c, tv, p := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range c {
			c[i] = 1 + 10*rng.Float64()
			tv[i] = rng.NormFloat64()
			switch rng.IntN(6) {
			case 0: // an exact copy of an earlier column
				if j := rng.IntN(i + 1); j < i {
					c[i], tv[i] = c[j], tv[j]
				}
			case 1: // a gain a few ulps off an earlier one
				if j := rng.IntN(i + 1); j < i {
					c[i] = math.Nextafter(c[j], math.Inf(1+2*rng.IntN(2)-2))
					tv[i] = tv[j]
				}
			case 2:
				tv[i] = 0
			case 3:
				c[i] = math.Inf(1)
			}
		}
		tc := rng.NormFloat64()
		if trial%3 == 0 {
			p = p[:0] // scan without update
		} else {
			for i := range p {
				p[i] = 0.1 * rng.NormFloat64()
			}
		}
		c2, t2 := append([]float64(nil), c...), append([]float64(nil), tv...)
		want := naiveScan(p, c2, t2, tc)
		got := scan(p, c, tv, tc)
		if got != want {
			t.Fatalf("trial %d: scan = %d, plain argmax = %d", trial, got, want)
		}
		if !reflect.DeepEqual(c, c2) || !reflect.DeepEqual(tv, t2) {
			t.Fatalf("trial %d: scan's updates differ from the plain ones", trial)
		}
	}
}

// TestScorer compares the packed symmetric scorer with c = 1 + zᵀĜz and
// t = aᵀz computed directly, and checks that a column gets bitwise the
// same scores in every lane of score4 and in score1 (ties depend on it).
func TestScorer(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	for _, m := range []int{1, 2, 3, 7, 20} {
		p := &path{m: m, G: make([]float64, m*m), a: make([]float64, m)}
		A := randDense(rng, m, m)
		var G mat.SymDense
		G.SymOuterK(1, A)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				p.G[i*m+j] = G.At(i, j)
			}
			p.a[i] = rng.NormFloat64()
		}
		checkScorer(t, rng, p, &G, fmt.Sprintf("m = %d", m))
	}
}

// checkScorer loads p into a scorer and checks it on five random columns z:
// score1 against c = 1 + zᵀĜz and t = aᵀz computed directly (Ĝ is G), and
// score4 bitwise against score1 in every lane. what names the case.
func checkScorer(t *testing.T, rng *rand.Rand, p *path, G *mat.SymDense, what string) {
	t.Helper()
	m := p.m
	var sc scorer
	sc.load(p)
	zs := make([][]float64, 5)
	for k := range zs {
		zs[k] = make([]float64, m)
		for i := range zs[k] {
			zs[k][i] = rng.NormFloat64()
		}
	}
	for k, z := range zs {
		zv := mat.NewVecDense(m, z)
		wantC := 1 + mat.Inner(zv, G, zv)
		wantT := mat.Dot(zv, mat.NewVecDense(m, p.a))
		c, tt := sc.score1(z)
		if relErr(c, wantC) > 1e-12 || relErr(tt, wantT) > 1e-12 {
			t.Errorf("%s, column %d: score1 = (%v, %v), want (%v, %v)", what, k, c, tt, wantC, wantT)
		}
		for lane := range 4 {
			four := [4][]float64{zs[(k+1)%5], zs[(k+2)%5], zs[(k+3)%5], zs[(k+4)%5]}
			four[lane] = z
			c4, t4 := sc.score4(four[0], four[1], four[2], four[3])
			if c4[lane] != c || t4[lane] != tt {
				t.Errorf("%s, column %d: lane %d of score4 gives (%v, %v), score1 (%v, %v)", what, k, lane, c4[lane], t4[lane], c, tt)
			}
		}
	}
}

// TestBufferReuse checks that the buffers fits recycle carry nothing from
// one fit to the next: fitting problems of other shapes (more and fewer
// candidates, constant columns in other places) in between does not
// change a model.
func TestBufferReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	type problem struct {
		X, H *mat.Dense
		y    []float64
	}
	var probs []problem
	for _, sh := range []struct{ m, d, n int }{{12, 30, 300}, {20, 500, 2000}, {8, 0, 50}, {15, 40, 0}} {
		var X, H *mat.Dense
		if sh.d > 0 {
			X = randDense(rng, sh.m, sh.d)
			for i := 0; i < sh.m; i++ {
				X.Set(i, rng.IntN(sh.d), 3) // constant columns
			}
		}
		if sh.n > 0 {
			H = randDense(rng, sh.m, sh.n)
			for i := 0; i < sh.m; i++ {
				H.Set(i, rng.IntN(sh.n), 0)
			}
		}
		probs = append(probs, problem{X, H, randLabels(rng, sh.m)})
	}
	for _, sample := range []int{0, 7} {
		o := DefaultOptions()
		o.Sample, o.Seed, o.Delta, o.MaxK = sample, 3, 0, 15
		first := make([]*Model, len(probs))
		for round := range 2 {
			for k, pr := range probs {
				var X, H mat.Matrix
				if pr.X != nil {
					X = pr.X
				}
				if pr.H != nil {
					H = pr.H
				}
				mod := fitT(t, X, H, pr.y, o)
				if round == 0 {
					first[k] = mod
				} else if !reflect.DeepEqual(mod, first[k]) {
					t.Errorf("sample %d, problem %d: refit after other fits gives a different model", sample, k)
				}
			}
		}
	}
}

// TestRefreshAgrees checks that the periodic refresh of Ĝ and a from a
// factorisation agrees with the Sherman–Morrison updates it replaces.
func TestRefreshAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 33))
	for _, c := range []struct {
		m      int
		lambda float64
	}{{6, 1}, {12, 1e-3}, {20, 10}} {
		t.Run(fmt.Sprintf("m=%d/λ=%g", c.m, c.lambda), func(t *testing.T) {
			y := randLabels(rng, c.m)
			Z, _ := refStandardize(nil, randDense(rng, c.m, refreshEvery-1), 1)
			p := newPath(y, c.lambda, newFeatureScale(1, true), 0)
			for j := 0; j < refreshEvery-1; j++ {
				z := mat.Col(nil, j, Z)
				cc, tt, err := p.score(z)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := p.add(j, z, cc, tt); err != nil {
					t.Fatal(err)
				}
			}
			G, a := append([]float64(nil), p.G...), append([]float64(nil), p.a...)
			if err := p.refresh(); err != nil {
				t.Fatal(err)
			}
			if e := vecRelErr(G, p.G); e > 1e-9 {
				t.Errorf("Ĝ: updates and refresh differ by %.1e", e)
			}
			if e := vecRelErr(a, p.a); e > 1e-9 {
				t.Errorf("a: updates and refresh differ by %.1e", e)
			}
		})
	}
}

// TestScorerPrimal compares the primal-form scorer with c = 1 + zᵀĜz for
// Ĝ = I/λ − UᵀU formed explicitly and t = aᵀz, and checks that a column
// gets bitwise the same scores in every lane of score4 and in score1.
func TestScorerPrimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	for _, c := range []struct{ m, k1 int }{{1, 1}, {2, 3}, {7, 2}, {20, 5}, {20, 30}} {
		m, lambda := c.m, 0.7
		U := randDense(rng, c.k1, m)
		for i := range c.k1 * m {
			U.RawMatrix().Data[i] *= 0.1
		}
		p := &path{m: m, lambda: lambda, primal: true, U: U.RawMatrix().Data, a: make([]float64, m)}
		var G mat.SymDense
		G.SymOuterK(-1, U.T())
		for i := 0; i < m; i++ {
			G.SetSym(i, i, G.At(i, i)+1/lambda)
			p.a[i] = rng.NormFloat64()
		}
		checkScorer(t, rng, p, &G, fmt.Sprintf("m = %d, k+1 = %d", m, c.k1))
	}
}

// TestPrimalMemory checks that a fit with many more rows than steps never
// allocates an m×m matrix: at m = 4000 (an m×m matrix of 128 MB), a
// 10-step fit over 50 candidates allocates less than a quarter of that
// (the dual form would allocate three such matrices).
func TestPrimalMemory(t *testing.T) {
	const m = 4000
	H, y := benchProblem(m, 50)
	o := DefaultOptions()
	o.Delta, o.MaxK = 0, 10
	for _, sample := range []int{0, 59} {
		o.Sample = sample
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		fitT(t, nil, H, y, o)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > m*m*8/4 {
			t.Errorf("sample %d: allocated %d bytes", sample, got)
		}
	}
}
