package method

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/sparsecode"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// dictionary is the domain-adaptive dictionary learning baseline (Qiu,
// Patel, Turaga and Chellappa, "Domain adaptive dictionary learning", ECCV
// 2012) as the paper adapts it: the source domain is only seen through the
// source hypotheses, so the source "data" are the hypotheses' outputs on the
// target points. The steps:
//
//  1. Signals. Every example becomes a target signal t = [zx/√d, zh/√n]
//     (its standardised features and source scores, each block scaled to
//     unit mean square norm so that neither dominates) and a source signal
//     s = [0, zh/√n] (what the source domain shows of it), in one space of
//     dimension d + n.
//  2. Source dictionary. D₀, K unit-norm atoms, is learned on the source
//     signals of the training examples by K-SVD (Aharon, Elad and
//     Bruckstein, 2006) with OMP sparse coding of sparsity T₀, 10 iterations,
//     initialised with K training signals drawn with Extra.Seed from the
//     rows in content order (contentOrder), so that a permutation of the
//     training rows gives the same model bit for bit; an atom
//     that falls out of use is replaced by the worst-represented signal's
//     residual.
//  3. Adaptation path (Qiu et al.'s dictionary path, simplified). From D_k,
//     sparse-code the target signals T (codes Γ_k), take the residual
//     J_k = T − Γ_k D_k and the smallest-norm update that explains it,
//     ΔD_k = argmin ||J_k − Γ_k ΔD||² + μ_k||ΔD||² = (Γ_kᵀΓ_k + μ_k I)⁻¹Γ_kᵀJ_k
//     with μ_k the mean diagonal of Γ_kᵀΓ_k (a step of about half way), and
//     set D_{k+1} = D_k + ΔD_k with renormalised atoms. The path stops after
//     5 steps or when a step reduces the target residual ||J||² by less than
//     1%.
//  4. Representation. An example's features are its OMP codes on every
//     dictionary of the path, concatenated (K·(steps+1) values): Qiu et al.'s
//     domain-invariant representation by projection on the whole path.
//  5. Classifier. Class-balanced ridge regression with an unpenalised
//     intercept on the standardised codes, λ ∈ {1e-4, …, 1e4} by chooseByLOO
//     on the closed-form LOO predictions (balancedRidgeByLOO, DAM's
//     regression without unlabelled rows). The intercept keeps the
//     leave-one-out estimate honest: the standardised codes of the training
//     examples sum to zero, and a model without intercept that nearly
//     interpolates them (λ → 0, more codes than examples) would predict a
//     left-out example from the others' labels alone.
//
// Simplifications with respect to Qiu et al.: the source and target domains
// share their examples (the paper's setting), the path length is capped and
// its step size fixed as above instead of tuned, the last dictionary is not
// refined by K-SVD on the target, and codes are concatenated without
// pooling. The dictionaries are learned on the whole training sample, so
// the leave-one-out selection of λ is that of the classifier given the
// codes. The defaults: K = ⌈m/2⌉ atoms (at least 2), T₀ = min(3, K).
//
// Edge cases: with no sources (H absent) there is no source domain: D₀ is
// learned on the target signals and the path is empty (plain sparse coding
// of the target). With no features the target signals equal the source
// signals. A single positive, duplicated columns (an atom may use either)
// and constant columns (zeros in every signal) need nothing special; a
// signal of zeros has the zero code. Atoms that OMP cannot use (linearly
// dependent on the chosen ones) are skipped. The model is a dictionaryModel;
// its hyperparameters are "lambda", "atoms", "sparsity" and "path_steps",
// and it has no per-source weights.
type dictionary struct {
	sparsity  int // T₀ (at most the number of atoms)
	pathSteps int // cap on the adaptation steps
	ksvdIters int
}

// Defaults of the dictionary baseline.
const (
	dictSparsity  = 3
	dictPathSteps = 5
	dictKSVDIters = 10
	// dictPathTol is the least relative decrease of the target residual for
	// which a path step is kept.
	dictPathTol = 0.01
)

func init() {
	Register(Registration{
		Name:        "dictionary",
		Description: "domain-adaptive dictionary learning: K-SVD on the source scores, a path of dictionaries to the target, OMP codes, ridge",
		New: func() Method {
			return dictionary{sparsity: dictSparsity, pathSteps: dictPathSteps, ksvdIters: dictKSVDIters}
		},
		Decode: decodeDictionary,
	})
}

// Name returns "dictionary".
func (dictionary) Name() string { return "dictionary" }

// Needs reports that the dictionary baseline needs nothing beyond the
// labelled sample and draws at random (Extra.Seed seeds the K-SVD
// initialisation).
func (dictionary) Needs() Needs { return Needs{Seed: true} }

// Fit trains the dictionary baseline (see the type's comment). It returns
// an error for the inputs checkTrain rejects and when ctx is done.
func (dc dictionary) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	if _, _, _, err := startFit(ctx, dc, train); err != nil {
		return nil, err
	}
	defer endFit(ctx, dc, &result, &err)
	// Every fit reads the rows in content order, so that K-SVD's initial
	// atoms, and the model, depend on the set of training rows, not on
	// their order (see contentOrder).
	train, _ = inContentOrder(train, train.Y)
	model, zc, err := dc.represent(ctx, train, extra.Seed)
	if err != nil {
		return nil, err
	}
	lambda, w, b, err := balancedRidgeByLOO(ctx, zc, train.Y)
	if err != nil {
		return nil, fmt.Errorf("method: dictionary: %w", err)
	}
	model.w, model.b = w, b
	model.hyper["lambda"] = lambda
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: dictionary: %w", err)
	}
	return model, nil
}

// represent learns the representation of steps 1 to 4 on the (validated)
// training sample: it returns the model without its classifier (w, b and
// "lambda" unset) and the standardised codes of the training examples.
func (dc dictionary) represent(ctx context.Context, train Data, seed uint64) (*dictionaryModel, *mat.Dense, error) {
	m := len(train.Y)
	sx, sh := standardize.Fit(train.X), standardize.Fit(train.H)
	target, err := dictSignals(sx, sh, train, false)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	atoms := max(2, (m+1)/2)
	sparsity := min(dc.sparsity, atoms)
	rng := rand.New(rand.NewPCG(seed, seed))

	var path []*mat.Dense
	if sh.Len() == 0 {
		d0, _, err := sparsecode.KSVD(ctx, target, atoms, sparsity, dc.ksvdIters, rng)
		if err != nil {
			return nil, nil, fmt.Errorf("method: dictionary: %w", err)
		}
		path = []*mat.Dense{d0}
	} else {
		source, err := dictSignals(sx, sh, train, true)
		if err != nil {
			return nil, nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		d0, _, err := sparsecode.KSVD(ctx, source, atoms, sparsity, dc.ksvdIters, rng)
		if err != nil {
			return nil, nil, fmt.Errorf("method: dictionary: %w", err)
		}
		if path, _, err = adaptPath(ctx, d0, target, sparsity, dc.pathSteps); err != nil {
			return nil, nil, fmt.Errorf("method: dictionary: %w", err)
		}
	}
	codes, err := pathCodes(ctx, path, target, sparsity)
	if err != nil {
		return nil, nil, fmt.Errorf("method: dictionary: %w", err)
	}
	cs := standardize.Fit(codes)
	zc, err := cs.TransformContext(ctx, codes)
	if err != nil {
		return nil, nil, fmt.Errorf("method: dictionary: %w", err)
	}
	model := &dictionaryModel{
		x: sx, h: sh, sparsity: sparsity, path: path, codes: cs,
		hyper: map[string]float64{
			"atoms":      float64(atoms),
			"sparsity":   float64(sparsity),
			"path_steps": float64(len(path) - 1),
		},
	}
	return model, zc, nil
}

// dictSignals returns the signals of the examples of data (rows): the target
// signals [zx/√d, zh/√n], or the source signals [0, zh/√n] when source is
// true. It returns the scalers' errors.
func dictSignals(sx, sh standardize.Scaler, data Data, source bool) (*mat.Dense, error) {
	z, err := standardisedColumns(sx, sh, data)
	if err != nil {
		return nil, err
	}
	d, n := sx.Len(), sh.Len()
	rows, _ := z.Dims()
	out := mat.NewDense(rows, d+n, nil)
	fx, fh := 0.0, 0.0
	if d > 0 && !source {
		fx = 1 / math.Sqrt(float64(d))
	}
	if n > 0 {
		fh = 1 / math.Sqrt(float64(n))
	}
	for i := range rows {
		src, dst := z.RawRowView(i), out.RawRowView(i)
		for j := range d {
			dst[j] = fx * src[j]
		}
		for j := d; j < d+n; j++ {
			dst[j] = fh * src[j]
		}
	}
	return out, nil
}

// pathCodes returns the codes of the signals on every dictionary of path,
// concatenated (N × K·len(path)), or ctx's error.
func pathCodes(ctx context.Context, path []*mat.Dense, signals *mat.Dense, sparsity int) (*mat.Dense, error) {
	N, _ := signals.Dims()
	K, _ := path[0].Dims()
	out := mat.NewDense(N, K*len(path), nil)
	for k, d := range path {
		codes, err := sparsecode.Codes(ctx, d, signals, sparsity)
		if err != nil {
			return nil, err
		}
		out.Slice(0, N, k*K, (k+1)*K).(*mat.Dense).Copy(codes)
	}
	return out, nil
}

// adaptPath returns the path of dictionaries from d0 towards the target
// signals (see the dictionary type's step 3), d0 first, and the target's
// squared residual on each dictionary of the path, or ctx's error, or an
// error for a squared residual on d0 that is not finite (finiteResidual),
// which could not decide the path. A later dictionary's residual needs no
// such check, because every dictionary of the path has unit-norm atoms
// (KSVD's d0; each later atom is sparsecode.Normalise's, or the previous
// dictionary's where Normalise refuses a zero one): OMP's codes of finite
// signals are finite (a signal whose squares overflow gets the zero code),
// so each product of a code and an atom's value is finite, and a residual
// value can overflow only through the sum of those products (±Inf, never
// NaN), whose square, like the square of any finite value too large for
// float64, makes the squared residual +Inf, never NaN; +Inf, against the
// previous dictionary's finite residual (the path goes on only from a
// finite one), stops the path as any step that does not improve it.
func adaptPath(ctx context.Context, d0, target *mat.Dense, sparsity, steps int) ([]*mat.Dense, []float64, error) {
	K, p := d0.Dims()
	path := []*mat.Dense{d0}
	var res mat.Dense
	codes, err := sparsecode.Codes(ctx, d0, target, sparsity)
	if err != nil {
		return nil, nil, err
	}
	r := sparsecode.ResidualNorm2(target, codes, d0, &res)
	if err := finiteResidual(r); err != nil {
		return nil, nil, err
	}
	resids := []float64{r}
	for range steps {
		cur := path[len(path)-1]
		var gg mat.SymDense
		gg.SymOuterK(1, codes.T())
		var mu float64
		for k := range K {
			mu += gg.At(k, k)
		}
		mu /= float64(K)
		if mu == 0 {
			break
		}
		for k := range K {
			gg.SetSym(k, k, gg.At(k, k)+mu)
		}
		var rhs, delta mat.Dense
		rhs.Mul(codes.T(), &res)
		var ch mat.Cholesky
		if !ch.Factorize(&gg) {
			break
		}
		if err := ch.SolveTo(&delta, &rhs); err != nil {
			break
		}
		next := mat.NewDense(K, p, nil)
		next.Add(cur, &delta)
		for k := range K {
			if !sparsecode.Normalise(next.RawRowView(k)) {
				next.SetRow(k, cur.RawRowView(k))
			}
		}
		nextCodes, err := sparsecode.Codes(ctx, next, target, sparsity)
		if err != nil {
			return nil, nil, err
		}
		var nextRes mat.Dense
		nr := sparsecode.ResidualNorm2(target, nextCodes, next, &nextRes)
		if nr > (1-dictPathTol)*r {
			break
		}
		path = append(path, next)
		codes, res, r = nextCodes, nextRes, nr
		resids = append(resids, r)
	}
	return path, resids, nil
}

// finiteResidual returns an error when r, the target signals' squared
// residual on the path's first dictionary, is +Inf or NaN: the squares of
// signals too large for float64 (Fit's, standardised, are far from it),
// which adaptPath's comparisons of residuals cannot rank (+Inf against
// +Inf never stops the path, NaN always does).
func finiteResidual(r float64) error {
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return fmt.Errorf("the target signals' squared residual on dictionary 0 of the path is %v: the signals are too large for float64's squares", r)
	}
	return nil
}

// dictionaryModel is the model of the dictionary baseline: the scalers of
// X and H, the path of dictionaries (each K atoms of length d + n), the OMP
// sparsity, the scaler of the concatenated codes, and the ridge weights on
// the standardised codes and intercept. Its file holds the header and the
// members "x", "h", "sparsity", "dictionaries" (a list of dictionaries,
// each a list of atoms), "codes", "w" and "b".
type dictionaryModel struct {
	x, h     standardize.Scaler
	sparsity int
	path     []*mat.Dense
	codes    standardize.Scaler
	w        []float64
	b        float64
	hyper    map[string]float64
}

// Method returns "dictionary".
func (*dictionaryModel) Method() string { return "dictionary" }

// Hyperparameters returns "lambda", "atoms", "sparsity" and "path_steps".
func (dm *dictionaryModel) Hyperparameters() map[string]float64 { return maps.Clone(dm.hyper) }

// SourceWeights returns nil: the model has no per-source weights.
func (*dictionaryModel) SourceWeights() []float64 { return nil }

// Predict returns the ridge scores of the OMP codes of the rows of d, each
// row's alone: the same bits in any block of rows (linear.Dot). It
// returns an error when X or H has the wrong number of columns, when they
// disagree on the number of rows, or when a value is not finite; and a
// *greedytl.ScoreOverflowError when a row's score overflows, naming the
// column when its standardised value overflows (standardiseOverflow), else
// none (Col −1, Input "": the codes times the weights overflow).
func (dm *dictionaryModel) Predict(d Data) ([]float64, error) {
	if _, err := checkInputs(d, dm.x.Len(), dm.h.Len()); err != nil {
		return nil, fmt.Errorf("method: predict: %w", err)
	}
	signals, err := dictSignals(dm.x, dm.h, d, false)
	if err != nil {
		if o := standardiseOverflow(err); o != nil {
			return nil, fmt.Errorf("method: predict: %w", o)
		}
		return nil, err
	}
	codes, err := pathCodes(context.Background(), dm.path, signals, dm.sparsity)
	if err != nil {
		return nil, err
	}
	zc, err := dm.codes.Transform(codes)
	if err != nil {
		return nil, fmt.Errorf("method: predict: codes: %w", err)
	}
	rows, _ := zc.Dims()
	f := make([]float64, rows)
	for i := range f {
		f[i] = linear.Dot(zc.RawRowView(i), dm.w) + dm.b
	}
	// Large weights (a hand-edited file) or codes overflow here, where a
	// linear model's scores say at which column (addScores): a code mixes
	// every column of its row, so no one column is to blame.
	for i, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("method: predict: %w", &greedytl.ScoreOverflowError{Row: i, Col: -1})
		}
	}
	return f, nil
}

// check validates the model's invariants.
func (dm *dictionaryModel) check() error {
	if err := dm.x.Check(); err != nil {
		return fmt.Errorf("x: %w", err)
	}
	if err := dm.h.Check(); err != nil {
		return fmt.Errorf("h: %w", err)
	}
	if err := dm.codes.Check(); err != nil {
		return fmt.Errorf("codes: %w", err)
	}
	p := dm.x.Len() + dm.h.Len()
	if p == 0 {
		return errors.New("the model has no columns")
	}
	if len(dm.path) == 0 {
		return errors.New("no dictionaries")
	}
	K, _ := dm.path[0].Dims()
	for k, d := range dm.path {
		r, c := d.Dims()
		if r != K || c != p {
			return fmt.Errorf("dictionary %d is %d × %d, want %d × %d", k, r, c, K, p)
		}
		for a := range r {
			if err := checkFiniteSlice(fmt.Sprintf("dictionary %d atom %d", k, a), d.RawRowView(a)); err != nil {
				return err
			}
		}
	}
	if dm.sparsity < 1 || dm.sparsity > K {
		return fmt.Errorf("sparsity %d, want 1 to %d", dm.sparsity, K)
	}
	if dm.codes.Len() != K*len(dm.path) || len(dm.w) != K*len(dm.path) {
		return fmt.Errorf("%d code statistics and %d weights for %d codes", dm.codes.Len(), len(dm.w), K*len(dm.path))
	}
	return checkFiniteParts(dm.hyper, named{"w", dm.w}, named{"b", []float64{dm.b}})
}

// dictionaryFile is the file form of a dictionaryModel.
type dictionaryFile struct {
	modelfile.Header
	X            standardize.Scaler `json:"x"`
	H            standardize.Scaler `json:"h"`
	Sparsity     int                `json:"sparsity"`
	Dictionaries [][][]float64      `json:"dictionaries"`
	Codes        standardize.Scaler `json:"codes"`
	W            []float64          `json:"w"`
	B            float64            `json:"b"`
}

func (dm *dictionaryModel) fileDocument(h modelfile.Header) (any, error) {
	if err := dm.check(); err != nil {
		return nil, err
	}
	f := dictionaryFile{
		Header:   h,
		X:        dm.x,
		H:        dm.h,
		Sparsity: dm.sparsity,
		Codes:    dm.codes,
		W:        dm.w,
		B:        dm.b,
	}
	for _, d := range dm.path {
		r, _ := d.Dims()
		atoms := make([][]float64, r)
		for a := range atoms {
			atoms[a] = d.RawRowView(a)
		}
		f.Dictionaries = append(f.Dictionaries, atoms)
	}
	return f, nil
}

// decodeDictionary decodes a dictionary model file. It rejects unknown
// members, missing hyperparameters and inconsistent shapes.
func decodeDictionary(doc json.RawMessage) (Model, error) {
	var f dictionaryFile
	if err := decodeStrict(doc, &f); err != nil {
		return nil, err
	}
	if f.Hyperparameters == nil {
		return nil, errors.New("the file has no hyperparameters")
	}
	dm := &dictionaryModel{x: f.X, h: f.H, sparsity: f.Sparsity, codes: f.Codes, w: f.W, b: f.B, hyper: f.Hyperparameters}
	p := f.X.Len() + f.H.Len()
	for k, atoms := range f.Dictionaries {
		if len(atoms) == 0 {
			return nil, fmt.Errorf("dictionary %d has no atoms", k)
		}
		d := mat.NewDense(len(atoms), max(p, 1), nil)
		for a, atom := range atoms {
			if len(atom) != p {
				return nil, fmt.Errorf("dictionary %d atom %d has %d values, want %d", k, a, len(atom), p)
			}
			d.SetRow(a, atom)
		}
		dm.path = append(dm.path, d)
	}
	if err := dm.check(); err != nil {
		return nil, err
	}
	return dm, nil
}
