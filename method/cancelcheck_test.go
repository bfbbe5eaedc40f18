package method

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
)

// checkPoints returns the checks, of total, at which a fit is cancelled:
// every one of a few, and otherwise about 40 spread over them, the first
// and the last included.
func checkPoints(total int64) []int64 {
	const most = 40
	var at []int64
	for i := int64(1); i <= total; i++ {
		if total <= most || (i-1)%((total+most-1)/most) == 0 || i == total {
			at = append(at, i)
		}
	}
	return at
}

// checkCancelledError fails unless err is what a fit of the method named
// name returns when its context is cancelled: context.Canceled, wrapped in
// a message that names the method and follows the one-prefix rule
// (errtest.OnePrefix), and no model.
func checkCancelledError(t *testing.T, name string, at, total int64, err error, model bool) {
	t.Helper()
	switch {
	case !errors.Is(err, context.Canceled) || model:
		t.Errorf("cancelled at check %d of %d: %v (model %v), want context.Canceled and no model", at, total, err, model)
	case !strings.Contains(err.Error(), name):
		t.Errorf("cancelled at check %d of %d: error %q does not name the method", at, total, err)
	default:
		if perr := errtest.OnePrefix(err.Error()); perr != nil {
			t.Errorf("cancelled at check %d of %d: %v", at, total, perr)
		}
	}
}

// TestFitCancelledAtEachCheck cancels every method's Fit and every
// multi-class method's FitMulti at its checks of the context (a
// fitctxtest.Countdown), those of
// the solvers below it included (lssvm, hinge, sparsecode, linear, the
// root package), and checks that the error is the context's, names the
// method (as docs/conventions.md's "Errors" asks of the layers that pass a
// solver's error on) with one package prefix (not "method: greedytl: …"
// for the method greedytl), and comes without a model.
func TestFitCancelledAtEachCheck(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			meth := newConformanceMethod(t, name)
			count := fitctxtest.NewCountdown(math.MaxInt64)
			if _, err := meth.Fit(count, base.train, base.extra); err != nil {
				t.Fatal(err)
			}
			total := count.Calls()
			for _, at := range checkPoints(total) {
				model, err := meth.Fit(fitctxtest.NewCountdown(at-1), base.train, base.extra)
				checkCancelledError(t, meth.Name(), at, total, err, model != nil)
			}
		})
	}
	train, y, test, _ := multiProblem(5, 3, 3, 4, 6, 4)
	for _, name := range MultiNames() {
		t.Run("multi/"+name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			extra := multiExtra(mm, test)
			count := fitctxtest.NewCountdown(math.MaxInt64)
			if _, err := mm.FitMulti(count, train, y, extra); err != nil {
				t.Fatal(err)
			}
			total := count.Calls()
			for _, at := range checkPoints(total) {
				model, err := mm.FitMulti(fitctxtest.NewCountdown(at-1), train, y, extra)
				checkCancelledError(t, mm.Name(), at, total, err, model != nil)
			}
		})
	}
}
