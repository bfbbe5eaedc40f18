//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPredictStopsWhileAStreamStalls: a stop signal while predict waits on
// a stream for its next block — the standard input, or a FIFO, whose
// writer sent a whole block of rows (8,192) and 100 more rows, then
// nothing, never closing it — ends predict at once, with status 128 + n, saying
// that predict was interrupted, and leaves no --out file, whole or
// temporary. predict heeds its signals between blocks: the stop cancelled
// its context and waited for the next block, which never came (the test
// failed at its minute's deadline).
func TestPredictStopsWhileAStreamStalls(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	model := threeClassModel(t, bin, dir)
	// part: a whole block of rows, and 100 rows of the next.
	var part bytes.Buffer
	full := 0
	for full == 0 || full%predictBlock != 0 {
		fmt.Fprintf(&part, "%d.5,%d.25\n", full%17, full%13)
		full++
	}
	for i := range 100 {
		fmt.Fprintf(&part, "%d.5,%d.25\n", i%17, i%13)
	}
	for _, tc := range []struct {
		from string
		sig  syscall.Signal
		code int
	}{
		{stdinName, syscall.SIGINT, 130},
		{"fifo", syscall.SIGTERM, 143},
		{stdinName, syscall.SIGHUP, 129},
	} {
		t.Run(fmt.Sprintf("%s %v", tc.from, tc.sig), func(t *testing.T) {
			work, in := t.TempDir(), t.TempDir()
			out := filepath.Join(work, "scores.tsv")
			from := tc.from
			cmd := exec.Command(bin, "predict", model, "--features", from, "--scores", "--out", out)
			// w, the stream's writer, sends part and stays open until
			// the test ends.
			var w io.WriteCloser
			if from == stdinName {
				r, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				cmd.Stdin, w = r, pw
				t.Cleanup(func() { r.Close() })
			} else {
				from = filepath.Join(in, "fifo")
				cmd.Args[4] = from
				if err := syscall.Mkfifo(from, 0o600); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			}
			opened := make(chan io.WriteCloser, 1)
			go func() {
				if w == nil { // the FIFO opens for writing once predict opens it
					f, err := os.OpenFile(from, os.O_WRONLY, 0)
					if err != nil {
						opened <- nil
						return
					}
					w = f
				}
				opened <- w
				_, _ = w.Write(part.Bytes()) // fails once predict ends
			}()
			defer func() {
				if w := <-opened; w != nil {
					w.Close()
				}
			}()
			// Ready once the temporary file holds the scores of the whole
			// blocks (but those its writer's buffer holds: up to 4,096
			// bytes, fewer than 1,000 lines) and stops growing: predict
			// waits for the rest of the next block, which never comes.
			size := int64(-1)
			ready := func() bool {
				entries, _ := os.ReadDir(work)
				if len(entries) == 0 {
					return false
				}
				info, err := entries[0].Info()
				if err != nil || info.Size() != size {
					size = -1
					if err == nil {
						size = info.Size()
					}
					return false
				}
				b, err := os.ReadFile(filepath.Join(work, entries[0].Name()))
				return err == nil && bytes.Count(b, []byte("\n")) > full-1000
			}
			code, stderr, took := signalWhen(t, cmd, ready, tc.sig)
			stopped := stoppedBy{tc.sig}.Error()
			if code != tc.code || !strings.Contains(stderr, stopped+": predicting with") || !strings.HasSuffix(stderr, ": interrupted\n") {
				t.Errorf("exit %d after %v, want %d, \"%s: predicting with ...: interrupted\":\n%s", code, took, tc.code, stopped, stderr)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 0 {
				t.Errorf("left %v", entries)
			}
		})
	}
}

// TestPredictStopsWhileReadingLabels: a stop signal while predict reads
// its --labels from a FIFO whose writer sent part of them and never closes
// it ends predict at once, with status 143, saying so, and leaves no --out
// file. A binary model's labels are read once its rows are scored, when
// predict heeds its signals: the stop cancelled its context, which the
// labels' reader never looks at, and predict waited for the rest of them
// (the test failed at its minute's deadline; once they came, predict wrote
// its scores and exited 143 "as the work finished"). A multi-class
// model's labels, read before any row is scored, stopped at once already.
func TestPredictStopsWhileReadingLabels(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	rows := "1,0\n0,1\n2,0\n0,2\n3,1\n1,3\n"
	X := writeText(t, dir, "X.csv", rows)
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	binary := filepath.Join(dir, "m.json")
	if code, out := runBinary(t, bin, nil, "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", binary); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, out)
	}
	for _, tc := range []struct{ name, model, features, part, said string }{
		// Heeding its signals, predict says what the stop interrupted;
		// not yet, the signal alone, as every command reading its inputs.
		{"binary", binary, X, "1\n-1\n", "stopped by SIGTERM: predicting with " + binary + " on X = " + X + ": interrupted\n"},
		{"multi-class", threeClassModel(t, bin, t.TempDir()), writeText(t, dir, "X3.csv", "0.5,0.25\n1.5,2.25\n"), "0\n", "stopped by SIGTERM\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			fifo, out := filepath.Join(work, "labels"), filepath.Join(work, "scores.txt")
			ready := stalledFIFO(t, fifo, tc.part)
			cmd := exec.Command(bin, "predict", tc.model, "--features", tc.features, "--labels", fifo, "--out", out)
			code, stderr, took := signalWhen(t, cmd, ready, syscall.SIGTERM)
			if code != 143 || stderr != "greedytl: "+tc.said {
				t.Errorf("exit %d after %v, want 143 and %q:\n%s", code, took, "greedytl: "+tc.said, stderr)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 1 {
				t.Errorf("left %v beside the FIFO", entries)
			}
		})
	}
}
