package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"gonum.org/v1/gonum/mat"
)

// failingCancellingModel cancels its context as it fails to score rows.
type failingCancellingModel struct {
	method.MultiModel
	cancel context.CancelFunc
}

var errModelFailed = errors.New("the model's own error")

func (c failingCancellingModel) Scores(method.Data) (*mat.Dense, error) {
	c.cancel()
	return nil, errModelFailed
}

func (c failingCancellingModel) Predict(method.Data) ([]int, error) {
	c.cancel()
	return nil, errModelFailed
}

// TestPredictStopInTheLastBlock: a stop (the context cancelled) while
// predict scores its last or only block of rows — a file of one block or
// the standard input read whole, a model scored whole — is an
// interruption: the context's error, saying so, and nothing written to
// --out (nor, without --scores, to standard output). predict wrote every
// row and returned nil, once the model had scored them (exit 128+n "as the
// work finished"). So too when the model fails as the context is
// cancelled: the error is the interruption, not the model's error (which
// it was, wrapped as "interrupted" while not the context's).
func TestPredictStopInTheLastBlock(t *testing.T) {
	model, features := streamProblem(t) // 1,000 rows: one block
	body, err := os.ReadFile(features)
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{features, stdinName} {
		for _, fails := range []bool{false, true} {
			for _, scores := range []bool{false, true} {
				for _, toFile := range []bool{false, true} {
					ctx, cancel := context.WithCancel(context.Background())
					var m method.MultiModel = cancellingModel{model, cancel}
					if fails {
						m = failingCancellingModel{model, cancel}
					}
					var out, errOut bytes.Buffer
					s := &streams{in: bytes.NewReader(body), out: &out, err: &errOut}
					o := &predictOptions{model: "m.json", scores: scores}
					dir := t.TempDir()
					if toFile {
						o.out = filepath.Join(dir, "out.txt")
					}
					o.data = dataFlags{features: from, labelSettings: &labelSettings{header: "auto"}}
					err := runPredictMulti(ctx, s, o, m, sampleNames{})
					cancel()
					name := "from " + from
					if fails {
						name += ", failing"
					}
					if !errors.Is(err, context.Canceled) || errors.Is(err, errModelFailed) || !strings.Contains(err.Error(), "interrupted") {
						t.Errorf("%s, --scores %v, --out %v: error %v; want the interruption", name, scores, toFile, err)
					}
					if entries, _ := os.ReadDir(dir); len(entries) != 0 {
						t.Errorf("%s, --scores %v: left %v", name, scores, entries)
					}
					if !scores && out.Len() != 0 {
						t.Errorf("%s, --out %v: wrote %d bytes of predictions", name, toFile, out.Len())
					}
				}
			}
		}
	}
}
