package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPredictStopsWhileStdoutIsUnread: a stop signal while predict writes
// its output to a pipe that is never read (predict --scores | (sleep
// 1000)) — the pipe full, predict blocked in a write — ends predict
// promptly with status 128 + n, saying it was interrupted, for a
// multi-class model's --scores (written block by block) and a binary
// model's scores (written once all are scored). predict heeded the stop
// only between blocks or once the write returned, which it never did: it
// hung until the test's minute (exit only on a second signal).
func TestPredictStopsWhileStdoutIsUnread(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	multi := threeClassModel(t, bin, dir)
	var train, labels, test strings.Builder
	for i := range 30 {
		fmt.Fprintf(&train, "%d,%d\n", i%2*5, i%5)
		fmt.Fprintln(&labels, i%2)
	}
	binary := filepath.Join(dir, "binary.json")
	if code, out := runBinary(t, bin, nil, "fit", "--method", "no-transfer", "--features", writeText(t, dir, "Xb.csv", train.String()), "--labels", writeText(t, dir, "yb.txt", labels.String()), "--out", binary, "-q"); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, out)
	}
	// 50,000 rows: megabytes of scores, many times a pipe's buffer.
	for i := range 50000 {
		fmt.Fprintf(&test, "%d.5,%d.25\n", i%17, i%13)
	}
	X := writeText(t, dir, "X.csv", test.String())
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
	}{
		{"multi-class --scores", []string{"predict", multi, "--features", X, "--scores"}, syscall.SIGTERM, 143},
		{"multi-class --scores", []string{"predict", multi, "--features", X, "--scores"}, syscall.SIGINT, 130},
		{"binary", []string{"predict", binary, "--features", X}, syscall.SIGTERM, 143},
	} {
		t.Run(fmt.Sprintf("%s %v", tc.name, tc.sig), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close() // never read
			cmd := exec.Command(bin, tc.args...)
			cmd.Stdout = w
			// Ready once the pipe is full and stays so: predict is blocked
			// writing to it.
			full, since := 0, time.Time{}
			ready := func() bool {
				n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ) // FIONREAD: the bytes in the pipe
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 || n != full {
					full, since = n, time.Now()
					return false
				}
				return time.Since(since) > 200*time.Millisecond
			}
			code, stderr, took := signalWhen(t, cmd, ready, tc.sig)
			w.Close()
			stopped := stoppedBy{tc.sig}.Error()
			if code != tc.code || !strings.Contains(stderr, stopped+": predicting with") || !strings.HasSuffix(stderr, ": interrupted\n") {
				t.Errorf("exit %d, want %d and \"%s: predicting with ...: interrupted\":\n%s", code, tc.code, stopped, stderr)
			}
			if limit := stopGrace + 5*time.Second; took > limit {
				t.Errorf("took %v after the signal, want < %v", took, limit)
			}
			t.Logf("pipe held %d bytes; stopped %v after the signal", full, took)
		})
	}
}
