package source

import (
	"context"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/linear"
)

// checkAgainstLiblinear trains the source of class with TrainOne (tolerance
// 1e-5) and the same problem — the class's rows labelled +1, then the source
// negatives labelled −1, -B 1 — with liblinear-train at the C TrainOne
// chose, and requires the same labels, bias and weights to 1e-3 relative.
// It tests how TrainOne builds the problem, against the peer.
func checkAgainstLiblinear(t *testing.T, f *dataset.Folder, class int, neg *Negatives) {
	t.Helper()
	train := peertest.Tool(t, "liblinear-train")
	cfg := DefaultTrainConfig()
	cfg.Eps = 1e-5
	ours, info, err := TrainOne(context.Background(), f, class, neg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := slices.Concat(f.Rows(class), neg.Source)
	y := make([]float64, len(rows))
	for i := range y {
		y[i] = -1
		if i < info.Positives {
			y[i] = 1
		}
	}
	dir := t.TempDir()
	data, model := filepath.Join(dir, "train.svm"), filepath.Join(dir, "train.model")
	b, err := readSharedRows(f, rows)
	if err != nil {
		t.Fatal(err)
	}
	err = atomicfile.Write(data, func(w io.Writer) error { return dataset.WriteSVMLight(w, b.rows(rows).CSR(), y) })
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(train, "-s", "1", "-c", strconv.FormatFloat(info.C, 'g', -1, 64), "-B", "1", "-e", "1e-5", "-q", data, model)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, msg)
	}
	theirs, err := linear.ReadModelFile(model)
	if err != nil {
		t.Fatal(err)
	}
	// liblinear writes nr_feature = the largest index present; a trailing
	// all-zero column of the data is absent from its model.
	if !slices.Equal(ours.Labels, theirs.Labels) || ours.Bias != theirs.Bias || theirs.NrFeature > ours.NrFeature {
		t.Fatalf("class %d: labels %v / %v, bias %v / %v, features %d / %d", class, ours.Labels, theirs.Labels, ours.Bias, theirs.Bias, ours.NrFeature, theirs.NrFeature)
	}
	w := slices.Clone(ours.W[:theirs.NrFeature])
	w = append(w, ours.W[ours.NrFeature])
	diff := make([]float64, len(w))
	floats.SubTo(diff, w, theirs.W)
	if rel := floats.Norm(diff, 2) / floats.Norm(theirs.W, 2); !(rel <= 1e-3) || math.IsNaN(rel) {
		t.Errorf("class %d, C = %g: weights differ from liblinear's by %.2g relative", class, info.C, rel)
	}
}

func TestTrainOneMatchesLiblinear(t *testing.T) {
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range neg.SourceClasses(f.ClassCounts())[:3] {
		checkAgainstLiblinear(t, f, c, neg)
	}
}
