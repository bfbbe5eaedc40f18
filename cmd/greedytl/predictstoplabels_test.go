package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cancelAtEOF reads r and cancels its context when r ends: a stop that
// comes as predict has read the last of its --labels.
type cancelAtEOF struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (c cancelAtEOF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.cancel()
	}
	return n, err
}

// TestBinaryPredictStopAfterTheLabels: a stop (the context cancelled)
// that comes once a binary predict has read its --labels, after it stopped
// waiting on them and before it writes, is an interruption: the context's
// error, saying so, and nothing written to --out nor standard output, as
// predict's help says. predict wrote --out and returned nil (exit 128+n
// "as the work finished").
func TestBinaryPredictStopAfterTheLabels(t *testing.T) {
	_, model, Xcsv := blockModel(t, 20, "greedytl", false)
	labels := strings.Repeat("1\n-1\n", 10)
	for _, toFile := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		s := &streams{in: cancelAtEOF{strings.NewReader(labels), cancel}, out: &out, err: &errOut}
		o := &predictOptions{model: model, out: stdinName}
		dir := t.TempDir()
		if toFile {
			o.out = filepath.Join(dir, "out.txt")
		}
		o.data = dataFlags{features: Xcsv, labels: stdinName, labelSettings: &labelSettings{header: "auto"}}
		err := runPredict(ctx, s, o)
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") || out.Len() != 0 {
			t.Errorf("--out %v: error %v, %d bytes on standard output; want the interruption, nothing", toFile, err, out.Len())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("--out %v: left %v", toFile, entries)
		}
		if _, err := os.Stat(stdinName); err == nil {
			t.Fatalf("wrote a file named %q", stdinName)
		}
	}
}
