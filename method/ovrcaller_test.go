package method

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// wrapped is a library user's wrapper of a registered method: another
// type under the registered method's name.
type wrapped struct{ Method }

// One-vs-rest over a wrapper of a registered method names its own context
// checks as the wrapped method's fits name theirs: one prefix for one fit
// ("greedytl.Fit", not "method: greedytl" at the one-vs-rest check and
// "greedytl.Fit" inside).
func TestOneVsRestCallerOfAWrapper(t *testing.T) {
	for _, spec := range []string{"greedytl", "greedytl-59", "rls-srcfeat"} {
		inner, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		x := mat.NewDense(6, 1, []float64{0, 0.2, 5, 5.2, 10, 10.2})
		h := mat.NewDense(6, 1, []float64{1, 1.1, 2, 2.1, 3, 3.1})
		_, errBin := wrapped{inner}.Fit(ctx, Data{X: x, H: h, Y: []float64{1, -1, 1, -1, 1, -1}}, Extra{})
		y := ClassLabels{Names: []string{"a", "b", "c"}, Y: []int{0, 1, 2, 0, 1, 2}}
		_, errMulti := OneVsRest{Binary: wrapped{inner}}.FitMulti(ctx, Data{X: x, H: h}, y, Extra{})
		if errBin == nil || errMulti == nil {
			t.Fatalf("%s: cancelled fits: %v, %v; want errors", spec, errBin, errMulti)
		}
		prefix := func(err error) string { p, _, _ := strings.Cut(err.Error(), ": context canceled"); return p }
		if prefix(errMulti) != prefix(errBin) {
			t.Errorf("%s wrapped: one-vs-rest's cancelled fit says %q, the wrapped method's fit %q; want one caller", spec, errMulti, errBin)
		}
	}
}
