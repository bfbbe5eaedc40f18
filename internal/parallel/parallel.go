// Package parallel runs the independent items of a job on a pool of
// worker goroutines that stops at the first error.
package parallel

import (
	"context"
	"runtime"
	"sync"
)

// For calls work(ctx, i) for i = 0, …, n−1 on a pool of workers goroutines
// (≤ 0: GOMAXPROCS), handing out the items in order. At the first error,
// or when ctx is done, it stops handing out items and cancels the context
// given to work; it waits for the calls in progress and returns that error
// (ctx's cause, if ctx was cancelled), or nil when every call returned nil.
func For(ctx context.Context, n, workers int, work func(ctx context.Context, i int) error) error {
	workers = Count(workers)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	items := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range items {
				if err := work(ctx, i); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		select {
		case items <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(items)
	wg.Wait()
	return context.Cause(ctx)
}

// MinWork is the size of a job's input, in values (rows × columns), below
// which Workers runs it on one goroutine: such a job takes milliseconds,
// and handing its items to other cores costs more than it saves when the
// cores are busy (issue 16: a second core slowed small fits down).
const MinWork = 100_000

// Count returns the number of workers a count of workers stands for, as
// For reads it: the count itself, or GOMAXPROCS for a count ≤ 0.
func Count(workers int) int {
	if workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// Workers returns the number of workers For should use for a job over
// values input values: 1 below MinWork, else workers as given — a count ≤ 0
// is returned as it is, for For to read as GOMAXPROCS.
func Workers(values, workers int) int {
	if values < MinWork {
		return 1
	}
	return workers
}
