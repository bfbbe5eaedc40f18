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
// saying Interrupted comes back as Err's, naming the caller; one that says
// it already (the root package's, with where it stopped) is kept, as is an
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
	said := fmt.Errorf("method: greedytl: greedytl.Fit: fit interrupted after 3 steps: %w", context.Canceled)
	if _, err := Finish(ctx, 1, said, "method: greedytl"); err != said {
		t.Errorf("an error saying %q: %v, want it unchanged", "fit interrupted", err)
	}
	other := errors.New("method: no-transfer: singular")
	if _, err := Finish(ctx, 1, other, "method: no-transfer"); err != other {
		t.Errorf("another error: %v, want it unchanged", err)
	}
}
