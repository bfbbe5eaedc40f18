package method

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkNWay fits the recommended multi-class method (greedytl-nway) on
// 20 classes of 10 and of 100 examples (m = 200 and 2,000 rows), 800
// features and 200 source scores (1,000 candidate columns). Targets: at
// most 1 s a fit on one core at m = 200 (issue 15's 20-way 10-shot fit),
// and ten times the rows cost at most 15 times the time (issue 16)
// (go test ./method -run '^$' -bench NWay -cpu 1; cpu-ms/op is the
// process's CPU time per fit, which a loaded machine does not inflate).
func BenchmarkNWay(b *testing.B) {
	for _, shots := range []int{10, 100} {
		train, y, _, _ := multiProblem(1, 20, shots, 1, 800, 200)
		b.Run(fmt.Sprintf("m=%d", 20*shots), func(b *testing.B) {
			m, err := NewMulti(RecommendedMulti)
			if err != nil {
				b.Fatal(err)
			}
			start := processCPU()
			for b.Loop() {
				if _, err := m.FitMulti(context.Background(), train, y, Extra{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}
