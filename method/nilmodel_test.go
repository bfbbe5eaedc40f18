package method

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestNilAndZeroModels is the package's rule on nil and zero models (see
// Model): no method of a nil or zero *Linear, *AutoModel or *LinearMulti
// panics; the accessors of a nil one return zero values (Selected ok
// false), and its Predict, Scores and Write return errors, which name the
// type the caller passed (a zero AutoModel's, not "*Linear") and never
// leave an empty method name's double space ("writing  model").
func TestNilAndZeroModels(t *testing.T) {
	d := Data{X: mat.NewDense(2, 2, []float64{1, 2, 3, 4})}
	call := func(name, what string, f func() string) string {
		t.Helper()
		var out string
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %s panics: %v", name, what, r)
				}
			}()
			out = f()
		}()
		if strings.Contains(out, "  ") || strings.Contains(out, "*Linear") && strings.Contains(name, "AutoModel") {
			t.Errorf("%s: %s: %q", name, what, out)
		}
		return out
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for _, tc := range []struct {
		name string
		m    Model
		nil_ bool
	}{{"nil *Linear", (*Linear)(nil), true}, {"zero Linear", &Linear{}, false}, {"nil *AutoModel", (*AutoModel)(nil), true}, {"zero AutoModel", &AutoModel{}, true}} {
		m := tc.m
		if e := call(tc.name, "Predict", func() string { _, err := m.Predict(d); return errText(err) }); e == "" {
			t.Errorf("%s: Predict: no error", tc.name)
		}
		if e := call(tc.name, "Write", func() string { return errText(Write(new(bytes.Buffer), m, FileInfo{})) }); e == "" {
			t.Errorf("%s: Write: no error", tc.name)
		}
		call(tc.name, "accessors", func() string {
			s, ok := m.Selected()
			if tc.nil_ && (m.Method() != "" || m.Hyperparameters() != nil || m.SourceWeights() != nil || ok || len(s.Columns) != 0) {
				t.Errorf("%s: accessors %q %v %v %v %v, want zero values and ok false", tc.name, m.Method(), m.Hyperparameters(), m.SourceWeights(), s, ok)
			}
			return ""
		})
	}
	if e := call("zero AutoModel", "Predict", func() string { _, err := (&AutoModel{}).Predict(d); return errText(err) }); e != "method: predict: *AutoModel has no Linear model" {
		t.Errorf("zero AutoModel: Predict error %q", e)
	}
	if e := call("zero Linear", "Write", func() string { return errText(Write(new(bytes.Buffer), &Linear{}, FileInfo{})) }); e != "method: writing model: the model has no columns" {
		t.Errorf("zero Linear: Write error %q", e)
	}
	for _, tc := range []struct {
		name string
		m    MultiModel
	}{{"nil *LinearMulti", (*LinearMulti)(nil)}, {"zero LinearMulti", &LinearMulti{}}} {
		m := tc.m
		if e := call(tc.name, "Scores", func() string { _, err := m.Scores(d); return errText(err) }); e == "" {
			t.Errorf("%s: Scores: no error", tc.name)
		}
		if e := call(tc.name, "Predict", func() string { _, err := PredictContext(context.Background(), m, d); return errText(err) }); e == "" {
			t.Errorf("%s: PredictContext: no error", tc.name)
		}
		if e := call(tc.name, "WriteMulti", func() string { return errText(WriteMulti(new(bytes.Buffer), m, FileInfo{})) }); e == "" {
			t.Errorf("%s: WriteMulti: no error", tc.name)
		}
		call(tc.name, "accessors", func() string {
			_, ok := m.Selected()
			return fmt.Sprint(m.Method(), m.Classes(), m.Hyperparameters(), ok)
		})
	}
	if _, ok := (*LinearMulti)(nil).Selected(); ok {
		t.Errorf("nil *LinearMulti: Selected ok true, want false")
	}
}
