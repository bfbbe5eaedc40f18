package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// slowWriter sleeps before each write, a reader that reads slowly.
type slowWriter struct {
	bytes.Buffer
	pause time.Duration
	calls atomic.Int32
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.pause)
	w.calls.Add(1)
	return w.Buffer.Write(p)
}

// TestStopWriterKeepsEveryByte: a stopWriter writes what it is given, in
// order, once each, without a stop, and with a stop that comes while its
// writes are slow but end within stopGrace (a reader that reads: the
// write finishes, as predict's help says); a write still blocked stopGrace
// after the stop is given up with the context's error (writeGivenUp), and
// so is every later write, without writing it.
func TestStopWriterKeepsEveryByte(t *testing.T) {
	var want bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&want, "%d\t%g\n", i, float64(i)/7)
	}
	for _, stop := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		w := &slowWriter{pause: time.Millisecond}
		sw := newStopWriter(ctx, w)
		for i, line := range bytes.SplitAfter(want.Bytes(), []byte("\n")) {
			if stop && i == 50 {
				cancel()
			}
			if n, err := sw.Write(line); n != len(line) || err != nil {
				t.Fatalf("stop %v: write %d: %d, %v", stop, i, n, err)
			}
		}
		sw.close()
		cancel()
		if !bytes.Equal(w.Bytes(), want.Bytes()) {
			t.Errorf("stop %v: wrote %d bytes, want the %d given", stop, w.Len(), want.Len())
		}
	}

	defer func(d time.Duration) { stopGrace = d }(stopGrace)
	stopGrace = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &slowWriter{pause: time.Second}
	sw := newStopWriter(ctx, w)
	start := time.Now()
	if _, err := sw.Write([]byte("a\n")); !errors.As(err, new(writeGivenUp)) || !errors.Is(err, context.Canceled) {
		t.Errorf("a write blocked after the stop: %v, want it given up", err)
	}
	if took := time.Since(start); took > 900*time.Millisecond {
		t.Errorf("the write given up after %v, want about %v", took, stopGrace)
	}
	if _, err := sw.Write([]byte("b\n")); !errors.As(err, new(writeGivenUp)) {
		t.Errorf("a write after one given up: %v, want it given up", err)
	}
	time.Sleep(1100 * time.Millisecond) // the blocked write ends
	if n := w.calls.Load(); n != 1 {
		t.Errorf("%d writes made, want the first only", n)
	}
}
