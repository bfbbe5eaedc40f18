package fitctx

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRequire(t *testing.T) {
	Require(context.Background(), "test") // no panic
	defer func() {
		if msg := fmt.Sprint(recover()); !strings.HasPrefix(msg, "test: nil context.Context") {
			t.Errorf("panic %q, want one naming the caller and the nil context", msg)
		}
	}()
	Require(nil, "test") //nolint:staticcheck // the nil context is the case under test
}

func TestStartAndFinish(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Start(live, "test"); err != nil {
		t.Errorf("Start(live) = %v", err)
	}
	if err := Start(done, "test"); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "test: fit interrupted") {
		t.Errorf("Start(done) = %v", err)
	}
	if v, err := Finish(live, 7, nil, "test"); v != 7 || err != nil {
		t.Errorf("Finish(live) = %v, %v", v, err)
	}
	if v, err := Finish(done, 7, nil, "test"); v != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("Finish(done) = %v, %v: want the context's error, not the result", v, err)
	}
	if _, err := Finish(done, 7, context.Canceled, "test"); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "test: fit interrupted") {
		t.Errorf("Finish(done, context.Canceled) = %v, want it wrapped naming the caller", err)
	}
	own := errors.New("own")
	if _, err := Finish(done, 7, own, "test"); err != own {
		t.Errorf("Finish(done, own error) = %v, want the fit's own error", err)
	}
}

// TestFinishSaysInterrupted: a context error that a method wrapped without
// an Interruption comes back as Err's, naming the caller; an Interruption
// (the root package's, with where it stopped), wrapped, is kept, as is an
// error that is not the context's.
func TestFinishSaysInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	wrapped := fmt.Errorf("method: l1-logistic: %w", context.Canceled)
	if v, err := Finish(ctx, 1, wrapped, "method: l1-logistic"); v != 1 || err == nil || err.Error() != "method: l1-logistic: fit interrupted: context canceled" || !errors.Is(err, context.Canceled) {
		t.Errorf("wrapped context error: %v, %v; want 1 (as given beside an error) and the words", v, err)
	}
	if v, err := Finish(ctx, 1, context.Canceled, "method: l1-logistic"); v != 1 || err == nil || err.Error() != "method: l1-logistic: fit interrupted: context canceled" {
		t.Errorf("bare context error: %v, %v; want 1 (as given beside an error) and the words", v, err)
	}
	said := fmt.Errorf("method: greedytl: %w", &Interruption{Caller: "greedytl.Fit", At: "after 3 steps", Err: context.Canceled})
	if _, err := Finish(ctx, 1, said, "method: greedytl"); err != said || err.Error() != "method: greedytl: greedytl.Fit: fit interrupted after 3 steps: context canceled" {
		t.Errorf("a wrapped Interruption: %v, want it unchanged", err)
	}
	other := errors.New("method: no-transfer: singular")
	if _, err := Finish(ctx, 1, other, "method: no-transfer"); err != other {
		t.Errorf("another error: %v, want it unchanged", err)
	}
}

// opaque wraps an error under a message of its own, as an error type that
// does not repeat its cause's words does.
type opaque struct{ err error }

func (o opaque) Error() string { return "the work stopped" }
func (o opaque) Unwrap() error { return o.err }

// TestFinishKnowsInterruptionByType: Finish tells an interruption by its
// type (errors.As), not by its words. A bare context error wrapped under a
// message that happens to hold "fit interrupted" (here a file's name) is
// no Interruption and comes back as Err's, naming the caller (matched by
// its text, it was kept, and the fit's error never named the fit); an
// Interruption wrapped under words of another's (opaque) is one and is
// kept (matched by its text, it was wrapped again, and the words of
// where it stopped were lost).
func TestFinishKnowsInterruptionByType(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	named := fmt.Errorf(`reading "fit interrupted.csv": %w`, context.Canceled)
	if _, err := Finish(ctx, 1, named, "method: ridge"); err == nil || err.Error() != "method: ridge: fit interrupted: context canceled" || !errors.Is(err, context.Canceled) {
		t.Errorf("a context error whose message holds the words: %v, want Err's", err)
	}
	inner := opaque{&Interruption{Caller: "greedytl.Fit", At: "after 2 steps", Err: context.Canceled}}
	_, err := Finish(ctx, 1, inner, "method: greedytl")
	var in *Interruption
	if err != inner || !errors.As(err, &in) || in.At != "after 2 steps" {
		t.Errorf("an Interruption under other words: %v, want it unchanged", err)
	}
}

// TestStopped: once ctx is done, Stopped returns the Interruption naming
// the caller whatever the work's error (a pool's cause, any error, or
// none); before, the work's error as it is.
func TestStopped(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("a sibling failed")
	cancel(cause)
	if err := Stopped(live, cause, "test"); err != cause {
		t.Errorf("Stopped(live, cause) = %v, want the cause", err)
	}
	if err := Stopped(live, nil, "test"); err != nil {
		t.Errorf("Stopped(live, nil) = %v", err)
	}
	for _, e := range []error{cause, nil} {
		err := Stopped(done, e, "test")
		var in *Interruption
		if err == nil || err.Error() != "test: fit interrupted: context canceled" || !errors.As(err, &in) || !errors.Is(err, context.Canceled) {
			t.Errorf("Stopped(done, %v) = %v, want the Interruption", e, err)
		}
	}
}

// TestInterruptionError: an Interruption's message names the caller, where
// it stopped when known, and the context's error; one made without an Err
// says the rest rather than panicking.
func TestInterruptionError(t *testing.T) {
	for _, c := range []struct {
		e    *Interruption
		want string
	}{
		{&Interruption{Caller: "greedytl.Fit", At: "after 3 steps", Err: context.Canceled}, "greedytl.Fit: fit interrupted after 3 steps: context canceled"},
		{&Interruption{Caller: "linear: training", Err: context.DeadlineExceeded}, "linear: training: fit interrupted: context deadline exceeded"},
		{&Interruption{Caller: "greedytl.Fit", At: "after 3 steps"}, "greedytl.Fit: fit interrupted after 3 steps"},
		{&Interruption{Caller: "linear: training"}, "linear: training: fit interrupted"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", *c.e, got, c.want)
		}
	}
}

// TestRowErr: a loop over rows checks its context at rows 0, Rows, 2·Rows,
// …, and only there, and gets ctx.Err() itself (unwrapped, for the caller
// to wrap) once ctx is done.
func TestRowErr(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 3*Rows + 1 {
		if err := RowErr(live, i); err != nil {
			t.Errorf("row %d, live context: %v, want nil", i, err)
		}
		err := RowErr(done, i)
		if due := i%Rows == 0; due && err != context.Canceled || !due && err != nil {
			t.Errorf("row %d, cancelled context: %v, want context.Canceled at a multiple of %d and nil elsewhere", i, err, Rows)
		}
	}
}
