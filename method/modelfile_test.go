package method

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/source"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// smallLinear is a valid Linear model with one feature and two sources.
func smallLinear() *Linear {
	return &Linear{
		Name: "rls-srcfeat",
		X:    standardize.Scaler{Mean: []float64{1}, Scale: []float64{2}},
		H:    standardize.Scaler{Mean: []float64{0, -1}, Scale: []float64{1, 0.5}},
		WX:   []float64{0.25}, WH: []float64{-1, 0.1}, B: 0.125,
		Hyper: map[string]float64{"lambda": 10},
	}
}

func TestLinearPredict(t *testing.T) {
	l := smallLinear()
	d := Data{X: mat.NewDense(2, 1, []float64{3, 1}), H: mat.NewDense(2, 2, []float64{1, -1, 2, 0})}
	f, err := l.Predict(d)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: 0.25·(3−1)/2 − 1·1 + 0.1·0 + 0.125; row 1: 0 − 2 + 0.1·2 + 0.125.
	want := []float64{0.25 - 1 + 0.125, -2 + 0.2 + 0.125}
	for i := range want {
		if d := f[i] - want[i]; d > 1e-15 || d < -1e-15 {
			t.Errorf("f[%d] = %v, want %v", i, f[i], want[i])
		}
	}
	// Callers cannot change the model through the returned slices and maps.
	l.SourceWeights()[0] = 99
	l.Hyperparameters()["lambda"] = 99
	if l.WH[0] != -1 || l.Hyper["lambda"] != 10 {
		t.Error("SourceWeights or Hyperparameters alias the model")
	}
}

// TestLinearPredictSkipsUnusedColumns: a linear model's score reads only
// the columns of non-zero weight (those Selected lists): a value of a
// column of weight 0 that standardises to ±Inf (far outside the training
// range, or a training scale near 0) added 0·Inf = NaN, and Predict
// failed, "the score of row 0 overflows at X column 0", for a column the
// model does not use — best-source's and logme-source's features, the
// columns an L1 model leaves out.
func TestLinearPredictSkipsUnusedColumns(t *testing.T) {
	l := smallLinear()
	l.WX[0], l.WH[1] = 0, 0
	l.X.Scale[0], l.H.Scale[1] = 0.5, 1e-300
	d := Data{X: mat.NewDense(2, 1, []float64{3, 1}), H: mat.NewDense(2, 2, []float64{1, -1, 2, 0})}
	want, err := l.Predict(d)
	if err != nil {
		t.Fatal(err)
	}
	far := Data{X: mat.NewDense(2, 1, []float64{math.MaxFloat64, -math.MaxFloat64}), H: mat.NewDense(2, 2, []float64{1, 1e10, 2, -1e300})}
	got, err := l.Predict(far)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Predict with far values in the columns of weight 0 = %v, %v; want %v", got, err, want)
	}
	// A column of non-zero weight so far out is still refused.
	l.WX[0] = 0.25
	if _, err := l.Predict(far); err == nil || !strings.Contains(err.Error(), "overflows at X column 0") {
		t.Errorf("Predict with X column 0 far out and its weight 0.25: error %v, want the overflow at X column 0", err)
	}
}

// writeString returns the model file of m.
func writeString(t testing.TB, m Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteModel(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestModelFileLinear(t *testing.T) {
	doc := writeString(t, smallLinear())
	for _, want := range []string{`"format": "greedytl-model"`, `"version": 2`, `"method": "rls-srcfeat"`, `"build": {`,
		`"hyperparameters": {`, `"lambda": 10`, `"wx": [`, `"b": 0.125`} {
		if !strings.Contains(doc, want) {
			t.Errorf("file lacks %s:\n%s", want, doc)
		}
	}
	if strings.Index(doc, `"format"`) > strings.Index(doc, `"wx"`) {
		t.Error("the envelope does not come first")
	}
	m, err := ReadModel(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if again := writeString(t, m); again != doc {
		t.Errorf("round trip changed the file:\n%s\n%s", doc, again)
	}
}

func TestReadModelRejects(t *testing.T) {
	good := writeString(t, smallLinear())
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("test file lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	greedyDoc := writeString(t, fitGreedyModel(t))
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"empty", "", "EOF"},
		{"not JSON", "greedytl", "invalid character"},
		{"trailing data", good + "{}", "trailing data"},
		{"wrong format", edit(`"greedytl-model"`, `"liblinear"`), `format is "liblinear"`},
		{"wrong version", edit(`"version": 2`, `"version": 3`), "unsupported version 3"},
		{"unknown method", edit(`"rls-srcfeat"`, `"svm"`), `unknown method "svm"`},
		{"NaN", edit(`"b": 0.125`, `"b": NaN`), "invalid character"},
		{"infinite number", edit(`"b": 0.125`, `"b": 1e999`), "1e999"},
		{"NaN hyperparameter", edit(`"lambda": 10`, `"lambda": NaN`), "invalid character"},
		{"unknown member", edit(`"b": 0.125`, `"b": 0.125, "c": 1`), `unknown field "c"`},
		{"no hyperparameters", edit(`"hyperparameters"`, `"hyper"`), `unknown field "hyper"`},
		{"weights for missing columns", edit(`"wx": [`, `"wx": [1, `), "2 feature weights for 1 features"},
		// Scale 0 marks a constant column (standardize's convention); a
		// negative scale is invalid (a subnormal one is valid: issue 18).
		{"negative scale", edit(`"scale": [
      2
    ]`, `"scale": [-2]`), "scale 0 is -2"},
		{"greedytl-59 file of an exact search", strings.Replace(greedyDoc, `"method": "greedytl"`, `"method": "greedytl-59"`, 1), "does not match the options"},
		{"greedy hyperparameters disagreeing with the options", strings.Replace(greedyDoc, `"delta": 0.0001`, `"delta": 0.5`, 1), "disagree"},
		{"greedy file with an unknown member", strings.Replace(greedyDoc, `"num_sources"`, `"foo": 1, "num_sources"`, 1), `unknown field "foo"`},
	} {
		_, err := ReadModel(strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// fitGreedyModel fits greedytl on a small problem.
func fitGreedyModel(t *testing.T) Model {
	t.Helper()
	c := newConformanceCase(5, 16, 5, 3, 4)
	return mustFit(t, "greedytl", c)
}

// A file written by the root package reads as a greedytl model with the
// same predictions.
func TestReadRootPackageFile(t *testing.T) {
	c := newConformanceCase(5, 16, 5, 3, 4)
	for _, sample := range []int{0, 59} {
		o := greedytl.DefaultOptions()
		o.Sample, o.Seed = sample, 3
		gm, err := greedytl.Fit(context.Background(), c.train.X, c.train.H, c.train.Y, o)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := gm.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		m, err := ReadModel(&b)
		if err != nil {
			t.Fatal(err)
		}
		want := "greedytl"
		if sample > 0 {
			want = "greedytl:sample=59"
		}
		if m.Method() != want {
			t.Errorf("method %q, want %q", m.Method(), want)
		}
		f, err := m.Predict(Data{X: c.test.X, H: c.test.H})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := gm.Predict(c.test.X, c.test.H)
		for i := range f {
			if f[i] != g[i] {
				t.Fatalf("row %d: %v read back, %v from the root model", i, f[i], g[i])
			}
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteModelRejects(t *testing.T) {
	nanWeight := smallLinear()
	nanWeight.WH[1] = math.NaN()
	infHyper := smallLinear()
	infHyper.Hyper["lambda"] = math.Inf(1)
	ragged := smallLinear()
	ragged.WX = nil
	for _, tc := range []struct {
		name string
		m    Model
		w    io.Writer
		want string
	}{
		{"a model of no method of this package", struct{ Model }{smallLinear()}, io.Discard, "cannot write"},
		{"a NaN weight", nanWeight, io.Discard, "wh[1] is NaN"},
		{"an infinite hyperparameter", infHyper, io.Discard, "lambda is +Inf"},
		{"missing weights", ragged, io.Discard, "0 feature weights for 1 features"},
		{"a failing writer", smallLinear(), failingWriter{}, "disk full"},
		{"a GreedyTL model and a failing writer", fitGreedyModel(t), failingWriter{}, "method: writing greedytl model: disk full"},
	} {
		err := WriteModel(tc.w, tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			continue
		}
		if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// Files written by version 1 still read: a GreedyTL variant's (γ under its
// old key, the name kept apart from the options — even one the old reader
// refused) and a baseline's; a newer version is refused naming it.
func TestReadVersion1Files(t *testing.T) {
	greedyV1 := `{"format": "greedytl-model", "version": 1, "method": "greedytl", "hyperparameters": {"lambda": 1, "delta": 0.0001, "feature_factor": 0.25, "sample": 59},
  "num_features": 2, "num_sources": 1,
  "options": {"lambda": 1, "auto_lambda": false, "delta": 0.0001, "max_k": 0, "sample": 59, "seed": 7, "feature_factor": 0.25, "stop_at_min_loo": false},
  "columns": [{"kind": "source", "index": 0, "weight": 0.5, "mean": 0.1, "scale": 2, "score": 3, "reg_error": 0.4, "loo_error": 0.6}]}`
	m, err := ReadModel(strings.NewReader(greedyV1))
	if err != nil {
		t.Fatal(err)
	}
	if m.Method() != "greedytl:gamma=0.25,sample=59" || m.Hyperparameters()["gamma"] != 0.25 {
		t.Errorf("read as %q with %v", m.Method(), m.Hyperparameters())
	}
	linearV2 := writeString(t, smallLinear())
	linearV1 := strings.Replace(linearV2, `"version": 2`, `"version": 1`, 1)
	if _, err := ReadModel(strings.NewReader(linearV1)); err != nil {
		t.Errorf("a version 1 baseline file: %v", err)
	}
	v3 := strings.Replace(linearV2, `"version": 2`, `"version": 3`, 1)
	if _, err := ReadModel(strings.NewReader(v3)); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("a version 3 file: %v", err)
	}
}

// TestModelFileSources: WriteFile records the sources in the envelope of
// every kind of model file (a Linear model's, the dictionary's, the root
// package's GreedyTL file) and ReadFile returns them; WriteModel records
// none, and a "sources" member without a digest is refused.
func TestModelFileSources(t *testing.T) {
	src := &source.ID{Dir: "srcs", SHA256: "ab12", Count: 2, DataSHA256: "cd34", Seed: 7}
	c := newConformanceCase(5, 16, 5, 3, 4)
	for _, m := range []Model{smallLinear(), mustFit(t, "dictionary", c), fitGreedyModel(t)} {
		for _, rec := range []*source.ID{src, nil} {
			var b bytes.Buffer
			if err := WriteFile(&b, m, rec); err != nil {
				t.Fatal(err)
			}
			if rec == nil && b.String() != writeString(t, m) {
				t.Errorf("%s: WriteFile with no sources is not WriteModel", m.Method())
			}
			got, gotSrc, err := ReadFile(bytes.NewReader(b.Bytes()))
			switch {
			case err != nil:
				t.Errorf("%s: %v", m.Method(), err)
			case got.Method() != m.Method():
				t.Errorf("read back %s, wrote %s", got.Method(), m.Method())
			case (gotSrc == nil) != (rec == nil) || gotSrc != nil && *gotSrc != *rec:
				t.Errorf("%s: sources %+v read back as %+v", m.Method(), rec, gotSrc)
			}
			if rec == nil {
				continue
			}
			bad := strings.Replace(b.String(), `"sha256": "ab12"`, `"sha256": ""`, 1)
			if _, _, err := ReadFile(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "sha256") {
				t.Errorf("%s: sources without a digest: error %v", m.Method(), err)
			}
		}
	}
}

// TestWriteNil: writing a nil model, binary or multi-class, is an error
// naming what was nil, its type for a typed nil (typednil.Is).
func TestWriteNil(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Write(io.Discard, nil, FileInfo{}), "method: writing a nil Model"},
		{Write(io.Discard, (*Linear)(nil), FileInfo{}), "method: writing a nil *method.Linear"},
		{WriteMulti(io.Discard, nil, FileInfo{}), "method: writing a nil MultiModel"},
		{WriteMulti(io.Discard, (*LinearMulti)(nil), FileInfo{}), "method: writing a nil *method.LinearMulti"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
}

// TestNilReaderWriter: every model written to a nil io.Writer, binary or
// multi-class, and Read of a nil io.Reader are errors, not the panics they
// were.
func TestNilReaderWriter(t *testing.T) {
	noPanic := func(what, wantSuffix string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic %v", what, r)
			}
		}()
		if err := f(); err == nil || !strings.HasSuffix(err.Error(), wantSuffix) {
			t.Errorf("%s: error %v, want one ending %q", what, err, wantSuffix)
		}
	}
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		model := mustFit(t, name, base)
		noPanic(name+": Write", ": no writer (nil)", func() error { return Write(nil, model, FileInfo{}) })
	}
	for name, mm := range fitEveryMulti(t) {
		noPanic(name+": WriteMulti", ": no writer (nil)", func() error { return WriteMulti(nil, mm, FileInfo{}) })
	}
	noPanic("Read", "method: reading model: no reader (nil)", func() error { _, err := Read(nil); return err })
}

// TestPredictOverflowIsTyped: a score that overflows is a
// *greedytl.ScoreOverflowError carrying the row, the column (from 0), the
// value and the column's training mean and scale, from a linear model
// (column 0 of X) as from a GreedyTL model (column 1 of H), the message
// behind each one's prefix as before; a linear model whose X and H terms
// are each finite and overflow as a sum names no column (Col −1).
func TestPredictOverflowIsTyped(t *testing.T) {
	l := smallLinear()
	l.X.Scale[0] = 1e-300
	X := mat.NewDense(2, 1, []float64{0, 1e10})
	H := mat.NewDense(2, 2, []float64{1, -1, 2, 0})
	gm := &greedytl.Model{
		Selected:    []greedytl.Column{{Kind: greedytl.Source, Index: 1}},
		Weights:     []float64{2},
		Mean:        []float64{0.5},
		Scale:       []float64{1e-300},
		NumFeatures: 1, NumSources: 2,
	}
	_, lerr := l.Predict(Data{X: X, H: H})
	_, gerr := gm.Predict(X, mat.NewDense(2, 2, []float64{1, 0.5, 2, 1e10}))
	for _, tc := range []struct {
		err    error
		prefix string
		want   greedytl.ScoreOverflowError
	}{
		{lerr, "method: predict: ", greedytl.ScoreOverflowError{Input: "X", Row: 1, Col: 0, Value: 1e10, Mean: l.X.Mean[0], Scale: 1e-300}},
		{gerr, "greedytl.Model.Predict: ", greedytl.ScoreOverflowError{Input: "H", Row: 1, Col: 1, Value: 1e10, Mean: 0.5, Scale: 1e-300}},
	} {
		var e *greedytl.ScoreOverflowError
		if !errors.As(tc.err, &e) || *e != tc.want || tc.err.Error() != tc.prefix+tc.want.Error() {
			t.Errorf("error %v, want %q and a *greedytl.ScoreOverflowError %+v", tc.err, tc.prefix+tc.want.Error(), tc.want)
		}
	}
	if want := fmt.Sprintf("the score of row 1 overflows at H column 1 = 1e+10, too far outside the training range (mean 0.5, standard deviation %v)", 1e-300); gerr == nil || !strings.HasSuffix(gerr.Error(), want) {
		t.Errorf("GreedyTL's error %v, want it to end %q", gerr, want)
	}
	// Each part finite, their sum not.
	l = smallLinear()
	l.WX[0], l.WH[0], l.WH[1], l.B = 1e308, 1e308, 0, 0
	l.X.Mean[0], l.X.Scale[0], l.H.Mean[0], l.H.Scale[0] = 0, 1, 0, 1
	_, err := l.Predict(Data{X: mat.NewDense(1, 1, []float64{1.5}), H: mat.NewDense(1, 2, []float64{1.5, 0})})
	var e *greedytl.ScoreOverflowError
	if !errors.As(err, &e) || *e != (greedytl.ScoreOverflowError{Input: "H", Row: 0, Col: -1}) || err.Error() != "method: predict: the score of row 0 overflows adding H's terms" {
		t.Errorf("a sum that overflows: error %v, want H's terms named, Col −1", err)
	}
}
