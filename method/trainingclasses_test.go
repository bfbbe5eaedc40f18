package method

import (
	"context"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// scoringCounter is a native multi-class model (scored in blocks) that
// counts the passes over its input: its Scores calls and blockScores
// calls (each the start of a pass of PredictContext or ScoreBlocks, as
// Predict scores the rows). A model that knows its training rows'
// classes (trainingPredictor) still does through it.
type scoringCounter struct {
	blockScorer
	n *int
}

func (c scoringCounter) Scores(d Data) (*mat.Dense, error) {
	*c.n++
	return c.blockScorer.Scores(d)
}

func (c scoringCounter) blockScores(d Data) (blockFunc, int, error) {
	*c.n++
	return c.blockScorer.blockScores(d)
}

func (c scoringCounter) Predict(d Data) ([]int, error) { return predictByScores(c, d) }

func (c scoringCounter) trainingClasses() []int {
	if tp, ok := c.blockScorer.(trainingPredictor); ok {
		return tp.trainingClasses()
	}
	return nil
}

// TestTrainingClassesScoresOnce: fit's two checks of a native multi-class
// model on its training rows (TrainingClasses: ConstantClasses, then
// OneClass when no class is constant) score those rows once, not once for
// each check (a nearest-neighbour model, which knows its training rows'
// classes, once at most), and say what the two checks say when asked one
// after the other: the classes ConstantClasses finds, else OneClass's
// class. Every registered native method, on three separated classes (no
// class constant: OneClass is asked, and finds several classes), on
// classes of one constant feature (every class constant for a method
// that keeps columns), and on three classes of which two have one example
// each within the first's. It scored them twice (ConstantClasses' Scores,
// then OneClass's PredictContext).
func TestTrainingClassesScoresOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		y    []int
	}{
		{"separated", []float64{0, 0, 0.1, 0, 5, 5, 5.1, 5, -5, 5, -5.1, 5}, []int{0, 0, 1, 1, 2, 2}},
		{"constant", []float64{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, []int{0, 0, 1, 1, 2, 2}},
		{"unbalanced", []float64{0, 0, 0.2, 0.1, 0.1, 0.3, 0.3, 0.2, 0.15, 0.15, 0.05, 0.25}, []int{0, 0, 0, 0, 1, 2}},
		{"duplicated", []float64{0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0}, []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 2}},
		{"duplicated2", []float64{0, 0, 0, 0, 0, 0, 1, 2, 1, 2, 1, 2, 0, 0, 1, 2}, []int{0, 0, 0, 0, 0, 0, 1, 2}},
	} {
		natives := 0
		train := Data{X: mat.NewDense(len(tc.y), 2, tc.x)}
		y := ClassLabels{Names: []string{"a", "b", "c"}, Y: tc.y}
		for _, name := range MultiNames() {
			r, _ := Registered(name)
			if !r.Capabilities().NativeMultiClass {
				continue
			}
			natives++
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
			if err != nil {
				t.Errorf("%s, %s: %v", tc.name, name, err)
				continue
			}
			bs, ok := model.(blockScorer)
			if !ok {
				t.Errorf("%s, %s: the model (%T) is not scored in blocks", tc.name, name, model)
				continue
			}
			wantConst, ok, err := ConstantClasses(context.Background(), model, train)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				wantConst = nil
			}
			wantK, wantOne := 0, false
			if len(wantConst) == 0 {
				if wantK, wantOne, err = OneClass(context.Background(), model, train); err != nil {
					t.Fatal(err)
				}
			}
			var n int
			constant, k, one, err := TrainingClasses(context.Background(), scoringCounter{bs, &n}, train)
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, name, err)
			}
			if !slices.Equal(constant, wantConst) || k != wantK || one != wantOne {
				t.Errorf("%s, %s: TrainingClasses %v %d %v, want %v %d %v", tc.name, name, constant, k, one, wantConst, wantK, wantOne)
			}
			most := 1
			if _, ok := model.(trainingPredictor); ok {
				most = 0
			}
			if n > most {
				t.Errorf("%s, %s: TrainingClasses scored the training rows %d times, want at most %d (constant %v, one %v)", tc.name, name, n, most, constant, one)
			}
		}
		if natives < 5 {
			t.Errorf("%s: %d native multi-class methods, want the 5 at least", tc.name, natives)
		}
	}
	// A native linear model that predicts class 1 for every row: no class
	// is constant, and OneClass's class is the argmax of the scores
	// ConstantClasses computed.
	X, _ := noiseRows()
	sc := standardize.Fit(X)
	w := mat.NewDense(3, 3, []float64{0.5, 0, -0.25, 0.1, 0.2, 0, 0, -0.3, 0.4})
	model := &LinearMulti{multiBase: multiBase{"multinomial-logistic", []string{"a", "b", "c"}, map[string]float64{}}, s: blockScaler{X: sc}, w: w, b: []float64{0, 100, 0.1}}
	var n int
	constant, k, one, err := TrainingClasses(context.Background(), scoringCounter{model, &n}, Data{X: X})
	if err != nil || len(constant) != 0 || k != 1 || !one || n != 1 {
		t.Errorf("class 1 for every row: TrainingClasses %v %d %v %v after %d passes, want no constant class, class 1 for every row, one pass", constant, k, one, err, n)
	}
}
