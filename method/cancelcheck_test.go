package method

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"github.com/greedytl/greedytl/internal/goroutinetest"
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
// a message that names the method, says "fit interrupted" (fitctx's words,
// which every method's cancelled fit uses) and follows the one-prefix rule
// (errtest.OnePrefix), and no model. head holds the text up to the method's
// name of the first such error (after a one-against-the-rest fit's class
// context, "NAME, class … against the rest: "), which every later one must
// repeat: the errors of one method's checks carry one prefix, not "method:
// greedytl-59: fit interrupted" at the fit's start and "greedytl-59:
// greedytl.Fit: fit interrupted" inside greedytl.Fit.
func checkCancelledError(t *testing.T, name string, at, total int64, err error, model bool, head *string) {
	t.Helper()
	switch {
	case !errors.Is(err, context.Canceled) || model:
		t.Errorf("cancelled at check %d of %d: %v (model %v), want context.Canceled and no model", at, total, err, model)
	case !strings.Contains(err.Error(), name):
		t.Errorf("cancelled at check %d of %d: error %q does not name the method", at, total, err)
	case !strings.Contains(err.Error(), "fit interrupted"):
		t.Errorf("cancelled at check %d of %d: error %q does not say \"fit interrupted\", as every method's does", at, total, err)
	default:
		if perr := errtest.OnePrefix(err.Error()); perr != nil {
			t.Errorf("cancelled at check %d of %d: %v", at, total, perr)
		}
		msg := err.Error()
		if _, inner, ok := strings.Cut(msg, " against the rest: "); ok && strings.HasPrefix(msg, name+", class ") {
			msg = inner
		}
		i := strings.Index(msg, name)
		if i < 0 {
			t.Errorf("cancelled at check %d of %d: error %q does not name the method after its class", at, total, err)
			return
		}
		h := msg[:i+len(name)]
		if *head == "" {
			*head = h
		} else if h != *head {
			t.Errorf("cancelled at check %d of %d: error %q names the method behind %q, the earlier checks' behind %q", at, total, err, h, *head)
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
// for the method greedytl), the same at every check, and comes without a
// model and with no goroutine of the fit's left running (the pools of
// greedytl-auto's committees and of the logistic methods' leave-one-out
// folds). A GreedyTL under a base name no registration has (a library
// user's) is checked too: its start and end checks said "method: NAME"
// where its checks inside greedytl.Fit said "NAME: greedytl.Fit".
func TestFitCancelledAtEachCheck(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range append(Names(), "unregistered-greedytl") {
		t.Run(name, func(t *testing.T) {
			var meth Method = &GreedyTL{Base: "my-greedytl", Defaults: greedytl.DefaultOptions(), Options: greedytl.DefaultOptions()}
			if name != "unregistered-greedytl" {
				meth = newConformanceMethod(t, name)
			}
			count := fitctxtest.NewCountdown(math.MaxInt64)
			if _, err := meth.Fit(count, base.train, base.extra); err != nil {
				t.Fatal(err)
			}
			total := count.Calls()
			head := ""
			for _, at := range checkPoints(total) {
				before := goroutinetest.Count()
				model, err := meth.Fit(fitctxtest.NewCountdown(at-1), base.train, base.extra)
				checkCancelledError(t, meth.Name(), at, total, err, model != nil, &head)
				goroutinetest.NoneLeft(t, before, fmt.Sprintf("a fit cancelled at check %d of %d", at, total))
			}
		})
	}
	eachMultiMethod(t, func(t *testing.T, mm MultiMethod, train Data, y ClassLabels, _ Data, extra Extra) {
		count := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := mm.FitMulti(count, train, y, extra); err != nil {
			t.Fatal(err)
		}
		total := count.Calls()
		head := ""
		for _, at := range checkPoints(total) {
			before := goroutinetest.Count()
			model, err := mm.FitMulti(fitctxtest.NewCountdown(at-1), train, y, extra)
			checkCancelledError(t, mm.Name(), at, total, err, model != nil, &head)
			goroutinetest.NoneLeft(t, before, fmt.Sprintf("a fit cancelled at check %d of %d", at, total))
		}
	})
}
