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

// Err returns nil while ctx is not done, and afterwards its error as an
// *Interruption naming the caller, "<caller>: fit interrupted: <ctx.Err()>"
// (errors.Is finds context.Canceled or context.DeadlineExceeded in it).
func Err(ctx context.Context, caller string) error {
	if err := ctx.Err(); err != nil {
		return &Interruption{Caller: caller, Err: err}
	}
	return nil
}

// interrupted is the words of every fit's error when its context is done
// (Interruption.Error).
const interrupted = "fit interrupted"

// Interruption is the error of a fit whose context is done, the one type
// that every fit's interruption is (errors.As finds it however it is
// wrapped): "<Caller>: fit interrupted: <Err>", or with At, where the fit
// stopped, "<Caller>: fit interrupted <At>: <Err>" (the root package's:
// "greedytl.Fit: fit interrupted after 3 steps: context canceled").
type Interruption struct {
	Caller string // who was interrupted: "greedytl.Fit", "linear: training"
	At     string // where it stopped ("after 3 steps"), or ""
	Err    error  // the context's error, ctx.Err()
}

// Error returns "<Caller>: fit interrupted[ <At>]: <Err>", without ": <Err>"
// for an Interruption made without an Err.
func (e *Interruption) Error() string {
	msg := e.Caller + ": " + interrupted
	if e.At != "" {
		msg += " " + e.At
	}
	if e.Err == nil {
		return msg
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns the context's error, for errors.Is.
func (e *Interruption) Unwrap() error { return e.Err }

// Stopped returns Err(ctx, caller) once ctx is done, whatever err, and err
// otherwise: the error of work that ctx's end may have stopped short — a
// pool of a fit's items (parallel.For and ForLowest return ctx's cause,
// which a caller's context.WithCancelCause makes any error, or whichever
// item noticed first), a solver that returned early — is the
// interruption's, naming the caller, once ctx is done.
func Stopped(ctx context.Context, err error, caller string) error {
	if cerr := Err(ctx, caller); cerr != nil {
		return cerr
	}
	return err
}

// Finish returns (v, err) unchanged when err is not nil or ctx is not done,
// and otherwise the zero value and Err(ctx, caller): a fit whose context
// is done by the time it has finished returns the context's error, not its
// result. A context error that is no Interruption (an inner loop's
// ctx.Err(), bare or wrapped by the method: "method: l1-logistic: context
// canceled") is returned as Err returns it, so that every cancelled fit's
// error is an Interruption naming the caller; v, what the fit returned
// beside its error, is returned as given whatever the error (only a
// result, returned without an error, is withheld).
func Finish[T any](ctx context.Context, v T, err error, caller string) (T, error) {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return v, &Interruption{Caller: caller, Err: err}
	}
	var in *Interruption
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) && !errors.As(err, &in) {
		return v, &Interruption{Caller: caller, Err: ctx.Err()}
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

// Rows is the number of rows a loop whose every row is O(m) work or more
// (the LS-SVM builders' O(m²) loops, DAM's solve, the multinomial's
// held-out scoring) runs between two checks of its context (RowErr): at
// most a few milliseconds between checks for m ≤ 100,000.
const Rows = 64

// RowErr returns ctx.Err() when row i of such a loop is a multiple of Rows
// (row 0 included: a loop checks before its first row), and nil otherwise.
// The caller wraps the error as its other checks do.
func RowErr(ctx context.Context, i int) error {
	if i%Rows != 0 {
		return nil
	}
	return ctx.Err()
}
