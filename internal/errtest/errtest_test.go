package errtest

import (
	"errors"
	"fmt"
	"testing"
)

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

// recorder is a testing.TB that records what Errorf reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestRefusesAndPanics: Refuses passes an error that contains want and
// follows OnePrefix, and reports a nil error, another error, a nested
// prefix and a panic; Panics passes a string panic with the prefix and
// want, and reports no panic, a runtime error, another prefix and another
// message.
func TestRefusesAndPanics(t *testing.T) {
	var nilMap map[string]int
	for _, c := range []struct {
		name string
		run  func(tb testing.TB)
		fail bool
	}{
		{"Refuses, the error", func(tb testing.TB) {
			Refuses(tb, "x", "no rows", func() error { return errors.New("linear: no rows") })
		}, false},
		{"Refuses, nil", func(tb testing.TB) { Refuses(tb, "x", "no rows", func() error { return nil }) }, true},
		{"Refuses, another error", func(tb testing.TB) { Refuses(tb, "x", "no rows", func() error { return errors.New("linear: bad") }) }, true},
		{"Refuses, two prefixes", func(tb testing.TB) {
			Refuses(tb, "x", "no rows", func() error { return errors.New("linear: linear: no rows") })
		}, true},
		{"Refuses, a panic", func(tb testing.TB) { Refuses(tb, "x", "no rows", func() error { panic("boom") }) }, true},
		{"Panics, the message", func(tb testing.TB) { Panics(tb, "x", "sparse: ", "nil", func() { panic("sparse: nil CSR") }) }, false},
		{"Panics, none", func(tb testing.TB) { Panics(tb, "x", "sparse: ", "nil", func() {}) }, true},
		{"Panics, a runtime error", func(tb testing.TB) { Panics(tb, "x", "sparse: ", "nil", func() { nilMap["a"] = 1 }) }, true},
		{"Panics, another prefix", func(tb testing.TB) { Panics(tb, "x", "sparse: ", "nil", func() { panic("linear: nil") }) }, true},
		{"Panics, another message", func(tb testing.TB) { Panics(tb, "x", "sparse: ", "nil", func() { panic("sparse: short") }) }, true},
	} {
		r := &recorder{TB: t}
		c.run(r)
		if failed := len(r.errs) > 0; failed != c.fail {
			t.Errorf("%s: reported %q, want a report %v", c.name, r.errs, c.fail)
		}
	}
}
