package text_test

import (
	"fmt"
	"testing"

	"github.com/greedytl/greedytl/text"
)

// BenchmarkTransform transforms CLINC150's 4,500 test queries after fitting
// on its 15,000 training queries (shared data; skipped when absent).
func BenchmarkTransform(b *testing.B) {
	train, test := clincSplit(b, "train"), clincSplit(b, "test")
	for _, dim := range []int{0, 1024, 1 << 18} {
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			v := text.Vectorizer{Dim: dim}
			if err := v.Fit(train); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := v.Transform(test); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(test))/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// BenchmarkFit fits on CLINC150's 15,000 training queries.
func BenchmarkFit(b *testing.B) {
	train := clincSplit(b, "train")
	for _, dim := range []int{0, 1024} {
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			for b.Loop() {
				v := text.Vectorizer{Dim: dim}
				if err := v.Fit(train); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
