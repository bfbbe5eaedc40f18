package method

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/greedytl/greedytl"
	"gonum.org/v1/gonum/mat"
)

// TestRidgeUnbaggedStopsOnProducts: a stop (SIGINT, a cancelled context)
// that comes once the Gram's cross-products exist, as the ridge member
// solves on them, ends the fit with the context's error. Before, the
// solve indexed the weights RidgeFromProducts had not returned (nil on
// its error) and the committee's goroutine panicked: index out of range
// [0] with length 0 (cmd's TestFitJSONStoppedMessage, as CI saw it).
func TestRidgeUnbaggedStopsOnProducts(t *testing.T) {
	const m, n = 60, 12
	rng := rand.New(rand.NewPCG(3, 60))
	Z := mat.NewDense(m, n, nil)
	y := make([]float64, m)
	for i := range m {
		for j := range n {
			Z.Set(i, j, rng.NormFloat64())
		}
		y[i] = 1
		if Z.At(i, 0)+0.3*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	// Z centred, as the committee gives it; y the labels ±1.
	for j := range n {
		var s float64
		for i := range m {
			s += Z.At(i, j)
		}
		for i := range m {
			Z.Set(i, j, Z.At(i, j)-s/m)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gram := func() (*greedytl.Gram, error) {
		g, err := greedytl.NewGram(ctx, Z, nil, y)
		cancel() // the stop arrives now: after the products, before the solve
		return g, err
	}
	if _, _, _, ok := mustGram(t, Z, y).Products(); !ok {
		t.Fatal("this Gram keeps no cross-products: the test would not reach the solve on them")
	}
	w, _, _, err := ridgeUnbagged(ctx, Z, y, gram)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ridgeUnbagged after a stop: weights %v, error %v; want context.Canceled", w, err)
	}
}

func mustGram(t *testing.T, Z *mat.Dense, y []float64) *greedytl.Gram {
	t.Helper()
	g, err := greedytl.NewGram(context.Background(), Z, nil, y)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
