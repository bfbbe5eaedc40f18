package linear

import (
	"fmt"

	"github.com/greedytl/greedytl/internal/typednil"
	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a trained linear classifier, liblinear's model: what Train
// returns and what a liblinear model file holds.
//
// Feature j (0-based; liblinear's index j+1) has the weights
// W[j*NrW : (j+1)*NrW], one per decision function. When Bias ≥ 0 the
// examples have an extra constant feature of value Bias, whose weights are
// the last row of W, so len(W) = (NrFeature+1)·NrW; otherwise
// len(W) = NrFeature·NrW.
//
// A binary model (two labels) has NrW = 1: its decision value
// f(x) = Σ_j W[j]·x_j (+ W[NrFeature]·Bias) is for Labels[0], which is
// predicted when f(x) > 0; Labels[1] otherwise. A model of k > 2 classes
// (read from a liblinear file: Train fits binary models only) has NrW = k,
// one one-vs-rest decision function per label, and predicts the label of
// the largest decision value.
//
// Its methods only read it: any number of goroutines may call them on one
// model at once, as long as none modifies its fields.
type Model struct {
	// Solver is the learner that produced the weights.
	Solver Solver
	// Labels are the class labels in liblinear's order.
	Labels []int
	// NrFeature is the number of features; later features are ignored.
	NrFeature int
	// Bias is the value of the bias feature, or −1 when there is none
	// (liblinear -B; any negative value means none).
	Bias float64
	// W holds the weights, row-major NrFeature(+1) × NrW.
	W []float64
	// NrW is the number of decision functions: 1 for two classes.
	NrW int
	// Converged is false when the solver stopped at its iteration cap or,
	// short of it, numerically stuck (Stuck). Models read from files
	// report true (the files do not record it).
	Converged bool
	// Stuck is true when the solver stopped short of its iteration cap,
	// unable to make progress: no decrease of its model possible, its
	// model or objective NaN (values whose squares overflow float64), a
	// line search that found no decrease above the rounding floor, a loss
	// gradient or a row's squared norm that overflows float64, or a
	// start of L2R_LR_DUAL's that underflows to 0 (the run stops at its
	// start), or steps all below an L1 solver's absolute
	// floor. Converged is then false; liblinear reports such a stop as
	// reaching the iteration cap, or some of them as convergence. Models
	// read from files report false.
	Stuck bool
	// Precision is true when the solver (TRON: L2R_LR and L2R_L2LOSS_SVC)
	// stopped at machine precision short of its stopping rule: the actual
	// and predicted decreases of its objective at a step both at most
	// 1e-12 of the objective, a tolerance (Params.Eps) tighter than
	// float64 allows. Converged is then true; liblinear-train warns
	// "actred and prered too small". Models read from files report false.
	Precision bool
}

// hasBias reports whether the model has a bias feature.
func (m *Model) hasBias() bool { return m.Bias >= 0 }

// Check returns an error when m is nil or inconsistent — a model built by
// hand whose fields disagree: a solver without a name, fewer than two
// labels or a label twice, NrW not 1 for two labels and len(Labels)
// otherwise, a negative NrFeature, len(W) other than (NrFeature + 1 if
// Bias ≥ 0)·NrW, a weight or bias that is not finite. Models that Train
// returns and ReadModel reads pass it.
func (m *Model) Check() error { return m.check() }

// consistent panics, naming fn, when m's weights do not have the length
// its NrFeature, Bias and NrW give (the one inconsistency that would make
// fn index out of range; Check reports every inconsistency).
func (m *Model) consistent(fn string) {
	if m == nil {
		panic("linear: Model." + fn + " of a nil *Model")
	}
	rows := m.NrFeature
	if m.hasBias() {
		rows++
	}
	if m.NrFeature < 0 || m.NrW < 1 || len(m.W) != rows*m.NrW || len(m.Labels) < max(2, m.NrW) {
		panic(fmt.Sprintf("linear: Model.%s of an inconsistent model (%d weights, %d labels for NrFeature %d, Bias %v, NrW %d): see Model.Check",
			fn, len(m.W), len(m.Labels), m.NrFeature, m.Bias, m.NrW))
	}
}

// binary panics unless m is consistent (see consistent) and has a single
// decision function.
func (m *Model) binary(fn string) {
	m.consistent(fn)
	if m.NrW != 1 {
		panic(fmt.Sprintf("linear: Model.%s needs a binary model (NrW = 1), have NrW = %d", fn, m.NrW))
	}
}

// Decision returns the decision value of a binary model for the sparse
// example with 0-based feature indices ind and values val; indices at or
// beyond NrFeature are ignored, as in liblinear. It panics when the model is
// not binary or inconsistent (see Check), len(ind) != len(val) or an index
// is negative.
func (m *Model) Decision(ind []int, val []float64) float64 {
	m.binary("Decision")
	if len(ind) != len(val) {
		panic(fmt.Sprintf("linear: %d indices for %d values", len(ind), len(val)))
	}
	var s float64
	for k, j := range ind {
		if j < m.NrFeature {
			s += m.W[j] * val[k]
		}
	}
	if m.hasBias() {
		s += m.W[m.NrFeature] * m.Bias
	}
	return s
}

// DecisionDense returns the decision value of a binary model for the dense
// example x; entries at or beyond NrFeature are ignored. It panics when the
// model is not binary or inconsistent (see Check) or len(x) < NrFeature.
func (m *Model) DecisionDense(x []float64) float64 {
	m.binary("DecisionDense")
	if len(x) < m.NrFeature {
		panic(fmt.Sprintf("linear: example has %d features, model has %d", len(x), m.NrFeature))
	}
	var s float64
	for j, v := range x[:m.NrFeature] {
		s += m.W[j] * v
	}
	if m.hasBias() {
		s += m.W[m.NrFeature] * m.Bias
	}
	return s
}

// Predict returns the decision values and predicted labels of the rows of
// X, as liblinear-predict computes them; columns of X at or beyond
// NrFeature are ignored. For a binary model decision has one value per row
// (for Labels[0]); otherwise it is row-major X.R × NrW. It panics when m is
// inconsistent (see Check).
func (m *Model) Predict(X *sparse.CSR) (decision []float64, labels []int) {
	m.consistent("Predict")
	nw := m.NrW
	decision = make([]float64, X.R*nw)
	labels = make([]int, X.R)
	for i := 0; i < X.R; i++ {
		dec := decision[i*nw : (i+1)*nw]
		ind, val := X.Row(i)
		for k, j := range ind {
			if j >= m.NrFeature {
				break
			}
			v := val[k]
			for c, wc := range m.W[j*nw : (j+1)*nw] {
				dec[c] += wc * v
			}
		}
		if m.hasBias() {
			for c, wc := range m.W[m.NrFeature*nw : (m.NrFeature+1)*nw] {
				dec[c] += wc * m.Bias
			}
		}
		labels[i] = m.label(dec)
	}
	return decision, labels
}

// label returns liblinear's prediction for the decision values dec.
func (m *Model) label(dec []float64) int {
	if len(dec) == 1 {
		if dec[0] > 0 {
			return m.Labels[0]
		}
		return m.Labels[1]
	}
	best := 0
	for c, v := range dec {
		if v > dec[best] {
			best = c
		}
	}
	return m.Labels[best]
}

// scoreSign returns the factor that orients a binary model's decision
// values towards the greater of its two labels.
func (m *Model) scoreSign() float64 {
	if m.Labels[0] < m.Labels[1] {
		return -1
	}
	return 1
}

// PredictsGreater reports whether liblinear predicts the greater of a
// binary model's two labels for a row of score s (Scores's): when s > 0,
// and also when s = 0 or NaN and Labels[0] is the smaller label, since
// liblinear predicts Labels[1] for a decision value that is not > 0 (a row
// of zeros without a bias, or on features of zero weight only, scores
// exactly 0; a NaN feature gives a NaN score). The sign of s alone
// classifies every row as liblinear does but those.
func (m *Model) PredictsGreater(s float64) bool {
	return s > 0 || (!(s < 0) && m.scoreSign() < 0)
}

// Scores returns the score of each row of the dense matrix X: the decision
// value oriented so that positive scores favour the greater of the two
// labels (+1 for ±1 labels, 1 for 0/1 labels). That is the decision value
// itself when Labels[0] is the greater label — always the case for models
// trained by Train or liblinear ≥ 2.0 on ±1 labels — and its negation
// otherwise. Each row's sum is Dot of the row and the weights (its columns
// at or beyond NrFeature weighted 0), plus the bias term: a row's score has
// the same bits alone or among any other rows, whatever X's type (a
// mat.Dense, a view into a larger one, a transpose, another mat.Matrix; a
// matrix that is not row-major raw data, mat.RawMatrixer, is copied first)
// and whatever BLAS the program uses (the OpenBLAS build's matrix–vector
// product chose its kernel, and so its order of summation, by the number
// of rows). Scores does not inspect X or the scores: non-finite entries,
// or weights times features that overflow float64, give non-finite scores
// (Train refuses a model whose scores of its own training rows overflow; a
// model read from a file is not checked), so validate data read from files
// first and check the scores.
// It panics when the model is not binary or inconsistent (see Check) or X
// has fewer than NrFeature columns; no matrix (nil, or a nil *mat.Dense)
// has none, and no rows.
func (m *Model) Scores(X mat.Matrix) []float64 {
	m.binary("Scores")
	var r, c int
	if !typednil.Matrix(X) { // no matrix (nil, a nil *mat.Dense): no rows, no columns
		r, c = X.Dims()
	}
	if c < m.NrFeature {
		panic(fmt.Sprintf("linear: matrix has %d columns, model has %d features", c, m.NrFeature))
	}
	sign := m.scoreSign()
	w := make([]float64, c)
	for j := range m.NrFeature {
		w[j] = sign * m.W[j]
	}
	out := make([]float64, r)
	if r == 0 {
		return out
	}
	if c > 0 {
		rm, ok := X.(mat.RawMatrixer)
		if !ok {
			// A transpose or another matrix type: copied, to read its rows
			// as those of a mat.Dense.
			rm = mat.DenseCopyOf(X)
		}
		raw := rm.RawMatrix()
		dotRows(out, raw.Data, raw.Stride, w)
	}
	if m.hasBias() {
		b := sign * m.W[m.NrFeature] * m.Bias
		for i := range out {
			out[i] += b
		}
	}
	return out
}

// dotRows sets out[i] to Dot of row i of the row-major data (rows of
// len(w) values, stride apart) and w, bit for bit: it scores 4 rows (then
// 2, then 1) per pass over the columns, each row with its own even and odd
// sums in Dot's order, to read each weight once per block of rows.
func dotRows(out, data []float64, stride int, w []float64) {
	c := len(w)
	n := c &^ 1
	i := 0
	for ; i+4 <= len(out); i += 4 {
		x0 := data[i*stride : i*stride+c]
		x1 := data[(i+1)*stride : (i+1)*stride+c]
		x2 := data[(i+2)*stride : (i+2)*stride+c]
		x3 := data[(i+3)*stride : (i+3)*stride+c]
		x0, x1, x2, x3 = x0[:len(w)], x1[:len(w)], x2[:len(w)], x3[:len(w)]
		var e0, o0, e1, o1, e2, o2, e3, o3 float64
		// j is the pair's odd index (a form whose bounds the compiler proves).
		for j := 1; j < len(w); j += 2 {
			w0, w1 := w[j-1], w[j]
			e0 += float64(x0[j-1] * w0)
			o0 += float64(x0[j] * w1)
			e1 += float64(x1[j-1] * w0)
			o1 += float64(x1[j] * w1)
			e2 += float64(x2[j-1] * w0)
			o2 += float64(x2[j] * w1)
			e3 += float64(x3[j-1] * w0)
			o3 += float64(x3[j] * w1)
		}
		s0, s1, s2, s3 := e0+o0, e1+o1, e2+o2, e3+o3
		if n < c {
			wn := w[n]
			s0 += float64(x0[n] * wn)
			s1 += float64(x1[n] * wn)
			s2 += float64(x2[n] * wn)
			s3 += float64(x3[n] * wn)
		}
		out[i], out[i+1], out[i+2], out[i+3] = s0, s1, s2, s3
	}
	if i+2 <= len(out) {
		x0 := data[i*stride : i*stride+c]
		x1 := data[(i+1)*stride : (i+1)*stride+c]
		x0, x1 = x0[:len(w)], x1[:len(w)]
		var e0, o0, e1, o1 float64
		for j := 1; j < len(w); j += 2 {
			w0, w1 := w[j-1], w[j]
			e0 += float64(x0[j-1] * w0)
			o0 += float64(x0[j] * w1)
			e1 += float64(x1[j-1] * w0)
			o1 += float64(x1[j] * w1)
		}
		s0, s1 := e0+o0, e1+o1
		if n < c {
			s0 += float64(x0[n] * w[n])
			s1 += float64(x1[n] * w[n])
		}
		out[i], out[i+1] = s0, s1
		i += 2
	}
	if i < len(out) {
		out[i] = Dot(data[i*stride:i*stride+c], w)
	}
}

// Dot returns x·w (len(w) = len(x); it panics otherwise) summed in one
// fixed order, whatever the values beside x and whatever BLAS the program
// uses: the products of the even-indexed terms added in index order, those
// of the odd-indexed ones likewise, the two sums added, then, for an odd
// length, the last term's product. It is the order of gonum's amd64
// matrix–vector product (its kernels of 4 and 2 rows: the lanes of a
// vector register), with which Scores scored all the rows at once: scores
// keep those bits, except, for an odd number of columns, that of the last
// of an odd number of rows, which that product's one-row kernel summed
// with the last product added to the even half. Products are rounded
// before they are added (float64(...): no fused multiply–add, which the
// compiler may otherwise use on arm64 and other architectures), so every
// architecture sums the same rounded products.
func Dot(x, w []float64) float64 {
	if len(w) != len(x) {
		panic(fmt.Sprintf("linear: Dot of %d and %d values", len(x), len(w)))
	}
	var even, odd float64
	n := len(x) &^ 1
	for j := 0; j < n; j += 2 {
		even += float64(x[j] * w[j])
		odd += float64(x[j+1] * w[j+1])
	}
	s := even + odd
	if n < len(x) {
		s += float64(x[n] * w[n])
	}
	return s
}
