package method

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// seedsTried are the seeds a method is fitted with to tell whether its fit
// draws at random: a method that does gives another model for one of them.
var seedsTried = []uint64{1, 2, 3}

// TestNeedsSeed: every registered method's Needs().Seed, and every
// multi-class method's, says whether its fitted model changes with
// Extra.Seed: fitted with each of seedsTried, a method whose Seed is false
// scores the test rows identically every time, one whose Seed is true
// differently for some seed (of the binary methods used one against the
// rest, two are fitted). The problems have more than 59 columns, so
// that greedytl-59's search draws among them, and for several classes more
// than 20 examples a class, so that multinomial-logistic draws the rows of
// its choice of C.
func TestNeedsSeed(t *testing.T) {
	base := newConformanceCase(7, 40, 15, 40, 30)
	for _, name := range slices.Concat(Names(), conformanceSpecs) {
		t.Run(name, func(t *testing.T) {
			meth := newConformanceMethod(t, name)
			var first []float64
			varies := false
			for _, seed := range seedsTried {
				c := base
				c.extra.Seed = seed
				f := mustPredict(t, mustFit(t, name, c), base.test)
				if first == nil {
					first = f
				} else if !slices.Equal(f, first) {
					varies = true
				}
			}
			checkSeedNeed(t, name, meth.Needs().Seed, varies)
		})
	}
	train, y, test, ytest := multiProblem(5, 3, 25, 4, 40, 30)
	for _, name := range MultiNames() {
		// One against the rest, Needs is the binary method's, checked
		// above: one that draws and one that does not show it passed on.
		if r, _ := Registered(name); !r.Capabilities().NativeMultiClass && name != "greedytl-59" && name != "no-transfer" {
			continue
		}
		t.Run("multi/"+name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			extra := multiExtra(mm, test)
			if extra.Oracle != nil { // multiExtra's is of its own problem's columns
				extra.Oracle = &Data{X: test.X, H: test.H, Y: make([]float64, len(ytest))}
				for i, k := range ytest {
					extra.Oracle.Y[i] = float64(k)
				}
			}
			var first *mat.Dense
			varies := false
			for _, seed := range seedsTried {
				extra.Seed = seed
				model, err := mm.FitMulti(context.Background(), train, y, extra)
				if err != nil {
					t.Fatal(err)
				}
				s, err := model.Scores(Data{X: test.X, H: test.H})
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = s
				} else if !mat.Equal(s, first) {
					varies = true
				}
			}
			checkSeedNeed(t, name, mm.Needs().Seed, varies)
		})
	}
}

// checkSeedNeed fails when the method name's Needs().Seed, need, disagrees
// with whether its fits varied with the seed.
func checkSeedNeed(t *testing.T, name string, need, varies bool) {
	t.Helper()
	switch {
	case need && !varies:
		t.Errorf("%s: Needs().Seed is true but seeds %v fit the same model", name, seedsTried)
	case !need && varies:
		t.Errorf("%s: Needs().Seed is false but seeds %v fit different models", name, seedsTried)
	}
}
