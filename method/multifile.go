package method

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
	"gonum.org/v1/gonum/mat"
)

// The forms of a multi-class model file (docs/design.md, "Multi-class model
// files"): how its scores are computed.
const (
	FormLinear           = "linear"
	FormNearestNeighbour = "nearest-neighbour"
	FormCentroidCosine   = "centroid-cosine"
	FormOneVsRest        = "one-vs-rest"
	FormEnsemble         = "ensemble"
)

// multiHeader holds the members every multi-class model file has: the
// header (modelfile.Header), the class names, the column counts and the form.
type multiHeader struct {
	modelfile.Header
	Classes     []string `json:"classes"`
	NumFeatures int      `json:"num_features"`
	NumSources  int      `json:"num_sources"`
	Form        string   `json:"form"`
}

// multiBase is what every multi-class model of this package holds besides
// its form's parameters.
type multiBase struct {
	name    string
	classes []string
	hyper   map[string]float64
}

// Method returns the method's spec.
func (b *multiBase) Method() string { return b.name }

// Classes returns a copy of the class names.
func (b *multiBase) Classes() []string { return slices.Clone(b.classes) }

// Hyperparameters returns a copy of the hyperparameters.
func (b *multiBase) Hyperparameters() map[string]float64 { return maps.Clone(b.hyper) }

// multiEncoder is implemented by the multi-class models of this package:
// multiDocument returns the value whose JSON encoding is the whole file,
// with h as its header (whose Form and column counts it sets).
type multiEncoder interface {
	multiDocument(h multiHeader) (any, error)
}

// WriteMulti writes the multi-class model m as an indented JSON document
// (docs/design.md, "Multi-class model files"), recording in the header's
// "sources", "feature_names" and "source_names" members those of info: the
// sources directory its source scores are computed from (nil: none) and
// the names of the columns of X and H (nil: none), and in "labels" those of
// a two-class model's positive class and the other (nil:
// none, a file predict reads as a multi-class one). Numbers are written so that they read
// back exactly. It returns an error when m is not a model of this
// package, is nil, holds a non-finite number, when info has labels that
// are not m's two classes (a file of more classes names them in "classes")
// or feature (source) names that are
// not one per feature (source), or w is nil or fails.
func WriteMulti(w io.Writer, m MultiModel, info FileInfo) error {
	if err := nilModel(m, "MultiModel"); err != nil {
		return err
	}
	doc, err := multiFileDocument(m, info)
	if err == nil {
		err = modelfile.Write(w, doc)
	}
	if err != nil {
		return fmt.Errorf("method: writing %s: %w", modelNoun("multi-class", m.Method()), err)
	}
	return nil
}

// encodeMulti returns the compact JSON document of m (an ensemble's
// member).
func encodeMulti(m MultiModel, sources *source.ID) ([]byte, error) {
	doc, err := multiFileDocument(m, FileInfo{Sources: sources})
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// multiFileDocument returns the value whose JSON encoding is the whole
// file of m, recording what info holds.
func multiFileDocument(m MultiModel, info FileInfo) (any, error) {
	if err := checkHyper(m.Hyperparameters()); err != nil {
		return nil, err
	}
	if err := info.Labels.Check(); err != nil {
		return nil, err
	}
	if _, err := checkTwoClassLabels(info.Labels, m.Classes()); err != nil {
		return nil, err
	}
	enc, ok := m.(multiEncoder)
	if !ok {
		return nil, fmt.Errorf("cannot write a %T model", m)
	}
	h := multiHeader{Header: modelfile.NewHeader(m.Method(), m.Hyperparameters(), info.Sources), Classes: m.Classes()}
	h.Labels = info.Labels
	h.SetNames(info.FeatureNames, info.SourceNames)
	doc, err := enc.multiDocument(h)
	if err != nil {
		return nil, err
	}
	// The form sets the column counts (every file embeds multiHeader);
	// names that do not match them are not written.
	if f, ok := doc.(interface{ columnCounts() (int, int) }); ok {
		d, n := f.columnCounts()
		if err := modelfile.CheckNames(h.FeatureNames, h.SourceNames, d, n); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// multiDecoder returns the decoder of a multi-class file whose method is
// method: the native multi-class method's DecodeMulti, or one-vs-rest for
// a binary method's spec. Its errors, a malformed spec or an unknown
// method, are lookup's, without the package's prefix.
func multiDecoder(method string) (func(json.RawMessage) (MultiModel, error), error) {
	s, err := parseSpec(method)
	if err != nil {
		return nil, err
	}
	r, ok := Registered(s.Name)
	if !ok {
		return nil, &UnknownMethodError{Name: s.Name, Known: MultiNames(), MultiFile: true}
	}
	if r.DecodeMulti != nil {
		if len(s.Params) > 0 {
			return nil, noSettingsError(s.Name, method)
		}
		return r.DecodeMulti, nil
	}
	if _, err := lookup(method); err != nil {
		return nil, err
	}
	return decodeOneVsRest, nil
}

// check validates the members every multi-class file has: at least
// two distinct non-empty class names, the form wanted, a hyperparameters
// member and column counts matching the scalers' (d, n).
func (h *multiHeader) check(form string, d, n int) error {
	if h.Form != form {
		return fmt.Errorf("form is %q, want %q", h.Form, form)
	}
	if h.Hyperparameters == nil {
		return fmt.Errorf("the file has no hyperparameters")
	}
	if err := (ClassLabels{Names: h.Classes}).checkNames(); err != nil {
		return err
	}
	if h.NumFeatures != d || h.NumSources != n {
		return fmt.Errorf("num_features %d and num_sources %d, but the model has %d features and %d sources", h.NumFeatures, h.NumSources, d, n)
	}
	if err := modelfile.CheckNames(h.FeatureNames, h.SourceNames, d, n); err != nil {
		return err
	}
	return checkHyper(h.Hyperparameters)
}

// columnCounts returns the numbers of columns of X and H of the file whose
// header h is: what its "feature_names" and "source_names", if any, must
// name.
func (h multiHeader) columnCounts() (d, n int) { return h.NumFeatures, h.NumSources }

// scaledHeader starts the files of the forms that standardise [X, H]
// with the scalers "x" and "h" (linear, nearest-neighbour,
// centroid-cosine): the header, then the scalers.
type scaledHeader struct {
	multiHeader
	blockScaler
}

// newScaledHeader returns the start of a file of the given form whose
// model standardises with s: h with the form and s's column counts.
func newScaledHeader(h multiHeader, s blockScaler, form string) scaledHeader {
	h.NumFeatures, h.NumSources = s.dims()
	h.Form = form
	return scaledHeader{h, s}
}

// checkScaled validates the scalers and the header of a file of the given
// form, and returns the scalers' column counts.
func (f *scaledHeader) checkScaled(form string) (d, n int, err error) {
	if err := f.blockScaler.check(); err != nil {
		return 0, 0, err
	}
	d, n = f.dims()
	return d, n, f.multiHeader.check(form, d, n)
}

// checkMatrix returns an error when rows is not r rows of c finite
// numbers (named name in the message).
func checkMatrix(name string, rows [][]float64, r, c int) error {
	if len(rows) != r {
		return fmt.Errorf("%s has %d rows, want %d", name, len(rows), r)
	}
	for i, row := range rows {
		if len(row) != c {
			return fmt.Errorf("%s[%d] has %d values, want %d", name, i, len(row), c)
		}
		if err := checkFiniteSlice(fmt.Sprintf("%s[%d]", name, i), row); err != nil {
			return err
		}
	}
	return nil
}

// denseRows returns rows (r ≥ 1 rows of c ≥ 1 values) as an r × c matrix.
func denseRows(rows [][]float64, c int) *mat.Dense {
	out := mat.NewDense(len(rows), c, nil)
	for i, row := range rows {
		out.SetRow(i, row)
	}
	return out
}

// matrixRows returns the rows of a as slices (copies).
func matrixRows(a *mat.Dense) [][]float64 {
	r, c := a.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = slices.Clone(a.RawRowView(i)[:c])
	}
	return out
}

// LinearMulti is a multi-class model linear in the standardised columns
// z = [zx, zh], or in z normalised (see Normalise*): the scores of a row
// are W·z + B, W = [WX | WH] (K × (d+n)). The nearest class mean and the
// multinomial logistic regression predict with one. Its file form is
// "linear".
type LinearMulti struct {
	multiBase
	s blockScaler
	// w is K × (d+n); b has K values.
	w *mat.Dense
	b []float64
	// norm is how z is normalised before the product: "" (not),
	// NormaliseRows or NormaliseBlocks.
	norm string
	// convergence is the fit's report of solver runs that did not
	// converge (NotConverged; not in the file).
	convergence
}

// The normalisations of a linear multi-class model's rows (the file's
// "normalise" member), applied to the standardised z = [zx, zh] before the
// product with W.
const (
	// NormaliseRows divides z by its Euclidean norm (z = 0 stays 0), as
	// SimpleShot does.
	NormaliseRows = "rows"
	// NormaliseBlocks divides zx and zh each by its own Euclidean norm (a
	// zero block stays 0), so that the features and the source scores have
	// an equal say in every row whatever their numbers of columns.
	NormaliseBlocks = "blocks"
)

// normaliseRows normalises the rows of Z (standardised [X, H], d feature
// columns first) as norm says ("", NormaliseRows or NormaliseBlocks).
func normaliseRows(Z *mat.Dense, d int, norm string) {
	if norm == "" {
		return
	}
	r, p := Z.Dims()
	for i := range r {
		row := Z.RawRowView(i)
		if norm == NormaliseRows {
			normaliseRow(row)
			continue
		}
		normaliseRow(row[:d])
		normaliseRow(row[d:p])
	}
}

// Scores returns W·z + B for every row of d, and an error for a nil
// *LinearMulti.
func (l *LinearMulti) Scores(d Data) (*mat.Dense, error) { return wholeScores(l, d) }

// blockScores standardises (and normalises) the rows of d and scores them
// a block at a time (blockScorer).
func (l *LinearMulti) blockScores(d Data) (blockFunc, int, error) {
	if l == nil {
		return nil, 0, fmt.Errorf("method: predict: nil *LinearMulti")
	}
	Z, err := l.s.transform(d)
	if err != nil {
		return nil, 0, err
	}
	nx, _ := l.s.dims()
	normaliseRows(Z, nx, l.norm)
	r, p := Z.Dims()
	var buf []float64
	return func(lo, hi int) (*mat.Dense, error) {
		out := reusedDense(&buf, hi-lo, len(l.classes))
		for i := range hi - lo {
			z, row := Z.RawRowView(lo + i)[:p], out.RawRowView(i)
			for k := range row {
				row[k] = rowDot(z, l.w.RawRowView(k)) + l.b[k]
			}
		}
		return out, checkFiniteScores(out)
	}, r, nil
}

// Predict returns the argmax of the scores of every row.
func (l *LinearMulti) Predict(d Data) ([]int, error) { return predictByScores(l, d) }

// Method returns the method's spec ("" for a nil *LinearMulti).
func (l *LinearMulti) Method() string {
	if l == nil {
		return ""
	}
	return l.multiBase.Method()
}

// Classes returns a copy of the class names (nil for a nil *LinearMulti).
func (l *LinearMulti) Classes() []string {
	if l == nil {
		return nil
	}
	return l.multiBase.Classes()
}

// Hyperparameters returns a copy of the hyperparameters (nil for a nil
// *LinearMulti).
func (l *LinearMulti) Hyperparameters() map[string]float64 {
	if l == nil {
		return nil
	}
	return l.multiBase.Hyperparameters()
}

// Selected returns, per class, the columns of non-zero weight by decreasing
// |weight|; ok is false for a nil *LinearMulti.
func (l *LinearMulti) Selected() ([]Selection, bool) {
	if l == nil {
		return nil, false
	}
	d, _ := l.s.dims()
	out := make([]Selection, len(l.classes))
	for k := range out {
		row := l.w.RawRowView(k)
		lin := Linear{WX: row[:d], WH: row[d:]}
		out[k], _ = lin.Selected()
	}
	return out, true
}

// linearMultiFile is the "linear" form.
type linearMultiFile struct {
	scaledHeader
	WX [][]float64 `json:"wx"`
	WH [][]float64 `json:"wh"`
	B  []float64   `json:"b"`
	// Normalise is LinearMulti.norm: absent, "rows" or "blocks".
	Normalise string `json:"normalise,omitempty"`
}

func (l *LinearMulti) multiDocument(h multiHeader) (any, error) {
	d, n := l.s.dims()
	f := linearMultiFile{scaledHeader: newScaledHeader(h, l.s, FormLinear), B: l.b, Normalise: l.norm}
	for k := range l.classes {
		row := l.w.RawRowView(k)
		f.WX = append(f.WX, slices.Clone(row[:d]))
		f.WH = append(f.WH, slices.Clone(row[d:d+n]))
	}
	return f, f.check()
}

// check validates a linear file.
func (f *linearMultiFile) check() error {
	d, n, err := f.checkScaled(FormLinear)
	if err != nil {
		return err
	}
	if f.Normalise != "" && f.Normalise != NormaliseRows && f.Normalise != NormaliseBlocks {
		return fmt.Errorf("normalise is %q: want %q, %q or none", f.Normalise, NormaliseRows, NormaliseBlocks)
	}
	K := len(f.Classes)
	if err := checkMatrix("wx", f.WX, K, d); err != nil {
		return err
	}
	if err := checkMatrix("wh", f.WH, K, n); err != nil {
		return err
	}
	if len(f.B) != K {
		return fmt.Errorf("b has %d values, want %d", len(f.B), K)
	}
	return checkFiniteSlice("b", f.B)
}

// scaledFile is a multi-class file of a form that standardises [X, H]
// (linear, nearest-neighbour, centroid-cosine): it checks itself, and its
// scalers give the column counts.
type scaledFile interface {
	check() error
	dims() (d, n int)
}

// decodeScaled decodes doc into f (decodeStrict), checks it and returns
// its numbers of features d and sources n.
func decodeScaled(doc json.RawMessage, f scaledFile) (d, n int, err error) {
	if err := decodeStrict(doc, f); err != nil {
		return 0, 0, err
	}
	if err := f.check(); err != nil {
		return 0, 0, err
	}
	d, n = f.dims()
	return d, n, nil
}

// decodeLinearMulti decodes a "linear" file.
func decodeLinearMulti(doc json.RawMessage) (MultiModel, error) {
	var f linearMultiFile
	d, n, err := decodeScaled(doc, &f)
	if err != nil {
		return nil, err
	}
	w := mat.NewDense(len(f.Classes), d+n, nil)
	for k := range f.Classes {
		copy(w.RawRowView(k), f.WX[k])
		copy(w.RawRowView(k)[d:], f.WH[k])
	}
	return &LinearMulti{multiBase: multiBase{f.Method, f.Classes, f.Hyperparameters}, s: f.blockScaler, w: w, b: f.B, norm: f.Normalise}, nil
}

// nearestNeighbourModel keeps the standardised training rows; a class's
// score is minus the Euclidean distance to its nearest training row. Its
// file form is "nearest-neighbour".
type nearestNeighbourModel struct {
	multiBase
	s      blockScaler
	rows   *mat.Dense // m × (d+n), standardised
	class  []int
	radius float64 // the largest norm of a row of rows (maxNearestRatio)
}

// newNearestNeighbourModel returns the model of the standardised training
// rows and their classes, with the largest norm of a row found once, here
// (at fit and at decode), not at every Scores call, where it cost as much
// again as one row's distances.
func newNearestNeighbourModel(base multiBase, s blockScaler, rows *mat.Dense, class []int) *nearestNeighbourModel {
	_, p := rows.Dims()
	origin := make([]float64, p)
	var r float64
	for t := range class {
		r = max(r, distance(rows.RawRowView(t), origin))
	}
	return &nearestNeighbourModel{multiBase: base, s: s, rows: rows, class: class, radius: r}
}

// maxNearestRatio bounds how far from the training rows a nearest-neighbour
// model scores a row: 2^26 times the largest norm r of a standardised
// training row. A row z at ‖z‖ = ρ·r is within r of ‖z‖ from every
// training row, and the distances differ by at most 2r; each is known to
// within its rounding, about 2^-53·‖z‖, so the differences keep about
// 53 − log₂ρ bits of their own. At ρ ≤ 2^26 at least half of float64's
// digits are left to rank the rows; beyond about 2^45 random rows were
// already mis-ranked (brute force against exact distances: 2 of 300 at
// 2^45, 114 of 300 at 2^53), and at 2^53 every distance rounds to ‖z‖.
// 2^26 standard deviations is far beyond any real data: the same bound as
// greedytl-auto's shift ratio (maxShiftRatio), which also keeps half of
// the digits, but of a different quantity.
const maxNearestRatio = 1 << 26

// Scores returns, per row and class, minus the distance to the nearest
// training row of the class. A row farther than maxNearestRatio times the
// largest norm of a standardised training row, r > 0 (nn.radius; a row of
// norm +Inf included), scores −Inf for every class, which Scores refuses as the
// linear forms' overflowing scores (checkFiniteScores: a
// *greedytl.ScoreOverflowError naming the row and no column): its
// distances are too close to its norm to rank the rows (a row of 1e308
// in every column scored about −1.45e308 for every class and was given
// the first; rows (0, 1e5) of class a and (1, 0) of class b gave (1e20, 0)
// class a, both scores −1e20, though b is nearer). When r = 0 (every
// standardised training row is the origin) no row is refused for being
// far: every distance is the row's norm, a true tie.
func (nn *nearestNeighbourModel) Scores(d Data) (*mat.Dense, error) { return wholeScores(nn, d) }

// blockScores standardises the rows of d and scores them a block at a time
// (blockScorer), as Scores says.
func (nn *nearestNeighbourModel) blockScores(d Data) (blockFunc, int, error) {
	_, p := nn.rows.Dims()
	origin := make([]float64, p)
	r := nn.radius
	return nn.s.rowBlockScores(d, len(nn.classes), func(z, best []float64) {
		if r > 0 && distance(z, origin) > maxNearestRatio*r {
			for k := range best {
				best[k] = math.Inf(-1)
			}
			return
		}
		for k := range best {
			best[k] = math.Inf(1)
		}
		for t, k := range nn.class {
			if e := distance(z, nn.rows.RawRowView(t)); e < best[k] {
				best[k] = e
			}
		}
		for k := range best {
			best[k] = 0 - best[k] // +0, not −0, at distance 0
		}
	})
}

// rowBlockScores standardises the rows of d (transform) and returns their
// number and a blockFunc of their scores for K classes, score(z, row)
// writing those of the standardised row z (which it may change) into row;
// a block's error is checkFiniteScores'. It serves the forms that score
// each row on its own by distances (nearest-neighbour, centroid-cosine).
func (b blockScaler) rowBlockScores(d Data, K int, score func(z, row []float64)) (blockFunc, int, error) {
	Z, err := b.transform(d)
	if err != nil {
		return nil, 0, err
	}
	r, _ := Z.Dims()
	var buf []float64
	return func(lo, hi int) (*mat.Dense, error) {
		out := reusedDense(&buf, hi-lo, K)
		for i := lo; i < hi; i++ {
			score(Z.RawRowView(i), out.RawRowView(i-lo))
		}
		return out, checkFiniteScores(out)
	}, r, nil
}

// distance returns the Euclidean distance between a and b: √Σ(a_j − b_j)²,
// the squares summed in order; where that sum overflows or falls below the
// normal range (rows far outside the training range, or nearly equal), the
// distance is computed in units of the largest |a_j − b_j|, so that it is
// finite and exact to rounding whenever the differences are finite, and
// the nearest row is the same at any scale of the rows. It is +Inf only
// where a difference overflows.
func distance(a, b []float64) float64 {
	var s float64
	for j, v := range a {
		e := v - b[j]
		s += e * e
	}
	if !math.IsInf(s, 1) && s >= 0x1p-1022 {
		return math.Sqrt(s)
	}
	var u float64
	for j, v := range a {
		u = max(u, math.Abs(v-b[j]))
	}
	if u == 0 || math.IsInf(u, 1) {
		return u
	}
	s = 0
	for j, v := range a {
		e := (v - b[j]) / u
		s += e * e
	}
	return u * math.Sqrt(s)
}

// Predict returns the class of the nearest training row.
func (nn *nearestNeighbourModel) Predict(d Data) ([]int, error) { return predictByScores(nn, d) }

// trainingClasses returns the classes Predict gives the training rows, in
// the order of nn.rows, in one pass over them where Predict compares each
// with every other (O(m²)): a training row's nearest rows are those at
// distance 0, the rows equal to it (distance is 0 only where every
// difference is), of which the lowest class wins the tie (argmaxRows)
// (trainingPredictor).
func (nn *nearestNeighbourModel) trainingClasses() []int {
	lowest := map[string]int{}
	keys := make([]string, len(nn.class))
	var b []byte
	for t, k := range nn.class {
		b = appendRowKey(b[:0], nn.rows.RawRowView(t))
		keys[t] = string(b)
		if c, ok := lowest[keys[t]]; !ok || k < c {
			lowest[keys[t]] = k
		}
	}
	out := make([]int, len(keys))
	for t, key := range keys {
		out[t] = lowest[key]
	}
	return out
}

// Selected reports that the model has no per-column weights.
func (nn *nearestNeighbourModel) Selected() ([]Selection, bool) { return nil, false }

// nearestNeighbourFile is the "nearest-neighbour" form.
type nearestNeighbourFile struct {
	scaledHeader
	Rows       [][]float64 `json:"rows"`
	RowClasses []int       `json:"row_classes"`
}

func (nn *nearestNeighbourModel) multiDocument(h multiHeader) (any, error) {
	f := nearestNeighbourFile{scaledHeader: newScaledHeader(h, nn.s, FormNearestNeighbour), Rows: matrixRows(nn.rows), RowClasses: nn.class}
	return f, f.check()
}

func (f *nearestNeighbourFile) check() error {
	d, n, err := f.checkScaled(FormNearestNeighbour)
	if err != nil {
		return err
	}
	if err := checkMatrix("rows", f.Rows, len(f.RowClasses), d+n); err != nil {
		return err
	}
	return ClassLabels{Names: f.Classes, Y: f.RowClasses}.Check(len(f.Rows))
}

// decodeNearestNeighbour decodes a "nearest-neighbour" file.
func decodeNearestNeighbour(doc json.RawMessage) (MultiModel, error) {
	var f nearestNeighbourFile
	d, n, err := decodeScaled(doc, &f)
	if err != nil {
		return nil, err
	}
	return newNearestNeighbourModel(multiBase{f.Method, f.Classes, f.Hyperparameters}, f.blockScaler, denseRows(f.Rows, d+n), f.RowClasses), nil
}

// centroidCosineModel classifies L2-normalised standardised rows by the
// nearest centroid. Its file form is "centroid-cosine".
type centroidCosineModel struct {
	multiBase
	s         blockScaler
	centroids *mat.Dense // K × (d+n)
}

// normaliseRow divides z by its Euclidean norm in place (a zero row stays
// zero). Where the sum of squares overflows or falls below the normal
// range (a row far outside the training range, or very near its mean), z
// is divided by its largest |value| first, so that the result is still z's
// direction; elsewhere it is Σv² summed in order, then z·(1/√Σv²).
func normaliseRow(z []float64) {
	var s float64
	for _, v := range z {
		s += v * v
	}
	if math.IsInf(s, 1) || s < 0x1p-1022 {
		var a float64
		for _, v := range z {
			a = math.Max(a, math.Abs(v))
		}
		if a == 0 {
			return
		}
		s = 0
		for j, v := range z {
			z[j] = v / a
			s += z[j] * z[j]
		}
	}
	if s > 0 {
		inv := 1 / math.Sqrt(s)
		for j := range z {
			z[j] *= inv
		}
	}
}

// Scores returns, per row and class, minus the distance of the normalised
// row to the class's centroid.
func (c *centroidCosineModel) Scores(d Data) (*mat.Dense, error) { return wholeScores(c, d) }

// blockScores standardises the rows of d and scores them a block at a time
// (blockScorer), as Scores says.
func (c *centroidCosineModel) blockScores(d Data) (blockFunc, int, error) {
	return c.s.rowBlockScores(d, len(c.classes), func(u, row []float64) {
		normaliseRow(u)
		for k := range row {
			row[k] = 0 - distance(u, c.centroids.RawRowView(k)) // +0, not −0, at distance 0
		}
	})
}

// Predict returns the class of the nearest centroid.
func (c *centroidCosineModel) Predict(d Data) ([]int, error) { return predictByScores(c, d) }

// Selected reports that the model has no per-column weights (it compares
// normalised rows).
func (c *centroidCosineModel) Selected() ([]Selection, bool) { return nil, false }

// centroidCosineFile is the "centroid-cosine" form.
type centroidCosineFile struct {
	scaledHeader
	Centroids [][]float64 `json:"centroids"`
}

func (c *centroidCosineModel) multiDocument(h multiHeader) (any, error) {
	f := centroidCosineFile{scaledHeader: newScaledHeader(h, c.s, FormCentroidCosine), Centroids: matrixRows(c.centroids)}
	return f, f.check()
}

func (f *centroidCosineFile) check() error {
	d, n, err := f.checkScaled(FormCentroidCosine)
	if err != nil {
		return err
	}
	return checkMatrix("centroids", f.Centroids, len(f.Classes), d+n)
}

// decodeCentroidCosine decodes a "centroid-cosine" file.
func decodeCentroidCosine(doc json.RawMessage) (MultiModel, error) {
	var f centroidCosineFile
	d, n, err := decodeScaled(doc, &f)
	if err != nil {
		return nil, err
	}
	return &centroidCosineModel{multiBase: multiBase{f.Method, f.Classes, f.Hyperparameters}, s: f.blockScaler,
		centroids: denseRows(f.Centroids, d+n)}, nil
}
