package method

import (
	"context"
	"testing"
)

// BenchmarkNWay fits the recommended multi-class method (greedytl-nway) on
// a 20-way 10-shot problem: 200 examples, 800 features and 200 source
// scores (1,000 candidate columns). Target: at most 1 s a fit on one core
// (go test ./method -run '^$' -bench NWay -cpu 1; cpu-ms/op is the
// process's CPU time per fit, which a loaded machine does not inflate).
func BenchmarkNWay(b *testing.B) {
	train, y, _, _ := multiProblem(1, 20, 10, 1, 800, 200)
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
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
}
