package greedytl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"gonum.org/v1/gonum/mat"
)

// Issue 18, row 8: the Go API's entry points. A nil context is the one
// documented panic (a caller's bug, as in the standard library); nil and
// inconsistent data and models are errors.

func TestFitNilContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	X := randDense(rng, 6, 3)
	y := []float64{1, -1, 1, -1, 1, -1}
	defer func() {
		r := recover()
		if msg := fmt.Sprint(r); r == nil || !strings.HasPrefix(msg, "greedytl.Fit: nil context.Context") {
			t.Errorf("Fit(nil, …): panic %v, want one naming the nil context.Context", r)
		}
	}()
	Fit(nil, X, nil, y, DefaultOptions()) //nolint:staticcheck // the nil context is the case under test
}

// TestPredictInconsistentModel predicts with models built by hand whose
// fields disagree: every one is an error, never a panic; the consistent
// model they derive from predicts Σ_j w_j (v_j − mean_j)/scale_j.
func TestPredictInconsistentModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	X, H := randDense(rng, 5, 3), randDense(rng, 5, 4)
	good := func() *Model {
		return &Model{
			Selected:    []Column{{Kind: Source, Index: 3}, {Kind: Feature, Index: 0}},
			Weights:     []float64{0.5, -2},
			Mean:        []float64{0.1, -0.3},
			Scale:       []float64{2, 0.5},
			NumFeatures: 3,
			NumSources:  4,
		}
	}
	f, err := good().Predict(X, H)
	if err != nil {
		t.Fatalf("consistent model: %v", err)
	}
	for i, v := range f {
		want := 0.5*(H.At(i, 3)-0.1)/2 - 2*(X.At(i, 0)+0.3)/0.5
		if math.Abs(v-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("row %d: f = %v, want %v", i, v, want)
		}
	}
	for _, c := range []struct {
		name   string
		change func(m *Model)
		want   string
	}{
		{"weights shorter than Selected", func(m *Model) { m.Weights = m.Weights[:1] }, "1 weights"},
		{"weights nil", func(m *Model) { m.Weights = nil }, "0 weights"},
		{"means shorter", func(m *Model) { m.Mean = m.Mean[:1] }, "1 means"},
		{"scales longer", func(m *Model) { m.Scale = append(m.Scale, 1) }, "3 scales"},
		{"feature index out of range", func(m *Model) { m.Selected[1].Index = 3 }, "out of range"},
		{"source index out of range", func(m *Model) { m.Selected[0].Index = 9 }, "out of range"},
		{"negative index", func(m *Model) { m.Selected[1].Index = -1 }, "out of range"},
		{"invalid kind", func(m *Model) { m.Selected[0].Kind = Kind(7) }, "invalid kind"},
		{"a column twice", func(m *Model) { m.Selected[0] = m.Selected[1] }, "selected twice"},
		{"NaN weight", func(m *Model) { m.Weights[0] = math.NaN() }, "weight is NaN"},
		{"infinite mean", func(m *Model) { m.Mean[1] = math.Inf(1) }, "mean is +Inf"},
		{"zero scale", func(m *Model) { m.Scale[0] = 0 }, "scale must be positive"},
		{"negative column count", func(m *Model) { m.NumFeatures = -1 }, "invalid column counts"},
		{"zero value", func(m *Model) { *m = Model{} }, "invalid column counts"},
	} {
		m := good()
		c.change(m)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Predict panicked: %v", c.name, r)
				}
			}()
			if _, err := m.Predict(X, H); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
			}
		}()
	}
	var nilModel *Model
	if _, err := nilModel.Predict(X, H); err == nil || !strings.Contains(err.Error(), "nil *Model") {
		t.Errorf("nil *Model: err = %v", err)
	}
	if err := nilModel.WriteJSON(new(strings.Builder)); err == nil {
		t.Error("WriteJSON of a nil *Model: no error")
	}
}

// TestFitCancelledAtEachCheck cancels Fit at each of its context checks in
// turn (exact and sampled search, one λ and AutoLambda's grid): a fit
// whose context is done by the time it returns returns the context's
// error, and a fit that returns a model was never cancelled.
func TestFitCancelledAtEachCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 33))
	m := 12
	X, H := randDense(rng, m, 6), randDense(rng, m, 40)
	y := randLabels(rng, m)
	for _, o := range []Options{
		DefaultOptions(),
		{Lambda: 1, Delta: 0, FeatureFactor: 1, Sample: 5, Seed: 3},
		{Delta: 1e-4, FeatureFactor: 1, AutoLambda: true},
	} {
		// The number of checks of an uncancelled fit.
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := Fit(all, X, H, y, o); err != nil {
			t.Fatal(err)
		}
		n := all.Calls()
		if n < 3 {
			t.Fatalf("%+v: only %d context checks", o, n)
		}
		for k := range n + 1 {
			ctx := fitctxtest.NewCountdown(k)
			mod, err := Fit(ctx, X, H, y, o)
			done := ctx.Cancelled()
			switch {
			case done && !errors.Is(err, context.Canceled):
				t.Errorf("%+v, cancelled at check %d of %d: err = %v, model %v: want context.Canceled", o, k+1, n, err, mod != nil)
			case !done && err != nil:
				t.Errorf("%+v, not cancelled (%d checks): %v", o, n, err)
			case err != nil && mod != nil:
				t.Errorf("%+v: a model with an error", o)
			}
		}
	}
}

// TestFitSetupChecksContext: the exact search's setup, which reads every
// candidate column twice (its statistics, then the standardised block it
// writes), checks its context about once per setupCheck values on each
// pass, so that a fit of a tall sample stops soon after a cancel during its
// setup. (Row-major statistics are gathered statBlock columns at a time,
// statBlock·m values a check: setupCheck at the m = 1024 of this test.)
// Before, writing the block (m·N values, half a second at m = 20,000 and
// N = 5,000 on a loaded machine) ran without a check, and reading columns
// laid out contiguously checked every 16,384 columns whatever m. It counts
// the checks whose cancellation the setup reports ("while standardising"),
// cancelling the fit at each check in turn (fitctxtest.Countdown).
func TestFitSetupChecksContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 34))
	m, N := 1024, 4096 // 2²² values: 4 checks a pass
	X := randDense(rng, m, N)
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.MaxK = 1
	for _, layout := range []struct {
		name string
		X    mat.Matrix
	}{
		{"row-major", X},
		{"column-major (the transpose of an N×m matrix)", mat.DenseCopyOf(X.T()).T()},
	} {
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := Fit(all, layout.X, nil, y, o); err != nil {
			t.Fatal(err)
		}
		setup := 0
		for k := range all.Calls() {
			_, err := Fit(fitctxtest.NewCountdown(k), layout.X, nil, y, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s, cancelled at check %d: %v", layout.name, k+1, err)
			}
			if strings.Contains(err.Error(), "while standardising") {
				setup++
			}
		}
		if want := 2 * m * N / setupCheck; setup < want {
			t.Errorf("%s: the setup of %d × %d values checked its context %d times, want at least %d (one per %d values read or written)", layout.name, m, N, setup, want, setupCheck)
		}
	}
}

// TestKindText: a Kind prints and encodes as "feature" or "source"; any
// other value prints as Kind(n) and does not encode, as the docs say.
func TestKindText(t *testing.T) {
	for k, want := range map[Kind]string{Feature: "feature", Source: "source"} {
		b, err := k.MarshalText()
		if k.String() != want || string(b) != want || err != nil {
			t.Errorf("Kind %d: String %q, MarshalText %q, %v; want %q", int(k), k.String(), b, err, want)
		}
	}
	if s := Kind(5).String(); s != "Kind(5)" {
		t.Errorf("Kind(5).String() = %q", s)
	}
	if _, err := Kind(5).MarshalText(); err == nil {
		t.Error("Kind(5).MarshalText: no error")
	}
}
