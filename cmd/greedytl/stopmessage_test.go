package main

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
)

// TestPrintedErrorDropsContextTail checks that the message of a command
// stopped by a signal ends with what was interrupted, not with the
// context's "context canceled" (or "context deadline exceeded"), Go's
// words, which it ended with ("stopped by SIGTERM: method: greedytl-auto:
// fit interrupted: context canceled"): fit's, predict's, experiment's
// (which returns the signal, named once) and a bare cancellation; the
// printed error still is the cancellation and the signal.
func TestPrintedErrorDropsContextTail(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stoppedBy{syscall.SIGTERM})
	predict := &predictOptions{model: "m.json", data: dataFlags{features: "X.npy"}}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"fit", fmt.Errorf("method: greedytl-auto: fit interrupted: %w", context.Canceled), "stopped by SIGTERM: method: greedytl-auto: fit interrupted"},
		{"predict", predict.interrupted(context.Canceled), "stopped by SIGTERM: predicting with m.json on X = X.npy: interrupted"},
		{"experiment", fmt.Errorf("experiment: %w", context.Cause(ctx)), "experiment: stopped by SIGTERM"},
		{"bare", context.Canceled, "stopped by SIGTERM"},
	} {
		got := printedError(ctx, tc.err)
		if got.Error() != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if !errors.Is(got, context.Canceled) || !errors.As(got, new(stoppedBy)) {
			t.Errorf("%s: %v is not context.Canceled and the signal", tc.name, got)
		}
	}
	deadline := fmt.Errorf("linear: training: fit interrupted: %w", &canceledDeadline{})
	if got, want := printedError(ctx, deadline).Error(), "stopped by SIGTERM: linear: training: fit interrupted"; got != want {
		t.Errorf("deadline: %q, want %q", got, want)
	}
	if err := fmt.Errorf("x: %w", context.Canceled); printedError(context.Background(), err) != err {
		t.Errorf("no signal: the error changed")
	}
}

// canceledDeadline is a cancellation worded as a deadline's.
type canceledDeadline struct{}

func (*canceledDeadline) Error() string        { return context.DeadlineExceeded.Error() }
func (*canceledDeadline) Is(target error) bool { return target == context.Canceled }
