package greedytl

import (
	"context"
	"fmt"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/mat"
)

// Fit runs GreedyTL on the m training examples: X (m×d) holds the target
// features and H (m×n) the source hypotheses' scores on the same examples;
// either may be absent (no features, or no sources): nil, a typed nil or
// an empty matrix such as the zero mat.Dense (inputcheck.Absent). y holds
// the labels, +1 or −1, with both classes present. Fit does not modify its
// inputs. *mat.Dense inputs (and their transposes via T()) are read
// directly; other mat.Matrix implementations through At.
//
// Every column is standardised with its training mean and population
// standard deviation, feature columns are then multiplied by
// opts.FeatureFactor, and columns that are constant on the training set are
// never selected (see doc.go). The greedy loop adds, at each step, the
// column that most increases the score s(S) = yᵀK_S(K_S + λI)⁻¹y; ties go to
// the lowest candidate index, features (in column order) before sources
// (in column order). It stops when the best gain in mean regularised error
// is below opts.Delta (that column is not added), when opts.MaxK columns are
// selected, or when no candidate is left.
//
// Fit returns an error, and never a model holding NaN, when: X or H does not
// have len(y) rows; y is not ±1 or holds one class only; len(y) < 2; X or
// H holds a NaN or ±Inf value (the error names the matrix, row and column;
// with opts.Sample > 0 only the columns the search reads are checked); an
// option is invalid (λ not positive and finite without AutoLambda; δ or γ
// negative, NaN or ±Inf; Sample < 0; MaxK < 0); every column is constant;
// λ is too small (or γ too large) for the
// data to be factorised reliably; γ < 1 is so small that a selected
// feature's divisor, its standard deviation over γ, overflows float64 (a
// subnormal γ, or a standard deviation near MaxFloat64), which no model can
// hold; or ctx is done before Fit returns (the
// error wraps ctx.Err(); ctx is checked during setup, once per step, and
// once more at the end, so no model is returned after ctx is done). It
// panics when ctx is nil (see the package documentation).
func Fit(ctx context.Context, X, H mat.Matrix, y []float64, opts Options) (*Model, error) {
	if err := fitctx.Start(ctx, "greedytl.Fit"); err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, fmt.Errorf("greedytl.Fit: invalid options: %w", err)
	}
	in, err := newInputs("greedytl.Fit", X, H, y, opts.FeatureFactor)
	if err != nil {
		return nil, err
	}
	y = append([]float64(nil), y...)
	lambdas := []float64{opts.Lambda}
	if opts.AutoLambda {
		lambdas = lambdaGrid
	}
	var e engine
	if opts.Sample > 0 {
		se := newSample(in, opts.Sample, opts.Seed)
		if se.sweepWorth(opts.MaxK, len(lambdas)) {
			se.sweep()
		}
		e = se
	} else if e, err = newExact(ctx, in, y); err != nil {
		return nil, err
	}
	defer e.release()
	var best *Model
	bestLOO := 0.0
	for _, lambda := range lambdas {
		p, err := run(ctx, e, y, lambda, &opts)
		if err != nil {
			return nil, err
		}
		mod, err := finish(e, p, in, opts)
		p.release()
		if err != nil {
			return nil, err
		}
		// The grid ascends, so "≤" breaks ties towards the larger λ.
		if loo := mod.looError(); best == nil || loo <= bestLOO {
			best, bestLOO = mod, loo
		}
	}
	return fitctx.Finish(ctx, best, nil, "greedytl.Fit")
}

// finish turns a finished path into a model: it truncates the path at the
// lowest LOO error if asked, and computes the weights and the last step's
// errors from a fresh factorisation.
func finish(e engine, p *path, in *inputs, opts Options) (*Model, error) {
	k := len(p.sel)
	if opts.StopAtMinLOO && k > 0 {
		kk := 0
		for j, l := range p.loo[:k] {
			if l < p.loo[kk] {
				kk = j
			}
		}
		k = kk + 1
	}
	opts.Lambda = p.lambda
	mod := newModel(k, in.d, in.n, opts)
	if k == 0 {
		return mod, nil
	}
	w, reg, loo, err := p.weights(k)
	if err != nil {
		return nil, err
	}
	mod.Weights = w
	p.reg[k-1], p.loo[k-1] = reg, loo
	m := float64(p.m)
	for j, s := range p.sel[:k] {
		c := column(e.global(s), in.d)
		st := e.stats(s)
		if !inputcheck.PositiveFinite(st.scale) {
			return nil, errScaleOverflow(opts.FeatureFactor, c)
		}
		mod.Selected[j] = c
		mod.Mean[j], mod.Scale[j] = st.mean, st.scale
		mod.Path[j] = Step{Column: c, Score: m * (1 - p.reg[j]), RegError: p.reg[j], LOOError: p.loo[j]}
	}
	return mod, nil
}
