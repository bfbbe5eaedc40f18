package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/goroutinetest"
)

func TestForVisitsEachItemOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 2}, {1, 0}, {7, 1}, {100, 3}, {5, 16}} {
		var mu sync.Mutex
		seen := make([]int, tc.n)
		var active, most atomic.Int32
		err := For(context.Background(), tc.n, tc.workers, func(_ context.Context, i int) error {
			a := active.Add(1)
			defer active.Add(-1)
			for {
				m := most.Load()
				if a <= m || most.CompareAndSwap(m, a) {
					break
				}
			}
			mu.Lock()
			seen[i]++
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Errorf("n=%d workers=%d: %v", tc.n, tc.workers, err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("n=%d workers=%d: item %d done %d times", tc.n, tc.workers, i, c)
			}
		}
		if tc.workers > 0 && int(most.Load()) > tc.workers {
			t.Errorf("n=%d workers=%d: %d calls at once", tc.n, tc.workers, most.Load())
		}
	}
}

func TestForStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	var cancelled atomic.Bool
	err := For(context.Background(), 1000, 2, func(ctx context.Context, i int) error {
		calls.Add(1)
		switch i {
		case 0: // in progress when item 1 fails: its context is cancelled
			<-ctx.Done()
			cancelled.Store(true)
		case 1:
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want %v", err, boom)
	}
	// Items 0 and 1, and at most one more handed out while the error was
	// being signalled.
	if c := calls.Load(); c > 3 {
		t.Errorf("%d calls after an error at item 1 with 2 workers", c)
	}
	if !cancelled.Load() {
		t.Error("the call in progress did not see its context cancelled")
	}
}

func TestForCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	err := For(ctx, 1000, 2, func(context.Context, int) error {
		if calls.Add(1) == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if c := calls.Load(); c >= 1000 {
		t.Errorf("%d calls after cancelling at the 10th", c)
	}
}

func TestWorkers(t *testing.T) {
	for _, tc := range []struct{ values, workers, want int }{
		{0, 0, 1}, {MinWork - 1, 4, 1}, {MinWork, 4, 4}, {MinWork, 0, 0}, {10 * MinWork, -1, -1},
	} {
		if got := Workers(tc.values, tc.workers); got != tc.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", tc.values, tc.workers, got, tc.want)
		}
	}
}

// TestForReturnsTheFirstError: the siblings of a call that fails see
// their context cancelled and fail in turn, with errors of their own (as
// a fit does, wrapping its context's error, or a write cut short); For
// returns the first failure's error, not one of theirs, whatever the
// number of workers, and leaves no worker running.
func TestForReturnsTheFirstError(t *testing.T) {
	first := errors.New("first")
	for _, workers := range []int{2, 4, 8} {
		before := goroutinetest.Count()
		var started sync.WaitGroup
		started.Add(workers - 1)
		err := For(context.Background(), 100, workers, func(ctx context.Context, i int) error {
			if i == workers-1 {
				started.Wait() // every sibling is in progress
				return first
			}
			if i < workers-1 {
				started.Done()
			}
			<-ctx.Done()
			return fmt.Errorf("item %d: later: %w", i, ctx.Err())
		})
		if !errors.Is(err, first) || err.Error() != "first" {
			t.Errorf("%d workers: error %v, want %v", workers, err, first)
		}
		goroutinetest.NoneLeft(t, before, fmt.Sprintf("For on %d workers", workers))
	}
}

// TestForLowestReturnsTheLowestError: item 1 fails first in time, item 0
// later; ForLowest returns item 0's error every time (For would return
// item 1's), lets item 0 run to its end uncancelled, cancels item 2 (in
// progress, above the failure) with item 1's error as the cause, calls no
// item handed out after the failure, and leaves no worker running.
func TestForLowestReturnsTheLowestError(t *testing.T) {
	for run := range 20 {
		before := goroutinetest.Count()
		err0, err1 := errors.New("item 0"), errors.New("item 1")
		started2, failed1 := make(chan struct{}), make(chan struct{})
		var ctx0Err, cause2 error
		var later atomic.Int32
		err := ForLowest(context.Background(), 100, 3, func(ctx context.Context, i int) error {
			switch i {
			case 0:
				<-failed1
				select { // For would cancel it here, with item 1's error
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
				ctx0Err = ctx.Err()
				return err0
			case 1:
				<-started2
				close(failed1)
				return err1
			case 2:
				close(started2)
				select {
				case <-ctx.Done():
					cause2 = context.Cause(ctx)
				case <-time.After(10 * time.Second):
				}
				return fmt.Errorf("item 2: %w", ctx.Err())
			}
			later.Add(1)
			return nil
		})
		if err != err0 {
			t.Fatalf("run %d: error %v, want item 0's", run, err)
		}
		if ctx0Err != nil {
			t.Errorf("run %d: item 0, below the failure, saw its context done: %v", run, ctx0Err)
		}
		if cause2 != err1 {
			t.Errorf("run %d: item 2, in progress above the failure, was cancelled with cause %v, want item 1's error", run, cause2)
		}
		if c := later.Load(); c != 0 {
			t.Errorf("run %d: %d items above the failure were called", run, c)
		}
		goroutinetest.NoneLeft(t, before, "ForLowest")
	}
}

// TestForLowestCancelled: once its context is cancelled, whatever the
// cause, ForLowest returns the context's error (context.Canceled, as the
// fits' checks do), not the cause nor an item's error.
func TestForLowestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("the caller's cause")
	var calls atomic.Int32
	err := ForLowest(ctx, 1000, 2, func(ctx context.Context, i int) error {
		if calls.Add(1) == 10 {
			cancel(cause)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("item %d: %w", i, context.Cause(ctx))
		}
		return nil
	})
	if err != context.Canceled {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if c := calls.Load(); c >= 1000 {
		t.Errorf("%d calls after cancelling at the 10th", c)
	}
}
