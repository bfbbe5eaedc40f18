package linear

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTRONStopsWhenItsModelIsNaN: with a bias whose square overflows,
// TRON's gradient at 0 overflows (1e308) or its trust-region model and
// objective become NaN after a first step (1e305), so that no step is ever
// accepted and its iteration count never grows: it looped until
// interrupted (train -s 2 -B 1e308, or -s 0 -B 1e305, ran for minutes). It
// must stop at once, as numerically stuck (Converged false, Stuck true:
// not the iteration cap, which it never neared), for -s 0 and -s 2,
// training and cross-validating. The context's deadline is only the
// test's guard against the loop.
func TestTRONStopsWhenItsModelIsNaN(t *testing.T) {
	x, y := readHeartScale(t)
	for _, bias := range []float64{1e305, 1e308} {
		prob := &Problem{X: x, Y: y, Bias: bias}
		for _, s := range []Solver{L2RL2LossSVC, L2RLR} {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			m, err := Train(ctx, prob, Params{Solver: s, C: 1})
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%v, bias %g: Train was still running after 20 s", s, bias)
			}
			if err == nil && (m.Converged || !m.Stuck) {
				t.Errorf("%v, bias %g: Converged %v, Stuck %v; want a model reported stuck, its objective overflowing", s, bias, m.Converged, m.Stuck)
			}
			if bias == 1e308 && err != nil {
				t.Errorf("%v, bias %g: %v, want the (stuck) model at 0", s, bias, err)
			}
			_, err = CrossValidate(ctx, prob, Params{Solver: s, C: 1}, 3, 1)
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%v, bias %g: CrossValidate was still running after 20 s", s, bias)
			}
			cancel()
		}
	}
}

// TestTRONStopAtCap: TRON stopped by its iteration cap reports it as the
// cap (Converged false, Stuck false), not as stuck; run to its tolerance it
// reports neither.
func TestTRONStopAtCap(t *testing.T) {
	x, y := readHeartScale(t)
	prob := &Problem{X: x, Y: y, Bias: 1}
	for _, s := range []Solver{L2RL2LossSVC, L2RLR} {
		m, err := Train(context.Background(), prob, Params{Solver: s, C: 1, Eps: 1e-12, MaxIter: 1})
		if err != nil || m.Converged || m.Stuck {
			t.Errorf("%v, MaxIter 1, eps 1e-12: Converged %v, Stuck %v, err %v; want the cap", s, m != nil && m.Converged, m != nil && m.Stuck, err)
		}
		m, err = Train(context.Background(), prob, Params{Solver: s, C: 1})
		if err != nil || !m.Converged || m.Stuck {
			t.Errorf("%v: Converged %v, Stuck %v, err %v; want converged", s, m != nil && m.Converged, m != nil && m.Stuck, err)
		}
	}
}
