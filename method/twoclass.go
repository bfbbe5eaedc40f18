package method

import (
	"errors"
	"fmt"
	"slices"

	"github.com/greedytl/greedytl/modelfile"
)

// checkTwoClassLabels returns an error when l, the "labels" of a
// multi-class file of classes, does not name its two classes: the positive
// one and the other; else the positive class's index (-1 when l is nil).
func checkTwoClassLabels(l *modelfile.LabelNames, classes []string) (int, error) {
	if l == nil {
		return -1, nil
	}
	if len(classes) != 2 {
		return -1, fmt.Errorf(`a multi-class file names its classes in "classes", not "labels" (only a file of two classes records its positive class there; this one has %d)`, len(classes))
	}
	k := slices.Index(classes, l.Positive)
	if k < 0 || len(l.Negative) != 1 || l.Negative[0] != classes[1-k] {
		return -1, fmt.Errorf(`"labels" (positive %q, negative %q) are not the file's two classes %q`, l.Positive, l.Negative, classes)
	}
	return k, nil
}

// TwoClass returns the binary model of a two-class multi-class model m
// whose positive class is l.Positive (the file's "labels"): its score of a
// row is the positive class's score minus the other's, so that positive
// means the positive class, as a binary model's (greedytl predict prints it
// for a file that records its positive class). It returns an error when l
// is nil or does not name m's two classes.
func TwoClass(m MultiModel, l *modelfile.LabelNames) (Model, error) {
	if l == nil {
		return nil, errors.New("method: a two-class model needs its positive class")
	}
	pos, err := checkTwoClassLabels(l, m.Classes())
	if err != nil {
		return nil, fmt.Errorf("method: %w", err)
	}
	return &twoClassModel{m: m, pos: pos}, nil
}

// twoClassModel is TwoClass's model.
type twoClassModel struct {
	m   MultiModel
	pos int // the positive class's index
}

// Method returns the multi-class model's spec.
func (t *twoClassModel) Method() string { return t.m.Method() }

// Predict returns, for each row of d, the positive class's score minus the
// other's.
func (t *twoClassModel) Predict(d Data) ([]float64, error) {
	S, err := t.m.Scores(d)
	if err != nil {
		return nil, err
	}
	rows, _ := S.Dims()
	f := make([]float64, rows)
	for i := range f {
		f[i] = S.At(i, t.pos) - S.At(i, 1-t.pos)
	}
	return f, nil
}

// Hyperparameters returns the multi-class model's.
func (t *twoClassModel) Hyperparameters() map[string]float64 { return t.m.Hyperparameters() }

// SourceWeights returns nil: the model has a weight per class, not one.
func (t *twoClassModel) SourceWeights() []float64 { return nil }

// Selected returns the column counts only (ok false): the model's columns
// are per class (MultiModel.Selected).
func (t *twoClassModel) Selected() (Selection, bool) {
	s, _ := t.m.Selected()
	if len(s) == 0 {
		return Selection{}, false
	}
	return Selection{NumFeatures: s[0].NumFeatures, NumSources: s[0].NumSources}, false
}
