package errtest

import "testing"

func TestOnePrefix(t *testing.T) {
	for _, tc := range []struct {
		check func(string) error
		msg   string
		ok    bool
	}{
		{OnePrefix, "method: y row 2 is 0: labels must be +1 or -1", true},
		{OnePrefix, "greedytl-auto: ridge member: linear: ridge: fit interrupted: context canceled", true},
		{OnePrefix, "greedytl.Fit: λ = 1e-300 is too small for these data", true},
		{OnePrefix, "greedytl:sample=59: greedytl.Fit: fit interrupted: context canceled", true},
		{OnePrefix, "x.csv:2: column 2 is NaN", true},
		{OnePrefix, "method: greedytl: greedytl: fit interrupted: context canceled", false},
		{OnePrefix, "method: greedytl.Fit: λ too small", false},
		{OnePrefix, "method: best-source: oracle data: method: X has 3 columns", false},
		{OnePrefix, "linear: ridge: linear: ridge: singular", false},
		{OnePrefix, "greedytl-auto: greedytl-auto: ridge", false},
		{OnePrefix, "greedytl.Fit: greedytl.Model.Predict: x", false},
		{CommandMessage, "greedytl: fitting greedytl on X = X.csv: greedytl.Fit: λ = 1e-300 is too small", true},
		{CommandMessage, "greedytl: X.csv:2: column 2 is NaN", true},
		{CommandMessage, "greedytl: experiment: bad input", true},
		{CommandMessage, "greedytl: greedytl: x", false},
		{CommandMessage, "greedytl: fitting greedytl on X.csv: greedytl: λ too small", false},
		{CommandMessage, "fitting greedytl: x", false},
		{CommandMessage, "greedytl: fitting dam on X.csv: method: dam: method: X row 0 column 0 is NaN", false},
	} {
		if err := tc.check(tc.msg); (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.msg, err, tc.ok)
		}
	}
}
