//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestFitJSONStoppedMessage: fit --json stopped by SIGINT while it fits
// reports the error as standard error prints it, after "greedytl: ":
// "stopped by SIGINT: method: greedytl-auto: fit interrupted: context
// canceled" (execute names the signal; the report's message lacked it).
func TestFitJSONStoppedMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("a fit of some seconds, stopped")
	}
	bin := buildGreedytl(t)
	dir := t.TempDir()
	var b strings.Builder
	next := uniform(1)
	var yb strings.Builder
	for range 4000 {
		for j := range 300 {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(next(), 'g', 5, 64))
		}
		b.WriteByte('\n')
		if next() < 0 {
			yb.WriteString("-1\n")
		} else {
			yb.WriteString("1\n")
		}
	}
	x := writeText(t, dir, "x.csv", b.String())
	y := writeText(t, dir, "y.txt", yb.String())
	cmd := exec.Command(bin, "fit", "--features", x, "--labels", y, "--out", filepath.Join(dir, "m.json"), "--json")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	code, stderr, _ := signalWhen(t, cmd, readAll(cmd, x, 1), syscall.SIGINT)
	const want = "stopped by SIGINT: "
	if code != 130 || !strings.HasPrefix(stderr, "greedytl: "+want) {
		t.Fatalf("exit %d, stderr %q; want 130 and %q", code, stderr, want)
	}
	var rep struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Error == nil {
		t.Fatalf("stdout %q (%v); want the failure report", stdout.String(), err)
	}
	if printed := strings.TrimSuffix(strings.TrimPrefix(stderr, "greedytl: "), "\n"); rep.Error.Message != printed {
		t.Errorf("the report's message %q; want it as printed, %q", rep.Error.Message, printed)
	}
}

// TestPredictStopsOnSIGTERM: SIGTERM while predict --scores --out writes
// the scores of a large file (once it has written some), read in blocks
// or whole from the standard input, ends it with status 143, saying that predict
// was interrupted (it heeds the signal between blocks of rows), and
// leaves no output, whole or temporary.
func TestPredictStopsOnSIGTERM(t *testing.T) {
	bin := buildGreedytl(t)
	dir := t.TempDir()
	model := threeClassModel(t, bin, dir)
	var big bytes.Buffer
	for i := range 400000 {
		fmt.Fprintf(&big, "%d.5,%d.25\n", i%17, i%13)
	}
	test := writeText(t, dir, "test.csv", big.String())
	for name, from := range map[string]string{"file": test, "stdin": stdinName} {
		t.Run(name, func(t *testing.T) {
			work := t.TempDir()
			out := filepath.Join(work, "scores.tsv")
			// Ready once the temporary file holds more than the header: rows of
			// a block, scored after predict heeds its signals (the file itself is
			// created before: a signal then ended predict at once, not saying
			// "interrupted").
			ready := func() bool {
				entries, _ := os.ReadDir(work)
				if len(entries) == 0 {
					return false
				}
				info, err := entries[0].Info()
				return err == nil && info.Size() > 1000
			}
			cmd := exec.Command(bin, "predict", model, "--features", from, "--scores", "--out", out)
			if from == stdinName { // read whole, then scored in blocks
				f, err := os.Open(test)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdin = f
			}
			code, stderr, _ := signalWhen(t, cmd, ready, syscall.SIGTERM)
			if code == 0 {
				t.Skip("predict finished before the signal")
			}
			if code != 143 || !strings.Contains(stderr, "stopped by SIGTERM") || !strings.Contains(stderr, "interrupted\n") || strings.Contains(stderr, "context canceled") {
				t.Errorf("exit %d, want 143, \"stopped by SIGTERM\" and \"interrupted\" ending the line, without \"context canceled\":\n%s", code, stderr)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 0 {
				t.Errorf("left %v", entries)
			}
		})
	}
}
