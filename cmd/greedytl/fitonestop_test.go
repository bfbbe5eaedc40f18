package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cancelOn is a standard error that cancels a context once a write holds
// its text.
type cancelOn struct {
	bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.text) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// TestFitWritesTheModelWhenStoppedInTheOneClassCheck: a stop (the context
// cancelled) after a multi-class fit, as fit checks that the model
// predicts more than one class for its training rows (warnTrainingClasses, which
// predicts them under the context), skips the check, not the model: fit
// writes the finished model and returns no error (execute then exits
// 128+n "as the work finished"). The context is cancelled by the warning
// that --seed has no effect, which fit gives just before the check. fit
// returned the check's context error and wrote nothing.
func TestFitWritesTheModelWhenStoppedInTheOneClassCheck(t *testing.T) {
	dir := t.TempDir()
	X := writeText(t, dir, "X.csv", "0,0\n0.1,0\n5,5\n5.1,5\n-5,5\n-5.1,5\n")
	y := writeText(t, dir, "y.txt", "a\na\nb\nb\nc\nc\n")
	out := filepath.Join(dir, "m.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOn{text: "--seed has no effect", cancel: cancel}
	var stdout bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &stdout, err: stderr}
	c := newFitCmd(s)
	c.SetArgs([]string{"--method", "nearest-mean", "--seed", "3", "--features", X, "--labels", y, "--out", out, "-q"})
	c.SetOut(&stdout)
	c.SetErr(stderr)
	err := c.ExecuteContext(ctx)
	if ctx.Err() == nil {
		t.Fatalf("the context was not cancelled (no seed warning): the test proves nothing\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("fit stopped in the one-class check: %v, want the model written\n%s", err, stderr.String())
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no model written: %v", err)
	}
}
