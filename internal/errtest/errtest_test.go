package errtest

import "testing"

func TestOnePrefix(t *testing.T) {
	for _, tc := range []struct {
		msg string
		ok  bool
	}{
		{"method: y row 2 is 0: labels must be +1 or -1", true},
		{"greedytl-auto: ridge member: linear: ridge: fit interrupted: context canceled", true},
		{"greedytl.Fit: λ = 1e-300 is too small for these data", true},
		{"greedytl:sample=59: greedytl.Fit: fit interrupted: context canceled", true},
		{"x.csv:2: column 2 is NaN", true},
		{"method: greedytl: greedytl: fit interrupted: context canceled", false},
		{"method: greedytl.Fit: λ too small", false},
		{"method: best-source: oracle data: method: X has 3 columns", false},
		{"linear: ridge: linear: ridge: singular", false},
		{"greedytl-auto: greedytl-auto: ridge", false},
		{"greedytl.Fit: greedytl.Model.Predict: x", false},
	} {
		if err := OnePrefix(tc.msg); (err == nil) != tc.ok {
			t.Errorf("OnePrefix(%q) = %v, want ok %v", tc.msg, err, tc.ok)
		}
	}
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"greedytl: fitting greedytl on X = X.csv: greedytl.Fit: λ = 1e-300 is too small", true},
		{"greedytl: X.csv:2: column 2 is NaN", true},
		{"greedytl: experiment: bad input", true},
		{"greedytl: greedytl: x", false},
		{"greedytl: fitting greedytl on X.csv: greedytl: λ too small", false},
		{"fitting greedytl: x", false},
		{"greedytl: fitting dam on X.csv: method: dam: method: X row 0 column 0 is NaN", false},
	} {
		if err := CommandMessage(tc.line); (err == nil) != tc.ok {
			t.Errorf("CommandMessage(%q) = %v, want ok %v", tc.line, err, tc.ok)
		}
	}
}
