package method

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// progressSpy is a binary method that records whether each of its fits
// was given a progress callback.
type progressSpy struct {
	Method
	given *[]bool
}

func (p progressSpy) Fit(ctx context.Context, train Data, extra Extra) (Model, error) {
	*p.given = append(*p.given, extra.Progress != nil)
	return p.Method.Fit(ctx, train, extra)
}

// One-vs-rest calls Extra.Progress once after each class's fit, with 1 …
// K of K in order, and does not pass it to the binary fits (their own
// progress is not the classes').
func TestOneVsRestProgress(t *testing.T) {
	inner, err := New("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(8, 1, []float64{0, 0.2, 5, 5.2, 10, 10.2, 15, 15.3})
	h := mat.NewDense(8, 1, []float64{1, 1.1, 2, 2.1, 3, 3.1, 4, 4.2})
	y := ClassLabels{Names: []string{"a", "b", "c", "d"}, Y: []int{0, 0, 1, 1, 2, 2, 3, 3}}
	var calls []string
	var given []bool
	extra := Extra{Progress: func(done, total int) {
		calls = append(calls, fmt.Sprintf("%d/%d", done, total))
		if len(given) != done {
			t.Errorf("progress %d of %d after %d binary fits, want after %d", done, total, len(given), done)
		}
	}}
	if _, err := (OneVsRest{Binary: progressSpy{inner, &given}}).FitMulti(context.Background(), Data{X: x, H: h}, y, extra); err != nil {
		t.Fatal(err)
	}
	if want := []string{"1/4", "2/4", "3/4", "4/4"}; !slices.Equal(calls, want) {
		t.Errorf("progress calls %q, want %q", calls, want)
	}
	if slices.Contains(given, true) || len(given) != 4 {
		t.Errorf("binary fits given a progress callback: %v, want 4 fits without", given)
	}
	// Without a callback the fit is the same fit (nothing is called).
	given = nil
	if _, err := (OneVsRest{Binary: progressSpy{inner, &given}}).FitMulti(context.Background(), Data{X: x, H: h}, y, Extra{}); err != nil {
		t.Fatal(err)
	}
}
