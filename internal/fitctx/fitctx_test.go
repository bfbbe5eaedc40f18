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
