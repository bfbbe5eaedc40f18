// Package fitctx holds the module's one convention for the context a fit
// takes, so that greedytl.Fit and every method's Fit treat it alike.
//
// A nil context is a caller's bug, as in the standard library ("Do not
// pass a nil Context, even if a function permits it", package context):
// Require panics on it with a message saying so, at the entry, before any
// work. Any other context is honoured: a fit returns the context's error,
// wrapped, when the context is done before the fit starts (Start), while
// it runs (checked by the fit's own loops) or by the time it has finished
// (Finish) — a fit never returns a model after its context is done.
package fitctx

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Require panics when ctx is nil, naming the caller (for example
// "greedytl: Fit").
func Require(ctx context.Context, caller string) {
	if ctx == nil {
		panic(caller + ": nil context.Context (a caller's bug, as in the standard library: pass context.Background() when there is no other)")
	}
}

// Start requires a non-nil ctx (see Require) and returns ctx's error,
// wrapped and naming the caller, when ctx is already done.
func Start(ctx context.Context, caller string) error {
	Require(ctx, caller)
	return Err(ctx, caller)
}

// Err returns nil while ctx is not done, and afterwards its error wrapped
// as "<caller>: fit interrupted: <ctx.Err()>" (errors.Is finds
// context.Canceled or context.DeadlineExceeded in it).
func Err(ctx context.Context, caller string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %s: %w", caller, Interrupted, err)
	}
	return nil
}

// Interrupted is the words of every fit's error when its context is done:
// Err's ("<caller>: fit interrupted: context canceled"), and the root
// package's, which say where the fit stopped ("greedytl.Fit: fit
// interrupted after 3 steps: …").
const Interrupted = "fit interrupted"

// Finish returns (v, err) unchanged when err is not nil or ctx is not done,
// and otherwise the zero value and Err(ctx, caller): a fit whose context
// is done by the time it has finished returns the context's error, not its
// result. A context error that does not say Interrupted (an inner loop's
// ctx.Err(), bare or wrapped by the method: "method: l1-logistic: context
// canceled") is returned as Err returns it, so that every cancelled fit's
// message names the caller and says Interrupted; v, what the fit returned
// beside its error, is returned as given whatever the error (only a
// result, returned without an error, is withheld).
func Finish[T any](ctx context.Context, v T, err error, caller string) (T, error) {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return v, fmt.Errorf("%s: %s: %w", caller, Interrupted, err)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) && !strings.Contains(err.Error(), Interrupted) {
		return v, fmt.Errorf("%s: %s: %w", caller, Interrupted, ctx.Err())
	}
	if err != nil {
		return v, err
	}
	if err := Err(ctx, caller); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
