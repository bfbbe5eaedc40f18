package method

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// TestVirtualLabelsOverflow: an unlabelled row whose standardised source
// scores are finite but sum beyond float64 gets standardize.Mean's mean
// of them (the virtual label was +Inf: the sum's overflow went on), and a
// mean too large to standardise is an error naming the row, not ±Inf.
func TestVirtualLabelsOverflow(t *testing.T) {
	const n = 10
	y := []float64{1, 1, -1, -1, -1, -1}
	h := mat.NewDense(len(y), n, nil)
	for i, l := range y { // half the sources the labels plus an offset, half a pattern of their own
		for j := range n {
			if j%2 == 0 {
				h.Set(i, j, l+0.25*float64(i%2))
			} else {
				h.Set(i, j, float64(i%3))
			}
		}
	}
	sh := standardize.Fit(h)
	big := math.MaxFloat64 / 8 // each standardised score about MaxFloat64/8: ten overflow their sum
	hu := mat.NewDense(2, n, nil)
	for j := range n {
		hu.Set(0, j, sh.Mean[j]+big*sh.Scale[j])
		hu.Set(1, j, sh.Mean[j])
	}
	v, err := virtualLabels(context.Background(), sh, h, hu, y)
	if err != nil {
		t.Fatal(err)
	}
	zh, _ := sh.Transform(h)
	zhu, _ := sh.Transform(hu)
	var s float64
	for _, x := range zhu.RawRowView(0) {
		s += x
	}
	if !math.IsInf(s, 1) {
		t.Fatalf("the row's standardised scores sum to %v, want an overflow for the test", s)
	}
	// The labelled rows' h̄ and its class-balanced moments, as virtualLabels.
	zeta := lssvm.BalanceWeights(y)
	var mu, sd, w float64
	for i := range y {
		mu += zeta[i] * mean(zh.RawRowView(i))
		w += zeta[i]
	}
	mu /= w
	for i := range y {
		d := mean(zh.RawRowView(i)) - mu
		sd += zeta[i] * d * d
	}
	sd = math.Sqrt(sd / w)
	hbar := standardize.Mean(zhu.RawRowView(0), math.Inf(1))
	if want := standardize.Standardise(hbar, mu, sd); v[0] != want || math.IsInf(v[0], 0) {
		t.Errorf("virtual label of the large row = %v, want %v (finite)", v[0], want)
	}
	// A mean beyond what the labelled spread can standardise: an error.
	if !(sd < 1) {
		t.Fatalf("the labelled rows' class-balanced standard deviation of h̄ is %v, want below 1 for the test", sd)
	}
	for j := range n { // each standardised score MaxFloat64·sd^(1/4): their mean over sd overflows
		hu.Set(0, j, sh.Mean[j]+math.MaxFloat64*math.Sqrt(math.Sqrt(sd))*sh.Scale[j])
	}
	if v, err := virtualLabels(context.Background(), sh, h, hu, y); err == nil || !strings.Contains(err.Error(), "unlabelled row 0") {
		t.Errorf("virtual labels %v, error %v; want an error naming unlabelled row 0", v, err)
	}
}
