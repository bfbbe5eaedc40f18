package method

import (
	"context"
	"math"
	"strings"
	"testing"
)

// The input checks of every binary method's Fit said "method: X row 3
// column 4 is NaN", naming no method, where its context errors say
// "method: greedytl-auto: fit interrupted: …": the checks' errors now
// start with the same name as the context's (fitCaller), once, followed by
// the check's own words.
func TestFitInputErrorsNameTheMethod(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := newConformanceMethod(t, name).Fit(ctx, cloneData(base.train), base.extra)
			caller, _, ok := strings.Cut(errString(err), ": fit interrupted")
			if !ok || !strings.HasPrefix(caller, "method: ") && !strings.Contains(caller, "greedytl.Fit") {
				t.Fatalf("Fit with a cancelled context: %v", err)
			}
			for _, tc := range []struct {
				what   string
				mutate func(*Data)
				want   string
			}{
				{"a NaN in X", func(d *Data) { dense(d.X).Set(3, 4, math.NaN()) }, "X row 3 column 4 is NaN"},
				{"one class", func(d *Data) {
					for i := range d.Y {
						d.Y[i] = 1
					}
				}, "y holds one class only"},
				{"no data", func(d *Data) { *d = Data{} }, "need at least 2 training examples (one of each class), got 0"},
				{"a label short", func(d *Data) { d.Y = d.Y[:len(d.Y)-1] }, "X has 24 rows but y has 23 labels"},
			} {
				tr := cloneData(base.train)
				tc.mutate(&tr)
				_, err := newConformanceMethod(t, name).Fit(context.Background(), tr, base.extra)
				msg := errString(err)
				if !strings.HasPrefix(msg, caller+": "+tc.want) || strings.Count(msg, caller) != 1 {
					t.Errorf("Fit with %s: %q; want %q", tc.what, msg, caller+": "+tc.want+"…")
				}
			}
		})
	}
}

// errString is err's message, "<nil>" for none.
func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
