package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"syscall"
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

// pacedWriter takes pause for each 4 KiB it is given (rounded up), a
// reader that reads slowly but steadily, and records the sizes of the
// writes it is given; after limit bytes (when > 0) it fails, as a pipe
// whose reader has gone does.
type pacedWriter struct {
	bytes.Buffer
	pause time.Duration
	limit int
	sizes []int
}

func (w *pacedWriter) Write(p []byte) (int, error) {
	time.Sleep(w.pause * time.Duration((len(p)+4095)/4096))
	w.sizes = append(w.sizes, len(p))
	if w.limit > 0 && w.Len()+len(p) > w.limit {
		n, _ := w.Buffer.Write(p[:w.limit-w.Len()])
		return n, syscall.EPIPE
	}
	return w.Buffer.Write(p)
}

// TestStopWriterKeepsEveryByte: a stopWriter writes what it is given, in
// order, once each, without a stop, and with a stop that comes while its
// writes are slow but end within stopGrace (a reader that reads: the
// write finishes, as predict's help says); a write still blocked stopGrace
// after the stop is given up with the context's error (writeGivenUp), and
// so is every later write, without writing it. A reader that reads
// slowly (5 ms per 4 KiB) keeps every byte of a 64 KiB write after the
// stop, though the whole takes longer than stopGrace: the grace is per
// piece, and the pieces end at line ends. A write error passes through.
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
	var big bytes.Buffer
	for i := 0; big.Len() < 64<<10; i++ {
		fmt.Fprintf(&big, "%d\t%.17g\n", i, float64(i)/7)
	}
	{
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		pw := &pacedWriter{pause: 5 * time.Millisecond}
		sw := newStopWriter(ctx, pw)
		if n, err := sw.Write(big.Bytes()); n != big.Len() || err != nil {
			t.Errorf("a %d-byte write to a slow reader after the stop: %d, %v", big.Len(), n, err)
		}
		sw.close()
		if !bytes.Equal(pw.Bytes(), big.Bytes()) {
			t.Errorf("the slow reader took %d bytes, want the %d given", pw.Len(), big.Len())
		}
		at := 0
		for i, n := range pw.sizes {
			at += n
			if n > stopPiece || i < len(pw.sizes)-1 && big.Bytes()[at-1] != '\n' {
				t.Errorf("piece %d: %d bytes, ending in %q; want at most %d, ending a line", i, n, big.Bytes()[at-1], stopPiece)
			}
		}
	}
	{
		pw := &pacedWriter{limit: 6000}
		sw := newStopWriter(context.Background(), pw)
		if n, err := sw.Write(big.Bytes()); n != 6000 || !errors.Is(err, syscall.EPIPE) {
			t.Errorf("a write to a writer failing after 6000 bytes: %d, %v; want 6000, EPIPE", n, err)
		}
		sw.close()
	}
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
