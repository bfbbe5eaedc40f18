package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/goroutinetest"
	"github.com/greedytl/greedytl/method"
)

// blockingMethod's Fit tells blockingEntered that it started (or gives up
// telling when its context is done first), then waits for its context to
// be done and returns its error, wrapped: a fit in progress when a run is
// cancelled.
const blockingMethod = "test-blocking"

// blockingEntered receives a value each time a blockingMethod fit starts.
var blockingEntered = make(chan struct{})

// blocking is blockingMethod's Method.
type blocking struct{}

func (blocking) Name() string        { return blockingMethod }
func (blocking) Needs() method.Needs { return method.Needs{} }
func (blocking) Fit(ctx context.Context, _ method.Data, _ method.Extra) (method.Model, error) {
	select {
	case blockingEntered <- struct{}{}:
	case <-ctx.Done():
	}
	<-ctx.Done()
	return nil, fmt.Errorf("%s: fit interrupted: %w", blockingMethod, ctx.Err())
}

func init() {
	method.Register(method.Registration{
		Name: blockingMethod, Description: "a test method whose fit waits for its context to be done",
		New:    func() method.Method { return blocking{} },
		Decode: func(json.RawMessage) (method.Model, error) { return nil, errors.New("test models have no file") },
	})
}

// TestRunWorkersGiveTheSameRecords: a run on several workers (more than
// the machine's cores, so that the groups' cells finish in another order)
// writes the records of a run on one worker, but for the fits' timings —
// binary and N-way, with methods whose fits run pools of their own
// (greedytl-auto's committees, l1-logistic's leave-one-out folds).
func TestRunWorkersGiveTheSameRecords(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	for _, tc := range []struct {
		name string
		cfg  func(out string) Config
	}{
		{"binary", func(out string) Config {
			return testConfig(f, out, src, "greedytl", "greedytl-auto", "l1-logistic", "no-transfer")
		}},
		{"nway", func(out string) Config {
			cfg := nwayConfig(out, src, "nearest-mean", "simpleshot", "no-transfer")(t)
			cfg.Data = f
			return cfg
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs [][]*Record
			for _, workers := range []int{1, 4} {
				cfg := tc.cfg(t.TempDir())
				cfg.Workers = workers
				before := goroutinetest.Count()
				sum, err := Run(context.Background(), cfg)
				if err != nil {
					t.Fatalf("%d workers: %v", workers, err)
				}
				goroutinetest.NoneLeft(t, before, fmt.Sprintf("a run on %d workers", workers))
				if sum.Failed != 0 {
					t.Fatalf("%d workers: %d cells failed: %+v", workers, sum.Failed, sum.Failures)
				}
				r := readRecords(t, sum.File)
				for _, rec := range r {
					rec.RunID = "" // each run has its own
				}
				recs = append(recs, r)
			}
			sameRecords(t, recs[0], recs[1])
		})
	}
}

// TestRunCancelledMidFit cancels a run while fits are in progress on every
// worker: Run returns promptly with the context's error (errors.Is finds
// it), writes no record of the interrupted fits — they are not failures
// of their method — and leaves no goroutine behind.
func TestRunCancelledMidFit(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	const workers = 3
	cfg := testConfig(f, t.TempDir(), src, allNegMethod, blockingMethod)
	cfg.Workers = workers
	before := goroutinetest.Count()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		sum *Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := Run(ctx, cfg)
		done <- result{sum, err}
	}()
	for range workers { // a fit in progress on every worker
		select {
		case <-blockingEntered:
		case res := <-done:
			t.Fatalf("the run ended before its fits blocked: %+v, %v", res.sum, res.err)
		case <-time.After(time.Minute):
			cancel()
			t.Fatal("no fit of the blocking method started within a minute")
		}
	}
	cancel()
	start := time.Now()
	var res result
	select {
	case res = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return within a minute of its context's cancellation")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run returned %v after its context's cancellation", d)
	}
	if !errors.Is(res.err, context.Canceled) || res.sum == nil {
		t.Fatalf("cancelled mid-fit: %+v, %v; want a summary and context.Canceled", res.sum, res.err)
	}
	recs := readRecords(t, res.sum.File)
	for _, r := range recs {
		if r.Method == blockingMethod || r.Error != "" {
			t.Errorf("record of an interrupted fit: %+v", r)
		}
	}
	if res.sum.Failed != 0 || len(recs) != res.sum.Finished {
		t.Errorf("summary %+v with %d records", res.sum, len(recs))
	}
	goroutinetest.NoneLeft(t, before, "a run cancelled mid-fit")
}
