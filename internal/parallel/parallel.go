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
	feed(ctx, n, items, nil)
	wg.Wait()
	return context.Cause(ctx)
}

// ForLowest is For for a job whose error is part of its result: it returns
// the error of the lowest item that fails, whatever the order in which the
// workers finish (For returns the first in time, which may differ from run
// to run), or ctx's error (ctx.Err(), not its cause) when ctx is done. It
// still stops early: after the first failure it hands out no further item
// and starts none above the lowest failed one (the items are handed out in
// order, so every one left is above the failed one), and when item i fails
// it cancels, with i's error as the cause, the context of each item in
// progress above i — only those: an item below i runs to its end, since
// its error, if any, is the one to return. Each item's context is its own,
// derived from ctx.
func ForLowest(ctx context.Context, n, workers int, work func(ctx context.Context, i int) error) error {
	workers = Count(workers)
	var (
		mu      sync.Mutex
		lowest  = n // the lowest item that failed; n while none has
		lowErr  error
		running = make(map[int]context.CancelCauseFunc)
		failed  = make(chan struct{}) // closed at the first failure
	)
	items := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range items {
				mu.Lock()
				if i > lowest { // handed out as an item below failed
					mu.Unlock()
					continue
				}
				ictx, cancel := context.WithCancelCause(ctx)
				running[i] = cancel
				mu.Unlock()
				err := work(ictx, i)
				mu.Lock()
				delete(running, i)
				cancel(nil)
				if err != nil && i < lowest {
					if lowest == n {
						close(failed)
					}
					lowest, lowErr = i, err
					for j, c := range running {
						if j > i {
							c(err)
						}
					}
				}
				mu.Unlock()
			}
		})
	}
	feed(ctx, n, items, failed)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return lowErr
}

// feed hands the items 0, …, n−1 out on items, in order, until ctx is
// done or stop is closed (a nil stop: never), then closes items.
func feed(ctx context.Context, n int, items chan<- int, stop <-chan struct{}) {
	defer close(items)
	for i := range n {
		if ctx.Err() != nil {
			return
		}
		select {
		case items <- i:
		case <-ctx.Done():
			return
		case <-stop:
			return
		}
	}
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
