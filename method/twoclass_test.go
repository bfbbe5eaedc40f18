package method_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
	"gonum.org/v1/gonum/mat"
)

// TestTwoClassFileRoundTrip: a two-class multi-class model written with its
// positive class in "labels" reads back with it, and writes back byte for
// byte; TwoClass's score of a row is the positive class's score minus the
// other's (brute force from Scores); labels that are not the model's two
// classes, or on a model of three classes, are refused by the writer and by
// the reader; a file without "labels" (as written before) reads as a
// multi-class model without them.
func TestTwoClassFileRoundTrip(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 0.5, 4, 4.5})
	H := mat.NewDense(4, 1, []float64{1, 0, 1, 0})
	d := method.Data{X: X, H: H}
	m, err := method.NewMulti("nearest-mean")
	if err != nil {
		t.Fatal(err)
	}
	model, err := m.FitMulti(context.Background(), d, method.ClassLabels{Names: []string{"ant", "bee"}, Y: []int{0, 0, 1, 1}}, method.Extra{})
	if err != nil {
		t.Fatal(err)
	}
	labels := &modelfile.LabelNames{Positive: "ant", Negative: []string{"bee"}}
	var buf bytes.Buffer
	if err := method.WriteMulti(&buf, model, method.FileInfo{Labels: labels}); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	f, err := method.Read(strings.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	if f.Multi == nil || f.Info.Labels == nil || f.Info.Labels.Positive != "ant" || f.Info.Labels.Negative[0] != "bee" {
		t.Fatalf("read back: %+v", f)
	}
	buf.Reset()
	if err := method.WriteMulti(&buf, f.Multi, f.Info); err != nil {
		t.Fatal(err)
	}
	if buf.String() != written {
		t.Errorf("written again:\n%s\nwant\n%s", buf.String(), written)
	}
	bin, err := method.TwoClass(f.Multi, f.Info.Labels)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bin.Predict(d)
	if err != nil {
		t.Fatal(err)
	}
	S, err := model.Scores(d)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if want := S.At(i, 0) - S.At(i, 1); v != want {
			t.Errorf("row %d: %v, want score(ant) − score(bee) = %v", i, v, want)
		}
		if (v > 0) != (i < 2) {
			t.Errorf("row %d: %v favours the wrong class", i, v)
		}
	}
	if sel, ok := bin.Selected(); ok || sel.NumFeatures != 1 || sel.NumSources != 1 {
		t.Errorf("Selected: %+v, %v; want the column counts 1, 1 and false", sel, ok)
	}

	// Labels that are not the model's classes.
	for _, bad := range []*modelfile.LabelNames{{Positive: "ant", Negative: []string{"cow"}}, {Positive: "cow", Negative: []string{"ant"}}, {Positive: "ant", Negative: []string{"bee", "cow"}}} {
		if err := method.WriteMulti(&bytes.Buffer{}, model, method.FileInfo{Labels: bad}); err == nil {
			t.Errorf("WriteMulti with labels %+v: no error", bad)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(written), &doc); err != nil {
			t.Fatal(err)
		}
		doc["labels"] = bad
		b, _ := json.Marshal(doc)
		if _, err := method.Read(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), `"labels"`) {
			t.Errorf("Read with labels %+v: error %v, want one naming \"labels\"", bad, err)
		}
		if _, err := method.TwoClass(model, bad); err == nil {
			t.Errorf("TwoClass with labels %+v: no error", bad)
		}
	}
	three, err := m.FitMulti(context.Background(), d, method.ClassLabels{Names: []string{"ant", "bee", "cow"}, Y: []int{0, 1, 2, 2}}, method.Extra{})
	if err != nil {
		t.Fatal(err)
	}
	if err := method.WriteMulti(&bytes.Buffer{}, three, method.FileInfo{Labels: labels}); err == nil {
		t.Error("WriteMulti of three classes with labels: no error")
	}

	// A file without "labels", as written before: multi-class, no labels.
	var doc map[string]any
	if err := json.Unmarshal([]byte(written), &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "labels")
	b, _ := json.Marshal(doc)
	old, err := method.Read(bytes.NewReader(b))
	if err != nil || old.Multi == nil || old.Info.Labels != nil {
		t.Fatalf("a file without labels: %+v, %v; want a multi-class model without labels", old, err)
	}
}
