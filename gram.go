package greedytl

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Gram holds the cross-products of one training sample's candidate
// columns, so that exact GreedyTL can be fitted on the sample and on many
// subsamples of its rows (Subset) without reading the m rows at every
// step: Gram.Fit selects the same columns and computes the same weights,
// error path and statistics as Fit on the same rows, up to rounding (of
// columns equal only up to rounding once standardised, such as x and
// 1 − x, it may select another member than Fit: see the package doc's
// tie rule).
//
// A Gram keeps the m × N block of the sample's columns, centred and scaled
// with its own statistics, and their N × N cross-product matrix: O(N·m +
// N²) memory, which is O(N·m) when N is at most a small multiple of m
// (greedytl-auto shares it up to N = 2m), the shapes where it pays when the
// paths are long (see docs/design.md §3, "Shared cross-products"); a
// Subset adds its r rows' centred columns and the rows of its
// cross-products its fits read, O(N·(r + k)) — or one N × N matrix of its
// own (sampleProducts) once fits on the base sample have selected more
// than half the columns, or more than an eighth of them when the columns'
// values on the rows it leaves out (or keeps) exceed rowByRowBytes — and
// a fit O(N·k + m·k), no N × N copy (each step computes the
// cross-products it needs from the Gram's: productRows). A
// subsample's cross-products are the sample's minus those of the rows it
// leaves out (O(N·r) for each row a fit reads, r rows left out, at most
// O(N²·r) in all), re-centred on the subsample's means and rescaled by its
// standard deviations; Fit then runs the greedy search in covariance
// form: a step costs O(N·k + m·k) for k selected columns, against O(N·m)
// for Fit's exact search ((*Gram).Fit).
//
// A Gram is read only after it is built: any number of goroutines may call
// Fit and Subset on it at once.
type Gram struct {
	base *gramBase
	// rows are the sample's rows of the base sample, in order; nil for the
	// base sample itself.
	rows []int
	m    int
	// x, h and y are the sample's inputs (for a subset, its rows gathered
	// into new matrices): the statistics, the selected columns' values and
	// the fallback to Fit read them.
	x, h mat.Matrix
	y    []float64
	in   *inputs
	// fallback sends every Fit to the package's Fit (see Subset).
	fallback bool

	// Slots are the candidates that are not constant on the sample, in
	// candidate order: glob their candidate index, st their statistics
	// (with γ = 1: the scale is the standard deviation), b their products
	// with y and prods their cross-products on the standardised columns,
	// computed row by row from the base's centred ones (productRows: no
	// n×n matrix of their own).
	glob  []int32
	st    []colStats
	b     []float64
	prods productRows
	// A slot's standardised column is (z − delta)·u for its column z in
	// the base's block, over the sample's rows.
	delta, u []float64
}

// productRows gives the cross-products of standardised columns from the
// cross-products S of the base's centred columns over a sample of m rows
// (sampleProducts: the base's, or a subset's), row by row, without an n×n
// matrix: the product of columns a and b is
// (S[col_a, col_b] − m·d_a·d_b)·u_a·u_b, the products of the columns
// (z − d)·u. Gram.prepare computes it so, for each pair, bit for bit as
// it computed the n×n matrix it kept before (which a fit then copied,
// scaled by its γ: two n×n matrices a committee that this now computes a
// row at a time, when a step needs one, in O(n), or O(n·r) on a subset
// that differs from its base on r rows).
type productRows struct {
	S   *sampleProducts
	fm  float64
	col []int32
	d   []float64
	u   []float64
}

// at returns the cross-product of columns a and b: scaledRow(a)'s element
// b at unit scales (ga = gf[b] = 1), the same operations in the same order.
func (p *productRows) at(a, b int) float64 {
	ka := p.fm * p.d[a]
	return (p.S.at(int(p.col[a]), int(p.col[b])) - ka*p.d[b]) * p.u[a] * p.u[b]
}

// scaledRow writes the cross-products of column a with every column,
// times ga·gf[b] (each product (S[a, b] − fm·d[a]·d[b])·u[a]·u[b], then
// times ga, then times gf[b]), to dst[:len(p.col)].
func (p *productRows) scaledRow(a int, ga float64, gf, dst []float64) {
	dst = dst[:len(p.col)]
	S := p.S.rowOf(int(p.col[a]))
	ka, ua := p.fm*p.d[a], p.u[a]
	for b, cb := range p.col {
		v := (S[cb] - ka*p.d[b]) * ua * p.u[b]
		dst[b] = v * ga * gf[b]
	}
}

// sampleProducts is the cross-products S of the base's centred columns
// over a sample's rows (w × w, symmetric): the base's own (full, w×w
// row-major), or, for a subset, computed a row at a time from the r rows
// on which it differs from its base — S = cc − AAᵀ for the rows it leaves
// out (cc the base's), or AAᵀ for the rows it keeps (cc nil), the w × r
// matrix A holding each column's values on those rows (row-major) — when
// a step first reads the row, and kept for the fits that read it again
// (greedytl-auto's two members of a committee select many of the same
// columns), while fits on the base sample have selected at most half the
// columns and, beyond an eighth of them, A is small enough to stay in the
// caches (gramBase.steps, rowByRowBytes; else subsetProducts computes the
// whole matrix, in blocks, full). A subset thus holds w·r + U·w values
// (A, and the U rows its fits read), O(N·(r + k)), not a w × w matrix of
// its own (an N × N matrix for each committee in progress, as large as
// the m × N input at N = m), and computes U·w − U²/2 products (a new row
// takes its elements in the rows already kept from them), at most the
// w²/2 of the whole matrix.
// Every element is floats.Dot of two rows of A, as crossProducts computes
// it (bit for bit: floatsDot4 is floats.Dot, whose products commute),
// subtracted from cc's: the S that subsetProducts computed whole before.
type sampleProducts struct {
	full []float64
	cc   []float64
	A    []float64
	w, r int

	mu   sync.Mutex
	rows [][]float64 // the rows computed, by column (nil: not yet)
	left []int       // scratch: the columns of a new row not yet in rows
}

// rowOf returns row c of S (w values), not to be written: the full
// matrix's, or a kept row, which keptRow never writes once it has stored
// it in s.rows, so that it is read without s.mu.
func (s *sampleProducts) rowOf(c int) []float64 {
	if s.full != nil {
		return s.full[c*s.w : c*s.w+s.w]
	}
	s.mu.Lock()
	R := s.keptRow(c)
	s.mu.Unlock()
	return R
}

// keptRow returns row c of S, computed now if no fit has read it yet
// (s.mu held).
func (s *sampleProducts) keptRow(c int) []float64 {
	if s.rows == nil {
		s.rows = make([][]float64, s.w)
	}
	if R := s.rows[c]; R != nil {
		return R
	}
	r := s.r
	R := make([]float64, s.w)
	s.left = s.left[:0]
	for c2, R2 := range s.rows {
		if R2 != nil {
			R[c2] = R2[c] // S[c2, c] = S[c, c2], bit for bit
		} else {
			s.left = append(s.left, c2)
		}
	}
	x := s.A[c*r : c*r+r]
	var q [4]float64
	left := s.left
	t := 0
	for ; t+4 <= len(left); t += 4 {
		c0, c1, c2, c3 := left[t]*r, left[t+1]*r, left[t+2]*r, left[t+3]*r
		floatsDot4(x, s.A[c0:c0+r], s.A[c1:c1+r], s.A[c2:c2+r], s.A[c3:c3+r], &q)
		R[left[t]], R[left[t+1]], R[left[t+2]], R[left[t+3]] = q[0], q[1], q[2], q[3]
	}
	for ; t < len(left); t++ {
		R[left[t]] = floats.Dot(x, s.A[left[t]*r:left[t]*r+r])
	}
	if s.cc != nil {
		for _, c2 := range left {
			R[c2] = s.cc[c*s.w+c2] - R[c2]
		}
	}
	s.rows[c] = R
	return R
}

// at returns S[c1, c2].
func (s *sampleProducts) at(c1, c2 int) float64 {
	if s.full != nil {
		return s.full[c1*s.w+c2]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rows != nil {
		if R := s.rows[c1]; R != nil {
			return R[c2]
		}
		if R := s.rows[c2]; R != nil {
			return R[c1]
		}
	}
	r := s.r
	v := floats.Dot(s.A[c1*r:c1*r+r], s.A[c2*r:c2*r+r])
	if s.cc != nil {
		v = s.cc[c1*s.w+c2] - v
	}
	return v
}

// sub returns the productRows of the columns idx (indices into p's).
func (p *productRows) sub(idx []int) productRows {
	q := productRows{S: p.S, fm: p.fm, col: make([]int32, len(idx)), d: make([]float64, len(idx)), u: make([]float64, len(idx))}
	for t, a := range idx {
		q.col[t], q.d[t], q.u[t] = p.col[a], p.d[a], p.u[a]
	}
	return q
}

// gramBase is what every Gram of one sample shares: the base sample's
// columns that are not constant on it, centred and scaled, with the
// labels' deviations from their mean as a last column (zc, column after
// column: (nc+1) × m row-major), their factors 1/σ (f), the column of each
// candidate in zc (col, -1 for a constant one) and the cross-products (cc,
// (nc+1)×(nc+1) row-major, symmetric).
type gramBase struct {
	in  *inputs
	y   []float64
	nc  int
	zc  []float64
	f   []float64
	col []int32
	cc  []float64
	// steps is the most columns a fit on the base sample has selected so
	// far, which tells subsetProducts how many rows of a subset's
	// cross-products its fits may read (rowByRow). It is read when Subset
	// is called: a subset made while the base's fits still run
	// (greedytl-auto's subsamples' committees beside the whole sample's,
	// on two cores) sees those finished so far, 0 before the first, and
	// goes row by row — its form depends on that timing, its bits do not
	// (TestGramSubsetFormsAgree).
	steps atomic.Int64
}

// NewGram computes the cross-products of the training sample (X, H, y), with
// Fit's arguments and checks: X (m×d) holds the target features, H (m×n)
// the source scores, either may be absent (nil, a typed nil or an empty
// matrix, as for Fit), y the ±1 labels. It returns the errors Fit returns
// for invalid inputs (shapes, labels, non-finite values), named
// greedytl.NewGram, and an error when ctx is done. It costs O(N²·m) time for N = d + n candidates.
//
// The Gram keeps X and H, not copies of them (y is copied): Sample returns
// them, Subset reads its rows from them and Fit hands some fits to the
// package's Fit on them (see Fit). They must not be modified while the Gram, or any Gram
// Subset made from it, is in use: a Subset of modified rows would mix
// their new values with cross-products of the old ones.
func NewGram(ctx context.Context, X, H mat.Matrix, y []float64) (*Gram, error) {
	if err := fitctx.Start(ctx, "greedytl.NewGram"); err != nil {
		return nil, err
	}
	in, err := newInputs("greedytl.NewGram", X, H, y, 1) // Fit's checks (see NewGram)
	if err != nil {
		return nil, err
	}
	st, f, err := sampleStats(ctx, in)
	if err != nil {
		return nil, err
	}
	m, N := in.m, in.numCand()
	b := &gramBase{in: in, y: slices.Clone(y), col: make([]int32, N)}
	var cols []int
	for j, fj := range f {
		b.col[j] = -1
		if fj != 0 {
			b.col[j] = int32(len(cols))
			cols = append(cols, j)
		}
	}
	b.nc = len(cols)
	w := b.nc + 1
	b.f = make([]float64, b.nc)
	b.zc = make([]float64, m*w)
	v := make([]float64, m)
	for k, j := range cols {
		in.column(j, v)
		b.f[k] = f[j]
		standardizeColumn(b.zc[k*m:(k+1)*m], v, 1, st[j].mean, st[j].scale, f[j])
	}
	var ysum float64
	for _, yi := range y {
		ysum += yi
	}
	for i, yi := range y {
		b.zc[b.nc*m+i] = yi - ysum/float64(m)
	}
	if b.cc, err = crossProducts(ctx, b.zc, w, m); err != nil {
		return nil, fmt.Errorf("greedytl.NewGram: interrupted: %w", err)
	}
	g := &Gram{base: b, m: m, x: X, h: H, y: b.y, in: in}
	if in.x.cols == 0 {
		g.x = nil // absent, however it was passed (Sample's nil)
	}
	if in.h.cols == 0 {
		g.h = nil
	}
	if err := g.prepare(ctx, st, f); err != nil {
		return nil, fmt.Errorf("greedytl.NewGram: interrupted: %w", err)
	}
	return g, nil
}

// crossProducts returns AAᵀ for the row-major r×c matrix A, r×r row-major
// and symmetric, or ctx's error when ctx is done: it checks ctx before
// the products of each row j with a block's rows (below), so that a
// cancelled fit waits for at most max(c, crossBlockBytes/8) multiply-adds, not the
// whole O(r²·c). Every element is one
// dot product of two rows of A (contiguous: twice as fast as the products
// of columns of the transpose at m = 2,000, N = 880), as gonum's pure-Go
// Dsyrk computes it, bit for bit (TestCrossProductsDsyrk), four at a time
// where they share a row j (floatsDot4). The rows i of
// a block (as many as fit in crossBlockBytes) take their products with
// each row j ≥ i in turn, so that A, beyond the caches once r·c is large,
// is read from memory once a block rather than once a row.
func crossProducts(ctx context.Context, A []float64, r, c int) ([]float64, error) {
	C := make([]float64, r*r)
	if c > 0 {
		rows := max(1, crossBlockBytes/(8*c))
		for i0 := 0; i0 < r; i0 += rows {
			i1 := min(r, i0+rows)
			var d [4]float64
			for j := i0; j < r; j++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				aj := A[j*c : j*c+c]
				iEnd := min(i1, j+1)
				i := i0
				for ; i+4 <= iEnd; i += 4 {
					floatsDot4(aj, A[i*c:i*c+c], A[(i+1)*c:(i+1)*c+c], A[(i+2)*c:(i+2)*c+c], A[(i+3)*c:(i+3)*c+c], &d)
					C[i*r+j], C[(i+1)*r+j], C[(i+2)*r+j], C[(i+3)*r+j] = d[0], d[1], d[2], d[3]
				}
				for ; i < iEnd; i++ {
					C[i*r+j] = floats.Dot(A[i*c:i*c+c], aj)
				}
			}
		}
	}
	symmetrize(C, r)
	return C, nil
}

// floatsDot4Go sets out to floats.Dot of x with each of y0, …, y3: floatsDot4 where
// there is no vector kernel.
func floatsDot4Go(x, y0, y1, y2, y3 []float64, out *[4]float64) {
	out[0], out[1], out[2], out[3] = floats.Dot(x, y0), floats.Dot(x, y1), floats.Dot(x, y2), floats.Dot(x, y3)
}

// crossBlockBytes bounds the bytes of the rows crossProducts takes
// together, so that they stay in a core's L2 cache (1–2 MB on current
// x86 processors) while the other rows stream past them.
const crossBlockBytes = 256 << 10

// symmetrize copies the upper triangle of the row-major c×c matrix C into
// its lower triangle.
func symmetrize(C []float64, c int) {
	for i := range c {
		for j := i + 1; j < c; j++ {
			C[j*c+i] = C[i*c+j]
		}
	}
}

// column copies candidate column j (features first) into dst[:m].
func (in *inputs) column(j int, dst []float64) {
	if j < in.d {
		in.x.column(j, dst)
		return
	}
	in.h.column(j-in.d, dst)
}

// sampleStats returns the training statistics of every candidate column of
// in with γ = 1 (the scale is the standard deviation) and the factors 1/σ
// (0 for a constant column), computed as Fit computes them.
func sampleStats(ctx context.Context, in *inputs) ([]colStats, []float64, error) {
	N := in.numCand()
	e := &exactEngine{exactBuffers: getExactBuffers(N), m: in.m, in: in}
	defer e.release()
	for _, part := range []struct {
		b   *inputMatrix
		off int
	}{{&in.x, 0}, {&in.h, in.d}} {
		if c := part.b.cols; c > 0 {
			if err := e.columnStats(ctx, part.b, 1, e.st[part.off:part.off+c], e.f[part.off:part.off+c], e.sq[part.off:part.off+c]); err != nil {
				return nil, nil, err
			}
		}
	}
	return slices.Clone(e.st[:N]), slices.Clone(e.f[:N]), nil
}

// Subset returns the Gram of the sample's rows rows (indices into the
// sample, in the order Fit would read them; each at most once, at least
// two, both classes present): its Fit is Fit on those rows, X, H and y
// alike. It costs O(N·m) for the statistics; its cross-products cost
// O(N·r) for each row of them its fits read, r = min(len(rows), m −
// len(rows)), at most O(N²·r) in all (sampleProducts). It returns an error
// when rows is empty, a row is out of range or repeated, when g was not
// built by NewGram or Subset, or when ctx is done, and Fit's errors for the
// rows' labels.
func (g *Gram) Subset(ctx context.Context, rows []int) (*Gram, error) {
	if err := fitctx.Start(ctx, "greedytl.Gram.Subset"); err != nil {
		return nil, err
	}
	if err := g.built("greedytl.Gram.Subset"); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("greedytl.Gram.Subset: no rows: need at least 2 training examples (one of each class)")
	}
	b := g.base
	M := b.in.m
	in := make([]bool, M)
	base := make([]int, len(rows))
	for k, r := range rows {
		if r < 0 || r >= g.m {
			return nil, fmt.Errorf("greedytl.Gram.Subset: row %d out of range [0, %d)", r, g.m)
		}
		if g.rows != nil {
			r = g.rows[r]
		}
		if in[r] {
			return nil, fmt.Errorf("greedytl.Gram.Subset: row %d given twice", rows[k])
		}
		in[r], base[k] = true, r
	}
	m := len(base)
	s := &Gram{base: b, rows: base, m: m, y: make([]float64, m)}
	for k, r := range base {
		s.y[k] = b.y[r]
	}
	s.x, s.h = gatherRows(&b.in.x, base), gatherRows(&b.in.h, base)
	var err error
	if s.in, err = newInputs("greedytl.Gram.Subset", s.x, s.h, s.y, 1); err != nil {
		return nil, err
	}
	st, f, err := sampleStats(ctx, s.in)
	if err != nil {
		return nil, err
	}
	if err := s.prepare(ctx, st, f); err != nil {
		return nil, fmt.Errorf("greedytl.Gram.Subset: interrupted: %w", err)
	}
	return s, nil
}

// Sample returns the Gram's training sample: the features X and source
// scores H (nil when absent) and the labels y — for a subset, its rows
// gathered in the order Subset was given (all nil for a Gram not built by
// NewGram or Subset). The caller must not modify them.
func (g *Gram) Sample() (X, H mat.Matrix, y []float64) {
	if g == nil {
		return nil, nil, nil
	}
	return g.x, g.h, g.y
}

// built returns an error, naming caller, for a nil or zero Gram (one not
// built by NewGram or Subset), whose methods have no sample to work on.
func (g *Gram) built(caller string) error {
	if g == nil || g.base == nil {
		return fmt.Errorf("%s: a Gram not built by NewGram or Subset", caller)
	}
	return nil
}

// Products returns the cross-products of the Gram's sample: cols, the
// candidate indices (features 0, …, d−1, then sources d, …) of the columns
// not constant on the sample, in order; A, the cross-products of those
// columns standardised on the sample (centred on their means and divided
// by their population standard deviations, as package standardize does);
// b, their products with the labels' deviations from their mean. ok is
// false when the Gram hands its fits to the package's Fit (see Fit), whose
// cross-products it does not keep, and for a Gram not built by NewGram or
// Subset. cols and b are new: the caller may modify them. A is a view of
// the Gram, read only, that computes each element when it is read from
// the cross-products the Gram keeps: no n × n matrix of its own (a caller
// that needs one copies it, as mat.SymDense.CopySym does). An element
// costs O(1) for the whole sample and for a subset that computed its
// whole matrix (sampleProducts.full); for a subset that computes the rows
// its fits read, At takes the subset's lock and, for an element of no row
// kept, computes a dot product over the rows the subset leaves out (or
// keeps), which it does not keep. The view keeps the Gram's
// cross-products alive while it is referenced.
func (g *Gram) Products() (cols []int, A mat.Symmetric, b []float64, ok bool) {
	if g.built("") != nil || g.fallback {
		return nil, nil, nil, false
	}
	n := len(g.glob)
	cols = make([]int, n)
	for a, j := range g.glob {
		cols[a] = int(j)
	}
	if n == 0 {
		return cols, nil, nil, true
	}
	return cols, productsView{&g.prods}, slices.Clone(g.b), true
}

// productsView is the symmetric matrix of a productRows' cross-products,
// read only: element (a, b) and (b, a), a ≤ b, is row(a)'s b-th, bit for
// bit (what Products copied into a mat.SymDense before).
type productsView struct{ p *productRows }

// Dims returns the number of columns twice.
func (v productsView) Dims() (r, c int) { n := len(v.p.col); return n, n }

// SymmetricDim returns the number of columns.
func (v productsView) SymmetricDim() int { return len(v.p.col) }

// T returns v, which is symmetric.
func (v productsView) T() mat.Matrix { return v }

// At returns the cross-product of columns i and j, as row(min(i, j))
// gives it; it panics with mat.ErrIndexOutOfRange outside the matrix.
func (v productsView) At(i, j int) float64 {
	n := len(v.p.col)
	if uint(i) >= uint(n) || uint(j) >= uint(n) {
		panic(mat.ErrIndexOutOfRange)
	}
	if i > j {
		i, j = j, i
	}
	return v.p.at(i, j)
}

// gatherRows returns rows rows of b as a new dense matrix, or nil when b
// has no columns.
func gatherRows(b *inputMatrix, rows []int) mat.Matrix {
	if b.cols == 0 {
		return nil
	}
	out := mat.NewDense(len(rows), b.cols, nil)
	for k, r := range rows {
		b.row(r, out.RawRowView(k))
	}
	return out
}

// prepare sets the sample's slots and cross-products from its statistics
// st and factors f (sampleStats), or sets fallback when a column the
// cross-products cannot represent exactly enough would be a candidate: one
// constant on the base sample but not on this one, or one whose factor
// overflowed (a subnormal standard deviation). Its one error is ctx's,
// when ctx is done during a subset's cross-products.
func (g *Gram) prepare(ctx context.Context, st []colStats, f []float64) error {
	b := g.base
	for j, fj := range f {
		if fj == 0 {
			continue
		}
		c := b.col[j]
		if c < 0 || math.IsInf(fj, 0) || math.IsInf(b.f[c], 0) {
			g.fallback = true
			return nil
		}
		g.glob = append(g.glob, int32(j))
		g.st = append(g.st, st[j])
	}
	w := b.nc + 1
	S := &sampleProducts{full: b.cc, w: w}
	if g.rows != nil {
		var err error
		if S, err = g.subsetProducts(ctx); err != nil {
			return err
		}
	}
	// The sample's means of the base's centred columns: the cross-products
	// of the sample's centred columns are S − m·δδᵀ.
	delta := make([]float64, w)
	M := b.in.m
	for c := range delta {
		col := b.zc[c*M : c*M+M]
		var sum float64
		if g.rows == nil {
			for _, v := range col {
				sum += v
			}
		} else {
			for _, r := range g.rows {
				sum += col[r]
			}
		}
		delta[c] = sum / float64(g.m)
	}
	fm := float64(g.m)
	n := len(g.glob)
	u := make([]float64, n) // base scale over the sample's: (v − μ)/σ = (z − δ)·u
	cols := make([]int, n)
	g.delta = make([]float64, n)
	for a, j := range g.glob {
		cols[a] = int(b.col[j])
		u[a] = f[j] / b.f[cols[a]]
		g.delta[a] = delta[cols[a]]
	}
	g.u = u
	g.b = make([]float64, n)
	yc := b.nc
	Sy := S.rowOf(yc) // S[yc, ca] = S[ca, yc], bit for bit (S symmetric)
	for a, ca := range cols {
		ka := fm * delta[ca]
		g.b[a] = (Sy[ca] - ka*delta[yc]) * u[a]
	}
	g.prods = productRows{S: S, fm: fm, col: make([]int32, n), d: slices.Clone(g.delta), u: slices.Clone(u)}
	for a, c := range cols {
		g.prods.col[a] = int32(c)
	}
	g.equalize()
	return nil
}

// equalize gives slots whose columns are equal on the sample the
// cross-products of the first of them, bit for bit: the later one's
// product rows are computed from the earlier one's column, mean and scale
// (the earlier one's own, or those it takes in turn). Fit's exact search
// gives equal columns bitwise equal running values, so that ties go to the
// lowest candidate; cross-products computed from the base sample's
// columns (different for columns that differ only on rows a subset leaves
// out) or in a different order of the rows would break such ties either
// way at random.
func (g *Gram) equalize() {
	n, m := len(g.glob), g.m
	if n < 2 {
		return
	}
	// FNV-1a over the values (−0 as 0), column by column, reading by rows.
	hash := make([]uint64, n)
	for a := range hash {
		hash[a] = 14695981039346656037
	}
	v := make([]float64, m)
	row := make([]float64, g.in.numCand())
	for i := range m {
		g.in.row(i, row)
		for a, j := range g.glob {
			hash[a] = (hash[a] ^ math.Float64bits(row[j]+0)) * 1099511628211
		}
	}
	order := make([]int, n)
	for a := range order {
		order[a] = a
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case hash[a] < hash[b]:
			return -1
		case hash[a] > hash[b]:
			return 1
		}
		return 0
	})
	w := make([]float64, m)
	for k := 1; k < n; k++ {
		for r := k - 1; r >= 0 && hash[order[r]] == hash[order[k]]; r-- {
			a, b := order[r], order[k] // a < b: SortStable keeps slot order
			g.in.column(int(g.glob[a]), v)
			g.in.column(int(g.glob[b]), w)
			if !slices.Equal(v, w) {
				continue
			}
			// b takes a's row, column and product with y.
			p := &g.prods
			p.col[b], p.d[b], p.u[b] = p.col[a], p.d[a], p.u[a]
			g.b[b] = g.b[a]
			break
		}
	}
}

// row copies row i of the candidate columns (features first) into
// dst[:d+n].
func (in *inputs) row(i int, dst []float64) {
	in.x.row(i, dst[:in.d])
	in.h.row(i, dst[in.d:in.d+in.n])
}

// rowByRowBytes bounds the bytes of a subset's rows A (w × r) with which
// subsetProducts computes the cross-products a row at a time when the
// base's fits selected more than w/8 columns: each new row streams all of
// A, which beyond the caches makes it slower than the whole matrix in
// blocks (BenchmarkAutoGramRatio at m = 2,000, N = 4,000, k = 899, A of
// 3.2 MB: 8 % more CPU time row by row; at m = 2,000, N = 880, k ≈ 270,
// A of 1.3 MB, BenchmarkAutoRows 12 % less).
const rowByRowBytes = 2 << 20

// rowByRow reports whether a subset's cross-products over w columns, its
// A holding their values on k rows, are computed a row at a time as its
// fits read them (sampleProducts.keptRow) rather than whole, when fits on
// the base sample have selected at most steps columns: while steps is at
// most w/2 and, beyond w/8, A is at most rowByRowBytes (float64 values).
func rowByRow(steps int64, w, k int) bool {
	return 2*steps <= int64(w) && (8*steps <= int64(w) || w*k*8 <= rowByRowBytes)
}

// subsetProducts returns the cross-products of the base's centred columns
// over the sample's rows, as a sampleProducts: those of every row minus
// those of the rows left out, or, when fewer rows are kept than left out,
// those of the kept rows; or ctx's error when ctx is done. It keeps the
// columns' values on those rows, O(N·r) for r rows, and computes no
// product (each row is computed when a fit first reads it), unless fits
// on the base sample have selected more than half the columns, or more
// than an eighth with A beyond rowByRowBytes: it then computes the whole
// matrix (crossProducts).
func (g *Gram) subsetProducts(ctx context.Context) (*sampleProducts, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := g.base
	w, M := b.nc+1, b.in.m
	kept := make([]bool, M)
	for _, r := range g.rows {
		kept[r] = true
	}
	rows, out := g.rows, false
	if M-g.m < g.m {
		rows, out = nil, true
		for r, k := range kept {
			if !k {
				rows = append(rows, r)
			}
		}
	}
	k := len(rows)
	A := make([]float64, w*k)
	for c := range w {
		col, dst := b.zc[c*M:c*M+M], A[c*k:c*k+k]
		for t, r := range rows {
			dst[t] = col[r]
		}
	}
	S := &sampleProducts{A: A, w: w, r: k}
	if out {
		S.cc = b.cc
	}
	if rowByRow(b.steps.Load(), w, k) {
		return S, nil
	}
	// Long paths: the fits would read most rows (as many as the base's
	// fits selected columns, each of a subset's members about as many),
	// at a cost above the whole matrix's (a kept row's elements from the
	// rows before it are read across them, a cache miss each, and each new
	// row reads all of A, from memory once A outgrows the caches), and
	// keep nearly as many values: the whole matrix, computed in blocks.
	full, err := crossProducts(ctx, A, w, k)
	if err != nil {
		return nil, err
	}
	if out {
		for i, v := range b.cc {
			full[i] = v - full[i]
		}
	}
	return &sampleProducts{full: full, w: w}, nil
}

// Fit runs exact GreedyTL with options opts on the Gram's sample: it returns
// what Fit returns for the sample's X, H and y — the same selected columns
// (but for the members of a group of columns equal only up to rounding
// once standardised, which the two choose by scores that can differ by
// rounding; exact duplicates go to the lowest index in both) and, up to
// rounding, the same weights, statistics and path — in O(N·k +
// m·k) a step for k selected columns instead of O(N·m). With opts.Sample >
// 0 or opts.AutoLambda, and where the cross-products cannot stand in for
// the columns (a column constant on the Gram's base sample but not on a
// subset's, a subnormal standard deviation, a step or error that breaks
// down numerically, weights whose conditioning is not clearly within
// Fit's bound), it calls Fit itself, which also returns the errors. A nil
// or zero Gram (not built by NewGram or Subset) is an error.
func (g *Gram) Fit(ctx context.Context, opts Options) (*Model, error) {
	return g.fitOrHand(ctx, opts, true, "greedytl.Gram.Fit")
}

// FitSelection is Fit without the leave-one-out path, for a caller that
// uses only the selected columns, weights and statistics: the model is
// Gram.Fit's, bit for bit, except that every Path step's LOOError is
// NaN (not computed), so that the model cannot be written (Write checks
// it). Each step costs O(N·k) instead of O(N·k + m·k). It returns an
// error when opts.StopAtMinLOO is set (the truncation needs the path),
// and where Fit would fall back to the package's Fit (see Fit) it returns
// that model, with its path.
func (g *Gram) FitSelection(ctx context.Context, opts Options) (*Model, error) {
	return g.fitOrHand(ctx, opts, false, "greedytl.Gram.FitSelection")
}

// fitOrHand is Fit (loo) and FitSelection (not loo), named caller: g.fit,
// or the package's Fit where the Gram hands over.
func (g *Gram) fitOrHand(ctx context.Context, opts Options, loo bool, caller string) (*Model, error) {
	if err := fitctx.Start(ctx, caller); err != nil {
		return nil, err
	}
	if err := g.built(caller); err != nil {
		return nil, err
	}
	if !loo && opts.StopAtMinLOO {
		return nil, fmt.Errorf("%s: StopAtMinLOO needs the leave-one-out path (use Fit)", caller)
	}
	if err := opts.check(); err != nil {
		return nil, fmt.Errorf("%s: invalid options: %w", caller, err)
	}
	if opts.Sample > 0 || opts.AutoLambda || g.fallback {
		return Fit(ctx, g.x, g.h, g.y, opts)
	}
	mod, ok, err := g.fit(ctx, opts, loo, caller)
	if err != nil {
		return nil, err
	}
	if !ok {
		return Fit(ctx, g.x, g.h, g.y, opts)
	}
	return fitctx.Finish(ctx, mod, nil, caller)
}

// gramSearch is the state of one greedy run in covariance form over n
// slots. With M = Z_SᵀZ_S + λI = LLᵀ for the selected columns S, it keeps
// for every slot i the vector v_i = L⁻¹Z_Sᵀz_i (as the rows of V: row t
// holds the t-th entry of every v_i), r = L⁻¹Z_Sᵀy and, for the
// leave-one-out error, the columns of W = Z_S L⁻ᵀ (rows of W), the
// residuals y − ȳ − W r and the diagonal 1 − 1/m − ‖W_i‖². Adding column j
// with d = √(‖z_j‖² + λ − ‖v_j‖²) appends (z_iᵀz_j − v_iᵀv_j)/d to every
// v_i, (z_jᵀy − v_jᵀr)/d to r and (z_j − W v_j)/d to W (looBlock steps at
// a time, finishLOO): the pivoted Cholesky factorisation of the
// cross-products, O(N·k + m·k) a step (O(N·k) without the leave-one-out
// path). In
// Fit's terms c_i = 1 + (‖z_i‖² − ‖v_i‖²)/λ and t_i = (z_iᵀy − v_iᵀr)/λ,
// updated as Fit's exact search updates them (scan).
type gramSearch struct {
	n, m   int
	lambda float64
	scale  featureScale // γ, and β from whether a feature is a slot, for errSmallLambda
	prods  productRows  // the slots' cross-products, a row at a time
	gf     []float64    // each slot's factor γ_a: its cross-products with b are prods' times γ_a·γ_b
	b, sq  []float64
	c, t   []float64
	p      []float64
	V, W   []float64
	r, d   []float64
	vj     []float64
	res    []float64
	dg     []float64
	sel    []int
	reg    []float64
	loo    []float64
	best   int  // the slot of the best gain, -1 if none is positive
	noLOO  bool // leave the leave-one-out path out (W, res, dg unused)

	y    []float64
	pos  []bool
	npos int
	ysum float64
	yy   float64 // ‖y‖²
	rr   float64 // ‖r‖²: e(S) = ‖y‖² − ‖r‖²
}

// fit runs the search of Fit in covariance form (gramSearch) and returns the
// model, or false when Fit must decide instead (see Gram.Fit). Without loo
// it leaves the leave-one-out path out (NaN; FitSelection).
func (g *Gram) fit(ctx context.Context, opts Options, loo bool, caller string) (*Model, bool, error) {
	in := g.in
	d, m := in.d, g.m
	fm := float64(m)
	gamma, lambda := opts.FeatureFactor, opts.Lambda
	// The slots of this γ, Fit's scale of each and its factor γ_a (γ for
	// features, 1 for sources).
	var idx []int
	var scale, gf []float64
	features := false // a feature is a slot
	for a, j := range g.glob {
		sc, gj := g.st[a].scale, 1.0
		if int(j) < d {
			if gamma == 0 {
				continue
			}
			var f float64
			if sc, f = scaleFactor(g.st[a].scale, gamma); f == 0 {
				continue // taken as constant, as Fit does
			} else if math.IsInf(f, 0) {
				return nil, false, nil
			}
			gj, features = gamma, true
		}
		idx = append(idx, a)
		scale, gf = append(scale, sc), append(gf, gj)
	}
	n := len(idx)
	if n == 0 {
		return nil, false, noCandidates(caller)
	}
	s := &gramSearch{n: n, m: m, lambda: lambda, scale: newFeatureScale(gamma, features), gf: gf, b: make([]float64, n), sq: make([]float64, n)}
	s.prods = g.prods
	if n < len(g.glob) {
		s.prods = g.prods.sub(idx)
	}
	for a, ia := range idx {
		s.sq[a] = fm * gf[a] * gf[a] // Fit's ‖z‖² = m·γ²
		s.b[a] = g.b[ia] * gf[a]
	}
	s.noLOO = !loo
	if err := s.reset(g.y, caller); err != nil {
		return nil, false, err
	}
	z := make([]float64, m)
	for opts.MaxK == 0 || len(s.sel) < opts.MaxK {
		if err := ctx.Err(); err != nil {
			return nil, false, &fitctx.Interruption{Caller: caller, At: fmt.Sprintf("after %d steps", len(s.sel)), Err: err}
		}
		j := s.pick()
		if j < 0 {
			break
		}
		if loo {
			g.column(idx[j], gf[j], z)
		}
		more, ok := s.add(j, z, opts.Delta)
		if !ok {
			return nil, false, nil
		}
		if !more {
			break
		}
	}
	if g.rows == nil {
		for k := int64(len(s.sel)); ; {
			if old := g.base.steps.Load(); old >= k || g.base.steps.CompareAndSwap(old, k) {
				break
			}
		}
	}
	if !s.finishLOO() {
		return nil, false, nil
	}
	if !loo {
		s.loo = make([]float64, len(s.sel))
		for t := range s.loo {
			s.loo[t] = math.NaN()
		}
	}
	k := len(s.sel)
	if opts.StopAtMinLOO && k > 0 {
		k = slices.Index(s.loo, slices.Min(s.loo)) + 1
	}
	mod := newModel(k, d, in.n, opts)
	if k == 0 {
		return mod, true, nil
	}
	w, ok := s.weights(k)
	if !ok {
		return nil, false, nil
	}
	mod.Weights = w
	for t, j := range s.sel[:k] {
		a := idx[j]
		if !inputcheck.PositiveFinite(scale[j]) {
			return nil, false, nil // Fit's error (errScaleOverflow)
		}
		c := column(int(g.glob[a]), d)
		mod.Selected[t] = c
		mod.Mean[t], mod.Scale[t] = g.st[a].mean, scale[j]
		mod.Path[t] = Step{Column: c, Score: fm * (1 - s.reg[t]), RegError: s.reg[t], LOOError: s.loo[t]}
	}
	return mod, true, nil
}

// column writes slot a's standardised column, times gamma, to z: from the
// base's contiguous block rather than from the sample's rows (a strided
// read), equal to Fit's up to rounding.
func (g *Gram) column(a int, gamma float64, z []float64) {
	M := g.base.in.m
	c := int(g.base.col[g.glob[a]])
	col := g.base.zc[c*M : c*M+M]
	d, f := g.delta[a], g.u[a]*gamma
	if g.rows == nil {
		for i, v := range col[:len(z)] {
			z[i] = (v - d) * f
		}
		return
	}
	for i, r := range g.rows {
		z[i] = (col[r] - d) * f
	}
}

// reset starts the search at the empty set for labels y, as
// exactEngine.reset does, its error for a λ too small named by caller.
func (s *gramSearch) reset(y []float64, caller string) error {
	n, m := s.n, s.m
	s.c, s.t, s.p = make([]float64, n), make([]float64, n), make([]float64, n)
	if err := startScores(s.c, s.t, s.sq, s.b, s.lambda, s.scale, caller); err != nil {
		return err
	}
	s.y = y
	s.pos = make([]bool, m)
	var ysum float64
	for i, v := range y {
		s.pos[i] = v > 0
		if v > 0 {
			s.npos++
		}
		ysum += v
	}
	s.ysum = ysum
	s.res, s.dg = make([]float64, m), make([]float64, m)
	for i, v := range y {
		s.res[i] = v - ysum/float64(m)
		s.dg[i] = 1 - 1/float64(m)
	}
	s.yy = dot(y, y)
	s.best = scan(s.p[:0], s.c, s.t, 0)
	return nil
}

// pick returns the slot to try next: the best gain, else the first
// unselected slot (as exactEngine.pick), or -1 when none is left.
func (s *gramSearch) pick() int {
	if s.best >= 0 {
		return s.best
	}
	for a, c := range s.c {
		if !math.IsInf(c, 1) {
			return a
		}
	}
	return -1
}

// add adds slot j, whose standardised column is z, unless its gain in mean
// regularised error is below delta (more = false). It returns false for
// ok when a quantity breaks down numerically.
func (s *gramSearch) add(j int, z []float64, delta float64) (more, ok bool) {
	n, m, k := s.n, s.m, len(s.sel)
	s.vj = grow(s.vj, k)
	for t := range k {
		s.vj[t] = s.V[t*n+j]
	}
	vj := s.vj[:k]
	d2 := s.sq[j] + s.lambda - dot(vj, vj)
	u := s.b[j] - dot(vj, s.r)
	il := 1 / s.lambda
	c, t := d2*il, u*il
	if !inputcheck.PositiveFinite(d2) || math.IsNaN(u) || math.IsInf(u*u, 0) {
		return false, false
	}
	if s.lambda*t*t/c/float64(m) < delta {
		return false, true
	}
	dd := math.Sqrt(d2)
	rk := u / dd
	// The new entry of every v_i, from z_iᵀz_j (z_jᵀz_j = ‖z_j‖², as Fit).
	s.V = slices.Grow(s.V, n)[:k*n+n]
	row := s.V[k*n:]
	s.prods.scaledRow(j, s.gf[j], s.gf, row)
	row[j] = s.sq[j]
	if k > 0 {
		gonum.Implementation{}.Dgemv(blas.Trans, k, n, -1, s.V, n, vj, 1, 1, row, 1)
	}
	id := 1 / dd
	for i := range row {
		row[i] *= id
	}
	s.r, s.d, s.sel = append(s.r, rk), append(s.d, dd), append(s.sel, j)
	// c_i ← c_i − p_i², t_i ← t_i − p_i·r_k/√λ with p = row/√λ.
	rl := math.Sqrt(il)
	for i, v := range row {
		s.p[i] = v * rl
	}
	s.c[j] = math.Inf(1)
	s.best = scan(s.p, s.c, s.t, rk*rl)
	s.rr += rk * rk
	s.reg = append(s.reg, (s.yy-s.rr)/float64(m))
	if s.noLOO {
		return true, true
	}
	// W's new column waits, as z, for the next block (finishLOO).
	s.W = append(s.W, z...)
	if len(s.sel)%looBlock == 0 {
		return true, s.finishLOO()
	}
	return true, true
}

// looBlock is the number of steps whose columns of W finishLOO computes
// together: the selection does not need them, and one product with the
// columns before them reads those once for the block instead of once a
// step (W is k × m, beyond the caches for long paths).
const looBlock = 16

// finishLOO turns the columns z_t of W not yet computed, for the steps t
// from len(s.loo) on, into w_t = (z_t − Σ_{u<t} L_tu w_u)/d_t (L_tu being
// the u-th entry of v_j when step t added column j), and records each
// step's leave-one-out error in turn. It returns false when the
// leave-one-out error breaks down.
func (s *gramSearch) finishLOO() bool {
	n, m := s.n, s.m
	t0, k := len(s.loo), len(s.sel)
	if t0 == k || s.noLOO {
		return true
	}
	impl := gonum.Implementation{}
	B := k - t0
	if t0 > 0 {
		L := make([]float64, B*t0)
		for b := range B {
			j := s.sel[t0+b]
			for u := range t0 {
				L[b*t0+u] = s.V[u*n+j]
			}
		}
		impl.Dgemm(blas.NoTrans, blas.NoTrans, B, m, t0, -1, L, t0, s.W[:t0*m], m, 1, s.W[t0*m:k*m], m)
	}
	for t := t0; t < k; t++ {
		w := s.W[t*m : t*m+m]
		for u := t0; u < t; u++ {
			impl.Daxpy(m, -s.V[u*n+s.sel[t]], s.W[u*m:u*m+m], 1, w, 1)
		}
		id, rk := 1/s.d[t], s.r[t]
		for i := range w {
			w[i] *= id
			s.res[i] -= w[i] * rk
			s.dg[i] -= w[i] * w[i]
		}
		loo, _, fine := balancedLOO(s.y, s.pos, s.npos, s.ysum, s.res, 0, s.dg, 1, 0)
		if !fine {
			return false
		}
		s.loo = append(s.loo, loo)
	}
	return true
}

// weights returns the ridge weights of the first k selected columns,
// w = L⁻ᵀr, or false when M = LLᵀ may be too ill-conditioned for Fit's
// bound (a 1-norm condition number of 1e16, condMax): its 2-norm
// condition number is at most (trace(Z_SᵀZ_S) + λ)/λ, and its 1-norm one
// k times that, which must stay below condMax/100.
func (s *gramSearch) weights(k int) ([]float64, bool) {
	n := s.n
	tr := 0.0
	for _, j := range s.sel[:k] {
		tr += s.sq[j]
	}
	if !(float64(k)*(tr+s.lambda)/s.lambda <= condMax/100) {
		return nil, false
	}
	L := make([]float64, k*k)
	for t, j := range s.sel[:k] {
		for u := range t {
			L[t*k+u] = s.V[u*n+j]
		}
		L[t*k+t] = s.d[t]
	}
	w := slices.Clone(s.r[:k])
	gonum.Implementation{}.Dtrsv(blas.Lower, blas.Trans, blas.NonUnit, k, L, k, w, 1)
	if !finiteSlice(w) {
		return nil, false
	}
	return w, true
}
