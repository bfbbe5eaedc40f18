package greedytl

import (
	"context"
	"fmt"

	"github.com/greedytl/greedytl/internal/fitctx"
)

// The search: an engine (exact or sampled, exact.go and sample.go) proposes
// the next column, the path (path.go) keeps the dual quantities and the
// record of each step, and run drives them until the stopping rule holds.

// engine is a search strategy over the candidate columns: exact (every
// candidate scored from O(N) running quantities) or sampled (a few
// candidates scored directly). Slots are the engine's own numbering of the
// non-constant candidates.
type engine interface {
	// reset starts a new path with ridge parameter lambda.
	reset(lambda float64) error
	// pick returns the slot of the best candidate given the path's state
	// (G, a and the selected slots), or -1 when no candidate is left.
	pick(p *path) (int, error)
	// added updates the engine after slot s joined the path. g = G z and
	// c = 1 + zᵀg were computed with the G before the step, tc = (aᵀz)/c;
	// the path's G and a are already updated, and refreshed reports whether
	// they were just recomputed from a factorisation.
	added(p *path, s int, g []float64, c, tc float64, refreshed bool)
	// release hands the engine's buffers back for reuse; the engine must
	// not be used afterwards.
	release()
	// col returns the standardised values of slot s (length m; read only).
	col(s int) []float64
	// global returns the candidate index of slot s (features first).
	global(s int) int
	// stats returns the training statistics of slot s.
	stats(s int) colStats
	// scale returns the feature factor γ and the β of the path (see
	// featureScale), from whether a feature may be a candidate.
	scale() featureScale
}

// featureScale is a search's feature factor γ and the β of its path (see
// path), the largest squared norm per example of a candidate column: γ²
// for a feature when it exceeds a source's 1 and a feature may be a
// candidate, else 1. Without candidate features γ does not matter: its
// square may overflow (γ > 1e154), which as β would break the path down at
// its first step. Every breakdown message names γ by its one rule,
// gammaNamed.
type featureScale struct {
	gamma float64 // the feature factor γ
	beta  float64 // the β of Ĝ
}

// newFeatureScale returns the featureScale of γ = gamma, with features
// when a feature may be a candidate.
func newFeatureScale(gamma float64, features bool) featureScale {
	if !features {
		return featureScale{gamma: gamma, beta: 1}
	}
	return featureScale{gamma: gamma, beta: max(1, gamma*gamma)}
}

// gammaNamed reports whether a numerical breakdown may be γ's as well as
// λ's: γ scales a candidate feature beyond the sources (β > 1).
func (f featureScale) gammaNamed() bool { return f.beta > 1 }

// run performs the greedy selection with engine e until the stopping rule
// of opts holds, and returns the finished path.
func run(ctx context.Context, e engine, y []float64, lambda float64, opts *Options) (*path, error) {
	if err := e.reset(lambda); err != nil {
		return nil, err
	}
	p := newPathFor(y, lambda, e.scale(), opts.MaxK, opts.Sample)
	m := float64(p.m)
	for opts.MaxK == 0 || len(p.sel) < opts.MaxK {
		if err := ctx.Err(); err != nil {
			return nil, &fitctx.Interruption{Caller: "greedytl.Fit", At: fmt.Sprintf("after %d steps", len(p.sel)), Err: err}
		}
		s, err := e.pick(p)
		if err != nil {
			return nil, err
		}
		if s < 0 {
			break
		}
		z := e.col(s)
		// The gain s(S ∪ {i}) − s(S) = λ t²/c is recomputed here from G
		// and a rather than taken from the engine's running values.
		c, t, err := p.score(z)
		if err != nil {
			return nil, err
		}
		if lambda*t*t/c/m < opts.Delta {
			break
		}
		refreshed, err := p.add(s, z, c, t)
		if err != nil {
			return nil, err
		}
		e.added(p, s, p.g, c, t/c, refreshed)
		if err := p.record(); err != nil {
			return nil, err
		}
	}
	return p, nil
}
