package clinc150

import "testing"

// BenchmarkLoad measures decoding the embedded file, fitting the IDF and
// building the full 23,700 × 1,024 feature matrix.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRaw measures decoding the embedded file alone.
func BenchmarkRaw(b *testing.B) {
	for b.Loop() {
		if _, _, err := Raw(); err != nil {
			b.Fatal(err)
		}
	}
}
