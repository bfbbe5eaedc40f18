package method

import (
	"context"
	"testing"
)

// BenchmarkFit1000 fits a method at 10 + 10 examples with 1,000 candidate
// columns (800 features, 200 sources; the size of the COIL-100 and CLINC150
// runs), one core's work per fit: greedytl-auto's target is ≤ 100 ms
// (go test ./method -run '^$' -bench Fit1000 -cpu 1).
func BenchmarkFit1000(b *testing.B) {
	c := newConformanceCase(31, 20, 10, 800, 200)
	for _, name := range []string{"greedytl", "greedytl-auto", "logme-source", "stacked-logistic"} {
		b.Run(name, func(b *testing.B) {
			meth, err := New(name)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := meth.Fit(context.Background(), c.train, c.extra); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
