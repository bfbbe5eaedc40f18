package greedytl

import (
	"math"
	"testing"
)

// TestPathUsable pins the numerical-breakdown check that the exact search's
// scoring and the float32 screen's rescoring share (path.usable): a pivot c
// that is not positive and finite, or an aᵀz t whose square is not finite,
// is greedytl.Fit's breakdown error naming the step, both numbers and λ;
// usable numbers are no error. (TestFitErrors' breakdown rows stop at
// another check first.)
func TestPathUsable(t *testing.T) {
	p := &path{lambda: 0.001, sel: []int{4, 7}}
	for _, tc := range []struct {
		c, t float64
		want string
	}{
		{1, 1, ""},
		{1e-300, -1e150, ""},
		{0, 1, "greedytl.Fit: numerical breakdown at step 3 (pivot 0, aᵀz = 1): λ = 0.001 is too small for these data"},
		{-2, 1, "greedytl.Fit: numerical breakdown at step 3 (pivot -2, aᵀz = 1): λ = 0.001 is too small for these data"},
		{math.NaN(), 1, "greedytl.Fit: numerical breakdown at step 3 (pivot NaN, aᵀz = 1): λ = 0.001 is too small for these data"},
		{math.Inf(1), 1, "greedytl.Fit: numerical breakdown at step 3 (pivot +Inf, aᵀz = 1): λ = 0.001 is too small for these data"},
		{1, math.NaN(), "greedytl.Fit: numerical breakdown at step 3 (pivot 1, aᵀz = NaN): λ = 0.001 is too small for these data"},
		{1, math.Inf(-1), "greedytl.Fit: numerical breakdown at step 3 (pivot 1, aᵀz = -Inf): λ = 0.001 is too small for these data"},
		{1, 1e200, "greedytl.Fit: numerical breakdown at step 3 (pivot 1, aᵀz = 1e+200): λ = 0.001 is too small for these data"},
	} {
		err := p.usable(tc.c, tc.t)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("usable(%v, %v) = %v; want nil", tc.c, tc.t, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("usable(%v, %v) = %v; want %q", tc.c, tc.t, err, tc.want)
		}
	}
}
